//! The engine of `bench run`, in three steps: [`prepare`] checks everything before any job
//! starts (the plan, the locked output, a resume's consistency, the metadata), [`Prepared::execute`]
//! runs the jobs and writes each row as it finishes, and the result says how the session ended.
//! `cli::run` only maps arguments to [`RunOptions`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `eprintln!` that never panics: a diagnostic that cannot be written must not stop the run
/// ([`output::note`]).
macro_rules! note {
    ($($t:tt)*) => {
        output::note(format_args!("{}\n", format_args!($($t)*)))
    };
}

use super::plan::{self, Job, Program, Shard};
use super::runner::{self, Interrupt, JobEnd, RunContext};
use super::summary;
use crate::board::Goal;
use crate::external::Solver;
use crate::heuristic::HeuristicKind;
use crate::infra::output::{self, WriteError};
use crate::infra::provenance as meta;
use crate::infra::units::format_bytes;
use crate::infra::{limits, signals};
use crate::instances::{INSTANCES_DIR, InstanceSource};
use crate::results::meta::{InstanceFileMeta, Meta, Session, SessionStatus, SolverMeta};
use crate::results::{self, Outcome, Row, RowWriter};
use crate::search::{Algorithm, Limits};

/// Where results go by default.
pub const RESULTS_DIR: &str = "results";

/// Everything `bench run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Instance files; empty for the newest file in [`INSTANCES_DIR`].
    pub instances: Vec<PathBuf>,
    /// Goal override for every file.
    pub goal: Option<Goal>,
    /// Leave out unsolvable instances instead of stopping.
    pub skip_invalid: bool,
    /// Algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Heuristics.
    pub heuristics: Vec<HeuristicKind>,
    /// External solvers (`--solver NAME=COMMAND`).
    pub solvers: Vec<Solver>,
    /// Run the built-in algorithms as child processes (`--isolate`).
    pub isolate: bool,
    /// CPU-time limit of each job run as a process (`--cpu-limit`).
    pub cpu_limit: Option<Duration>,
    /// Repetitions of every job.
    pub repeat: u32,
    /// Unrecorded warm-up runs before each job.
    pub warmup: u32,
    /// Run only one slice of the jobs.
    pub shard: Option<Shard>,
    /// Seed of the job-order shuffle (random if `None`).
    pub seed: Option<u64>,
    /// Worker threads (all cores if `None`).
    pub threads: Option<usize>,
    /// Wall-clock limit per job.
    pub timeout: Option<Duration>,
    /// Generated-node limit per job.
    pub max_nodes: Option<u64>,
    /// Memory limit per job: `None` if not given (a resumed run keeps its limit, a new one gets
    /// [`limits::default_max_memory`]), `Some(None)` for unlimited.
    pub max_memory: Option<Option<u64>>,
    /// Output CSV (`-` for stdout); `None` for a new file under [`RESULTS_DIR`].
    pub out: Option<PathBuf>,
    /// Continue the run in `out`.
    pub resume: bool,
    /// Resume even if the run's settings differ from the file's.
    pub force: bool,
    /// Write the solution column.
    pub solutions: bool,
    /// Only warnings and errors on stderr.
    pub quiet: bool,
    /// Show a progress bar.
    pub progress: bool,
}

/// Where the rows go.
enum Sink {
    Stdout,
    File(PathBuf),
}

impl Sink {
    /// The name messages give the output: the file, or `-` for stdout.
    fn name(&self) -> PathBuf {
        match self {
            Sink::Stdout => PathBuf::from("-"),
            Sink::File(p) => p.clone(),
        }
    }
}

/// The metadata sidecar, shared with the signal watcher (which marks the session `interrupted`
/// when a second signal ends the process at once).
struct Sidecar {
    path: Option<PathBuf>,
    meta: Mutex<Meta>,
}

impl Sidecar {
    /// Updates the metadata and writes it.
    fn update(&self, f: impl FnOnce(&mut Meta)) -> Result<(), WriteError> {
        let mut meta = self.meta.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut meta);
        match &self.path {
            Some(p) => meta.write(p).map_err(|error| WriteError {
                path: p.clone(),
                error,
            }),
            None => Ok(()),
        }
    }

    /// Ends the current session with `status`.
    fn end_session(
        &self,
        status: SessionStatus,
        rows_written: Option<usize>,
    ) -> Result<(), WriteError> {
        self.update(|m| {
            let now = meta::now_rfc3339();
            if let Some(s) = m.sessions.last_mut() {
                s.end_time = Some(now.clone());
                s.status = status;
                if let Some(n) = rows_written {
                    s.rows_written = n;
                }
            }
            m.end_time = Some(now);
        })
    }
}

/// A run ready to start: everything checked, the output locked, the metadata written.
pub struct Prepared {
    options: RunOptions,
    sources: Vec<InstanceSource>,
    jobs: Vec<Job>,
    limits: Limits,
    isolate_exe: Option<PathBuf>,
    threads: usize,
    run_id: String,
    sink: Sink,
    writer: RowWriter,
    existing_rows: Vec<Row>,
    sidecar: Arc<Sidecar>,
}

fn info(options: &RunOptions, msg: impl AsRef<str>) {
    if !options.quiet {
        note!("{}", msg.as_ref());
    }
}

fn default_out() -> PathBuf {
    let ts = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let dir = Path::new(RESULTS_DIR);
    let mut path = dir.join(format!("run-{ts}.csv"));
    let mut i = 2;
    while path.exists() {
        path = dir.join(format!("run-{ts}-{i}.csv"));
        i += 1;
    }
    path
}

fn new_run_id() -> String {
    format!(
        "{}-{:06x}",
        chrono::Utc::now().format("%Y%m%dT%H%M%SZ"),
        rand::random::<u32>() & 0xff_ffff
    )
}

/// The differences between the run in a results file (its sidecar) and this command that would
/// make its rows not comparable.
fn differences(old: &Meta, new: &Meta) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |what: &str, then: String, now: String| {
        if then != now {
            out.push(format!("{what}: {then} then, {now} now"));
        }
    };
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v.join(",")
    };
    differ(
        "algorithms",
        sorted(&old.algorithms),
        sorted(&new.algorithms),
    );
    differ(
        "heuristics",
        sorted(&old.heuristics),
        sorted(&new.heuristics),
    );
    let solvers = |m: &Meta| {
        let mut v: Vec<String> = m
            .solvers
            .iter()
            .map(|s| format!("{}={}", s.name, s.command))
            .collect();
        v.sort();
        v.join(" ")
    };
    differ("--solver", solvers(old), solvers(new));
    differ(
        "--isolate",
        old.isolate.to_string(),
        new.isolate.to_string(),
    );
    differ("--repeat", old.repeat.to_string(), new.repeat.to_string());
    differ("--warmup", old.warmup.to_string(), new.warmup.to_string());
    let opt = |v: Option<u64>| v.map_or("none".into(), |v| v.to_string());
    let ms = |l: &Limits| opt(l.timeout.map(|t| t.as_millis() as u64));
    differ("--timeout (ms)", ms(&old.limits), ms(&new.limits));
    differ(
        "--max-nodes",
        opt(old.limits.max_nodes),
        opt(new.limits.max_nodes),
    );
    differ(
        "--max-memory (bytes)",
        opt(old.limits.max_memory_bytes),
        opt(new.limits.max_memory_bytes),
    );
    differ(
        "--cpu-limit (ms)",
        opt(old.cpu_limit_ms),
        opt(new.cpu_limit_ms),
    );
    let files = |m: &Meta| {
        let mut v: Vec<String> = m
            .instance_files
            .iter()
            .map(|f| format!("{} (goal {}, sha256 {})", f.path, f.goal, f.sha256))
            .collect();
        v.sort();
        v.join("; ")
    };
    differ("instance files", files(old), files(new));
    out
}

/// Checks everything, locks the output and writes the metadata; nothing runs yet. Each step is
/// one function below, called in the order the user sees its messages: the first failure stops
/// the run before anything is written.
pub fn prepare(options: RunOptions) -> anyhow::Result<Prepared> {
    let start_time = meta::now_rfc3339();
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let sources = load_sources(&options)?;
    let planned = plan_jobs(&options, &sources)?;

    let (sink, locked) = open_sink(&options)?;
    let out_name = sink.name();
    let meta_path = match &sink {
        Sink::File(p) => Some(meta::sidecar_path(p)),
        Sink::Stdout => None,
    };
    let (existing, previous_meta) =
        read_previous(&options, &out_name, locked.as_ref(), meta_path.as_deref())?;
    let job_limits = job_limits(&options, previous_meta.as_ref(), threads);
    let run_id = previous_meta
        .as_ref()
        .map(|m| m.run_id.clone())
        .or_else(|| existing.rows.first().map(|(_, r)| r.run_id.clone()))
        .unwrap_or_else(new_run_id);
    let mut meta = new_meta(
        &options,
        &sources,
        &planned,
        &run_id,
        threads,
        &job_limits,
        &start_time,
    );
    let session = new_session(meta.command_line.clone(), threads, start_time);
    let Planned {
        pairs,
        mut jobs,
        isolate_exe,
        ..
    } = planned;

    // A resume continues the same experiment, or is refused (unless --force).
    let mut refusals = Vec::new();
    if let Some(old) = &previous_meta {
        check_instance_files_unchanged(old, &meta, &out_name)?;
        refusals.extend(differences(old, &meta));
        meta.start_time = old.start_time.clone();
        meta.sessions = old.sessions.clone();
    }
    let before = jobs.len();
    let (in_plan, outside) = leave_out_done(&mut jobs, &sources, &pairs, &options, &existing);
    if let Some(outside) = outside {
        refusals.push(outside.describe(&out_name));
    }
    refuse_or_warn(&options, &refusals, &out_name)?;
    if options.resume && !existing.rows.is_empty() {
        note_resumed(&options, &existing, &out_name, in_plan, before, jobs.len());
    }
    meta.sessions.push(Session {
        jobs_to_run: jobs.len(),
        ..session
    });

    let write_error = |error| WriteError {
        path: out_name.clone(),
        error,
    };
    let writer = match locked {
        Some(l) => RowWriter::append(l.file, &existing).map_err(write_error)?,
        None => RowWriter::stdout().map_err(write_error)?,
    };
    let sidecar = Arc::new(Sidecar {
        path: meta_path,
        meta: Mutex::new(meta),
    });
    sidecar.update(|_| {})?;
    let prepared = Prepared {
        options,
        sources,
        jobs,
        limits: job_limits,
        isolate_exe,
        threads,
        run_id,
        sink,
        writer,
        existing_rows: existing.rows.into_iter().map(|(_, r)| r).collect(),
        sidecar,
    };
    prepared.announce();
    Ok(prepared)
}

/// The instance files of the run, loaded and checked: `--instances`, or the newest file in
/// [`INSTANCES_DIR`] (named on stderr, since the user did not name it). Unsolvable instances
/// left out by `--skip-invalid` are warned about even with `--quiet`: the run is smaller than
/// the files say.
fn load_sources(options: &RunOptions) -> anyhow::Result<Vec<InstanceSource>> {
    let paths = if options.instances.is_empty() {
        let newest = plan::newest_instance_file(Path::new(INSTANCES_DIR))
            .ok()
            .flatten()
            .with_context(|| {
                format!(
                    "--instances not given and no instance file in {INSTANCES_DIR}/: pass \
                     --instances FILE or create one with `bench gen`"
                )
            })?;
        info(
            options,
            format!(
                "instances: {} (newest file in {INSTANCES_DIR}/)",
                newest.display()
            ),
        );
        vec![newest]
    } else {
        options.instances.clone()
    };
    let sources = crate::instances::load_instances(&paths, options.goal, options.skip_invalid)?;
    for s in &sources {
        if !s.skipped.is_empty() {
            note!(
                "warning: {}: left out {} unsolvable instance(s) (--skip-invalid): {}",
                s.name,
                s.skipped.len(),
                s.skipped.join(", ")
            );
        }
    }
    Ok(sources)
}

/// The jobs of this command before a resume leaves out those already done.
struct Planned {
    /// The algorithm/heuristic pairs and solvers.
    pairs: Vec<Program>,
    /// This shard's jobs, shuffled by `seed`.
    jobs: Vec<Job>,
    /// How many jobs this shard plans (the sidecar records it).
    jobs_planned: usize,
    /// The seed of the job-order shuffle (recorded, so the order can be repeated).
    seed: u64,
    /// This program, when the built-in algorithms run as child processes (`--isolate`).
    isolate_exe: Option<PathBuf>,
}

/// Plans the jobs: the pairs (checked against the boards' sizes), `--cpu-limit` only where it
/// can hold, this shard's slice, and the shuffled order.
fn plan_jobs(options: &RunOptions, sources: &[InstanceSource]) -> anyhow::Result<Planned> {
    let pairs = plan::pairs(&options.algorithms, &options.heuristics, &options.solvers)?;
    plan::check_pairs(sources, &pairs)?;
    if options.cpu_limit.is_some() && !options.isolate && !options.algorithms.is_empty() {
        bail!(
            "--cpu-limit holds jobs run as processes (external solvers, and built-in algorithms \
             with --isolate); add --isolate to hold the built-in algorithms {} to it too, or \
             leave them out of --algos",
            options
                .algorithms
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let isolate_exe = if options.isolate && !options.algorithms.is_empty() {
        Some(std::env::current_exe().context(
            "--isolate: cannot find this program's executable to run the built-in algorithms as \
             child processes",
        )?)
    } else {
        None
    };
    let mut jobs = plan::jobs(sources, &pairs, options.repeat);
    if let Some(shard) = options.shard {
        jobs = shard.select(jobs);
    }
    let jobs_planned = jobs.len();
    let seed = options.seed.unwrap_or_else(rand::random);
    plan::shuffle(&mut jobs, seed);
    Ok(Planned {
        pairs,
        jobs,
        jobs_planned,
        seed,
        isolate_exe,
    })
}

/// Where the rows go, and for a file its lock (with what the file already held): stdout for
/// `--out -`, else `--out` or a new file under [`RESULTS_DIR`], its directory created.
fn open_sink(options: &RunOptions) -> anyhow::Result<(Sink, Option<output::LockedOutput>)> {
    let to_stdout = options.out.as_deref() == Some(Path::new("-"));
    if to_stdout && options.resume {
        bail!("--resume needs --out FILE (it cannot resume stdout)");
    }
    if to_stdout {
        return Ok((Sink::Stdout, None));
    }
    let out = match &options.out {
        Some(p) => p.clone(),
        None => {
            std::fs::create_dir_all(RESULTS_DIR)
                .with_context(|| format!("cannot create {RESULTS_DIR}/"))?;
            default_out()
        }
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("--out: cannot create {}", parent.display()))?;
    }
    let locked = output::open(&out, options.resume, crate::results::meta::holder)?;
    Ok((Sink::File(out), Some(locked)))
}

/// The message refusing to resume a file of another results schema version.
fn schema_refusal(out_name: &Path, version: u32) -> String {
    format!(
        "--resume: {} holds rows of results schema version {version}; this program writes \
         version {}, and one file never mixes two. Start a new --out (`bench report` and \
         `bench merge` read both versions)",
        out_name.display(),
        results::SCHEMA_VERSION
    )
}

/// What the output already holds (a resumed run): its rows, and the sidecar of the run that
/// wrote them if there is one. A file of another schema version is refused: one file never
/// mixes two.
fn read_previous(
    options: &RunOptions,
    out_name: &Path,
    locked: Option<&output::LockedOutput>,
    meta_path: Option<&Path>,
) -> anyhow::Result<(results::ResultsFile, Option<Meta>)> {
    match locked {
        Some(l) if !l.existing.is_empty() => {
            let existing = results::parse(out_name, &l.existing)
                .with_context(|| format!("--resume: cannot continue {}", out_name.display()))?;
            if let Some(v) = existing.version.filter(|&v| v != results::SCHEMA_VERSION) {
                bail!("{}", schema_refusal(out_name, v));
            }
            let previous = match meta_path.filter(|p| p.exists()) {
                Some(mp) => Some(Meta::read(mp).context("--resume")?),
                None => None,
            };
            Ok((existing, previous))
        }
        _ => {
            if options.resume {
                info(
                    options,
                    format!(
                        "resume: {} does not exist yet; starting the run",
                        out_name.display()
                    ),
                );
            }
            Ok((results::ResultsFile::default(), None))
        }
    }
}

/// The limits of every job. A resumed run keeps its memory limit unless one is given: the
/// default depends on this machine, and the rows of one run must share one limit.
fn job_limits(options: &RunOptions, previous: Option<&Meta>, threads: usize) -> Limits {
    let max_memory = match options.max_memory {
        Some(m) => m,
        None => match previous {
            Some(m) => m.limits.max_memory_bytes,
            None => Some(limits::default_max_memory(threads)),
        },
    };
    Limits {
        timeout: options.timeout,
        max_nodes: options.max_nodes,
        max_memory_bytes: max_memory,
        ..Limits::default()
    }
}

/// The sidecar of this command, without its sessions (a resume adds the earlier ones).
fn new_meta(
    options: &RunOptions,
    sources: &[InstanceSource],
    planned: &Planned,
    run_id: &str,
    threads: usize,
    job_limits: &Limits,
    start_time: &str,
) -> Meta {
    Meta {
        schema_version: results::SCHEMA_VERSION,
        run_id: run_id.to_string(),
        program: meta::Program::current(),
        command_line: std::env::args().collect(),
        threads,
        limits: job_limits.clone(),
        job_order_seed: planned.seed,
        shard: options.shard.map(|s| s.to_string()),
        algorithms: options
            .algorithms
            .iter()
            .map(|a| a.name().to_string())
            .collect(),
        heuristics: options.heuristics.iter().map(|h| h.name()).collect(),
        repeat: options.repeat,
        solvers: options
            .solvers
            .iter()
            .map(|s| SolverMeta {
                name: s.name.clone(),
                command: s.command.clone(),
            })
            .collect(),
        isolate: options.isolate,
        cpu_limit_ms: options.cpu_limit.map(|c| c.as_millis() as u64),
        warmup: options.warmup,
        jobs_planned: planned.jobs_planned,
        host: meta::Host::current(),
        instance_files: sources
            .iter()
            .map(|s| InstanceFileMeta {
                path: s.name.clone(),
                sha256: s.sha256.clone(),
                instances: s.set.instances.len(),
                rows: s.set.shape.rows,
                cols: s.set.shape.cols,
                goal: s.set.shape.goal,
                skipped_unsolvable: s.skipped.clone(),
            })
            .collect(),
        start_time: start_time.to_string(),
        end_time: None,
        sessions: Vec::new(),
    }
}

/// This process's session, `running` until [`Sidecar::end_session`]; the caller fills
/// `jobs_to_run` once a resume has left out the jobs already done.
fn new_session(command_line: Vec<String>, threads: usize, start_time: String) -> Session {
    Session {
        command_line,
        program: meta::Program::current(),
        threads,
        start_time,
        end_time: None,
        jobs_to_run: 0,
        rows_written: 0,
        status: SessionStatus::Running,
        pid: Some(std::process::id()),
        hostname: meta::Host::current().hostname,
    }
}

/// Refuses, even with `--force`, to continue on an instance file whose content changed: the
/// rows' instance ids would name other boards than the new rows'.
fn check_instance_files_unchanged(old: &Meta, now: &Meta, out_name: &Path) -> anyhow::Result<()> {
    let changed: Vec<String> = now
        .instance_files
        .iter()
        .filter_map(|now| {
            let then = old
                .instance_files
                .iter()
                .find(|f| f.path == now.path && f.sha256 != now.sha256)?;
            Some(format!(
                "{} (sha256 {} then, {} now)",
                now.path, then.sha256, now.sha256
            ))
        })
        .collect();
    if !changed.is_empty() {
        bail!(
            "--resume: instance file {} changed since the run in {} started; its rows are \
             results on other boards, so the run cannot continue, not even with --force. \
             Restore the file, or start a new --out",
            changed.join(", "),
            out_name.display()
        );
    }
    Ok(())
}

/// Rows of a resumed file that are no jobs of this command: how many, and the first one.
struct RowsOutsidePlan {
    count: usize,
    line: u64,
    key: String,
}

impl RowsOutsidePlan {
    /// The refusal that names them.
    fn describe(&self, out_name: &Path) -> String {
        format!(
            "{} row(s) are not jobs of this command, e.g. {}:{}: {}",
            self.count,
            out_name.display(),
            self.line,
            self.key
        )
    }
}

/// Leaves out the jobs the file's rows already did; returns how many were left out, and the
/// rows that match no job of this command (another run's: a refusal).
fn leave_out_done(
    jobs: &mut Vec<Job>,
    sources: &[InstanceSource],
    pairs: &[Program],
    options: &RunOptions,
    existing: &results::ResultsFile,
) -> (usize, Option<RowsOutsidePlan>) {
    let done: HashSet<_> = existing.rows.iter().map(|(_, r)| r.key()).collect();
    let before = jobs.len();
    jobs.retain(|j| !done.contains(&j.key(sources)));
    let in_plan = before - jobs.len();
    if in_plan >= done.len() {
        return (in_plan, None);
    }
    // Rows may be of jobs of another shard: only those outside the whole plan are refused.
    let planned: HashSet<_> = plan::jobs(sources, pairs, options.repeat)
        .iter()
        .map(|j| j.key(sources))
        .collect();
    let (line, row) = existing
        .rows
        .iter()
        .find(|(_, r)| !planned.contains(&r.key()))
        .expect("a row outside the plan");
    let outside = RowsOutsidePlan {
        count: done.len() - in_plan,
        line: *line,
        key: row.key().to_string(),
    };
    (in_plan, Some(outside))
}

/// Stops a resume that would mix two experiments in one file, or with `--force` warns about
/// each difference and goes on.
fn refuse_or_warn(
    options: &RunOptions,
    refusals: &[String],
    out_name: &Path,
) -> anyhow::Result<()> {
    if refusals.is_empty() {
        return Ok(());
    }
    if !options.force {
        bail!(
            "--resume: {} holds a different run; resuming would mix two experiments in one \
             file:\n  {}\nrepeat the original command with --resume, or pass --force to \
             continue anyway",
            out_name.display(),
            refusals.join("\n  ")
        );
    }
    for r in refusals {
        note!("warning: --resume --force: {}: {r}", out_name.display());
    }
    Ok(())
}

/// Says what a resume found: a torn last line cut off (a warning: a row was lost), and how
/// many jobs are done and left.
fn note_resumed(
    options: &RunOptions,
    existing: &results::ResultsFile,
    out_name: &Path,
    in_plan: usize,
    before: usize,
    to_run: usize,
) {
    if let Some(torn) = &existing.torn {
        note!(
            "warning: {}:{}: cut off an incomplete last line ({} bytes) left by an interrupted run",
            out_name.display(),
            torn.line,
            torn.bytes
        );
    }
    info(
        options,
        format!(
            "resume: {in_plan} of {before} jobs already in {}, {to_run} to run",
            out_name.display(),
        ),
    );
}

impl Prepared {
    /// Says on stderr what is about to run: the jobs, threads and limits, and where the results
    /// and metadata go.
    fn announce(&self) {
        let Prepared {
            options,
            jobs,
            limits,
            threads,
            run_id,
            ..
        } = self;
        info(
            options,
            format!(
                "run {run_id}: {} jobs on {threads} thread(s), timeout {}, max nodes {}, max memory {} per job{}{}{}",
                jobs.len(),
                limits.timeout.map_or("none".into(), |t| format!("{t:?}")),
                limits.max_nodes.map_or("none".into(), |n| n.to_string()),
                limits
                    .max_memory_bytes
                    .map_or("none".into(), |b| format_bytes(b as f64)),
                options
                    .cpu_limit
                    .map_or(String::new(), |c| format!(", CPU limit {c:?} per process")),
                if self.isolate_exe.is_some() {
                    ", built-ins isolated"
                } else {
                    ""
                },
                options
                    .shard
                    .map_or(String::new(), |s| format!(", shard {s}")),
            ),
        );
        match (&self.sink, &self.sidecar.path) {
            (Sink::File(out), Some(mp)) => info(
                options,
                format!("results: {} (metadata: {})", out.display(), mp.display()),
            ),
            _ => info(options, "results: stdout (no metadata sidecar)"),
        }
    }
}

/// Wrong answers, rejections and crashes of external solvers named on stderr (the rest are
/// only counted: a solver that is wrong on every board must not flood the terminal).
const MAX_ANSWER_NOTES: usize = 10;

/// Writes a line to stderr above the progress bar.
fn note(pb: &ProgressBar, msg: impl AsRef<str>) {
    pb.suspend(|| note!("{}", msg.as_ref()));
}

impl Prepared {
    /// Runs the jobs, writing each row as it finishes; returns the exit status: 0 when every job
    /// ran, 128 + the signal when SIGINT/SIGTERM stopped it (rows kept, session
    /// `interrupted`), 141 when the reader of stdout went away. A failed write is an error
    /// ([`WriteError`]).
    pub fn execute(self) -> anyhow::Result<i32> {
        let interrupt = Arc::new(Interrupt::new());
        catch_signals(&interrupt, &self.sidecar);
        self.execute_with(interrupt, None)
    }

    /// [`Prepared::execute`] for a program that embeds the engine (the Python package): no
    /// signal handler is installed; `interrupt` is the caller's stop (it ends the run as
    /// SIGINT would, exit status 130, finished rows kept, session `interrupted`), and
    /// `finished` counts the rows written, for the caller's own progress display.
    pub fn execute_embedded(
        self,
        interrupt: Arc<Interrupt>,
        finished: Arc<AtomicUsize>,
    ) -> anyhow::Result<i32> {
        self.execute_with(interrupt, Some(finished))
    }

    /// How many jobs this session runs (a resume's finished ones left out).
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    /// The jobs, with signals caught by the caller (`finished`: `None`) or by the embedding
    /// program (`Some`, its counter of rows written).
    fn execute_with(
        self,
        interrupt: Arc<Interrupt>,
        finished: Option<Arc<AtomicUsize>>,
    ) -> anyhow::Result<i32> {
        let started = Instant::now();
        let Prepared {
            options,
            sources,
            jobs,
            limits,
            isolate_exe,
            threads,
            run_id,
            sink,
            mut writer,
            existing_rows,
            sidecar,
        } = self;
        let out_name = sink.name();
        let pb = progress_bar(&options, jobs.len());
        let scratch = std::env::temp_dir();
        let ctx = RunContext {
            run_id: &run_id,
            sources: &sources,
            limits: &limits,
            cpu_limit: options.cpu_limit,
            isolate: isolate_exe.as_deref(),
            scratch: &scratch,
            solutions: options.solutions,
            warmup: options.warmup,
            interrupt: &interrupt,
        };
        let mut known = KnownOptimal::new(&sources, &existing_rows);
        let mut new_rows: Vec<Row> = Vec::new();
        let mut tally = Tally::default();
        let solve_fn = crate::search::solve;
        let result = runner::run_all(&ctx, &jobs, threads, &solve_fn, |outcome| {
            let JobEnd::Row(mut row) = outcome else {
                return Ok(());
            };
            known.judge(&mut row);
            writer.write(&row)?;
            tally.count(&row, &pb, options.quiet);
            pb.inc(1);
            pb.set_message(tally.to_string());
            if let Some(n) = &finished {
                n.fetch_add(1, Ordering::SeqCst);
            }
            new_rows.push(*row);
            Ok::<(), std::io::Error>(())
        });
        pb.finish_and_clear();
        drop(writer);

        let signal = match finished {
            None => signals::received(),
            Some(_) => interrupt.is_interrupted().then_some(libc::SIGINT),
        }
        .filter(|_| result.is_ok());
        let status = match (&result, signal) {
            (Err(_), _) => SessionStatus::Failed,
            (Ok(()), Some(_)) => SessionStatus::Interrupted,
            (Ok(()), None) => SessionStatus::Complete,
        };
        let ended = sidecar.end_session(status, Some(new_rows.len()));
        if let Err(error) = result {
            return run_failure(error, &sink, out_name);
        }
        ended?;
        if !options.quiet {
            print_summary(existing_rows, &new_rows, &sink, started.elapsed());
        }
        match signal {
            Some(sig) => {
                note_interrupted(&options, &out_name, sig, jobs.len(), new_rows.len());
                Ok(signals::exit_status(sig))
            }
            None => Ok(0),
        }
    }
}

/// A run the runner could not finish: 141 (quietly, like SIGPIPE) when the reader of stdout
/// went away, else the error; of writes, the first that failed is the one reported.
fn run_failure(
    error: runner::RunError<std::io::Error>,
    sink: &Sink,
    out_name: PathBuf,
) -> anyhow::Result<i32> {
    match error {
        runner::RunError::Sink(error) => {
            if matches!(sink, Sink::Stdout) && error.kind() == std::io::ErrorKind::BrokenPipe {
                // The reader of stdout went away (e.g. `| head`): stop quietly, like SIGPIPE.
                return Ok(141);
            }
            Err(WriteError {
                path: out_name,
                error,
            }
            .into())
        }
        e @ (runner::RunError::Pool(_) | runner::RunError::WorkerPanic) => bail!("{e}"),
    }
}

/// The end-of-run table over all the file's rows (a resume's earlier ones too) and how many
/// rows this session wrote, and where.
fn print_summary(mut all: Vec<Row>, new_rows: &[Row], sink: &Sink, elapsed: Duration) {
    all.extend(new_rows.iter().cloned());
    output::note(format_args!(
        "\n{}",
        summary::render(&all, new_rows.len(), elapsed)
    ));
    note!(
        "{} row(s) written{}",
        new_rows.len(),
        match sink {
            Sink::Stdout => String::new(),
            Sink::File(p) => format!(" to {}", p.display()),
        }
    );
}

/// SIGINT and SIGTERM: the first stops the running jobs (no row is written for them, the rest
/// are flushed); a second ends the process at once, marking the session `interrupted` first.
fn catch_signals(interrupt: &Arc<Interrupt>, sidecar: &Arc<Sidecar>) {
    let first = interrupt.clone();
    let last_words = sidecar.clone();
    let failed = sidecar.clone();
    // stdout or stderr cannot be written: the rows so far are kept, the session says `failed`.
    output::on_write_failure(move || {
        let _ = failed.end_session(SessionStatus::Failed, None);
    });
    let installed = signals::install(
        move |_| first.interrupt(),
        move |sig| {
            // A second signal ends the process now: every finished row is flushed.
            let _ = last_words.end_session(SessionStatus::Interrupted, None);
            note!("{}: stopped at once", signals::name(sig));
        },
    );
    if let Err(e) = installed {
        note!("warning: cannot catch SIGINT/SIGTERM ({e}); an interrupted run keeps its rows");
    }
}

/// The progress bar on stderr with `--progress` (hidden with `--quiet` or without it).
fn progress_bar(options: &RunOptions, jobs: usize) -> ProgressBar {
    let pb = if options.progress && !options.quiet {
        ProgressBar::with_draw_target(Some(jobs as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} jobs  {msg}  {elapsed_precise} elapsed, ETA {eta}",
        )
        .expect("valid progress template"),
    );
    pb
}

/// How the rows written so far ended, for the progress bar's message; wrong answers and
/// errors are named on stderr as they come.
#[derive(Default)]
struct Tally {
    solved: usize,
    limited: usize,
    errors: usize,
    wrong: usize,
}

impl Tally {
    /// Counts a row; names the first [`MAX_ANSWER_NOTES`] wrong answers, rejections and crashes
    /// (unless `quiet`) and every error.
    fn count(&mut self, row: &Row, pb: &ProgressBar, quiet: bool) {
        match row.status {
            Outcome::Solved => self.solved += 1,
            Outcome::WrongAnswer | Outcome::Rejected | Outcome::Crashed => {
                self.wrong += 1;
                // The first few on stderr; all of them are in the CSV.
                if self.wrong <= MAX_ANSWER_NOTES && !quiet {
                    note(
                        pb,
                        format!(
                            "{}: {} instance {} {}: {}{}",
                            row.status,
                            row.instance_file,
                            row.instance_id,
                            row.algorithm,
                            row.message.as_deref().unwrap_or(""),
                            if self.wrong == MAX_ANSWER_NOTES {
                                " (further wrong answers, rejections and crashes only in \
                                 the results)"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
            Outcome::Error => {
                self.errors += 1;
                note(
                    pb,
                    format!(
                        "error: {} instance {} {}/{}: {}",
                        row.instance_file,
                        row.instance_id,
                        row.algorithm,
                        row.heuristic,
                        row.message.as_deref().unwrap_or("")
                    ),
                );
            }
            _ => self.limited += 1,
        }
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "solved {}, limits hit {}", self.solved, self.limited)?;
        if self.wrong > 0 {
            write!(f, ", wrong/rejected/crashed {}", self.wrong)?;
        }
        if self.errors > 0 {
            write!(f, ", errors {}", self.errors)?;
        }
        Ok(())
    }
}

/// Tells an interrupted run how to finish: the same command plus `--resume` (and the `--out`
/// the run chose, if the user gave none).
fn note_interrupted(options: &RunOptions, out_name: &Path, sig: i32, jobs: usize, done: usize) {
    note!(
        "interrupted ({}): {} of {} jobs not run; finish with the same command plus --resume{}",
        signals::name(sig),
        jobs - done,
        jobs,
        if options.out.is_none() {
            format!(" --out {}", out_name.display())
        } else {
            String::new()
        }
    );
}

/// The shortest solution lengths known so far, per instance: the instance files' `optimal`
/// columns and the solutions of optimal built-in algorithms (earlier sessions' rows included).
/// Rows of algorithms that do not guarantee optimality are compared with them as they are
/// written ([`KnownOptimal::judge`]); the runner runs those jobs last.
struct KnownOptimal {
    lengths: HashMap<(String, String), u32>,
}

impl KnownOptimal {
    fn new(sources: &[InstanceSource], rows: &[Row]) -> KnownOptimal {
        let mut lengths = HashMap::new();
        for s in sources {
            for (i, inst) in s.set.instances.iter().enumerate() {
                if let Some(n) = s.known_optimal(i) {
                    lengths.insert((s.name.clone(), inst.id.clone()), n);
                }
            }
        }
        let mut known = KnownOptimal { lengths };
        for r in rows {
            known.learn(r);
        }
        known
    }

    /// Takes the length of an optimal algorithm's solution.
    fn learn(&mut self, row: &Row) {
        if row.status == Outcome::Solved
            && row.optimal == Some(true)
            && let Some(n) = row.moves
        {
            self.lengths
                .entry((row.instance_file.clone(), row.instance_id.clone()))
                .or_insert(n);
        }
    }

    /// Fills `known_optimal` and `suboptimal` of a row without an optimality guarantee, or
    /// learns from one with it. A solution shorter than the known optimum (a wrong `optimal`
    /// column, or a bug) is noted in `message`.
    fn judge(&mut self, row: &mut Row) {
        if row.optimal == Some(true) {
            self.learn(row);
            return;
        }
        let key = (row.instance_file.clone(), row.instance_id.clone());
        let Some(&best) = self.lengths.get(&key) else {
            return;
        };
        row.known_optimal = Some(best);
        if row.status == Outcome::Solved
            && let Some(n) = row.moves
        {
            row.suboptimal = Some(n > best);
            if n < best {
                let note = format!(
                    "shorter than the known optimal length {best}: the instance file's optimal \
                     column or an optimal algorithm is wrong"
                );
                row.message = Some(match row.message.take() {
                    Some(m) => format!("{m}; {note}"),
                    None => note,
                });
            }
        }
    }
}

/// Runs `bench run`: [`prepare`], then [`Prepared::execute`].
pub fn run(options: RunOptions) -> anyhow::Result<i32> {
    prepare(options)?.execute()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal is one sentence with single spaces (its source lines once lacked the `\`
    /// that joins them, printing a run of spaces mid-sentence).
    #[test]
    fn schema_refusal_reads_as_one_sentence() {
        let msg = schema_refusal(Path::new("results/old.csv"), 2);
        assert_eq!(
            msg,
            format!(
                "--resume: results/old.csv holds rows of results schema version 2; this program \
                 writes version {}, and one file never mixes two. Start a new --out (`bench \
                 report` and `bench merge` read both versions)",
                results::SCHEMA_VERSION
            )
        );
        assert!(!msg.contains("  "), "{msg}");
    }
}
