//! One bound of a piece, shared by fixed slices (`slices`) and the queue
//! (`queue`): the IDA* iteration below a run of subtree roots ([`run_bound`]), its
//! one record ([`BoundRun`], written to the piece file by [`record_bound`]), the session's
//! limits, and how a piece learns of other pieces' solutions: the announcement markers and
//! [`Watch`] between roots, the [`Stopper`] thread inside one root's search.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::board::{Move, moves_to_string};
use crate::search::subtree::Subtrees;
use crate::search::{Limits, Outcome, thread_cpu_time};

use super::file::{
    KnownSolution, PartialIteration, PieceFile, PieceIteration, PieceState, Position, first,
    read_piece,
};
use super::plan::Plan;
use super::{SplitError, write_json};

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

impl BoundRun {
    /// A bound in which nothing was searched, ending with `next` as its next bound: a part
    /// of a frontier node whose path already exceeds the bound (its f is the next bound), or
    /// the start of a queue piece's bound, to which its units' counts are added.
    pub(super) fn unsearched(next: u32) -> BoundRun {
        BoundRun {
            generated: 0,
            expanded: 0,
            cpu_ms: 0.0,
            wall_ms: 0.0,
            end: BoundEnd::Finished(next),
        }
    }
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
            partial.stopped = Some(s);
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
    pub(super) fn new(limits: &Limits, stopper: &'a Stopper) -> Session<'a> {
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
    pub(super) fn watch(&self, plan: &Plan, dir: &Path, done: std::sync::mpsc::Receiver<()>) {
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
    use crate::split::piece::run_piece;
    use crate::split::plan::{PlanRequest, make_plan};

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
