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

mod claims;
mod units;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::board::{Move, moves_from_str};
use crate::search::subtree::{Expansion, Subtrees};
use crate::search::thread_cpu_time;

use super::bound::{BoundEnd, BoundRun, Session, SubtreeRoot, Watch, record_bound, run_bound};
use super::file::{KnownSolution, PieceFile, PieceState, Position};
use super::plan::Plan;
use super::step::{InStep, PieceOptions};
use super::{SplitError, piece_path, read_json, write_json};
pub use claims::UnitRecord;
use claims::{
    bound_dir, claim_path, claimant, first_untaken, io_error, list, record_path, try_claim,
    write_shared,
};
pub use units::{Below, UNIT_CPU, Units, read_records};
use units::{fix_units, write_units};

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
    /// This piece's bound so far: the counts of the units it searched, then its times and end.
    run: BoundRun,
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
    /// piece thread's CPU over the whole bound, the queue's files included; the bound's
    /// record is left in `self.run`.
    fn work(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
        liveness: &mut InStep,
    ) -> Result<(), SplitError> {
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
        self.run.cpu_ms = ms(cpu.zip(thread_cpu_time()).map(|(a, b)| b - a));
        self.run.wall_ms = (wall.elapsed().saturating_sub(self.waited)).as_secs_f64() * 1e3;
        self.run.end = end?;
        Ok(())
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
        self.run.generated += run.generated;
        self.run.expanded += run.expanded;
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
            return Ok(BoundRun::unsearched(path_max));
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
            run: BoundRun::unsearched(u32::MAX),
            nodes: 0,
            waited: Duration::ZERO,
            cut: None,
        };
        q.work(subtrees, session, &mut watch, &mut liveness)?;
        file.nodes += q.nodes;
        file.waited_ms += q.waited.as_secs_f64() * 1e3;
        match record_bound(file, &path, bound, q.run)? {
            Some(next) => (previous, bound) = (Some(bound), next),
            None => break,
        }
    }
    write_json(&path, file)
}
