//! `bench run`: algorithms x heuristics over instance files on a rayon pool, one CSV row per
//! job, a metadata sidecar, a progress bar and a summary table.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::harness::limits::{self, format_bytes};
use crate::harness::meta::{self, InstanceFileMeta, LimitsMeta, Meta, Session};
use crate::harness::plan::{self, Shard};
use crate::harness::record::{self, Row, RowWriter};
use crate::harness::runner::{self, Interrupt, JobLimits, Outcome, RunContext};
use crate::harness::summary;

use crate::board::Goal;
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;

/// The directory `bench gen` writes to and `bench run` takes its default from.
const INSTANCES_DIR: &str = "instances";
/// Where results go by default.
const RESULTS_DIR: &str = "results";

/// A duration limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct DurationLimit(Option<Duration>);

fn parse_duration_limit(s: &str) -> Result<DurationLimit, String> {
    limits::parse_duration(s)
        .map(DurationLimit)
        .map_err(|e| e.to_string())
}

/// A size limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct SizeLimit(Option<u64>);

fn parse_size_limit(s: &str) -> Result<SizeLimit, String> {
    limits::parse_optional_size(s)
        .map(SizeLimit)
        .map_err(|e| e.to_string())
}

/// Arguments of `bench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Instance files: the project's format, Korf's tsv layout or JSON matrices
    /// [default: the newest file in instances/].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub instances: Vec<PathBuf>,
    /// Algorithms, comma-separated: bfs, bibfs, dijkstra, astar, idastar, idastar-par (one
    /// instance on every thread; such jobs run one at a time), idastar-fsm and
    /// idastar-par-fsm (with duplicate-path pruning), greedy, wastar:W, wida:W, approx.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "idastar",
        value_name = "LIST"
    )]
    pub algos: Vec<Algorithm>,
    /// Heuristics, comma-separated: none, misplaced, manhattan, linear-conflict,
    /// walking-distance, pdb, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6, pdb:full or tile
    /// groups like pdb:1,2,3/4,5,6 (blind algorithms run once with none).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "manhattan",
        value_name = "LIST"
    )]
    pub heuristics: Vec<HeuristicKind>,
    /// Goal layout for every file, overriding what the files say: blank-last or blank-first.
    #[arg(long)]
    pub goal: Option<Goal>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Repetitions of every job (for timing).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Wall-clock limit per job: 60s, 500ms, 2m, or none.
    #[arg(long, default_value = "60s", value_parser = parse_duration_limit, value_name = "DURATION")]
    pub timeout: DurationLimit,
    /// Limit of generated nodes per job.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Memory limit per job, e.g. 64MiB, 2GiB, or none [default: 70% of physical memory
    /// divided by the number of threads].
    #[arg(long, value_parser = parse_size_limit, value_name = "SIZE")]
    pub max_memory: Option<SizeLimit>,
    /// Output CSV; `-` for stdout [default: results/run-<UTC time>.csv]. The metadata goes to
    /// <FILE>.meta.json.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write each solution (blank moves as U/D/L/R) in the solution column.
    #[arg(long)]
    pub solutions: bool,
    /// No progress bar, no summary; only warnings and errors on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue an interrupted run: keep the rows in --out, run only the missing jobs.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Run only the K-th of N disjoint slices of the job list (e.g. 2/8), for clusters.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Leave out unsolvable instances (with a warning) instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Seed of the job-order shuffle [default: random, recorded in the metadata].
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Writes a line to stderr above the progress bar.
fn note(pb: &ProgressBar, msg: impl AsRef<str>) {
    pb.suspend(|| eprintln!("{}", msg.as_ref()));
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

/// Runs `bench run`; returns the exit status.
pub fn run(args: RunArgs) -> anyhow::Result<i32> {
    let start_time = meta::now_rfc3339();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let info = |msg: String| {
        if !args.quiet {
            eprintln!("{msg}");
        }
    };

    // --- the plan: everything is checked before any job starts ---
    let paths = if args.instances.is_empty() {
        let newest = plan::newest_instance_file(Path::new(INSTANCES_DIR))
            .ok()
            .flatten()
            .with_context(|| {
                format!(
                    "--instances not given and no instance file in {INSTANCES_DIR}/: pass \
                     --instances FILE or create one with `bench gen`"
                )
            })?;
        info(format!(
            "instances: {} (newest file in {INSTANCES_DIR}/)",
            newest.display()
        ));
        vec![newest]
    } else {
        args.instances.clone()
    };
    let sources = plan::load_instances(&paths, args.goal, args.skip_invalid)?;
    for s in &sources {
        if !s.skipped.is_empty() {
            eprintln!(
                "warning: {}: left out {} unsolvable instance(s) (--skip-invalid): {}",
                s.name,
                s.skipped.len(),
                s.skipped.join(", ")
            );
        }
    }
    let pairs = plan::pairs(&args.algos, &args.heuristics)?;
    plan::check_pairs(&sources, &pairs)?;
    let mut jobs = plan::jobs(&sources, &pairs, args.repeat);
    if let Some(shard) = args.shard {
        jobs = shard.select(jobs);
    }
    let jobs_planned = jobs.len();
    let seed = args.seed.unwrap_or_else(rand::random);
    plan::shuffle(&mut jobs, seed);

    let max_memory = match args.max_memory {
        Some(SizeLimit(m)) => m,
        None => Some(limits::default_max_memory(threads)),
    };
    let job_limits = JobLimits {
        timeout: args.timeout.0,
        max_nodes: args.max_nodes,
        max_memory,
    };

    // --- the output: fresh, or resumed ---
    let to_stdout = args.out.as_deref() == Some(Path::new("-"));
    if to_stdout && args.resume {
        bail!("--resume needs --out FILE (it cannot resume stdout)");
    }
    let out = match &args.out {
        Some(p) => p.clone(),
        None => {
            std::fs::create_dir_all(RESULTS_DIR)
                .with_context(|| format!("cannot create {RESULTS_DIR}/"))?;
            default_out()
        }
    };
    if !to_stdout && let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("--out: cannot create {}", parent.display()))?;
    }
    let meta_path = (!to_stdout).then(|| meta::sidecar_path(&out));
    let mut existing_rows: Vec<Row> = Vec::new();
    let mut previous_meta: Option<Meta> = None;
    let resuming = args.resume && out.exists();
    if args.resume && !out.exists() {
        info(format!(
            "resume: {} does not exist yet; starting the run",
            out.display()
        ));
    }
    if !args.resume && !to_stdout && out.exists() {
        bail!(
            "--out: {} already exists; pass --resume to continue that run, or choose another file",
            out.display()
        );
    }
    let mut writer = if resuming {
        let existing = record::read_results(&out, true)
            .with_context(|| format!("--resume: cannot continue {}", out.display()))?;
        if existing.torn_bytes > 0 {
            eprintln!(
                "warning: {}: cut off an incomplete last line ({} bytes) left by an interrupted run",
                out.display(),
                existing.torn_bytes
            );
        }
        if let Some(mp) = meta_path.as_deref().filter(|p| p.exists()) {
            let m = Meta::read(mp).context("--resume")?;
            for s in &sources {
                if let Some(old) = m.instance_files.iter().find(|f| f.path == s.name)
                    && old.sha256 != s.sha256
                {
                    bail!(
                        "--resume: {} changed since this run started (sha256 {} then, {} now); \
                         its rows would not be comparable",
                        s.name,
                        old.sha256,
                        s.sha256
                    );
                }
            }
            previous_meta = Some(m);
        }
        let done: std::collections::HashSet<_> =
            existing.rows.iter().map(|(_, r)| r.key()).collect();
        let before = jobs.len();
        jobs.retain(|j| !done.contains(&j.key(&sources)));
        let in_plan = before - jobs.len();
        if in_plan < done.len() {
            eprintln!(
                "warning: {}: {} row(s) are not jobs of this command (different options?); kept as they are",
                out.display(),
                done.len() - in_plan
            );
        }
        info(format!(
            "resume: {} of {} jobs already in {}, {} to run",
            in_plan,
            before,
            out.display(),
            jobs.len()
        ));
        let w = RowWriter::append(&out, &existing)?;
        existing_rows = existing.rows.into_iter().map(|(_, r)| r).collect();
        w
    } else {
        RowWriter::create(&out)?
    };
    let run_id = previous_meta
        .as_ref()
        .map(|m| m.run_id.clone())
        .or_else(|| existing_rows.first().map(|r| r.run_id.clone()))
        .unwrap_or_else(new_run_id);

    // --- metadata ---
    let command_line: Vec<String> = std::env::args().collect();
    let session = Session {
        command_line: command_line.clone(),
        program: meta::Program::current(),
        threads,
        start_time: start_time.clone(),
        end_time: None,
        jobs_to_run: jobs.len(),
        rows_written: 0,
        status: "running".into(),
    };
    let mut meta = Meta {
        schema_version: record::SCHEMA_VERSION,
        run_id: run_id.clone(),
        program: meta::Program::current(),
        command_line,
        threads,
        limits: LimitsMeta {
            timeout_ms: job_limits.timeout.map(|t| t.as_millis() as u64),
            max_nodes: job_limits.max_nodes,
            max_memory_bytes: job_limits.max_memory,
        },
        job_order_seed: seed,
        shard: args.shard.map(|s| s.to_string()),
        algorithms: args.algos.iter().map(|a| a.name().to_string()).collect(),
        heuristics: args.heuristics.iter().map(|h| h.name()).collect(),
        repeat: args.repeat,
        jobs_planned,
        host: meta::Host::current(),
        instance_files: sources
            .iter()
            .map(|s| InstanceFileMeta {
                path: s.name.clone(),
                sha256: s.sha256.clone(),
                instances: s.set.instances.len(),
                rows: s.set.rows,
                cols: s.set.cols,
                goal: s.set.goal.to_string(),
                skipped_unsolvable: s.skipped.clone(),
            })
            .collect(),
        start_time: previous_meta
            .as_ref()
            .map_or(start_time, |m| m.start_time.clone()),
        end_time: None,
        sessions: previous_meta
            .map(|m| m.sessions)
            .unwrap_or_default()
            .into_iter()
            .chain([session])
            .collect(),
    };
    let write_meta = |meta: &Meta| -> anyhow::Result<()> {
        if let Some(mp) = &meta_path {
            meta.write(mp)
                .with_context(|| format!("cannot write {}", mp.display()))?;
        }
        Ok(())
    };
    write_meta(&meta)?;

    info(format!(
        "run {run_id}: {} jobs on {threads} thread(s), timeout {}, max nodes {}, max memory {} per job{}",
        jobs.len(),
        job_limits
            .timeout
            .map_or("none".into(), |t| format!("{t:?}")),
        job_limits
            .max_nodes
            .map_or("none".into(), |n| n.to_string()),
        job_limits.max_memory.map_or("none".into(), format_bytes),
        args.shard.map_or(String::new(), |s| format!(", shard {s}")),
    ));
    if to_stdout {
        info("results: stdout (no metadata sidecar)".into());
    } else {
        info(format!(
            "results: {} (metadata: {})",
            out.display(),
            meta_path
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        ));
    }

    // --- Ctrl-C: stop running jobs, write no row for them, flush, exit 130 ---
    let interrupt = Arc::new(Interrupt::new());
    {
        let interrupt = interrupt.clone();
        let result = ctrlc::set_handler(move || {
            if interrupt.is_interrupted() {
                // Second Ctrl-C: every finished row is already flushed.
                std::process::exit(130);
            }
            interrupt.interrupt();
        });
        if let Err(e) = result {
            eprintln!("warning: cannot catch Ctrl-C ({e}); an interrupted run keeps its rows");
        }
    }

    // --- the run ---
    let pb = if show_progress {
        ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} jobs  {msg}  {elapsed_precise} elapsed, ETA {eta}",
        )
        .expect("valid progress template"),
    );
    let ctx = RunContext {
        run_id: &run_id,
        sources: &sources,
        limits: &job_limits,
        solutions: args.solutions,
        interrupt: &interrupt,
    };
    let mut new_rows: Vec<Row> = Vec::new();
    let (mut solved, mut limited, mut errors) = (0usize, 0usize, 0usize);
    let solve_fn = crate::search::solve;
    let result = runner::run_all(&ctx, &jobs, threads, &solve_fn, |outcome| {
        let Outcome::Row(row) = outcome else {
            return Ok(());
        };
        writer
            .write(&row)
            .with_context(|| format!("cannot write to {}", out.display()))?;
        match row.status.as_str() {
            "solved" => solved += 1,
            "error" => {
                errors += 1;
                note(
                    &pb,
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
            _ => limited += 1,
        }
        pb.inc(1);
        pb.set_message(format!(
            "solved {solved}, limits hit {limited}{}",
            if errors > 0 {
                format!(", errors {errors}")
            } else {
                String::new()
            }
        ));
        new_rows.push(*row);
        anyhow::Ok(())
    });
    pb.finish_and_clear();
    drop(writer);

    let interrupted = interrupt.is_interrupted() && result.is_ok();
    if let Some(s) = meta.sessions.last_mut() {
        s.end_time = Some(meta::now_rfc3339());
        s.rows_written = new_rows.len();
        s.status = if result.is_err() {
            "failed".into()
        } else if interrupted {
            "interrupted".into()
        } else {
            "complete".into()
        };
    }
    meta.end_time = Some(meta::now_rfc3339());
    write_meta(&meta)?;
    match result {
        Ok(()) => {}
        Err(runner::RunError::Sink(e)) => {
            let broken_pipe = e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
            if to_stdout && broken_pipe {
                // The reader of stdout went away (e.g. `| head`): stop quietly, like SIGPIPE.
                return Ok(141);
            }
            return Err(e);
        }
        Err(e @ runner::RunError::Pool(_)) | Err(e @ runner::RunError::WorkerPanic) => {
            bail!("{e}")
        }
    }

    if !args.quiet {
        let mut all: Vec<&Row> = existing_rows.iter().chain(&new_rows).collect();
        // Group in the order the pairs were given.
        let rank = |r: &Row| {
            pairs
                .iter()
                .position(|(a, h)| a.name() == r.algorithm && h.name() == r.heuristic)
                .unwrap_or(usize::MAX)
        };
        all.sort_by_key(|r| rank(r));
        eprint!("\n{}", summary::render(&summary::summarize(all)));
        eprintln!(
            "{} row(s) written{}",
            new_rows.len(),
            if to_stdout {
                String::new()
            } else {
                format!(" to {}", out.display())
            }
        );
    }
    if interrupted {
        eprintln!(
            "interrupted: {} of {} jobs not run; finish with the same command plus --resume{}",
            jobs.len() - new_rows.len(),
            jobs.len(),
            if args.out.is_none() {
                format!(" --out {}", out.display())
            } else {
                String::new()
            }
        );
        return Ok(130);
    }
    Ok(0)
}
