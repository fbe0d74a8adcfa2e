//! `bench census`: maps the arguments to a [`crate::census::Request`], shows progress, and
//! hands the results to [`crate::census::output`].

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::flags::{BoardSize, SizeLimit, parse_size_limit};
use crate::board::Goal;
use crate::census::output::{self, CensusMeta, DistributionWriter};
use crate::census::{self, LayerDone, Request};
use crate::heuristic::HeuristicKind;
use crate::infra::provenance::{Host, Program, now_rfc3339, sidecar_path};
use crate::infra::signals;
use crate::infra::units::format_bytes;

/// Arguments of `bench census`.
#[derive(Debug, Args)]
pub struct CensusArgs {
    /// The board.
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout the distances are measured to: blank-last or blank-first (both give the
    /// same distribution; the antipodes differ).
    #[arg(long, default_value = "blank-last")]
    pub goal: Goal,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// The distribution as CSV (rows,cols,goal,depth,count), with the sidecar
    /// FILE.meta.json; written as FILE.partial until the search is complete.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The positions at the largest distance, as an instance file with their optimal length.
    #[arg(long, value_name = "FILE")]
    pub antipodes: Option<PathBuf>,
    /// Memory limit, e.g. 12GiB, or none [default: MemAvailable of /proc/meminfo].
    #[arg(long, value_parser = parse_size_limit, value_name = "SIZE")]
    pub max_memory: Option<SizeLimit>,
    /// Heuristics, comma-separated (misplaced, manhattan, linear-conflict, ...): the number
    /// of positions at each distance and estimate, written to --heuristic-out.
    #[arg(long, value_name = "LIST")]
    pub heuristic: Option<String>,
    /// The depth x blank x h table as CSV (rows,cols,goal,heuristic,depth,blank,h,count)
    /// [default: the --out name with .heuristics.csv].
    #[arg(long, value_name = "FILE")]
    pub heuristic_out: Option<PathBuf>,
    /// No progress bar or per-depth lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Splits a heuristic list on commas, keeping the commas of pattern-database tile groups.
fn parse_heuristics(s: &str) -> anyhow::Result<Vec<HeuristicKind>> {
    let mut names: Vec<String> = Vec::new();
    for piece in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match names.last_mut() {
            Some(last) if piece.starts_with(|c: char| c.is_ascii_digit()) => {
                last.push(',');
                last.push_str(piece);
            }
            _ => names.push(piece.to_string()),
        }
    }
    if names.is_empty() {
        bail!("--heuristic is empty");
    }
    names
        .iter()
        .map(|n| {
            n.parse::<HeuristicKind>()
                .map_err(|e| anyhow::anyhow!("--heuristic: {e}"))
        })
        .collect()
}

/// Runs `bench census`.
pub fn run(args: CensusArgs) -> anyhow::Result<i32> {
    let (rows, cols) = args.size.get_or(None)?;
    let heuristics = match &args.heuristic {
        Some(list) => parse_heuristics(list)?,
        None => Vec::new(),
    };
    let heuristic_out = match (&args.heuristic_out, &args.out, heuristics.is_empty()) {
        (_, _, true) => None,
        (Some(p), _, false) => Some(p.clone()),
        (None, Some(out), false) => Some(out.with_extension("heuristics.csv")),
        (None, None, false) => bail!("--heuristic needs --heuristic-out FILE (or --out FILE)"),
    };
    let max_memory = match args.max_memory {
        Some(SizeLimit(limit)) => limit,
        None => census::available_memory(),
    };
    let need = census::check(rows, cols, max_memory)?;
    let positions = census::positions(rows, cols).expect("checked");
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the worker threads")?;
    if !args.quiet {
        eprintln!(
            "census of {rows} x {cols} ({}): {positions} positions, needs {} (limit {}), {threads} threads",
            args.goal,
            format_bytes(need as f64),
            max_memory.map_or("none".to_string(), |b| format_bytes(b as f64))
        );
    }

    let start = Instant::now();
    let meta = Arc::new(Mutex::new(CensusMeta {
        format: "npuzzle-census 1".into(),
        program: Program::current(),
        host: Host::current(),
        command_line: std::env::args().collect(),
        threads,
        rows,
        cols,
        goal: args.goal.to_string(),
        heuristics: heuristics.iter().map(|h| h.name()).collect(),
        positions,
        memory_needed_bytes: need,
        max_memory_bytes: max_memory,
        start_time: now_rfc3339(),
        end_time: None,
        wall_seconds: None,
        cpu_seconds: None,
        peak_rss_bytes: None,
        status: "running".into(),
        depths_complete: 0,
        positions_found: 0,
        diameter: None,
        antipodes: None,
        error: None,
    }));
    let sidecar = args.out.as_deref().map(sidecar_path);
    let writer = match &args.out {
        Some(out) => Some(Mutex::new(
            DistributionWriter::create(out, rows, cols, args.goal)
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

    // SIGINT/SIGTERM: the first stops after the current chunks (finished depths are kept in
    // FILE.partial, the sidecar says interrupted); a second ends the process at once.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let first = stop.clone();
        let last_meta = meta.clone();
        let last_path = sidecar.clone();
        let installed = signals::install(
            move |_| first.store(true, Ordering::SeqCst),
            move |sig| {
                if let (Ok(mut m), Some(p)) = (last_meta.lock(), &last_path) {
                    m.finish("interrupted", start.elapsed().as_secs_f64());
                    let _ = m.write(p);
                }
                eprintln!("{}: stopped at once", signals::name(sig));
            },
        );
        if let Err(e) = installed {
            eprintln!("warning: cannot catch SIGINT/SIGTERM ({e})");
        }
    }

    let pb = if args.quiet || !std::io::stderr().is_terminal() {
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
        if !args.quiet && pb.is_hidden() {
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
    let req = Request {
        rows,
        cols,
        goal: args.goal,
        heuristics,
        max_memory,
    };
    let result = pool.install(|| census::run(&req, &stop, &progress));
    pb.finish_and_clear();
    let wall = start.elapsed().as_secs_f64();
    let census = match result {
        Ok(c) => c,
        Err(e) => {
            let mut m = meta.lock().expect("sidecar lock");
            m.finish("failed", wall);
            m.error = Some(e.to_string());
            save(&m)?;
            return Err(e.into());
        }
    };
    if let Some(e) = write_error.lock().expect("error lock").take() {
        let out = args.out.as_ref().expect("a writer implies --out");
        return Err(anyhow::Error::new(e).context(format!("writing --out {}", out.display())));
    }

    if !census.complete {
        let mut m = meta.lock().expect("sidecar lock");
        m.finish("interrupted", wall);
        save(&m)?;
        let sig = signals::received().unwrap_or(libc::SIGINT);
        eprintln!(
            "{}: stopped after {} complete depths ({} of {positions} positions){}",
            signals::name(sig),
            census.counts.len(),
            census.counts.iter().sum::<u64>(),
            match &writer {
                Some(w) => format!(
                    "; they are in {}",
                    w.lock().expect("writer lock").partial().display()
                ),
                None => String::new(),
            }
        );
        return Ok(signals::exit_status(sig));
    }

    let diameter = census.diameter().expect("complete");
    let at_diameter = *census.counts.last().expect("depth 0");
    if let Some(w) = writer {
        let out = args.out.as_ref().expect("a writer implies --out");
        w.into_inner()
            .expect("writer lock")
            .complete()
            .with_context(|| format!("writing --out {}", out.display()))?;
    }
    if let Some(path) = &heuristic_out {
        output::write_heuristic_tables(path, &census)
            .with_context(|| format!("writing --heuristic-out {}", path.display()))?;
    }
    if let Some(path) = &args.antipodes {
        if census.antipodes.len() as u64 != at_diameter {
            bail!(
                "{at_diameter} positions at distance {diameter}: more than the {} that are kept, so --antipodes is not written",
                census::ANTIPODE_CAP
            );
        }
        let reproduce = format!(
            "bench census --rows {rows} --cols {cols} --goal {} --antipodes {}",
            args.goal,
            path.display()
        );
        output::write_antipodes(path, &census, reproduce)
            .with_context(|| format!("writing --antipodes {}", path.display()))?;
    }
    {
        let mut m = meta.lock().expect("sidecar lock");
        m.finish("complete", wall);
        m.diameter = Some(diameter);
        m.antipodes = Some(at_diameter);
        save(&m)?;
    }
    if args.out.is_none() {
        println!("depth,count");
        for (d, n) in census.counts.iter().enumerate() {
            println!("{d},{n}");
        }
    }
    println!(
        "{rows} x {cols} ({}): {positions} positions, diameter {diameter}, {at_diameter} position{} at distance {diameter}",
        args.goal,
        if at_diameter == 1 { "" } else { "s" }
    );
    if !args.quiet {
        let (cpu, rss) = output::process_usage();
        eprintln!(
            "{wall:.1} s wall, {:.1} s CPU, peak memory {}",
            cpu.unwrap_or(0.0),
            rss.map_or("unknown".into(), |b| format_bytes(b as f64))
        );
    }
    Ok(0)
}
