//! `bench predict`: IDA* tree-size predictions (see `npuzzle::predict`) as a tidy CSV, a
//! relative-performance table on stdout and an SVG figure.

use std::path::{Path, PathBuf};

use clap::Args;

use super::values::closed;

use anyhow::bail;

use super::flags::{BoardSize, GoalFlag, Heuristics, Instances, Out, Quiet, Seed};
use crate::heuristic::HeuristicKind;
use crate::predict::options::{Options, parse_bounds};
use crate::predict::{Method, Pruning, output, predict};

/// Arguments of `bench predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The board size [default: the instance file's].
    #[command(flatten)]
    pub size: BoardSize,
    #[command(flatten)]
    pub goal: GoalFlag,
    /// Heuristics, as in `bench run`; the first is the reference of the relative table.
    #[command(flatten)]
    pub heuristics: Heuristics,
    /// Methods, comma-separated: kre (random start states, and per instance), cdp and ss (per
    /// instance of --instances).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "kre",
        value_name = "LIST"
    , value_parser = closed::<Method>("method"))]
    pub method: Vec<Method>,
    /// Trees, comma-separated: plain (IDA*: the move back pruned) and fsm (idastar-fsm:
    /// duplicate-path automaton).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "plain,fsm",
        value_name = "LIST"
    , value_parser = closed::<Pruning>("pruning"))]
    pub pruning: Vec<Pruning>,
    /// Cost bounds A..B for random start states (and instances without an optimal column)
    /// [default: the mean Manhattan distance to 1.6 times it].
    #[arg(long, value_name = "A..B", value_parser = parse_bounds)]
    pub bounds: Option<(u32, u32)>,
    /// One instance file for per-instance predictions; with an `optimal` column, also the
    /// total through the last iteration.
    #[command(flatten)]
    pub instances: Instances,
    /// Only the first K instances of --instances.
    #[arg(long, value_name = "K")]
    pub first: Option<usize>,
    /// Random positions sampled for a heuristic's distributions (split evenly over the blank
    /// cells; boards of at most 10 cells are counted exactly instead).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub samples: usize,
    /// Stratified-sampling probes per instance.
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub probes: usize,
    /// CDP: levels of the real tree walked before the conditional distributions take over.
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub cdp_exact_depth: u32,
    /// (Recorded in the CSV's seed column.)
    #[command(flatten)]
    pub seed: Seed,
    /// The share of its last iteration IDA* is taken to search before its first solution, in
    /// the total over all instances with an `optimal` column (the `set` row): 0.5 if the
    /// first solution is as likely anywhere in the last iteration's depth-first order.
    #[arg(long, default_value_t = 0.5, value_name = "F")]
    pub last_fraction: f64,
    /// Validate: run IDA* (idastar, or idastar-fsm for the fsm tree) on every instance of
    /// --instances with this budget of generated nodes, and put its counts beside the
    /// predictions (CSV column measured_generated; median ratios on stdout).
    #[arg(long, value_name = "NODES")]
    pub measure: Option<u64>,
    /// Tidy CSV of every prediction (`-`: stdout, which then gets no table).
    #[command(flatten)]
    pub out: Out,
    /// Exact heuristic distributions from `bench census --heuristic LIST --heuristic-out FILE`
    /// (same board and goal; every heuristic of --heuristics in it): they replace the sampled
    /// ones (KRE, and the start of CDP).
    #[arg(long, value_name = "FILE")]
    pub census_table: Option<PathBuf>,
    /// The brute-force tree by depth as CSV (nodes per depth from a uniformly random blank
    /// cell, plain and fsm).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Directory for the SVG figure of predicted nodes against the bound.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: Quiet,
}

impl PredictArgs {
    /// The engine's options.
    fn options(&self) -> anyhow::Result<Options> {
        let instances = match self.instances.instances.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            _ => bail!("--instances: bench predict takes one instance file"),
        };
        Ok(Options {
            size: self.size.get()?,
            goal: self.goal.goal,
            heuristics: self.heuristics.or(HeuristicKind::Manhattan),
            methods: self.method.clone(),
            prunings: self.pruning.clone(),
            bounds: self.bounds,
            instances,
            first: self.first,
            samples: self.samples,
            probes: self.probes,
            cdp_exact_depth: self.cdp_exact_depth,
            seed: self.seed.resolve(self.quiet.quiet),
            last_fraction: self.last_fraction,
            measure: self.measure,
            census_table: self.census_table.clone(),
        })
    }
}

/// Runs `bench predict`.
pub fn run(args: PredictArgs) -> anyhow::Result<i32> {
    let req = args.options()?.request()?;
    let quiet = args.quiet.quiet;
    let (predictions, summary) = predict(&req, |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    for note in &summary.notes {
        eprintln!("note: {note}");
    }
    let out = &args.out.out;
    let to_stdout = out.as_deref() == Some(Path::new("-"));
    if let Some(out) = out {
        output::write_csv(out, &req, &summary, &predictions)?;
    }
    if let Some(path) = &args.tree {
        output::write_tree(path, &req, &summary)?;
    }
    if let Some(dir) = &args.plots {
        let written = output::plot(dir, &req, &predictions)?;
        eprintln!("figure: {}", written.display());
    }
    if !to_stdout {
        print!("{}", output::tables(&req, &summary, &predictions));
    }
    Ok(0)
}
