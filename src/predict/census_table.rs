//! Exact heuristic distributions from a census: the `depth x blank x h` table that
//! `bench census --heuristic` writes, summed over the depths, gives the number of positions
//! with the blank on each cell and each estimate: the equilibrium distribution KRE needs, exact
//! where [`super::Profile`] would otherwise sample (boards above 10 cells).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::board::Goal;
use crate::census::output::HEURISTIC_COLUMNS;

/// Per heuristic name, `[cell][h]`: positions with the blank on `cell` and estimate `h`.
pub type CensusDistributions = BTreeMap<String, Vec<Vec<f64>>>;

/// Why a census table cannot be used.
#[derive(Debug, Error)]
pub enum CensusTableError {
    /// The file cannot be read.
    #[error("--census-table {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not a census table.
    #[error("--census-table {}: expected the header `{HEURISTIC_COLUMNS}` (bench census --heuristic LIST --heuristic-out FILE writes it), found `{found}`", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// The first line.
        found: String,
    },
    /// A malformed line.
    #[error("--census-table {}:{line}: {what}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// A table of another board.
    #[error("--census-table {}: the table is for {found}, the prediction for {wanted}", path.display())]
    Board {
        /// The file.
        path: PathBuf,
        /// The table's board.
        found: String,
        /// The prediction's board.
        wanted: String,
    },
    /// A table that does not cover every position (an interrupted census).
    #[error("--census-table {}: heuristic {heuristic} counts {found} positions with the blank on cell {cell}, a complete census has {expected} (was the census interrupted?)", path.display())]
    Incomplete {
        /// The file.
        path: PathBuf,
        /// The heuristic.
        heuristic: String,
        /// The blank's cell.
        cell: usize,
        /// Positions counted.
        found: u64,
        /// Positions with the blank there: `(cells - 1)! / 2`.
        expected: u64,
    },
}

/// Reads a census table for a `rows` x `cols` board with `goal`, checking that every blank
/// cell holds all its `(cells - 1)! / 2` positions for every heuristic in the file.
pub fn read(
    path: &Path,
    rows: usize,
    cols: usize,
    goal: Goal,
) -> Result<CensusDistributions, CensusTableError> {
    let text = std::fs::read_to_string(path).map_err(|source| CensusTableError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    if header.trim_end() != HEURISTIC_COLUMNS {
        return Err(CensusTableError::Header {
            path: path.to_path_buf(),
            found: header.chars().take(80).collect(),
        });
    }
    let cells = rows * cols;
    let wanted = format!("{rows} x {cols} ({goal})");
    let line_error = |line: usize, what: String| CensusTableError::Line {
        path: path.to_path_buf(),
        line,
        what,
    };
    let mut out = CensusDistributions::new();
    let mut totals: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 8 {
            return Err(line_error(
                number,
                format!("expected 8 fields ({HEURISTIC_COLUMNS}), found {}", f.len()),
            ));
        }
        let found = format!("{} x {} ({})", f[0], f[1], f[2]);
        if found != wanted {
            return Err(CensusTableError::Board {
                path: path.to_path_buf(),
                found,
                wanted,
            });
        }
        let field = |k: usize, name: &str| -> Result<u64, CensusTableError> {
            f[k].parse::<u64>().map_err(|_| {
                line_error(
                    number,
                    format!("{name}: expected a non-negative integer, found `{}`", f[k]),
                )
            })
        };
        let blank = field(5, "blank")? as usize;
        let h = field(6, "h")? as usize;
        let count = field(7, "count")?;
        field(4, "depth")?;
        if blank >= cells {
            return Err(line_error(
                number,
                format!("blank: cell {blank} is outside the {cells} cells"),
            ));
        }
        let name = f[3].to_string();
        let hist = out
            .entry(name.clone())
            .or_insert_with(|| vec![Vec::new(); cells]);
        if hist[blank].len() <= h {
            hist[blank].resize(h + 1, 0.0);
        }
        hist[blank][h] += count as f64;
        totals.entry(name).or_insert_with(|| vec![0; cells])[blank] += count;
    }
    let expected: u64 = (1..cells as u64).product::<u64>() / 2;
    for (heuristic, by_cell) in totals {
        for (cell, &found) in by_cell.iter().enumerate() {
            if found != expected {
                return Err(CensusTableError::Incomplete {
                    path: path.to_path_buf(),
                    heuristic,
                    cell,
                    found,
                    expected,
                });
            }
        }
    }
    Ok(out)
}
