//! The queue's files under `DIR/queue/BOUND/`: the claims that give each unit to one piece,
//! the units' records, and the writes several pieces may make at once.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::super::file::{KnownSolution, is_zero};
use crate::split::SplitError;

/// One unit's search in one bound, as `DIR/queue/BOUND/C.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// The unit.
    pub unit: usize,
    /// The bound.
    pub bound: u32,
    /// The piece that searched it.
    pub piece: u32,
    /// Nodes generated below its frontier nodes.
    pub generated: u64,
    /// Nodes expanded, its frontier nodes searched included.
    pub expanded: u64,
    /// The smallest f over the bound met below its nodes (`u32::MAX`: none); meaningful in
    /// a complete record.
    pub next_bound: u32,
    /// The frontier node a solution lies under, if the unit holds one.
    pub node: Option<usize>,
    /// In a unit [`Below`] a frontier node, the node of its cut the solution lies under.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sub: u32,
    /// That solution from the start (U/D/L/R).
    pub solution: Option<String>,
    /// The announced solution that made the rest of the unit unnecessary, if any.
    pub cut: Option<KnownSolution>,
    /// CPU time, milliseconds.
    pub cpu_ms: f64,
    /// Wall time, milliseconds.
    pub wall_ms: f64,
}

impl UnitRecord {
    /// Whether every frontier node of the unit was searched to the end of the bound.
    pub fn complete(&self) -> bool {
        self.solution.is_none() && self.cut.is_none()
    }
}

/// The directory of bound `bound`'s claims and records.
pub(super) fn bound_dir(dir: &Path, bound: u32) -> PathBuf {
    dir.join("queue").join(bound.to_string())
}

/// What a listing of a bound's directory shows.
pub(super) struct Listing {
    /// Per unit: a record exists.
    pub(super) recorded: Vec<bool>,
    /// Per unit: the highest claim generation, if claimed.
    pub(super) claimed: Vec<Option<u32>>,
}

pub(super) fn list(bound_dir: &Path, units: usize) -> Result<Listing, SplitError> {
    let mut l = Listing {
        recorded: vec![false; units],
        claimed: vec![None; units],
    };
    let entries = match std::fs::read_dir(bound_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(l),
        Err(e) => return Err(io_error(bound_dir, "cannot list", e)),
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(c) = name
            .strip_suffix(".json")
            .and_then(|c| c.parse::<usize>().ok())
        {
            if c < units {
                l.recorded[c] = true;
            }
        } else if let Some((c, g)) = name.split_once(".claim-")
            && let (Ok(c), Ok(g)) = (c.parse::<usize>(), g.parse::<u32>())
            && c < units
        {
            l.claimed[c] = l.claimed[c].max(Some(g));
        }
    }
    Ok(l)
}

pub(super) fn io_error(path: &Path, what: &str, e: std::io::Error) -> SplitError {
    SplitError::File {
        path: path.to_path_buf(),
        what: format!("{what}: {e}"),
    }
}

pub(super) fn claim_path(bound_dir: &Path, c: usize, generation: u32) -> PathBuf {
    bound_dir.join(format!("{c}.claim-{generation}"))
}

pub(super) fn record_path(bound_dir: &Path, c: usize) -> PathBuf {
    bound_dir.join(format!("{c}.json"))
}

/// Takes generation `generation` of unit `c`'s claim for the piece whose claim file (its
/// number, written once per bound) is `mine`: false if another piece took it first.
pub(super) fn try_claim(
    bound_dir: &Path,
    mine: &Path,
    c: usize,
    generation: u32,
) -> Result<bool, SplitError> {
    let target = claim_path(bound_dir, c, generation);
    match std::fs::hard_link(mine, &target) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(io_error(&target, "cannot claim", e)),
    }
}

/// The first unit from `from` on whose first claim does not exist (`units`: none), assuming
/// the claimed units form a prefix: doubling steps past claimed units, then bisection.
pub(super) fn first_untaken(bound_dir: &Path, from: usize, units: usize) -> usize {
    let taken = |c: usize| claim_path(bound_dir, c, 0).symlink_metadata().is_ok();
    if from >= units || !taken(from) {
        return from.min(units);
    }
    // `lo` is taken; `hi` is untaken or the end.
    let (mut lo, mut step) = (from, 1);
    let mut hi = loop {
        let probe = lo + step;
        if probe >= units {
            break units;
        }
        if !taken(probe) {
            break probe;
        }
        (lo, step) = (probe, step * 2);
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if taken(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The piece a claim names (`None`: unreadable, taken for a live piece's).
pub(super) fn claimant(bound_dir: &Path, c: usize, generation: u32) -> Option<u32> {
    std::fs::read_to_string(claim_path(bound_dir, c, generation))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Writes `value` as JSON to `path`, a file other pieces may write at the same time (the same
/// content), through a temporary file of piece `k`'s own renamed into place.
pub(super) fn write_shared<T: Serialize>(path: &Path, value: &T, k: u32) -> Result<(), SplitError> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{k}-{}.tmp", std::process::id()));
    let text = serde_json::to_vec(value).map_err(|e| SplitError::File {
        path: path.to_path_buf(),
        what: format!("cannot encode: {e}"),
    })?;
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| io_error(path, "cannot write", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_untaken_unit_is_past_the_claimed_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mine = d.join(".piece-1");
        std::fs::write(&mine, "1\n").unwrap();
        let n = 100;
        assert_eq!(first_untaken(d, 0, n), 0);
        for taken in 1..=n {
            assert!(try_claim(d, &mine, taken - 1, 0).unwrap());
            // A second claim of the same generation fails: exactly one taker.
            assert!(!try_claim(d, &mine, taken - 1, 0).unwrap());
            for from in [0, taken / 2, taken.saturating_sub(1), taken] {
                assert_eq!(
                    first_untaken(d, from, n),
                    taken,
                    "{taken} taken, from {from}"
                );
            }
        }
        assert_eq!(claimant(d, 7, 0), Some(1));
        assert!(try_claim(d, &mine, 7, 1).unwrap(), "the next generation");
    }
}
