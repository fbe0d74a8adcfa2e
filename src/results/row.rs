//! One job's result: the [`Row`], how it was measured ([`MeasuredBy`]) and the [`JobKey`] that
//! identifies the job across runs, shards and resumes. How the job ended is the crate's one
//! [`Outcome`] (`search::Outcome`, re-exported here as the `status` column's type).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::{Goal, Shape};

use super::Pair;
pub use crate::search::Outcome;

/// How a row was measured: the `measured_by` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasuredBy {
    /// On a worker thread of `bench run`: the thread's CPU time, the counting allocator's heap.
    InProcess,
    /// As a child process of its own (external solvers, `--isolate`): wall time from our
    /// clock, user and system CPU time and peak resident memory from the kernel.
    Process,
}

impl MeasuredBy {
    /// The spelling in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            MeasuredBy::InProcess => "in-process",
            MeasuredBy::Process => "process",
        }
    }
}

impl FromStr for MeasuredBy {
    type Err = String;

    fn from_str(s: &str) -> Result<MeasuredBy, String> {
        [MeasuredBy::InProcess, MeasuredBy::Process]
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown measurement \"{s}\", expected in-process or process"))
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
    /// The goal layout (written `blank-last` / `blank-first`).
    pub goal: Goal,
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
    /// Whether the algorithm guarantees a shortest solution (empty for external solvers:
    /// we cannot know).
    pub optimal: Option<bool>,
    /// The shortest solution length known when the row was written: the instance file's
    /// `optimal` column, or an optimal built-in algorithm's solution of the same instance in
    /// the same run (v3; only on rows of algorithms that do not guarantee optimality).
    pub known_optimal: Option<u32>,
    /// Whether the solution is longer than `known_optimal` (v3; empty when either is unknown).
    pub suboptimal: Option<bool>,
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
    /// Peak resident memory of the job's process group, from the kernel (v3; rows measured
    /// as a `process` only).
    pub peak_rss_bytes: Option<u64>,
    /// Wall time of the whole job in milliseconds: solvability check, heuristic set-up,
    /// search and the replay check of the solution.
    pub wall_ms: f64,
    /// Wall time of the search alone in milliseconds (no set-up, no replay).
    pub search_ms: Option<f64>,
    /// CPU time of the job in milliseconds (its thread, plus helper threads of a parallel
    /// search).
    pub cpu_ms: Option<f64>,
    /// User CPU time of the job's processes, from the kernel (v3; `process` rows only).
    pub user_ms: Option<f64>,
    /// System CPU time of the job's processes, from the kernel (v3; `process` rows only).
    pub sys_ms: Option<f64>,
    /// Heuristic set-up time in milliseconds.
    pub setup_ms: Option<f64>,
    /// The heuristic's estimate of the start board.
    pub initial_h: Option<u32>,
    /// How the row was measured (v3; empty in older files, which are all `in-process`).
    pub measured_by: Option<MeasuredBy>,
    /// What went wrong (errors, wrong answers, crashes, the solver's rejection), or a note.
    pub message: Option<String>,
    /// The moves as U/D/L/R letters (with `--solutions`).
    pub solution: Option<String>,
}

impl Row {
    /// The board's size and goal layout (the `rows`, `cols` and `goal` columns; three
    /// columns of their own in the CSV, which has no nested values).
    pub fn shape(&self) -> Shape {
        Shape::new(self.rows as usize, self.cols as usize, self.goal)
    }

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

    /// The instance this row ran on.
    pub fn instance_key(&self) -> InstanceKey<'_> {
        (
            &self.instance_file,
            &self.instance_id,
            self.rows,
            self.cols,
            self.goal.name(),
        )
    }

    /// The row's algorithm/heuristic configuration (displayed `algorithm/heuristic`).
    pub fn pair(&self) -> Pair {
        Pair::new(&self.algorithm, &self.heuristic)
    }
}

/// An instance as rows name it: (instance file, id, rows, cols, goal).
pub type InstanceKey<'a> = (&'a str, &'a str, u32, u32, &'a str);

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
    fn the_status_column_spells_outcomes_as_documented() {
        for o in Outcome::RECORDED {
            assert_eq!(o.name().parse::<Outcome>(), Ok(o));
        }
        let e = "bogus".parse::<Outcome>().unwrap_err();
        assert!(e.contains("bogus") && e.contains("crashed or error"), "{e}");
        // The documented spellings (docs/results-schema.md), typed out.
        let names: Vec<&str> = Outcome::RECORDED.iter().map(|o| o.name()).collect();
        assert_eq!(
            names,
            [
                "solved",
                "timeout",
                "cpu-limit",
                "node-limit",
                "memory-limit",
                "depth-limit",
                "wrong-answer",
                "rejected",
                "crashed",
                "error"
            ]
        );
        assert!(Outcome::CpuLimit.is_limit() && !Outcome::WrongAnswer.is_limit());
        assert_eq!("process".parse::<MeasuredBy>(), Ok(MeasuredBy::Process));
        assert_eq!(
            "in-process".parse::<MeasuredBy>(),
            Ok(MeasuredBy::InProcess)
        );
        assert!("kernel".parse::<MeasuredBy>().is_err());
    }
}
