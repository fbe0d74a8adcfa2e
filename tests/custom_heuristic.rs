//! A heuristic given as a function (`heuristic::Custom`): the one entry point (`solve`) runs it
//! with every algorithm that uses a heuristic, on boards up to 256 cells, counting the nodes the
//! same heuristic built in counts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::common::large::random_walk;
use npuzzle::heuristic::{Custom, MAX_CUSTOM_CELLS};
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, SolveError, solve};

/// Manhattan distance computed from scratch, independently of the library's incremental
/// tables: blank-last goal, tile t belongs on cell t - 1.
fn manhattan(cols: usize, tiles: &[u8]) -> u32 {
    let mut sum = 0;
    for (cell, &t) in tiles.iter().enumerate() {
        if t != 0 {
            let home = usize::from(t) - 1;
            sum += (cell / cols).abs_diff(home / cols) + (cell % cols).abs_diff(home % cols);
        }
    }
    sum as u32
}

fn manhattan_function(cols: usize) -> HeuristicKind {
    HeuristicKind::Custom(Custom::new("test:manhattan", move |t: &[u8]| {
        manhattan(cols, t)
    }))
}

fn walk_board(rows: usize, cols: usize, len: usize, seed: u64) -> Board {
    let tiles = random_walk(rows, cols, Goal::BlankLast, len, seed);
    Board::new(rows, cols, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap()
}

/// A function equal to Manhattan gives the built-in Manhattan's lengths and node counts, node
/// for node, on small boards and on boards past 64 cells (the large capacities).
#[test]
fn a_function_equal_to_manhattan_counts_the_nodes_of_the_builtin_one() {
    let hardest_8 = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    let cases = [
        (hardest_8, 31),
        (walk_board(9, 9, 40, 7), 0),
        (walk_board(16, 16, 30, 3), 0),
    ];
    let algorithms = [
        Algorithm::Astar,
        Algorithm::Idastar,
        Algorithm::IdastarFsm,
        Algorithm::Greedy,
        "wastar:1.5".parse().unwrap(),
        "wida:2".parse().unwrap(),
    ];
    for (board, length) in &cases {
        let ours_kind = manhattan_function(board.cols());
        // On the 256-cell board the unbounded greedy searches wander past the stored depth.
        let count = if board.cells() > 100 {
            2
        } else {
            algorithms.len()
        };
        for &algorithm in &algorithms[..count] {
            let limits = Limits::default();
            let ours = solve(board, Goal::BlankLast, algorithm, &ours_kind, &limits).unwrap();
            let kind = HeuristicKind::Manhattan;
            let builtin = solve(board, Goal::BlankLast, algorithm, &kind, &limits).unwrap();
            let what = format!("{algorithm} on {} x {}", board.rows(), board.cols());
            assert_eq!(ours.status, Outcome::Solved, "{what}");
            assert_eq!(builtin.status, Outcome::Solved, "{what}");
            if *length > 0 && algorithm.is_optimal() {
                assert_eq!(ours.moves.as_ref().map(Vec::len), Some(*length), "{what}");
            }
            assert_eq!(ours.moves, builtin.moves, "{what}");
            assert_eq!(ours.stats.expanded, builtin.stats.expanded, "{what}");
            assert_eq!(ours.stats.generated, builtin.stats.generated, "{what}");
            assert_eq!(ours.initial_h, builtin.initial_h, "{what}");
        }
    }
}

/// The parallel searches call the function from several threads and still find a shortest
/// solution (replayed by `solve` before it is returned).
#[test]
fn the_parallel_searches_take_a_function() {
    let board = walk_board(4, 4, 36, 11);
    let serial = solve(
        &board,
        Goal::BlankLast,
        Algorithm::Idastar,
        &HeuristicKind::Manhattan,
        &Limits::default(),
    )
    .unwrap();
    let calls = Arc::new(AtomicU64::new(0));
    let counted = calls.clone();
    let kind = HeuristicKind::Custom(Custom::new("test:counted", move |t: &[u8]| {
        counted.fetch_add(1, Ordering::Relaxed);
        manhattan(4, t)
    }));
    for algorithm in [Algorithm::ParallelIdastar, Algorithm::ParallelIdastarFsm] {
        calls.store(0, Ordering::Relaxed);
        let ours = solve(
            &board,
            Goal::BlankLast,
            algorithm,
            &kind,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(ours.status, Outcome::Solved, "{algorithm}");
        let (ours_len, serial_len) = (
            ours.moves.map(|m| m.len()),
            serial.moves.as_ref().map(Vec::len),
        );
        assert_eq!(ours_len, serial_len, "{algorithm}");
        assert!(calls.load(Ordering::Relaxed) > 0, "{algorithm}");
    }
}

/// A function is refused where it cannot work, before any search: with a blind algorithm and
/// on a board past 256 cells (tiles no longer fit the byte the function sees).
#[test]
fn a_function_is_refused_by_blind_algorithms_and_boards_past_256_cells() {
    let board = Board::solved(3, 3, Goal::BlankLast);
    for algorithm in [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Dijkstra,
        Algorithm::Approx,
    ] {
        let err = solve(
            &board,
            Goal::BlankLast,
            algorithm,
            &manhattan_function(3),
            &Limits::default(),
        )
        .unwrap_err();
        assert!(
            matches!(err, SolveError::FunctionToBlind { .. }),
            "{algorithm}: {err}"
        );
        assert!(
            err.to_string()
                .contains("does not take a heuristic given as a function")
        );
    }
    let board = walk_board(17, 16, 4, 1);
    assert!(board.cells() > MAX_CUSTOM_CELLS);
    let err = solve(
        &board,
        Goal::BlankLast,
        Algorithm::Astar,
        &manhattan_function(16),
        &Limits::default(),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, SolveError::Heuristic(_)), "{text}");
    assert!(
        text.contains("test:manhattan") && text.contains("17 x 16") && text.contains("256"),
        "{text}"
    );
}

/// The cancel flag raised from inside the function stops the search, whatever the algorithm.
#[test]
fn the_function_can_stop_the_search() {
    let board = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    for algorithm in [Algorithm::Idastar, Algorithm::Astar] {
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            cancel: Some(cancel.clone()),
            ..Limits::default()
        };
        let raise = cancel.clone();
        let kind = HeuristicKind::Custom(Custom::new("test:stop", move |_: &[u8]| {
            raise.store(true, Ordering::SeqCst);
            0
        }));
        let report = solve(&board, Goal::BlankLast, algorithm, &kind, &limits).unwrap();
        assert_eq!(report.status, Outcome::Cancelled, "{algorithm}");
        assert!(report.moves.is_none());
    }
}
