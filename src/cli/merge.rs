//! `bench merge`: maps arguments to [`crate::merge`], which joins the CSVs of one
//! experiment's shards (or resumed pieces) into one file.

use std::path::PathBuf;

use clap::Args;

use crate::merge;

/// Arguments of `bench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The CSVs to join (e.g. one per shard).
    #[arg(required = true, value_name = "CSV")]
    pub inputs: Vec<PathBuf>,
    /// The merged CSV (`-` for stdout); must not exist yet. Its metadata, listing the inputs
    /// and their own metadata, goes to <FILE>.meta.json.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Merge inputs whose run did not finish (their sidecar says so) anyway, with a warning
    /// naming each and its missing jobs; without it they are refused.
    #[arg(long)]
    pub allow_incomplete: bool,
}

/// Runs `bench merge`; returns the exit status.
pub fn run(args: MergeArgs) -> anyhow::Result<i32> {
    let merged = merge::merge(
        &args.inputs,
        &args.out,
        std::env::args().collect(),
        args.allow_incomplete,
    )?;
    if let Some(mp) = merged.sidecar {
        eprintln!(
            "merged {} rows from {} file(s) into {} (metadata: {})",
            merged.rows,
            args.inputs.len(),
            args.out.display(),
            mp.display()
        );
    }
    Ok(0)
}
