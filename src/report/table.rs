//! Rendering summaries: an aligned terminal table, Markdown, or CSV with full precision.

use std::fmt::Write as _;
use std::str::FromStr;

use super::aggregate::{GroupBy, Stat, Summary};
use crate::infra::units::format_bytes;

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
    /// A LaTeX `tabular` with booktabs rules (`\toprule`, `\midrule`, `\bottomrule`).
    Latex,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Self::Table),
            "markdown" | "md" => Ok(Self::Markdown),
            "csv" => Ok(Self::Csv),
            "latex" | "tex" => Ok(Self::Latex),
            other => Err(format!(
                "unknown format {other:?}: expected table, markdown, csv or latex"
            )),
        }
    }
}

/// Which summary columns the text formats show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Columns {
    /// The format's default: `compact` for table, Markdown and LaTeX, `all` for CSV.
    #[default]
    Default,
    /// Groups, pair, solved, mean moves, nodes expanded (mean, median), b*, time (mean,
    /// median), peak heap (max), and the baseline ratios.
    Compact,
    /// Every column.
    All,
}

impl FromStr for Columns {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "compact" => Ok(Self::Compact),
            "all" => Ok(Self::All),
            other => Err(format!(
                "unknown column set {other:?}: expected compact or all"
            )),
        }
    }
}

impl Columns {
    /// Whether the full column set is shown in `format`.
    fn all(self, format: Format) -> bool {
        match self {
            Self::Default => format == Format::Csv,
            Self::Compact => false,
            Self::All => true,
        }
    }
}

/// A table ready to print: titles, alignment, and the cells as text (rounded, with units) and
/// as CSV (unrounded); `notes` are printed under the text formats.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Column titles in the text formats.
    pub head: Vec<String>,
    /// Column titles in CSV.
    pub csv_head: Vec<String>,
    /// Left-aligned (text) columns.
    pub left: Vec<bool>,
    /// Rows of rounded cells.
    pub text: Vec<Vec<String>>,
    /// Rows of unrounded cells (may have more columns than `text`: see `csv_head`).
    pub csv: Vec<Vec<String>>,
    /// Lines printed under the table in the text formats (a LaTeX comment in `latex`).
    pub notes: Vec<String>,
}

/// One column: its title in text and CSV output, whether it is text (left-aligned), whether
/// the compact set has it, and how to render a summary's cell in text and in CSV.
struct Column {
    text_title: String,
    csv_title: String,
    left: bool,
    compact: bool,
    text: Box<dyn Fn(&Summary) -> String>,
    csv: Box<dyn Fn(&Summary) -> String>,
    /// A count column (a stop reason) that the compact set shows when some row has one.
    count: Option<fn(&Summary) -> usize>,
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
        compact: false,
        text: Box::new(text),
        csv: Box::new(csv),
        count: None,
    }
}

impl Column {
    fn left(mut self) -> Self {
        self.left = true;
        self
    }
    fn compact(mut self) -> Self {
        self.compact = true;
        self
    }
    /// In the compact set only when `count` is non-zero for some row.
    fn when_nonzero(mut self, count: fn(&Summary) -> usize) -> Self {
        self.count = Some(count);
        self
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

/// Which of mean, median and max a statistic shows, in the full and the compact set.
struct StatCols {
    max: bool,
    compact_mean: bool,
    compact_median: bool,
}

fn stat_cols(
    cols: &mut Vec<Column>,
    name: &str,
    get: fn(&Summary) -> Option<Stat>,
    fmt: fn(f64) -> String,
    which: StatCols,
) {
    let mut mean = col(
        &format!("{name} mean"),
        &format!("{name}_mean"),
        move |s| opt_text(get(s).map(|v| v.mean), fmt),
        move |s| opt_csv(get(s).map(|v| v.mean)),
    );
    mean.compact = which.compact_mean;
    cols.push(mean);
    let mut median = col(
        &format!("{name} median"),
        &format!("{name}_median"),
        move |s| opt_text(get(s).map(|v| v.median), fmt),
        move |s| opt_csv(get(s).map(|v| v.median)),
    );
    median.compact = which.compact_median;
    cols.push(median);
    if which.max {
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
        cols.push(
            col(
                g.title(),
                g.title(),
                move |s| s.group[i].to_string(),
                move |s| s.group[i].to_string(),
            )
            .left()
            .compact(),
        );
    }
    cols.push(
        col(
            "algorithm",
            "algorithm",
            |s| s.algorithm.clone(),
            |s| s.algorithm.clone(),
        )
        .left()
        .compact(),
    );
    cols.push(
        col(
            "heuristic",
            "heuristic",
            |s| s.heuristic.clone(),
            |s| s.heuristic.clone(),
        )
        .left()
        .compact(),
    );
    cols.push(
        col(
            "solved",
            "solved",
            |s| format!("{}/{}", s.solved, s.runs),
            |s| s.solved.to_string(),
        )
        .compact(),
    );
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
        StatCols {
            max: false,
            compact_mean: true,
            compact_median: false,
        },
    );
    stat_cols(
        &mut cols,
        "expanded",
        |s| s.expanded,
        fmt_count,
        StatCols {
            max: true,
            compact_mean: true,
            compact_median: true,
        },
    );
    stat_cols(
        &mut cols,
        "generated",
        |s| s.generated,
        fmt_count,
        StatCols {
            max: true,
            compact_mean: false,
            compact_median: false,
        },
    );
    cols.push(
        col(
            "b*",
            "bstar",
            |s| opt_text(s.bstar, |x| format!("{x:.3}")),
            |s| opt_csv(s.bstar),
        )
        .compact(),
    );
    stat_cols(
        &mut cols,
        "ms",
        |s| s.time_ms,
        fmt_ms,
        StatCols {
            max: false,
            compact_mean: true,
            compact_median: true,
        },
    );
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
    cols.push(
        col(
            "heap max",
            "peak_heap_bytes_max",
            |s| opt_text(s.heap.map(|h| h.max), format_bytes),
            |s| opt_csv(s.heap.map(|h| h.max)),
        )
        .compact(),
    );
    cols.push(
        col(
            "timeout",
            "timeout",
            |s| s.timeouts.to_string(),
            |s| s.timeouts.to_string(),
        )
        .when_nonzero(|s| s.timeouts),
    );
    cols.push(
        col(
            "node-limit",
            "node_limit",
            |s| s.node_limits.to_string(),
            |s| s.node_limits.to_string(),
        )
        .when_nonzero(|s| s.node_limits),
    );
    cols.push(
        col(
            "mem-limit",
            "memory_limit",
            |s| s.memory_limits.to_string(),
            |s| s.memory_limits.to_string(),
        )
        .when_nonzero(|s| s.memory_limits),
    );
    cols.push(
        col(
            "depth-limit",
            "depth_limit",
            |s| s.depth_limits.to_string(),
            |s| s.depth_limits.to_string(),
        )
        .when_nonzero(|s| s.depth_limits),
    );
    cols.push(
        col(
            "error",
            "error",
            |s| s.errors.to_string(),
            |s| s.errors.to_string(),
        )
        .when_nonzero(|s| s.errors),
    );
    if process_outcomes {
        cols.push(
            col(
                "cpu-limit",
                "cpu_limit",
                |s| s.cpu_limits.to_string(),
                |s| s.cpu_limits.to_string(),
            )
            .when_nonzero(|s| s.cpu_limits),
        );
        cols.push(
            col(
                "wrong-answer",
                "wrong_answer",
                |s| s.wrong_answers.to_string(),
                |s| s.wrong_answers.to_string(),
            )
            .when_nonzero(|s| s.wrong_answers),
        );
        cols.push(
            col(
                "rejected",
                "rejected",
                |s| s.rejected.to_string(),
                |s| s.rejected.to_string(),
            )
            .when_nonzero(|s| s.rejected),
        );
        cols.push(
            col(
                "crashed",
                "crashed",
                |s| s.crashed.to_string(),
                |s| s.crashed.to_string(),
            )
            .when_nonzero(|s| s.crashed),
        );
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
        cols.push(
            col(
                "nodes vs base",
                "expanded_vs_baseline",
                |s| opt_text(s.baseline.and_then(|r| r.nodes), |x| format!("{x:.3}")),
                |s| opt_csv(s.baseline.and_then(|r| r.nodes)),
            )
            .compact(),
        );
        cols.push(
            col(
                "time vs base",
                "time_vs_baseline",
                |s| opt_text(s.baseline.and_then(|r| r.time), |x| format!("{x:.3}")),
                |s| opt_csv(s.baseline.and_then(|r| r.time)),
            )
            .compact(),
        );
    }
    cols
}

/// The summary table: `by` names the group columns; `baseline` is the `algorithm/heuristic`
/// the ratio columns refer to, if any; `columns` and `format` choose the column set.
pub fn summary_table(
    summaries: &[Summary],
    by: &[GroupBy],
    baseline: Option<&str>,
    columns_shown: Columns,
    format: Format,
) -> Table {
    let all = columns_shown.all(format);
    let cols: Vec<Column> = columns(by, baseline, has_process_outcomes(summaries))
        .into_iter()
        .filter(|c| all || c.compact || c.count.is_some_and(|n| summaries.iter().any(|s| n(s) > 0)))
        .collect();
    Table {
        head: cols.iter().map(|c| c.text_title.clone()).collect(),
        csv_head: cols.iter().map(|c| c.csv_title.clone()).collect(),
        left: cols.iter().map(|c| c.left).collect(),
        text: summaries
            .iter()
            .map(|s| cols.iter().map(|c| (c.text)(s)).collect())
            .collect(),
        csv: summaries
            .iter()
            .map(|s| cols.iter().map(|c| (c.csv)(s)).collect())
            .collect(),
        notes: Vec::new(),
    }
}

/// Renders the summaries in `format` with every column (`bench run`'s summary). `by` names the
/// group columns; `baseline` is the `algorithm/heuristic` the ratio columns refer to, if any.
pub fn render(
    summaries: &[Summary],
    by: &[GroupBy],
    baseline: Option<&str>,
    format: Format,
) -> String {
    render_with(summaries, by, baseline, Columns::All, format)
}

/// [`render`] with the column set `columns_shown`.
pub fn render_with(
    summaries: &[Summary],
    by: &[GroupBy],
    baseline: Option<&str>,
    columns_shown: Columns,
    format: Format,
) -> String {
    render_table(
        &summary_table(summaries, by, baseline, columns_shown, format),
        format,
    )
}

/// `s` with the characters LaTeX treats specially escaped, in text mode.
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// A cell in LaTeX: a number in scientific notation (`1.234e6`) becomes `$1.234 \cdot 10^{6}$`,
/// `b*` becomes `$b^*$`, anything else is escaped.
fn latex_cell(s: &str) -> String {
    if s == "b*" {
        return "$b^*$".to_string();
    }
    if let Some(base) = s.strip_suffix('*')
        && !base.is_empty()
    {
        return format!("{}*", latex_cell(base));
    }
    if let Some((m, e)) = s.split_once('e')
        && !m.is_empty()
        && m.parse::<f64>().is_ok()
        && e.parse::<i32>().is_ok()
    {
        return format!("${m} \\cdot 10^{{{}}}$", e.parse::<i32>().unwrap_or(0));
    }
    latex_escape(s)
}

/// Renders a [`Table`] in `format`.
pub fn render_table(t: &Table, format: Format) -> String {
    let mut out = String::new();
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(&t.csv_head).expect("in-memory CSV");
            for r in &t.csv {
                w.write_record(r).expect("in-memory CSV");
            }
            out = String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV");
        }
        Format::Latex => {
            let spec: String = t.left.iter().map(|&l| if l { 'l' } else { 'r' }).collect();
            for n in &t.notes {
                writeln!(out, "% {}", n.replace('\n', " ")).expect("string");
            }
            writeln!(out, "\\begin{{tabular}}{{{spec}}}").expect("string");
            writeln!(out, "\\toprule").expect("string");
            let line = |r: &[String]| -> String {
                let cells: Vec<String> = r.iter().map(|c| latex_cell(c)).collect();
                format!("{} \\\\", cells.join(" & "))
            };
            writeln!(out, "{}", line(&t.head)).expect("string");
            writeln!(out, "\\midrule").expect("string");
            for r in &t.text {
                writeln!(out, "{}", line(r)).expect("string");
            }
            writeln!(out, "\\bottomrule").expect("string");
            writeln!(out, "\\end{{tabular}}").expect("string");
        }
        Format::Table | Format::Markdown => {
            let n = t.head.len();
            let widths: Vec<usize> = (0..n)
                .map(|i| {
                    t.text
                        .iter()
                        .map(|r| r[i].chars().count())
                        .chain([t.head[i].chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let cell = |i: usize, s: &str| {
                let pad = widths[i] - s.chars().count();
                if t.left[i] {
                    format!("{s}{}", " ".repeat(pad))
                } else {
                    format!("{}{s}", " ".repeat(pad))
                }
            };
            let md = format == Format::Markdown;
            let line = |r: &[String]| -> String {
                let cells: Vec<String> = r.iter().enumerate().map(|(i, s)| cell(i, s)).collect();
                if md {
                    format!("| {} |", cells.join(" | "))
                } else {
                    cells.join("  ").trim_end().to_string()
                }
            };
            writeln!(out, "{}", line(&t.head)).expect("string");
            if md {
                let rule: Vec<String> = widths
                    .iter()
                    .enumerate()
                    .map(|(i, w)| {
                        let w = (*w).max(3);
                        if t.left[i] {
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
            for r in &t.text {
                writeln!(out, "{}", line(r)).expect("string");
            }
            if !t.notes.is_empty() {
                writeln!(out).expect("string");
                for n in &t.notes {
                    writeln!(out, "{n}").expect("string");
                }
            }
        }
    }
    out
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
