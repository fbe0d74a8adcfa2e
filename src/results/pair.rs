//! The one type for an algorithm/heuristic configuration, built-in or external.

use std::fmt;

use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;

use super::Row;

/// The `heuristic` column of an external solver's rows.
pub const EXTERNAL_HEURISTIC: &str = "-";

/// An algorithm/heuristic configuration as every layer names it: a built-in algorithm with its
/// heuristic (`none` for blind algorithms), or an external solver (`--solver NAME=COMMAND`)
/// with the heuristic [`EXTERNAL_HEURISTIC`]. It is what a job of `bench run` is planned and
/// keyed by (`run::plan::Program::pair`; the program also holds what executes it), what a row
/// records in its `algorithm` and `heuristic` columns ([`Row::pair`]), and what `bench report`
/// groups and compares by. Displays as `algorithm/heuristic`, the text of the tables and of
/// `--compare`. Ordered by algorithm, then heuristic.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Pair {
    /// The `algorithm` column: a built-in algorithm's name or an external solver's.
    pub algorithm: String,
    /// The `heuristic` column.
    pub heuristic: String,
}

impl Pair {
    /// A pair from its two columns.
    pub fn new(algorithm: &str, heuristic: &str) -> Pair {
        Pair {
            algorithm: algorithm.to_string(),
            heuristic: heuristic.to_string(),
        }
    }

    /// A built-in algorithm with its heuristic.
    pub fn builtin(algorithm: Algorithm, heuristic: &HeuristicKind) -> Pair {
        Pair {
            algorithm: algorithm.name(),
            heuristic: heuristic.name(),
        }
    }

    /// An external solver named `name`.
    pub fn external(name: &str) -> Pair {
        Pair::new(name, EXTERNAL_HEURISTIC)
    }

    /// Whether `r` is a row of this pair.
    pub fn matches(&self, r: &Row) -> bool {
        r.algorithm == self.algorithm && r.heuristic == self.heuristic
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.algorithm, self.heuristic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_displays_as_its_two_columns_joined_by_a_slash() {
        let p = Pair::builtin(Algorithm::Idastar, &HeuristicKind::Manhattan);
        assert_eq!(p, Pair::new("idastar", "manhattan"));
        assert_eq!(p.to_string(), "idastar/manhattan");
        assert_eq!(Pair::external("mine").to_string(), "mine/-");
    }
}
