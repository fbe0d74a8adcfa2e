//! `bench census`: maps the arguments to a [`crate::census::Request`], shows progress, and
//! hands the results to [`crate::census::output`].

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::flags::{BoardSize, GoalFlag, Heuristics, MaxMemory, Out, Quiet, Threads};
use crate::board::Shape;
use crate::census::driver::{self, Ended, Job};
use crate::census::{self, Request, output};
use crate::infra::units::format_bytes;

/// Arguments of `bench census`.
#[derive(Debug, Args)]
pub struct CensusArgs {
    /// The board.
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout the distances are measured to [default: blank-last] (both give the same
    /// distribution; the antipodes differ).
    #[command(flatten)]
    pub goal: GoalFlag,
    #[command(flatten)]
    pub threads: Threads,
    /// The distribution as CSV (rows,cols,goal,depth,count), with the sidecar
    /// FILE.meta.json; written as FILE.partial until the search is complete.
    #[command(flatten)]
    pub out: Out,
    /// The positions at the largest distance, as an instance file with their optimal length.
    #[arg(long, value_name = "FILE")]
    pub antipodes: Option<PathBuf>,
    /// The whole search's memory limit (it is one job).
    #[command(flatten)]
    pub max_memory: MaxMemory,
    /// Heuristics (misplaced, manhattan, linear-conflict, ...): the number of positions at
    /// each distance and estimate, written to --heuristic-out.
    #[command(flatten)]
    pub heuristics: Heuristics,
    /// The depth x blank x h table as CSV (rows,cols,goal,heuristic,depth,blank,h,count)
    /// [default: the --out name with .heuristics.csv].
    #[arg(long, value_name = "FILE", requires = "heuristics")]
    pub heuristic_out: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: Quiet,
}

/// Runs `bench census`.
pub fn run(args: CensusArgs) -> anyhow::Result<i32> {
    let (rows, cols) = args.size.get_or(None)?;
    let heuristics = args.heuristics.given().unwrap_or_default();
    let goal = args.goal.goal.unwrap_or_default();
    let heuristic_out = match (&args.heuristic_out, &args.out.out, heuristics.is_empty()) {
        (_, _, true) => None,
        (Some(p), _, false) => Some(p.clone()),
        (None, Some(out), false) => Some(out.with_extension("heuristics.csv")),
        (None, None, false) => bail!("--heuristics needs --heuristic-out FILE (or --out FILE)"),
    };
    let max_memory = args.max_memory.resolve(1);
    let job = Job {
        request: Request {
            shape: Shape::new(rows, cols, goal),
            heuristics,
            max_memory,
        },
        threads: args.threads.or_all_cores(),
        out: args.out.out.clone(),
        heuristic_out,
        antipodes: args.antipodes.clone(),
        quiet: args.quiet.quiet,
        command_line: std::env::args().collect(),
    };
    let (census, wall) = match driver::run(&job)? {
        Ended::Complete(census, wall) => (census, wall),
        Ended::Interrupted(status) => return Ok(status),
    };
    let diameter = census.diameter().expect("complete");
    let at_diameter = *census.counts.last().expect("depth 0");
    if args.out.out.is_none() {
        println!("depth,count");
        for (d, n) in census.counts.iter().enumerate() {
            println!("{d},{n}");
        }
    }
    println!(
        "{rows} x {cols} ({}): {} positions, diameter {diameter}, {at_diameter} position{} at distance {diameter}",
        goal,
        census::positions(rows, cols).expect("checked by the census"),
        if at_diameter == 1 { "" } else { "s" }
    );
    if !args.quiet.quiet {
        let (cpu, rss) = output::process_usage();
        eprintln!(
            "{wall:.1} s wall, {:.1} s CPU, peak memory {}",
            cpu.unwrap_or(0.0),
            rss.map_or("unknown".into(), |b| format_bytes(b as f64))
        );
    }
    Ok(0)
}
