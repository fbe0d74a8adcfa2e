//! `bench split plan|piece|combine`: one IDA* search split into pieces that run as separate
//! processes (Slurm tasks); maps the arguments to [`crate::split`] (docs/split.md).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{Args, Subcommand};

use super::flags::{GoalFlag, Heuristics, Instances, MaxMemory, Quiet, Timeout};
use super::values::{DurationLimit, parse_duration_limit};
use crate::heuristic::HeuristicKind;
use crate::infra::output::note;
use crate::search::{Algorithm, Limits, Outcome};
use crate::split::combine::{combine, write_combined, write_result_sidecar};
use crate::split::piece::{PieceFile, PieceOptions};
use crate::split::plan::{Plan, PlanRequest, instance_in_file, plan_into};
use crate::split::run::{PieceList, SLURM_TASK_VARIABLE, pieces_to_run, run_pieces};

/// Exit status of `combine` when a limit stopped a piece before the search ended (as
/// `bench solve`'s).
const EXIT_LIMIT: i32 = 3;

/// The subcommands of `bench split`.
#[derive(Debug, Subcommand)]
pub enum SplitCommand {
    /// Expand one instance to a frontier and divide it into pieces: writes DIR/plan.json.
    Plan(PlanArgs),
    /// Run (or continue) one piece: writes DIR/piece-K.json after every bound.
    Piece(PieceArgs),
    /// Combine the pieces: DIR/result.csv (one results row), DIR/iterations.csv,
    /// DIR/pieces.csv. Exit status 0 when solved, 3 when a limit stopped a piece first, 1 when
    /// pieces have not finished.
    Combine(CombineArgs),
}

/// `--out DIR`: the split directory.
#[derive(Debug, Args)]
pub struct SplitDir {
    /// The split directory (shared by the pieces).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Arguments of `bench split plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The instance file (one file).
    #[command(flatten)]
    pub instances: Instances,
    /// The instance's id in the file.
    #[arg(long, value_name = "ID")]
    pub id: String,
    /// How many pieces.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub pieces: u32,
    /// The algorithm (one): idastar, idastar-fsm (idastar-par and idastar-par-fsm prune the
    /// same; each piece runs one thread).
    #[arg(long, value_name = "ALGO", default_value = "idastar")]
    pub algos: Algorithm,
    /// The heuristic (one) [default: manhattan].
    #[command(flatten)]
    pub heuristics: Heuristics,
    #[command(flatten)]
    pub goal: GoalFlag,
    /// The frontier aims for at least this many nodes (and at least --pieces).
    #[arg(long, value_name = "N", default_value_t = 4000)]
    pub frontier: usize,
    /// Nodes the balancing probe may generate (IDA*'s first iterations over the frontier,
    /// whose per-node counts weigh the nodes).
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub probe_nodes: u64,
    /// Any optimal solution will do: a solution found at bound L stops every piece in L at
    /// once (less work in the last bound), instead of the pieces reproducing the solution
    /// single-process IDA* returns (the default; the same answer every run).
    #[arg(long)]
    pub any_optimal: bool,
    /// Pieces take chunks of the frontier from a shared queue in every bound (files in
    /// DIR/queue), instead of fixed slices: whichever pieces run search the frontier in
    /// IDA*'s order together, so the last bound costs about what single-process IDA*'s does,
    /// and a piece that never starts or dies leaves nothing behind (docs/split.md).
    #[arg(long)]
    pub queue: bool,
    #[command(flatten)]
    pub dir: SplitDir,
    #[command(flatten)]
    pub quiet: Quiet,
}

/// Arguments of `bench split piece`.
#[derive(Debug, Args)]
pub struct PieceArgs {
    /// The piece to run, 1 to the plan's --pieces [default: $SLURM_ARRAY_TASK_ID]. A list
    /// (`1-8`, `1,3,5-7`) runs those pieces at once, one thread each, in this process: they
    /// share one copy of the heuristic's tables (pattern databases) instead of one per process.
    #[arg(long, value_name = "K")]
    pub piece: Option<PieceList>,
    /// Time limit of this session of the piece (it keeps its finished bounds; a rerun
    /// continues) [default: none].
    #[command(flatten)]
    pub timeout: Timeout,
    /// Limit of generated nodes of this session.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Accepted for the flags of `bench run` (IDA* stores only its path).
    #[command(flatten)]
    pub max_memory: MaxMemory,
    /// Do not wait before a bound for the other running pieces to finish the bounds below it
    /// (by default pieces enter every bound together, so the last one is cut at about the
    /// same point everywhere; docs/split.md).
    #[arg(long)]
    pub no_lockstep: bool,
    /// A piece whose heartbeat file (DIR/alive/piece-K, rewritten every 2 s while it runs)
    /// has not changed for this long is taken for dead and not waited for.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration_limit)]
    pub stale_after: DurationLimit,
    #[command(flatten)]
    pub dir: SplitDir,
    #[command(flatten)]
    pub quiet: Quiet,
}

/// Arguments of `bench split combine`.
#[derive(Debug, Args)]
pub struct CombineArgs {
    #[command(flatten)]
    pub dir: SplitDir,
    #[command(flatten)]
    pub quiet: Quiet,
}

/// Runs `bench split`; returns the exit status.
pub fn run(cmd: SplitCommand) -> anyhow::Result<i32> {
    match cmd {
        SplitCommand::Plan(a) => plan(a),
        SplitCommand::Piece(a) => piece(a),
        SplitCommand::Combine(a) => combined(a),
    }
}

fn plan(a: PlanArgs) -> anyhow::Result<i32> {
    let [file] = a.instances.instances.as_slice() else {
        bail!("bench split plan: give one instance file with --instances FILE");
    };
    let heuristics = a.heuristics.or(HeuristicKind::Manhattan);
    let [heuristic] = heuristics.as_slice() else {
        bail!("bench split plan: give one heuristic with --heuristics (a split runs one search)");
    };
    let (instance, goal) = instance_in_file(file, &a.id, a.goal.goal)?;
    let plan = plan_into(
        &a.dir.out,
        &PlanRequest {
            instance_file: file.display().to_string(),
            instance_id: instance.id,
            scramble_moves: instance.scramble_moves,
            board: instance.board,
            goal,
            algorithm: a.algos,
            heuristic: heuristic.clone(),
            pieces: a.pieces,
            frontier: a.frontier,
            probe_nodes: a.probe_nodes,
            any_optimal: a.any_optimal,
            queue: a.queue,
        },
    )?;
    if !a.quiet.quiet {
        note(format_args!("{}\n", plan.summary(&a.dir.out)));
    }
    Ok(0)
}

fn piece(a: PieceArgs) -> anyhow::Result<i32> {
    let task = std::env::var(SLURM_TASK_VARIABLE).ok();
    let pieces = pieces_to_run(a.piece.map(|l| l.0), task)?;
    let plan = Plan::read(&a.dir.out)?;
    let limits = Limits {
        timeout: a.timeout.timeout.and_then(|t| t.0),
        max_nodes: a.max_nodes,
        max_memory_bytes: a.max_memory.max_memory.and_then(|m| m.0),
        ..Limits::default()
    };
    let options = PieceOptions {
        lockstep: !a.no_lockstep,
        // `none`: a heartbeat never goes stale.
        stale_after: a.stale_after.0.unwrap_or(Duration::MAX),
    };
    let quiet = a.quiet.quiet;
    let done = |k: u32, file: &PieceFile| {
        if !quiet {
            note(format_args!(
                "piece {k} of {}: {:?} after {} finished bound(s)\n",
                plan.pieces,
                file.state,
                file.iterations.len()
            ));
        }
    };
    run_pieces(&plan, &a.dir.out, &pieces, &limits, &options, &done)?;
    Ok(0)
}

fn combined(a: CombineArgs) -> anyhow::Result<i32> {
    let c = combine(&a.dir.out)?;
    write_combined(&a.dir.out, &c)?;
    write_result_sidecar(&a.dir.out, &c, std::env::args().collect())?;
    if !a.quiet.quiet {
        note(format_args!("{}\n", c.summary(&a.dir.out)));
    }
    Ok(match c.status {
        Some(Outcome::Solved) => 0,
        Some(_) => EXIT_LIMIT,
        None => 1,
    })
}
