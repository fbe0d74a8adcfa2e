//! `bench merge` (not implemented yet).

use clap::Args;

/// Arguments of `bench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {}

/// Runs `bench merge`; returns the exit status.
pub fn run(_args: MergeArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench merge is not implemented yet")
}
