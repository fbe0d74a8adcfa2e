//! The brute-force tree IDA* walks: every move path from the start, the move back to the parent
//! never generated, optionally with the duplicate-path automaton of `idastar-fsm`.
//!
//! On the sliding puzzle the number of children depends on where the blank is (two in a
//! corner, four inside) and on the automaton's state, so the tree is counted by dynamic
//! programming over (blank cell, automaton state): the number of paths of each length ending
//! in each pair. The counts are exact (kept in `f64`, which is exact below 2^53 and within
//! one part in 10^15 beyond); the prediction methods need them per blank cell, because the
//! heuristic's distribution differs from cell to cell and the tree visits the cells in
//! proportions that differ from the uniform one.

use crate::board::Move;
use crate::geometry::Geometry;
use crate::search::duplicates::MoveAutomaton;

/// Which brute-force tree: plain IDA* (the move back pruned) or `idastar-fsm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Pruning {
    /// Only the move back to the parent is never generated.
    #[value(name = "plain")]
    Parent,
    /// The duplicate-path automaton of `idastar-fsm` (strings up to 12 moves).
    #[value(name = "fsm")]
    Automaton,
}

impl Pruning {
    /// The name used in outputs: `plain` or `fsm`.
    pub fn name(self) -> &'static str {
        match self {
            Pruning::Parent => "plain",
            Pruning::Automaton => "fsm",
        }
    }

    /// The move automaton that implements this pruning: for `Parent` the automaton of the
    /// strings of two moves, which rejects exactly the move back.
    pub fn automaton(self) -> &'static MoveAutomaton {
        match self {
            Pruning::Parent => {
                static BACK: std::sync::OnceLock<MoveAutomaton> = std::sync::OnceLock::new();
                BACK.get_or_init(|| MoveAutomaton::new(2))
            }
            Pruning::Automaton => MoveAutomaton::shared(),
        }
    }
}

/// The brute-force tree by depth, per blank cell.
#[derive(Debug, Clone)]
pub struct TreeCounts {
    /// Cells of the board.
    pub cells: usize,
    /// `nodes[i][c]`: nodes at depth `i` with the blank on cell `c`.
    pub nodes: Vec<Vec<f64>>,
    /// `children[i][c]`: children of the nodes at depth `i` with the blank on `c` (the nodes at
    /// depth `i + 1` whose parent has the blank on `c`).
    pub children: Vec<Vec<f64>>,
}

impl TreeCounts {
    /// The tree to `depth` (inclusive) from a start whose blank lies on cell `c` with weight
    /// `start[c]` (one cell with weight 1 for one start position; `1 / cells` each for a
    /// uniformly random start).
    pub fn new(geometry: &Geometry, pruning: Pruning, start: &[f64], depth: usize) -> TreeCounts {
        let automaton = pruning.automaton();
        let cells = geometry.cells;
        let states = automaton.states();
        // paths[state * cells + cell]
        let mut paths = vec![0f64; states * cells];
        for (c, &w) in start.iter().enumerate().take(cells) {
            paths[MoveAutomaton::START as usize * cells + c] = w;
        }
        let mut nodes = Vec::with_capacity(depth + 1);
        let mut children = Vec::with_capacity(depth + 1);
        let mut active: Vec<usize> = (0..cells).filter(|&c| start[c] != 0.0).collect();
        for _ in 0..=depth {
            let mut at = vec![0f64; cells];
            let mut kids = vec![0f64; cells];
            let mut next = vec![0f64; states * cells];
            let mut next_active = Vec::with_capacity(active.len() * 3);
            for &i in &active {
                let count = paths[i];
                let (state, cell) = ((i / cells) as u32, i % cells);
                at[cell] += count;
                for k in 0..geometry.neighbour_count[cell] as usize {
                    let t = automaton.step(state, geometry.neighbour_move[cell][k]);
                    if t == MoveAutomaton::DEAD {
                        continue;
                    }
                    kids[cell] += count;
                    let j = t as usize * cells + geometry.neighbours[cell][k] as usize;
                    if next[j] == 0.0 {
                        next_active.push(j);
                    }
                    next[j] += count;
                }
            }
            nodes.push(at);
            children.push(kids);
            paths = next;
            active = next_active;
        }
        TreeCounts {
            cells,
            nodes,
            children,
        }
    }

    /// The tree from a uniformly random blank cell (each cell weight `1 / cells`).
    pub fn uniform(geometry: &Geometry, pruning: Pruning, depth: usize) -> TreeCounts {
        let w = 1.0 / geometry.cells as f64;
        TreeCounts::new(geometry, pruning, &vec![w; geometry.cells], depth)
    }

    /// The tree from one start cell.
    pub fn from_cell(
        geometry: &Geometry,
        pruning: Pruning,
        cell: usize,
        depth: usize,
    ) -> TreeCounts {
        let mut start = vec![0.0; geometry.cells];
        start[cell] = 1.0;
        TreeCounts::new(geometry, pruning, &start, depth)
    }

    /// The deepest depth counted.
    pub fn depth(&self) -> usize {
        self.nodes.len() - 1
    }

    /// All nodes at depth `i`.
    pub fn total(&self, i: usize) -> f64 {
        self.nodes[i].iter().sum()
    }
}

/// Per depth, blank cell and last move, the share of the brute-force tree's nodes that may
/// make each move: what CDP needs to follow a tree whose moves depend on more than the last
/// one (the `fsm` automaton) with types that carry only the last move. Counted exactly by the
/// same dynamic programming as [`TreeCounts`], from one start cell; on the plain tree every
/// share is 0 (the move back) or 1.
#[derive(Debug, Clone)]
pub struct MoveShares {
    /// The tree.
    pub pruning: Pruning,
    cells: usize,
    /// `share[((i * cells + c) * 5 + last) * 4 + k]`; `last` is `Move as usize`, 4 at the root.
    share: Vec<f64>,
}

impl MoveShares {
    /// The shares to `depth` (inclusive) for the tree from a start with the blank on `cell`.
    pub fn new(geometry: &Geometry, pruning: Pruning, cell: usize, depth: usize) -> MoveShares {
        let automaton = pruning.automaton();
        let cells = geometry.cells;
        let states = automaton.states();
        let last_of = last_moves(automaton);
        let mut paths = vec![0f64; states * cells];
        paths[MoveAutomaton::START as usize * cells + cell] = 1.0;
        let mut active = vec![MoveAutomaton::START as usize * cells + cell];
        let mut share = vec![0f64; (depth + 1) * cells * 20];
        for i in 0..=depth {
            let mut tot = vec![0f64; cells * 5];
            let level = &mut share[i * cells * 20..(i + 1) * cells * 20];
            let mut next = vec![0f64; states * cells];
            let mut next_active = Vec::with_capacity(active.len() * 3);
            let mut sum = 0.0;
            for &j in &active {
                let count = paths[j];
                let (state, c) = ((j / cells) as u32, j % cells);
                let last = last_of[state as usize] as usize;
                tot[c * 5 + last] += count;
                for k in 0..geometry.neighbour_count[c] as usize {
                    let t = automaton.step(state, geometry.neighbour_move[c][k]);
                    if t == MoveAutomaton::DEAD {
                        continue;
                    }
                    level[(c * 5 + last) * 4 + k] += count;
                    let to = t as usize * cells + geometry.neighbours[c][k] as usize;
                    if next[to] == 0.0 {
                        next_active.push(to);
                    }
                    next[to] += count;
                    sum += count;
                }
            }
            for (x, slot) in level.iter_mut().enumerate() {
                let t = tot[x / 4];
                *slot = if t > 0.0 { *slot / t } else { 0.0 };
            }
            // Renormalised each level: only the ratios matter, and deep trees overflow.
            if sum > 0.0 {
                for &j in &next_active {
                    next[j] /= sum;
                }
            }
            paths = next;
            active = next_active;
        }
        MoveShares {
            pruning,
            cells,
            share,
        }
    }

    /// The share of the nodes at depth `i` (the deepest counted if beyond) with the blank on
    /// `cell`, reached by the move `last` (4: the root), that may move the blank to the `k`-th
    /// neighbour of `cell`.
    pub fn get(&self, i: usize, cell: usize, last: usize, k: usize) -> f64 {
        let depth = self.share.len() / (self.cells * 20) - 1;
        self.share[((i.min(depth) * self.cells + cell) * 5 + last) * 4 + k]
    }
}

/// The move that leads into each state of `automaton` (4 for the start state). A state
/// determines it: the automaton rejects the move back, so it must know the last move.
fn last_moves(automaton: &MoveAutomaton) -> Vec<u8> {
    let mut last = vec![4u8; automaton.states()];
    for s in 0..automaton.states() as u32 {
        for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
            let t = automaton.step(s, m);
            if t != MoveAutomaton::DEAD {
                debug_assert!(last[t as usize] == 4 || last[t as usize] == m as u8);
                last[t as usize] = m as u8;
            }
        }
    }
    last
}

/// The asymptotic branching factor of the brute-force tree: the growth rate of the number of
/// paths, by power iteration over (cell, automaton state) with the counts renormalised every
/// step. Boards are bipartite, so the ratio of consecutive depths may oscillate; the square
/// root of the ratio two depths apart converges. Iterates until that estimate moves by less
/// than `1e-9` over 20 steps, or `max_depth` steps.
pub fn branching_factor(geometry: &Geometry, pruning: Pruning, max_depth: usize) -> f64 {
    let automaton = pruning.automaton();
    let cells = geometry.cells;
    let states = automaton.states();
    let mut paths = vec![0f64; states * cells];
    paths[..cells].fill(1.0 / cells as f64);
    // Growth factor of the last step.
    let mut g1 = 1.0f64;
    let mut estimate = 0.0f64;
    let mut history: Vec<f64> = Vec::new();
    for _ in 0..max_depth {
        let mut next = vec![0f64; states * cells];
        for (i, &count) in paths.iter().enumerate() {
            if count == 0.0 {
                continue;
            }
            let (state, cell) = ((i / cells) as u32, i % cells);
            for k in 0..geometry.neighbour_count[cell] as usize {
                let t = automaton.step(state, geometry.neighbour_move[cell][k]);
                if t != MoveAutomaton::DEAD {
                    next[t as usize * cells + geometry.neighbours[cell][k] as usize] += count;
                }
            }
        }
        let total: f64 = next.iter().sum();
        for x in &mut next {
            *x /= total;
        }
        paths = next;
        let g2 = std::mem::replace(&mut g1, total);
        estimate = (g1 * g2).sqrt();
        history.push(estimate);
        let n = history.len();
        if n > 40 && (history[n - 1] - history[n - 21]).abs() < 1e-9 {
            break;
        }
    }
    estimate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;

    /// Paths counted one by one, the move back pruned (independent of the automaton).
    fn enumerate(
        g: &Geometry,
        cell: usize,
        parent: usize,
        depth: usize,
        out: &mut [f64],
        level: usize,
    ) {
        out[level] += 1.0;
        if level == depth {
            return;
        }
        for k in 0..g.neighbour_count[cell] as usize {
            let next = g.neighbours[cell][k] as usize;
            if next != parent {
                enumerate(g, next, cell, depth, out, level + 1);
            }
        }
    }

    #[test]
    fn plain_tree_matches_enumeration() {
        let g = Geometry::new(3, 4, Goal::BlankLast);
        for start in [0, 5, 11] {
            let t = TreeCounts::from_cell(&g, Pruning::Parent, start, 12);
            let mut want = vec![0.0; 13];
            enumerate(&g, start, usize::MAX, 12, &mut want, 0);
            for (i, w) in want.iter().enumerate() {
                assert_eq!(t.total(i), *w, "depth {i} from cell {start}");
                let kids: f64 = t.children[i].iter().sum();
                if i < 12 {
                    assert_eq!(kids, want[i + 1]);
                }
            }
        }
    }

    /// Every state of both automata is entered by one move only (what `MoveShares` relies
    /// on), and on the plain tree every share is 0 (the move back) or 1.
    #[test]
    fn automaton_states_know_their_last_move() {
        for pruning in [Pruning::Parent, Pruning::Automaton] {
            let a = pruning.automaton();
            let mut seen = vec![None; a.states()];
            for s in 0..a.states() as u32 {
                for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
                    let t = a.step(s, m);
                    if t != MoveAutomaton::DEAD {
                        assert!(t != MoveAutomaton::START, "{pruning:?}");
                        let prev = seen[t as usize].replace(m);
                        assert!(prev.is_none() || prev == Some(m), "{pruning:?} state {t}");
                    }
                }
            }
        }
        let g = Geometry::new(3, 4, Goal::BlankLast);
        let shares = MoveShares::new(&g, Pruning::Parent, 5, 10);
        for i in 1..=10 {
            for c in 0..12 {
                for k in 0..g.neighbour_count[c] as usize {
                    for last in 0..4 {
                        let back = g.neighbour_move[c][k].inverse() as usize == last;
                        let x = shares.get(i, c, last, k);
                        assert!(x == 0.0 || x == 1.0);
                        if x == 1.0 {
                            assert!(!back);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn edelkamp_korf_branching_factors() {
        // Published values (Edelkamp & Korf 1998 for 4 x 4; issue 14 for the others).
        for (r, c, b) in [(3, 4, 1.93020), (4, 4, 2.13040), (5, 5, 2.36760)] {
            let g = Geometry::new(r, c, Goal::BlankLast);
            let got = branching_factor(&g, Pruning::Parent, 5000);
            assert!((got - b).abs() < 6e-6, "{r} x {c}: {got} vs {b}");
        }
    }
}
