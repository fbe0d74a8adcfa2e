//! Parallel IDA* on one instance (`idastar-par`): every iteration is split at a shallow depth
//! and the subtrees below the split are searched by the rayon pool.
//!
//! Each iteration first walks the tree sequentially down to the split depth, exactly as IDA*
//! would (same order, same pruning, same counts), and keeps the nodes it reaches there as
//! tasks. The tasks are then searched in parallel with the ordinary IDA* probe; rayon's work
//! stealing balances the very uneven subtree sizes, so the split depth is chosen to give many
//! more tasks than threads. The first worker to reach the goal raises a shared flag and the
//! others stop at their next budget check.
//!
//! The iterations before the last one visit exactly the nodes IDA* visits, so their counts are
//! the same; in the last one the workers stop when one of them finds the goal, so how many
//! nodes the others generated meanwhile depends on the scheduling. The walk above the split
//! also covers that part of the last iteration completely, where IDA* would stop at the goal:
//! on a pool of one thread (tasks in order) the counts are IDA*'s plus those few nodes
//! (tested against Korf's published counts).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rayon::prelude::*;

use crate::geometry::{Capacity, Geometry, TileInt};
use crate::heuristic::{Built, Heuristic};
use crate::with_heuristic;

use super::duplicates::MoveAutomaton;
use super::{Driven, Ida, Iterations, Walk, drive, expand};
use crate::search::storage::Storage;
use crate::search::{
    Budget, Limits, Outcome, RawOutcome, SearchStats, Shared, moves_between_blanks,
};

/// The split aims for at least this many tasks per worker thread.
const TASKS_PER_THREAD: usize = 256;
/// The walk above the split stops deepening once it has generated this many nodes: the
/// iteration is then small, and searched with the tasks found so far.
const MAX_WALK_NODES: u64 = 1 << 20;
/// The deepest split considered (the path to a task is kept in a fixed array).
const MAX_SPLIT_DEPTH: usize = 40;

/// A node at the split depth, with what [`Ida::probe`] needs to search below it.
struct Task<C: Capacity, M> {
    tiles: C::Tiles,
    blank: usize,
    parent: usize,
    /// The duplicate automaton's state (unused without one).
    state: u32,
    g: u32,
    h: u32,
    memo: M,
    /// The blank's cells from the root down to the parent of this node.
    prefix: [C::Tile; MAX_SPLIT_DEPTH],
}

/// What searching one task gave.
struct TaskResult<T> {
    generated: u64,
    expanded: u64,
    max_depth: u64,
    next_bound: u32,
    stopped: Option<Outcome>,
    /// The blank's cells from the task's node to the goal, if it found the goal.
    path: Option<Vec<T>>,
    /// CPU time spent on threads other than the caller's.
    helper_cpu: Duration,
}

/// Runs parallel IDA* from `start` on the current rayon pool.
pub(crate) fn run<C: Storage>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    built: &Built<C>,
    limits: &Limits,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome {
    with_heuristic!(C, built, h => run_with(geometry, start, h, limits, automaton))
}

/// The sequential walk of one iteration down to the split depth.
struct Splitter<'s, 'a, C: Capacity, H: Heuristic<C>> {
    ida: &'s mut Ida<'a, C, H, false>,
    depth: usize,
    tasks: Vec<Task<C, H::Memo>>,
    prefix: [C::Tile; MAX_SPLIT_DEPTH],
    /// The blank's cells from the root to the goal, if the goal lies above the split.
    found: Option<Vec<C::Tile>>,
}

impl<C: Capacity, H: Heuristic<C>> Splitter<'_, '_, C, H> {
    /// [`Ida::probe`] down to `self.depth`, where nodes become tasks instead of being
    /// expanded. Returns `true` when the walk must stop (goal found or a limit reached).
    fn walk(
        &mut self,
        blank: usize,
        parent: usize,
        state: u32,
        g: u32,
        h: u32,
        memo: H::Memo,
    ) -> bool {
        let ida = &mut *self.ida;
        if h == 0 && ida.geometry.is_goal(&ida.tiles) {
            let mut path = self.prefix[..g as usize].to_vec();
            path.push(C::Tile::from_index(blank));
            self.found = Some(path);
            return true;
        }
        if g as usize == self.depth {
            self.tasks.push(Task {
                tiles: ida.tiles,
                blank,
                parent,
                state,
                g,
                h,
                memo,
                prefix: self.prefix,
            });
            return false;
        }
        self.prefix[g as usize] = C::Tile::from_index(blank);
        expand(self, blank, parent, state, g, h, memo)
    }
}

impl<'a, C: Capacity, H: Heuristic<C>> Walk<'a, C, H, false> for Splitter<'_, 'a, C, H> {
    #[inline(always)]
    fn ida(&mut self) -> &mut Ida<'a, C, H, false> {
        self.ida
    }
    /// The exact estimate of every child (what the split walk always computed).
    #[inline(always)]
    fn limit(_: &Ida<'a, C, H, false>, _: u32) -> u32 {
        u32::MAX
    }
    fn descend(
        &mut self,
        blank: usize,
        next: usize,
        state: u32,
        g: u32,
        h2: u32,
        memo2: H::Memo,
    ) -> bool {
        let ida = &mut *self.ida;
        let f2 = g + 1 + h2;
        if f2 > ida.bound {
            ida.next_bound = ida.next_bound.min(f2);
            false
        } else {
            self.walk(next, blank, state, g + 1, h2, memo2)
        }
    }
}

/// One iteration's sequential walk down to the split depth: deepens from 1 until there are
/// `target` tasks (or the walk itself has become large), undoing the counts of the shallower
/// tries. The walk visits the whole tree above the split even in the last iteration, so the
/// split is kept as shallow as the pool allows. Returns the tasks and the goal's path if the
/// goal lies above the split.
#[allow(clippy::type_complexity)]
fn split_iteration<C: Capacity, H: Heuristic<C>>(
    driver: &mut Ida<'_, C, H, false>,
    start: &C::Tiles,
    root_blank: usize,
    h0: u32,
    memo0: H::Memo,
    target: usize,
) -> (Vec<Task<C, H::Memo>>, Option<Vec<C::Tile>>) {
    let counts = (driver.generated, driver.expanded, driver.max_depth);
    let mut depth = 1usize;
    loop {
        driver.next_bound = u32::MAX;
        let mut s = Splitter {
            ida: &mut *driver,
            depth,
            tasks: Vec::new(),
            prefix: [C::Tile::default(); MAX_SPLIT_DEPTH],
            found: None,
        };
        s.walk(root_blank, usize::MAX, MoveAutomaton::START, 0, h0, memo0);
        let (tasks, found) = (s.tasks, s.found);
        if found.is_some()
            || driver.stopped.is_some()
            || tasks.is_empty()
            || tasks.len() >= target
            || driver.generated - counts.0 >= MAX_WALK_NODES
            || depth + 1 >= MAX_SPLIT_DEPTH
        {
            return (tasks, found);
        }
        depth += 1;
        (driver.generated, driver.expanded, driver.max_depth) = counts;
        driver.tiles = *start;
    }
}

/// Searches the subtree below one task with the iteration's `bound`; the first worker to
/// reach the goal raises the shared stop flag. CPU time is counted for threads other than
/// the `caller`'s.
#[allow(clippy::too_many_arguments)]
fn search_task<C: Capacity, H: Heuristic<C>>(
    geometry: &Geometry<C>,
    heuristic: &H,
    automaton: Option<&MoveAutomaton>,
    task: &Task<C, H::Memo>,
    bound: u32,
    budget: Budget,
    shared: &Shared,
    caller: std::thread::ThreadId,
) -> TaskResult<C::Tile> {
    let cpu_start = (std::thread::current().id() != caller)
        .then(crate::search::thread_cpu_time)
        .flatten();
    let mut w = Ida::<C, H, false>::new(geometry, heuristic, &task.tiles, budget, 100, automaton);
    w.bound = bound;
    if shared.stop.load(Ordering::Relaxed) {
        w.stopped = Some(Outcome::Cancelled);
    } else if w.probe(
        task.blank,
        task.parent,
        task.state,
        task.g,
        task.h,
        task.memo,
    ) && w.stopped.is_none()
    {
        shared.stop.store(true, Ordering::Relaxed);
    }
    w.budget.finish(w.generated);
    let path = (w.stopped.is_none() && !w.path.is_empty()).then(|| {
        let mut p = task.prefix[..task.g as usize].to_vec();
        p.extend(w.path.iter().rev());
        p
    });
    let helper_cpu = match (cpu_start, crate::search::thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => Duration::ZERO,
    };
    TaskResult {
        generated: w.generated,
        expanded: w.expanded,
        max_depth: w.max_depth,
        next_bound: w.next_bound,
        stopped: w.stopped,
        path,
        helper_cpu,
    }
}

/// A parallel search as the iteration driver ([`drive`]) sees it: each iteration split at a
/// shallow depth by the serial `driver`, its tasks searched by the pool, their counts summed
/// here.
struct Parallel<'a, C: Capacity, H: Heuristic<C>> {
    driver: Ida<'a, C, H, false>,
    start: &'a C::Tiles,
    root_blank: usize,
    h0: u32,
    memo0: H::Memo,
    /// Tasks wanted per iteration.
    target: usize,
    shared: Arc<Shared>,
    caller: std::thread::ThreadId,
    /// The tasks' counts, summed over the iterations.
    generated: u64,
    expanded: u64,
    max_depth: u64,
    helper_cpu: Duration,
    /// The limit that stopped the search, if one did.
    stopped: Option<Outcome>,
    /// The blank's cells from the root to the goal, once found.
    solution: Option<Vec<C::Tile>>,
}

impl<C: Capacity, H: Heuristic<C> + Sync> Iterations for Parallel<'_, C, H>
where
    H::Memo: Send + Sync,
{
    fn counts(&self) -> (u64, u64) {
        (
            self.driver.expanded + self.expanded,
            self.driver.generated + self.generated,
        )
    }
    fn bound(&self) -> u32 {
        self.driver.bound
    }
    fn iterate(&mut self) -> bool {
        let driver = &mut self.driver;
        let (tasks, found) = split_iteration(
            driver,
            self.start,
            self.root_blank,
            self.h0,
            self.memo0,
            self.target,
        );
        if let Some(s) = driver.stopped {
            self.stopped = Some(s);
            return true;
        }
        if found.is_some() {
            self.solution = found;
            return true;
        }
        // Search the tasks (the walk's unused nodes go back to the shared limit first).
        driver.budget.finish(driver.generated);
        let (bound, shared, caller) = (driver.bound, &self.shared, self.caller);
        let (geometry, heuristic, automaton) =
            (driver.geometry, driver.heuristic, driver.automaton);
        let budget = &driver.budget;
        let results: Vec<TaskResult<C::Tile>> = tasks
            .par_iter()
            .map(|task| {
                let budget = budget.worker(shared);
                search_task(
                    geometry, heuristic, automaton, task, bound, budget, shared, caller,
                )
            })
            .collect();
        let mut stopped = None;
        for r in &results {
            self.generated += r.generated;
            self.expanded += r.expanded;
            self.max_depth = self.max_depth.max(r.max_depth);
            self.helper_cpu += r.helper_cpu;
            self.driver.next_bound = self.driver.next_bound.min(r.next_bound);
            if self.solution.is_none() && r.path.is_some() {
                self.solution.clone_from(&r.path);
            }
            // The worker that hit a limit names it; the others were only cancelled.
            if stopped.is_none() || stopped == Some(Outcome::Cancelled) {
                stopped = r.stopped.or(stopped);
            }
        }
        if self.solution.is_some() {
            return true;
        }
        self.stopped = stopped;
        stopped.is_some()
    }
    fn stopped(&self) -> Option<Outcome> {
        self.stopped
    }
    fn advance(&mut self) -> bool {
        if self.driver.next_bound == u32::MAX {
            return false;
        }
        self.driver.bound = self.driver.next_bound;
        true
    }
    fn between(&mut self) -> Option<Outcome> {
        self.driver.budget.check(self.driver.generated)
    }
}

fn run_with<C: Capacity, H: Heuristic<C> + Sync>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    heuristic: &H,
    limits: &Limits,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome
where
    H::Memo: Send + Sync,
{
    let (h0, memo0) = heuristic.init(start);
    let shared = Arc::new(Shared::default());
    let budget = Budget::new(limits);
    let mut driver = Ida::<C, H, false>::new(geometry, heuristic, start, budget, 100, automaton);
    driver.budget = driver.budget.worker(&shared);
    driver.bound = h0;
    driver.generated = 1; // the root, once for the whole run
    let mut search = Parallel {
        driver,
        start,
        root_blank: geometry.blank_of(start),
        h0,
        memo0,
        target: TASKS_PER_THREAD * rayon::current_num_threads(),
        shared,
        caller: std::thread::current().id(),
        generated: 0,
        expanded: 0,
        max_depth: 1,
        helper_cpu: Duration::ZERO,
        stopped: None,
        solution: None,
    };
    // The per-iteration counts of a parallel search depend on the scheduling in its last
    // iteration: not reported.
    let Driven {
        status, iterations, ..
    } = drive(&mut search);
    let moves = search.solution.map(|blanks| {
        let blanks: Vec<usize> = blanks.into_iter().map(Into::into).collect();
        moves_between_blanks(geometry, &blanks)
    });
    let driver = &search.driver;
    RawOutcome {
        status,
        moves,
        per_iteration: Vec::new(),
        stats: SearchStats {
            expanded: driver.expanded + search.expanded,
            generated: driver.generated + search.generated,
            stored_peak: driver.max_depth.max(search.max_depth),
            memory_bytes: (rayon::current_num_threads() * std::mem::size_of::<C::Tiles>()) as u64,
            iterations: Some(iterations),
            helper_cpu: search.helper_cpu,
            lower_bound: (status != Outcome::Solved).then_some(driver.bound),
        },
    }
}
