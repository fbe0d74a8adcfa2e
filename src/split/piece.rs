//! One piece of a split search: IDA*'s iterations over the piece's frontier nodes, each bound
//! recorded in `DIR/piece-K.json` as it finishes.
//!
//! A piece follows its own bounds: after a bound it goes on with the smallest f over the
//! bound met in its subtrees (or the path maximum of a frontier node not yet searched). The
//! whole search's next bound may be smaller (it is the smallest over every piece and the tree
//! above the frontier), but then this piece's subtrees search exactly the same nodes at that
//! bound as at the one it finished; so a finished bound b with next bound n stands for every
//! bound in b..n (see `combine`).
//!
//! A piece that finds a solution writes it to its file and announces it with an empty marker
//! file `DIR/solved/BOUND-K`. The other pieces read every piece file before each bound and
//! watch the marker directory between frontier nodes (one `stat` per frontier node) and,
//! during a frontier node's search, from a thread of their own (`Stopper`, which stops the
//! search through its cancel flag). A known solution at bound L under frontier node i stops
//! a piece (`covered`):
//! - before a bound above L: it has finished every bound up to L (in the sense above);
//! - in bound L, before its first frontier node after i: the pieces finish every bound below
//!   L, so no solution is shorter, and single-process IDA* never searches past i in bound L.
//!   The piece's frontier nodes before i are searched to the end of L, since one of them may
//!   hold a solution that IDA* meets first; so the combined answer (the smallest bound, then
//!   the first frontier node) is single-process IDA*'s own solution, not only one as short;
//! - in a bound above L, at once.
//!
//! With the plan's `any_optimal`, a known solution at L stops a piece in bound L at once, or
//! before it starts L: every bound below L is finished by every piece, so the solution is
//! optimal, but the combined answer is the first solution found, not necessarily IDA*'s own.
//!
//! Before each bound a piece waits (see `step`) until the other live pieces have covered
//! every bound below it, so the pieces enter the last bound together; the waits change when
//! bounds start, nothing else.
//!
//! A piece in a bound below L finishes it as before. A limit (`--timeout`, `--max-nodes`)
//! stops a piece mid-bound; its file keeps every finished bound, and a rerun continues with
//! the unfinished one.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{Move, moves_from_str, moves_to_string};
use crate::search::subtree::Subtrees;
use crate::search::{Limits, Outcome, thread_cpu_time};

use super::plan::Plan;
use super::step::{DEFAULT_STALE_AFTER, Heartbeat, InStep, Standing};
use super::{SplitError, piece_path, read_json, write_json};

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
    /// The limit that stopped it, if any (`timeout`, `node-limit`, ...).
    pub stopped: Option<String>,
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
fn first(a: Option<KnownSolution>, b: Option<KnownSolution>) -> Option<KnownSolution> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The first solution in IDA*'s order that any piece's file reports.
fn known_solution(plan: &Plan, dir: &Path) -> Result<Option<KnownSolution>, SplitError> {
    let mut best = None;
    for k in 1..=plan.pieces {
        if let Some(s) = read_piece(plan, dir, k)?.and_then(|f| f.solution()) {
            best = first(best, Some(s));
        }
    }
    Ok(best)
}

/// The directory of solution markers: a piece that finds a solution writes its file, then
/// creates the empty `DIR/solved/BOUND-K`; the others watch this directory between frontier
/// nodes (one `stat` each; the directory changes only when a solution is announced).
pub(super) fn marker_dir(dir: &Path) -> std::path::PathBuf {
    dir.join("solved")
}

/// Announces piece `k`'s solution at `bound` (its file already holds it).
pub(super) fn announce(dir: &Path, bound: u32, k: u32) -> Result<(), SplitError> {
    let marks = marker_dir(dir);
    std::fs::create_dir_all(&marks)
        .and_then(|()| std::fs::write(marks.join(format!("{bound}-{k}")), b""))
        .map_err(|e| SplitError::File {
            path: marks.clone(),
            what: format!("cannot write the solution marker: {e}"),
        })
}

/// The solutions announced so far, as a running piece sees them.
pub(super) struct Watch<'a> {
    plan: &'a Plan,
    dir: &'a Path,
    best: Option<KnownSolution>,
    /// The marker directory's modification time at the last listing.
    seen: Option<std::time::SystemTime>,
    /// When it was last listed (listed again after [`Watch::RELIST`] even if its time did not
    /// change, for file systems with coarse or cached times).
    listed: Option<Instant>,
    /// Markers already read.
    read: Vec<std::ffi::OsString>,
}

impl<'a> Watch<'a> {
    const RELIST: Duration = Duration::from_secs(2);

    pub(super) fn new(plan: &'a Plan, dir: &'a Path) -> Watch<'a> {
        Watch {
            plan,
            dir,
            best: None,
            seen: None,
            listed: None,
            read: Vec::new(),
        }
    }

    /// Reads every piece file (before each bound: the authoritative check, which also sees a
    /// solution whose marker a killed piece never wrote).
    pub(super) fn scan(&mut self) -> Result<Option<KnownSolution>, SplitError> {
        let found = known_solution(self.plan, self.dir)?;
        self.best = first(self.best, found);
        Ok(self.best)
    }

    /// Whether a known solution makes bound `bound` unnecessary (the authoritative
    /// [`Watch::scan`], before a bound): one at a smaller bound, or with `any_optimal` one at
    /// this bound.
    pub(super) fn covers(&mut self, bound: u32) -> Result<bool, SplitError> {
        let any_optimal = self.plan.any_optimal;
        Ok(self
            .scan()?
            .is_some_and(|s| s.bound < bound || (any_optimal && s.bound == bound)))
    }

    /// Checks the markers (between frontier nodes): a `stat` of their directory, a listing
    /// only when it changed, a piece file read only for a new marker.
    pub(super) fn poll(&mut self) -> Result<Option<KnownSolution>, SplitError> {
        let marks = marker_dir(self.dir);
        let Ok(meta) = std::fs::metadata(&marks) else {
            return Ok(self.best);
        };
        let time = meta.modified().ok();
        if time.is_some()
            && time == self.seen
            && self.listed.is_some_and(|t| t.elapsed() < Self::RELIST)
        {
            return Ok(self.best);
        }
        self.seen = time;
        self.listed = Some(Instant::now());
        let Ok(entries) = std::fs::read_dir(&marks) else {
            return Ok(self.best);
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if self.read.contains(&name) {
                continue;
            }
            let k = name
                .to_str()
                .and_then(|n| n.split_once('-'))
                .and_then(|(_, k)| k.parse::<u32>().ok())
                .filter(|&k| k >= 1 && k <= self.plan.pieces);
            if let Some(k) = k
                && let Some(s) = read_piece(self.plan, self.dir, k)?.and_then(|f| f.solution())
            {
                self.best = first(self.best, Some(s));
            }
            self.read.push(name);
        }
        Ok(self.best)
    }
}

/// How one bound of a piece ended.
pub(super) enum BoundEnd {
    /// Every frontier node searched; the piece's next bound.
    Finished(u32),
    /// A solution at this position.
    Solved(Position, String),
    /// A limit stopped it.
    Stopped(Outcome),
    /// Another piece's solution made the rest of it unnecessary.
    Cut(KnownSolution),
}

/// One bound of a piece: its counts, times and end.
pub(super) struct BoundRun {
    pub(super) generated: u64,
    pub(super) expanded: u64,
    pub(super) cpu_ms: f64,
    pub(super) wall_ms: f64,
    pub(super) end: BoundEnd,
}

/// A node whose subtree a piece searches in a bound: a frontier node or, where a queue cut a
/// frontier node again, a node of that cut.
pub(super) struct SubtreeRoot<'m> {
    pub(super) at: Position,
    /// The largest f on its path from the start (see `TopLevel`).
    pub(super) path_max: u32,
    /// The moves from the start.
    pub(super) moves: &'m [Move],
}

/// Runs one IDA* iteration with `bound` below `roots`, in IDA*'s order, watching for other
/// pieces' solutions before each.
pub(super) fn run_bound<'m>(
    subtrees: &Subtrees,
    roots: impl IntoIterator<Item = SubtreeRoot<'m>>,
    bound: u32,
    session: &Session,
    watch: &mut Watch,
) -> Result<BoundRun, SplitError> {
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    let (mut generated, mut expanded, mut next) = (0u64, 0u64, u32::MAX);
    let mut end = None;
    for root in roots {
        // A node whose path already exceeds the bound is not searched (its subtree search
        // would count nothing); most of the frontier in early bounds, where the per-node
        // set-up would otherwise cost more than the search.
        if root.path_max > bound {
            next = next.min(root.path_max);
            continue;
        }
        let any_optimal = watch.plan.any_optimal;
        if let Some(s) = watch
            .poll()?
            .filter(|s| s.cuts(bound, root.at, any_optimal))
        {
            end = Some(BoundEnd::Cut(s));
            break;
        }
        let limits = match session.limits() {
            Ok(l) => l,
            Err(s) => {
                end = Some(BoundEnd::Stopped(s));
                break;
            }
        };
        session.stopper.at(bound, root.at);
        let c = subtrees.iterate(root.moves, bound, &limits);
        session.add(c.generated);
        generated += c.generated;
        expanded += c.expanded;
        next = next.min(c.next_bound);
        if let Some(s) = c.solution {
            end = Some(BoundEnd::Solved(root.at, moves_to_string(&s)));
            break;
        }
        if let Some(s) = c.stopped {
            end = Some(match (s, session.stopper.cut()) {
                (Outcome::Cancelled, Some(cut)) => BoundEnd::Cut(cut),
                _ => BoundEnd::Stopped(s),
            });
            break;
        }
    }
    Ok(BoundRun {
        generated,
        expanded,
        cpu_ms: ms(cpu.zip(thread_cpu_time()).map(|(a, b)| b - a)),
        wall_ms: wall.elapsed().as_secs_f64() * 1e3,
        end: end.unwrap_or(BoundEnd::Finished(next)),
    })
}

/// How a piece runs besides its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceOptions {
    /// Wait before each bound for the other live pieces to cover the bounds below it (see
    /// `step`; `bench split piece --no-lockstep` turns it off).
    pub lockstep: bool,
    /// A piece whose heartbeat has not changed this long is not waited for.
    pub stale_after: Duration,
}

impl Default for PieceOptions {
    fn default() -> PieceOptions {
        PieceOptions {
            lockstep: true,
            stale_after: DEFAULT_STALE_AFTER,
        }
    }
}

/// Runs (or continues) piece `k` of the plan in `dir` under `limits` (the timeout and node
/// limit count from this session's start), bounds in step with the other pieces; returns its
/// file as last written.
pub fn run_piece(
    plan: &Plan,
    dir: &Path,
    k: u32,
    limits: &Limits,
) -> Result<PieceFile, SplitError> {
    run_piece_with(plan, dir, k, limits, &PieceOptions::default())
}

/// Where piece `j` stands for a piece waiting before a bound.
fn standing(plan: &Plan, dir: &Path, j: u32) -> Result<Standing, SplitError> {
    Ok(match read_piece(plan, dir, j)? {
        Some(f) if !f.state.is_final() => Standing::Next(
            f.iterations
                .last()
                .map_or(plan.initial_bound, |it| it.next_bound),
        ),
        _ => Standing::Done,
    })
}

/// Piece `k`'s file before its first session.
fn new_piece_file(plan: &Plan, k: u32) -> PieceFile {
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

/// [`run_piece`] with its options.
pub fn run_piece_with(
    plan: &Plan,
    dir: &Path,
    k: u32,
    limits: &Limits,
    options: &PieceOptions,
) -> Result<PieceFile, SplitError> {
    if k == 0 || k > plan.pieces {
        return Err(SplitError::Request(format!(
            "--piece {k}: the plan has pieces 1 to {}",
            plan.pieces
        )));
    }
    let mut file = read_piece(plan, dir, k)?.unwrap_or_else(|| new_piece_file(plan, k));
    if file.state.is_final() {
        return Ok(file);
    }
    let nodes: Vec<usize> = plan.nodes_of(k);
    let moves = nodes
        .iter()
        .map(|&i| moves_from_str(&plan.frontier[i].moves))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
    let setup = Instant::now();
    let subtrees = plan.subtrees()?;
    file.setup_ms = setup.elapsed().as_secs_f64() * 1e3;
    if !plan.is_queue() {
        file.nodes = nodes.len();
    }
    file.sessions += 1;
    file.state = PieceState::Running;
    file.partial = None;
    let path = piece_path(dir, k);
    write_json(&path, &file)?;
    let _heartbeat = Heartbeat::start(dir, k).map_err(|e| SplitError::File {
        path: super::step::heartbeat_path(dir, k),
        what: format!("cannot write the heartbeat: {e}"),
    })?;
    let stopper = Stopper::default();
    let (done, watching) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(|| stopper.watch(plan, dir, watching));
        let session = Session::new(limits, &stopper);
        let r = if plan.is_queue() {
            super::queue::run_queue(plan, dir, options, &mut file, &subtrees, &session)
        } else {
            run_bounds(
                plan,
                dir,
                options,
                &mut file,
                &subtrees,
                (&nodes, &moves),
                &session,
            )
        };
        drop(done);
        r
    })?;
    if let Some(s) = file.solution() {
        announce(dir, s.bound, k)?;
    }
    Ok(file)
}

/// A piece's bounds from where its file stands, each written to its file as it ends.
fn run_bounds(
    plan: &Plan,
    dir: &Path,
    options: &PieceOptions,
    file: &mut PieceFile,
    subtrees: &Subtrees,
    (nodes, moves): (&[usize], &[Vec<Move>]),
    session: &Session,
) -> Result<(), SplitError> {
    let k = file.piece;
    let path = piece_path(dir, k);
    let mut watch = Watch::new(plan, dir);
    let mut step = InStep::new(options.stale_after);
    let waited_before = file.waited_ms;
    let mut bound = file
        .iterations
        .last()
        .map_or(plan.initial_bound, |it| it.next_bound);
    loop {
        if bound == u32::MAX {
            file.state = PieceState::Exhausted;
            break;
        }
        if options.lockstep {
            step.wait(dir, k, plan.pieces, bound, |j| standing(plan, dir, j))?;
            file.waited_ms = waited_before + step.waited.as_secs_f64() * 1e3;
        }
        if watch.covers(bound)? {
            file.state = PieceState::Covered;
            break;
        }
        let roots = nodes.iter().zip(moves).map(|(&node, moves)| SubtreeRoot {
            at: Position::node(node),
            path_max: plan.frontier[node].path_max,
            moves,
        });
        let run = run_bound(subtrees, roots, bound, session, &mut watch)?;
        match record_bound(file, &path, bound, run)? {
            Some(next) => bound = next,
            None => break,
        }
    }
    write_json(&path, file)
}

/// Records in piece file `file` how its bound `bound` ended: a finished bound is appended and
/// the file written at once (its next bound returned); any other end is the file's partial
/// bound and state, written by the caller as the session ends.
pub(super) fn record_bound(
    file: &mut PieceFile,
    path: &Path,
    bound: u32,
    run: BoundRun,
) -> Result<Option<u32>, SplitError> {
    let mut partial = PartialIteration {
        bound,
        generated: run.generated,
        expanded: run.expanded,
        node: None,
        sub: 0,
        solution: None,
        stopped: None,
        cut: None,
        cpu_ms: run.cpu_ms,
        wall_ms: run.wall_ms,
    };
    file.state = match run.end {
        BoundEnd::Finished(next) => {
            file.iterations.push(PieceIteration {
                bound,
                generated: run.generated,
                expanded: run.expanded,
                next_bound: next,
                cpu_ms: run.cpu_ms,
                wall_ms: run.wall_ms,
            });
            write_json(path, file)?;
            return Ok(Some(next));
        }
        BoundEnd::Solved(at, solution) => {
            (partial.node, partial.sub) = (Some(at.node), at.sub);
            partial.solution = Some(solution);
            PieceState::Solved
        }
        BoundEnd::Stopped(s) => {
            partial.stopped = Some(s.name().to_string());
            PieceState::Stopped
        }
        BoundEnd::Cut(s) => {
            partial.cut = Some(s);
            PieceState::Covered
        }
    };
    file.partial = Some(partial);
    Ok(None)
}

/// A piece session's limits: the timeout from its start, the node limit over its nodes, and
/// the stop inside a frontier node's search.
pub(super) struct Session<'a> {
    limits: Limits,
    deadline: Option<Instant>,
    used: std::cell::Cell<u64>,
    pub(super) stopper: &'a Stopper,
}

impl<'a> Session<'a> {
    fn new(limits: &Limits, stopper: &'a Stopper) -> Session<'a> {
        Session {
            limits: Limits {
                cancel: Some(stopper.cancel.clone()),
                ..limits.clone()
            },
            deadline: limits.timeout.map(|t| Instant::now() + t),
            used: std::cell::Cell::new(0),
            stopper,
        }
    }

    /// The limits of the next frontier node's search, or the limit already reached.
    fn limits(&self) -> Result<Limits, Outcome> {
        let timeout = match self.deadline {
            Some(d) if Instant::now() >= d => return Err(Outcome::Timeout),
            Some(d) => Some(d - Instant::now()),
            None => None,
        };
        let max_nodes = match self.limits.max_nodes {
            Some(n) if self.used.get() >= n => return Err(Outcome::NodeLimit),
            Some(n) => Some(n - self.used.get()),
            None => None,
        };
        Ok(Limits {
            timeout,
            max_nodes,
            ..self.limits.clone()
        })
    }

    fn add(&self, generated: u64) {
        self.used.set(self.used.get() + generated);
    }
}

/// Stops a piece inside a frontier node's search once an announced solution cuts it: a thread
/// of its own polls the markers every [`Stopper::PERIOD`] and raises the search's cancel flag
/// (checked every 65,536 nodes) when the solution cuts the piece's position, the bound and
/// frontier node it searches. The flag is raised under the same lock that sets the position,
/// so it always stands for the position being searched; without it a piece would notice the
/// solution only after the frontier node it is in. A queue piece, which may go back to an
/// earlier chunk, clears the flag with [`Stopper::rearm`] before each chunk.
#[derive(Default)]
pub(super) struct Stopper {
    /// The bound and frontier node being searched (`None`: between searches), and the
    /// solution that raised the flag for it.
    state: std::sync::Mutex<StopperState>,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

#[derive(Default)]
struct StopperState {
    position: Option<(u32, Position)>,
    cut: Option<KnownSolution>,
}

impl Stopper {
    const PERIOD: Duration = Duration::from_millis(200);

    fn lock(&self) -> std::sync::MutexGuard<'_, StopperState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The piece is about to search at `at` in `bound`.
    pub(super) fn at(&self, bound: u32, at: Position) {
        self.lock().position = Some((bound, at));
    }

    /// Clears the flag and the position (before a queue piece's next chunk).
    pub(super) fn rearm(&self) {
        let mut state = self.lock();
        *state = StopperState::default();
        self.cancel
            .store(false, std::sync::atomic::Ordering::Release);
    }

    /// The solution that raised the flag, if one did.
    pub(super) fn cut(&self) -> Option<KnownSolution> {
        self.lock().cut
    }

    /// Polls the markers until `done` is dropped.
    fn watch(&self, plan: &Plan, dir: &Path, done: std::sync::mpsc::Receiver<()>) {
        let mut watch = Watch::new(plan, dir);
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(Self::PERIOD)
        {
            // An unreadable piece file is reported by the piece's own checks.
            let Ok(Some(s)) = watch.poll() else { continue };
            let mut state = self.lock();
            if state.cut.is_none()
                && let Some((bound, at)) = state.position
                && s.cuts(bound, at, plan.any_optimal)
            {
                state.cut = Some(s);
                self.cancel
                    .store(true, std::sync::atomic::Ordering::Release);
            }
        }
    }
}

fn ms(d: Option<Duration>) -> f64 {
    d.map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal};
    use crate::heuristic::HeuristicKind;
    use crate::search::Algorithm;
    use crate::split::plan::{PlanRequest, make_plan};

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

    /// A 3-piece plan of an 8-puzzle with IDA* + Manhattan (frontier of 40 nodes).
    fn eight_puzzle_plan() -> Plan {
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
            frontier: 40,
            probe_nodes: 10_000,
            any_optimal: false,
            queue: false,
        })
        .unwrap()
    }

    /// Between frontier nodes a piece learns of solutions from the markers alone (no piece
    /// file is read without one).
    #[test]
    fn the_watch_sees_announced_solutions_through_their_markers() {
        let plan = eight_puzzle_plan();
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        plan.write(dir).unwrap();
        let mut watch = Watch::new(&plan, dir);
        assert_eq!(watch.poll().unwrap(), None);
        let solved = (1..=plan.pieces)
            .map(|k| run_piece(&plan, dir, k, &Limits::default()).unwrap())
            .find_map(|f| f.solution().map(|s| (f.piece, s)));
        let (k, s) = solved.expect("some piece finds the solution");
        let marker = marker_dir(dir).join(format!("{}-{k}", s.bound));
        assert!(marker.exists());
        assert_eq!(watch.poll().unwrap(), Some(s));
        // Without the marker a new watch polls nothing; the scan before a bound still finds it.
        std::fs::remove_file(&marker).unwrap();
        let mut fresh = Watch::new(&plan, dir);
        assert_eq!(fresh.poll().unwrap(), None);
        assert_eq!(fresh.scan().unwrap(), Some(s));
    }

    /// The in-search stop: raised for a position the announced solution cuts (a later frontier
    /// node of its bound), never for one it does not cut (an earlier node, a smaller bound).
    #[test]
    fn the_stopper_raises_the_cancel_flag_only_where_the_solution_cuts() {
        let plan = eight_puzzle_plan();
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        plan.write(dir).unwrap();
        let s = (1..=plan.pieces)
            .map(|k| run_piece(&plan, dir, k, &Limits::default()).unwrap())
            .find_map(|f| f.solution())
            .expect("some piece finds the solution");
        let raised = |bound: u32, node: usize, polls: u32| {
            let stopper = Stopper::default();
            stopper.at(bound, Position::node(node));
            let (done, watching) = std::sync::mpsc::channel::<()>();
            std::thread::scope(|scope| {
                scope.spawn(|| stopper.watch(&plan, dir, watching));
                // Until the flag is raised, or for a few polls.
                for _ in 0..polls * 10 {
                    if stopper.cancel.load(std::sync::atomic::Ordering::Acquire) {
                        break;
                    }
                    std::thread::sleep(Stopper::PERIOD / 10);
                }
                drop(done);
            });
            let flag = stopper.cancel.load(std::sync::atomic::Ordering::Acquire);
            assert_eq!(flag, stopper.cut().is_some());
            (flag, stopper.cut())
        };
        // Cut: a later node of the solution's bound, a larger bound (up to 600 polls, until raised).
        assert_eq!(raised(s.bound, s.node + 1, 600), (true, Some(s)));
        assert_eq!(raised(s.bound + 2, 0, 600), (true, Some(s)));
        // Not cut: the solution's own node and a smaller bound (a few polls: never raised).
        assert_eq!(raised(s.bound, s.node, 3), (false, None));
        assert_eq!(raised(s.bound - 2, s.node + 1, 3), (false, None));
    }
}
