//! The piece file (`DIR/piece-K.json`), its format tag and where a piece stands, and the
//! positions and solutions it names: what every other part of a split reads and writes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::plan::Plan;
use super::{SplitError, piece_path, read_json};
use crate::search::Outcome;

/// The format tag of piece files.
pub const PIECE_FORMAT: &str = "npuzzle-split-piece/1";

/// Where a piece stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PieceState {
    /// Running, or killed while running (a rerun continues).
    Running,
    /// Found a solution (the first in its frontier order at its bound).
    Solved,
    /// Stopped because another piece found a solution that makes the rest of its search
    /// unnecessary: at a bound this one has finished, or at the bound it was in, under a
    /// frontier node before the ones it had left (see [`KnownSolution::cuts`]).
    Covered,
    /// Its subtrees hold nothing over the last bound (only on a piece without nodes).
    Exhausted,
    /// A limit stopped it mid-bound (a rerun continues).
    Stopped,
}

impl PieceState {
    /// Whether a rerun has nothing left to do.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            PieceState::Solved | PieceState::Covered | PieceState::Exhausted
        )
    }
}

/// One bound a piece finished.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PieceIteration {
    /// The bound.
    pub bound: u32,
    /// Nodes generated below the piece's frontier nodes (they themselves are counted above).
    pub generated: u64,
    /// Nodes expanded, the piece's frontier nodes searched included.
    pub expanded: u64,
    /// The piece's next bound (`u32::MAX`: none).
    pub next_bound: u32,
    /// CPU time of the bound, milliseconds.
    pub cpu_ms: f64,
    /// Wall time of the bound, milliseconds.
    pub wall_ms: f64,
}

/// A bound a piece did not finish: the one it found a solution in, or the one a limit
/// stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialIteration {
    /// The bound.
    pub bound: u32,
    /// Nodes generated up to the stop.
    pub generated: u64,
    /// Nodes expanded up to the stop.
    pub expanded: u64,
    /// The frontier node (index in the plan) the solution lies under, if found.
    pub node: Option<usize>,
    /// In a frontier node a queue cut below the frontier, the node of that cut the solution
    /// lies under (see [`Position`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sub: u32,
    /// The solution from the start (U/D/L/R), if found.
    pub solution: Option<String>,
    /// The limit that stopped it, if any (written as the results' `status` spells it:
    /// `timeout`, `node-limit`, ...).
    pub stopped: Option<Outcome>,
    /// The other piece's solution that made the rest of this bound unnecessary, if any: one
    /// at a smaller bound, or at this bound under an earlier frontier node (the piece's
    /// frontier nodes after it were not searched in this bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<KnownSolution>,
    /// CPU time, milliseconds.
    pub cpu_ms: f64,
    /// Wall time, milliseconds.
    pub wall_ms: f64,
}

/// A piece's file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceFile {
    /// [`PIECE_FORMAT`].
    pub format: String,
    /// The plan's checksum.
    pub plan: String,
    /// The piece (1-based).
    pub piece: u32,
    /// Its frontier nodes.
    pub nodes: usize,
    /// Where it stands.
    pub state: PieceState,
    /// Every bound it finished, ascending.
    pub iterations: Vec<PieceIteration>,
    /// The bound it did not finish: solved or stopped.
    pub partial: Option<PartialIteration>,
    /// How many times the piece was started.
    pub sessions: u32,
    /// Heuristic set-up time of the last session, milliseconds.
    pub setup_ms: f64,
    /// Time spent waiting for other pieces before its bounds, over all sessions,
    /// milliseconds (idle, no CPU).
    #[serde(default)]
    pub waited_ms: f64,
}

impl PieceFile {
    /// The solution's bound and frontier node, if the piece found one.
    pub fn solution(&self) -> Option<KnownSolution> {
        let p = self.partial.as_ref().filter(|p| p.solution.is_some())?;
        Some(KnownSolution {
            bound: p.bound,
            node: p.node?,
            sub: p.sub,
        })
    }

    /// The finished bound that stands for `bound` (see the module documentation).
    pub fn covering(&self, bound: u32) -> Option<&PieceIteration> {
        self.iterations
            .iter()
            .find(|it| it.bound <= bound && bound < it.next_bound)
    }

    /// CPU time of the piece's search over all sessions, milliseconds.
    pub fn cpu_ms(&self) -> f64 {
        self.iterations.iter().map(|i| i.cpu_ms).sum::<f64>()
            + self.partial.as_ref().map_or(0.0, |p| p.cpu_ms)
    }

    /// Wall time of the piece's search over all sessions, milliseconds.
    pub fn wall_ms(&self) -> f64 {
        self.iterations.iter().map(|i| i.wall_ms).sum::<f64>()
            + self.partial.as_ref().map_or(0.0, |p| p.wall_ms)
    }
}

/// Reads piece `k`'s file if there is one, checking it belongs to `plan`.
pub fn read_piece(plan: &Plan, dir: &Path, k: u32) -> Result<Option<PieceFile>, SplitError> {
    let path = piece_path(dir, k);
    if !path.exists() {
        return Ok(None);
    }
    let file: PieceFile = read_json(&path)?;
    if file.format != PIECE_FORMAT || file.plan != plan.checksum || file.piece != k {
        return Err(SplitError::File {
            path,
            what: format!(
                "belongs to another plan or piece (format {}, plan {}, piece {}; expected {PIECE_FORMAT}, plan {}, piece {k})",
                file.format, file.plan, file.piece, plan.checksum
            ),
        });
    }
    Ok(Some(file))
}

/// Where a search stands in a bound, in IDA*'s order: a frontier node and, where a queue
/// cut that node's subtree again below the frontier (`queue::Below`), the node of that cut
/// (0 elsewhere). Ordered as IDA* meets them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// The frontier node (index in the plan).
    pub node: usize,
    /// The node of the frontier node's own cut, if it has one.
    pub sub: u32,
}

impl Position {
    /// Frontier node `node`, not cut below.
    pub fn node(node: usize) -> Position {
        Position { node, sub: 0 }
    }
}

/// A solution some piece reported: its bound and where it lies. Ordered as IDA* meets them:
/// the smaller bound first, then the earlier position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct KnownSolution {
    /// The bound it was found in.
    pub bound: u32,
    /// The frontier node (index in the plan) it lies under.
    pub node: usize,
    /// The node of that frontier node's own cut it lies under (see [`Position`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sub: u32,
}

impl KnownSolution {
    /// Where it lies in its bound.
    pub fn position(self) -> Position {
        Position {
            node: self.node,
            sub: self.sub,
        }
    }

    /// Whether a piece in iteration `bound`, about to search at position `at`, may stop:
    /// every bound below this solution's is finished by the pieces that reach it, so the
    /// solution is optimal; single-process IDA* never searches the positions after it in
    /// its bound, nor any larger bound. With `any_optimal` (any optimal solution will do),
    /// anywhere in its bound.
    pub fn cuts(self, bound: u32, at: Position, any_optimal: bool) -> bool {
        self.bound < bound || (self.bound == bound && (any_optimal || self.position() < at))
    }
}

pub(super) fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The earlier of two solutions in IDA*'s order (`None`: not known).
pub(super) fn first(a: Option<KnownSolution>, b: Option<KnownSolution>) -> Option<KnownSolution> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Piece `k`'s file before its first session.
pub(super) fn new_piece_file(plan: &Plan, k: u32) -> PieceFile {
    PieceFile {
        format: PIECE_FORMAT.into(),
        plan: plan.checksum.clone(),
        piece: k,
        nodes: 0,
        state: PieceState::Running,
        iterations: Vec::new(),
        partial: None,
        sessions: 0,
        setup_ms: 0.0,
        waited_ms: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_cuts_larger_bounds_and_later_nodes_of_its_own() {
        let s = KnownSolution {
            bound: 30,
            node: 7,
            sub: 0,
        };
        let at = Position::node;
        for any in [false, true] {
            assert!(s.cuts(32, at(0), any), "a larger bound");
            assert!(s.cuts(30, at(8), any), "a later node in its bound");
            assert!(!s.cuts(28, at(100), any), "a smaller bound");
        }
        assert!(!s.cuts(30, at(6), false), "an earlier node in its bound");
        assert!(!s.cuts(30, at(7), false), "its own node");
        assert!(
            s.cuts(30, at(6), true),
            "any optimal solution: anywhere in its bound"
        );
        // Inside a frontier node cut again: by the position in its cut.
        let deep = KnownSolution { sub: 40, ..s };
        let part = |sub| Position { node: 7, sub };
        assert!(deep.cuts(30, part(41), false), "a later node of the cut");
        assert!(
            !deep.cuts(30, part(39), false),
            "an earlier node of the cut"
        );
        assert!(!deep.cuts(30, part(40), false), "its own node of the cut");
        assert!(deep.cuts(30, at(8), false) && !deep.cuts(30, at(6), false));
        assert!(s < deep && deep < KnownSolution { node: 8, ..s });
        let t = KnownSolution {
            bound: 28,
            node: 9,
            sub: 0,
        };
        assert_eq!(first(Some(s), Some(t)), Some(t));
        assert_eq!(first(None, Some(s)), Some(s));
        assert_eq!(first(Some(s), None), Some(s));
    }
}
