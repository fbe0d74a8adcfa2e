//! `bench report`: aggregate tables (text, Markdown, CSV), SVG figures and an HTML page from
//! results CSVs.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use crate::report::{self, Format, GroupBy};

/// Arguments of `bench report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Results CSVs written by `bench run` (shards, or runs on different machines); their
    /// headers must be identical.
    #[arg(required = true, value_name = "RESULTS.csv")]
    pub files: Vec<PathBuf>,
    /// Group rows besides (algorithm, heuristic), comma-separated: size (rows x cols), moves
    /// (the instance's optimal solution length), scramble (random-walk length).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub by: Vec<GroupBy>,
    /// A pair ALGORITHM/HEURISTIC (e.g. idastar/manhattan) to compare every pair against on the
    /// instances both solved: nodes expanded and time as ratios of sums in the table, and the
    /// time comparisons below it against this pair instead of the fastest one.
    #[arg(long, value_name = "ALGO/HEURISTIC")]
    pub baseline: Option<String>,
    /// Output format: table (aligned text), markdown, csv (unrounded).
    #[arg(long, default_value = "table", value_name = "FORMAT")]
    pub format: Format,
    /// Also write SVG figures into DIR (created if missing); their names go to stderr.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Also write one self-contained HTML page to FILE: the runs' metadata, the sortable
    /// summary, the figures, per-instance table, scatter plot, coverage and solution playback.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
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
    let records = &loaded.rows;
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
        Some(b) => {
            let Some((a, h)) = b.split_once('/') else {
                bail!("--baseline {b:?}: expected ALGORITHM/HEURISTIC, e.g. idastar/manhattan");
            };
            if !records.iter().any(|r| r.algorithm == a && r.heuristic == h) {
                let mut pairs: Vec<String> = records.iter().map(|r| r.pair()).collect();
                pairs.sort();
                pairs.dedup();
                bail!(
                    "--baseline {b}: no rows of that pair; the results have {}",
                    pairs.join(", ")
                );
            }
            Some((a, h))
        }
    };
    let summaries = report::aggregate(records, &by, baseline);
    let mut text = report::render(&summaries, &by, args.baseline.as_deref(), args.format);
    if args.format != Format::Csv {
        // The time spread (with repetitions) and the comparisons with a reference pair; CSV
        // output stays one table.
        let base = baseline.map(|(a, h)| report::compare::Pair::new(a, h));
        let extra = report::spread::render(records, base.as_ref());
        if args.format == Format::Markdown && !extra.is_empty() {
            text.push_str(&format!("\n```text\n{extra}```\n"));
        } else {
            text.push_str(&extra);
        }
    }
    // Per file, the run's own wall time (sidecar) and the summed job time, labelled apart: on
    // stderr, as they describe the files rather than the results.
    eprint!("{}", report::totals::render(&loaded.totals));
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(0),
        r => r.context("cannot write the report to stdout")?,
    }
    if let Some(dir) = &args.plots {
        let (written, skipped) = report::plots::write_plots(dir, records)?;
        for p in written {
            eprintln!("wrote {}", p.display());
        }
        for s in skipped {
            eprintln!("skipped {s}");
        }
    }
    if let Some(path) = &args.html {
        let command_line: Vec<String> = std::env::args().collect();
        let page = report::html::render_html(&report::html::HtmlInput {
            files: &args.files,
            records: &records,
            summaries: &summaries,
            by: &by,
            baseline: args.baseline.as_deref(),
            command_line: &command_line,
        })?;
        for note in &page.notes {
            eprintln!("note: {note}");
        }
        report::html::write_html(path, &page)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(0)
}
