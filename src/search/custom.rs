//! Searches with a heuristic the caller gives at run time as a function of the position: the
//! hook behind the Python package's `heuristic=callable`, so that an idea can be tried in a
//! few lines without a new [`crate::heuristic::Built`] variant.
//!
//! The function sees every generated position whole (no incremental update) and is trusted to
//! return a lower bound: the algorithms' optimality holds only for an admissible one. The
//! built-in heuristics keep their own monomorphic loops; this path is one more instance of
//! the same generic loops (`astar::run_generic`, `idastar::run_generic`), so they pay nothing
//! for it. Boards of at most 64 cells only.

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, Goal};
use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};
use crate::heuristic::Heuristic;

use super::{Algorithm, Limits, SolveError, SolveReport, astar, duplicates, idastar};

/// The algorithms that take a caller's heuristic: the best-first searches and IDA*.
pub const CUSTOM_ALGORITHMS: &str = "astar, greedy, wastar:W, idastar, idastar-fsm, wida:W";

/// Why [`solve_custom`] could not run or could not be trusted.
#[derive(Debug, Clone, Error)]
pub enum CustomError {
    /// The algorithm uses no heuristic, or not one given at run time.
    #[error("{0} does not take a heuristic given as a function; use one of {CUSTOM_ALGORITHMS}")]
    Unsupported(Algorithm),
    /// The board has more cells than the packed searches hold.
    #[error(
        "a heuristic given as a function takes boards of at most {MAX_EXACT_CELLS} cells; \
         this one is {rows} x {cols}"
    )]
    TooLarge {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
    /// What [`super::solve`] would refuse or report (unsolvable board, a bad replay).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// The caller's function as the inner loops see it.
struct Estimate<'a> {
    cells: usize,
    f: &'a dyn Fn(&[u8]) -> u32,
}

impl Heuristic for Estimate<'_> {
    type Memo = ();
    #[inline]
    fn init(&self, tiles: &Tiles) -> (u32, ()) {
        ((self.f)(&tiles[..self.cells]), ())
    }
    #[inline]
    fn update(&self, tiles: &Tiles, _: u8, _: usize, _: usize, _: u32, _: ()) -> (u32, ()) {
        ((self.f)(&tiles[..self.cells]), ())
    }
}

/// Solves `board` for `goal` with `algorithm` guided by `estimate`, which gets a position's
/// tiles row-major (0 the blank) and returns a lower bound on its distance to `goal`.
///
/// As [`super::solve`]: unsolvable boards are refused before any search, a solution is
/// replayed before it is returned, and `limits` (with its cancel flag: the caller's function
/// may raise it to stop the search, e.g. on an error of its own) bound the search.
pub fn solve_custom(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    estimate: &dyn Fn(&[u8]) -> u32,
    limits: &Limits,
) -> Result<SolveReport, CustomError> {
    if !takes_custom(algorithm) {
        return Err(CustomError::Unsupported(algorithm));
    }
    board.check_solvable(goal).map_err(SolveError::Unsolvable)?;
    if board.cells() > MAX_EXACT_CELLS {
        return Err(CustomError::TooLarge {
            rows: board.rows(),
            cols: board.cols(),
        });
    }
    let geometry = Geometry::new(board.rows(), board.cols(), goal);
    let tiles = geometry.compact_tiles(board);
    let h = Estimate {
        cells: geometry.cells,
        f: estimate,
    };
    let initial_h = h.init(&tiles).0;
    let (g, t) = (&geometry, &tiles);
    let scope = crate::infra::alloc::search_scope();
    let start = Instant::now();
    let raw = match algorithm {
        Algorithm::Astar => astar::run_generic(g, t, &h, limits, astar::Priority::Astar),
        Algorithm::Greedy => astar::run_generic(g, t, &h, limits, astar::Priority::Greedy),
        Algorithm::WeightedAstar(w) => {
            astar::run_generic(g, t, &h, limits, astar::Priority::Weighted(w.hundredths()))
        }
        Algorithm::Idastar => idastar::run_generic(g, t, &h, limits, None, None),
        Algorithm::IdastarFsm => {
            let fsm = Some(duplicates::MoveAutomaton::shared());
            idastar::run_generic(g, t, &h, limits, None, fsm)
        }
        Algorithm::WeightedIdastar(w) => {
            idastar::run_generic(g, t, &h, limits, Some(w.hundredths()), None)
        }
        _ => unreachable!("takes_custom checked the algorithm"),
    };
    let search_time = start.elapsed();
    drop(scope);
    if let Some(moves) = &raw.moves
        && !board.replay_reaches_goal(moves, goal)
    {
        return Err(SolveError::InvalidSolution { algorithm }.into());
    }
    Ok(SolveReport {
        status: raw.status,
        moves: raw.moves,
        stats: raw.stats,
        per_iteration: raw.per_iteration,
        initial_h: Some(initial_h),
        optimal: algorithm.is_optimal(),
        search_time,
        setup_time: Duration::ZERO,
    })
}

/// Whether [`solve_custom`] runs `algorithm` (see [`CUSTOM_ALGORITHMS`]).
pub fn takes_custom(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Astar
            | Algorithm::Greedy
            | Algorithm::WeightedAstar(_)
            | Algorithm::Idastar
            | Algorithm::IdastarFsm
            | Algorithm::WeightedIdastar(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::search::Outcome;

    /// Manhattan distance computed from scratch, independently of `heuristic::Manhattan`'s
    /// incremental tables: blank-last goal, tile t belongs on cell t - 1.
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

    /// A closure equal to Manhattan gives the built-in Manhattan's lengths and node counts,
    /// node for node, with A* and IDA*.
    #[test]
    fn a_function_equal_to_manhattan_counts_the_same_nodes() {
        let board = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        let f = |t: &[u8]| manhattan(3, t);
        for algorithm in [Algorithm::Astar, Algorithm::Idastar] {
            let limits = Limits::default();
            let ours = solve_custom(&board, Goal::BlankLast, algorithm, &f, &limits).unwrap();
            let kind = HeuristicKind::Manhattan;
            let builtin =
                super::super::solve(&board, Goal::BlankLast, algorithm, &kind, &limits).unwrap();
            assert_eq!(ours.status, Outcome::Solved);
            assert_eq!(ours.moves.as_ref().map(Vec::len), Some(31), "{algorithm}");
            assert_eq!(ours.stats.expanded, builtin.stats.expanded, "{algorithm}");
            assert_eq!(ours.stats.generated, builtin.stats.generated, "{algorithm}");
            assert_eq!(ours.initial_h, builtin.initial_h);
        }
    }

    #[test]
    fn blind_and_parallel_algorithms_are_refused() {
        let board = Board::solved(3, 3, Goal::BlankLast);
        for algorithm in [
            Algorithm::Bfs,
            Algorithm::ParallelIdastar,
            Algorithm::Approx,
        ] {
            let err = solve_custom(
                &board,
                Goal::BlankLast,
                algorithm,
                &|_| 0,
                &Limits::default(),
            )
            .unwrap_err();
            assert!(matches!(err, CustomError::Unsupported(_)), "{err}");
        }
    }

    /// The cancel flag raised from inside the function stops the search.
    #[test]
    fn the_function_can_stop_the_search() {
        let board = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let limits = Limits {
            cancel: Some(cancel.clone()),
            ..Limits::default()
        };
        let f = |_: &[u8]| {
            cancel.store(true, std::sync::atomic::Ordering::SeqCst);
            0
        };
        let report =
            solve_custom(&board, Goal::BlankLast, Algorithm::Idastar, &f, &limits).unwrap();
        assert_eq!(report.status, Outcome::Cancelled);
        assert!(report.moves.is_none());
    }
}
