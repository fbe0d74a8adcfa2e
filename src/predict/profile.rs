//! What the prediction methods know about a heuristic: its distribution per blank cell (KRE)
//! and the distribution of a child's value given its parent's value, blank cell and move
//! (CDP), exact over all states of a small board or sampled from uniformly random solvable
//! positions.
//!
//! Samples are drawn per blank cell (the same number for every cell, each position uniform
//! among the solvable ones with the blank there), so that every cell's distribution is known
//! equally well; the methods weight the cells by the tree's own visits.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::generate::{below, instance_rng};
use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};
use crate::heuristic::Built;

/// Boards of at most this many cells are profiled over all their states (10! / 2 = 1.8 M).
pub const EXACT_MAX_CELLS: usize = 10;

/// Per parent estimate, the (child minus parent, probability) pairs of one move.
pub type Deltas = Vec<Vec<(i32, f64)>>;

/// A heuristic's profile on one board size and goal.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Whether every state was counted (else sampled).
    pub exact: bool,
    /// `hist[c][h]`: states with the blank on `c` and estimate `h`.
    pub hist: Vec<Vec<f64>>,
    /// `states[c]`: states counted with the blank on `c`.
    pub states: Vec<f64>,
    /// `moves[c][k]`: for the move to the `k`-th neighbour of `c`, the child's estimate minus
    /// the parent's, by the parent's estimate: `moves[c][k][h]` = (delta, probability) pairs.
    /// Parent estimates never seen take the nearest one seen.
    pub moves: Vec<Vec<Deltas>>,
    /// Whether every move seen changed the estimate by an odd amount (then IDA*'s bounds
    /// step by 2 and keep the parity of the start's estimate).
    pub odd_steps: bool,
}

/// One cell's tallies.
#[derive(Default)]
struct Tally {
    hist: Vec<f64>,
    states: f64,
    moves: Vec<FxHashMap<(u32, i32), f64>>,
    odd: bool,
}

impl Profile {
    /// The profile of `built`: exact if the board has at most [`EXACT_MAX_CELLS`] cells, else
    /// from `samples_per_cell` random positions per blank cell drawn from `seed`.
    pub fn new(geometry: &Geometry, built: &Built, samples_per_cell: usize, seed: u64) -> Profile {
        let exact = geometry.cells <= EXACT_MAX_CELLS;
        let tallies: Vec<Tally> = (0..geometry.cells)
            .into_par_iter()
            .map(|cell| {
                let mut t = Tally {
                    moves: vec![FxHashMap::default(); geometry.neighbour_count[cell] as usize],
                    odd: true,
                    ..Tally::default()
                };
                if exact {
                    for_each_state_with_blank(geometry, cell, |tiles| {
                        tally(geometry, built, tiles, cell, &mut t)
                    });
                } else {
                    let mut rng = instance_rng(seed, cell as u64 + 1);
                    for _ in 0..samples_per_cell {
                        let tiles = random_state(geometry, cell, &mut rng);
                        tally(geometry, built, &tiles, cell, &mut t);
                    }
                }
                t
            })
            .collect();
        let odd_steps = tallies.iter().all(|t| t.odd);
        let hmax = tallies.iter().map(|t| t.hist.len()).max().unwrap_or(1);
        let moves = tallies
            .iter()
            .map(|t| t.moves.iter().map(|m| normalise(m, hmax)).collect())
            .collect();
        Profile {
            exact,
            hist: tallies.iter().map(|t| t.hist.clone()).collect(),
            states: tallies.iter().map(|t| t.states).collect(),
            moves,
            odd_steps,
        }
    }

    /// Replaces the per-cell distribution with an exact one (`hist[c][h]`, from a census
    /// table); the move statistics CDP uses stay as they were.
    pub fn use_exact(&mut self, hist: Vec<Vec<f64>>) {
        self.states = hist.iter().map(|h| h.iter().sum()).collect();
        self.hist = hist;
        self.exact = true;
    }

    /// The probability that a state with the blank on `cell` has an estimate of at most `v`.
    pub fn cdf(&self, cell: usize, v: i64) -> f64 {
        if v < 0 {
            return 0.0;
        }
        let h = &self.hist[cell];
        let upto = (v as usize + 1).min(h.len());
        h[..upto].iter().sum::<f64>() / self.states[cell]
    }

    /// The mean estimate over all states (every cell weighted by its number of states).
    pub fn mean(&self) -> f64 {
        let (mut s, mut n) = (0.0, 0.0);
        for (hist, &m) in self.hist.iter().zip(&self.states) {
            s += hist
                .iter()
                .enumerate()
                .map(|(h, &k)| h as f64 * k)
                .sum::<f64>();
            n += m;
        }
        s / n
    }

    /// The child-minus-parent distribution for the move to neighbour `k` of `cell` from a
    /// parent with estimate `h`.
    pub fn step(&self, cell: usize, k: usize, h: u32) -> &[(i32, f64)] {
        let m = &self.moves[cell][k];
        &m[(h as usize).min(m.len() - 1)]
    }
}

fn tally(geometry: &Geometry, built: &Built, tiles: &Tiles, cell: usize, t: &mut Tally) {
    let h = built.estimate(geometry, tiles);
    if t.hist.len() <= h as usize {
        t.hist.resize(h as usize + 1, 0.0);
    }
    t.hist[h as usize] += 1.0;
    t.states += 1.0;
    let mut child = *tiles;
    for k in 0..geometry.neighbour_count[cell] as usize {
        let next = geometry.neighbours[cell][k] as usize;
        child.swap(cell, next);
        let h2 = built.estimate(geometry, &child);
        child.swap(cell, next);
        let delta = h2 as i32 - h as i32;
        t.odd &= delta % 2 != 0;
        *t.moves[k].entry((h, delta)).or_default() += 1.0;
    }
}

/// Per parent estimate `0..hmax`, the normalised deltas; estimates never seen borrow the
/// nearest seen one's (below first, then above).
fn normalise(m: &FxHashMap<(u32, i32), f64>, hmax: usize) -> Deltas {
    let mut by_h: Vec<Vec<(i32, f64)>> = vec![Vec::new(); hmax];
    for (&(h, d), &n) in m {
        by_h[h as usize].push((d, n));
    }
    for v in &mut by_h {
        v.sort_by_key(|&(d, _)| d);
        let total: f64 = v.iter().map(|&(_, n)| n).sum();
        for e in v.iter_mut() {
            e.1 /= total;
        }
    }
    let seen: Vec<usize> = (0..hmax).filter(|&h| !by_h[h].is_empty()).collect();
    if seen.is_empty() {
        return vec![vec![(0, 1.0)]; hmax];
    }
    for h in 0..hmax {
        if by_h[h].is_empty() {
            let nearest = *seen
                .iter()
                .min_by_key(|&&s| (s as i64 - h as i64).abs())
                .expect("not empty");
            by_h[h] = by_h[nearest].clone();
        }
    }
    by_h
}

/// Whether a position can reach the goal: the permutation of cells (blank included) that
/// takes every tile to its goal cell must have the parity of the blank's grid distance to
/// its goal cell (every move is one transposition and moves the blank one step).
pub fn solvable(geometry: &Geometry, tiles: &Tiles) -> bool {
    let n = geometry.cells;
    let mut seen = [false; MAX_EXACT_CELLS];
    let mut transpositions = 0usize;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        let mut len = 0usize;
        let mut c = start;
        while !seen[c] {
            seen[c] = true;
            c = geometry.goal_cell[tiles[c] as usize] as usize;
            len += 1;
        }
        transpositions += len - 1;
    }
    let blank = geometry.blank_of(tiles);
    let goal = geometry.goal_cell[0] as usize;
    let dist = geometry.row(blank).abs_diff(geometry.row(goal))
        + geometry.col(blank).abs_diff(geometry.col(goal));
    transpositions % 2 == dist % 2
}

/// A position drawn uniformly from the solvable ones with the blank on `cell`: the tiles
/// shuffled over the other cells (Fisher-Yates), then, if unsolvable, the first two tiles
/// swapped (a bijection between the unsolvable and the solvable positions with that blank).
pub fn random_state<R: rand::Rng + ?Sized>(geometry: &Geometry, cell: usize, rng: &mut R) -> Tiles {
    let n = geometry.cells;
    let mut tiles = [0u8; MAX_EXACT_CELLS];
    let mut rest: Vec<u8> = (1..n as u8).collect();
    for i in (1..rest.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        rest.swap(i, j);
    }
    let mut it = rest.into_iter();
    for (c, slot) in tiles.iter_mut().enumerate().take(n) {
        if c != cell {
            *slot = it.next().expect("n - 1 tiles");
        }
    }
    if !solvable(geometry, &tiles) {
        let mut others = (0..n).filter(|&c| c != cell);
        let (a, b) = (
            others.next().expect("3+ cells"),
            others.next().expect("3+ cells"),
        );
        tiles.swap(a, b);
    }
    tiles
}

/// Calls `f` on every solvable position with the blank on `cell` (Heap's algorithm over the
/// tiles on the other cells).
pub fn for_each_state_with_blank(geometry: &Geometry, cell: usize, mut f: impl FnMut(&Tiles)) {
    let n = geometry.cells;
    let others: Vec<usize> = (0..n).filter(|&c| c != cell).collect();
    let mut tiles = [0u8; MAX_EXACT_CELLS];
    let mut perm: Vec<u8> = (1..n as u8).collect();
    let m = perm.len();
    let mut visit = |perm: &[u8]| {
        for (&c, &t) in others.iter().zip(perm) {
            tiles[c] = t;
        }
        if solvable(geometry, &tiles) {
            f(&tiles);
        }
    };
    visit(&perm);
    let mut stack = vec![0usize; m];
    let mut i = 1;
    while i < m {
        if stack[i] < i {
            if i % 2 == 0 {
                perm.swap(0, i);
            } else {
                perm.swap(stack[i], i);
            }
            visit(&perm);
            stack[i] += 1;
            i = 1;
        } else {
            stack[i] = 0;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal};

    #[test]
    fn solvability_agrees_with_the_board_model() {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let g = Geometry::new(3, 4, goal);
            let mut rng = instance_rng(7, 1);
            for _ in 0..500 {
                let mut tiles: Vec<u32> = (0..12).collect();
                for i in (1..12).rev() {
                    tiles.swap(i, below(&mut rng, i as u64 + 1) as usize);
                }
                let board = Board::new(3, 4, tiles).unwrap();
                let compact = g.compact_tiles(&board);
                assert_eq!(solvable(&g, &compact), board.is_solvable(goal));
            }
        }
    }

    #[test]
    fn exact_enumeration_counts_half_the_permutations() {
        let g = Geometry::new(2, 4, Goal::BlankLast);
        let mut n = 0usize;
        let mut distinct = std::collections::HashSet::new();
        for cell in 0..8 {
            for_each_state_with_blank(&g, cell, |t| {
                n += 1;
                distinct.insert(t[..8].to_vec());
            });
        }
        assert_eq!(n, 20_160);
        assert_eq!(distinct.len(), 20_160);
    }
}
