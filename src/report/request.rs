//! `bench report`'s request and its engine: the results files loaded, the checks on the
//! options against them, the table (summary, depth pivot or per-instance comparison) written,
//! then the figures and the HTML page.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};

use super::compare::parse_pair_in;
use super::pivot::PivotValue;
use super::plots::PlotOptions;
use super::{Columns, Format, GroupBy};
use crate::infra::chart::PlotFormat;
use crate::results::Pair;
use crate::results::Row;

/// What `--pivot` turns into rows (`moves` is an old spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PivotBy {
    /// The instances' optimal solution length.
    #[value(alias = "moves")]
    Depth,
}

/// What `bench report` is asked for (the flags of the same names).
#[derive(Debug, Clone)]
pub struct Request {
    /// Results CSVs with identical headers.
    pub files: Vec<PathBuf>,
    /// Groups besides (algorithm, heuristic).
    pub by: Vec<GroupBy>,
    /// `ALGO/HEURISTIC` every pair is compared against.
    pub baseline: Option<String>,
    /// A depth x configuration table instead of the summary.
    pub pivot: Option<PivotBy>,
    /// The pivot's cells.
    pub pivot_value: PivotValue,
    /// Two configurations compared per instance.
    pub compare: Option<(String, String)>,
    /// The summary's columns (else the format's default).
    pub columns: Option<Columns>,
    /// The table's format.
    pub format: Format,
    /// Directory for figures.
    pub plots: Option<PathBuf>,
    /// Figure formats.
    pub plot_formats: Vec<PlotFormat>,
    /// Titles on the figures.
    pub titles: bool,
    /// The HTML page's file.
    pub html: Option<PathBuf>,
    /// The command line, recorded in the HTML page.
    pub command_line: Vec<String>,
}

/// Runs `bench report`: the table to `out`, notes and the names of written files to stderr.
pub fn run(req: &Request, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut by = Vec::new();
    for g in &req.by {
        if by.contains(g) {
            bail!("--by lists {} twice", g.title());
        }
        by.push(*g);
    }
    if req.pivot.is_some() && by.contains(&GroupBy::Moves) {
        bail!("--pivot depth already makes one row per solution length: leave moves out of --by");
    }
    let mut formats = Vec::new();
    for f in &req.plot_formats {
        if formats.contains(f) {
            bail!("--plot-format lists {} twice", f.extension());
        }
        formats.push(*f);
    }
    let loaded = super::load_files(&req.files)?;
    for (path, torn) in &loaded.torn {
        eprintln!(
            "warning: {}:{}: left out an incomplete last line ({} bytes; a run killed while \
             writing, or one still running)",
            path.display(),
            torn.line,
            torn.bytes
        );
    }
    let records = &loaded.rows;
    if records.is_empty() {
        bail!(
            "no result rows in {}",
            req.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let baseline = match &req.baseline {
        None => None,
        Some(b) => Some(parse_pair("--baseline", b, records)?),
    };
    for p in super::pooling::pooled(records, &by) {
        eprintln!("{}", p.message());
    }
    let text = table_text(req, records, &by, baseline.as_ref())?;
    // Per file, the run's own wall time (sidecar) and the summed job time, labelled apart: on
    // stderr, as they describe the files rather than the results.
    eprint!("{}", super::totals::render(&loaded.totals));
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        r => r.context("cannot write the report to stdout")?,
    }
    if let Some(dir) = &req.plots {
        let opts = PlotOptions {
            formats,
            titles: req.titles,
        };
        let (written, skipped) = super::plots::write_plots_with(dir, records, &opts)?;
        for p in written {
            eprintln!("wrote {}", p.display());
        }
        for s in skipped {
            eprintln!("skipped {s}");
        }
    }
    if let Some(path) = &req.html {
        let summaries = super::aggregate(records, &by, baseline.as_ref());
        let page = super::html::render_html(&super::html::HtmlInput {
            files: &req.files,
            records,
            summaries: &summaries,
            by: &by,
            baseline: req.baseline.as_deref(),
            command_line: &req.command_line,
        })?;
        for note in &page.notes {
            eprintln!("note: {note}");
        }
        super::html::write_html(path, &page)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// The table on stdout: the per-instance comparison, the depth pivot, or the summary (with
/// the time spread in text and Markdown).
fn table_text(
    req: &Request,
    records: &[Row],
    by: &[GroupBy],
    baseline: Option<&Pair>,
) -> anyhow::Result<String> {
    let compare = match &req.compare {
        None => None,
        Some((a, b)) => {
            let pa = parse_pair_in(a, records).context("--compare")?;
            let pb = parse_pair_in(b, records).context("--compare")?;
            if pa == pb {
                bail!("--compare {a} {b}: the two configurations are the same");
            }
            Some((pa, pb))
        }
    };
    Ok(match (req.pivot, compare) {
        (_, Some((a, b))) => {
            let groups = super::compare_table::split_groups(records, by);
            let lines = super::compare_table::compare_groups(&groups, &a, &b);
            super::render_table(
                &super::compare_table::compare_table(&lines, by, &a, &b),
                req.format,
            )
        }
        (Some(PivotBy::Depth), None) => {
            let p = super::pivot::pivot(records, by, req.pivot_value);
            super::render_table(&super::pivot::pivot_table(&p), req.format)
        }
        (None, None) => {
            let summaries = super::aggregate(records, by, baseline);
            let mut text = super::render_with(
                &summaries,
                by,
                req.baseline.as_deref(),
                req.columns.unwrap_or_default(),
                req.format,
            );
            if matches!(req.format, Format::Table | Format::Markdown) {
                // The time spread (with repetitions) and the comparisons with a reference
                // pair; CSV and LaTeX output stay one table.
                let extra = super::spread::render(records, baseline);
                if req.format == Format::Markdown && !extra.is_empty() {
                    text.push_str(&format!("\n```text\n{extra}```\n"));
                } else {
                    text.push_str(&extra);
                }
            }
            text
        }
    })
}

/// `A/B` as (algorithm, heuristic), checked against the pairs in `records`; `flag` names the
/// option in errors.
fn parse_pair(flag: &str, s: &str, records: &[Row]) -> anyhow::Result<Pair> {
    let Some((a, h)) = s.split_once('/') else {
        bail!("{flag} {s:?}: expected ALGORITHM/HEURISTIC, e.g. idastar/manhattan");
    };
    let pair = Pair::new(a, h);
    if !records.iter().any(|r| pair.matches(r)) {
        let mut pairs: Vec<String> = records.iter().map(|r| r.pair().to_string()).collect();
        pairs.sort();
        pairs.dedup();
        bail!(
            "{flag} {s}: no rows of that pair; the results have {}",
            pairs.join(", ")
        );
    }
    Ok(pair)
}
