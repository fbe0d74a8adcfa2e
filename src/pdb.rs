//! `bench pdb build|info|verify`'s engine: which pattern databases a request means (one
//! partition on one board, or every database a `bench run` of some instance files will load),
//! and building, describing and checking them in the cache ([`crate::heuristic::pdb::store`]).
//! Reports go to the writer given, line by line as the work proceeds.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};

use crate::board::{Goal, Shape};
use crate::geometry::MAX_LARGE_CELLS;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::{self, Origin, PdbSpec, TableKey, store, table};

/// What a `bench pdb` subcommand is asked about.
#[derive(Debug, Clone)]
pub struct Request {
    /// The partition (`pdb`, `pdb:6-6-3`, tile groups...), when no instance files are given
    /// or no heuristic list.
    pub spec: String,
    /// The board size [default: 4 x 4]; unused with `instances`.
    pub size: Option<(usize, usize)>,
    /// The goal layout [default: blank-last; with `instances`, each file's own].
    pub goal: Option<Goal>,
    /// Instance files whose `bench run` is prepared: sizes and goals from them.
    pub instances: Vec<PathBuf>,
    /// With `instances`: the run's heuristics (the pattern databases among them are used).
    pub heuristics: Vec<HeuristicKind>,
    /// build: rebuild even if a valid file is cached; verify: compare with a fresh build.
    pub rebuild: bool,
}

/// The board size asked for (default 4 x 4), checked.
fn board_size(size: Option<(usize, usize)>) -> anyhow::Result<(usize, usize)> {
    let (r, c) = size.unwrap_or((4, 4));
    if r < 2 || c < 2 || r * c > MAX_LARGE_CELLS {
        bail!(
            "--size {r}x{c}: pattern databases need at least 2 x 2 and at most \
             {MAX_LARGE_CELLS} cells"
        );
    }
    Ok((r, c))
}

/// One partition on one board: what the subcommands report on.
struct Target {
    g: Shape,
    spec: PdbSpec,
    keys: Vec<TableKey>,
}

/// The partitions and boards of the arguments: SPEC on --size, or every pattern-database
/// heuristic of --heuristics on every board size and goal of --instances (each database once).
fn resolve(args: &Request, out: &mut dyn Write) -> anyhow::Result<Vec<Target>> {
    let spec_arg =
        || -> anyhow::Result<PdbSpec> { args.spec.parse().map_err(|e: String| anyhow::anyhow!(e)) };
    if args.instances.is_empty() {
        let (rows, cols) = board_size(args.size)?;
        let g = Shape::new(rows, cols, args.goal.unwrap_or(Goal::BlankLast));
        let spec = spec_arg()?;
        let keys = pdb::table_keys_for(&spec, g)?;
        return Ok(vec![Target { g, spec, keys }]);
    }
    let specs: Vec<PdbSpec> = if args.heuristics.is_empty() {
        vec![spec_arg()?]
    } else {
        args.heuristics
            .iter()
            .filter_map(|h| match h {
                HeuristicKind::Pdb(spec) => Some(spec.clone()),
                _ => None,
            })
            .collect()
    };
    // Unsolvable boards do not change which databases a run loads.
    let sources = crate::instances::load_instances(&args.instances, args.goal, true)?;
    let mut targets: Vec<Target> = Vec::new();
    let mut seen = HashSet::new();
    for s in &sources {
        let g = s.set.shape;
        let Shape { rows, cols, .. } = g;
        if rows * cols > MAX_LARGE_CELLS {
            bail!(
                "{}: {rows} x {cols} boards; pattern databases need at most {MAX_LARGE_CELLS} \
                 cells",
                s.name
            );
        }
        for spec in &specs {
            let keys: Vec<TableKey> = pdb::table_keys_for(spec, g)
                .with_context(|| format!("{} (in {})", spec, s.name))?
                .into_iter()
                .filter(|k| seen.insert(k.clone()))
                .collect();
            if !keys.is_empty() {
                targets.push(Target {
                    g,
                    spec: spec.clone(),
                    keys,
                });
            }
        }
    }
    if targets.is_empty() {
        writeln!(
            out,
            "no pattern database among the heuristics: nothing to do"
        )?;
    }
    Ok(targets)
}

/// The group sizes of a partition, e.g. "groups of 3 tiles (the last of 2)".
fn groups_text(keys: &[TableKey]) -> String {
    let Some(first) = keys.first() else {
        return "no groups".into();
    };
    let k = first.tiles.len();
    let (body, last) = keys.split_at(keys.len() - 1);
    let last = last[0].tiles.len();
    if body.iter().all(|key| key.tiles.len() == k) {
        if last == k {
            format!("groups of {k} tiles")
        } else {
            format!("groups of {k} tiles (the last of {last})")
        }
    } else {
        let sizes: Vec<String> = keys.iter().map(|key| key.tiles.len().to_string()).collect();
        format!("groups of {} tiles", sizes.join("-"))
    }
}

/// Tiles as `1,2,3`.
fn tiles_text(tiles: &[u16]) -> String {
    tiles
        .iter()
        .map(u16::to_string)
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

/// The cache directory, or why there is none.
fn cache_text(dir: &Option<PathBuf>) -> String {
    dir.as_ref()
        .map_or("none (NPUZZLE_PDB_DIR=off)".into(), |d| {
            d.display().to_string()
        })
}

/// `bench pdb build`: every database of the request loaded or built into the cache; the exit
/// status is 1 if one could not be saved.
pub fn build(args: &Request, out: &mut dyn Write) -> anyhow::Result<i32> {
    let targets = resolve(args, out)?;
    let dir = store::cache_dir();
    let start = Instant::now();
    let mut failed = false;
    for Target { g, spec, keys } in &targets {
        writeln!(
            out,
            "{spec} on {} x {} ({}): {} databases, {}; cache directory {}",
            g.rows,
            g.cols,
            g.goal,
            keys.len(),
            groups_text(keys),
            cache_text(&dir)
        )?;
        for key in keys {
            let t = pdb::obtain(key, dir.clone(), args.rebuild);
            if let Some(why) = &t.rejected {
                writeln!(out, "  rejected cached file: {why}")?;
            }
            let what = match &t.origin {
                Origin::Loaded(p) => format!("loaded {}", p.display()),
                Origin::BuiltAndSaved(p) => format!("built, saved {}", p.display()),
                Origin::BuiltOnly(why) => {
                    failed |= dir.is_some();
                    format!("built, NOT saved: {why}")
                }
            };
            writeln!(
                out,
                "  tiles {}: {} entries, {}, {:.2} s, {what}",
                tiles_text(&key.tiles),
                t.data.len(),
                summary(&t.data),
                t.elapsed.as_secs_f64()
            )?;
        }
    }
    writeln!(out, "total {:.2} s", start.elapsed().as_secs_f64())?;
    Ok(i32::from(failed))
}

/// `bench pdb info`: where each database is cached and what it holds.
pub fn info(args: &Request, out: &mut dyn Write) -> anyhow::Result<i32> {
    let targets = resolve(args, out)?;
    let dir = store::cache_dir();
    for Target { g, spec, keys } in &targets {
        writeln!(
            out,
            "{spec} on {} x {} ({}): {} databases, {}, reflection {}",
            g.rows,
            g.cols,
            g.goal,
            keys.len(),
            groups_text(keys),
            if spec.reflect && g.rows == g.cols {
                "on"
            } else {
                "off"
            }
        )?;
        let Some(dir) = &dir else {
            writeln!(out, "no cache directory (NPUZZLE_PDB_DIR=off)")?;
            continue;
        };
        writeln!(out, "cache directory {}", dir.display())?;
        for key in keys {
            let entries = table::entries(g.cells(), key.tiles.len()).unwrap_or(u64::MAX);
            let path = dir.join(store::file_name(key));
            let state = match store::load(dir, key, entries) {
                Ok(data) => format!("valid, {}", summary(&data)),
                Err(e) => format!("not usable: {e}"),
            };
            writeln!(
                out,
                "  tiles {}: {entries} entries, {} ({state})",
                tiles_text(&key.tiles),
                path.display()
            )?;
        }
    }
    Ok(0)
}

/// `bench pdb verify`: every cached database checked (header and checksum; with `rebuild`
/// also against a fresh build); the exit status is 1 if one is missing or invalid.
pub fn verify(args: &Request, out: &mut dyn Write) -> anyhow::Result<i32> {
    let targets = resolve(args, out)?;
    let dir: PathBuf = store::cache_dir().context("no cache directory to verify")?;
    let (mut all, mut all_bad) = (0, 0);
    for Target { g, spec, keys } in &targets {
        let mut bad = 0;
        for key in keys {
            let entries = table::entries(g.cells(), key.tiles.len()).unwrap_or(u64::MAX);
            match store::load(&dir, key, entries) {
                Ok(data) => {
                    if args.rebuild {
                        let fresh = pdb::build_data(key);
                        if fresh != data {
                            bad += 1;
                            writeln!(
                                out,
                                "tiles {}: DIFFERS from a fresh build",
                                tiles_text(&key.tiles)
                            )?;
                            continue;
                        }
                    }
                    writeln!(
                        out,
                        "tiles {}: ok{}",
                        tiles_text(&key.tiles),
                        if args.rebuild {
                            " (matches a fresh build)"
                        } else {
                            ""
                        }
                    )?;
                }
                Err(e) => {
                    bad += 1;
                    writeln!(out, "tiles {}: {e}", tiles_text(&key.tiles))?;
                }
            }
        }
        writeln!(
            out,
            "{spec} on {} x {} ({}): {} of {} databases valid",
            g.rows,
            g.cols,
            g.goal,
            keys.len() - bad,
            keys.len()
        )?;
        all += keys.len();
        all_bad += bad;
    }
    if targets.len() > 1 {
        writeln!(out, "in all: {} of {all} databases valid", all - all_bad)?;
    }
    Ok(i32::from(all_bad > 0))
}
