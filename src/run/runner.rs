//! Running jobs: a rayon pool in which each job runs on one worker thread, under its limits,
//! with panics caught and turned into `error` rows. Finished rows go over a channel to the one
//! writer (the caller's thread). A job is measured one of two ways (the `measured_by` column):
//!
//! - `in-process`: a built-in search on the worker thread (wall time, the thread's CPU time,
//!   the counting allocator's peak heap);
//! - `process`: a child process group run by [`crate::external::process`] (wall time, user and
//!   system CPU time and peak resident memory from the kernel): every external solver, and the
//!   built-in algorithms with `--isolate` (this executable's `bench solve --format json`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, mpsc};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::solve::SolveJson;

use crate::board::{Board, Goal, Move, moves_to_string};
use crate::external::{self, Exit, Judged, Measured, ProcessLimits, Solver, answer};
use crate::heuristic::HeuristicKind;
use crate::infra::units::{format_bytes, millis as ms};
use crate::search::{Algorithm, Limits, Outcome, SolveError, SolveReport, thread_cpu_time};

use super::plan::{Job, Program};
use crate::infra::alloc;
use crate::instances::InstanceSource;
use crate::results::{MeasuredBy, Row};

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
    /// The per-job limits (their flags are set per job).
    pub limits: &'a Limits,
    /// The CPU-time limit of jobs run as processes (`--cpu-limit`).
    pub cpu_limit: Option<Duration>,
    /// Run built-in algorithms as child processes: this executable (`--isolate`).
    pub isolate: Option<&'a Path>,
    /// A directory for the board files of `{file}` placeholders.
    pub scratch: &'a Path,
    /// Whether to write the solution column.
    pub solutions: bool,
    /// Unrecorded warm-up runs before each in-process job (`--warmup`).
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
    match (&job.program, ctx.isolate) {
        (Program::Builtin(a, h), None) => execute_in_process(ctx, job, *a, h, solve_fn),
        (Program::Builtin(a, h), Some(exe)) => execute_isolated(ctx, job, *a, h, exe),
        (Program::External(solver), _) => execute_external(ctx, job, solver),
    }
}

/// A row for `job` with its key and instance columns, status `error`, nothing measured yet.
fn blank_row(ctx: &RunContext<'_>, job: &Job, measured_by: MeasuredBy) -> Row {
    let source = &ctx.sources[job.source];
    let instance = &source.set.instances[job.instance];
    let pair = job.program.pair();
    Row {
        run_id: ctx.run_id.to_string(),
        instance_file: source.name.clone(),
        instance_id: instance.id.clone(),
        rows: source.set.shape.rows as u32,
        cols: source.set.shape.cols as u32,
        goal: source.set.shape.goal,
        scramble_moves: instance.scramble_moves,
        algorithm: pair.algorithm,
        heuristic: pair.heuristic,
        repetition: job.repetition,
        status: Outcome::Error,
        moves: None,
        lower_bound: None,
        optimal: None,
        known_optimal: None,
        suboptimal: None,
        nodes_expanded: None,
        nodes_generated: None,
        iterations: None,
        peak_stored_nodes: None,
        peak_heap_bytes: None,
        peak_rss_bytes: None,
        wall_ms: 0.0,
        search_ms: None,
        cpu_ms: None,
        user_ms: None,
        sys_ms: None,
        setup_ms: None,
        initial_h: None,
        measured_by: Some(measured_by),
        message: None,
        solution: None,
    }
}

/// A built-in search on this thread.
fn execute_in_process(
    ctx: &RunContext<'_>,
    job: &Job,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    solve_fn: &impl SolveFn,
) -> JobEnd {
    let source = &ctx.sources[job.source];
    let instance = &source.set.instances[job.instance];
    let goal = source.set.shape.goal;
    let flag = ctx.interrupt.register(job.index);
    // The memory budget is enforced twice: by the search before its structures grow, and by
    // the counting allocator, which trips `memory_tripped` when the job's heap passes it.
    let tripped = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(flag),
        memory_tripped: Some(tripped.clone()),
        ..ctx.limits.clone()
    };
    warm_up(ctx, job, algorithm, heuristic, &limits, solve_fn);
    let memory = alloc::start_job(ctx.limits.max_memory_bytes, Some(tripped));
    let cpu_start = thread_cpu_time();
    let start = Instant::now();
    IN_JOB.with(|j| j.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        solve_fn(&instance.board, goal, algorithm, heuristic, &limits)
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

    let mut row = blank_row(ctx, job, MeasuredBy::InProcess);
    row.peak_heap_bytes = peak_heap;
    row.wall_ms = ms(wall);
    row.cpu_ms = cpu.map(ms);
    match result {
        Ok(Ok(report)) => {
            let status = match report.status {
                Outcome::Cancelled if ctx.interrupt.is_interrupted() => return JobEnd::Cancelled,
                s => s,
            };
            if status.is_recorded() {
                row.status = status;
            } else {
                row.message = Some("internal error: the search stopped without a reason".into());
            }
            row.lower_bound = report.stats.lower_bound;
            row.optimal = Some(report.optimal);
            if algorithm.is_search() {
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

/// The process limits of a job: `--timeout`, `--cpu-limit`, `--max-memory` (the whole
/// process group's resident memory) and the interrupt.
fn process_limits(ctx: &RunContext<'_>, cancel: Arc<AtomicBool>) -> ProcessLimits {
    ProcessLimits {
        timeout: ctx.limits.timeout,
        cpu: ctx.cpu_limit,
        memory: ctx.limits.max_memory_bytes,
        cancel: Some(cancel),
        ..ProcessLimits::default()
    }
}

/// Fills the kernel's measurements into `row`.
fn fill_measured(row: &mut Row, m: &Measured) {
    row.wall_ms = ms(m.wall);
    row.user_ms = Some(ms(m.user));
    row.sys_ms = Some(ms(m.system));
    row.cpu_ms = Some(ms(m.user + m.system));
    row.peak_rss_bytes = Some(m.peak_memory);
}

/// The message of a process a limit stopped: `stop` is its [`Measured::stop`], one of
/// timeout, cpu-limit and memory-limit (a cancelled job has no row).
fn limit_message(ctx: &RunContext<'_>, stop: Outcome, m: &Measured) -> String {
    let how = match m.exit {
        Exit::Signal(libc::SIGKILL) => "killed",
        _ => "ended",
    };
    match stop {
        Outcome::Timeout => format!(
            "{how} at --timeout {}: SIGTERM to its process group, SIGKILL after the grace period",
            ctx.limits
                .timeout
                .map_or("none".into(), |t| format!("{t:?}"))
        ),
        Outcome::CpuLimit => format!(
            "{how} at --cpu-limit {} (CPU time {:?})",
            ctx.cpu_limit.map_or("none".into(), |t| format!("{t:?}")),
            m.user + m.system
        ),
        Outcome::MemoryLimit => format!(
            "{how} above --max-memory {} of resident memory (peak seen {})",
            ctx.limits
                .max_memory_bytes
                .map_or("none".into(), |b| format_bytes(b as f64)),
            format_bytes(m.peak_memory as f64)
        ),
        other => format!("{how}: {other}"),
    }
}

/// How a process ended, for messages: "exit status 3" or "signal 11 (SIGSEGV)", with the tail
/// of its stderr.
fn describe_exit(exit: Exit, stderr: &str) -> String {
    let how = match exit {
        Exit::Code(c) => format!("exit status {c}"),
        Exit::Signal(s) => format!("killed by signal {s} ({})", signal_name(s)),
    };
    let stderr = stderr.trim();
    if stderr.is_empty() {
        how
    } else {
        // The last lines are what explains a crash; the column stays one short cell.
        let tail: String = stderr
            .chars()
            .rev()
            .take(500)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("{how}; stderr: {}", tail.replace('\n', " | "))
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGPIPE => "SIGPIPE",
        _ => "other",
    }
}

/// Appends `note` to the row's message.
fn add_note(row: &mut Row, note: &str) {
    row.message = Some(match row.message.take() {
        Some(m) => format!("{m}; {note}"),
        None => note.to_string(),
    });
}

/// An external solver in its own process group.
fn execute_external(ctx: &RunContext<'_>, job: &Job, solver: &Solver) -> JobEnd {
    let source = &ctx.sources[job.source];
    let board = &source.set.instances[job.instance].board;
    let flag = ctx.interrupt.register(job.index);
    let limits = process_limits(ctx, flag);
    let result = external::run_solver(solver, board, source.set.shape.goal, &limits, ctx.scratch);
    ctx.interrupt.unregister(job.index);
    let mut row = blank_row(ctx, job, MeasuredBy::Process);
    let judged = match result {
        Ok(o) => o,
        Err(e) => {
            row.message = Some(e.to_string());
            return JobEnd::Row(Box::new(row));
        }
    };
    let Judged {
        outcome,
        solution,
        detail,
        measured: m,
    } = judged;
    if outcome == Outcome::Cancelled {
        return JobEnd::Cancelled;
    }
    fill_measured(&mut row, &m);
    row.status = outcome;
    row.message = match outcome {
        Outcome::Crashed => Some(describe_exit(m.exit, &m.stderr_tail)),
        Outcome::WrongAnswer if m.stdout_truncated => {
            detail.map(|e| format!("{e} (stdout cut at {} bytes)", limits.max_stdout))
        }
        o if o.is_limit() => Some(limit_message(ctx, o, &m)),
        _ => detail,
    };
    if let Some(solution) = solution {
        row.moves = Some(solution.moves.len() as u32);
        row.nodes_expanded = solution.counters.nodes_expanded;
        row.nodes_generated = solution.counters.nodes_generated;
        row.peak_stored_nodes = solution.counters.peak_stored_nodes;
        if ctx.solutions {
            row.solution = Some(moves_to_string(&solution.moves));
        }
    }
    if m.leftover_killed {
        add_note(&mut row, "processes the solver left running were killed");
    }
    JobEnd::Row(Box::new(row))
}

/// The command line of an isolated job: this executable's `bench solve --format json` with
/// the job's algorithm, heuristic, goal and limits.
fn isolated_command(
    ctx: &RunContext<'_>,
    exe: &Path,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    goal: Goal,
) -> String {
    let q = |s: &str| external::process::shell_quote(s);
    let mut cmd = format!(
        "exec {} solve --format json --algo {} --heuristic {} --goal {}",
        q(&exe.display().to_string()),
        q(&algorithm.name()),
        q(&heuristic.name()),
        goal
    );
    if let Some(t) = ctx.limits.timeout {
        cmd += &format!(" --timeout {}ms", t.as_millis().max(1));
    }
    if let Some(n) = ctx.limits.max_nodes {
        cmd += &format!(" --max-nodes {n}");
    }
    // Always explicit: without the flag the child would take the default limit.
    match ctx.limits.max_memory_bytes {
        Some(b) => cmd += &format!(" --max-memory {b}"),
        None => cmd += " --max-memory none",
    }
    cmd
}

/// A built-in algorithm as a child process (`--isolate`): the child holds itself to the
/// timeout, node and memory limits like an in-process search (so a stopped search still
/// reports its counts and lower bound); the process limits are a backstop one second (plus a
/// tenth) later, and `--max-memory` also holds the whole process's resident memory.
fn execute_isolated(
    ctx: &RunContext<'_>,
    job: &Job,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    exe: &Path,
) -> JobEnd {
    let source = &ctx.sources[job.source];
    let board = &source.set.instances[job.instance].board;
    let goal = source.set.shape.goal;
    let command = isolated_command(ctx, exe, algorithm, heuristic, goal);
    let flag = ctx.interrupt.register(job.index);
    let mut limits = process_limits(ctx, flag);
    limits.timeout = ctx
        .limits
        .timeout
        .map(|t| t + t / 10 + Duration::from_secs(1));
    let result =
        external::process::run(&command, external::board_json(board).into_bytes(), &limits);
    ctx.interrupt.unregister(job.index);
    let mut row = blank_row(ctx, job, MeasuredBy::Process);
    let m = match result {
        Ok(m) => m,
        Err(e) => {
            row.message = Some(e.to_string());
            return JobEnd::Row(Box::new(row));
        }
    };
    fill_measured(&mut row, &m);
    if let Some(stop) = m.stop {
        if stop == Outcome::Cancelled {
            return JobEnd::Cancelled;
        }
        row.status = stop;
        row.message = Some(limit_message(ctx, stop, &m));
        return JobEnd::Row(Box::new(row));
    }
    let stdout = String::from_utf8_lossy(&m.stdout);
    let report = match m.exit {
        // Solved (0) or stopped by a limit (3): the JSON report.
        Exit::Code(0 | 3) => serde_json::from_str::<SolveJson>(stdout.trim()),
        exit => {
            row.status = if matches!(exit, Exit::Signal(_)) || exit == Exit::Code(101) {
                Outcome::Crashed
            } else {
                Outcome::Error
            };
            let out = stdout.trim();
            let mut msg = describe_exit(exit, &m.stderr_tail);
            if !out.is_empty() {
                msg += &format!("; stdout: {}", out.chars().take(300).collect::<String>());
            }
            row.message = Some(format!("isolated `bench solve`: {msg}"));
            return JobEnd::Row(Box::new(row));
        }
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            row.message = Some(format!("isolated `bench solve` printed no report: {e}"));
            return JobEnd::Row(Box::new(row));
        }
    };
    if !report.status.is_recorded() {
        row.message = Some(format!(
            "isolated `bench solve`: the search stopped without a reason (status {})",
            report.status
        ));
        return JobEnd::Row(Box::new(row));
    }
    row.status = report.status;
    row.optimal = Some(report.optimal);
    row.lower_bound = report.lower_bound;
    if algorithm.is_search() {
        row.nodes_expanded = Some(report.nodes_expanded);
        row.nodes_generated = Some(report.nodes_generated);
        row.iterations = report.iterations;
        row.peak_stored_nodes = Some(report.peak_stored_nodes);
    }
    row.peak_heap_bytes = report.peak_heap_bytes;
    row.search_ms = Some(report.search_ms);
    row.setup_ms = Some(report.setup_ms);
    row.initial_h = report.initial_h;
    if row.status == Outcome::Solved {
        // Held to the same standard as an external answer: replayed here too.
        let moves: Option<Vec<Move>> = report
            .moves
            .as_deref()
            .unwrap_or("")
            .chars()
            .map(Move::from_letter)
            .collect();
        match moves.map(|mv| (answer::check(board, goal, &mv), mv)) {
            Some((Ok(()), mv)) => {
                row.moves = Some(mv.len() as u32);
                if ctx.solutions {
                    row.solution = Some(moves_to_string(&mv));
                }
            }
            Some((Err(e), _)) => {
                row.status = Outcome::Error;
                row.message = Some(format!("internal error: the isolated solution: {e}"));
            }
            None => {
                row.status = Outcome::Error;
                row.message = Some(
                    "internal error: the isolated solution has a letter other than U/D/L/R".into(),
                );
            }
        }
    }
    JobEnd::Row(Box::new(row))
}

/// Runs `ctx.warmup` unrecorded runs of an in-process job on this thread (caches, page faults
/// of shared tables, CPU frequency), under the job's limits. A warm-up that does not solve (a
/// limit, an error, a panic, the run interrupted) ends the warm-ups: the measured run would
/// only repeat it.
fn warm_up(
    ctx: &RunContext<'_>,
    job: &Job,
    algorithm: Algorithm,
    heuristic: &HeuristicKind,
    limits: &Limits,
    solve_fn: &impl SolveFn,
) {
    let source = &ctx.sources[job.source];
    let board = &source.set.instances[job.instance].board;
    for _ in 0..ctx.warmup {
        if ctx.interrupt.is_interrupted() {
            return;
        }
        IN_JOB.with(|j| j.set(true));
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            solve_fn(board, source.set.shape.goal, algorithm, heuristic, limits)
        }));
        IN_JOB.with(|j| j.set(false));
        PANIC_AT.with(|p| p.borrow_mut().take());
        match result {
            Ok(Ok(report)) if report.status == Outcome::Solved => {}
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
/// run side by side, one per worker: first the optimal built-ins, then the rest (external
/// solvers, inexact algorithms), so that the optimal lengths of this run are known when the
/// rows that are compared with them are written.
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
                    jobs.iter().partition(|j| j.program.is_parallel());
                let (optimal, others): (Vec<&Job>, Vec<&Job>) = side_by_side
                    .into_iter()
                    .partition(|j| j.program.is_optimal());
                for job in solo {
                    if ctx.interrupt.is_interrupted() {
                        return;
                    }
                    let _ = tx.send(execute(ctx, job, solve_fn));
                }
                for phase in [optimal, others] {
                    phase
                        .par_iter()
                        .with_max_len(1)
                        .for_each_with(tx.clone(), |tx, job| {
                            if ctx.interrupt.is_interrupted() {
                                return;
                            }
                            let outcome = execute(ctx, job, solve_fn);
                            // The receiver only goes away after the workers stop.
                            let _ = tx.send(outcome);
                        });
                }
                drop(tx);
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
                shape: crate::board::Shape::new(3, 3, Goal::BlankLast),
                instances: vec![Instance {
                    id: "a".into(),
                    line: 2,
                    board,
                    scramble_moves: Some(2),
                }],
            },
            sha256: String::new(),
            skipped: vec![],
            optimal: vec![],
        }
    }

    fn job(index: usize, algorithm: Algorithm) -> Job {
        Job {
            index,
            source: 0,
            instance: 0,
            program: Program::Builtin(algorithm, HeuristicKind::Manhattan),
            repetition: 1,
        }
    }

    #[test]
    fn solved_row_and_panic_row_and_interrupt() {
        let sources = [source()];
        let interrupt = Interrupt::new();
        let limits = Limits::default();
        let scratch = std::env::temp_dir();
        let ctx = RunContext {
            run_id: "r1",
            sources: &sources,
            limits: &limits,
            cpu_limit: None,
            isolate: None,
            scratch: &scratch,
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
