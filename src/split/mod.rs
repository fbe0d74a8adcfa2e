//! One IDA* search split into independent pieces (`bench split`), after Reinefeld and
//! Schnecke's AIDA*: the start is expanded to a *frontier* of a few thousand nodes at a fixed
//! depth, disjoint slices of the frontier go to N pieces, each piece runs iterative deepening
//! on its slice as a process of its own, and the pieces' files are combined into one answer.
//!
//! - [`plan`]: the frontier, the counts of the tree above it, the slices balanced by a short
//!   probe of every frontier node's subtree, written to `DIR/plan.json` with a checksum.
//! - [`piece`]: one piece's iterations, each recorded in `DIR/piece-K.json` (replaced by
//!   rename after every bound, so a killed piece loses only the bound it was in and a rerun
//!   continues after its last finished one); a piece stops once another piece's solution
//!   makes the rest of its search unnecessary (a bound it has finished, or its frontier nodes
//!   after the solution's in the solution's bound; announced by marker files).
//! - [`queue`]: the other way to run pieces (a plan made with `--queue`): in every bound the
//!   pieces take chunks of the frontier in order from a shared queue of claim files, and a
//!   bound ends when every chunk's record is written.
//! - [`run`]: the pieces a Slurm array task stands for, several pieces at once as threads of
//!   one process.
//! - [`combine`]: the pieces' counts summed per bound with the tree above the frontier (exactly
//!   the single-process IDA* counts of every bound all pieces finished), the shortest
//!   solution replayed on the start board, `result.csv` (one results row) and
//!   `iterations.csv`.
//!
//! The pieces never talk to each other except through the piece files in the shared
//! directory; `docs/split.md` is the guide.

mod bound;
pub mod combine;
pub mod file;
pub mod piece;
pub mod plan;
pub mod queue;
pub mod run;
mod slices;
pub mod step;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::search::SolveError;

/// Why a split could not be planned, run or combined.
#[derive(Debug, Error)]
pub enum SplitError {
    /// The algorithm is not an unweighted IDA*.
    #[error(
        "--algos {0}: a split search runs IDA* (idastar, idastar-fsm, idastar-par or idastar-par-fsm; \
         the parallel forms prune like their sequential ones, and each piece runs one thread)"
    )]
    Algorithm(String),
    /// The board or heuristic cannot be searched.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A file of the split directory is missing, unreadable or inconsistent.
    #[error("{}: {what}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// A request out of range.
    #[error("{0}")]
    Request(String),
    /// The instance file of a plan cannot be read.
    #[error(transparent)]
    Instances(#[from] crate::instances::InstanceError),
    /// One piece of several run at once failed.
    #[error("piece {piece}: {source}")]
    Piece {
        /// The piece.
        piece: u32,
        /// Why.
        source: Box<SplitError>,
    },
    /// Some of the pieces run at once failed (each said why as it ended).
    #[error("{failed} of {of} pieces failed")]
    PiecesFailed {
        /// How many failed.
        failed: usize,
        /// How many ran.
        of: usize,
    },
    /// The pieces' threads could not be started.
    #[error("cannot start the pieces' threads: {0}")]
    Threads(std::io::Error),
}

/// The plan's file in a split directory.
pub fn plan_path(dir: &Path) -> PathBuf {
    dir.join("plan.json")
}

/// Piece `k`'s file (1-based) in a split directory.
pub fn piece_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("piece-{k}.json"))
}

/// Reads and parses a JSON file of the split directory.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, SplitError> {
    let text = std::fs::read_to_string(path).map_err(|e| SplitError::File {
        path: path.to_path_buf(),
        what: format!("cannot read: {e}"),
    })?;
    serde_json::from_str(&text).map_err(|e| SplitError::File {
        path: path.to_path_buf(),
        what: format!("not a file of this split format: {e}"),
    })
}

/// Writes `value` as JSON to `path` through a temporary file renamed into place, so a reader
/// (or a killed writer) never sees half a file.
fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), SplitError> {
    crate::infra::output::write_replacing(path, |w| {
        serde_json::to_writer_pretty(&mut *w, value)?;
        w.write_all(b"\n")?;
        Ok(())
    })
    .map_err(|e| SplitError::File {
        path: path.to_path_buf(),
        what: format!("cannot write: {e:#}"),
    })
}
