//! [`prepare`]: everything a run checks before any job starts, in the order the user sees its
//! messages (the instance files, the plan, the locked output, a resume's consistency), ending
//! with the metadata written and the run announced.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, bail};

use super::options::{RESULTS_DIR, RunOptions, info};
use super::plan::{self, Job, Program};
use super::resume::{
    check_instance_files_unchanged, differences, leave_out_done, note_resumed, read_previous,
    refuse_or_warn,
};
use super::sink::{Sidecar, Sink};
use crate::infra::limits;
use crate::infra::output::{self, WriteError};
use crate::infra::provenance as meta;
use crate::infra::units::format_bytes;
use crate::instances::{INSTANCES_DIR, InstanceSource};
use crate::results::meta::{InstanceFileMeta, Meta, Session, SessionStatus, SolverMeta};
use crate::results::{self, Row, RowWriter};
use crate::search::Limits;

/// A run ready to start: everything checked, the output locked, the metadata written.
pub struct Prepared {
    pub(super) options: RunOptions,
    pub(super) sources: Vec<InstanceSource>,
    pub(super) jobs: Vec<Job>,
    pub(super) limits: Limits,
    pub(super) isolate_exe: Option<PathBuf>,
    pub(super) threads: usize,
    pub(super) run_id: String,
    pub(super) sink: Sink,
    pub(super) writer: RowWriter,
    pub(super) existing_rows: Vec<Row>,
    pub(super) sidecar: Arc<Sidecar>,
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
        program: meta::Build::current(),
        command_line: options.command_line.clone(),
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
                shape: s.set.shape,
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
        program: meta::Build::current(),
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
