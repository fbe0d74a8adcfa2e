//! `bench census`: maps the arguments to a [`crate::census::Request`], shows progress, and
//! hands the results to [`crate::census::output`].

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::flags::{BoardSize, SizeLimit, parse_size_limit};
use crate::board::Goal;
use crate::census::driver::{self, Ended, Job};
use crate::census::{self, Request, output};
use crate::heuristic::HeuristicKind;
use crate::infra::units::format_bytes;

/// Arguments of `bench census`.
#[derive(Debug, Args)]
pub struct CensusArgs {
    /// The board.
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout the distances are measured to: blank-last or blank-first (both give the
    /// same distribution; the antipodes differ).
    #[arg(long, default_value = "blank-last")]
    pub goal: Goal,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// The distribution as CSV (rows,cols,goal,depth,count), with the sidecar
    /// FILE.meta.json; written as FILE.partial until the search is complete.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The positions at the largest distance, as an instance file with their optimal length.
    #[arg(long, value_name = "FILE")]
    pub antipodes: Option<PathBuf>,
    /// Memory limit, e.g. 12GiB, or none [default: MemAvailable of /proc/meminfo].
    #[arg(long, value_parser = parse_size_limit, value_name = "SIZE")]
    pub max_memory: Option<SizeLimit>,
    /// Heuristics, comma-separated (misplaced, manhattan, linear-conflict, ...): the number
    /// of positions at each distance and estimate, written to --heuristic-out.
    #[arg(long, value_name = "LIST")]
    pub heuristic: Option<String>,
    /// The depth x blank x h table as CSV (rows,cols,goal,heuristic,depth,blank,h,count)
    /// [default: the --out name with .heuristics.csv].
    #[arg(long, value_name = "FILE")]
    pub heuristic_out: Option<PathBuf>,
    /// No progress bar or per-depth lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Splits a heuristic list on commas, keeping the commas of pattern-database tile groups.
fn parse_heuristics(s: &str) -> anyhow::Result<Vec<HeuristicKind>> {
    let mut names: Vec<String> = Vec::new();
    for piece in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match names.last_mut() {
            Some(last) if piece.starts_with(|c: char| c.is_ascii_digit()) => {
                last.push(',');
                last.push_str(piece);
            }
            _ => names.push(piece.to_string()),
        }
    }
    if names.is_empty() {
        bail!("--heuristic is empty");
    }
    names
        .iter()
        .map(|n| {
            n.parse::<HeuristicKind>()
                .map_err(|e| anyhow::anyhow!("--heuristic: {e}"))
        })
        .collect()
}

/// Runs `bench census`.
pub fn run(args: CensusArgs) -> anyhow::Result<i32> {
    let (rows, cols) = args.size.get_or(None)?;
    let heuristics = match &args.heuristic {
        Some(list) => parse_heuristics(list)?,
        None => Vec::new(),
    };
    let heuristic_out = match (&args.heuristic_out, &args.out, heuristics.is_empty()) {
        (_, _, true) => None,
        (Some(p), _, false) => Some(p.clone()),
        (None, Some(out), false) => Some(out.with_extension("heuristics.csv")),
        (None, None, false) => bail!("--heuristic needs --heuristic-out FILE (or --out FILE)"),
    };
    let max_memory = match args.max_memory {
        Some(SizeLimit(limit)) => limit,
        None => census::available_memory(),
    };
    let job = Job {
        request: Request {
            rows,
            cols,
            goal: args.goal,
            heuristics,
            max_memory,
        },
        threads: match args.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        out: args.out.clone(),
        heuristic_out,
        antipodes: args.antipodes.clone(),
        quiet: args.quiet,
        command_line: std::env::args().collect(),
    };
    let (census, wall) = match driver::run(&job)? {
        Ended::Complete(census, wall) => (census, wall),
        Ended::Interrupted(status) => return Ok(status),
    };
    let diameter = census.diameter().expect("complete");
    let at_diameter = *census.counts.last().expect("depth 0");
    if args.out.is_none() {
        println!("depth,count");
        for (d, n) in census.counts.iter().enumerate() {
            println!("{d},{n}");
        }
    }
    println!(
        "{rows} x {cols} ({}): {} positions, diameter {diameter}, {at_diameter} position{} at distance {diameter}",
        args.goal,
        census::positions(rows, cols).expect("checked by the census"),
        if at_diameter == 1 { "" } else { "s" }
    );
    if !args.quiet {
        let (cpu, rss) = output::process_usage();
        eprintln!(
            "{wall:.1} s wall, {:.1} s CPU, peak memory {}",
            cpu.unwrap_or(0.0),
            rss.map_or("unknown".into(), |b| format_bytes(b as f64))
        );
    }
    Ok(0)
}
