//! One job's result: the [`Row`], how the job ended ([`Outcome`]) and the [`JobKey`] that
//! identifies the job across runs, shards and resumes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::search::Status;

/// How a job ended, as the `status` column spells it. It is the search's own [`Status`]
/// (converted with `Outcome::try_from`; a cancelled search writes no row) or `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Solved (and the solution replayed).
    Solved,
    /// The timeout ran out.
    Timeout,
    /// The node budget ran out.
    NodeLimit,
    /// The memory budget ran out.
    MemoryLimit,
    /// Stopped at the deepest path the search can represent (`search::MAX_STORED_DEPTH`).
    DepthLimit,
    /// The job failed (see the `message` column).
    Error,
}

impl Outcome {
    /// Every outcome, in the documented order.
    pub const ALL: [Outcome; 6] = [
        Outcome::Solved,
        Outcome::Timeout,
        Outcome::NodeLimit,
        Outcome::MemoryLimit,
        Outcome::DepthLimit,
        Outcome::Error,
    ];

    /// The spelling in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Timeout => "timeout",
            Outcome::NodeLimit => "node-limit",
            Outcome::MemoryLimit => "memory-limit",
            Outcome::DepthLimit => "depth-limit",
            Outcome::Error => "error",
        }
    }

    /// Whether a limit stopped the job.
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            Outcome::Timeout | Outcome::NodeLimit | Outcome::MemoryLimit | Outcome::DepthLimit
        )
    }

    /// The spellings, for error messages: "solved, timeout, ... or error".
    pub fn expected() -> String {
        let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
        format!(
            "{} or {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        )
    }
}

impl TryFrom<Status> for Outcome {
    /// The one status without a row: [`Status::Cancelled`].
    type Error = Status;

    fn try_from(status: Status) -> Result<Outcome, Status> {
        match status {
            Status::Solved => Ok(Outcome::Solved),
            Status::Timeout => Ok(Outcome::Timeout),
            Status::NodeLimit => Ok(Outcome::NodeLimit),
            Status::MemoryLimit => Ok(Outcome::MemoryLimit),
            Status::DepthLimit => Ok(Outcome::DepthLimit),
            Status::Cancelled => Err(status),
        }
    }
}

impl FromStr for Outcome {
    type Err = String;

    fn from_str(s: &str) -> Result<Outcome, String> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("unknown status \"{s}\", expected {}", Outcome::expected()))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One job's result, one CSV line; the fields are the columns in order. `None` is written as
/// an empty cell: not applicable, never a fake 0.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Identifies the run (joins the CSV with its `.meta.json`).
    pub run_id: String,
    /// The instance file as named on the command line.
    pub instance_file: String,
    /// The instance's id within its file.
    pub instance_id: String,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// The goal layout (`blank-last` / `blank-first`).
    pub goal: String,
    /// The random-walk length the instance was generated with, if it was.
    pub scramble_moves: Option<u32>,
    /// The algorithm.
    pub algorithm: String,
    /// The heuristic (`none` for blind algorithms).
    pub heuristic: String,
    /// The repetition, 1-based.
    pub repetition: u32,
    /// How the job ended.
    pub status: Outcome,
    /// Solution length, when solved.
    pub moves: Option<u32>,
    /// For a search stopped by a limit: every solution has at least this many moves (IDA*:
    /// the bound of the unfinished iteration, all below it searched completely).
    pub lower_bound: Option<u32>,
    /// Whether the algorithm guarantees a shortest solution.
    pub optimal: Option<bool>,
    /// Nodes expanded.
    pub nodes_expanded: Option<u64>,
    /// Nodes generated.
    pub nodes_generated: Option<u64>,
    /// IDA* iterations started (empty for the other algorithms).
    pub iterations: Option<u32>,
    /// The most nodes the search held at once.
    pub peak_stored_nodes: Option<u64>,
    /// The most heap bytes the job held at once (counting allocator).
    pub peak_heap_bytes: Option<u64>,
    /// Wall time of the whole job in milliseconds: solvability check, heuristic set-up,
    /// search and the replay check of the solution.
    pub wall_ms: f64,
    /// Wall time of the search alone in milliseconds (no set-up, no replay).
    pub search_ms: Option<f64>,
    /// CPU time of the job in milliseconds (its thread, plus helper threads of a parallel
    /// search).
    pub cpu_ms: Option<f64>,
    /// Heuristic set-up time in milliseconds.
    pub setup_ms: Option<f64>,
    /// The heuristic's estimate of the start board.
    pub initial_h: Option<u32>,
    /// The error, for status `error`.
    pub message: Option<String>,
    /// The moves as U/D/L/R letters (with `--solutions`).
    pub solution: Option<String>,
}

impl Row {
    /// The row's job key.
    pub fn key(&self) -> JobKey {
        JobKey {
            instance_file: self.instance_file.clone(),
            instance_id: self.instance_id.clone(),
            algorithm: self.algorithm.clone(),
            heuristic: self.heuristic.clone(),
            repetition: self.repetition,
        }
    }

    /// The instance this row ran on: (instance file, id, rows, cols, goal).
    pub fn instance_key(&self) -> (&str, &str, u32, u32, &str) {
        (
            &self.instance_file,
            &self.instance_id,
            self.rows,
            self.cols,
            &self.goal,
        )
    }

    /// `algorithm/heuristic`, the name of the pair.
    pub fn pair(&self) -> String {
        format!("{}/{}", self.algorithm, self.heuristic)
    }
}

/// What identifies a job across runs, shards and resumes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobKey {
    /// The instance file as named.
    pub instance_file: String,
    /// The instance id.
    pub instance_id: String,
    /// The algorithm.
    pub algorithm: String,
    /// The heuristic.
    pub heuristic: String,
    /// The repetition.
    pub repetition: u32,
}

impl fmt::Display for JobKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} #{} {}/{} repetition {}",
            self.instance_file, self.instance_id, self.algorithm, self.heuristic, self.repetition
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_status_but_cancelled_is_an_outcome_of_the_same_name() {
        for s in [
            Status::Solved,
            Status::Timeout,
            Status::NodeLimit,
            Status::MemoryLimit,
            Status::DepthLimit,
        ] {
            assert_eq!(Outcome::try_from(s).unwrap().name(), s.name());
        }
        assert_eq!(Outcome::try_from(Status::Cancelled), Err(Status::Cancelled));
        for o in Outcome::ALL {
            assert_eq!(o.name().parse::<Outcome>(), Ok(o));
        }
        let e = "bogus".parse::<Outcome>().unwrap_err();
        assert!(
            e.contains("bogus") && e.contains("depth-limit or error"),
            "{e}"
        );
    }
}
