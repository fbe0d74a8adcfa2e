//! `bench report`: aggregate tables, depth pivots and per-instance comparisons (text,
//! Markdown, CSV, LaTeX), figures (SVG, PNG, PDF) and an HTML page from results CSVs.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::values::closed;

use crate::infra::chart::PlotFormat;
use crate::report::pivot::PivotValue;
use crate::report::request::{self, PivotBy, Request};
use crate::report::{Columns, Format, GroupBy};

/// Arguments of `bench report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Results CSVs written by `bench run` (shards, or runs on different machines); their
    /// headers must be identical.
    #[arg(required = true, value_name = "RESULTS.csv")]
    pub files: Vec<PathBuf>,
    /// Group rows besides (algorithm, heuristic), comma-separated: size (rows x cols), moves
    /// (the instance's optimal solution length), scramble (random-walk length), file (the
    /// instance file).
    #[arg(long, value_delimiter = ',', value_name = "LIST", value_parser = closed::<GroupBy>("grouping"))]
    pub by: Vec<GroupBy>,
    /// A pair ALGORITHM/HEURISTIC (e.g. idastar/manhattan) to compare every pair against on the
    /// instances both solved: nodes expanded and time as ratios of sums in the table, and the
    /// time comparisons below it against this pair instead of the fastest one.
    #[arg(long, value_name = "ALGO/HEURISTIC")]
    pub baseline: Option<String>,
    /// Print a depth x configuration table instead of the summary: rows = optimal solution
    /// length, columns = algorithm/heuristic (split by the other --by groups), cells =
    /// --pivot-value.
    #[arg(long, value_name = "depth", conflicts_with = "baseline", value_parser = closed::<PivotBy>("pivot"))]
    pub pivot: Option<PivotBy>,
    /// The pivot's cells: expanded (mean nodes expanded), generated, ms (mean wall time) or
    /// bstar, over the solved runs.
    #[arg(
        long,
        value_name = "VALUE",
        default_value = "expanded",
        requires = "pivot"
    , value_parser = closed::<PivotValue>("pivot value"))]
    pub pivot_value: PivotValue,
    /// Compare two configurations A and B (algorithm/heuristic as the table names them) per
    /// instance, on the instances both solved: geometric mean of the ratios A/B of nodes
    /// expanded and of wall time with a 95% confidence interval, and A lower/higher/tie counts.
    #[arg(
        long,
        num_args = 2,
        value_names = ["A", "B"],
        conflicts_with_all = ["pivot", "baseline", "columns"]
    )]
    pub compare: Option<Vec<String>>,
    /// Summary columns: compact (the default in table, markdown and latex) or all (the
    /// default in csv).
    #[arg(long, value_name = "SET", conflicts_with = "pivot", value_parser = closed::<Columns>("column set"))]
    pub columns: Option<Columns>,
    /// Output format: table (aligned text), markdown, csv (unrounded), latex (booktabs).
    #[arg(long, default_value = "table", value_name = "FORMAT", value_parser = closed::<Format>("format"))]
    pub format: Format,
    /// Also write figures into DIR (created if missing); their names go to stderr.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Also write one self-contained HTML page to FILE: the runs' metadata, the sortable
    /// summary, the figures, per-instance table, scatter plot, coverage and solution playback.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Figure formats, comma-separated: svg, png, pdf.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "LIST",
        default_value = "svg",
        requires = "plots"
    , value_parser = closed::<PlotFormat>("figure format"))]
    pub plot_format: Vec<PlotFormat>,
    /// Leave the titles out of the figures (for a caption in a paper).
    #[arg(long, requires = "plots")]
    pub no_titles: bool,
}

impl ReportArgs {
    /// The engine's request.
    fn request(&self) -> anyhow::Result<Request> {
        let compare = match &self.compare {
            None => None,
            Some(v) => match v.as_slice() {
                [a, b] => Some((a.clone(), b.clone())),
                _ => bail!("--compare takes two configurations, A and B"),
            },
        };
        Ok(Request {
            files: self.files.clone(),
            by: self.by.clone(),
            baseline: self.baseline.clone(),
            pivot: self.pivot,
            pivot_value: self.pivot_value,
            compare,
            columns: self.columns,
            format: self.format,
            plots: self.plots.clone(),
            plot_formats: self.plot_format.clone(),
            titles: !self.no_titles,
            html: self.html.clone(),
            command_line: std::env::args().collect(),
        })
    }
}

/// Runs `bench report`; returns the exit status.
pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    request::run(&args.request()?, &mut std::io::stdout().lock())?;
    Ok(0)
}
