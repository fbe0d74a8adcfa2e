//! `bench report`: results CSVs in, aggregate tables and SVG figures out.
//!
//! - [`load_files`]: the results files, read by the one results reader ([`crate::results`]).
//! - [`aggregate`](mod@aggregate): per (algorithm, heuristic[, group]) statistics, b*, baseline ratios.
//! - [`compare`]: per-instance comparison of two pairs (ratios, geometric mean, CI, wins);
//!   [`compare_table`] prints it for `--compare A B`.
//! - [`spread`]: time spread over repetitions (mean ± σ, median, min, max, noise warnings)
//!   and the comparisons of every pair with a reference pair.
//! - [`table`]: aligned text, Markdown, CSV or LaTeX output, compact or all columns.
//! - [`pivot`]: `--pivot depth`, optimal solution length x configuration.
//! - [`pooling`]: lines of a report that pool board sizes or instance files.
//! - [`plots`]: figures (SVG, and PNG / PDF rendered from the SVG).
//! - [`totals`]: each results file's run wall time (from its sidecar) and summed job time.
//! - [`html`]: one self-contained HTML page of all of it (`--html`), with interactive views.

pub mod aggregate;
pub mod compare;
pub mod compare_table;
pub mod html;
pub mod pivot;
pub mod plots;
pub mod pooling;
pub mod request;
pub mod spread;
pub mod table;
pub mod totals;

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
    /// Per file: rows, summed job time and the run's own time from its sidecar.
    pub totals: Vec<totals::FileTotals>,
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
        out.totals.push(totals::FileTotals {
            path: file.path.clone(),
            rows: file.rows.len(),
            job_ms: file.rows.iter().map(|(_, r)| r.wall_ms).sum(),
            run: totals::read_run_time(p.as_ref()),
        });
        out.rows.extend(file.rows.into_iter().map(|(_, r)| r));
    }
    Ok(out)
}
