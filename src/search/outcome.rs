//! How a job ended: the one [`Outcome`] that every layer speaks, from the search's inner loop
//! to the `status` column of the results file.
//!
//! A built-in search ends `solved` or at a limit (or `cancelled`); a process (an external
//! solver, an isolated job) may also end at `cpu-limit`; an external solver's answer may be
//! judged `rejected`, `wrong-answer` or `crashed`; a job that failed is an `error`. What
//! differs between them rides beside the outcome, never in a parallel enum: the exit code or
//! signal of a process (`external::process::Exit`), the message of a row, the statistics of a
//! stopped search. `cancelled` (the run was interrupted) is the one outcome no row records.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How a job ended. Serialized (JSON, CSV) as [`Outcome::name`] spells it; the variants' order
/// is the documented order of the `status` column (docs/results-schema.md), with `cancelled`,
/// which is never recorded, last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Solved, and the solution replayed to the goal (the only outcome with a solution).
    Solved,
    /// The wall-clock timeout ran out.
    Timeout,
    /// The CPU-time limit ran out (`--cpu-limit`: processes only).
    CpuLimit,
    /// The node budget ran out.
    NodeLimit,
    /// The memory budget would have been or was exceeded.
    MemoryLimit,
    /// The search reached the deepest path it can represent ([`super::MAX_STORED_DEPTH`]
    /// moves for the best-first searches, whose nodes keep g in 14 bits); no flag raises it.
    DepthLimit,
    /// An external solver's answer is not a solution: unreadable, an illegal move, or not
    /// ending at the goal.
    WrongAnswer,
    /// An external solver refused the board (the original task's rejection).
    Rejected,
    /// A process (an external solver, an isolated job) ended with a nonzero status or a signal
    /// without an answer.
    Crashed,
    /// The job failed (the row's `message` says why).
    Error,
    /// Stopped from outside (the cancel flag: an interrupted run, or another worker of a
    /// parallel search that stopped). Never written to a results file: an interrupted job
    /// has no row.
    Cancelled,
}

impl Outcome {
    /// Every outcome a results file records, in the documented order (all but
    /// [`Outcome::Cancelled`]).
    pub const RECORDED: [Outcome; 10] = [
        Outcome::Solved,
        Outcome::Timeout,
        Outcome::CpuLimit,
        Outcome::NodeLimit,
        Outcome::MemoryLimit,
        Outcome::DepthLimit,
        Outcome::WrongAnswer,
        Outcome::Rejected,
        Outcome::Crashed,
        Outcome::Error,
    ];

    /// The spelling in files, JSON and messages.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Timeout => "timeout",
            Outcome::CpuLimit => "cpu-limit",
            Outcome::NodeLimit => "node-limit",
            Outcome::MemoryLimit => "memory-limit",
            Outcome::DepthLimit => "depth-limit",
            Outcome::WrongAnswer => "wrong-answer",
            Outcome::Rejected => "rejected",
            Outcome::Crashed => "crashed",
            Outcome::Error => "error",
            Outcome::Cancelled => "cancelled",
        }
    }

    /// Whether a limit stopped the job.
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            Outcome::Timeout
                | Outcome::CpuLimit
                | Outcome::NodeLimit
                | Outcome::MemoryLimit
                | Outcome::DepthLimit
        )
    }

    /// Whether a results file records this outcome (all but [`Outcome::Cancelled`]).
    pub fn is_recorded(self) -> bool {
        self != Outcome::Cancelled
    }

    /// The recorded spellings, for error messages: "solved, timeout, ... or error".
    pub fn expected() -> String {
        let names: Vec<&str> = Outcome::RECORDED.iter().map(|o| o.name()).collect();
        format!(
            "{} or {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a `status` cell: only the [recorded](Outcome::RECORDED) spellings.
impl FromStr for Outcome {
    type Err = String;

    fn from_str(s: &str) -> Result<Outcome, String> {
        Outcome::RECORDED
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("unknown status \"{s}\", expected {}", Outcome::expected()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bench solve --format json` writes an outcome and `bench run --isolate` reads it back:
    /// the JSON spellings are the documented ones, typed out.
    #[test]
    fn outcomes_round_trip_through_json_and_text_with_their_documented_names() {
        let cases = [
            (Outcome::Solved, "solved"),
            (Outcome::Timeout, "timeout"),
            (Outcome::CpuLimit, "cpu-limit"),
            (Outcome::NodeLimit, "node-limit"),
            (Outcome::MemoryLimit, "memory-limit"),
            (Outcome::DepthLimit, "depth-limit"),
            (Outcome::WrongAnswer, "wrong-answer"),
            (Outcome::Rejected, "rejected"),
            (Outcome::Crashed, "crashed"),
            (Outcome::Error, "error"),
            (Outcome::Cancelled, "cancelled"),
        ];
        for (outcome, name) in cases {
            let json = serde_json::to_string(&outcome).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(outcome.name(), name);
            assert_eq!(outcome.to_string(), name);
            assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), outcome);
        }
        assert!(serde_json::from_str::<Outcome>("\"bogus\"").is_err());
        // The documented order of the `status` column (docs/results-schema.md), typed out.
        let recorded: Vec<&str> = Outcome::RECORDED.iter().map(|o| o.name()).collect();
        let documented: Vec<&str> = cases[..10].iter().map(|c| c.1).collect();
        assert_eq!(recorded, documented);
        for o in Outcome::RECORDED {
            assert_eq!(o.name().parse::<Outcome>(), Ok(o));
            assert!(o.is_recorded());
        }
        // A results file never holds `cancelled`.
        assert!(!Outcome::Cancelled.is_recorded());
        let e = "cancelled".parse::<Outcome>().unwrap_err();
        assert!(
            e.contains("cancelled") && e.contains("crashed or error"),
            "{e}"
        );
        assert!(Outcome::CpuLimit.is_limit() && !Outcome::WrongAnswer.is_limit());
        assert!(!Outcome::Cancelled.is_limit());
    }
}
