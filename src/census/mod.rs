//! `bench census`: a complete breadth-first search from the goal over every solvable position
//! of a small board, giving the exact number of positions at each optimal distance, the
//! diameter and the positions that need it (the antipodes), and optionally the joint
//! distribution of distance and a heuristic's estimate.
//!
//! - [`index`]: the dense rank of solvable positions (blank cell and partial permutation).
//! - [`layers`]: the 2-bit table and the parallel sweep that expands one depth.
//!
//! Memory is `cells! / 2` positions at 2 bits each ([`memory_needed`]); the engine refuses a
//! board whose table exceeds the caller's limit and names the largest that fits.

pub mod driver;
pub mod index;
pub mod layers;
pub mod output;

use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::board::{Board, Goal, Shape};
use crate::geometry::Geometry;
use crate::heuristic::{Built, HeuristicError, HeuristicKind};
use index::Space;
use layers::{NoVisit, Table, Visitor};

pub use index::MAX_CELLS;

/// Fixed memory besides the table: per-thread buffers, histograms, the antipodes.
pub const OVERHEAD_BYTES: u64 = 16 << 20;

/// The antipodes are collected when the layer has at most this many positions; beyond, only
/// their number is known.
pub const ANTIPODE_CAP: u64 = 1_000_000;

/// What can stop a census.
#[derive(Debug, Error)]
pub enum CensusError {
    /// A side below 2.
    #[error("the board is {rows} x {cols}; both sides must be at least 2")]
    TooSmall {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// More cells than the index supports.
    #[error(
        "the board is {rows} x {cols} ({cells} cells); a census handles at most {MAX_CELLS} cells (and memory allows far fewer)"
    )]
    TooLarge {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Cells.
        cells: usize,
    },
    /// The table does not fit the memory limit.
    #[error(
        "a census of {rows} x {cols} needs {need} ({positions} positions at 2 bits), more than the limit of {limit} (--max-memory); {largest}"
    )]
    TooMuchMemory {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Bytes needed, formatted.
        need: String,
        /// Positions.
        positions: u64,
        /// The limit, formatted.
        limit: String,
        /// The largest board that fits, as a sentence.
        largest: String,
    },
    /// The operating system refused the table.
    #[error("cannot map the {bytes}-byte table: {source}")]
    Map {
        /// Bytes asked for.
        bytes: u64,
        /// The system's error.
        source: std::io::Error,
    },
    /// A heuristic could not be built for this board.
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    /// The layer counts do not add up (a bug, reported rather than written as a result).
    #[error("internal inconsistency: {0}")]
    Inconsistent(String),
}

/// Bytes a census of `rows` x `cols` needs (table plus [`OVERHEAD_BYTES`]), `None` if the
/// board is outside what the index handles.
pub fn memory_needed(rows: usize, cols: usize) -> Option<u64> {
    let space = Space::new(rows, cols, Goal::BlankLast)?;
    Some(space.positions.div_ceil(32) * 8 + OVERHEAD_BYTES)
}

/// Positions (`cells! / 2`) of a `rows` x `cols` board the index handles.
pub fn positions(rows: usize, cols: usize) -> Option<u64> {
    Space::new(rows, cols, Goal::BlankLast).map(|s| s.positions)
}

/// The boards (rows <= cols) with the most positions whose census fits in `limit` bytes.
pub fn largest_fitting(limit: u64) -> Vec<(usize, usize)> {
    let mut best: Vec<(usize, usize)> = Vec::new();
    let mut best_cells = 0;
    for rows in 2..=MAX_CELLS / 2 {
        for cols in rows..=MAX_CELLS / rows {
            let Some(need) = memory_needed(rows, cols) else {
                continue;
            };
            if need > limit {
                continue;
            }
            let cells = rows * cols;
            if cells > best_cells {
                best_cells = cells;
                best.clear();
            }
            if cells == best_cells {
                best.push((rows, cols));
            }
        }
    }
    best
}

/// Checks the size and the memory limit before anything is allocated.
pub fn check(rows: usize, cols: usize, limit: Option<u64>) -> Result<u64, CensusError> {
    if rows < 2 || cols < 2 {
        return Err(CensusError::TooSmall { rows, cols });
    }
    let Some(need) = memory_needed(rows, cols) else {
        return Err(CensusError::TooLarge {
            rows,
            cols,
            cells: rows.saturating_mul(cols),
        });
    };
    if let Some(limit) = limit
        && need > limit
    {
        let fits = largest_fitting(limit);
        let largest = if fits.is_empty() {
            "no board fits".to_string()
        } else {
            let names: Vec<String> = fits.iter().map(|(r, c)| format!("{r} x {c}")).collect();
            let (r, c) = fits[0];
            format!(
                "the largest board that fits is {} ({} positions, {})",
                names.join(" or "),
                positions(r, c).unwrap_or(0),
                crate::infra::units::format_bytes(memory_needed(r, c).unwrap_or(0) as f64)
            )
        };
        return Err(CensusError::TooMuchMemory {
            rows,
            cols,
            need: crate::infra::units::format_bytes(need as f64),
            positions: positions(rows, cols).unwrap_or(0),
            limit: crate::infra::units::format_bytes(limit as f64),
            largest,
        });
    }
    Ok(need)
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The board size, and the goal the distances are measured to.
    pub shape: Shape,
    /// Heuristics whose joint distribution with the distance is tabulated.
    pub heuristics: Vec<HeuristicKind>,
    /// Memory limit in bytes (`None`: no limit).
    pub max_memory: Option<u64>,
}

/// One finished depth, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct LayerDone {
    /// The depth whose positions are now all known.
    pub depth: u32,
    /// Positions at that depth.
    pub count: u64,
    /// Positions found so far (depths 0..=depth).
    pub total: u64,
    /// All positions.
    pub positions: u64,
}

/// The result of a census (complete, or interrupted after some depths).
#[derive(Debug, Clone)]
pub struct Census {
    /// The board size and goal.
    pub shape: Shape,
    /// All solvable positions, `cells! / 2`.
    pub positions: u64,
    /// `counts[d]`: positions at optimal distance `d`; complete for every depth listed.
    pub counts: Vec<u64>,
    /// Whether the search ran to the end (else `counts` holds the depths finished before the
    /// stop).
    pub complete: bool,
    /// The positions at the largest distance (when complete and at most [`ANTIPODE_CAP`]).
    pub antipodes: Vec<Board>,
    /// Per heuristic (in the request's order): `table[d][c][h]`, positions at distance `d`
    /// with the blank on cell `c` and estimate `h` (the per-cell split is what `bench predict`
    /// needs: its KRE weights each blank cell by the tree's visits).
    pub heuristic_tables: Vec<(String, Vec<Vec<Vec<u64>>>)>,
    /// Bytes of the table.
    pub table_bytes: u64,
}

impl Census {
    /// The diameter (largest distance) when complete.
    pub fn diameter(&self) -> Option<u32> {
        if self.complete {
            Some(self.counts.len() as u32 - 1)
        } else {
            None
        }
    }

    /// The `k`-th heuristic's table summed over the blank's cells: `[d][h]`.
    pub fn depth_by_estimate(&self, k: usize) -> Vec<Vec<u64>> {
        self.heuristic_tables[k]
            .1
            .iter()
            .map(|cells| {
                let width = cells.iter().map(Vec::len).max().unwrap_or(0);
                let mut row = vec![0u64; width];
                for by_h in cells {
                    for (h, &n) in by_h.iter().enumerate() {
                        row[h] += n;
                    }
                }
                row
            })
            .collect()
    }
}

/// Estimates of the requested heuristics, tallied per position.
struct Heuristics {
    built: Vec<Built>,
    geometry: Geometry,
    /// Histogram slots per heuristic and blank cell.
    span: usize,
}

impl Visitor for Heuristics {
    const ACTIVE: bool = true;
    fn width(&self) -> usize {
        self.span * self.geometry.cells * self.built.len()
    }
    #[inline]
    fn visit(&self, hist: &mut [u64], tiles: &[u8; 64], blank: usize) {
        let cells = self.geometry.cells;
        for (k, b) in self.built.iter().enumerate() {
            let h = b.estimate(&self.geometry, tiles) as usize;
            hist[(k * cells + blank) * self.span + h.min(self.span - 1)] += 1;
        }
    }
}

/// Runs a census on the current rayon pool. `progress` is called after each depth; raising
/// `stop` ends the search after the current depth's chunks, keeping the finished depths.
pub fn run(
    req: &Request,
    stop: &AtomicBool,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Census, CensusError> {
    let table_bytes = check(req.shape.rows, req.shape.cols, req.max_memory)?;
    let space = Space::new(req.shape.rows, req.shape.cols, req.shape.goal).expect("checked");
    if req.heuristics.is_empty() {
        bfs(&space, &NoVisit, stop, progress, table_bytes, Vec::new())
    } else {
        let geometry = Geometry::new(req.shape.rows, req.shape.cols, req.shape.goal);
        let mut built = Vec::new();
        for kind in &req.heuristics {
            built.push(crate::heuristic::build(kind, &geometry)?);
        }
        // Any admissible estimate is at most the diameter, below cells * (rows + cols); one
        // slot more holds anything larger (an inadmissible heuristic shows up there).
        let span = space.cells * (space.rows + space.cols) + 1;
        let names = req.heuristics.iter().map(|h| h.name()).collect();
        let visitor = Heuristics {
            built,
            geometry,
            span,
        };
        bfs(&space, &visitor, stop, progress, table_bytes, names)
    }
}

fn bfs<V: Visitor>(
    space: &Space,
    visitor: &V,
    stop: &AtomicBool,
    progress: &(dyn Fn(LayerDone) + Sync),
    table_bytes: u64,
    names: Vec<String>,
) -> Result<Census, CensusError> {
    let words = space.positions.div_ceil(32);
    let table = Table::new(words as usize).map_err(|source| CensusError::Map {
        bytes: words * 8,
        source,
    })?;
    let goal = Board::solved(space.rows, space.cols, space.goal);
    layers::seed(&table, space.rank(goal.tiles()));
    let threads = rayon::current_num_threads() as u64;
    let chunk = (space.blocks / (threads * 256)).clamp(1, 1 << 14);
    let mut counts = vec![1u64];
    let mut total = 1u64;
    let mut hists: Vec<Vec<u64>> = Vec::new();
    let mut antipodes = Vec::new();
    let mut complete = false;
    progress(LayerDone {
        depth: 0,
        count: 1,
        total,
        positions: space.positions,
    });
    loop {
        let depth = counts.len() as u32 - 1;
        let size = counts[depth as usize];
        let collect = size <= ANTIPODE_CAP;
        let Some(sweep) = layers::sweep(space, &table, depth, collect, visitor, chunk, stop) else {
            break;
        };
        if sweep.expanded != size {
            return Err(CensusError::Inconsistent(format!(
                "depth {depth}: {} positions expanded, {size} counted",
                sweep.expanded
            )));
        }
        hists.push(sweep.hist);
        if sweep.new == 0 {
            if collect {
                let mut idx = sweep.collected;
                idx.sort_unstable();
                for i in idx {
                    let b = Board::new(space.rows, space.cols, space.unrank(i))
                        .expect("unranked boards are valid");
                    antipodes.push(b);
                }
            }
            complete = true;
            break;
        }
        total += sweep.new;
        counts.push(sweep.new);
        progress(LayerDone {
            depth: depth + 1,
            count: sweep.new,
            total,
            positions: space.positions,
        });
    }
    if complete && total != space.positions {
        return Err(CensusError::Inconsistent(format!(
            "the search reached {total} of {} positions",
            space.positions
        )));
    }
    let cells = space.cells;
    let span = if names.is_empty() {
        0
    } else {
        hists.first().map_or(0, |h| h.len() / (names.len() * cells))
    };
    let heuristic_tables = names
        .into_iter()
        .enumerate()
        .map(|(k, name)| {
            let table = hists
                .iter()
                .map(|h| {
                    (0..cells)
                        .map(|c| {
                            let at = (k * cells + c) * span;
                            let mut row = h[at..at + span].to_vec();
                            while row.len() > 1 && row.last() == Some(&0) {
                                row.pop();
                            }
                            row
                        })
                        .collect()
                })
                .collect();
            (name, table)
        })
        .collect();
    Ok(Census {
        shape: Shape::new(space.rows, space.cols, space.goal),
        positions: space.positions,
        counts,
        complete,
        antipodes,
        heuristic_tables,
        table_bytes,
    })
}

/// Memory the machine can spare: `MemAvailable` of `/proc/meminfo`.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
