//! `bench gen`: seeded sets of random solvable instances, in the project's instance format.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use super::flags::{BoardSize, GoalFlag, Out, Quiet, Seed, Threads};
use crate::generate::{GenKind, GenSpec, Written};

/// Arguments of `bench gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// The board size.
    #[command(flatten)]
    pub size: BoardSize,
    /// Number of instances.
    #[arg(long, value_name = "K", default_value_t = 100)]
    pub count: usize,
    /// The generator's seed (recorded in the file's header and name).
    #[command(flatten)]
    pub seed: Seed,
    /// The goal the boards are solvable for [with --convert: the file's, unless given].
    #[command(flatten)]
    pub goal: GoalFlag,
    /// Make each board by a random walk of exactly M blank moves from the goal that never
    /// undoes its previous move (default: uniformly random solvable boards).
    #[arg(long, value_name = "M")]
    pub moves: Option<u32>,
    /// The instance file [default: instances/<RxC>-<generator>-seed<S>-n<K>.txt].
    #[command(flatten)]
    pub out: Out,
    /// Threads for generating large sets (the output does not depend on them).
    #[command(flatten)]
    pub threads: Threads,
    #[command(flatten)]
    pub quiet: Quiet,
    /// Convert an instance file (Korf's tsv, JSON matrices or our format) to the project's
    /// format instead of generating; keeps an `optimal` column if present.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "n", "rows", "cols", "seed", "moves"])]
    pub convert: Option<PathBuf>,
    /// With --convert: a citation of where the boards come from, recorded in the header.
    #[arg(long, value_name = "TEXT", requires = "convert")]
    pub source: Option<String>,
}

/// Runs `bench gen`; returns the exit status.
pub fn run(args: GenArgs) -> anyhow::Result<i32> {
    let result = match &args.convert {
        Some(file) => convert(&args, file),
        None => generate(&args),
    };
    match result {
        // A closed pipe (e.g. `bench gen --out - | head`) is the reader's choice, not an error.
        Err(e) if is_broken_pipe(&e) => Ok(0),
        other => other,
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn generate(args: &GenArgs) -> anyhow::Result<i32> {
    let (rows, cols) = args.size.get_or(None)?;
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let kind = match args.moves {
        Some(moves) => GenKind::RandomWalk { moves },
        None => GenKind::Uniform,
    };
    let goal = args.goal.goal.unwrap_or_default();
    let spec = GenSpec::new(rows, cols, goal, kind, 0).with_context(|| {
        format!("cannot generate {rows} x {cols} boards (--size / --n / --rows / --cols)")
    })?;
    let spec = GenSpec {
        seed: args.seed.resolve(args.quiet.quiet),
        ..spec
    };
    set_threads(args.threads.threads, args.count)?;
    let written = crate::generate::generate(&spec, args.count, args.out.out.as_deref())?;
    report(&written, None, args.quiet.quiet);
    Ok(0)
}

fn convert(args: &GenArgs, file: &Path) -> anyhow::Result<i32> {
    if let Some(source) = &args.source {
        check_source(source)?;
    }
    let written = crate::generate::convert(
        file,
        args.goal.goal,
        args.source.as_deref(),
        args.out.out.as_deref(),
    )?;
    report(&written, Some(file), args.quiet.quiet);
    Ok(0)
}

/// Refuses a `--source` that the header line `# source: TEXT` cannot hold: a line break or
/// another control character would end the header early, and the file would not read back.
fn check_source(source: &str) -> anyhow::Result<()> {
    if source.trim().is_empty() {
        bail!("--source is empty; give a citation of where the boards come from, or leave it out");
    }
    if let Some((i, c)) = source.char_indices().find(|(_, c)| c.is_control()) {
        bail!(
            "--source {source:?}: character {} is the control character {c:?}; \
             the citation must be one line of printable text",
            source[..i].chars().count() + 1
        );
    }
    Ok(())
}

/// What was written, on stderr (nothing when the instances went to stdout).
fn report(w: &Written, converted: Option<&Path>, quiet: bool) {
    if quiet || w.out == Path::new("-") {
        return;
    }
    eprintln!(
        "wrote {} ({} x {}, {}{}) {} {}",
        plural(w.count),
        w.rows,
        w.cols,
        w.goal,
        if converted.is_some() {
            String::new()
        } else {
            format!(", {}", w.made_by)
        },
        match converted {
            Some(_) => format!("from {} to", w.made_by),
            None => "to".to_string(),
        },
        w.out.display()
    );
}

/// Sizes rayon's global pool (this process makes one instance set): never more workers than
/// instances, so `--count 3 --threads 1024` starts 3 threads.
fn set_threads(threads: Option<u32>, count: usize) -> anyhow::Result<()> {
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads((t as usize).min(count))
            .build_global()
            .context("cannot start the worker threads")?;
    }
    Ok(())
}

fn plural(n: usize) -> String {
    if n == 1 {
        "1 instance".to_string()
    } else {
        format!("{n} instances")
    }
}
