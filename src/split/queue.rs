//! Pieces that take their work from a shared queue (a plan made with `--queue`).
//!
//! Fixed slices balance the pieces by the probe's weights, and in the last bound those
//! weights are only a guess: the pieces search their slices side by side, and when one finds
//! the solution the others have searched as long as it has, wherever their slices lie. So the
//! last bound costs what the solver's slice happened to hold before the solution, times the
//! pieces (1.2 to 1.5 times single-process IDA*'s last bound in `results/split-scaling.md`).
//!
//! Here, in every bound, the frontier is cut into units of consecutive nodes ([`Units`]), and
//! each piece takes the first unit no piece has taken, searches it, writes its record, and
//! takes the next. Whichever pieces run, they search the frontier in IDA*'s order together:
//! when a solution is announced, every piece is within about one unit of it, and the pieces
//! past it stop at once (the in-search stop). The bound ends when every unit has a record;
//! its next bound is the smallest over the records and the tree above the frontier, and every
//! piece goes on to it. A bound's counts are the sum of its units' records, so they equal the
//! single process's exactly whoever searched which unit. A frontier node that holds more
//! than a couple of units' work is cut again below itself ([`Below`]): its parts are units
//! like the others, so no unit is much bigger than the rest, wherever the work lies.
//!
//! The files, under `DIR/queue/BOUND/`:
//! - `units`: the bound's [`Units`], created exclusively by the first piece to fix them.
//! - `U.claim-G`: unit U taken, holding the taker's piece number; made by hard-linking the
//!   piece's own file into place, which fails if the name exists (also on NFS), so exactly
//!   one piece takes each generation of a claim.
//! - `U.json`: the unit's record ([`UnitRecord`]), written to a temporary file and renamed.
//! - `next`: the next bound, written by the one piece that reads the records (`next.claim`).
//!
//! A claim whose piece is not running (no heartbeat, or a stale one: see `step`) is taken
//! over by creating the next generation; a piece started again takes its own claims back. So
//! a killed piece loses only the unit it was in, and a piece that never starts leaves
//! nothing behind. Should a slow piece's claim be taken over while it still runs, both search
//! the unit and write the same counts.
//!
//! With a solution at bound L at position p (a frontier node, or a node of a heavy frontier
//! node's cut: `piece::Position`), the units that begin after p are not needed
//! (single-process IDA* never searches them in L); the others are searched to their end, or
//! to p, as in a fixed slice (see `piece`). With `any_optimal` none is needed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{Move, moves_from_str};
use crate::search::subtree::{Expansion, Subtrees};
use crate::search::thread_cpu_time;

use super::piece::{
    BoundEnd, BoundRun, KnownSolution, PieceFile, PieceOptions, PieceState, Position, Session,
    SubtreeRoot, Watch, is_zero, record_bound, run_bound,
};
use super::plan::Plan;
use super::step::InStep;
use super::{SplitError, piece_path, read_json, write_json};

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
fn bound_dir(dir: &Path, bound: u32) -> PathBuf {
    dir.join("queue").join(bound.to_string())
}

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
    fn first(plan: &Plan) -> Units {
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
    fn after(
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
        let mut starts = std::collections::BTreeSet::from_iter(super::plan::chunk_starts(&work, n));
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
    fn position(&self, u: usize) -> Position {
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
    let starts = super::plan::chunk_starts(&weights, parts);
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
fn read_units(dir: &Path, bound: u32) -> Result<Option<Units>, SplitError> {
    let path = bound_dir(dir, bound).join("units");
    if !path.exists() {
        return Ok(None);
    }
    read_json(&path).map(Some)
}

/// The units of `bound`, fixed now if no piece has: from the records of `previous` (the
/// bound before it, `None` for the plan's first). The first piece's file stands (created
/// exclusively), so every piece takes the same units.
fn fix_units(
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
fn write_units(dir: &Path, bound: u32, units: &Units, k: u32) -> Result<Units, SplitError> {
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

/// What a listing of a bound's directory shows.
struct Listing {
    /// Per unit: a record exists.
    recorded: Vec<bool>,
    /// Per unit: the highest claim generation, if claimed.
    claimed: Vec<Option<u32>>,
}

fn list(bound_dir: &Path, units: usize) -> Result<Listing, SplitError> {
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

fn io_error(path: &Path, what: &str, e: std::io::Error) -> SplitError {
    SplitError::File {
        path: path.to_path_buf(),
        what: format!("{what}: {e}"),
    }
}

fn claim_path(bound_dir: &Path, c: usize, generation: u32) -> PathBuf {
    bound_dir.join(format!("{c}.claim-{generation}"))
}

fn record_path(bound_dir: &Path, c: usize) -> PathBuf {
    bound_dir.join(format!("{c}.json"))
}

/// Takes generation `generation` of unit `c`'s claim for the piece whose claim file (its
/// number, written once per bound) is `mine`: false if another piece took it first.
fn try_claim(bound_dir: &Path, mine: &Path, c: usize, generation: u32) -> Result<bool, SplitError> {
    let target = claim_path(bound_dir, c, generation);
    match std::fs::hard_link(mine, &target) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(io_error(&target, "cannot claim", e)),
    }
}

/// The first unit from `from` on whose first claim does not exist (`units`: none), assuming
/// the claimed units form a prefix: doubling steps past claimed units, then bisection.
fn first_untaken(bound_dir: &Path, from: usize, units: usize) -> usize {
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
fn claimant(bound_dir: &Path, c: usize, generation: u32) -> Option<u32> {
    std::fs::read_to_string(claim_path(bound_dir, c, generation))
        .ok()?
        .trim()
        .parse()
        .ok()
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

/// What a piece searched in one bound.
#[derive(Default)]
struct Tally {
    generated: u64,
    expanded: u64,
    cpu_ms: f64,
    wall_ms: f64,
}

/// One piece's work in one bound.
struct BoundQueue<'a> {
    plan: &'a Plan,
    dir: &'a Path,
    bound_dir: PathBuf,
    bound: u32,
    units: Units,
    k: u32,
    /// `BOUND_DIR/.piece-K-PID`: this piece's number, hard-linked to each claim it takes.
    mine: PathBuf,
    tally: Tally,
    /// Frontier nodes this piece searched.
    nodes: usize,
    waited: Duration,
    /// The last heavy node cut below, its cut's depth and the cut (the parts of a node are
    /// taken one after another, often by the same piece).
    cut: Option<(usize, u32, Expansion)>,
}

const POLL_FIRST: Duration = Duration::from_millis(10);
const POLL_MAX: Duration = Duration::from_secs(1);

impl BoundQueue<'_> {
    /// Whether unit `c` is still needed, given the first known solution.
    fn needed(&self, c: usize, known: Option<KnownSolution>) -> bool {
        match known {
            Some(s) if s.bound < self.bound => false,
            Some(s) if s.bound == self.bound => {
                !self.plan.any_optimal && self.units.position(c) < s.position()
            }
            _ => true,
        }
    }

    /// Sleeps `pause` (counted as waiting, not work) and doubles it, up to [`POLL_MAX`].
    fn back_off(&mut self, pause: &mut Duration) {
        let start = Instant::now();
        std::thread::sleep(*pause);
        self.waited += start.elapsed();
        *pause = (*pause * 2).min(POLL_MAX);
    }

    /// Takes and searches units until none is needed, or a solution or limit ends this
    /// piece's bound; waits for the units other running pieces are searching. Counts the
    /// piece thread's CPU over the whole bound, the queue's files included.
    fn work(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
        liveness: &mut InStep,
    ) -> Result<BoundEnd, SplitError> {
        let (wall, cpu) = (Instant::now(), thread_cpu_time());
        std::fs::create_dir_all(&self.bound_dir)
            .map_err(|e| io_error(&self.bound_dir, "cannot create", e))?;
        std::fs::write(&self.mine, format!("{}\n", self.k))
            .map_err(|e| io_error(&self.mine, "cannot write", e))?;
        let end = self.take_in_order(subtrees, session, watch);
        let end = match end {
            Ok(None) => self.finish(subtrees, session, watch, liveness),
            other => other.map(|e| e.expect("an end")),
        };
        let _ = std::fs::remove_file(&self.mine);
        self.tally.cpu_ms = ms(cpu.zip(thread_cpu_time()).map(|(a, b)| b - a));
        self.tally.wall_ms = (wall.elapsed().saturating_sub(self.waited)).as_secs_f64() * 1e3;
        end
    }

    /// The first pass: the needed units in order, each taken if no piece has taken it. The
    /// pieces take units in order, so the taken ones form a prefix, and the first untaken
    /// one is found by galloping over existence checks (lock-free lookups, where a failed
    /// link would lock the directory: with 64 pieces, one attempt per piece and unit cost
    /// more system time than the search). A unit skipped in a race is found by `finish`.
    fn take_in_order(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<Option<BoundEnd>, SplitError> {
        let units = self.units.count();
        let mut c = 0;
        loop {
            c = first_untaken(&self.bound_dir, c, units);
            if c == units || !self.needed(c, watch.poll()?) {
                return Ok(None);
            }
            if try_claim(&self.bound_dir, &self.mine, c, 0)?
                && let Some(end) = self.search_unit(c, subtrees, session, watch)?
            {
                return Ok(Some(end));
            }
            c += 1;
        }
    }

    /// After the first pass: the needed units without a record, each either searched by a
    /// running piece (waited for), or this piece's from an earlier session, or a piece's
    /// that is not running (taken over). One listing finds them; after it, only their own
    /// files are looked at (a listing of a bound with thousands of units costs milliseconds,
    /// and every waiting piece would repeat it).
    fn finish(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
        liveness: &mut InStep,
    ) -> Result<BoundEnd, SplitError> {
        let listing = list(&self.bound_dir, self.units.count())?;
        let mut open: Vec<OpenUnit> = (0..self.units.count())
            .filter(|&c| !listing.recorded[c])
            .map(|c| OpenUnit {
                unit: c,
                generation: listing.claimed[c],
                claimant: None,
            })
            .collect();
        let mut pause = POLL_FIRST;
        loop {
            let known = watch.poll()?;
            open.retain(|o| {
                self.needed(o.unit, known) && !record_path(&self.bound_dir, o.unit).exists()
            });
            if open.is_empty() {
                return match known.filter(|s| s.bound == self.bound) {
                    Some(s) => Ok(BoundEnd::Cut(s)),
                    None => self.next_bound(subtrees, liveness).map(BoundEnd::Finished),
                };
            }
            if let Some(c) = self.take_open(&mut open, liveness)? {
                pause = POLL_FIRST;
                if let Some(end) = self.search_unit(c, subtrees, session, watch)? {
                    return Ok(end);
                }
                continue;
            }
            self.back_off(&mut pause);
        }
    }

    /// Takes the first open unit that is unclaimed, this piece's, or a stopped piece's.
    fn take_open(
        &self,
        open: &mut [OpenUnit],
        liveness: &mut InStep,
    ) -> Result<Option<usize>, SplitError> {
        for o in open.iter_mut() {
            let c = o.unit;
            // Newer generations than the one seen: a takeover since.
            let mut g = o.generation.map_or(0, |g| g + 1);
            while claim_path(&self.bound_dir, c, g).symlink_metadata().is_ok() {
                (o.generation, o.claimant) = (Some(g), None);
                g += 1;
            }
            let Some(g) = o.generation else {
                if try_claim(&self.bound_dir, &self.mine, c, 0)? {
                    return Ok(Some(c));
                }
                continue;
            };
            if o.claimant.is_none() {
                o.claimant = claimant(&self.bound_dir, c, g);
            }
            let mine = match o.claimant {
                Some(j) if j == self.k => true,
                Some(j) if !liveness.alive(self.dir, j) => {
                    try_claim(&self.bound_dir, &self.mine, c, g + 1)?
                }
                _ => false,
            };
            if mine {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// Searches unit `c` and writes its record; the end of this piece's bound, if the
    /// unit's search ended it.
    fn search_unit(
        &mut self,
        c: usize,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<Option<BoundEnd>, SplitError> {
        session.stopper.rearm();
        let run = match self.units.below(c).cloned() {
            None => self.search_nodes(c, subtrees, session, watch)?,
            Some(below) => self.search_below(c, &below, subtrees, session, watch)?,
        };
        self.tally.generated += run.generated;
        self.tally.expanded += run.expanded;
        let mut record = UnitRecord {
            unit: c,
            bound: self.bound,
            piece: self.k,
            generated: run.generated,
            expanded: run.expanded,
            next_bound: u32::MAX,
            node: None,
            sub: 0,
            solution: None,
            cut: None,
            cpu_ms: run.cpu_ms,
            wall_ms: run.wall_ms,
        };
        let end = match run.end {
            BoundEnd::Finished(next) => {
                record.next_bound = next;
                None
            }
            BoundEnd::Solved(at, solution) => {
                (record.node, record.sub) = (Some(at.node), at.sub);
                record.solution = Some(solution.clone());
                Some(BoundEnd::Solved(at, solution))
            }
            BoundEnd::Cut(s) => {
                record.cut = Some(s);
                // The units after a cut one are not needed either; the ones before it are
                // other pieces' (the units are taken in order).
                Some(BoundEnd::Cut(s))
            }
            BoundEnd::Stopped(outcome) => return Ok(Some(BoundEnd::Stopped(outcome))),
        };
        write_shared(&record_path(&self.bound_dir, c), &record, self.k)?;
        Ok(end)
    }

    /// Searches unit `c`'s frontier nodes.
    fn search_nodes(
        &mut self,
        c: usize,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<BoundRun, SplitError> {
        let nodes = self.units.nodes(self.plan, c);
        self.nodes += nodes.len();
        // Nodes past the bound are not searched (see `run_bound`): only their f counts, and
        // their moves are not even read.
        let moves = nodes
            .clone()
            .map(|i| match self.plan.frontier[i].path_max <= self.bound {
                true => moves_from_str(&self.plan.frontier[i].moves),
                false => Ok(Vec::new()),
            })
            .collect::<Result<Vec<Vec<Move>>, _>>()
            .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
        let roots = nodes.zip(&moves).map(|(i, moves)| SubtreeRoot {
            at: Position::node(i),
            path_max: self.plan.frontier[i].path_max,
            moves,
        });
        run_bound(subtrees, roots, self.bound, session, watch)
    }

    /// Searches unit `c`, the part `below` of its frontier node's subtree: the cut's nodes
    /// `from..to`, and in the first part the nodes above the cut (counted as the plan's tree
    /// above the frontier is: each with its path's largest f within the bound is expanded and
    /// generates its children).
    fn search_below(
        &mut self,
        c: usize,
        below: &Below,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<BoundRun, SplitError> {
        let node = self.units.starts[c] as usize;
        let path_max = self.plan.frontier[node].path_max;
        if path_max > self.bound {
            return run_bound(subtrees, [], self.bound, session, watch).map(|mut run| {
                run.end = BoundEnd::Finished(path_max);
                run
            });
        }
        let fresh = self
            .cut
            .as_ref()
            .is_none_or(|(n, d, _)| (*n, *d) != (node, below.depth));
        if fresh {
            let moves = moves_from_str(&self.plan.frontier[node].moves)
                .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
            let e = subtrees.expand_below(&moves, below.depth as usize);
            self.cut = Some((node, below.depth, e));
        }
        let (_, _, e) = self.cut.as_ref().expect("just cut");
        let (from, to) = (
            below.from as usize,
            (below.to as usize).min(e.frontier.len()),
        );
        let (mut expanded, mut generated, mut next) = (0, 0, u32::MAX);
        if from == 0 {
            self.nodes += 1;
            for t in &e.top {
                if t.path_max <= self.bound {
                    (expanded, generated) = (expanded + 1, generated + u64::from(t.children));
                } else {
                    next = next.min(t.path_max);
                }
            }
        }
        let roots = (from..to).map(|j| SubtreeRoot {
            at: Position {
                node,
                sub: j as u32,
            },
            path_max: e.frontier[j].path_max,
            moves: &e.frontier[j].moves,
        });
        let mut run = run_bound(subtrees, roots, self.bound, session, watch)?;
        run.generated += generated;
        run.expanded += expanded;
        if let BoundEnd::Finished(n) = run.end {
            run.end = BoundEnd::Finished(n.min(next));
        }
        Ok(run)
    }

    /// The whole search's next bound after this complete one, kept in `BOUND_DIR/next`:
    /// the smallest over the records and the tree above the frontier. One piece, the one
    /// whose claim on `next.claim` stands, reads the records; the others wait for its answer
    /// (thousands of records read by every piece at once cost more than the bound's search)
    /// and compute it themselves only if that piece is not running.
    fn next_bound(
        &mut self,
        subtrees: &Subtrees,
        liveness: &mut InStep,
    ) -> Result<u32, SplitError> {
        let path = self.bound_dir.join("next");
        let claim = self.bound_dir.join("next.claim");
        let mut pause = POLL_FIRST;
        loop {
            if let Ok(next) = read_json::<u32>(&path) {
                return Ok(next);
            }
            let mine = match std::fs::hard_link(&self.mine, &claim) {
                Ok(()) => true,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&claim)
                        .ok()
                        .and_then(|t| t.trim().parse::<u32>().ok());
                    holder.is_none_or(|j| j == self.k || !liveness.alive(self.dir, j))
                }
                Err(e) => return Err(io_error(&claim, "cannot claim", e)),
            };
            if mine {
                break;
            }
            self.back_off(&mut pause);
        }
        let records = read_records(self.dir, self.bound)?.unwrap_or_default();
        let below = records
            .iter()
            .flatten()
            .map(|r| r.next_bound)
            .min()
            .unwrap_or(u32::MAX);
        let next = below.min(self.plan.top_next_bound(self.bound));
        // The next bound's units from the same records, before any piece can go on to it.
        if next != u32::MAX {
            let units = Units::after(self.plan, &self.units, &records, subtrees, next);
            write_units(self.dir, next, &units, self.k)?;
        }
        write_shared(&path, &next, self.k)?;
        Ok(next)
    }
}

/// A unit without a record, as `finish` last saw it.
struct OpenUnit {
    unit: usize,
    /// The highest claim generation seen (`None`: unclaimed).
    generation: Option<u32>,
    /// The piece that generation names, once read.
    claimant: Option<u32>,
}

/// Writes `value` as JSON to `path`, a file other pieces may write at the same time (the same
/// content), through a temporary file of piece `k`'s own renamed into place.
fn write_shared<T: Serialize>(path: &Path, value: &T, k: u32) -> Result<(), SplitError> {
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

fn ms(d: Option<Duration>) -> f64 {
    d.map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

/// A queue piece's bounds from where its file stands, each written to its file as it ends.
pub(super) fn run_queue(
    plan: &Plan,
    dir: &Path,
    options: &PieceOptions,
    file: &mut PieceFile,
    subtrees: &Subtrees,
    session: &Session,
) -> Result<(), SplitError> {
    let k = file.piece;
    let path = piece_path(dir, k);
    let mut watch = Watch::new(plan, dir);
    let mut liveness = InStep::new(options.stale_after);
    let mut bound = file
        .iterations
        .last()
        .map_or(plan.initial_bound, |it| it.next_bound);
    let mut previous = file.iterations.last().map(|it| it.bound);
    loop {
        if bound == u32::MAX {
            file.state = PieceState::Exhausted;
            break;
        }
        if watch.covers(bound)? {
            file.state = PieceState::Covered;
            break;
        }
        let mut q = BoundQueue {
            plan,
            dir,
            bound_dir: bound_dir(dir, bound),
            bound,
            units: fix_units(plan, dir, (bound, previous), subtrees, k)?,
            k,
            mine: bound_dir(dir, bound).join(format!(".piece-{k}-{}", std::process::id())),
            tally: Tally::default(),
            nodes: 0,
            waited: Duration::ZERO,
            cut: None,
        };
        let end = q.work(subtrees, session, &mut watch, &mut liveness)?;
        file.nodes += q.nodes;
        file.waited_ms += q.waited.as_secs_f64() * 1e3;
        let t = &q.tally;
        let run = BoundRun {
            generated: t.generated,
            expanded: t.expanded,
            cpu_ms: t.cpu_ms,
            wall_ms: t.wall_ms,
            end,
        };
        match record_bound(file, &path, bound, run)? {
            Some(next) => (previous, bound) = (Some(bound), next),
            None => break,
        }
    }
    write_json(&path, file)
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
