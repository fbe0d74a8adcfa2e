//! `bench run` (not implemented yet).

use clap::Args;

/// Arguments of `bench run`.
#[derive(Debug, Args)]
pub struct RunArgs {}

/// Runs `bench run`; returns the exit status.
pub fn run(_args: RunArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench run is not implemented yet")
}
