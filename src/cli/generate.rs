//! `bench gen` (not implemented yet).

use clap::Args;

/// Arguments of `bench gen`.
#[derive(Debug, Args)]
pub struct GenArgs {}

/// Runs `bench gen`; returns the exit status.
pub fn run(_args: GenArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench gen is not implemented yet")
}
