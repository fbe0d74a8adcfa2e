//! `bench solve`'s engine: one board in, its solution out, in the original task's format.
//!
//! A [`Request`] (the input bytes' source, goal, algorithm, heuristic, limits, output form)
//! goes through [`run`] to a [`Reply`]; [`output::write`] prints it and gives the exit
//! status (documented in docs/cli.md, "bench solve"):
//! - 0: solved; the solution is on stdout.
//! - 1: the input was rejected (malformed, unsolvable, too large for the exact solvers): one
//!   JSON object `{"message": "Некорректный формат входных данных", "detail": "..."}` on stdout.
//! - 2: usage error (bad option, unreadable FILE, heuristic not available for this size): stderr.
//! - 3: the search stopped at a limit (`--timeout`, `--max-nodes`, `--max-memory`): stderr.
//! - 4: internal error (a solver returned a solution that does not replay): stderr.
//! - 74: the solution could not be written to stdout (e.g. a full disk): stderr.
//!
//! Policy lives here: the default algorithm per board size, the exact-then-approx budget,
//! what each limit's message says.

pub mod json;
pub mod output;

use std::fs::File;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use crate::board::{Board, BoardError, Goal, Move};
use crate::heuristic::HeuristicKind;
use crate::infra::units::format_bytes;
use crate::input::{self, InputError, MAX_INPUT_BYTES};
use crate::instances;
use crate::search::{self, Algorithm, Limits, Outcome, SolveError, SolveReport};

pub use json::SolveJson;

/// The message of every rejection, the original task's text (kept for compatibility).
pub const REJECTION_MESSAGE: &str = "Некорректный формат входных данных";

/// Exit status: solved.
pub const EXIT_OK: i32 = 0;
/// Exit status: the input was rejected (JSON on stdout).
pub const EXIT_REJECTED: i32 = 1;
/// Exit status: usage or I/O error (stderr). Also what clap uses for bad options.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: the search hit a limit before finding a solution (stderr).
pub const EXIT_LIMIT: i32 = 3;
/// Exit status: internal error (stderr).
pub const EXIT_INTERNAL: i32 = 4;

/// The heuristic of every algorithm when `--heuristic` is not given, on every board size.
pub const DEFAULT_HEURISTIC: HeuristicKind = HeuristicKind::LinearConflict;

/// The exact search tried first when `--algo` is not given.
pub const DEFAULT_EXACT: Algorithm = Algorithm::Idastar;

/// Boards up to this many cells (the 4 x 4) are solved by [`DEFAULT_EXACT`] without a budget
/// when `--algo` is not given.
pub const DEFAULT_OPTIMAL_CELLS: usize = 16;

/// Without `--algo`, larger boards get [`DEFAULT_EXACT`] for this long (or `--timeout`, if
/// given) before `approx` answers instead.
pub const DEFAULT_EXACT_BUDGET: Duration = Duration::from_secs(1);

/// How the solution is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Every board from the start to the goal; `long_output` prints them even when that is
    /// more than [`output::MAX_BOARDS_OUTPUT_BYTES`].
    Boards {
        /// Print every board whatever the size.
        long_output: bool,
    },
    /// The 1-based positions of the blank, comma-separated.
    Short,
    /// One [`SolveJson`] object.
    Json,
}

/// What `bench solve` is asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    /// The board's file; stdin when `None`.
    pub file: Option<PathBuf>,
    /// `--goal`; else the input's own goal, else blank-last.
    pub goal: Option<Goal>,
    /// `--algo`; else [`Plan::choose`]'s default.
    pub algorithm: Option<Algorithm>,
    /// `--heuristic`; else [`DEFAULT_HEURISTIC`].
    pub heuristic: Option<HeuristicKind>,
    /// `--timeout`.
    pub timeout: Option<Duration>,
    /// `--max-nodes`.
    pub max_nodes: Option<u64>,
    /// `--max-memory`, in bytes.
    pub max_memory_bytes: Option<u64>,
    /// The output form.
    pub output: Output,
    /// No notes on stderr (which algorithm answered, a fallback); errors still go there.
    pub quiet: bool,
    /// Raised from another thread to stop the search (the Python package does on Ctrl-C): it
    /// ends as [`Reply::Stopped`] with [`Outcome::Cancelled`], without the fallback to
    /// approx. `bench solve` leaves it `None` (SIGINT ends the process).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// A solved board.
#[derive(Debug)]
pub struct Solved {
    /// The start.
    pub board: Board,
    /// The goal layout.
    pub goal: Goal,
    /// The algorithm that answered.
    pub algorithm: Algorithm,
    /// Its heuristic, [`HeuristicKind::None`] for a blind algorithm.
    pub heuristic: HeuristicKind,
    /// The search's report; `report.moves` holds the replayed solution.
    pub report: SolveReport,
    /// The most heap bytes the search held (counting allocator).
    pub peak_heap_bytes: Option<u64>,
}

impl Solved {
    /// The solution's moves.
    pub fn moves(&self) -> &[Move] {
        self.report.moves.as_deref().unwrap_or(&[])
    }

    /// The object of `--format json` (also what a stopped search prints, without moves).
    pub fn json(&self) -> SolveJson {
        let solution = (self.report.status == Outcome::Solved).then(|| self.moves());
        SolveJson::new(
            &self.board,
            self.goal,
            self.algorithm,
            &self.heuristic,
            &self.report,
            solution,
            self.peak_heap_bytes,
        )
    }
}

/// What `bench solve` answers: each variant has what it prints and one exit status
/// ([`Reply::exit_status`]). Not a second vocabulary of end states: a stopped search's
/// [`Outcome`] is its `report.status`, and `bench run --isolate` reads that back.
#[derive(Debug)]
pub enum Reply {
    /// Solved; the solution goes to stdout.
    Solved(Box<Solved>),
    /// The input was rejected; the JSON rejection goes to stdout.
    Rejected(Rejection),
    /// A usage or I/O problem (stderr).
    Usage(String),
    /// A limit stopped the search: the message (stderr) and the stopped search (its JSON
    /// statistics go to stdout with `--format json`, for `bench run --isolate`).
    Stopped(String, Box<Solved>),
    /// A solver broke its contract (stderr).
    Internal(String),
}

impl Reply {
    /// The process exit status of this reply.
    pub fn exit_status(&self) -> i32 {
        match self {
            Reply::Solved(_) => EXIT_OK,
            Reply::Rejected(_) => EXIT_REJECTED,
            Reply::Usage(_) => EXIT_USAGE,
            Reply::Stopped(..) => EXIT_LIMIT,
            Reply::Internal(_) => EXIT_INTERNAL,
        }
    }
}

/// A rejected input: what `bench solve` prints as its JSON rejection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    /// Always [`REJECTION_MESSAGE`].
    pub message: &'static str,
    /// What is wrong, in English.
    pub detail: String,
}

impl Rejection {
    /// A rejection with this detail.
    pub fn new(detail: impl Into<String>) -> Rejection {
        Rejection {
            message: REJECTION_MESSAGE,
            detail: detail.into(),
        }
    }
}

impl From<InputError> for Rejection {
    fn from(e: InputError) -> Rejection {
        Rejection::new(e.to_string())
    }
}

impl From<BoardError> for Rejection {
    fn from(e: BoardError) -> Rejection {
        Rejection::new(e.to_string())
    }
}

/// What `bench solve` runs: the chosen algorithm, or without `--algo` an exact attempt that
/// may fall back to `approx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Run this algorithm with the user's limits; a stop is final.
    Only(Algorithm),
    /// Run [`DEFAULT_EXACT`] within its default budget; on a stop, answer with `approx`.
    ExactThenApprox,
}

impl Plan {
    /// The plan for `board` when `--algo` is `algo`.
    pub fn choose(board: &Board, algo: Option<Algorithm>) -> Plan {
        match algo {
            Some(a) => Plan::Only(a),
            None if board.cells() <= DEFAULT_OPTIMAL_CELLS => Plan::Only(DEFAULT_EXACT),
            None if board.cells() <= search::MAX_LARGE_CELLS => Plan::ExactThenApprox,
            None => Plan::Only(Algorithm::Approx),
        }
    }
}

/// `--algo`'s long help: the default, then every algorithm from the registry.
pub fn algorithm_help() -> String {
    format!(
        "Search algorithm. Default: idastar up to 4 x 4; on larger boards idastar is tried for \
         {} s (or --timeout), and approx answers if it finds nothing in that time (the output \
         says which one answered).\n\n{}",
        DEFAULT_EXACT_BUDGET.as_secs_f64(),
        search::algorithm_help()
    )
}

/// `--heuristic`'s long help: the default, then every heuristic from the registry.
pub fn heuristic_help() -> String {
    format!(
        "Heuristic [default: {DEFAULT_HEURISTIC}, with every algorithm and board size]; blind \
         algorithms (bfs, bibfs, dijkstra, approx) ignore it.\n\n{}",
        crate::heuristic::heuristic_help()
    )
}

/// Runs `bench solve`'s request. Notes for the user (which algorithm answered, a fallback)
/// go to `note` as they happen.
pub fn run(req: &Request, note: &mut dyn FnMut(&str)) -> Reply {
    let bytes = match read_input(req) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(rejection)) => return Reply::Rejected(rejection),
        Err(message) => return Reply::Usage(message),
    };
    match parse_input(&bytes, req.goal) {
        Ok((board, goal)) => run_board(req, board, goal, note),
        Err(rejection) => Reply::Rejected(rejection),
    }
}

/// The board and goal in `bytes` (what `bench solve` reads from FILE or stdin), with the
/// rejection `bench solve` prints when they are not a board; `goal_arg` is `--goal`.
pub fn parse_input(bytes: &[u8], goal_arg: Option<Goal>) -> Result<(Board, Goal), Rejection> {
    input::decode(bytes)
        .map_err(Rejection::from)
        .and_then(|text| read_board(text, goal_arg))
}

/// [`run`] on a board already read ([`parse_input`]); `req.file` is not read. Embedding
/// programs (the Python package) call this with a board they hold in memory.
pub fn run_board(req: &Request, board: Board, goal: Goal, note: &mut dyn FnMut(&str)) -> Reply {
    let mut quiet_note = |s: &str| {
        if !req.quiet {
            note(s)
        }
    };
    let note = &mut quiet_note;
    let plan = Plan::choose(&board, req.algorithm);
    let heuristic = req.heuristic.clone().unwrap_or(DEFAULT_HEURISTIC);
    let mut limits = Limits {
        timeout: req.timeout,
        max_nodes: req.max_nodes,
        max_memory_bytes: req.max_memory_bytes,
        cancel: req.cancel.clone(),
        ..Limits::default()
    };
    if req.algorithm.is_none() && plan == Plan::Only(Algorithm::Approx) {
        note(&format!(
            "the board has more than {} cells, beyond the exact searches: answering with approx",
            search::MAX_LARGE_CELLS
        ));
    }
    let mut algorithm = match plan {
        Plan::Only(a) => a,
        Plan::ExactThenApprox => {
            limits.timeout = Some(limits.timeout.unwrap_or(DEFAULT_EXACT_BUDGET));
            DEFAULT_EXACT
        }
    };
    let memory = crate::infra::alloc::start_job(None, None);
    let mut report = match solve_typed(&board, goal, algorithm, &heuristic, &limits) {
        Ok(report) => report,
        Err(reply) => return reply,
    };
    if plan == Plan::ExactThenApprox
        && !matches!(report.status, Outcome::Solved | Outcome::Cancelled)
    {
        note(&format!(
            "{algorithm} + {heuristic}: {}; answering with approx instead",
            limit_message(report.status, req, &report, true)
        ));
        algorithm = Algorithm::Approx;
        report = match solve_typed(&board, goal, algorithm, &heuristic, &limits) {
            Ok(report) => report,
            Err(reply) => return reply,
        };
    }
    let peak_heap_bytes = memory.peak_bytes();
    drop(memory);
    let heuristic = if algorithm.is_blind() {
        HeuristicKind::None
    } else {
        heuristic
    };
    let status = report.status;
    let solved = Box::new(Solved {
        board,
        goal,
        algorithm,
        heuristic,
        report,
        peak_heap_bytes,
    });
    match (status, &solved.report.moves) {
        (Outcome::Solved, Some(_)) => Reply::Solved(solved),
        (status, _) => {
            let message = format!(
                "{algorithm}: {}",
                limit_message(status, req, &solved.report, false)
            );
            Reply::Stopped(message, solved)
        }
    }
}

/// [`search::solve`], its errors as the reply they lead to.
fn solve_typed(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    limits: &Limits,
) -> Result<SolveReport, Reply> {
    search::solve(board, goal, algorithm, heuristic, limits).map_err(|e| match e {
        SolveError::Unsolvable(e) => Reply::Rejected(e.into()),
        e @ (SolveError::TooLarge { .. } | SolveError::Approx(_)) => {
            Reply::Rejected(Rejection::new(e.to_string()))
        }
        e @ (SolveError::Heuristic(_) | SolveError::FunctionToBlind { .. }) => {
            Reply::Usage(e.to_string())
        }
        e @ SolveError::InvalidSolution { .. } => Reply::Internal(e.to_string()),
    })
}

/// Reads the input bytes: `Ok(Err(..))` is a rejection of the content (too long), `Err` a
/// usage or I/O problem (FILE missing or unreadable).
fn read_input(req: &Request) -> Result<Result<Vec<u8>, Rejection>, String> {
    let read = match &req.file {
        Some(path) => {
            let file =
                File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            input::read_limited(file, MAX_INPUT_BYTES)
        }
        None => {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                eprintln!("bench solve: reading a board from stdin (end it with Ctrl-D)");
            }
            input::read_limited(stdin.lock(), MAX_INPUT_BYTES)
        }
    };
    match read {
        Ok(bytes) => Ok(Ok(bytes)),
        Err(InputError::Io(e)) => {
            let what = match &req.file {
                Some(path) => path.display().to_string(),
                None => "stdin".to_string(),
            };
            Err(format!("cannot read {what}: {e}"))
        }
        Err(e) => Ok(Err(e.into())),
    }
}

/// THE ONE PLACE that decides what kind of input `text` is and reads the board from it.
///
/// `goal_arg` is `--goal` if given; otherwise the input's own goal (an instance file names
/// one) or the default, blank-last. The project's one-instance file format (what
/// `bench gen --count 1 --out -` writes) is tried first, then a JSON matrix or rows of numbers
/// ([`input::parse_board`]).
fn read_board(text: &str, goal_arg: Option<Goal>) -> Result<(Board, Goal), Rejection> {
    if let Some(parsed) = instances::parse_instance_text(text) {
        let (board, goal) = parsed.map_err(|e| Rejection::new(e.to_string()))?;
        return Ok((board, goal_arg.unwrap_or(goal)));
    }
    let board = input::parse_board(text)?;
    Ok((board, goal_arg.unwrap_or_default()))
}

/// What to say when the search stopped without a solution: the limit actually reached and
/// the flag that changes it. `default_budget`: the limits were those of the exact attempt
/// made without `--algo` (its timeout is [`DEFAULT_EXACT_BUDGET`] unless `--timeout` is given).
pub fn limit_message(
    status: Outcome,
    req: &Request,
    report: &SolveReport,
    default_budget: bool,
) -> String {
    let mut spent = format!(
        "after {:.3} s and {} generated nodes",
        report.search_time.as_secs_f64(),
        report.stats.generated
    );
    if let Some(b) = report.stats.lower_bound {
        spent.push_str(&format!("; every solution has at least {b} moves"));
    }
    match status {
        Outcome::Timeout => match req.timeout {
            Some(t) => format!(
                "timeout: no solution within --timeout {} s (stopped {spent})",
                t.as_secs_f64()
            ),
            None if default_budget => format!(
                "no solution within the default exact-search budget of {} s (stopped {spent}; \
                 --timeout DURATION sets the budget, --algo {DEFAULT_EXACT} searches without one)",
                DEFAULT_EXACT_BUDGET.as_secs_f64()
            ),
            None => format!("timeout (stopped {spent})"),
        },
        Outcome::NodeLimit => format!(
            "node limit: no solution within --max-nodes {} (stopped {spent})",
            req.max_nodes.unwrap_or(0)
        ),
        Outcome::MemoryLimit => format!(
            "memory limit: the search would need more than --max-memory {} (stopped {spent})",
            format_bytes(req.max_memory_bytes.unwrap_or(0) as f64)
        ),
        Outcome::DepthLimit => format!(
            "depth cap: the search reached paths of {} moves, the longest its nodes can store; \
             no flag raises this cap (a heuristic other than none, idastar, or approx avoids such \
             paths) (stopped {spent})",
            search::MAX_STORED_DEPTH
        ),
        Outcome::Cancelled => format!("cancelled (stopped {spent})"),
        Outcome::Solved => format!("the search reported no moves (stopped {spent})"),
        // Outcomes of processes and of judged answers: no search ends with them.
        other => format!("{other} (stopped {spent})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejection_json_shape() {
        let s = serde_json::to_string(&Rejection::new("empty input")).unwrap();
        assert_eq!(
            s,
            "{\"message\":\"Некорректный формат входных данных\",\"detail\":\"empty input\"}"
        );
    }

    /// A raised cancel flag stops the search with `cancelled`, and the default plan for a
    /// large board does not then fall back to approx (the caller asked to stop, not for an
    /// answer).
    #[test]
    fn a_raised_cancel_flag_stops_without_the_approx_fallback() {
        use crate::generate::{GenKind, GenSpec};
        let spec = GenSpec::new(5, 5, Goal::BlankLast, GenKind::RandomWalk { moves: 200 }, 1);
        let board = spec.unwrap().board(1);
        let req = Request {
            file: None,
            goal: None,
            algorithm: None,
            heuristic: None,
            timeout: None,
            max_nodes: None,
            max_memory_bytes: None,
            output: Output::Json,
            quiet: true,
            cancel: Some(Arc::new(AtomicBool::new(true))),
        };
        match run_board(&req, board, Goal::BlankLast, &mut |_| {}) {
            Reply::Stopped(message, s) => {
                assert_eq!(s.report.status, Outcome::Cancelled);
                assert_eq!(s.algorithm, DEFAULT_EXACT);
                assert!(message.contains("cancelled"), "{message}");
            }
            _ => panic!("expected a stopped search"),
        }
    }
}
