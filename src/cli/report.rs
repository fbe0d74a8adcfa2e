//! `bench report` (not implemented yet).

use clap::Args;

/// Arguments of `bench report`.
#[derive(Debug, Args)]
pub struct ReportArgs {}

/// Runs `bench report`; returns the exit status.
pub fn run(_args: ReportArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench report is not implemented yet")
}
