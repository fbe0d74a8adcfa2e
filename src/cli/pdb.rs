//! `bench pdb build|info|verify`: the pattern-database cache from the command line.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use super::flags::BoardSize;
use crate::board::Goal;
use crate::geometry::Geometry;
use crate::heuristic::pdb::{self, Origin, PdbSpec, TableKey, store, table};

/// The `bench pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build the databases of a partition into the cache (loading valid cached files unless
    /// --force).
    Build(PdbArgs),
    /// Show where the databases of a partition are cached and what they hold.
    Info(PdbArgs),
    /// Check the cached databases of a partition (header and checksum; with --rebuild also
    /// against a fresh build). Exits with status 1 if one is missing or invalid.
    Verify(PdbArgs),
}

/// What every `bench pdb` subcommand takes.
#[derive(Debug, Args)]
pub struct PdbArgs {
    /// The heuristic: pdb, pdb:full, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6 or tile groups
    /// like pdb:1,2,3/4,5,6.
    #[arg(default_value = "pdb")]
    pub spec: String,
    /// The board size [default: 4x4].
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout: blank-last or blank-first (Korf's instances use blank-first).
    #[arg(long, default_value = "blank-last")]
    pub goal: Goal,
    /// build: rebuild even if a valid file is cached. verify: also compare with a fresh build.
    #[arg(long, alias = "rebuild")]
    pub force: bool,
}

fn board_size(size: &BoardSize) -> anyhow::Result<(usize, usize)> {
    let (r, c) = size.get_or(Some((4, 4)))?;
    if r < 2 || c < 2 || r * c > 64 {
        bail!("--size {r}x{c}: pattern databases need at least 2 x 2 and at most 64 cells");
    }
    Ok((r, c))
}

/// The board, partition and cache directory of the arguments.
fn resolve(args: &PdbArgs) -> anyhow::Result<(Geometry, PdbSpec, Vec<TableKey>)> {
    let (rows, cols) = board_size(&args.size)?;
    let spec: PdbSpec = args.spec.parse().map_err(|e: String| anyhow::anyhow!(e))?;
    let g = Geometry::new(rows, cols, args.goal);
    let groups = spec.groups(&g)?;
    let keys = groups
        .into_iter()
        .map(|tiles| TableKey {
            rows,
            cols,
            goal: args.goal,
            tiles,
        })
        .collect();
    Ok((g, spec, keys))
}

fn tiles_text(tiles: &[u8]) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Summary of a table's values.
fn summary(data: &[u8]) -> String {
    let reached: Vec<u8> = data
        .iter()
        .copied()
        .filter(|&v| v != table::UNREACHED)
        .collect();
    let max = reached.iter().copied().max().unwrap_or(0);
    let mean = reached.iter().map(|&v| v as f64).sum::<f64>() / reached.len().max(1) as f64;
    format!("max {max}, mean {mean:.3}")
}

/// Runs `bench pdb`; returns the exit status.
pub fn run(cmd: PdbCommand) -> anyhow::Result<i32> {
    match cmd {
        PdbCommand::Build(args) => build(&args),
        PdbCommand::Info(args) => info(&args),
        PdbCommand::Verify(args) => verify(&args),
    }
}

fn build(args: &PdbArgs) -> anyhow::Result<i32> {
    let (g, spec, keys) = resolve(args)?;
    let dir = store::cache_dir();
    println!(
        "{spec} on {} x {} ({}), cache directory {}",
        g.rows,
        g.cols,
        g.goal,
        dir.as_ref()
            .map_or("none (NPUZZLE_PDB_DIR=off)".into(), |d| d
                .display()
                .to_string())
    );
    let start = Instant::now();
    let mut failed = false;
    for key in &keys {
        let t = pdb::obtain(key, dir.clone(), args.force);
        if let Some(why) = &t.rejected {
            println!("  rejected cached file: {why}");
        }
        let what = match &t.origin {
            Origin::Loaded(p) => format!("loaded {}", p.display()),
            Origin::BuiltAndSaved(p) => format!("built, saved {}", p.display()),
            Origin::BuiltOnly(why) => {
                failed |= dir.is_some();
                format!("built, NOT saved: {why}")
            }
        };
        println!(
            "  tiles {}: {} entries, {}, {:.2} s, {what}",
            tiles_text(&key.tiles),
            t.data.len(),
            summary(&t.data),
            t.elapsed.as_secs_f64()
        );
    }
    println!("total {:.2} s", start.elapsed().as_secs_f64());
    Ok(i32::from(failed))
}

fn info(args: &PdbArgs) -> anyhow::Result<i32> {
    let (g, spec, keys) = resolve(args)?;
    let dir = store::cache_dir();
    println!(
        "{spec} on {} x {} ({}): {} databases, reflection {}",
        g.rows,
        g.cols,
        g.goal,
        keys.len(),
        if spec.reflect && g.rows == g.cols {
            "on"
        } else {
            "off"
        }
    );
    let Some(dir) = dir else {
        println!("no cache directory (NPUZZLE_PDB_DIR=off)");
        return Ok(0);
    };
    println!("cache directory {}", dir.display());
    for key in &keys {
        let entries = table::entries(g.cells, key.tiles.len()).unwrap_or(u64::MAX);
        let path = dir.join(store::file_name(key));
        let state = match store::load(&dir, key, entries) {
            Ok(data) => format!("valid, {}", summary(&data)),
            Err(e) => format!("not usable: {e}"),
        };
        println!(
            "  tiles {}: {entries} entries, {} ({state})",
            tiles_text(&key.tiles),
            path.display()
        );
    }
    Ok(0)
}

fn verify(args: &PdbArgs) -> anyhow::Result<i32> {
    let (g, spec, keys) = resolve(args)?;
    let dir: PathBuf = store::cache_dir().context("no cache directory to verify")?;
    let mut bad = 0;
    for key in &keys {
        let entries = table::entries(g.cells, key.tiles.len()).unwrap_or(u64::MAX);
        match store::load(&dir, key, entries) {
            Ok(data) => {
                if args.force {
                    let (fresh, _) = table::build(&g, &key.tiles);
                    if fresh != data {
                        bad += 1;
                        println!(
                            "tiles {}: DIFFERS from a fresh build",
                            tiles_text(&key.tiles)
                        );
                        continue;
                    }
                }
                println!(
                    "tiles {}: ok{}",
                    tiles_text(&key.tiles),
                    if args.force {
                        " (matches a fresh build)"
                    } else {
                        ""
                    }
                );
            }
            Err(e) => {
                bad += 1;
                println!("tiles {}: {e}", tiles_text(&key.tiles));
            }
        }
    }
    println!(
        "{spec}: {} of {} databases valid",
        keys.len() - bad,
        keys.len()
    );
    Ok(i32::from(bad > 0))
}
