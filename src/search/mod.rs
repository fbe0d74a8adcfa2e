//! Search algorithms and the one entry point, [`solve`], that every front end calls.
//!
//! # What the statistics mean (the same for every algorithm)
//! - A node is **generated** when it is produced as a successor; the root counts as one
//!   generated node. IDA*'s counts add up over its iterations, with the root counted once
//!   for the whole run (Korf's convention, which reproduces his published counts).
//! - A node is **expanded** when its successors are produced.
//! - **Stored** (`stored_peak`) is the most nodes held in memory at once: the closed/open table
//!   of A*, Dijkstra and BFS, the recursion stack of IDA*.
//!
//! # Successor order
//! The blank's moves are tried in Korf's order up, left, right, down, and no algorithm
//! generates the move straight back to the parent (it can only reach a known state). With that order IDA* + Manhattan reproduces the node counts
//! published for Korf's 100 instances exactly (see the tests), so our counts are comparable
//! with the literature.
//!
//! # Layout
//! `solve` validates, dispatches once per job on (algorithm, heuristic, board size) into
//! monomorphic inner loops (`idastar`, `astar`, `bfs`), then replays the solution on the start
//! board before returning it.

mod astar;
mod bfs;
mod bibfs;
pub mod duplicates;
mod idastar;
mod idastar_par;
pub mod packed;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, BoardError, Goal, Move};
pub use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};
use crate::heuristic::{self, HeuristicError, HeuristicKind};

/// A weight W >= 1 for the bounded-suboptimal searches, kept in hundredths so that it is
/// exact, hashable and usable in integer priorities (`wastar:1.5` is `Weight(150)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight(u32);

impl Weight {
    /// W in hundredths.
    pub fn hundredths(self) -> u32 {
        self.0
    }

    /// W as a number.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.0 / 100, self.0 % 100);
        match frac {
            0 => write!(f, "{whole}"),
            x if x % 10 == 0 => write!(f, "{whole}.{}", x / 10),
            x => write!(f, "{whole}.{x:02}"),
        }
    }
}

impl FromStr for Weight {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad =
            || format!("weight \"{s}\" must be a number from 1 to 100 with at most two decimals");
        let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
        if whole.is_empty()
            || frac.len() > 2
            || !whole
                .bytes()
                .chain(frac.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let whole: u32 = whole.parse().map_err(|_| bad())?;
        let frac: u32 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
        let w = whole
            .checked_mul(100)
            .and_then(|x| x.checked_add(frac))
            .ok_or_else(bad)?;
        if !(100..=10_000).contains(&w) {
            return Err(bad());
        }
        Ok(Weight(w))
    }
}

/// A search algorithm, by its command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search (`bfs`): blind, goal test on generation, optimal.
    Bfs,
    /// Bidirectional breadth-first search (`bibfs`): layers from the start and from the goal
    /// until they meet; blind, optimal, far fewer nodes than `bfs`.
    Bibfs,
    /// Uniform-cost search (`dijkstra`): best-first on g alone, goal test on expansion, optimal.
    Dijkstra,
    /// A* (`astar`): best-first on f = g + h, optimal with an admissible heuristic.
    Astar,
    /// Iterative-deepening A* (`idastar`): depth-first in f-bounded iterations, optimal,
    /// memory linear in the depth.
    Idastar,
    /// Parallel IDA* (`idastar-par`): IDA* with each iteration split at a shallow depth and
    /// the subtrees searched by the whole thread pool, so one hard instance uses every core.
    /// Optimal; node counts as IDA*'s except in the last iteration.
    ParallelIdastar,
    /// IDA* with duplicate-path pruning (`idastar-fsm`, Taylor & Korf's automaton,
    /// [`duplicates`]): optimal, far fewer nodes on deep searches; its counts are not
    /// comparable with published plain IDA* counts.
    IdastarFsm,
    /// Parallel IDA* with duplicate-path pruning (`idastar-par-fsm`).
    ParallelIdastarFsm,
    /// Greedy best-first search (`greedy`): on h alone; fast, no bound on the length.
    Greedy,
    /// Weighted A* (`wastar:W`): f = g + W h, solutions at most W times optimal.
    WeightedAstar(Weight),
    /// Weighted IDA* (`wida:W`): IDA* on f = g + W h, solutions at most W times optimal.
    WeightedIdastar(Weight),
    /// The polynomial-time line-by-line solver (`approx`, [`crate::approx`]): any size, not
    /// optimal, no search (its node counts are not applicable).
    Approx,
}

impl Algorithm {
    /// The algorithms without a parameter, in the order the CLI lists them.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Dijkstra,
        Algorithm::Astar,
        Algorithm::Idastar,
        Algorithm::ParallelIdastar,
        Algorithm::IdastarFsm,
        Algorithm::ParallelIdastarFsm,
    ];

    /// The command-line name (with its weight, e.g. `wastar:1.5`).
    pub fn name(self) -> String {
        match self {
            Algorithm::Bfs => "bfs".into(),
            Algorithm::Bibfs => "bibfs".into(),
            Algorithm::Dijkstra => "dijkstra".into(),
            Algorithm::Astar => "astar".into(),
            Algorithm::Idastar => "idastar".into(),
            Algorithm::ParallelIdastar => "idastar-par".into(),
            Algorithm::IdastarFsm => "idastar-fsm".into(),
            Algorithm::ParallelIdastarFsm => "idastar-par-fsm".into(),
            Algorithm::Greedy => "greedy".into(),
            Algorithm::WeightedAstar(w) => format!("wastar:{w}"),
            Algorithm::WeightedIdastar(w) => format!("wida:{w}"),
            Algorithm::Approx => "approx".into(),
        }
    }

    /// Whether the algorithm ignores the heuristic.
    pub fn is_blind(self) -> bool {
        matches!(
            self,
            Algorithm::Bfs | Algorithm::Bibfs | Algorithm::Dijkstra | Algorithm::Approx
        )
    }

    /// Whether one search uses the whole thread pool (the harness then runs such jobs one at
    /// a time, before the others).
    pub fn is_parallel(self) -> bool {
        matches!(
            self,
            Algorithm::ParallelIdastar | Algorithm::ParallelIdastarFsm
        )
    }

    /// Whether the algorithm searches (and so reports node counts); only `approx` does not.
    pub fn is_search(self) -> bool {
        self != Algorithm::Approx
    }

    /// The largest board (in cells) the algorithm takes.
    pub fn max_cells(self) -> usize {
        match self {
            Algorithm::Approx => crate::board::MAX_CELLS,
            _ => MAX_EXACT_CELLS,
        }
    }

    /// Whether the returned solution is guaranteed shortest (given an admissible heuristic).
    pub fn is_optimal(self) -> bool {
        match self {
            Algorithm::Bfs
            | Algorithm::Bibfs
            | Algorithm::Dijkstra
            | Algorithm::Astar
            | Algorithm::Idastar
            | Algorithm::ParallelIdastar
            | Algorithm::IdastarFsm
            | Algorithm::ParallelIdastarFsm => true,
            Algorithm::Greedy | Algorithm::Approx => false,
            Algorithm::WeightedAstar(w) | Algorithm::WeightedIdastar(w) => w.0 == 100,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(w) = s.strip_prefix("wastar:") {
            return Ok(Algorithm::WeightedAstar(w.parse()?));
        }
        if let Some(w) = s.strip_prefix("wida:") {
            return Ok(Algorithm::WeightedIdastar(w.parse()?));
        }
        match s {
            "bfs" => Ok(Algorithm::Bfs),
            "bibfs" => Ok(Algorithm::Bibfs),
            "dijkstra" => Ok(Algorithm::Dijkstra),
            "astar" => Ok(Algorithm::Astar),
            "idastar" => Ok(Algorithm::Idastar),
            "idastar-par" => Ok(Algorithm::ParallelIdastar),
            "idastar-fsm" => Ok(Algorithm::IdastarFsm),
            "idastar-par-fsm" => Ok(Algorithm::ParallelIdastarFsm),
            "greedy" => Ok(Algorithm::Greedy),
            "approx" => Ok(Algorithm::Approx),
            "wastar" | "wida" => Err(format!("{s} needs a weight, e.g. {s}:1.5")),
            _ => Err(format!(
                "unknown algorithm \"{s}\", expected one of bfs, bibfs, dijkstra, astar, idastar, \
                 idastar-par, idastar-fsm, idastar-par-fsm, greedy, wastar:W, wida:W, approx"
            )),
        }
    }
}

/// Bounds on one search. `None` = unbounded.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Wall-clock budget for the search.
    pub timeout: Option<Duration>,
    /// Budget of generated nodes.
    pub max_nodes: Option<u64>,
    /// Budget for the search's own data structures, in bytes (checked before they grow).
    pub max_memory_bytes: Option<u64>,
    /// Set from outside (e.g. on Ctrl-C) to stop the search as soon as possible.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found (and replayed).
    Solved,
    /// The timeout ran out.
    Timeout,
    /// The node budget ran out.
    NodeLimit,
    /// The memory budget would have been exceeded.
    MemoryLimit,
    /// The cancel flag was raised.
    Cancelled,
}

impl Status {
    /// The spelling used in CSV files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Timeout => "timeout",
            Status::NodeLimit => "node-limit",
            Status::MemoryLimit => "memory-limit",
            Status::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counters with one meaning across all algorithms (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes whose successors were produced.
    pub expanded: u64,
    /// Nodes produced as successors, plus the root (once, also for IDA*).
    pub generated: u64,
    /// The most nodes held in memory at once.
    pub stored_peak: u64,
    /// Bytes the search's own structures held at their peak (an estimate from capacities).
    pub memory_bytes: u64,
    /// IDA* iterations (`None` for other algorithms).
    pub iterations: Option<u32>,
    /// CPU time the search spent on threads other than the calling one (parallel searches;
    /// zero for the others), for the harness's CPU-time column.
    pub helper_cpu: Duration,
    /// For IDA* stopped by a limit: every solution has at least this many moves (the bound
    /// of the unfinished iteration, all shorter ones having been searched completely).
    pub lower_bound: Option<u32>,
}

/// CPU time consumed by the calling thread (`None` where the platform cannot tell).
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// The result of one [`solve`] call.
#[derive(Debug, Clone)]
pub struct SolveReport {
    /// How the search ended.
    pub status: Status,
    /// The moves (blank directions) from the start to the goal, replay-checked; `Some` exactly
    /// when `status` is [`Status::Solved`].
    pub moves: Option<Vec<Move>>,
    /// The search's counters.
    pub stats: SearchStats,
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
        "{algorithm} solves boards of at most {MAX_EXACT_CELLS} cells; this one is {rows} x {cols}"
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
    pub status: Status,
    pub moves: Option<Vec<Move>>,
    pub stats: SearchStats,
}

/// The checks an inner loop makes against [`Limits`], batched so that the common path costs
/// one comparison per node.
pub(crate) struct Budget {
    deadline: Option<Instant>,
    max_nodes: u64,
    max_memory: u64,
    cancel: Option<Arc<AtomicBool>>,
    /// For one of several workers on one search: the node count of all of them and a flag
    /// raised when one found the goal (see [`Budget::worker`]).
    shared: Option<Arc<Shared>>,
    /// The nodes this worker may count before it asks `shared` for more.
    granted: u64,
    /// The generated count at which [`Budget::check`] must next be called.
    pub next_check: u64,
}

/// What the workers of one parallel search share: the nodes granted to them so far (for the
/// node limit) and a flag raised when one of them has found the goal or hit a limit, which
/// stops the others.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub granted: std::sync::atomic::AtomicU64,
    pub stop: AtomicBool,
}

/// How many nodes go by between clock and cancel-flag checks.
const CHECK_INTERVAL: u64 = 1 << 16;

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        let mut b = Budget {
            deadline: limits.timeout.map(|t| Instant::now() + t),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_memory: limits.max_memory_bytes.unwrap_or(u64::MAX),
            cancel: limits.cancel.clone(),
            shared: None,
            granted: 0,
            next_check: 0,
        };
        b.next_check = CHECK_INTERVAL.min(b.max_nodes);
        b
    }

    /// The budget of one worker of a parallel search: the same deadline and cancel flag as
    /// `self`, and a node limit on the sum over all workers. A worker takes nodes from the
    /// shared limit in grants of up to one check interval, so together they stop at the limit
    /// (a worker whose first node finds the limit used up counts that one node over it). A
    /// worker that hits a limit raises `shared.stop`; the others then stop with
    /// [`Status::Cancelled`].
    pub(crate) fn worker(&self, shared: &Arc<Shared>) -> Budget {
        Budget {
            deadline: self.deadline,
            max_nodes: self.max_nodes,
            max_memory: self.max_memory,
            cancel: self.cancel.clone(),
            shared: Some(shared.clone()),
            granted: 0,
            next_check: 0,
        }
    }

    /// Returns the unused part of a worker's grant at the end of its task.
    pub(crate) fn finish(&mut self, generated: u64) {
        if let Some(shared) = &self.shared
            && self.granted > generated
        {
            shared
                .granted
                .fetch_sub(self.granted - generated, Ordering::Relaxed);
            self.granted = generated;
        }
    }

    /// Called when `generated >= next_check`: returns the status to stop with, if any.
    #[cold]
    pub(crate) fn check(&mut self, generated: u64) -> Option<Status> {
        if let Some(shared) = &self.shared {
            // Cover the nodes counted so far and take up to one interval more.
            let need = generated.saturating_sub(self.granted);
            let mut taken = shared.granted.load(Ordering::Relaxed);
            loop {
                let left = self.max_nodes.saturating_sub(taken);
                let grant = left.min(need + CHECK_INTERVAL);
                match shared.granted.compare_exchange_weak(
                    taken,
                    taken + grant,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        self.granted += grant;
                        if left <= need {
                            shared.stop.store(true, Ordering::Relaxed);
                            return Some(Status::NodeLimit);
                        }
                        break;
                    }
                    Err(now) => taken = now,
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                return Some(Status::Cancelled);
            }
            self.next_check = self.granted;
        } else if generated >= self.max_nodes {
            return Some(Status::NodeLimit);
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Some(Status::Cancelled);
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            if let Some(shared) = &self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Some(Status::Timeout);
        }
        if self.shared.is_none() {
            self.next_check = generated.saturating_add(CHECK_INTERVAL).min(self.max_nodes);
        }
        None
    }

    /// How many nodes a search that stores states reserves at the start: enough to skip the
    /// first rounds of growth, small enough for a tight memory budget.
    pub(crate) fn initial_capacity(&self) -> usize {
        (self.max_memory / 256).clamp(256, 1 << 16) as usize
    }

    /// Whether growing the search's structures to `bytes` stays within the memory budget.
    #[inline]
    pub(crate) fn memory_allows(&self, bytes: u64) -> bool {
        bytes <= self.max_memory
    }
}

/// The moves along a path given by the blank's cells, root first.
pub(crate) fn moves_between_blanks(geometry: &Geometry, blanks: &[usize]) -> Vec<Move> {
    blanks
        .windows(2)
        .map(|w| geometry.move_between(w[0], w[1]))
        .collect()
}

/// The moves from the root to stored node `i`, following parent links; `node(i)` gives a
/// node's packed state and parent index (`u32::MAX` at the root).
pub(crate) fn trace_back<P: packed::Packed>(
    geometry: &Geometry,
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
    if algorithm == Algorithm::Approx {
        return solve_approx(board, goal);
    }
    if board.cells() > MAX_EXACT_CELLS {
        return Err(SolveError::TooLarge {
            algorithm,
            rows: board.rows(),
            cols: board.cols(),
        });
    }
    let geometry = Geometry::new(board.rows(), board.cols(), goal);
    let tiles = geometry.compact_tiles(board);
    let kind = if algorithm.is_blind() {
        &HeuristicKind::None
    } else {
        heuristic
    };
    let setup_start = Instant::now();
    let h = heuristic::build(kind, &geometry)?;
    let fsm = matches!(
        algorithm,
        Algorithm::IdastarFsm | Algorithm::ParallelIdastarFsm
    )
    .then(duplicates::MoveAutomaton::shared);
    let setup_time = setup_start.elapsed();
    let start = Instant::now();
    let raw = match algorithm {
        Algorithm::Bfs => bfs::run(&geometry, &tiles, limits),
        Algorithm::Bibfs => bibfs::run(&geometry, &tiles, limits),
        Algorithm::Dijkstra => astar::run(
            &geometry,
            &tiles,
            &heuristic::Built::Zero,
            limits,
            astar::Priority::Astar,
        ),
        Algorithm::Astar => astar::run(&geometry, &tiles, &h, limits, astar::Priority::Astar),
        Algorithm::Greedy => astar::run(&geometry, &tiles, &h, limits, astar::Priority::Greedy),
        Algorithm::WeightedAstar(w) => astar::run(
            &geometry,
            &tiles,
            &h,
            limits,
            astar::Priority::Weighted(w.hundredths()),
        ),
        Algorithm::Idastar => idastar::run(&geometry, &tiles, &h, limits, None, None),
        Algorithm::ParallelIdastar => idastar_par::run(&geometry, &tiles, &h, limits, None),
        Algorithm::IdastarFsm => idastar::run(&geometry, &tiles, &h, limits, None, fsm),
        Algorithm::ParallelIdastarFsm => idastar_par::run(&geometry, &tiles, &h, limits, fsm),
        Algorithm::WeightedIdastar(w) => {
            idastar::run(&geometry, &tiles, &h, limits, Some(w.hundredths()), None)
        }
        Algorithm::Approx => unreachable!("approx returned above"),
    };
    let search_time = start.elapsed();
    if let Some(moves) = &raw.moves
        && !board.replay_reaches_goal(moves, goal)
    {
        return Err(SolveError::InvalidSolution { algorithm });
    }
    let initial_h = (!algorithm.is_blind()).then(|| h.estimate(&geometry, &tiles));
    Ok(SolveReport {
        status: raw.status,
        moves: raw.moves,
        stats: raw.stats,
        initial_h,
        optimal: algorithm.is_optimal(),
        search_time,
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
        status: Status::Solved,
        moves: Some(moves),
        stats: SearchStats {
            memory_bytes: solution.stats.move_bytes as u64,
            ..SearchStats::default()
        },
        initial_h: None,
        optimal: false,
        search_time: solution.stats.solve_time,
        setup_time: Duration::ZERO,
    })
}
