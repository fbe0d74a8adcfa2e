//! How a bound's frontier is cut into units: sized from the previous bound's measured CPU,
//! cut where its records did their work, heavy frontier nodes cut again below themselves.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::moves_from_str;
use crate::search::subtree::Subtrees;
use crate::split::file::Position;
use crate::split::plan::Plan;
use crate::split::{SplitError, read_json};

use super::claims::{UnitRecord, bound_dir, io_error, list, record_path};

/// How a bound's frontier is cut into units, each taken by one claim: fixed when the first
/// piece reaches the bound and kept in `BOUND_DIR/units`.
///
/// Early bounds are a thousandth of the last, and a claim and a record cost a few file
/// operations (tens of microseconds, more when dozens of pieces share a directory), so a
/// bound gets enough units that each takes about [`UNIT_CPU`], from the previous bound's
/// measured CPU (IDA*'s bounds multiply it by a roughly constant factor), and at most the
/// plan's chunks. Where the units are cut comes from the previous bound's records too: each
/// unit's generated nodes, spread over its frontier nodes by the probe's weights, predict the
/// next bound's work far better than the probe alone (its bound is far from the last), so a
/// unit where the work concentrates is cut finer. That matters in the last bound: while the
/// solver searches its unit up to the solution, the other pieces go on past it, so the
/// solver's unit should be no bigger than the rest. The first bound, with nothing measured,
/// has one unit per piece, groups of the plan's chunks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Units {
    /// Each unit's first frontier node, in frontier order.
    pub starts: Vec<u32>,
    /// The previous bound's CPU time over all its records, milliseconds (`None`: the first
    /// bound).
    pub basis_cpu_ms: Option<f64>,
    /// Per unit, the part of its frontier node's subtree it holds, for the units of a node
    /// cut again below the frontier; empty if no node is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub below: Vec<Option<Below>>,
}

/// A unit that is part of one heavy frontier node's subtree: the node's subtree is cut again
/// `depth` moves below it, and the unit holds the nodes `from..to` of that cut (in IDA*'s
/// order), the first part also the nodes between the frontier node and the cut.
///
/// Why: where one frontier node holds much of a bound's work, a unit cannot be smaller
/// than that node, and in the last bound the other pieces search past the solution for as
/// long as the solver searches its unit before it (measured on Korf's 24-puzzle #16: one
/// frontier node, 9 M nodes before the solution, cost 64 pieces 17 s of CPU past it). Cut
/// below the frontier, the node's parts are taken in order like any units, and the pieces
/// past the solution stop within a part of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Below {
    /// The moves from the frontier node to its cut.
    pub depth: u32,
    /// The unit's first node of the cut.
    pub from: u32,
    /// One past its last.
    pub to: u32,
}

/// A frontier node is cut below when its predicted work exceeds this many units' worth.
const HEAVY: u64 = 2;

/// A heavy node's cut aims at this many nodes per part, so that parts can be of about
/// equal weight.
const CUT_NODES_PER_PART: usize = 16;

/// At most this many nodes in a heavy node's cut (each part expands the cut again).
const MAX_CUT_NODES: usize = 1 << 16;

/// A node of a heavy node's cut is weighted by this factor per unit of slack (bound minus
/// the largest f on its path): IDA*'s iterations grow by 6 to 10 per bound step of 2 on
/// the 15- and 24-puzzles, about 2.8 per unit of f.
const SLACK_GROWTH: f64 = 2.8;

/// The CPU time a unit aims at: a claim's files cost a small share of it, and the pieces
/// past an announced solution have searched at most about this much each.
pub const UNIT_CPU: Duration = Duration::from_millis(10);

/// The factor by which a bound's work is assumed to exceed the previous one's: more than the
/// 15-puzzle's (about 6 with Manhattan) and the 24-puzzle's (about 8 to 10 with PDBs), so that
/// units err on the small side.
const GROWTH: f64 = 16.0;

impl Units {
    /// The first bound's units: the plan's chunks in one group per piece.
    pub(super) fn first(plan: &Plan) -> Units {
        let (chunks, n) = (
            plan.chunks.len(),
            (plan.pieces as usize).min(plan.chunks.len()),
        );
        Units {
            starts: (0..n).map(|u| plan.chunks[u * chunks / n]).collect(),
            basis_cpu_ms: None,
            below: Vec::new(),
        }
    }

    /// The units of `bound`, the bound after one with units `previous` and (complete)
    /// `records`.
    pub(super) fn after(
        plan: &Plan,
        previous: &Units,
        records: &[Option<UnitRecord>],
        subtrees: &Subtrees,
        bound: u32,
    ) -> Units {
        let cpu_ms: f64 = records.iter().flatten().map(|r| r.cpu_ms).sum();
        let wanted = cpu_ms * GROWTH / (UNIT_CPU.as_secs_f64() * 1e3);
        let n = (wanted.ceil() as usize).clamp(1, plan.chunks.len().min(plan.frontier.len()));
        let work = predicted_work(plan, previous, records);
        let mut starts =
            std::collections::BTreeSet::from_iter(crate::split::plan::chunk_starts(&work, n));
        // The heavy nodes, each cut below into parts of about one unit's work.
        let unit_work = work.iter().sum::<u64>() / n as u64;
        let mut cuts = std::collections::BTreeMap::new();
        for (i, &w) in work.iter().enumerate() {
            if w > HEAVY * unit_work.max(1) && plan.frontier[i].path_max <= bound {
                let parts = (w / unit_work.max(1)) as usize;
                if let Some(parts) = cut_below(plan, subtrees, i, bound, parts) {
                    starts.extend([i as u32, i as u32 + 1]);
                    cuts.insert(i as u32, parts);
                }
            }
        }
        starts.retain(|&s| (s as usize) < plan.frontier.len());
        let mut units = Units {
            starts: Vec::new(),
            basis_cpu_ms: Some(cpu_ms),
            below: Vec::new(),
        };
        for s in starts {
            let parts = cuts.remove(&s).unwrap_or_default();
            if parts.is_empty() {
                units.starts.push(s);
                units.below.push(None);
            }
            for part in parts {
                units.starts.push(s);
                units.below.push(Some(part));
            }
        }
        if units.below.iter().all(Option::is_none) {
            units.below.clear();
        }
        units
    }

    /// The part of its frontier node's subtree unit `u` holds, if it is cut below.
    pub fn below(&self, u: usize) -> Option<&Below> {
        self.below.get(u).and_then(Option::as_ref)
    }

    /// Where unit `u` begins in IDA*'s order.
    pub(super) fn position(&self, u: usize) -> Position {
        Position {
            node: self.starts[u] as usize,
            sub: self.below(u).map_or(0, |b| b.from),
        }
    }

    /// The number of units.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The frontier nodes of unit `u` (one for a unit below a frontier node).
    pub fn nodes(&self, plan: &Plan, u: usize) -> std::ops::Range<usize> {
        let start = self.starts[u] as usize;
        if self.below(u).is_some() {
            return start..start + 1;
        }
        let end = self
            .starts
            .get(u + 1)
            .map_or(plan.frontier.len(), |&e| e as usize);
        self.starts[u] as usize..end
    }
}

/// Each frontier node's predicted work in the next bound: the generated nodes of its unit's
/// record (of all its parts', for a node cut below), spread over the unit's nodes by the
/// probe's weights (plus one, so that no node of a busy unit counts for nothing).
fn predicted_work(plan: &Plan, previous: &Units, records: &[Option<UnitRecord>]) -> Vec<u64> {
    let mut work = vec![0f64; plan.frontier.len()];
    for (u, r) in records.iter().enumerate() {
        let nodes = previous.nodes(plan, u);
        let weights: u64 = nodes.clone().map(|i| plan.frontier[i].weight + 1).sum();
        let generated = r.as_ref().map_or(0, |r| r.generated) as f64;
        for i in nodes {
            work[i] += generated * (plan.frontier[i].weight + 1) as f64 / weights as f64;
        }
    }
    work.into_iter().map(|w| w.round() as u64 + 1).collect()
}

/// Frontier node `node`'s subtree cut below it into about `parts` parts of about equal
/// predicted work in the iteration with `bound`: the shallowest cut with
/// [`CUT_NODES_PER_PART`] nodes per part (fewer if the tree is too small), above the depth
/// of any goal the iteration can meet (its goals lie `bound` moves deep: a goal closer to
/// the start would have ended an earlier iteration). `None` if it cannot be cut in two.
fn cut_below(
    plan: &Plan,
    subtrees: &Subtrees,
    node: usize,
    bound: u32,
    parts: usize,
) -> Option<Vec<Below>> {
    let moves = moves_from_str(&plan.frontier[node].moves).ok()?;
    let mut cut = None;
    for depth in 1.. {
        if plan.depth + depth >= bound {
            break;
        }
        let e = subtrees.expand_below(&moves, depth as usize);
        if e.frontier.len() > MAX_CUT_NODES {
            break;
        }
        let enough = e.frontier.len() >= parts * CUT_NODES_PER_PART;
        cut = Some((depth, e));
        if enough {
            break;
        }
    }
    let (depth, e) = cut?;
    let weights: Vec<u64> = e
        .frontier
        .iter()
        .map(|f| match bound.checked_sub(f.path_max) {
            Some(slack) => SLACK_GROWTH.powi(slack as i32).round() as u64,
            None => 0,
        })
        .collect();
    let parts = parts.min(weights.iter().filter(|&&w| w > 0).count());
    if parts < 2 {
        return None;
    }
    let starts = crate::split::plan::chunk_starts(&weights, parts);
    let ends = starts.iter().skip(1).copied().chain([weights.len() as u32]);
    Some(
        starts
            .iter()
            .zip(ends)
            .map(|(&from, to)| Below { depth, from, to })
            .collect(),
    )
}

/// The units of `bound`, if a piece has reached it.
pub(super) fn read_units(dir: &Path, bound: u32) -> Result<Option<Units>, SplitError> {
    let path = bound_dir(dir, bound).join("units");
    if !path.exists() {
        return Ok(None);
    }
    read_json(&path).map(Some)
}

/// The units of `bound`, fixed now if no piece has: from the records of `previous` (the
/// bound before it, `None` for the plan's first). The first piece's file stands (created
/// exclusively), so every piece takes the same units.
pub(super) fn fix_units(
    plan: &Plan,
    dir: &Path,
    (bound, previous): (u32, Option<u32>),
    subtrees: &Subtrees,
    k: u32,
) -> Result<Units, SplitError> {
    if let Some(u) = read_units(dir, bound)? {
        return Ok(u);
    }
    let units = match previous {
        None => Units::first(plan),
        Some(p) => {
            let before = read_units(dir, p)?.ok_or_else(|| SplitError::File {
                path: bound_dir(dir, p).join("units"),
                what: format!("missing: bound {p} was finished, so its units were fixed"),
            })?;
            let records = read_records(dir, p)?.unwrap_or_default();
            Units::after(plan, &before, &records, subtrees, bound)
        }
    };
    write_units(dir, bound, &units, k)
}

/// Writes `units` as `bound`'s unless a piece has already: the first file stands.
pub(super) fn write_units(
    dir: &Path,
    bound: u32,
    units: &Units,
    k: u32,
) -> Result<Units, SplitError> {
    let d = bound_dir(dir, bound);
    std::fs::create_dir_all(&d).map_err(|e| io_error(&d, "cannot create", e))?;
    let path = d.join("units");
    let tmp = d.join(format!(".units.{k}-{}.tmp", std::process::id()));
    let text = serde_json::to_vec(units).map_err(|e| io_error(&path, "cannot encode", e.into()))?;
    std::fs::write(&tmp, text).map_err(|e| io_error(&tmp, "cannot write", e))?;
    let linked = std::fs::hard_link(&tmp, &path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(units.clone()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_json(&path),
        Err(e) => Err(io_error(&path, "cannot write", e)),
    }
}

/// Reads every record of a bound, one per unit (units without one are `None`); `None` if no
/// piece has reached the bound.
pub fn read_records(dir: &Path, bound: u32) -> Result<Option<Vec<Option<UnitRecord>>>, SplitError> {
    let Some(units) = read_units(dir, bound)? else {
        return Ok(None);
    };
    let d = bound_dir(dir, bound);
    let listing = list(&d, units.count())?;
    (0..units.count())
        .map(|c| {
            if !listing.recorded[c] {
                return Ok(None);
            }
            let path = record_path(&d, c);
            let r: UnitRecord = read_json(&path)?;
            if r.unit != c || r.bound != bound {
                return Err(SplitError::File {
                    path,
                    what: format!(
                        "the record of unit {} at bound {}, expected unit {c} at bound {bound}",
                        r.unit, r.bound
                    ),
                });
            }
            Ok(Some(r))
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::split::plan::{PlanRequest, make_plan};
    use crate::{Algorithm, Board, Goal};

    fn eight_puzzle_queue_plan() -> Plan {
        let board = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        make_plan(&PlanRequest {
            instance_file: "test".into(),
            instance_id: "1".into(),
            scramble_moves: None,
            board,
            goal: Goal::BlankLast,
            algorithm: Algorithm::Idastar,
            heuristic: HeuristicKind::Manhattan,
            pieces: 3,
            frontier: 200,
            probe_nodes: 10_000,
            any_optimal: false,
            queue: true,
        })
        .unwrap()
    }

    fn record(unit: usize, generated: u64, cpu_ms: f64) -> Option<UnitRecord> {
        Some(UnitRecord {
            unit,
            bound: 20,
            piece: 1,
            generated,
            expanded: 0,
            next_bound: 22,
            node: None,
            sub: 0,
            solution: None,
            cut: None,
            cpu_ms,
            wall_ms: cpu_ms,
        })
    }

    #[test]
    fn units_are_cut_where_the_previous_bound_did_its_work() {
        let plan = eight_puzzle_queue_plan();
        let n = plan.frontier.len();
        assert!(n >= 100 && plan.chunks.len() == n.min(3 * 128), "{n}");
        let first = Units::first(&plan);
        assert_eq!(first.count(), 3);
        assert_eq!(first.basis_cpu_ms, None);
        // All the work in the first unit: 200 ms, so 200 * 16 / 10 = 320 units wanted.
        let records = [
            record(0, 1_000_000, 200.0),
            record(1, 0, 0.0),
            record(2, 0, 0.0),
        ];
        let subtrees = plan.subtrees().unwrap();
        let after = Units::after(&plan, &first, &records, &subtrees, 22);
        let wanted = 320.min(plan.chunks.len());
        assert_eq!(after.count(), wanted);
        let busy = first.nodes(&plan, 0);
        let inside = after
            .starts
            .iter()
            .filter(|&&s| busy.contains(&(s as usize)))
            .count();
        assert!(
            inside + 2 >= wanted.min(busy.len()),
            "{inside} of {wanted} units start in the busy first {} nodes",
            busy.len()
        );
        // Consecutive, non-empty, from the first node.
        assert_eq!(after.starts[0], 0);
        assert!(after.starts.windows(2).all(|w| w[0] < w[1]));
        // Little work: one unit.
        let idle = [record(0, 10, 0.1), record(1, 10, 0.1), record(2, 10, 0.1)];
        assert_eq!(Units::after(&plan, &first, &idle, &subtrees, 22).count(), 1);
    }

    /// A node that did most of the previous bound's work is cut below into parts: units of
    /// that node alone, consecutive in IDA*'s order, that together hold its whole cut; the
    /// units stay in IDA*'s order and cover the frontier.
    #[test]
    fn a_heavy_node_is_cut_below_into_parts_in_order() {
        let plan = eight_puzzle_queue_plan();
        let subtrees = plan.subtrees().unwrap();
        let n = plan.frontier.len();
        // A bound that searches every frontier node.
        let bound = plan.frontier.iter().map(|f| f.path_max).max().unwrap() + 2;
        let heavy = n / 10;
        // One unit per node in the previous bound; `heavy` did almost all the work.
        let previous = Units {
            starts: (0..n as u32).collect(),
            basis_cpu_ms: Some(1.0),
            below: Vec::new(),
        };
        let records: Vec<_> = (0..n)
            .map(|i| {
                let g = if i == heavy { 1_000_000 } else { 10 };
                let mut r = record(i, g, 1.0).unwrap();
                r.bound = bound - 2;
                Some(r)
            })
            .collect();
        let units = Units::after(&plan, &previous, &records, &subtrees, bound);
        let parts: Vec<usize> = (0..units.count())
            .filter(|&u| units.below(u).is_some())
            .collect();
        assert!(parts.len() >= 2, "{parts:?}");
        assert!(parts.windows(2).all(|w| w[1] == w[0] + 1), "consecutive");
        let depth = units.below(parts[0]).unwrap().depth;
        let moves = moves_from_str(&plan.frontier[heavy].moves).unwrap();
        let cut = subtrees.expand_below(&moves, depth as usize).frontier.len() as u32;
        let mut from = 0;
        for &u in &parts {
            let b = units.below(u).unwrap();
            assert_eq!(units.nodes(&plan, u), heavy..heavy + 1);
            assert_eq!((b.depth, b.from), (depth, from));
            assert!(b.to > b.from);
            from = b.to;
        }
        assert_eq!(from, cut, "the parts hold the whole cut");
        assert!(
            plan.depth + depth < bound,
            "the cut lies above the bound's goals"
        );
        // In order, and every frontier node in exactly one unit or in the parts of one.
        assert!((1..units.count()).all(|u| units.position(u - 1) < units.position(u)));
        let mut covered = Vec::new();
        for u in 0..units.count() {
            if units.below(u).is_none_or(|b| b.from == 0) {
                covered.extend(units.nodes(&plan, u));
            }
        }
        assert_eq!(covered, (0..n).collect::<Vec<_>>());
    }
}
