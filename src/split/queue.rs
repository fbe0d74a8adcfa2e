//! Pieces that take their work from a shared queue (a plan made with `--queue`).
//!
//! Fixed slices balance the pieces by the probe's weights, and in the last bound those
//! weights are only a guess: the pieces search their slices side by side, and when one finds
//! the solution the others have searched as long as it has, wherever their slices lie. So the
//! last bound costs what the solver's slice happened to hold before the solution, times the
//! pieces (1.2 to 1.5 times single-process IDA*'s last bound in `results/split-scaling.md`).
//!
//! Here the frontier is cut into chunks of consecutive nodes (`Plan::chunks`), and in every
//! bound each piece takes the first chunk no piece has taken, searches it, writes its record,
//! and takes the next. Whichever pieces run, they search the frontier in IDA*'s order
//! together: when a solution is announced, every piece is within one chunk of it, and the
//! pieces past it stop at once (the in-search stop). The bound ends when every chunk has a
//! record; its next bound is the smallest over the records and the tree above the frontier,
//! and every piece goes on to it. A bound's counts are the sum of its chunks' records, so
//! they equal the single process's exactly whoever searched which chunk.
//!
//! The files, under `DIR/queue/BOUND/`:
//! - `C.claim-G`: chunk C taken, holding the taker's piece number; written whole (a temporary
//!   file hard-linked into place, which fails if the name exists, also on NFS), so exactly one
//!   piece takes each generation of a claim.
//! - `C.json`: the chunk's record ([`ChunkRecord`]), replaced by rename.
//!
//! A claim whose piece is not running (no heartbeat, or a stale one: see `step`) is taken
//! over by creating the next generation; a piece started again takes its own claims back. So
//! a killed piece loses only the chunk it was in, and a piece that never starts leaves
//! nothing behind. Should a slow piece's claim be taken over while it still runs, both search
//! the chunk and write the same counts.
//!
//! With a solution at bound L under frontier node i, the chunks that begin after i are not
//! needed (single-process IDA* never searches them in L); the others are searched to their
//! end, or to i, as in a fixed slice (see `piece`). With `any_optimal` none is needed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{Move, moves_from_str};
use crate::search::{Outcome, thread_cpu_time};
use crate::search::subtree::Subtrees;

use super::piece::{
    BoundEnd, KnownSolution, PartialIteration, PieceFile, PieceIteration, PieceOptions,
    PieceState, Session, Watch, run_bound,
};
use super::plan::Plan;
use super::step::InStep;
use super::{SplitError, piece_path, read_json, write_json};

/// One chunk's search in one bound, as `DIR/queue/BOUND/C.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// The chunk.
    pub chunk: usize,
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
    /// The frontier node a solution lies under, if the chunk holds one.
    pub node: Option<usize>,
    /// That solution from the start (U/D/L/R).
    pub solution: Option<String>,
    /// The announced solution that made the rest of the chunk unnecessary, if any.
    pub cut: Option<KnownSolution>,
    /// CPU time, milliseconds.
    pub cpu_ms: f64,
    /// Wall time, milliseconds.
    pub wall_ms: f64,
}

impl ChunkRecord {
    /// Whether every frontier node of the chunk was searched to the end of the bound.
    pub fn complete(&self) -> bool {
        self.solution.is_none() && self.cut.is_none()
    }
}

/// The directory of bound `bound`'s claims and records.
fn bound_dir(dir: &Path, bound: u32) -> PathBuf {
    dir.join("queue").join(bound.to_string())
}

/// What a listing of a bound's directory shows.
struct Listing {
    /// Per chunk: a record exists.
    recorded: Vec<bool>,
    /// Per chunk: the highest claim generation, if claimed.
    claimed: Vec<Option<u32>>,
}

fn list(bound_dir: &Path, chunks: usize) -> Result<Listing, SplitError> {
    let mut l = Listing {
        recorded: vec![false; chunks],
        claimed: vec![None; chunks],
    };
    let entries = match std::fs::read_dir(bound_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(l),
        Err(e) => return Err(io_error(bound_dir, "cannot list", e)),
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(c) = name.strip_suffix(".json").and_then(|c| c.parse::<usize>().ok()) {
            if c < chunks {
                l.recorded[c] = true;
            }
        } else if let Some((c, g)) = name.split_once(".claim-")
            && let (Ok(c), Ok(g)) = (c.parse::<usize>(), g.parse::<u32>())
            && c < chunks
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

/// Takes generation `generation` of chunk `c`'s claim for the piece whose claim file (its
/// number, written once per bound) is `mine`: false if another piece took it first.
fn try_claim(bound_dir: &Path, mine: &Path, c: usize, generation: u32) -> Result<bool, SplitError> {
    let target = claim_path(bound_dir, c, generation);
    match std::fs::hard_link(mine, &target) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(io_error(&target, "cannot claim", e)),
    }
}

/// The piece a claim names (`None`: unreadable, taken for a live piece's).
fn claimant(bound_dir: &Path, c: usize, generation: u32) -> Option<u32> {
    std::fs::read_to_string(claim_path(bound_dir, c, generation))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Reads every record of a bound (chunks without one are `None`).
pub fn read_records(
    plan: &Plan,
    dir: &Path,
    bound: u32,
) -> Result<Vec<Option<ChunkRecord>>, SplitError> {
    let d = bound_dir(dir, bound);
    let listing = list(&d, plan.chunks.len())?;
    (0..plan.chunks.len())
        .map(|c| {
            if !listing.recorded[c] {
                return Ok(None);
            }
            let path = record_path(&d, c);
            let r: ChunkRecord = read_json(&path)?;
            if r.chunk != c || r.bound != bound {
                return Err(SplitError::File {
                    path,
                    what: format!(
                        "the record of chunk {} at bound {}, expected chunk {c} at bound {bound}",
                        r.chunk, r.bound
                    ),
                });
            }
            Ok(Some(r))
        })
        .collect()
}

/// How a piece's part of one bound ended.
enum QueueEnd {
    /// Every chunk recorded complete: the whole search's next bound.
    Complete(u32),
    /// This piece found a solution under this frontier node.
    Solved(usize, String),
    /// A limit stopped it (its chunk stays claimed; another piece or a rerun takes it).
    Stopped(Outcome),
    /// A known solution leaves nothing this piece is needed for in this bound.
    Covered(KnownSolution),
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
    k: u32,
    /// `BOUND_DIR/.piece-K-PID`: this piece's number, hard-linked to each claim it takes.
    mine: PathBuf,
    tally: Tally,
    /// Frontier nodes this piece searched.
    nodes: usize,
    waited: Duration,
}

const POLL_FIRST: Duration = Duration::from_millis(10);
const POLL_MAX: Duration = Duration::from_secs(1);

impl BoundQueue<'_> {
    /// Whether chunk `c` is still needed, given the first known solution.
    fn needed(&self, c: usize, known: Option<KnownSolution>) -> bool {
        match known {
            Some(s) if s.bound < self.bound => false,
            Some(s) if s.bound == self.bound => {
                !self.plan.any_optimal && (self.plan.chunks[c] as usize) < s.node
            }
            _ => true,
        }
    }

    /// Takes and searches chunks until none is needed, or a solution or limit ends this
    /// piece's bound; waits for the chunks other running pieces are searching. Counts the
    /// piece thread's CPU over the whole bound, the queue's files included.
    fn work(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
        liveness: &mut InStep,
    ) -> Result<QueueEnd, SplitError> {
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

    /// The first pass: each needed chunk in order, taken if no piece has taken it (one link
    /// per chunk, no listing).
    fn take_in_order(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<Option<QueueEnd>, SplitError> {
        for c in 0..self.plan.chunks.len() {
            if !self.needed(c, watch.poll()?) {
                break;
            }
            if try_claim(&self.bound_dir, &self.mine, c, 0)?
                && let Some(end) = self.search_chunk(c, subtrees, session, watch)?
            {
                return Ok(Some(end));
            }
        }
        Ok(None)
    }

    /// After the first pass: the needed chunks without a record, each either searched by a
    /// running piece (waited for), or this piece's from an earlier session, or a piece's
    /// that is not running (taken over).
    fn finish(
        &mut self,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
        liveness: &mut InStep,
    ) -> Result<QueueEnd, SplitError> {
        let chunks = self.plan.chunks.len();
        let mut pause = POLL_FIRST;
        loop {
            let known = watch.poll()?;
            let listing = list(&self.bound_dir, chunks)?;
            let mut open = false;
            let mut taken = None;
            for c in (0..chunks).filter(|&c| !listing.recorded[c] && self.needed(c, known)) {
                open = true;
                let mine = match listing.claimed[c] {
                    None => try_claim(&self.bound_dir, &self.mine, c, 0)?,
                    Some(g) => match claimant(&self.bound_dir, c, g) {
                        Some(j) if j == self.k => true,
                        Some(j) if !liveness.alive(self.dir, j) => {
                            try_claim(&self.bound_dir, &self.mine, c, g + 1)?
                        }
                        _ => false,
                    },
                };
                if mine {
                    taken = Some(c);
                    break;
                }
            }
            if let Some(c) = taken {
                pause = POLL_FIRST;
                if let Some(end) = self.search_chunk(c, subtrees, session, watch)? {
                    return Ok(end);
                }
                continue;
            }
            if !open {
                return match known.filter(|s| s.bound == self.bound) {
                    Some(s) => Ok(QueueEnd::Covered(s)),
                    None => self.next_bound().map(QueueEnd::Complete),
                };
            }
            let start = Instant::now();
            std::thread::sleep(pause);
            self.waited += start.elapsed();
            pause = (pause * 2).min(POLL_MAX);
        }
    }

    /// Searches chunk `c` and writes its record; the end of this piece's bound, if the
    /// chunk's search ended it.
    fn search_chunk(
        &mut self,
        c: usize,
        subtrees: &Subtrees,
        session: &Session,
        watch: &mut Watch,
    ) -> Result<Option<QueueEnd>, SplitError> {
        let nodes: Vec<usize> = self.plan.chunk_nodes(c).collect();
        let moves = nodes
            .iter()
            .map(|&i| moves_from_str(&self.plan.frontier[i].moves))
            .collect::<Result<Vec<Vec<Move>>, _>>()
            .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
        session.stopper.rearm();
        let run = run_bound(subtrees, &nodes, &moves, self.bound, session, watch)?;
        self.tally.generated += run.generated;
        self.tally.expanded += run.expanded;
        self.nodes += nodes.len();
        let mut record = ChunkRecord {
            chunk: c,
            bound: self.bound,
            piece: self.k,
            generated: run.generated,
            expanded: run.expanded,
            next_bound: u32::MAX,
            node: None,
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
            BoundEnd::Solved(node, solution) => {
                (record.node, record.solution) = (Some(node), Some(solution.clone()));
                Some(QueueEnd::Solved(node, solution))
            }
            BoundEnd::Cut(s) => {
                record.cut = Some(s);
                // The chunks after a cut one are not needed either; the ones before it are
                // other pieces' (the chunks are taken in order).
                Some(QueueEnd::Covered(s))
            }
            BoundEnd::Stopped(outcome) => return Ok(Some(QueueEnd::Stopped(outcome))),
        };
        write_shared(&record_path(&self.bound_dir, c), &record, self.k)?;
        Ok(end)
    }

    /// The whole search's next bound after this complete one: computed from the records by
    /// the first piece that gets here and kept in `BOUND_DIR/next` for the others.
    fn next_bound(&self) -> Result<u32, SplitError> {
        let path = self.bound_dir.join("next");
        if let Ok(next) = read_json::<u32>(&path) {
            return Ok(next);
        }
        let records = read_records(self.plan, self.dir, self.bound)?;
        let below = records
            .iter()
            .flatten()
            .map(|r| r.next_bound)
            .min()
            .unwrap_or(u32::MAX);
        let next = below.min(self.plan.top_next_bound(self.bound));
        write_shared(&path, &next, self.k)?;
        Ok(next)
    }
}

/// Writes `value` as JSON to `path`, a file other pieces may write at the same time (the same
/// content), through a temporary file of piece `k`'s own renamed into place.
fn write_shared<T: Serialize>(path: &Path, value: &T, k: u32) -> Result<(), SplitError> {
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
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
    loop {
        if bound == u32::MAX {
            file.state = PieceState::Exhausted;
            break;
        }
        if watch
            .scan()?
            .is_some_and(|s| s.bound < bound || (plan.any_optimal && s.bound == bound))
        {
            file.state = PieceState::Covered;
            break;
        }
        let mut q = BoundQueue {
            plan,
            dir,
            bound_dir: bound_dir(dir, bound),
            bound,
            k,
            mine: bound_dir(dir, bound).join(format!(".piece-{k}-{}", std::process::id())),
            tally: Tally::default(),
            nodes: 0,
            waited: Duration::ZERO,
        };
        let end = q.work(subtrees, session, &mut watch, &mut liveness);
        file.nodes += q.nodes;
        file.waited_ms += q.waited.as_secs_f64() * 1e3;
        let t = &q.tally;
        let mut partial = PartialIteration {
            bound,
            generated: t.generated,
            expanded: t.expanded,
            node: None,
            solution: None,
            stopped: None,
            cut: None,
            cpu_ms: t.cpu_ms,
            wall_ms: t.wall_ms,
        };
        file.state = match end? {
            QueueEnd::Complete(next) => {
                file.iterations.push(PieceIteration {
                    bound,
                    generated: t.generated,
                    expanded: t.expanded,
                    next_bound: next,
                    cpu_ms: t.cpu_ms,
                    wall_ms: t.wall_ms,
                });
                write_json(&path, file)?;
                bound = next;
                continue;
            }
            QueueEnd::Solved(node, solution) => {
                (partial.node, partial.solution) = (Some(node), Some(solution));
                PieceState::Solved
            }
            QueueEnd::Stopped(s) => {
                partial.stopped = Some(s.name().to_string());
                PieceState::Stopped
            }
            QueueEnd::Covered(s) => {
                partial.cut = Some(s);
                PieceState::Covered
            }
        };
        file.partial = Some(partial);
        break;
    }
    write_json(&path, file)
}
