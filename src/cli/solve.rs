//! `bench solve`: maps the arguments to a [`crate::solve::Request`] and prints its
//! [`crate::solve::Outcome`] (the engine, its policy and exit statuses: [`crate::solve`]).

use std::io;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::flags::{DurationLimit, SizeLimit, parse_duration_limit, parse_size_limit};
use crate::board::Goal;
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;
use crate::solve::{self, Output, Request};

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
          long_help = solve::algorithm_help())]
    pub algo: Option<Algorithm>,
    /// Heuristic [default: linear-conflict]; blind algorithms ignore it.
    #[arg(long, value_name = "H", value_parser = clap::value_parser!(HeuristicKind),
          long_help = solve::heuristic_help())]
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
    /// refused in favour of --short or --format json). Old spelling: --force.
    #[arg(long, alias = "force")]
    pub long_output: bool,
}

impl SolveArgs {
    /// The engine's request.
    fn request(&self) -> Request {
        let max_memory_bytes = match (self.max_memory, self.max_memory_mb) {
            (Some(m), _) => m.0,
            (None, mb) => mb.map(|mb| mb.saturating_mul(1 << 20)),
        };
        Request {
            file: self.file.clone(),
            goal: self.goal,
            algorithm: self.algo,
            heuristic: self.heuristic.clone(),
            timeout: self.timeout.and_then(|t| t.0),
            max_nodes: self.max_nodes,
            max_memory_bytes,
            output: match (self.format, self.short) {
                (Format::Json, _) => Output::Json,
                (Format::Text, true) => Output::Short,
                (Format::Text, false) => Output::Boards {
                    long_output: self.long_output,
                },
            },
        }
    }
}

/// Runs `bench solve`; returns the exit status.
pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let req = args.request();
    let outcome = solve::run(&req, &mut |note| eprintln!("{note}"));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    Ok(solve::output::write(
        &outcome,
        &req,
        &mut out,
        &mut io::stderr(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
}
