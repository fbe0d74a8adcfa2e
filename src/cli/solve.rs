//! `bench solve`: one board in, its solution out, in the original task's format.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `bench solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board: a JSON matrix or rows of numbers. Reads stdin when absent.
    pub file: Option<PathBuf>,
}

/// Runs `bench solve`; returns the exit status.
pub fn run(_args: SolveArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench solve is not implemented yet")
}
