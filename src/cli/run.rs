//! `bench run`: maps the arguments to [`RunOptions`]; the engine is [`crate::run`].

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;

use super::flags::{
    DurationLimit, GoalFlag, Heuristics, Instances, MaxMemory, Out, Quiet, Seed, Threads, Timeout,
    parse_duration_limit,
};
use crate::external::Solver;
use crate::heuristic::HeuristicKind;
use crate::run::default_set;
use crate::run::plan::Shard;
use crate::run::{self, RunOptions};
use crate::search::Algorithm;

/// `bench run`'s time limit per job when `--timeout` is not given.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Arguments of `bench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Instance files [default: the newest file in instances/; if there is none, the
    /// built-in default set is written there first].
    #[command(flatten)]
    pub instances: Instances,
    /// Algorithms, comma-separated [default: idastar, or none when --solver is given].
    #[arg(long, value_delimiter = ',', value_name = "LIST", long_help = algos_help())]
    pub algos: Option<Vec<Algorithm>>,
    /// An external solver, NAME=COMMAND (repeatable): COMMAND runs under /bin/sh with one board
    /// as a JSON matrix on stdin and answers on stdout (docs/external-solvers.md); NAME goes in
    /// the algorithm column, `-` in the heuristic column. Placeholders: {rows}, {cols},
    /// {goal}, {file}.
    #[arg(long, value_name = "NAME=COMMAND")]
    pub solver: Vec<Solver>,
    /// Run the built-in algorithms as child processes too (this program's `bench solve`), so
    /// that they are measured like external solvers: user and system CPU time and peak
    /// resident memory from the kernel, --max-memory on the whole process.
    #[arg(long)]
    pub isolate: bool,
    /// CPU-time limit (user + system) per job run as a process (external solvers, and
    /// built-ins with --isolate): 60s, 500ms, 2m, or none.
    #[arg(long, value_parser = parse_duration_limit, value_name = "DURATION")]
    pub cpu_limit: Option<DurationLimit>,
    #[command(flatten)]
    pub heuristics: Heuristics,
    /// Goal layout for every file, overriding what the files say.
    #[command(flatten)]
    pub goal: GoalFlag,
    #[command(flatten)]
    pub threads: Threads,
    /// Repetitions of every job (for timing).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Unrecorded warm-up runs of every job before its measured run (on the same worker
    /// thread, under the same limits; a warm-up that does not solve ends the warm-ups). The
    /// summary's spread and comparisons use only measured runs.
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub warmup: u32,
    /// Wall-clock limit per job [default: 60s]. A process (external solver, isolated job)
    /// gets SIGTERM, then SIGKILL half a second later.
    #[command(flatten)]
    pub timeout: Timeout,
    /// Limit of generated nodes per job.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Memory limit per job (for a process: its group's resident memory).
    #[command(flatten)]
    pub max_memory: MaxMemory,
    /// Output CSV [default: results/run-<UTC time>.csv]; the metadata goes to
    /// <FILE>.meta.json.
    #[command(flatten)]
    pub out: Out,
    /// Write each solution (blank moves as U/D/L/R) in the solution column.
    #[arg(long)]
    pub solutions: bool,
    #[command(flatten)]
    pub quiet: Quiet,
    /// Continue an interrupted run: keep the rows in --out, run only the missing jobs. Refused
    /// if the file holds a different run (algorithms, heuristics, limits, instance files).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// With --resume: continue even if the file holds a different run (algorithms,
    /// heuristics, limits, instance files). Old spelling: --force.
    #[arg(long, alias = "force", requires = "resume")]
    pub resume_anyway: bool,
    /// Run only the K-th of N disjoint slices of the job list (e.g. 2/8), for clusters.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Leave out unsolvable instances (with a warning) instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
    /// The job-order shuffle's seed (recorded in the metadata).
    #[command(flatten)]
    pub seed: Seed,
}

/// `--algos`' long help: the default, then every algorithm from the registry (the list
/// `bench solve --help` shows too).
fn algos_help() -> String {
    format!(
        "Algorithms, comma-separated [default: idastar, or none when --solver is given]. \
         idastar-par and idastar-par-fsm use every thread of the pool for one instance, so \
         their jobs run one at a time.\n\n{}",
        crate::search::algorithm_help()
    )
}

/// Runs `bench run`; returns the exit status.
pub fn run(args: RunArgs) -> anyhow::Result<i32> {
    let quiet = args.quiet.quiet;
    let mut instances = args.instances.instances;
    if instances.is_empty()
        && let Some(written) = default_set::ensure(quiet)?
    {
        instances.push(written);
    }
    run::run(RunOptions {
        instances,
        goal: args.goal.goal,
        skip_invalid: args.skip_invalid,
        algorithms: args.algos.unwrap_or_else(|| {
            if args.solver.is_empty() {
                vec![Algorithm::Idastar]
            } else {
                Vec::new()
            }
        }),
        solvers: args.solver,
        isolate: args.isolate,
        cpu_limit: args.cpu_limit.and_then(|c| c.0),
        heuristics: args.heuristics.or(HeuristicKind::Manhattan),
        repeat: args.repeat,
        warmup: args.warmup,
        shard: args.shard,
        seed: Some(args.seed.resolve(quiet)),
        threads: args.threads.threads.map(|t| t as usize),
        timeout: match args.timeout.timeout {
            Some(t) => t.0,
            None => Some(DEFAULT_TIMEOUT),
        },
        max_nodes: args.max_nodes,
        max_memory: args.max_memory.max_memory.map(|m| m.0),
        out: args.out.out,
        resume: args.resume,
        force: args.resume_anyway,
        solutions: args.solutions,
        quiet,
        progress: std::io::stderr().is_terminal(),
        command_line: std::env::args().collect(),
    })
}
