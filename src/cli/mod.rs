//! The `bench` command line: argument definitions (clap derive) and one module per subcommand.

mod census;
mod flags;
mod generate;
mod merge;
mod pdb;
mod predict;
mod report;
mod run;
mod solve;
mod split;
mod values;

use clap::{Parser, Subcommand};

/// Solve sliding-tile puzzles and benchmark search algorithms on them.
#[derive(Debug, Parser)]
#[command(name = "bench", version, about)]
pub struct Cli {
    /// Pattern-database cache directory (default: $NPUZZLE_PDB_DIR, else
    /// $XDG_CACHE_HOME/npuzzle/pdb, else ~/.cache/npuzzle/pdb).
    #[arg(long, global = true, value_name = "DIR")]
    pub pdb_dir: Option<std::path::PathBuf>,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one board given as a JSON matrix or rows of numbers (FILE or stdin).
    Solve(solve::SolveArgs),
    /// Generate a seeded set of random solvable instances.
    Gen(generate::GenArgs),
    /// Run algorithms x heuristics over instance sets in parallel, one CSV row per job.
    Run(run::RunArgs),
    /// Join shard CSVs of one experiment into one file.
    Merge(merge::MergeArgs),
    /// Build, inspect and verify pattern databases.
    #[command(subcommand)]
    Pdb(pdb::PdbCommand),
    /// Tables and plots from results CSVs.
    Report(report::ReportArgs),
    /// Predict IDA*'s nodes per iteration and heuristic (KRE, CDP, stratified sampling).
    Predict(predict::PredictArgs),
    /// Complete breadth-first search of a small board: positions per distance, the diameter,
    /// the antipodes and a heuristic's exact distribution.
    Census(census::CensusArgs),
    /// One IDA* search split into pieces run as separate processes (Slurm tasks), resumable,
    /// combined with exact per-iteration counts (docs/split.md).
    #[command(subcommand)]
    Split(split::SplitCommand),
}

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let mut args = std::env::args_os();
    if args
        .nth(1)
        .is_some_and(|a| a == crate::external::supervisor::SUPERVISE_ARG)
    {
        return crate::external::supervisor::main(&args.collect::<Vec<_>>());
    }
    // Every external command and isolated job runs under this program as its supervisor.
    if let Ok(me) = std::env::current_exe() {
        crate::external::supervisor::install(me);
    }
    crate::infra::output::install_write_failure_handling();
    let cli = Cli::parse();
    if let Some(dir) = &cli.pdb_dir {
        crate::heuristic::pdb::set_cache_dir(Some(dir.clone()));
    }
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Gen(args) => generate::run(args),
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Pdb(cmd) => pdb::run(cmd),
        Command::Report(args) => report::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Census(args) => census::run(args),
        Command::Split(cmd) => split::run(cmd),
    };
    match result {
        // Done, but a diagnostic was lost on the way (stderr full or closed): say so.
        Ok(0) if crate::infra::output::diagnostics_lost() => crate::infra::output::EXIT_WRITE_ERROR,
        Ok(code) => code,
        Err(e) => {
            // Not eprintln!: a full or closed stderr must not turn an error into a panic.
            let _ =
                std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("error: {e:#}\n"));
            if crate::infra::output::is_write_failure(&e) {
                crate::infra::output::EXIT_WRITE_ERROR
            } else {
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
