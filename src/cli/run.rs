//! `bench run`: maps the arguments to [`RunOptions`]; the engine is [`crate::run::engine`].

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;

use super::flags::{
    DurationLimit, HeuristicList, SizeLimit, parse_duration_limit, parse_heuristic_list,
    parse_size_limit,
};
use crate::board::Goal;
use crate::external::Solver;
use crate::run::engine::{self, RunOptions};
use crate::run::plan::Shard;
use crate::search::Algorithm;

/// Arguments of `bench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Instance files: the project's format, Korf's tsv layout or JSON matrices
    /// [default: the newest file in instances/].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub instances: Vec<PathBuf>,
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
    /// Heuristics, comma-separated [default: manhattan]; blind algorithms run once with none.
    #[arg(
        long,
        default_value = "manhattan",
        value_name = "LIST",
        value_parser = parse_heuristic_list,
        action = clap::ArgAction::Append,
        long_help = heuristics_help()
    )]
    pub heuristics: Vec<HeuristicList>,
    /// Goal layout for every file, overriding what the files say: blank-last or blank-first.
    #[arg(long)]
    pub goal: Option<Goal>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Repetitions of every job (for timing).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Unrecorded warm-up runs of every job before its measured run (on the same worker
    /// thread, under the same limits; a warm-up that does not solve ends the warm-ups). The
    /// summary's spread and comparisons use only measured runs.
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub warmup: u32,
    /// Wall-clock limit per job: 60s, 500ms, 2m, or none. A process (external solver, isolated
    /// job) gets SIGTERM, then SIGKILL half a second later.
    #[arg(long, default_value = "60s", value_parser = parse_duration_limit, value_name = "DURATION")]
    pub timeout: DurationLimit,
    /// Limit of generated nodes per job.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Memory limit per job, e.g. 64MiB, 2GiB, or none [default: 70% of physical memory
    /// divided by the number of threads]. For a process: its group's resident memory.
    #[arg(long, value_parser = parse_size_limit, value_name = "SIZE")]
    pub max_memory: Option<SizeLimit>,
    /// Output CSV; `-` for stdout [default: results/run-<UTC time>.csv]. The metadata goes to
    /// <FILE>.meta.json.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write each solution (blank moves as U/D/L/R) in the solution column.
    #[arg(long)]
    pub solutions: bool,
    /// No progress bar, no summary; only warnings and errors on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue an interrupted run: keep the rows in --out, run only the missing jobs. Refused
    /// if the file holds a different run (algorithms, heuristics, limits, instance files).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// With --resume: continue even if the file holds a different run.
    #[arg(long, requires = "resume")]
    pub force: bool,
    /// Run only the K-th of N disjoint slices of the job list (e.g. 2/8), for clusters.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Leave out unsolvable instances (with a warning) instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Seed of the job-order shuffle [default: random, recorded in the metadata].
    #[arg(long)]
    pub seed: Option<u64>,
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

/// `--heuristics`' long help: every heuristic from the registry (as in `bench solve --help`).
fn heuristics_help() -> String {
    format!(
        "Heuristics, comma-separated [default: manhattan]; a tile group keeps its commas \
         (pdb:1,2,3/4,5,6), `;` separates too. Blind algorithms run once with none.\n\n{}",
        crate::heuristic::heuristic_help()
    )
}

/// Runs `bench run`; returns the exit status.
pub fn run(args: RunArgs) -> anyhow::Result<i32> {
    engine::run(RunOptions {
        instances: args.instances,
        goal: args.goal,
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
        heuristics: args.heuristics.into_iter().flat_map(|l| l.0).collect(),
        repeat: args.repeat,
        warmup: args.warmup,
        shard: args.shard,
        seed: args.seed,
        threads: args.threads.map(|t| t as usize),
        timeout: args.timeout.0,
        max_nodes: args.max_nodes,
        max_memory: args.max_memory.map(|m| m.0),
        out: args.out,
        resume: args.resume,
        force: args.force,
        solutions: args.solutions,
        quiet: args.quiet,
        progress: std::io::stderr().is_terminal(),
    })
}
