//! `bench solve`: one board in, its solution out, in the original task's format.
//!
//! Exit statuses (documented in docs/cli.md, "bench solve"):
//! - 0: solved; the solution is on stdout.
//! - 1: the input was rejected (malformed, unsolvable, too large for the exact solvers): one
//!   JSON object `{"message": "Некорректный формат входных данных", "detail": "..."}` on stdout.
//! - 2: usage error (bad option, unreadable FILE, heuristic not available for this size): stderr.
//! - 3: the search stopped at a limit (`--timeout`, `--max-nodes`, `--max-memory`): stderr.
//! - 4: internal error (a solver returned a solution that does not replay): stderr.
//! - 74: the solution could not be written to stdout (e.g. a full disk): stderr.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use super::flags::{DurationLimit, SizeLimit, parse_duration_limit, parse_size_limit};
use crate::infra::output::WriteError;
use crate::infra::units::{format_bytes, millis};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::board::{Board, BoardError, Goal, Move, moves_to_string};
use crate::heuristic::HeuristicKind;
use crate::input::{self, InputError, MAX_INPUT_BYTES};
use crate::instances;
use crate::search::{self, Algorithm, IterationCount, Limits, SolveError, SolveReport, Status};

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

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The boards from the start to the goal (or the blank positions with `--short`).
    Text,
    /// One JSON object with the moves and the search statistics.
    Json,
}

/// Arguments of `bench solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board: a JSON matrix or rows of numbers. Reads stdin when absent.
    pub file: Option<PathBuf>,
    /// The goal layout: blank-last (1, 2, ..., then the blank) or blank-first (the blank, then
    /// 1, 2, ...) [default: blank-last].
    #[arg(long, value_name = "GOAL", value_parser = clap::value_parser!(Goal))]
    pub goal: Option<Goal>,
    /// Search algorithm [default: idastar up to 4 x 4; larger boards: idastar for 1 s, then approx].
    #[arg(long, value_name = "ALGO", value_parser = clap::value_parser!(Algorithm),
          long_help = algo_help())]
    pub algo: Option<Algorithm>,
    /// Heuristic [default: linear-conflict]; blind algorithms ignore it.
    #[arg(long, value_name = "H", value_parser = clap::value_parser!(HeuristicKind),
          long_help = heuristic_help())]
    pub heuristic: Option<HeuristicKind>,
    /// Print only the 1-based positions of the blank along the path, comma-separated.
    #[arg(long, conflicts_with = "format")]
    pub short: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop the search after this long: 60s, 500ms, 2m, a number of seconds, or none; exit
    /// status 3.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration_limit, allow_negative_numbers = true)]
    pub timeout: Option<DurationLimit>,
    /// Stop the search after this many generated nodes; exit status 3.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop the search before its tables exceed this size: 64MiB, 2GiB, or none; exit status 3.
    #[arg(long, value_name = "SIZE", value_parser = parse_size_limit, conflicts_with = "max_memory_mb")]
    pub max_memory: Option<SizeLimit>,
    /// The old spelling of --max-memory, in MiB.
    #[arg(long, value_name = "MIB", hide = true)]
    pub max_memory_mb: Option<u64>,
    /// Print every board even when the solution is very long (by default such output is
    /// refused in favour of --short or --format json).
    #[arg(long)]
    pub force: bool,
}

/// `--algo`'s long help: the default, then every algorithm from the registry.
fn algo_help() -> String {
    format!(
        "Search algorithm. Default: idastar up to 4 x 4; on larger boards idastar is tried for \
         {} s (or --timeout), and approx answers if it finds nothing in that time (the output \
         says which one answered).\n\n{}",
        DEFAULT_EXACT_BUDGET.as_secs_f64(),
        search::algorithm_help()
    )
}

/// `--heuristic`'s long help: the default, then every heuristic from the registry.
fn heuristic_help() -> String {
    format!(
        "Heuristic [default: {DEFAULT_HEURISTIC}, with every algorithm and board size]; blind \
         algorithms (bfs, bibfs, dijkstra, approx) ignore it.\n\n{}",
        crate::heuristic::heuristic_help()
    )
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

/// The heuristic of every algorithm when `--heuristic` is not given, on every board size.
const DEFAULT_HEURISTIC: HeuristicKind = HeuristicKind::LinearConflict;

/// The exact search tried first when `--algo` is not given.
const DEFAULT_EXACT: Algorithm = Algorithm::Idastar;

/// Boards up to this many cells (the 4 x 4) are solved by [`DEFAULT_EXACT`] without a budget
/// when `--algo` is not given.
const DEFAULT_OPTIMAL_CELLS: usize = 16;

/// Without `--algo`, larger boards get [`DEFAULT_EXACT`] for this long (or `--timeout`, if
/// given) before `approx` answers instead.
const DEFAULT_EXACT_BUDGET: Duration = Duration::from_secs(1);

/// What `bench solve` runs: the chosen algorithm, or without `--algo` an exact attempt that
/// may fall back to `approx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// Run this algorithm with the user's limits; a stop is final.
    Only(Algorithm),
    /// Run [`DEFAULT_EXACT`] within its default budget; on a stop, answer with `approx`.
    ExactThenApprox,
}

impl Plan {
    fn choose(board: &Board, algo: Option<Algorithm>) -> Plan {
        match algo {
            Some(a) => Plan::Only(a),
            None if board.cells() <= DEFAULT_OPTIMAL_CELLS => Plan::Only(DEFAULT_EXACT),
            None if board.cells() <= search::MAX_LARGE_CELLS => Plan::ExactThenApprox,
            None => Plan::Only(Algorithm::Approx),
        }
    }
}

/// The default board-by-board output is refused above this many bytes (unless `--force`).
const MAX_BOARDS_OUTPUT_BYTES: u64 = 64 << 20;

/// Runs `bench solve`; returns the exit status.
pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let bytes = match read_input(&args) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(rejection)) => return print_rejection(&rejection),
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_USAGE);
        }
    };
    let (board, goal) = match input::decode(&bytes)
        .map_err(Rejection::from)
        .and_then(|text| read_board(text, args.goal))
    {
        Ok(found) => found,
        Err(rejection) => return print_rejection(&rejection),
    };
    drop(bytes);

    let plan = Plan::choose(&board, args.algo);
    let heuristic = args.heuristic.clone().unwrap_or(DEFAULT_HEURISTIC);
    let mut limits = Limits {
        timeout: args.timeout.and_then(|t| t.0),
        max_nodes: args.max_nodes,
        max_memory_bytes: max_memory_bytes(&args),
        ..Limits::default()
    };
    if args.algo.is_none() && plan == Plan::Only(Algorithm::Approx) {
        eprintln!(
            "the board has more than {} cells, beyond the exact searches: answering with approx",
            search::MAX_LARGE_CELLS
        );
    }
    let mut algorithm = match plan {
        Plan::Only(a) => a,
        Plan::ExactThenApprox => {
            limits.timeout = Some(limits.timeout.unwrap_or(DEFAULT_EXACT_BUDGET));
            DEFAULT_EXACT
        }
    };
    let memory = crate::infra::alloc::start_job(None, None);
    let mut report = match solve_or_exit(&board, goal, algorithm, &heuristic, &limits) {
        Ok(report) => report,
        Err(exit) => return exit,
    };
    if plan == Plan::ExactThenApprox && report.status != Status::Solved {
        eprintln!(
            "{algorithm} + {heuristic}: {}; answering with approx instead",
            limit_message(report.status, &args, &report, true)
        );
        algorithm = Algorithm::Approx;
        report = match solve_or_exit(&board, goal, algorithm, &heuristic, &limits) {
            Ok(report) => report,
            Err(exit) => return exit,
        };
    }
    let peak_heap = memory.peak_bytes();
    drop(memory);
    let used_h = if algorithm.is_blind() {
        HeuristicKind::None
    } else {
        heuristic
    };
    let moves = match (&report.status, &report.moves) {
        (Status::Solved, Some(moves)) => moves,
        (status, _) => {
            eprintln!(
                "error: {algorithm}: {}",
                limit_message(*status, &args, &report, false)
            );
            if args.format == Format::Json {
                // The statistics of the stopped search, for `bench run --isolate`.
                let json =
                    JsonSolution::new(&board, goal, algorithm, &used_h, &report, None, peak_heap);
                write_stdout(&(serde_json::to_string(&json)? + "\n"))?;
            }
            return Ok(EXIT_LIMIT);
        }
    };
    let path = SolutionPath {
        start: &board,
        moves,
    };
    eprintln!(
        "solved with {}{}: {} moves, {}",
        algorithm,
        if algorithm.is_blind() {
            String::new()
        } else {
            format!(" + {used_h}")
        },
        moves.len(),
        if report.optimal {
            "optimal"
        } else {
            "not guaranteed optimal"
        }
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let written = match (args.format, args.short) {
        (Format::Json, _) => {
            let json = JsonSolution::new(
                &board,
                goal,
                algorithm,
                &used_h,
                &report,
                Some((moves, &path)),
                peak_heap,
            );
            serde_json::to_writer(&mut out, &json)
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        }
        (Format::Text, true) => path.write_short(&mut out),
        (Format::Text, false) => {
            let bytes = path.boards_output_bytes();
            if bytes > MAX_BOARDS_OUTPUT_BYTES && !args.force {
                eprintln!(
                    "error: the solution has {} moves; printing every board would write about \
                     {} MB. Use --short (blank positions) or --format json (moves), or --force.",
                    moves.len(),
                    bytes >> 20
                );
                return Ok(EXIT_USAGE);
            }
            path.write_boards(&mut out)
        }
    };
    match written.and_then(|()| out.flush()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(WriteError {
            path: "<stdout>".into(),
            error,
        }
        .into()),
        _ => Ok(EXIT_OK),
    }
}

/// [`search::solve`], with its errors printed: `Err` holds the exit status to return.
fn solve_or_exit(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    limits: &Limits,
) -> Result<SolveReport, anyhow::Result<i32>> {
    match search::solve(board, goal, algorithm, heuristic, limits) {
        Ok(report) => Ok(report),
        Err(SolveError::Unsolvable(e)) => Err(print_rejection(&e.into())),
        Err(e @ (SolveError::TooLarge { .. } | SolveError::Approx(_))) => {
            Err(print_rejection(&Rejection::new(e.to_string())))
        }
        Err(e @ SolveError::Heuristic(_)) => {
            eprintln!("error: {e}");
            Err(Ok(EXIT_USAGE))
        }
        Err(e @ SolveError::InvalidSolution { .. }) => {
            eprintln!("error: {e}");
            Err(Ok(EXIT_INTERNAL))
        }
    }
}

/// Reads the input bytes: `Ok(Err(..))` is a rejection of the content (too long), `Err` a
/// usage or I/O problem (FILE missing or unreadable).
fn read_input(args: &SolveArgs) -> anyhow::Result<Result<Vec<u8>, Rejection>> {
    let read = match &args.file {
        Some(path) => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
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
            let what = match &args.file {
                Some(path) => path.display().to_string(),
                None => "stdin".to_string(),
            };
            anyhow::bail!("cannot read {what}: {e}")
        }
        Err(e) => Ok(Err(e.into())),
    }
}

/// Prints the rejection object on stdout; returns [`EXIT_REJECTED`].
fn print_rejection(rejection: &Rejection) -> anyhow::Result<i32> {
    let mut s = serde_json::to_string(rejection).context("encoding the rejection as JSON")?;
    s.push('\n');
    write_stdout(&s)?;
    Ok(EXIT_REJECTED)
}

/// Writes `s` to stdout; a closed pipe (`| head`) is not an error.
fn write_stdout(s: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("writing to stdout"),
        _ => Ok(()),
    }
}

/// The memory limit in bytes, from --max-memory or its old spelling --max-memory-mb.
fn max_memory_bytes(args: &SolveArgs) -> Option<u64> {
    match (args.max_memory, args.max_memory_mb) {
        (Some(m), _) => m.0,
        (None, mb) => mb.map(|mb| mb.saturating_mul(1 << 20)),
    }
}

/// What to say when the search stopped without a solution: the limit actually reached and
/// the flag that changes it. `default_budget`: the limits were those of the exact attempt
/// made without `--algo` (its timeout is [`DEFAULT_EXACT_BUDGET`] unless `--timeout` is given).
fn limit_message(
    status: Status,
    args: &SolveArgs,
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
        Status::Timeout => match args.timeout.and_then(|t| t.0) {
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
        Status::NodeLimit => format!(
            "node limit: no solution within --max-nodes {} (stopped {spent})",
            args.max_nodes.unwrap_or(0)
        ),
        Status::MemoryLimit => format!(
            "memory limit: the search would need more than --max-memory {} (stopped {spent})",
            format_bytes(max_memory_bytes(args).unwrap_or(0) as f64)
        ),
        Status::DepthLimit => format!(
            "depth cap: the search reached paths of {} moves, the longest its nodes can store; \
             no flag raises this cap (a heuristic other than none, idastar, or approx avoids such \
             paths) (stopped {spent})",
            search::MAX_STORED_DEPTH
        ),
        Status::Cancelled => format!("cancelled (stopped {spent})"),
        Status::Solved => format!("the search reported no moves (stopped {spent})"),
    }
}

/// The boards along a solution, start and goal included.
struct SolutionPath<'a> {
    start: &'a Board,
    moves: &'a [Move],
}

impl SolutionPath<'_> {
    /// 1-based row-major positions of the blank, start included, computed from the moves
    /// alone (constant work per move, whatever the board size).
    fn blank_positions(&self) -> impl Iterator<Item = usize> + '_ {
        let (rows, cols) = (self.start.rows(), self.start.cols());
        let mut blank = self.start.blank();
        std::iter::once(blank + 1).chain(self.moves.iter().map(move |m| {
            blank = m
                .target(blank, rows, cols)
                .expect("search::solve replays every solution");
            blank + 1
        }))
    }

    /// `--short`: the blank positions, comma-separated, and a newline.
    fn write_short(&self, out: &mut impl Write) -> io::Result<()> {
        for (i, p) in self.blank_positions().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write!(out, "{p}")?;
        }
        out.write_all(b"\n")
    }

    /// About how many bytes [`Self::write_boards`] writes.
    fn boards_output_bytes(&self) -> u64 {
        let cells = self.start.cells() as u64;
        let digits = (cells.max(2) as f64).log10().ceil() as u64 + 1;
        (self.moves.len() as u64 + 1) * (cells * digits + 1)
    }

    /// The default output: every board as rows of space-separated numbers, one blank line
    /// between boards, replayed one move at a time (one board in memory).
    fn write_boards(&self, out: &mut impl Write) -> io::Result<()> {
        let mut b = self.start.clone();
        writeln!(out, "{b}")?;
        for &m in self.moves {
            let legal = b.apply(m);
            debug_assert!(legal, "search::solve replays every solution");
            writeln!(out, "\n{b}")?;
        }
        Ok(())
    }
}

/// `--format json`: a solution, or (exit status 3) the statistics of a search a limit stopped,
/// without `moves`, `length` and `blank_positions`.
#[derive(Serialize)]
struct JsonSolution {
    /// `solved`, or the limit: `timeout`, `node-limit`, `memory-limit`, `depth-limit`.
    status: &'static str,
    rows: usize,
    cols: usize,
    goal: Goal,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blank_positions: Option<Vec<usize>>,
    algorithm: String,
    heuristic: String,
    optimal: bool,
    nodes_expanded: u64,
    nodes_generated: u64,
    peak_stored_nodes: u64,
    initial_h: Option<u32>,
    iterations: Option<u32>,
    /// For a stopped search: every solution has at least this many moves (IDA*).
    lower_bound: Option<u32>,
    /// The most heap bytes the search held (counting allocator; null without it).
    peak_heap_bytes: Option<u64>,
    /// IDA*: bound, expanded, generated (root included) and completeness of every iteration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    per_iteration: Vec<IterationCount>,
    search_ms: f64,
    setup_ms: f64,
}

impl JsonSolution {
    fn new(
        board: &Board,
        goal: Goal,
        algorithm: Algorithm,
        heuristic: &HeuristicKind,
        report: &SolveReport,
        solution: Option<(&[Move], &SolutionPath)>,
        peak_heap_bytes: Option<u64>,
    ) -> JsonSolution {
        JsonSolution {
            status: report.status.name(),
            rows: board.rows(),
            cols: board.cols(),
            goal,
            moves: solution.map(|(m, _)| moves_to_string(m)),
            length: solution.map(|(m, _)| m.len()),
            blank_positions: solution.map(|(_, p)| p.blank_positions().collect()),
            algorithm: algorithm.to_string(),
            heuristic: heuristic.to_string(),
            optimal: report.optimal,
            nodes_expanded: report.stats.expanded,
            nodes_generated: report.stats.generated,
            peak_stored_nodes: report.stats.stored_peak,
            initial_h: report.initial_h,
            iterations: report.stats.iterations,
            lower_bound: report.stats.lower_bound,
            peak_heap_bytes,
            per_iteration: report.per_iteration.clone(),
            search_ms: millis(report.search_time),
            setup_ms: millis(report.setup_time),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_takes_the_old_plain_seconds_and_durations() {
        let t = |s: &str| parse_duration_limit(s).map(|d| d.0);
        assert_eq!(t("0.2"), Ok(Some(Duration::from_millis(200))));
        assert_eq!(t("3"), Ok(Some(Duration::from_secs(3))));
        assert_eq!(t("2m"), Ok(Some(Duration::from_secs(120))));
        assert_eq!(t("none"), Ok(None));
        for bad in ["-1", "nan", "inf", "x"] {
            assert!(t(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rejection_json_shape() {
        let s = serde_json::to_string(&Rejection::new("empty input")).unwrap();
        assert_eq!(
            s,
            "{\"message\":\"Некорректный формат входных данных\",\"detail\":\"empty input\"}"
        );
    }
}
