//! Running jobs: a rayon pool in which each job runs on one worker thread, under its limits,
//! measured (wall time, the thread's CPU time, peak heap), with panics caught and turned into
//! `error` rows. Finished rows go over a channel to the one writer (the caller's thread).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, mpsc};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::{Board, Goal, moves_to_string};
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, Limits, SolveError, SolveReport, Status, thread_cpu_time};
use crate::units::millis as ms;

use super::alloc;
use super::plan::{InstanceSource, Job};
use crate::results::{Outcome, Row};

/// Stops a run: raised by Ctrl-C, it raises the cancel flag of every running job and keeps
/// new jobs from starting.
#[derive(Debug, Default)]
pub struct Interrupt {
    interrupted: AtomicBool,
    running: Mutex<HashMap<usize, Arc<AtomicBool>>>,
}

impl Interrupt {
    /// A fresh, not interrupted, state.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Interrupts the run.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        for flag in running.values() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether the run was interrupted.
    pub fn is_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// The cancel flag of job `id`, registered so that [`Interrupt::interrupt`] reaches it.
    fn register(&self, id: usize) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(id, flag.clone());
        // Checked under the lock: an interrupt either saw this flag or is visible here.
        if self.is_interrupted() {
            flag.store(true, Ordering::SeqCst);
        }
        flag
    }

    fn unregister(&self, id: usize) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.remove(&id);
    }
}

/// What every job shares.
pub struct RunContext<'a> {
    /// The run id written in every row.
    pub run_id: &'a str,
    /// The instance files.
    pub sources: &'a [InstanceSource],
    /// The limits.
    /// The per-job limits (their flags are set per job).
    pub limits: &'a Limits,
    /// Whether to write the solution column.
    pub solutions: bool,
    /// Unrecorded warm-up runs before each job (`--warmup`).
    pub warmup: u32,
    /// The interrupt state.
    pub interrupt: &'a Interrupt,
}

/// How a job ended, as far as the writer is concerned.
#[derive(Debug)]
pub enum JobEnd {
    /// The job's row.
    Row(Box<Row>),
    /// The run was interrupted before or while the job ran: no row.
    Cancelled,
}

/// The solver signature (the real one is [`crate::search::solve`]; tests substitute others).
pub trait SolveFn:
    Fn(&Board, Goal, Algorithm, &HeuristicKind, &Limits) -> Result<SolveReport, SolveError> + Sync
{
}

impl<F> SolveFn for F where
    F: Fn(&Board, Goal, Algorithm, &HeuristicKind, &Limits) -> Result<SolveReport, SolveError>
        + Sync
{
}

thread_local! {
    static IN_JOB: Cell<bool> = const { Cell::new(false) };
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that, on job threads, records where the panic happened instead
/// of printing it: the message goes into the job's `error` row. Elsewhere the previous hook runs.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if IN_JOB.with(Cell::get) {
                let at = info.location().map(|l| l.to_string());
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-text panic payload)".to_string()
    }
}

/// Runs one job on the calling thread.
pub fn execute(ctx: &RunContext<'_>, job: &Job, solve_fn: &impl SolveFn) -> JobEnd {
    install_panic_hook();
    if ctx.interrupt.is_interrupted() {
        return JobEnd::Cancelled;
    }
    let source = &ctx.sources[job.source];
    let instance = &source.set.instances[job.instance];
    let goal = source.set.goal;
    let flag = ctx.interrupt.register(job.index);
    // The memory budget is enforced twice: by the search before its structures grow, and by
    // the counting allocator, which trips `memory_tripped` when the job's heap passes it.
    let tripped = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(flag),
        memory_tripped: Some(tripped.clone()),
        ..ctx.limits.clone()
    };
    warm_up(ctx, job, &limits, solve_fn);
    let memory = alloc::start_job(ctx.limits.max_memory_bytes, Some(tripped));
    let cpu_start = thread_cpu_time();
    let start = Instant::now();
    IN_JOB.with(|j| j.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        solve_fn(
            &instance.board,
            goal,
            job.algorithm,
            &job.heuristic,
            &limits,
        )
    }));
    IN_JOB.with(|j| j.set(false));
    let wall = start.elapsed();
    let cpu = match (cpu_start, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let peak_heap = memory.peak_bytes();
    drop(memory);
    ctx.interrupt.unregister(job.index);

    let mut row = Row {
        run_id: ctx.run_id.to_string(),
        instance_file: source.name.clone(),
        instance_id: instance.id.clone(),
        rows: source.set.rows as u32,
        cols: source.set.cols as u32,
        goal: goal.to_string(),
        scramble_moves: instance.scramble_moves,
        algorithm: job.algorithm.name().to_string(),
        heuristic: job.heuristic.name(),
        repetition: job.repetition,
        status: Outcome::Error,
        moves: None,
        lower_bound: None,
        optimal: None,
        nodes_expanded: None,
        nodes_generated: None,
        iterations: None,
        peak_stored_nodes: None,
        peak_heap_bytes: peak_heap,
        wall_ms: ms(wall),
        search_ms: None,
        cpu_ms: cpu.map(ms),
        setup_ms: None,
        initial_h: None,
        message: None,
        solution: None,
    };
    match result {
        Ok(Ok(report)) => {
            let status = match report.status {
                Status::Cancelled if ctx.interrupt.is_interrupted() => return JobEnd::Cancelled,
                s => s,
            };
            match Outcome::try_from(status) {
                Ok(outcome) => row.status = outcome,
                Err(_) => {
                    row.message =
                        Some("internal error: the search stopped without a reason".into());
                }
            }
            row.lower_bound = report.stats.lower_bound;
            row.optimal = Some(report.optimal);
            if job.algorithm.is_search() {
                row.nodes_expanded = Some(report.stats.expanded);
                row.nodes_generated = Some(report.stats.generated);
                row.iterations = report.stats.iterations;
                row.peak_stored_nodes = Some(report.stats.stored_peak);
            }
            row.search_ms = Some(ms(report.search_time));
            row.setup_ms = Some(ms(report.setup_time));
            // A parallel search also ran on other threads of the pool.
            if let Some(cpu) = &mut row.cpu_ms {
                *cpu = ms(Duration::from_secs_f64(*cpu / 1e3) + report.stats.helper_cpu);
            }
            row.initial_h = report.initial_h;
            if let Some(moves) = &report.moves {
                row.moves = Some(moves.len() as u32);
                if ctx.solutions {
                    row.solution = Some(moves_to_string(moves));
                }
            }
        }
        Ok(Err(e)) => {
            row.message = Some(e.to_string());
        }
        Err(payload) => {
            let at = PANIC_AT.with(|p| p.borrow_mut().take());
            let msg = panic_message(payload.as_ref());
            row.message = Some(match at {
                Some(at) => format!("panic at {at}: {msg}"),
                None => format!("panic: {msg}"),
            });
        }
    }
    JobEnd::Row(Box::new(row))
}

/// Runs `ctx.warmup` unrecorded runs of `job` on this thread (caches, page faults of shared
/// tables, CPU frequency), under the job's limits. A warm-up that does not solve (a limit, an
/// error, a panic, the run interrupted) ends the warm-ups: the measured run would only repeat
/// it.
fn warm_up(ctx: &RunContext<'_>, job: &Job, limits: &Limits, solve_fn: &impl SolveFn) {
    let source = &ctx.sources[job.source];
    let board = &source.set.instances[job.instance].board;
    for _ in 0..ctx.warmup {
        if ctx.interrupt.is_interrupted() {
            return;
        }
        IN_JOB.with(|j| j.set(true));
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            solve_fn(
                board,
                source.set.goal,
                job.algorithm,
                &job.heuristic,
                limits,
            )
        }));
        IN_JOB.with(|j| j.set(false));
        PANIC_AT.with(|p| p.borrow_mut().take());
        match result {
            Ok(Ok(report)) if report.status == Status::Solved => {}
            _ => return,
        }
    }
}

/// Runs `jobs` on a pool of `threads` workers; `on_outcome` is called on the calling thread
/// for each finished job, in completion order. If it fails, the run is interrupted and the
/// error returned once the workers have stopped.
///
/// Jobs of parallel algorithms ([`Algorithm::is_parallel`]) run first, one at a time, each
/// with the whole pool (so their time limits and times mean what they say); the others then
/// run side by side, one per worker.
pub fn run_all<E>(
    ctx: &RunContext<'_>,
    jobs: &[Job],
    threads: usize,
    solve_fn: &impl SolveFn,
    mut on_outcome: impl FnMut(JobEnd) -> Result<(), E>,
) -> Result<(), RunError<E>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("bench-worker-{i}"))
        .build()
        .map_err(RunError::Pool)?;
    let (tx, rx) = mpsc::channel::<JobEnd>();
    std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            pool.install(|| {
                let (solo, side_by_side): (Vec<&Job>, Vec<&Job>) =
                    jobs.iter().partition(|j| j.algorithm.is_parallel());
                for job in solo {
                    if ctx.interrupt.is_interrupted() {
                        return;
                    }
                    let _ = tx.send(execute(ctx, job, solve_fn));
                }
                side_by_side
                    .par_iter()
                    .with_max_len(1)
                    .for_each_with(tx, |tx, job| {
                        if ctx.interrupt.is_interrupted() {
                            return;
                        }
                        let outcome = execute(ctx, job, solve_fn);
                        // The receiver only goes away after the workers stop.
                        let _ = tx.send(outcome);
                    })
            })
        });
        let mut failure = None;
        for outcome in rx {
            if failure.is_some() {
                continue;
            }
            if let Err(e) = on_outcome(outcome) {
                ctx.interrupt.interrupt();
                failure = Some(e);
            }
        }
        if workers.join().is_err() {
            return Err(RunError::WorkerPanic);
        }
        failure.map_or(Ok(()), |e| Err(RunError::Sink(e)))
    })
}

/// A run that could not complete.
#[derive(Debug, thiserror::Error)]
pub enum RunError<E> {
    /// The thread pool could not be created.
    #[error("cannot start the worker threads: {0}")]
    Pool(rayon::ThreadPoolBuildError),
    /// A worker died outside a job (a bug).
    #[error("internal error: a worker thread panicked outside a job")]
    WorkerPanic,
    /// The row sink failed (e.g. the disk is full).
    #[error(transparent)]
    Sink(E),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instances::{Instance, InstanceSet};

    fn source() -> InstanceSource {
        let board = Board::new(3, 3, vec![1, 2, 3, 4, 5, 6, 0, 7, 8]).unwrap();
        InstanceSource {
            name: "t.tsv".into(),
            set: InstanceSet {
                path: "t.tsv".into(),
                goal: Goal::BlankLast,
                rows: 3,
                cols: 3,
                instances: vec![Instance {
                    id: "a".into(),
                    line: 2,
                    board,
                    scramble_moves: Some(2),
                }],
            },
            sha256: String::new(),
            skipped: vec![],
        }
    }

    fn job(index: usize, algorithm: Algorithm) -> Job {
        Job {
            index,
            source: 0,
            instance: 0,
            algorithm,
            heuristic: HeuristicKind::Manhattan,
            repetition: 1,
        }
    }

    #[test]
    fn solved_row_and_panic_row_and_interrupt() {
        let sources = [source()];
        let interrupt = Interrupt::new();
        let limits = Limits::default();
        let ctx = RunContext {
            run_id: "r1",
            sources: &sources,
            limits: &limits,
            solutions: true,
            warmup: 0,
            interrupt: &interrupt,
        };
        let JobEnd::Row(row) = execute(&ctx, &job(0, Algorithm::Astar), &crate::search::solve)
        else {
            panic!("no row")
        };
        // Blank at (2,0) with 7 8 to its right: two moves right, by hand.
        assert_eq!(row.status, Outcome::Solved);
        assert_eq!(row.moves, Some(2));
        assert_eq!(row.solution.as_deref(), Some("RR"));
        assert_eq!(row.scramble_moves, Some(2));
        assert!(row.message.is_none() && row.cpu_ms.is_some());

        let panicking = |_: &Board,
                         _: Goal,
                         _: Algorithm,
                         _: &HeuristicKind,
                         _: &Limits|
         -> Result<SolveReport, SolveError> { panic!("boom {}", 42) };
        let JobEnd::Row(row) = execute(&ctx, &job(1, Algorithm::Astar), &panicking) else {
            panic!("no row")
        };
        assert_eq!(row.status, Outcome::Error);
        let msg = row.message.unwrap();
        assert!(
            msg.contains("boom 42") && msg.contains("runner.rs"),
            "{msg}"
        );
        assert!(row.moves.is_none() && row.nodes_expanded.is_none());

        // Rows of a batch with one panicking job: the others still come through.
        let jobs: Vec<Job> = (0..6)
            .map(|i| job(i, [Algorithm::Astar, Algorithm::Bfs][i % 2]))
            .collect();
        let flaky = |b: &Board, g: Goal, a: Algorithm, h: &HeuristicKind, l: &Limits| {
            if a == Algorithm::Bfs {
                panic!("bfs broke");
            }
            crate::search::solve(b, g, a, h, l)
        };
        let mut statuses = Vec::new();
        run_all(&ctx, &jobs, 2, &flaky, |o| {
            if let JobEnd::Row(r) = o {
                statuses.push(r.status.name().to_string());
            }
            Ok::<(), ()>(())
        })
        .unwrap();
        statuses.sort();
        assert_eq!(
            statuses,
            ["error", "error", "error", "solved", "solved", "solved"]
        );

        interrupt.interrupt();
        assert!(matches!(
            execute(&ctx, &job(2, Algorithm::Astar), &crate::search::solve),
            JobEnd::Cancelled
        ));
    }

    #[test]
    fn a_running_job_sees_the_interrupt() {
        let interrupt = Interrupt::new();
        let flag = interrupt.register(5);
        assert!(!flag.load(Ordering::SeqCst));
        interrupt.interrupt();
        assert!(flag.load(Ordering::SeqCst));
        interrupt.unregister(5);
        assert!(interrupt.register(6).load(Ordering::SeqCst));
    }
}
