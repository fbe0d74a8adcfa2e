//! The flags that mean the same in every subcommand: `--timeout DURATION`, `--max-memory SIZE`
//! (parsed by [`crate::infra::limits`], the one parser of durations and sizes), `--max-nodes N`,
//! the board size `--size RxC` / `--n N` / `--rows R --cols C`, and lists of heuristics whose
//! pattern-database tile groups contain commas (`--heuristics manhattan,pdb:1,2,3/4,5,6`).
//!
//! One vocabulary: every flag that means the same in several subcommands is declared once
//! here as a clap group ([`GoalFlag`], [`Threads`], [`Seed`], [`Quiet`], [`Timeout`],
//! [`MaxMemory`], [`Out`], [`Instances`], [`Heuristics`]) and flattened into each; closed
//! value sets are `clap::ValueEnum`s, so `--help` lists them and a bad value fails before any
//! work.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::values::closed;
pub use super::values::{
    DurationLimit, HeuristicList, SizeLimit, parse_duration_limit, parse_heuristic_list, parse_rxc,
    parse_size_limit,
};
use crate::board::Goal;
use crate::heuristic::HeuristicKind;
use crate::infra::limits;

/// The board size, spelled `--size RxC`, `--n N` (square) or `--rows R --cols C`.
#[derive(Debug, Clone, Args)]
pub struct BoardSize {
    /// Board size ROWSxCOLS, e.g. 4x4 or 3x5 (or --n N, or --rows R --cols C).
    #[arg(long, value_name = "RxC", conflicts_with_all = ["n", "rows", "cols"])]
    pub size: Option<String>,
    /// A square board of N x N (same as --size NxN).
    #[arg(long, value_name = "N", conflicts_with_all = ["rows", "cols"])]
    pub n: Option<usize>,
    /// Board rows (with --cols).
    #[arg(long, value_name = "R", requires = "cols")]
    pub rows: Option<usize>,
    /// Board columns (with --rows).
    #[arg(long, value_name = "C", requires = "rows")]
    pub cols: Option<usize>,
}

impl BoardSize {
    /// The size given, if any.
    pub fn get(&self) -> anyhow::Result<Option<(usize, usize)>> {
        Ok(match (&self.size, self.n, self.rows, self.cols) {
            (Some(s), ..) => Some(parse_rxc(s)?),
            (None, Some(n), ..) => Some((n, n)),
            (None, None, Some(r), Some(c)) => Some((r, c)),
            _ => None,
        })
    }

    /// The size given, else `default`, else an error saying how to give it.
    pub fn get_or(&self, default: Option<(usize, usize)>) -> anyhow::Result<(usize, usize)> {
        match self.get()?.or(default) {
            Some(size) => Ok(size),
            None => bail!("give the board size with --size RxC, --n N or --rows R --cols C"),
        }
    }
}

/// `--goal GOAL`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct GoalFlag {
    /// Goal layout: blank-last (1, 2, ..., then the blank) or blank-first (the blank, then
    /// 1, 2, ...; Korf's) [default: an instance file's own, else blank-last].
    #[arg(long, value_name = "GOAL", value_parser = closed::<Goal>("goal"))]
    pub goal: Option<Goal>,
}

/// `--threads N`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Threads {
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

impl Threads {
    /// The number given, else every core.
    pub fn or_all_cores(&self) -> usize {
        match self.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// `--seed S`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Seed {
    /// Seed of every random choice [default: a fresh one, printed on stderr and recorded in
    /// the output; pass --seed for a repeatable result].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

impl Seed {
    /// The seed given, else a fresh one (32 bits, readable in file names), printed on stderr
    /// unless `quiet`.
    pub fn resolve(&self, quiet: bool) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = u64::from(rand::random::<u32>());
            if !quiet {
                crate::infra::output::note(format_args!(
                    "seed: {seed} (fresh; pass --seed {seed} to reproduce)\n"
                ));
            }
            seed
        })
    }
}

/// `--quiet`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Quiet {
    /// No progress, notes or summaries on stderr; only warnings and errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--timeout DURATION`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Timeout {
    /// Time limit of each search: 60s, 500ms, 2m, a number of seconds, or none [default: 60s
    /// per job in bench run, none in bench solve]. A stopped search is reported as a timeout.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration_limit, allow_negative_numbers = true)]
    pub timeout: Option<DurationLimit>,
}

/// `--max-memory SIZE`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct MaxMemory {
    /// Memory limit of each job: 64MiB, 2GiB, 500MB, a number of bytes, or none [default: 70%
    /// of physical memory divided by the jobs that run at once: the threads of bench run, one
    /// for solve and census].
    #[arg(long, value_name = "SIZE", value_parser = parse_size_limit)]
    pub max_memory: Option<SizeLimit>,
}

impl MaxMemory {
    /// The limit in bytes (`None`: unlimited), by the one default rule when not given:
    /// [`limits::default_max_memory`] for `jobs` jobs at once.
    pub fn resolve(&self, jobs: usize) -> Option<u64> {
        match self.max_memory {
            Some(SizeLimit(limit)) => limit,
            None => Some(limits::default_max_memory(jobs)),
        }
    }
}

/// `--out FILE`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Out {
    /// Output file; `-` for stdout in run, gen and predict [default: run:
    /// results/run-<UTC time>.csv (metadata in FILE.meta.json); gen:
    /// instances/<RxC>-<generator>-seed<S>-n<K>.txt; census, predict: none].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `--instances FILE...`, the same in every subcommand.
#[derive(Debug, Clone, Args)]
pub struct Instances {
    /// Instance files: the project's format, Korf's tsv layout or JSON matrices [default in
    /// bench run: the newest file in instances/; if there is none, the built-in default set
    /// (1000 4 x 4 walks of 20 moves, seed 1) is written there first; bench predict takes
    /// one file].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub instances: Vec<PathBuf>,
}

/// `--heuristics LIST`, the same in every subcommand (old spelling: `--heuristic`).
#[derive(Debug, Clone, Args)]
pub struct Heuristics {
    /// Heuristics, separated by commas or `;` (repeatable) [default: manhattan; census: none;
    /// pdb: SPEC].
    #[arg(
        long,
        alias = "heuristic",
        value_name = "LIST",
        value_parser = parse_heuristic_list,
        action = clap::ArgAction::Append,
        long_help = heuristics_help()
    )]
    pub heuristics: Vec<HeuristicList>,
}

impl Heuristics {
    /// Every heuristic given, in order; `None` if the flag is absent.
    pub fn given(&self) -> Option<Vec<HeuristicKind>> {
        (!self.heuristics.is_empty())
            .then(|| self.heuristics.iter().flat_map(|l| l.0.clone()).collect())
    }

    /// The heuristics given, else `default`.
    pub fn or(&self, default: HeuristicKind) -> Vec<HeuristicKind> {
        self.given().unwrap_or_else(|| vec![default])
    }
}

/// `--heuristics`' long help: the separators, the defaults, then every heuristic from the
/// registry (as in `bench solve --help`).
fn heuristics_help() -> String {
    format!(
        "Heuristics, separated by commas or `;`; a tile group keeps its commas \
         (pdb:1,2,3/4,5,6); the flag may be repeated. Default: manhattan (run, predict), none \
         (census), SPEC (pdb). Old spelling: --heuristic. Blind algorithms run once with \
         none.\n\n{}",
        crate::heuristic::heuristic_help()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_size_means_the_same() {
        let size = |size: Option<&str>, n, rows, cols| BoardSize {
            size: size.map(str::to_string),
            n,
            rows,
            cols,
        };
        assert_eq!(
            size(Some("3x5"), None, None, None).get().unwrap(),
            Some((3, 5))
        );
        assert_eq!(
            size(None, None, Some(3), Some(5)).get().unwrap(),
            Some((3, 5))
        );
        assert_eq!(
            size(Some("4X4"), None, None, None).get().unwrap(),
            Some((4, 4))
        );
        assert_eq!(size(None, Some(4), None, None).get().unwrap(), Some((4, 4)));
        assert_eq!(
            size(None, None, None, None).get_or(Some((4, 4))).unwrap(),
            (4, 4)
        );
        assert_eq!(
            size(Some("5"), None, None, None).get().unwrap(),
            Some((5, 5))
        );
        let e = size(Some("3y3"), None, None, None).get().unwrap_err();
        assert!(e.to_string().contains("expected ROWSxCOLS"), "{e}");
        assert!(size(None, None, None, None).get_or(None).is_err());
    }
}
