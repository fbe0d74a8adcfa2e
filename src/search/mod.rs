//! Search algorithms and the one entry point, [`solve`], that every front end calls.
//!
//! # What the statistics mean (the same for every algorithm)
//! - A node is **generated** when it is produced as a successor; the root counts as one
//!   generated node. IDA*'s counts add up over its iterations, with the root counted once
//!   for the whole run (Korf's convention, which reproduces his published counts).
//! - A node is **expanded** when its successors are produced.
//! - **Stored** (`stored_peak`) is the most nodes held in memory at once: the closed/open table
//!   of A* and Dijkstra, the kept layers plus the successor buffer of BFS (duplicates
//!   included), the recursion stack of IDA*.
//!
//! # Successor order
//! The blank's moves are tried in Korf's order up, left, right, down, and no algorithm
//! generates the move straight back to the parent (it can only reach a known state). With that order IDA* + Manhattan reproduces the node counts
//! published for Korf's 100 instances exactly (see the tests), so our counts are comparable
//! with the literature.
//!
//! # Layout
//! [`registry`](ALGORITHMS) names the algorithms (one table), `limits` holds the user's
//! [`Limits`], the [`Outcome`] a search ends with and the inner loops' `Budget`, `stats` the
//! [`SearchStats`], `storage` how a capacity's states are stored. `solve` validates, dispatches
//! once per job on the board's capacity, then (`search`) on the algorithm and heuristic into
//! monomorphic inner loops (`idastar`, `astar`, `bfs`, ...), then replays the solution on the
//! start board before returning it.
//!
//! The algorithms: `astar` (A* and its variants), `bibfs`, `bfs/` (the dispatcher above the
//! 4 x 4 nibble kernel, the packed and the sparse layer stores, and their shared driver
//! `layered`), `idastar/` (serial, `parallel`, [`subtree`] and the move automaton of
//! [`duplicates`]). `storage/` holds how a capacity's states are kept ([`packed`], chunked
//! arenas, implicit nodes replayed from the root).

mod astar;
mod bfs;
mod bibfs;
mod idastar;
mod limits;
mod outcome;
mod registry;
mod stats;
mod storage;

pub use idastar::{duplicates, subtree};
pub use storage::packed;

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, BoardError, Goal, Move};
use crate::geometry::{Capacity, Small};
pub use crate::geometry::{Geometry, MAX_EXACT_CELLS, MAX_LARGE_CELLS, Tiles};
use crate::heuristic::{self, Built, HeuristicError, HeuristicKind};
pub(crate) use limits::{Budget, Shared};
pub use limits::{Limits, MAX_STORED_DEPTH};
pub use outcome::Outcome;
pub use registry::{
    ALGORITHMS, Algorithm, AlgorithmEntry, Form, Weight, algorithm_help, algorithm_names,
};
pub use stats::{IterationCount, SearchStats, thread_cpu_time};
use storage::Storage;

/// The result of one [`solve`] call.
#[derive(Debug, Clone)]
pub struct SolveReport {
    /// How the search ended.
    pub status: Outcome,
    /// The moves (blank directions) from the start to the goal, replay-checked; `Some` exactly
    /// when `status` is [`Outcome::Solved`].
    pub moves: Option<Vec<Move>>,
    /// The search's counters.
    pub stats: SearchStats,
    /// IDA*'s counts per iteration (empty for the other algorithms).
    pub per_iteration: Vec<IterationCount>,
    /// The heuristic's estimate of the start board (`None` for blind searches).
    pub initial_h: Option<u32>,
    /// Whether the algorithm guarantees a shortest solution.
    pub optimal: bool,
    /// Wall time of the search (heuristic set-up excluded).
    pub search_time: Duration,
    /// Wall time of the heuristic's set-up (tables, databases).
    pub setup_time: Duration,
}

/// Why a search could not run or could not be trusted.
#[derive(Debug, Clone, Error)]
pub enum SolveError {
    /// The board cannot reach the goal; no search was started.
    #[error(transparent)]
    Unsolvable(BoardError),
    /// The board is larger than the exact searches handle.
    #[error(
        "{algorithm} solves boards of at most {MAX_LARGE_CELLS} cells; this one is {rows} x {cols}"
    )]
    TooLarge {
        /// The algorithm asked for.
        algorithm: Algorithm,
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
    /// The heuristic does not exist for this board.
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    /// A caller's function was given to an algorithm that uses no heuristic.
    #[error(
        "{algorithm} does not take a heuristic given as a function: it uses none; \
         give it to an algorithm that does (astar, greedy, wastar:W, idastar, wida:W, ...)"
    )]
    FunctionToBlind {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The polynomial solver refused the board (too long a solution to store) or failed.
    #[error(transparent)]
    Approx(#[from] crate::approx::ApproxError),
    /// The solver returned moves that do not solve the board: a bug, reported, never printed
    /// as a solution.
    #[error("internal error: {algorithm} returned a solution that does not reach the goal")]
    InvalidSolution {
        /// The algorithm at fault.
        algorithm: Algorithm,
    },
}

/// What the inner loops return before the replay check.
pub(crate) struct RawOutcome {
    pub status: Outcome,
    pub moves: Option<Vec<Move>>,
    pub stats: SearchStats,
    pub per_iteration: Vec<IterationCount>,
}

/// The moves along a path given by the blank's cells, root first.
pub(crate) fn moves_between_blanks<C: Capacity>(
    geometry: &Geometry<C>,
    blanks: &[usize],
) -> Vec<Move> {
    blanks
        .windows(2)
        .map(|w| geometry.move_between(w[0], w[1]))
        .collect()
}

/// The moves from the root to stored node `i`, following parent links; `node(i)` gives a
/// node's packed state and parent index (`u32::MAX` at the root).
pub(crate) fn trace_back<C: Capacity, P: packed::Packed<C>>(
    geometry: &Geometry<C>,
    mut i: u32,
    node: impl Fn(u32) -> (P, u32),
) -> Vec<Move> {
    let mut blanks = Vec::new();
    loop {
        let (state, parent) = node(i);
        blanks.push(geometry.blank_of(&state.unpack(geometry.cells)));
        if parent == u32::MAX {
            break;
        }
        i = parent;
    }
    blanks.reverse();
    moves_between_blanks(geometry, &blanks)
}

/// Solves `board` for `goal` with the given algorithm and heuristic.
///
/// Unsolvable boards are rejected before any search. A returned solution has been replayed on
/// `board` and reaches `goal`.
pub fn solve(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    limits: &Limits,
) -> Result<SolveReport, SolveError> {
    board.check_solvable(goal).map_err(SolveError::Unsolvable)?;
    if matches!(heuristic, HeuristicKind::Custom(_)) && algorithm.is_blind() {
        return Err(SolveError::FunctionToBlind { algorithm });
    }
    if algorithm == Algorithm::Approx {
        return solve_approx(board, goal);
    }
    if board.cells() > MAX_LARGE_CELLS {
        return Err(SolveError::TooLarge {
            algorithm,
            rows: board.rows(),
            cols: board.cols(),
        });
    }
    let kind = if algorithm.is_blind() {
        &HeuristicKind::None
    } else {
        heuristic
    };
    let searched = if board.cells() <= MAX_EXACT_CELLS {
        search::<Small>(board, goal, algorithm, kind, limits)?
    } else {
        crate::with_large_capacity!(board.cells(), C => {
            search::<C>(board, goal, algorithm, kind, limits)?
        })
    };
    let Searched {
        raw,
        initial_h,
        setup_time,
        search_time,
    } = searched;
    if let Some(moves) = &raw.moves
        && !board.replay_reaches_goal(moves, goal)
    {
        return Err(SolveError::InvalidSolution { algorithm });
    }
    let initial_h = (!algorithm.is_blind()).then_some(initial_h);
    Ok(SolveReport {
        status: raw.status,
        moves: raw.moves,
        stats: raw.stats,
        per_iteration: raw.per_iteration,
        initial_h,
        optimal: algorithm.is_optimal(),
        search_time,
        setup_time,
    })
}

/// What [`search`] returns: the search's outcome before the replay
/// check, the heuristic's estimate of the start and the two timings.
struct Searched {
    raw: RawOutcome,
    initial_h: u32,
    setup_time: Duration,
    search_time: Duration,
}

/// The move automaton of duplicate-path pruning, for the algorithms that use it.
fn automaton(algorithm: Algorithm) -> Option<&'static duplicates::MoveAutomaton> {
    matches!(
        algorithm,
        Algorithm::IdastarFsm | Algorithm::ParallelIdastarFsm
    )
    .then(duplicates::MoveAutomaton::shared)
}

/// Runs an exact search on a board of capacity `C` (see [`crate::geometry`]): the
/// heuristic built, the algorithm dispatched once, the search timed.
fn search<C: Storage>(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    kind: &HeuristicKind,
    limits: &Limits,
) -> Result<Searched, SolveError> {
    let geometry = Geometry::<C>::build(board.rows(), board.cols(), goal);
    let tiles = geometry.compact_tiles(board);
    let setup_start = Instant::now();
    let h = heuristic::build(kind, &geometry)?;
    let fsm = automaton(algorithm);
    let setup_time = setup_start.elapsed();
    // The job's reported peak heap is the search's own, from here (see `crate::infra::alloc`).
    let scope = crate::infra::alloc::search_scope();
    let start = Instant::now();
    let (g, t) = (&geometry, &tiles);
    let raw = match algorithm {
        Algorithm::Bfs => bfs::run(g, t, limits),
        Algorithm::Bibfs => bibfs::run(g, t, limits),
        Algorithm::Dijkstra => astar::run(g, t, &Built::Zero, limits, astar::Priority::Astar),
        Algorithm::Astar => astar::run(g, t, &h, limits, astar::Priority::Astar),
        Algorithm::Greedy => astar::run(g, t, &h, limits, astar::Priority::Greedy),
        Algorithm::WeightedAstar(w) => {
            astar::run(g, t, &h, limits, astar::Priority::Weighted(w.hundredths()))
        }
        Algorithm::Idastar => idastar::run(g, t, &h, limits, None, None),
        Algorithm::ParallelIdastar => idastar::parallel::run(g, t, &h, limits, None),
        Algorithm::IdastarFsm => idastar::run(g, t, &h, limits, None, fsm),
        Algorithm::ParallelIdastarFsm => idastar::parallel::run(g, t, &h, limits, fsm),
        Algorithm::WeightedIdastar(w) => idastar::run(g, t, &h, limits, Some(w.hundredths()), None),
        Algorithm::Approx => unreachable!("approx does not search"),
    };
    drop(scope);
    Ok(Searched {
        search_time: start.elapsed(),
        initial_h: h.estimate(&geometry, &tiles),
        raw,
        setup_time,
    })
}

/// [`solve`] with the polynomial solver: moves unpacked to one byte each, node counts zero
/// (not applicable: see [`Algorithm::is_search`]).
fn solve_approx(board: &Board, goal: Goal) -> Result<SolveReport, SolveError> {
    let solution = crate::approx::solve_approx(board, goal)?;
    let moves = solution.moves.to_vec();
    if !board.replay_reaches_goal(&moves, goal) {
        return Err(SolveError::InvalidSolution {
            algorithm: Algorithm::Approx,
        });
    }
    Ok(SolveReport {
        status: Outcome::Solved,
        moves: Some(moves),
        stats: SearchStats {
            memory_bytes: solution.stats.move_bytes as u64,
            ..SearchStats::default()
        },
        per_iteration: Vec::new(),
        initial_h: None,
        optimal: false,
        search_time: solution.stats.solve_time,
        setup_time: Duration::ZERO,
    })
}
