//! `bench gen`: seeded sets of random solvable instances, in the project's instance format.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use super::flags::BoardSize;
use crate::board::Goal;
use crate::generate::{GenKind, GenSpec};
use crate::instances::{FileHeader, Generator, InstanceWriter, Layout, read_detailed};

/// Arguments of `bench gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// The board size.
    #[command(flatten)]
    pub size: BoardSize,
    /// Number of instances.
    #[arg(long, value_name = "K", default_value_t = 100)]
    pub count: usize,
    /// Seed of the random generator (default: a fresh one, printed and recorded in the file).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Goal layout: blank-last or blank-first [default: blank-last; with --convert, the file's].
    #[arg(long)]
    pub goal: Option<Goal>,
    /// Make each board by a random walk of exactly M blank moves from the goal that never
    /// undoes its previous move (default: uniformly random solvable boards).
    #[arg(long, value_name = "M")]
    pub moves: Option<u32>,
    /// Output file, `-` for stdout [default: instances/<RxC>-<generator>-seed<S>-n<K>.txt].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads for generating large sets (the output does not depend on it).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
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
    if let Some(threads) = args.threads
        && threads == 0
    {
        bail!("--threads must be at least 1");
    }
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
    let goal = args.goal.unwrap_or_default();
    let mut spec =
        GenSpec::new(rows, cols, goal, kind, args.seed.unwrap_or(0)).with_context(|| {
            format!("cannot generate {rows} x {cols} boards (--size / --n / --rows / --cols)")
        })?;
    if args.seed.is_none() {
        // A fresh seed from the OS; 32 bits keep it readable in file names.
        spec.seed = u64::from(rand::random::<u32>());
        eprintln!(
            "seed: {} (fresh; pass --seed {} to reproduce)",
            spec.seed, spec.seed
        );
    }
    let default_out = Path::new("instances").join(spec.file_name(args.count));
    let out = args.out.clone().unwrap_or(default_out);
    set_threads(args.threads)?;
    write_output(&out, |w| {
        spec.write(w, args.count)?;
        Ok(())
    })?;
    if out != Path::new("-") {
        eprintln!(
            "wrote {} ({rows} x {cols}, {goal}, {}) to {}",
            plural(args.count),
            match kind {
                GenKind::RandomWalk { moves } => format!("random walks of {moves} moves"),
                GenKind::Uniform => "uniform over solvable boards".to_string(),
            },
            out.display()
        );
    }
    Ok(0)
}

fn convert(args: &GenArgs, file: &Path) -> anyhow::Result<i32> {
    let (set, layout, extras) = read_detailed(file, args.goal)?;
    let optimal_column = extras.optimal.iter().any(Option::is_some);
    let header = FileHeader {
        rows: set.rows,
        cols: set.cols,
        goal: set.goal,
        generator: Generator::Converted {
            from: format!(
                "{} ({layout}{})",
                file.file_name()
                    .unwrap_or(file.as_os_str())
                    .to_string_lossy(),
                if layout == Layout::KorfTsv && args.goal.is_none() {
                    ", goal blank-first by that layout's convention"
                } else {
                    ""
                }
            ),
            source: args.source.clone(),
        },
        seed: None,
        count: set.instances.len(),
        optimal_column,
        reproduce: Some(format!(
            "bench gen --convert {}{}{}",
            file.display(),
            args.goal
                .map(|g| format!(" --goal {g}"))
                .unwrap_or_default(),
            args.source
                .as_ref()
                .map(|s| format!(" --source \"{s}\""))
                .unwrap_or_default()
        )),
    };
    let stem = file
        .file_stem()
        .unwrap_or(file.as_os_str())
        .to_string_lossy();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("instances").join(format!("{stem}.txt")));
    write_output(&out, |w| {
        let mut iw = InstanceWriter::new(w, header)?;
        for (inst, opt) in set.instances.iter().zip(&extras.optimal) {
            iw.write(&inst.id, inst.scramble_moves, *opt, &inst.board)?;
        }
        iw.finish()?;
        Ok(())
    })?;
    if out != Path::new("-") {
        eprintln!(
            "wrote {} ({} x {}, {}) from {} ({layout}) to {}",
            plural(set.instances.len()),
            set.rows,
            set.cols,
            set.goal,
            file.display(),
            out.display()
        );
    }
    Ok(0)
}

/// Sizes rayon's global pool (this process makes one instance set).
fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .context("cannot start the worker threads")?;
    }
    Ok(())
}

/// Writes through a buffered writer to stdout (`-`) or to `out`. A regular file is written via
/// a temporary file in the same directory that is renamed into place at the end, so an
/// interrupted run leaves no half-written instance file.
fn write_output(
    out: &Path,
    body: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if out == Path::new("-") {
        let stdout = io::stdout();
        let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
        body(&mut w)?;
        w.flush().context("cannot write to stdout")?;
        return Ok(());
    }
    // Only a regular file (or a new one) is replaced by renaming; anything else (a device such
    // as /dev/null, a pipe, a symbolic link) is written in place.
    match fs::symlink_metadata(out) {
        Ok(m) if m.is_dir() => bail!("--out {}: is a directory", out.display()),
        Ok(m) if !m.is_file() => {
            let f = fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(out)
                .with_context(|| format!("cannot open {}", out.display()))?;
            let mut w = BufWriter::with_capacity(1 << 16, f);
            body(&mut w).with_context(|| format!("cannot write {}", out.display()))?;
            w.flush()
                .with_context(|| format!("cannot write {}", out.display()))?;
            return Ok(());
        }
        _ => {}
    }
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let name = out
        .file_name()
        .with_context(|| format!("--out {}: not a file name", out.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> anyhow::Result<()> {
        let f =
            fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut w = BufWriter::with_capacity(1 << 16, f);
        body(&mut w).with_context(|| format!("cannot write {}", out.display()))?;
        w.flush()
            .with_context(|| format!("cannot write {}", out.display()))?;
        fs::rename(&tmp, out)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), out.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn plural(n: usize) -> String {
    if n == 1 {
        "1 instance".to_string()
    } else {
        format!("{n} instances")
    }
}
