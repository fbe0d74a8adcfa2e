//! What `bench run` (or an embedding program) asks the engine to do: [`RunOptions`], filled
//! by `cli::run` from the arguments and by the Python package from its call.

use std::path::PathBuf;
use std::time::Duration;

use super::plan::Shard;
use crate::board::Goal;
use crate::external::Solver;
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;

/// Where results go by default.
pub const RESULTS_DIR: &str = "results";

/// Everything `bench run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Instance files; empty for the newest file in [`crate::instances::INSTANCES_DIR`].
    pub instances: Vec<PathBuf>,
    /// Goal override for every file.
    pub goal: Option<Goal>,
    /// Leave out unsolvable instances instead of stopping.
    pub skip_invalid: bool,
    /// Algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Heuristics.
    pub heuristics: Vec<HeuristicKind>,
    /// External solvers (`--solver NAME=COMMAND`).
    pub solvers: Vec<Solver>,
    /// Run the built-in algorithms as child processes (`--isolate`).
    pub isolate: bool,
    /// CPU-time limit of each job run as a process (`--cpu-limit`).
    pub cpu_limit: Option<Duration>,
    /// Repetitions of every job.
    pub repeat: u32,
    /// Unrecorded warm-up runs before each job.
    pub warmup: u32,
    /// Run only one slice of the jobs.
    pub shard: Option<Shard>,
    /// Seed of the job-order shuffle (random if `None`).
    pub seed: Option<u64>,
    /// Worker threads (all cores if `None`).
    pub threads: Option<usize>,
    /// Wall-clock limit per job.
    pub timeout: Option<Duration>,
    /// Generated-node limit per job.
    pub max_nodes: Option<u64>,
    /// Memory limit per job: `None` if not given (a resumed run keeps its limit, a new one gets
    /// [`crate::infra::limits::default_max_memory`]), `Some(None)` for unlimited.
    pub max_memory: Option<Option<u64>>,
    /// Output CSV (`-` for stdout); `None` for a new file under [`RESULTS_DIR`].
    pub out: Option<PathBuf>,
    /// Continue the run in `out`.
    pub resume: bool,
    /// Resume even if the run's settings differ from the file's.
    pub force: bool,
    /// Write the solution column.
    pub solutions: bool,
    /// Only warnings and errors on stderr.
    pub quiet: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// The command that asked for the run, as the sidecar records it (`command_line` of the run
    /// and of each session): the process's arguments for `bench run`, a call such as
    /// `["npuzzle.run", "instances=[\"i.txt\"]", "algorithms=[\"idastar\"]"]` for the
    /// Python package. The engine never reads the process's own arguments: an embedding
    /// program's are not the run's.
    pub command_line: Vec<String>,
}

/// A progress message on stderr, unless `--quiet`.
pub(super) fn info(options: &RunOptions, msg: impl AsRef<str>) {
    if !options.quiet {
        note!("{}", msg.as_ref());
    }
}
