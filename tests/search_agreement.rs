//! Every search against exact distances, and IDA*'s fast path against a plain reference
//! implementation written here (its own heuristics, its own move generation).

use crate::common;

use common::exact_distances;
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Move, Outcome, solve};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn goal_of(blank_first: bool) -> Goal {
    if blank_first {
        Goal::BlankFirst
    } else {
        Goal::BlankLast
    }
}

/// A random walk from the goal that never undoes its previous move.
fn walk(rows: usize, cols: usize, goal: Goal, len: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut b = Board::solved(rows, cols, goal);
    let mut last: Option<Move> = None;
    let mut done = 0;
    while done < len {
        let m = Move::KORF_ORDER[rng.random_range(0..4)];
        if last == Some(m.inverse()) || !b.apply(m) {
            continue;
        }
        last = Some(m);
        done += 1;
    }
    b
}

const ALL_HEURISTICS: [HeuristicKind; 4] = [
    HeuristicKind::None,
    HeuristicKind::Misplaced,
    HeuristicKind::Manhattan,
    HeuristicKind::LinearConflict,
];

#[test]
fn every_optimal_search_returns_the_exact_distance_on_random_3x3_boards() {
    for blank_first in [false, true] {
        let goal = goal_of(blank_first);
        let dist = exact_distances(3, 3, blank_first);
        let mut rng = ChaCha8Rng::seed_from_u64(7 + u64::from(blank_first));
        let mut checked = 0;
        while checked < 150 {
            let mut tiles: Vec<u32> = (0..9).collect();
            for i in (1..9).rev() {
                tiles.swap(i, rng.random_range(0..=i));
            }
            let board = Board::new(3, 3, tiles.clone()).unwrap();
            let key: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
            let Some(&d) = dist.get(&key) else {
                assert!(!board.is_solvable(goal));
                continue;
            };
            checked += 1;
            for algo in Algorithm::ALL {
                for h in &ALL_HEURISTICS {
                    if algo.is_blind() && *h != HeuristicKind::None {
                        continue;
                    }
                    // Blind IDA* is exponential in the depth: only on the shallower boards.
                    if matches!(algo, Algorithm::Idastar | Algorithm::ParallelIdastar)
                        && *h == HeuristicKind::None
                        && d > 20
                    {
                        continue;
                    }
                    let r = solve(&board, goal, algo, h, &Limits::default()).unwrap();
                    assert_eq!(r.status, Outcome::Solved);
                    let moves = r.moves.unwrap();
                    assert_eq!(moves.len(), d as usize, "{algo} {h} on {board:?}");
                    assert!(board.replay_reaches_goal(&moves, goal));
                    if let Some(h0) = r.initial_h {
                        assert!(h0 <= u32::from(d));
                    }
                }
            }
        }
    }
}

#[test]
fn searches_agree_on_rectangular_boards() {
    for (rows, cols) in [(2, 4), (4, 2), (2, 3)] {
        for blank_first in [false, true] {
            let goal = goal_of(blank_first);
            let dist = exact_distances(rows, cols, blank_first);
            let mut rng = ChaCha8Rng::seed_from_u64(99);
            for _ in 0..40 {
                let board = walk(rows, cols, goal, 40, &mut rng);
                let key: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
                let d = dist[&key] as usize;
                for (algo, h) in [
                    (Algorithm::Bfs, HeuristicKind::None),
                    (Algorithm::Bibfs, HeuristicKind::None),
                    (Algorithm::Dijkstra, HeuristicKind::None),
                    (Algorithm::Astar, HeuristicKind::LinearConflict),
                    (Algorithm::Idastar, HeuristicKind::LinearConflict),
                ] {
                    let r = solve(&board, goal, algo, &h, &Limits::default()).unwrap();
                    assert_eq!(r.moves.unwrap().len(), d, "{algo} {rows}x{cols}");
                }
            }
        }
    }
}

#[test]
fn limits_stop_searches_with_their_status() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let board = walk(4, 4, Goal::BlankLast, 80, &mut rng);
    let limits = Limits {
        max_nodes: Some(10_000),
        ..Limits::default()
    };
    for algo in Algorithm::ALL {
        let r = solve(
            &board,
            Goal::BlankLast,
            algo,
            &HeuristicKind::Misplaced,
            &limits,
        )
        .unwrap();
        assert_eq!(r.status, Outcome::NodeLimit, "{algo}");
        assert!(r.moves.is_none());
        // A parallel search may count one node per worker over the limit (see Budget).
        let slack = if algo.is_parallel() {
            rayon::current_num_threads() as u64
        } else {
            0
        };
        assert!(
            r.stats.generated <= 10_000 + slack,
            "{algo}: {}",
            r.stats.generated
        );
    }
    let limits = Limits {
        max_memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    for algo in [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Dijkstra,
        Algorithm::Astar,
    ] {
        let r = solve(
            &board,
            Goal::BlankLast,
            algo,
            &HeuristicKind::Misplaced,
            &limits,
        )
        .unwrap();
        assert_eq!(r.status, Outcome::MemoryLimit, "{algo}");
        assert!(r.stats.memory_bytes <= 1 << 20);
    }
}

#[test]
fn unsolvable_and_oversized_boards_are_rejected_before_search() {
    let mut tiles: Vec<u32> = (1..16).chain([0]).collect();
    tiles.swap(0, 1);
    let board = Board::new(4, 4, tiles).unwrap();
    let e = solve(
        &board,
        Goal::BlankLast,
        Algorithm::Idastar,
        &HeuristicKind::Manhattan,
        &Limits::default(),
    );
    assert!(matches!(e, Err(npuzzle::SolveError::Unsolvable(_))));
    let big = Board::solved(65, 65, Goal::BlankLast);
    let e = solve(
        &big,
        Goal::BlankLast,
        Algorithm::Idastar,
        &HeuristicKind::Manhattan,
        &Limits::default(),
    );
    assert!(matches!(e, Err(npuzzle::SolveError::TooLarge { .. })));
}

// ---- the reference IDA*: plain code on Vec<u8>, heuristics recomputed from scratch ----

struct Reference {
    rows: usize,
    cols: usize,
    goal_cell: Vec<usize>,
    kind: usize, // 0 none, 1 misplaced, 2 manhattan, 3 linear conflict
    generated: u64,
    expanded: u64,
}

impl Reference {
    fn manhattan(&self, s: &[u8]) -> u32 {
        s.iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, &t)| {
                let g = self.goal_cell[t as usize];
                ((c / self.cols).abs_diff(g / self.cols) + (c % self.cols).abs_diff(g % self.cols))
                    as u32
            })
            .sum()
    }

    /// Fewest tiles to take out of `goals` (goal positions along a line, in line order) so
    /// that the rest are increasing: tried over every subset, independently of any LIS code.
    fn removals(goals: &[usize]) -> u32 {
        let n = goals.len();
        let mut best = n as u32;
        for keep in 0u32..(1 << n) {
            let kept: Vec<usize> = (0..n)
                .filter(|i| keep & (1 << i) != 0)
                .map(|i| goals[i])
                .collect();
            if kept.windows(2).all(|w| w[0] < w[1]) {
                best = best.min((n - kept.len()) as u32);
            }
        }
        best
    }

    fn h(&self, s: &[u8]) -> u32 {
        match self.kind {
            0 => 0,
            1 => s
                .iter()
                .enumerate()
                .filter(|&(c, &t)| t != 0 && self.goal_cell[t as usize] != c)
                .count() as u32,
            2 => self.manhattan(s),
            _ => {
                let mut extra = 0;
                for r in 0..self.rows {
                    let goals: Vec<usize> = (0..self.cols)
                        .map(|c| s[r * self.cols + c])
                        .filter(|&t| t != 0 && self.goal_cell[t as usize] / self.cols == r)
                        .map(|t| self.goal_cell[t as usize] % self.cols)
                        .collect();
                    extra += 2 * Self::removals(&goals);
                }
                for c in 0..self.cols {
                    let goals: Vec<usize> = (0..self.rows)
                        .map(|r| s[r * self.cols + c])
                        .filter(|&t| t != 0 && self.goal_cell[t as usize] % self.cols == c)
                        .map(|t| self.goal_cell[t as usize] / self.cols)
                        .collect();
                    extra += 2 * Self::removals(&goals);
                }
                self.manhattan(s) + extra
            }
        }
    }

    fn dfs(
        &mut self,
        s: &mut Vec<u8>,
        parent: Option<usize>,
        g: u32,
        bound: u32,
        next: &mut u32,
    ) -> Option<u32> {
        let h = self.h(s);
        if g + h > bound {
            *next = (*next).min(g + h);
            return None;
        }
        if s.iter()
            .enumerate()
            .all(|(c, &t)| self.goal_cell[t as usize] == c)
        {
            return Some(g);
        }
        self.expanded += 1;
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / self.cols, b % self.cols);
        // Up, left, right, down.
        let mut succ = Vec::new();
        if r > 0 {
            succ.push(b - self.cols);
        }
        if c > 0 {
            succ.push(b - 1);
        }
        if c + 1 < self.cols {
            succ.push(b + 1);
        }
        if r + 1 < self.rows {
            succ.push(b + self.cols);
        }
        for n in succ {
            if Some(n) == parent {
                continue;
            }
            self.generated += 1;
            s.swap(b, n);
            let found = self.dfs(s, Some(b), g + 1, bound, next);
            s.swap(b, n);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn solve(&mut self, start: &[u8]) -> u32 {
        let mut s = start.to_vec();
        let mut bound = self.h(&s);
        self.generated = 1;
        loop {
            let mut next = u32::MAX;
            if let Some(len) = self.dfs(&mut s, None, 0, bound, &mut next) {
                return len;
            }
            bound = next;
        }
    }
}

#[test]
fn fast_idastar_matches_the_reference_node_for_node() {
    let kinds = [
        HeuristicKind::None,
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ];
    for (rows, cols, walk_len, count) in [
        (3, 3, 40, 25),
        (4, 4, 30, 12),
        (3, 4, 30, 8),
        (2, 8, 24, 4),
        (8, 2, 24, 4),
        (5, 5, 24, 4),
    ] {
        for blank_first in [false, true] {
            let goal = goal_of(blank_first);
            let cells = rows * cols;
            let goal_cell: Vec<usize> = (0..cells).map(|t| goal.cell_of(t, cells)).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            for _ in 0..count {
                let board = walk(rows, cols, goal, walk_len, &mut rng);
                let start: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
                for (k, kind) in kinds.iter().enumerate() {
                    // Blind IDA* is exponential: only on small, shallow boards.
                    if k == 0 && (cells > 9 || board.manhattan(goal) > 14) {
                        continue;
                    }
                    let mut reference = Reference {
                        rows,
                        cols,
                        goal_cell: goal_cell.clone(),
                        kind: k,
                        generated: 0,
                        expanded: 0,
                    };
                    let len = reference.solve(&start);
                    let r =
                        solve(&board, goal, Algorithm::Idastar, kind, &Limits::default()).unwrap();
                    assert_eq!(r.moves.unwrap().len() as u32, len, "{kind} {rows}x{cols}");
                    assert_eq!(
                        r.stats.generated, reference.generated,
                        "{kind} generated {rows}x{cols} {blank_first}"
                    );
                    assert_eq!(r.stats.expanded, reference.expanded, "{kind} expanded");
                }
            }
        }
    }
}

#[test]
fn bounded_suboptimal_searches_stay_within_their_weight() {
    let dist = exact_distances(3, 3, false);
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let weights = ["1", "1.25", "1.5", "2", "3"];
    for _ in 0..60 {
        let board = walk(3, 3, Goal::BlankLast, 60, &mut rng);
        let key: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
        let d = dist[&key] as f64;
        for w in weights {
            for name in [format!("wastar:{w}"), format!("wida:{w}")] {
                let algo: Algorithm = name.parse().unwrap();
                for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                    let r = solve(&board, Goal::BlankLast, algo, &h, &Limits::default()).unwrap();
                    let len = r.moves.unwrap().len() as f64;
                    let bound: f64 = w.parse().unwrap();
                    assert!(len <= bound * d + 1e-9, "{name} {h}: {len} > {bound} x {d}");
                    if w == "1" {
                        assert_eq!(len, d, "{name} with W = 1 must be optimal");
                    }
                }
            }
        }
        let r = solve(
            &board,
            Goal::BlankLast,
            Algorithm::Greedy,
            &HeuristicKind::Manhattan,
            &Limits::default(),
        )
        .unwrap();
        assert!(r.moves.unwrap().len() as f64 >= d);
    }
    // Easy 4 x 4 boards: compared with IDA*'s optimal length.
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for _ in 0..10 {
        let board = walk(4, 4, Goal::BlankFirst, 40, &mut rng);
        let opt = solve(
            &board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            &HeuristicKind::LinearConflict,
            &Limits::default(),
        )
        .unwrap()
        .moves
        .unwrap()
        .len() as f64;
        for name in [
            "wastar:1",
            "wida:1",
            "wastar:1.5",
            "wida:1.5",
            "wastar:2",
            "wida:2",
        ] {
            let algo: Algorithm = name.parse().unwrap();
            let w: f64 = name.split(':').nth(1).unwrap().parse().unwrap();
            let len = solve(
                &board,
                Goal::BlankFirst,
                algo,
                &HeuristicKind::Manhattan,
                &Limits::default(),
            )
            .unwrap()
            .moves
            .unwrap()
            .len() as f64;
            assert!(len <= w * opt, "{name}: {len} > {w} x {opt}");
            if w == 1.0 {
                assert_eq!(len, opt);
            }
        }
    }
}

#[test]
fn algorithm_names_round_trip_and_bad_weights_are_rejected() {
    for name in [
        "bfs",
        "dijkstra",
        "astar",
        "idastar",
        "greedy",
        "wastar:1.5",
        "wida:2",
        "wastar:1.25",
    ] {
        let a: Algorithm = name.parse().unwrap();
        assert_eq!(a.to_string(), name);
    }
    assert_eq!(
        "wastar:1.50".parse::<Algorithm>().unwrap().to_string(),
        "wastar:1.5"
    );
    for bad in [
        "wastar",
        "wastar:",
        "wastar:0.5",
        "wastar:x",
        "wida:1.234",
        "wida:-2",
        "astar2",
    ] {
        assert!(bad.parse::<Algorithm>().is_err(), "{bad}");
    }
}
