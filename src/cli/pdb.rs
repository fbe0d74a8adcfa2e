//! `bench pdb build|info|verify`: the pattern-database cache from the command line.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::flags::{BoardSize, HeuristicList, parse_heuristic_list};
use crate::board::Goal;
use crate::pdb::{self, Request};

/// The `bench pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build the databases of a partition into the cache (loading valid cached files unless
    /// --rebuild).
    Build(PdbArgs),
    /// Show where the databases of a partition are cached and what they hold.
    Info(PdbArgs),
    /// Check the cached databases of a partition (header and checksum; with --rebuild also
    /// against a fresh build). Exits with status 1 if one is missing or invalid.
    Verify(PdbArgs),
}

/// What every `bench pdb` subcommand takes.
#[derive(Debug, Args)]
pub struct PdbArgs {
    /// The heuristic: pdb, pdb:full, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6 or tile groups
    /// like pdb:1,2,3/4,5,6.
    #[arg(default_value = "pdb")]
    pub spec: String,
    /// The board size [default: 4x4].
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout: blank-last or blank-first (Korf's instances use blank-first) [default:
    /// blank-last; with --instances, each file's own, as in `bench run`].
    #[arg(long)]
    pub goal: Option<Goal>,
    /// The databases a `bench run` of these instance files will load: board sizes and goals
    /// from the files (instead of --size), heuristics from --heuristics. Prepares a cluster
    /// run's cache once, before its shards start.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["size", "n", "rows"])]
    pub instances: Vec<PathBuf>,
    /// With --instances: the run's heuristics, comma-separated as in `bench run`; the pattern
    /// databases among them are used [default: SPEC].
    #[arg(
        long,
        value_name = "LIST",
        requires = "instances",
        value_parser = parse_heuristic_list,
        action = clap::ArgAction::Append
    )]
    pub heuristics: Vec<HeuristicList>,
    /// build: rebuild even if a valid file is cached. verify: also compare with a fresh build.
    /// Old spelling: --force.
    #[arg(long, alias = "force")]
    pub rebuild: bool,
}

impl PdbArgs {
    /// The engine's request.
    fn request(&self) -> anyhow::Result<Request> {
        Ok(Request {
            spec: self.spec.clone(),
            size: self.size.get()?,
            goal: self.goal,
            instances: self.instances.clone(),
            heuristics: self.heuristics.iter().flat_map(|l| l.0.clone()).collect(),
            rebuild: self.rebuild,
        })
    }
}

/// Runs `bench pdb`; returns the exit status.
pub fn run(cmd: PdbCommand) -> anyhow::Result<i32> {
    let mut out = std::io::stdout().lock();
    match cmd {
        PdbCommand::Build(args) => pdb::build(&args.request()?, &mut out),
        PdbCommand::Info(args) => pdb::info(&args.request()?, &mut out),
        PdbCommand::Verify(args) => pdb::verify(&args.request()?, &mut out),
    }
}
