//! `bench report`: aggregate tables, depth pivots and per-instance comparisons (text,
//! Markdown, CSV, LaTeX) and figures (SVG, PNG, PDF) from results CSVs.

use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Context, bail};
use clap::Args;

use crate::report::compare::Pair;
use crate::report::pivot::PivotValue;
use crate::report::plots::{PlotFormat, PlotOptions};
use crate::report::{self, Columns, Format, GroupBy};
use crate::results::Row;

/// What `--pivot` turns into rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PivotBy {
    /// The instances' optimal solution length.
    Depth,
}

impl FromStr for PivotBy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "depth" | "moves" => Ok(Self::Depth),
            other => Err(format!("unknown pivot {other:?}: expected depth")),
        }
    }
}

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
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub by: Vec<GroupBy>,
    /// A pair ALGORITHM/HEURISTIC (e.g. idastar/manhattan) to compare every pair against on the
    /// instances both solved: nodes expanded and time, as ratios of sums.
    #[arg(long, value_name = "ALGO/HEURISTIC")]
    pub baseline: Option<String>,
    /// Print a depth x configuration table instead of the summary: rows = optimal solution
    /// length, columns = algorithm/heuristic (split by the other --by groups), cells =
    /// --pivot-value.
    #[arg(long, value_name = "depth", conflicts_with = "baseline")]
    pub pivot: Option<PivotBy>,
    /// The pivot's cells: expanded (mean nodes expanded), generated, ms (mean wall time) or
    /// bstar, over the solved runs.
    #[arg(
        long,
        value_name = "VALUE",
        default_value = "expanded",
        requires = "pivot"
    )]
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
    #[arg(long, value_name = "SET", conflicts_with = "pivot")]
    pub columns: Option<Columns>,
    /// Output format: table (aligned text), markdown, csv (unrounded), latex (booktabs).
    #[arg(long, default_value = "table", value_name = "FORMAT")]
    pub format: Format,
    /// Also write figures into DIR (created if missing); their names go to stderr.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Figure formats, comma-separated: svg, png, pdf.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "LIST",
        default_value = "svg",
        requires = "plots"
    )]
    pub plot_format: Vec<PlotFormat>,
    /// Leave the titles out of the figures (for a caption in a paper).
    #[arg(long, requires = "plots")]
    pub no_titles: bool,
}

/// `A/B` as (algorithm, heuristic), checked against the pairs in `records`; `flag` names the
/// option in errors.
fn parse_pair<'a>(flag: &str, s: &'a str, records: &[Row]) -> anyhow::Result<(&'a str, &'a str)> {
    let Some((a, h)) = s.split_once('/') else {
        bail!("{flag} {s:?}: expected ALGORITHM/HEURISTIC, e.g. idastar/manhattan");
    };
    if !records.iter().any(|r| r.algorithm == a && r.heuristic == h) {
        let mut pairs: Vec<String> = records.iter().map(Row::pair).collect();
        pairs.sort();
        pairs.dedup();
        bail!(
            "{flag} {s}: no rows of that pair; the results have {}",
            pairs.join(", ")
        );
    }
    Ok((a, h))
}

/// Runs `bench report`; returns the exit status.
pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    let mut by = Vec::new();
    for g in &args.by {
        if by.contains(g) {
            bail!("--by lists {} twice", g.title());
        }
        by.push(*g);
    }
    if args.pivot.is_some() && by.contains(&GroupBy::Moves) {
        bail!("--pivot depth already makes one row per solution length: leave moves out of --by");
    }
    let mut formats = Vec::new();
    for f in &args.plot_format {
        if formats.contains(f) {
            bail!("--plot-format lists {} twice", f.extension());
        }
        formats.push(*f);
    }
    let loaded = report::load_files(&args.files)?;
    for (path, torn) in &loaded.torn {
        eprintln!(
            "warning: {}:{}: left out an incomplete last line ({} bytes; a run killed while \
             writing, or one still running)",
            path.display(),
            torn.line,
            torn.bytes
        );
    }
    let records = loaded.rows;
    if records.is_empty() {
        bail!(
            "no result rows in {}",
            args.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let baseline = match &args.baseline {
        None => None,
        Some(b) => Some(parse_pair("--baseline", b, &records)?),
    };
    for p in report::pooling::pooled(&records, &by) {
        eprintln!("{}", p.message());
    }
    let compare = match &args.compare {
        None => None,
        Some(v) => {
            let [a, b] = v.as_slice() else {
                bail!("--compare takes two configurations, A and B");
            };
            let pa = Pair::parse_in(a, &records).context("--compare")?;
            let pb = Pair::parse_in(b, &records).context("--compare")?;
            if pa == pb {
                bail!("--compare {a} {b}: the two configurations are the same");
            }
            Some((pa, pb))
        }
    };
    let text = match (args.pivot, compare) {
        (_, Some((a, b))) => {
            let groups = report::compare_table::split_groups(&records, &by);
            let lines = report::compare_table::compare_groups(&groups, &a, &b);
            report::render_table(
                &report::compare_table::compare_table(&lines, &by, &a, &b),
                args.format,
            )
        }
        (Some(PivotBy::Depth), None) => {
            let p = report::pivot::pivot(&records, &by, args.pivot_value);
            report::render_table(&report::pivot::pivot_table(&p), args.format)
        }
        (None, None) => {
            let summaries = report::aggregate(&records, &by, baseline);
            report::render_with(
                &summaries,
                &by,
                args.baseline.as_deref(),
                args.columns.unwrap_or_default(),
                args.format,
            )
        }
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(0),
        r => r.context("cannot write the report to stdout")?,
    }
    if let Some(dir) = &args.plots {
        let opts = PlotOptions {
            formats,
            titles: !args.no_titles,
        };
        let (written, skipped) = report::plots::write_plots_with(dir, &records, &opts)?;
        for p in written {
            eprintln!("wrote {}", p.display());
        }
        for s in skipped {
            eprintln!("skipped {s}");
        }
    }
    Ok(0)
}
