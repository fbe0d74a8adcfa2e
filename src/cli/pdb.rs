//! `bench pdb` (not implemented yet).

use clap::Subcommand;

/// The `bench pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build a pattern database into the cache.
    Build,
}

/// Runs `bench pdb`; returns the exit status.
pub fn run(_cmd: PdbCommand) -> anyhow::Result<i32> {
    anyhow::bail!("bench pdb is not implemented yet")
}
