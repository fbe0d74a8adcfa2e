//! `bench report`: results CSVs in, aggregate tables and SVG figures out.
//!
//! - [`load_files`]: the results files, read by the one results reader ([`crate::results`]).
//! - [`aggregate`]: per (algorithm, heuristic[, group]) statistics, b*, baseline ratios.
//! - [`table`]: aligned text, Markdown, CSV or LaTeX output, compact or all columns.
//! - [`pivot`]: `--pivot depth`, optimal solution length x configuration.
//! - [`compare`]: per-instance comparison of two pairs (ratios, geometric mean, CI, wins);
//!   [`compare_table`] prints it for `--compare A B`.
//! - [`pooling`]: lines of a report that pool board sizes or instance files.
//! - [`plots`]: figures (SVG, and PNG / PDF rendered from the SVG).

pub mod aggregate;
pub mod compare;
pub mod compare_table;
pub mod pivot;
pub mod plots;
pub mod pooling;
pub mod table;

use std::path::{Path, PathBuf};

pub use aggregate::{GroupBy, Summary, aggregate, effective_branching_factor};
pub use table::{Columns, Format, Table, render, render_table, render_with};

use crate::results::{self, ReadError, Row, TornLine};

/// The rows of several results files (shards, runs on different machines, schema version 1
/// or 2 alike), in file order.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Every row.
    pub rows: Vec<Row>,
    /// Torn last lines left out (a run killed while writing, or one still running), per file.
    pub torn: Vec<(PathBuf, TornLine)>,
}

/// Reads the results files `paths`. Each must be a results file; a torn last line is left out
/// and listed in [`Loaded::torn`] for the caller to mention. A job key may appear in two files
/// (runs of the same experiment on two machines), never twice in one.
pub fn load_files<P: AsRef<Path>>(paths: &[P]) -> Result<Loaded, ReadError> {
    let mut out = Loaded::default();
    for p in paths {
        let file = results::read(p.as_ref())?;
        file.require_header()?;
        if let Some(t) = file.torn {
            out.torn.push((file.path.clone(), t));
        }
        out.rows.extend(file.rows.into_iter().map(|(_, r)| r));
    }
    Ok(out)
}
