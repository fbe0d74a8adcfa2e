//! `bench solve`: maps the arguments to a [`crate::solve::Request`] and prints its
//! [`crate::solve::Reply`] (the engine, its policy and exit statuses: [`crate::solve`]).

use std::io;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::flags::{GoalFlag, MaxMemory, Quiet, Timeout};
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
    #[command(flatten)]
    pub goal: GoalFlag,
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
    #[command(flatten)]
    pub timeout: Timeout,
    /// Stop the search after this many generated nodes; exit status 3.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    #[command(flatten)]
    pub max_memory: MaxMemory,
    /// The old spelling of --max-memory, in MiB.
    #[arg(long, value_name = "MIB", hide = true, conflicts_with = "max_memory")]
    pub max_memory_mb: Option<u64>,
    /// Print every board even when the solution is very long (by default such output is
    /// refused in favour of --short or --format json). Old spelling: --force.
    #[arg(long, alias = "force")]
    pub long_output: bool,
    #[command(flatten)]
    pub quiet: Quiet,
}

impl SolveArgs {
    /// The engine's request.
    fn request(&self) -> Request {
        let max_memory_bytes = match self.max_memory_mb {
            Some(mb) => Some(mb.saturating_mul(1 << 20)),
            None => self.max_memory.resolve(1),
        };
        Request {
            file: self.file.clone(),
            goal: self.goal.goal,
            algorithm: self.algo,
            heuristic: self.heuristic.clone(),
            timeout: self.timeout.timeout.and_then(|t| t.0),
            max_nodes: self.max_nodes,
            max_memory_bytes,
            output: match (self.format, self.short) {
                (Format::Json, _) => Output::Json,
                (Format::Text, true) => Output::Short,
                (Format::Text, false) => Output::Boards {
                    long_output: self.long_output,
                },
            },
            quiet: self.quiet.quiet,
            cancel: None,
        }
    }
}

/// Runs `bench solve`; returns the exit status.
pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let req = args.request();
    let reply = solve::run(&req, &mut |note| eprintln!("{note}"));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    Ok(solve::output::write(
        &reply,
        &req,
        &mut out,
        &mut io::stderr(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::super::values::parse_duration_limit;
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
