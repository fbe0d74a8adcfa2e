//! `bench census`'s driver: the worker pool, the progress display, SIGINT/SIGTERM, the CSV
//! written as depths finish, the sidecar, and the files written at the end, around
//! [`super::run`] (the search itself).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{self, CensusMeta, DistributionWriter};
use super::{Census, LayerDone, Request};
use crate::infra::provenance::{Build, Host, now_rfc3339, sidecar_path};
use crate::infra::signals;
use crate::infra::units::format_bytes;
use crate::results::meta::SessionStatus;

/// A census with everything around it.
#[derive(Debug, Clone)]
pub struct Job {
    /// The search (its `max_memory` already resolved, see [`super::available_memory`]).
    pub request: Request,
    /// Worker threads.
    pub threads: usize,
    /// The distribution CSV (and its sidecar FILE.meta.json), written as FILE.partial until
    /// complete.
    pub out: Option<PathBuf>,
    /// The heuristic tables' CSV (with heuristics only).
    pub heuristic_out: Option<PathBuf>,
    /// The positions at the largest distance, as an instance file.
    pub antipodes: Option<PathBuf>,
    /// No progress bar or per-depth lines on stderr.
    pub quiet: bool,
    /// The command line, recorded in the sidecar.
    pub command_line: Vec<String>,
}

/// How a census job ended.
#[derive(Debug)]
pub enum Ended {
    /// Every depth is known: the census, and the wall time in seconds.
    Complete(Box<Census>, f64),
    /// A signal stopped it after the depths the message names; the exit status to return.
    Interrupted(i32),
}

/// Runs `job`: the search in its own pool, the files and the sidecar around it.
pub fn run(job: &Job) -> anyhow::Result<Ended> {
    let req = &job.request;
    let (rows, cols) = (req.shape.rows, req.shape.cols);
    let need = super::check(rows, cols, req.max_memory)?;
    let positions = super::positions(rows, cols).expect("checked");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()
        .context("starting the worker threads")?;
    if !job.quiet {
        eprintln!(
            "census of {rows} x {cols} ({}): {positions} positions, needs {} (limit {}), {} threads",
            req.shape.goal,
            format_bytes(need as f64),
            req.max_memory
                .map_or("none".to_string(), |b| format_bytes(b as f64)),
            job.threads
        );
    }
    let start = Instant::now();
    let meta = Arc::new(Mutex::new(initial_meta(job, positions, need)));
    let sidecar = job.out.as_deref().map(sidecar_path);
    let writer = match &job.out {
        Some(out) => Some(Mutex::new(
            DistributionWriter::create(out, rows, cols, req.shape.goal)
                .with_context(|| format!("creating --out {}", out.display()))?,
        )),
        None => None,
    };
    let save = |meta: &CensusMeta| -> anyhow::Result<()> {
        if let Some(path) = &sidecar {
            meta.write(path)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    };
    save(&meta.lock().expect("sidecar lock"))?;
    let stop = install_signals(&meta, &sidecar, start);

    let pb = progress_bar(job.quiet, positions);
    let write_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let progress = |l: LayerDone| {
        if let Some(w) = &writer
            && let Err(e) = w.lock().expect("writer lock").depth(l.depth, l.count)
        {
            write_error.lock().expect("error lock").get_or_insert(e);
        }
        if let Ok(mut m) = meta.lock() {
            m.depths_complete = l.depth as usize + 1;
            m.positions_found = l.total;
        }
        pb.set_position(l.total);
        pb.set_message(format!("depth {}", l.depth));
        if !job.quiet && pb.is_hidden() {
            eprintln!(
                "depth {:>3}: {:>14} positions, {:>14} of {} ({:.1} s)",
                l.depth,
                l.count,
                l.total,
                l.positions,
                start.elapsed().as_secs_f64()
            );
        }
    };
    let result = pool.install(|| super::run(req, &stop, &progress));
    pb.finish_and_clear();
    let wall = start.elapsed().as_secs_f64();
    let census = match result {
        Ok(c) => c,
        Err(e) => {
            let mut m = meta.lock().expect("sidecar lock");
            m.finish(SessionStatus::Failed, wall);
            m.error = Some(e.to_string());
            save(&m)?;
            return Err(e.into());
        }
    };
    if let Some(e) = write_error.lock().expect("error lock").take() {
        let out = job.out.as_ref().expect("a writer implies --out");
        return Err(anyhow::Error::new(e).context(format!("writing --out {}", out.display())));
    }
    let writer = writer.map(|w| w.into_inner().expect("writer lock"));
    if !census.complete {
        let mut m = meta.lock().expect("sidecar lock");
        m.finish(SessionStatus::Interrupted, wall);
        save(&m)?;
        let sig = signals::received().unwrap_or(libc::SIGINT);
        eprintln!(
            "{}: stopped after {} complete depths ({} of {positions} positions){}",
            signals::name(sig),
            census.counts.len(),
            census.counts.iter().sum::<u64>(),
            match &writer {
                Some(w) => format!("; they are in {}", w.partial().display()),
                None => String::new(),
            }
        );
        return Ok(Ended::Interrupted(signals::exit_status(sig)));
    }
    write_files(job, &census, writer)?;
    let mut m = meta.lock().expect("sidecar lock");
    m.finish(SessionStatus::Complete, wall);
    m.diameter = census.diameter();
    m.antipodes = census.counts.last().copied();
    save(&m)?;
    Ok(Ended::Complete(Box::new(census), wall))
}

/// The sidecar as the census starts.
fn initial_meta(job: &Job, positions: u64, need: u64) -> CensusMeta {
    let req = &job.request;
    CensusMeta {
        format: "npuzzle-census 1".into(),
        program: Build::current(),
        host: Host::current(),
        command_line: job.command_line.clone(),
        threads: job.threads,
        shape: req.shape,
        heuristics: req.heuristics.iter().map(|h| h.name()).collect(),
        positions,
        memory_needed_bytes: need,
        max_memory_bytes: req.max_memory,
        start_time: now_rfc3339(),
        end_time: None,
        wall_seconds: None,
        cpu_seconds: None,
        peak_rss_bytes: None,
        status: SessionStatus::Running,
        depths_complete: 0,
        positions_found: 0,
        diameter: None,
        antipodes: None,
        error: None,
    }
}

/// SIGINT/SIGTERM: the first stops after the current chunks (finished depths are kept in
/// FILE.partial, the sidecar says interrupted); a second ends the process at once. Returns
/// the flag the first one sets.
fn install_signals(
    meta: &Arc<Mutex<CensusMeta>>,
    sidecar: &Option<PathBuf>,
    start: Instant,
) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let first = stop.clone();
    let last_meta = meta.clone();
    let last_path = sidecar.clone();
    let installed = signals::install(
        move |_| first.store(true, Ordering::SeqCst),
        move |sig| {
            if let (Ok(mut m), Some(p)) = (last_meta.lock(), &last_path) {
                m.finish(SessionStatus::Interrupted, start.elapsed().as_secs_f64());
                let _ = m.write(p);
            }
            eprintln!("{}: stopped at once", signals::name(sig));
        },
    );
    if let Err(e) = installed {
        eprintln!("warning: cannot catch SIGINT/SIGTERM ({e})");
    }
    stop
}

/// The progress bar on a terminal, hidden otherwise (then per-depth lines are printed).
fn progress_bar(quiet: bool, positions: u64) -> ProgressBar {
    let pb = if quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::stderr())
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions  {msg}  {elapsed_precise} elapsed",
        )
        .expect("valid progress template"),
    );
    pb.enable_steady_tick(std::time::Duration::from_millis(500));
    pb
}

/// The files of a complete census: the distribution made final, the heuristic tables, the
/// antipodes.
fn write_files(
    job: &Job,
    census: &Census,
    writer: Option<DistributionWriter>,
) -> anyhow::Result<()> {
    let req = &job.request;
    let diameter = census.diameter().expect("complete");
    let at_diameter = *census.counts.last().expect("depth 0");
    if let (Some(w), Some(out)) = (writer, &job.out) {
        w.complete()
            .with_context(|| format!("writing --out {}", out.display()))?;
    }
    if let Some(path) = &job.heuristic_out {
        output::write_heuristic_tables(path, census)
            .with_context(|| format!("writing --heuristic-out {}", path.display()))?;
    }
    if let Some(path) = &job.antipodes {
        if census.antipodes.len() as u64 != at_diameter {
            bail!(
                "{at_diameter} positions at distance {diameter}: more than the {} that are kept, so --antipodes is not written",
                super::ANTIPODE_CAP
            );
        }
        let reproduce = format!(
            "bench census --rows {} --cols {} --goal {} --antipodes {}",
            req.shape.rows,
            req.shape.cols,
            req.shape.goal,
            path.display()
        );
        output::write_antipodes(path, census, reproduce)
            .with_context(|| format!("writing --antipodes {}", path.display()))?;
    }
    Ok(())
}
