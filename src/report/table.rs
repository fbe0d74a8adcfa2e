//! Rendering summaries: an aligned terminal table, Markdown, or CSV with full precision.

use std::fmt::Write as _;
use std::str::FromStr;

use super::aggregate::{GroupBy, Stat, Summary};
use crate::units::format_bytes;

/// The output format of `bench report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// An aligned plain-text table.
    #[default]
    Table,
    /// A GitHub-flavoured Markdown table.
    Markdown,
    /// CSV, numbers unrounded, empty cells for not applicable.
    Csv,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Self::Table),
            "markdown" | "md" => Ok(Self::Markdown),
            "csv" => Ok(Self::Csv),
            other => Err(format!(
                "unknown format {other:?}: expected table, markdown or csv"
            )),
        }
    }
}

/// One column: its title in text and CSV output, whether it is text (left-aligned), and how to
/// render a summary's cell in text and in CSV.
struct Column {
    text_title: String,
    csv_title: String,
    left: bool,
    text: Box<dyn Fn(&Summary) -> String>,
    csv: Box<dyn Fn(&Summary) -> String>,
}

fn col(
    text_title: &str,
    csv_title: &str,
    text: impl Fn(&Summary) -> String + 'static,
    csv: impl Fn(&Summary) -> String + 'static,
) -> Column {
    Column {
        text_title: text_title.to_string(),
        csv_title: csv_title.to_string(),
        left: false,
        text: Box::new(text),
        csv: Box::new(csv),
    }
}

fn opt_text(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map_or_else(|| "-".to_string(), f)
}

fn opt_csv(v: Option<f64>) -> String {
    v.map_or_else(String::new, |x| format!("{x}"))
}

/// Counts and count means: up to a million with at most one decimal, beyond in scientific
/// notation with four significant digits.
pub fn fmt_count(x: f64) -> String {
    if x.abs() >= 1e6 {
        format!("{x:.3e}")
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Milliseconds with three significant digits or more.
pub fn fmt_ms(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.3}")
    } else if x < 1000.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

fn stat_cols(
    cols: &mut Vec<Column>,
    name: &str,
    get: fn(&Summary) -> Option<Stat>,
    fmt: fn(f64) -> String,
    with_max: bool,
) {
    cols.push(col(
        &format!("{name} mean"),
        &format!("{name}_mean"),
        move |s| opt_text(get(s).map(|v| v.mean), fmt),
        move |s| opt_csv(get(s).map(|v| v.mean)),
    ));
    cols.push(col(
        &format!("{name} median"),
        &format!("{name}_median"),
        move |s| opt_text(get(s).map(|v| v.median), fmt),
        move |s| opt_csv(get(s).map(|v| v.median)),
    ));
    if with_max {
        cols.push(col(
            &format!("{name} max"),
            &format!("{name}_max"),
            move |s| opt_text(get(s).map(|v| v.max), fmt),
            move |s| opt_csv(get(s).map(|v| v.max)),
        ));
    }
}

/// Whether any summary has an outcome only processes have (their columns are shown then).
fn has_process_outcomes(summaries: &[Summary]) -> bool {
    summaries
        .iter()
        .any(|s| s.cpu_limits + s.wrong_answers + s.rejected + s.crashed > 0)
}

fn columns(by: &[GroupBy], baseline: Option<&str>, process_outcomes: bool) -> Vec<Column> {
    let mut cols = Vec::new();
    for (i, g) in by.iter().enumerate() {
        let mut c = col(
            g.title(),
            g.title(),
            move |s| s.group[i].to_string(),
            move |s| s.group[i].to_string(),
        );
        c.left = true;
        cols.push(c);
    }
    let mut a = col(
        "algorithm",
        "algorithm",
        |s| s.algorithm.clone(),
        |s| s.algorithm.clone(),
    );
    a.left = true;
    cols.push(a);
    let mut h = col(
        "heuristic",
        "heuristic",
        |s| s.heuristic.clone(),
        |s| s.heuristic.clone(),
    );
    h.left = true;
    cols.push(h);
    cols.push(col(
        "solved",
        "solved",
        |s| format!("{}/{}", s.solved, s.runs),
        |s| s.solved.to_string(),
    ));
    cols.push(col(
        "runs",
        "runs",
        |s| s.runs.to_string(),
        |s| s.runs.to_string(),
    ));
    stat_cols(
        &mut cols,
        "moves",
        |s| s.moves,
        |x| format!("{x:.2}"),
        false,
    );
    stat_cols(&mut cols, "expanded", |s| s.expanded, fmt_count, true);
    stat_cols(&mut cols, "generated", |s| s.generated, fmt_count, true);
    cols.push(col(
        "b*",
        "bstar",
        |s| opt_text(s.bstar, |x| format!("{x:.3}")),
        |s| opt_csv(s.bstar),
    ));
    stat_cols(&mut cols, "ms", |s| s.time_ms, fmt_ms, false);
    cols.push(col(
        "Mnodes/s",
        "nodes_per_sec",
        |s| opt_text(s.nodes_per_sec, |x| format!("{:.2}", x / 1e6)),
        |s| opt_csv(s.nodes_per_sec),
    ));
    cols.push(col(
        "heap mean",
        "peak_heap_bytes_mean",
        |s| opt_text(s.heap.map(|h| h.mean), format_bytes),
        |s| opt_csv(s.heap.map(|h| h.mean)),
    ));
    cols.push(col(
        "heap max",
        "peak_heap_bytes_max",
        |s| opt_text(s.heap.map(|h| h.max), format_bytes),
        |s| opt_csv(s.heap.map(|h| h.max)),
    ));
    cols.push(col(
        "timeout",
        "timeout",
        |s| s.timeouts.to_string(),
        |s| s.timeouts.to_string(),
    ));
    cols.push(col(
        "node-limit",
        "node_limit",
        |s| s.node_limits.to_string(),
        |s| s.node_limits.to_string(),
    ));
    cols.push(col(
        "mem-limit",
        "memory_limit",
        |s| s.memory_limits.to_string(),
        |s| s.memory_limits.to_string(),
    ));
    cols.push(col(
        "depth-limit",
        "depth_limit",
        |s| s.depth_limits.to_string(),
        |s| s.depth_limits.to_string(),
    ));
    cols.push(col(
        "error",
        "error",
        |s| s.errors.to_string(),
        |s| s.errors.to_string(),
    ));
    if process_outcomes {
        cols.push(col(
            "cpu-limit",
            "cpu_limit",
            |s| s.cpu_limits.to_string(),
            |s| s.cpu_limits.to_string(),
        ));
        cols.push(col(
            "wrong-answer",
            "wrong_answer",
            |s| s.wrong_answers.to_string(),
            |s| s.wrong_answers.to_string(),
        ));
        cols.push(col(
            "rejected",
            "rejected",
            |s| s.rejected.to_string(),
            |s| s.rejected.to_string(),
        ));
        cols.push(col(
            "crashed",
            "crashed",
            |s| s.crashed.to_string(),
            |s| s.crashed.to_string(),
        ));
    }
    if baseline.is_some() {
        cols.push(col(
            "base n",
            "baseline_instances",
            |s| {
                s.baseline
                    .map_or_else(String::new, |r| r.instances.to_string())
            },
            |s| {
                s.baseline
                    .map_or_else(String::new, |r| r.instances.to_string())
            },
        ));
        cols.push(col(
            "nodes vs base",
            "expanded_vs_baseline",
            |s| opt_text(s.baseline.and_then(|r| r.nodes), |x| format!("{x:.3}")),
            |s| opt_csv(s.baseline.and_then(|r| r.nodes)),
        ));
        cols.push(col(
            "time vs base",
            "time_vs_baseline",
            |s| opt_text(s.baseline.and_then(|r| r.time), |x| format!("{x:.3}")),
            |s| opt_csv(s.baseline.and_then(|r| r.time)),
        ));
    }
    cols
}

/// Renders the summaries in `format`. `by` names the group columns; `baseline` is the
/// `algorithm/heuristic` the ratio columns refer to, if any.
pub fn render(
    summaries: &[Summary],
    by: &[GroupBy],
    baseline: Option<&str>,
    format: Format,
) -> String {
    let cols = columns(by, baseline, has_process_outcomes(summaries));
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            let head: Vec<&str> = cols.iter().map(|c| c.csv_title.as_str()).collect();
            w.write_record(&head).expect("in-memory CSV");
            for s in summaries {
                let rec: Vec<String> = cols.iter().map(|c| (c.csv)(s)).collect();
                w.write_record(&rec).expect("in-memory CSV");
            }
            String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV")
        }
        Format::Table | Format::Markdown => {
            let head: Vec<String> = cols.iter().map(|c| c.text_title.clone()).collect();
            let body: Vec<Vec<String>> = summaries
                .iter()
                .map(|s| cols.iter().map(|c| (c.text)(s)).collect())
                .collect();
            let widths: Vec<usize> = (0..cols.len())
                .map(|i| {
                    body.iter()
                        .map(|r| r[i].chars().count())
                        .chain([head[i].chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let cell = |i: usize, t: &str| {
                let pad = widths[i] - t.chars().count();
                if cols[i].left {
                    format!("{t}{}", " ".repeat(pad))
                } else {
                    format!("{}{t}", " ".repeat(pad))
                }
            };
            let mut out = String::new();
            let md = format == Format::Markdown;
            let line = |r: &[String]| -> String {
                let cells: Vec<String> = r.iter().enumerate().map(|(i, t)| cell(i, t)).collect();
                if md {
                    format!("| {} |", cells.join(" | "))
                } else {
                    cells.join("  ").trim_end().to_string()
                }
            };
            writeln!(out, "{}", line(&head)).expect("string");
            if md {
                let rule: Vec<String> = widths
                    .iter()
                    .enumerate()
                    .map(|(i, w)| {
                        let w = (*w).max(3);
                        if cols[i].left {
                            format!(":{}", "-".repeat(w - 1))
                        } else {
                            format!("{}:", "-".repeat(w - 1))
                        }
                    })
                    .collect();
                writeln!(out, "| {} |", rule.join(" | ")).expect("string");
            } else {
                let total = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
                writeln!(out, "{}", "-".repeat(total)).expect("string");
            }
            for r in &body {
                writeln!(out, "{}", line(r)).expect("string");
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(fmt_count(42.0), "42");
        assert_eq!(fmt_count(42.25), "42.2");
        assert_eq!(fmt_count(36_302_808.0), "3.630e7");
        assert_eq!(fmt_ms(1.23456), "1.235");
        assert_eq!(fmt_ms(123.456), "123.5");
    }
}
