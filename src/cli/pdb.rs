//! `bench pdb build|info|verify`: the pattern-database cache from the command line.

use anyhow::bail;
use clap::{Args, Subcommand};

use super::flags::{BoardSize, GoalFlag, Heuristics, Instances};
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
#[command(group(
    clap::ArgGroup::new("board_source")
        .args(["instances", "size", "n", "rows"])
        .multiple(false)
))]
pub struct PdbArgs {
    /// The heuristic: pdb, pdb:full, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6 or tile groups
    /// like pdb:1,2,3/4,5,6.
    #[arg(default_value = "pdb")]
    pub spec: String,
    /// The board size [default: 4x4].
    #[command(flatten)]
    pub size: BoardSize,
    #[command(flatten)]
    pub goal: GoalFlag,
    /// The databases a `bench run` of these instance files will load: board sizes and goals
    /// from the files (instead of --size), heuristics from --heuristics. Prepares a cluster
    /// run's cache once, before its shards start.
    #[command(flatten)]
    pub instances: Instances,
    /// With --instances: the run's heuristics, comma-separated as in `bench run`; the pattern
    /// databases among them are used [default: SPEC].
    #[command(flatten)]
    pub heuristics: Heuristics,
    /// build: rebuild even if a valid file is cached. verify: also compare with a fresh build.
    /// Old spelling: --force.
    #[arg(long, alias = "force")]
    pub rebuild: bool,
}

impl PdbArgs {
    /// The engine's request.
    fn request(&self) -> anyhow::Result<Request> {
        let instances = self.instances.instances.clone();
        let size = self.size.get()?;
        let heuristics = self.heuristics.given().unwrap_or_default();
        if instances.is_empty() && !heuristics.is_empty() {
            bail!("--heuristics names a run's heuristics: it needs --instances FILE");
        }
        Ok(Request {
            spec: self.spec.clone(),
            size,
            goal: self.goal.goal,
            instances,
            heuristics,
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
