//! Exact search on boards of more than 64 cells, checked against oracles written here:
//! a plain breadth-first search for exact distances and a plain recursive IDA* (Manhattan or
//! misplaced tiles computed from scratch at every node) for node counts, both on `Vec<u16>`
//! positions and independent of the library's search code.

use std::collections::{HashSet, VecDeque};

use crate::common;

use common::large::{goal_tiles, neighbours, random_walk};
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, SolveError, solve};

/// The exact distance from `start` to the goal, by plain breadth-first search.
fn bfs_distance(rows: usize, cols: usize, start: &[u16], goal: Goal) -> usize {
    let target = goal_tiles(rows * cols, goal);
    let mut seen: HashSet<Vec<u16>> = HashSet::from([start.to_vec()]);
    let mut queue = VecDeque::from([(start.to_vec(), 0usize)]);
    while let Some((tiles, d)) = queue.pop_front() {
        if tiles == target {
            return d;
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        for n in neighbours(blank, rows, cols) {
            let mut child = tiles.clone();
            child.swap(blank, n);
            if seen.insert(child.clone()) {
                queue.push_back((child, d + 1));
            }
        }
    }
    unreachable!("a random walk's start reaches the goal")
}

/// A plain recursive IDA* with Korf's conventions (successors in Korf's order, no move back to
/// the parent, children over the bound counted as generated, the root counted once): returns
/// (solution length, expanded, generated).
struct ReferenceIda {
    rows: usize,
    cols: usize,
    /// The heuristic's term of tile `t` on cell `c` at `t * cells + c` (zero for the blank),
    /// tabulated once so that the sum from scratch at every node is a plain table walk.
    cost: Vec<u16>,
    expanded: u64,
    generated: u64,
    next_bound: usize,
}

impl ReferenceIda {
    fn new(rows: usize, cols: usize, goal: Goal, misplaced: bool) -> Self {
        let cells = rows * cols;
        let target = goal_tiles(cells, goal);
        let mut cost = vec![0; cells * cells];
        for (g, &t) in target.iter().enumerate().filter(|&(_, &t)| t != 0) {
            for c in 0..cells {
                cost[usize::from(t) * cells + c] = if misplaced {
                    u16::from(g != c)
                } else {
                    ((c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols)) as u16
                };
            }
        }
        ReferenceIda {
            rows,
            cols,
            cost,
            expanded: 0,
            generated: 1,
            next_bound: usize::MAX,
        }
    }

    /// The heuristic summed over every cell, from scratch.
    fn h(&self, tiles: &[u16]) -> usize {
        let cells = tiles.len();
        tiles
            .iter()
            .enumerate()
            .map(|(c, &t)| usize::from(self.cost[usize::from(t) * cells + c]))
            .sum()
    }

    /// One depth-first pass below `tiles`, whose heuristic value is `h`.
    fn dfs(
        &mut self,
        tiles: &mut Vec<u16>,
        h: usize,
        blank: usize,
        parent: usize,
        g: usize,
        bound: usize,
    ) -> bool {
        if h == 0 {
            return true;
        }
        self.expanded += 1;
        for n in neighbours(blank, self.rows, self.cols) {
            if n == parent {
                continue;
            }
            self.generated += 1;
            tiles.swap(blank, n);
            let child_h = self.h(tiles);
            let f = g + 1 + child_h;
            if f > bound {
                self.next_bound = self.next_bound.min(f);
            } else if self.dfs(tiles, child_h, n, blank, g + 1, bound) {
                return true;
            }
            tiles.swap(blank, n);
        }
        false
    }

    fn solve(
        rows: usize,
        cols: usize,
        start: &[u16],
        goal: Goal,
        misplaced: bool,
    ) -> (usize, u64, u64) {
        let mut ida = ReferenceIda::new(rows, cols, goal, misplaced);
        let mut tiles = start.to_vec();
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        let h = ida.h(&tiles);
        let mut bound = h;
        loop {
            ida.next_bound = usize::MAX;
            if ida.dfs(&mut tiles, h, blank, usize::MAX, 0, bound) {
                return (bound, ida.expanded, ida.generated);
            }
            bound = ida.next_bound;
        }
    }
}

fn board(rows: usize, cols: usize, tiles: &[u16]) -> Board {
    Board::new(rows, cols, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap()
}

fn solved_length(b: &Board, goal: Goal, algorithm: Algorithm, h: &HeuristicKind) -> usize {
    let report = solve(b, goal, algorithm, h, &Limits::default())
        .unwrap_or_else(|e| panic!("{algorithm} + {h}: {e}"));
    assert_eq!(report.status, Outcome::Solved, "{algorithm} + {h}");
    report.moves.unwrap().len()
}

const SIZES: [(usize, usize); 5] = [(9, 9), (10, 10), (12, 12), (3, 30), (30, 3)];
const GOALS: [Goal; 2] = [Goal::BlankLast, Goal::BlankFirst];

fn informed() -> Vec<HeuristicKind> {
    vec![
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ]
}

/// Short walks: every exact algorithm, blind ones included, equals the BFS distance.
#[test]
fn every_exact_algorithm_matches_bfs_distances_on_short_walks() {
    for (i, &(rows, cols)) in SIZES.iter().enumerate() {
        for goal in GOALS {
            let start = random_walk(rows, cols, goal, 10, 100 + i as u64);
            let d = bfs_distance(rows, cols, &start, goal);
            let b = board(rows, cols, &start);
            for a in [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Dijkstra] {
                assert_eq!(
                    solved_length(&b, goal, a, &HeuristicKind::None),
                    d,
                    "{a} on {rows} x {cols} {goal:?}"
                );
            }
            for h in informed() {
                for a in [
                    Algorithm::Astar,
                    Algorithm::Idastar,
                    Algorithm::ParallelIdastar,
                    Algorithm::IdastarFsm,
                    Algorithm::ParallelIdastarFsm,
                ] {
                    assert_eq!(
                        solved_length(&b, goal, a, &h),
                        d,
                        "{a} + {h} on {rows} x {cols} {goal:?}"
                    );
                }
            }
        }
    }
}

/// Longer walks (beyond plain BFS): the informed exact algorithms and bidirectional BFS agree
/// with the reference IDA*'s length, and IDA* equals it node for node.
#[test]
fn idastar_equals_a_reference_idastar_node_for_node() {
    for (i, &(rows, cols)) in SIZES.iter().enumerate() {
        for goal in GOALS {
            let start = random_walk(rows, cols, goal, 40, 200 + i as u64);
            let b = board(rows, cols, &start);
            for (misplaced, h) in [
                (false, HeuristicKind::Manhattan),
                (true, HeuristicKind::Misplaced),
            ] {
                if misplaced && rows * cols > 100 {
                    continue; // misplaced tiles is too weak for 40-move walks on the larger boards
                }
                let (d, expanded, generated) =
                    ReferenceIda::solve(rows, cols, &start, goal, misplaced);
                let report = solve(&b, goal, Algorithm::Idastar, &h, &Limits::default()).unwrap();
                assert_eq!(
                    report.moves.as_ref().map(Vec::len),
                    Some(d),
                    "{rows} x {cols} {goal:?} {h}"
                );
                assert_eq!(
                    (report.stats.expanded, report.stats.generated),
                    (expanded, generated),
                    "IDA* + {h} counts on {rows} x {cols} {goal:?}"
                );
                if misplaced {
                    continue;
                }
                for a in [
                    Algorithm::Astar,
                    Algorithm::IdastarFsm,
                    Algorithm::ParallelIdastar,
                ] {
                    assert_eq!(
                        solved_length(&b, goal, a, &h),
                        d,
                        "{a} on {rows} x {cols} {goal:?}"
                    );
                }
                assert_eq!(
                    solved_length(&b, goal, Algorithm::Astar, &HeuristicKind::LinearConflict),
                    d
                );
            }
        }
    }
}

/// The bounded-suboptimal algorithms return valid solutions within their bound (`solve`
/// replays each), greedy any valid one.
#[test]
fn suboptimal_algorithms_on_large_boards() {
    for (i, &(rows, cols)) in SIZES.iter().enumerate() {
        let goal = GOALS[i % 2];
        let start = random_walk(rows, cols, goal, 30, 300 + i as u64);
        let (d, _, _) = ReferenceIda::solve(rows, cols, &start, goal, false);
        let b = board(rows, cols, &start);
        let h = HeuristicKind::Manhattan;
        for a in ["wastar:1.5", "wida:1.5"] {
            let a: Algorithm = a.parse().unwrap();
            let len = solved_length(&b, goal, a, &h);
            assert!(len >= d && 2 * len <= 3 * d, "{a}: {len} vs optimal {d}");
        }
        // Greedy may wander into paths longer than the best-first searches can store; it
        // then says so.
        let greedy = solve(&b, goal, Algorithm::Greedy, &h, &Limits::default()).unwrap();
        match greedy.status {
            Outcome::Solved => assert!(greedy.moves.unwrap().len() >= d),
            other => assert_eq!(other, Outcome::DepthLimit),
        }
    }
}

/// Boards with more than 255 cells use two bytes a tile.
#[test]
fn two_byte_tiles() {
    for (rows, cols) in [(20, 20), (2, 200)] {
        let goal = Goal::BlankLast;
        let start = random_walk(rows, cols, goal, 8, 7);
        let d = bfs_distance(rows, cols, &start, goal);
        let b = board(rows, cols, &start);
        for a in [Algorithm::Bfs, Algorithm::Bibfs] {
            assert_eq!(solved_length(&b, goal, a, &HeuristicKind::None), d, "{a}");
        }
        for h in informed() {
            for a in [Algorithm::Astar, Algorithm::Idastar] {
                assert_eq!(solved_length(&b, goal, a, &h), d, "{a} + {h}");
            }
        }
    }
}

/// What the general path does not take is refused with a message naming the limit.
#[test]
fn refusals_name_the_limit() {
    let b = board(9, 9, &random_walk(9, 9, Goal::BlankLast, 6, 1));
    let e = solve(
        &b,
        Goal::BlankLast,
        Algorithm::Idastar,
        &HeuristicKind::WalkingDistance,
        &Limits::default(),
    )
    .unwrap_err();
    assert!(matches!(e, SolveError::Heuristic(_)), "{e}");
    assert!(e.to_string().contains("16 cells"), "{e}");
    let huge = Board::solved(65, 65, Goal::BlankLast);
    let e = solve(
        &huge,
        Goal::BlankLast,
        Algorithm::Astar,
        &HeuristicKind::Manhattan,
        &Limits::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most 4096 cells"), "{e}");
}
