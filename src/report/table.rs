//! Rendering summaries: an aligned terminal table, Markdown, or CSV with full precision.

use std::fmt::Write as _;

use super::aggregate::{GroupBy, Stat, Summary};
use crate::infra::units::format_bytes;

/// The output format of `bench report` (`--format`; `md` and `tex` are old spellings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// An aligned plain-text table.
    #[default]
    Table,
    /// A GitHub-flavoured Markdown table.
    #[value(alias = "md")]
    Markdown,
    /// CSV, numbers unrounded, empty cells for not applicable.
    Csv,
    /// A LaTeX `tabular` with booktabs rules (`\toprule`, `\midrule`, `\bottomrule`).
    #[value(alias = "tex")]
    Latex,
}

/// Which summary columns the text formats show (`--columns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Columns {
    /// The format's default: `compact` for table, Markdown and LaTeX, `all` for CSV.
    #[default]
    #[value(skip)]
    Default,
    /// Groups, pair, solved, mean moves, nodes expanded (mean, median), b*, time (mean,
    /// median), peak heap (max), and the baseline ratios.
    Compact,
    /// Every column.
    All,
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

/// One column: its titles in text and CSV output, whether it is text (left-aligned), which
/// column sets show it, and its cell.
struct Column {
    text_title: String,
    csv_title: String,
    left: bool,
    shown: Shown,
    cell: Cell,
}

/// Which column sets show a column.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// Only the full set.
    All,
    /// The compact set too.
    Compact,
    /// The compact set too when some row's count is not zero (a stop reason; [`Cell::Count`]).
    Nonzero,
}

/// Left-aligned (text) or right-aligned (numbers).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

/// How a column renders a summary's cell, in text and in CSV.
#[derive(Clone, Copy)]
enum Cell {
    /// The `i`-th `--by` group value, the same in both.
    Group(usize),
    /// The same text in both.
    Text(fn(&Summary) -> String),
    /// A count, the same in both.
    Count(fn(&Summary) -> usize),
    /// A number: rounded by the function in text (`-` when absent), unrounded in CSV (empty).
    Number(fn(&Summary) -> Option<f64>, fn(f64) -> String),
    /// One part of a statistic, like [`Cell::Number`].
    Stat(fn(&Summary) -> Option<Stat>, Part, fn(f64) -> String),
    /// Text and CSV differ: (text, CSV).
    Both(fn(&Summary) -> String, fn(&Summary) -> String),
}

/// The mean, median or maximum of a [`Stat`].
#[derive(Clone, Copy)]
enum Part {
    Mean,
    Median,
    Max,
}

impl Part {
    fn of(self, s: Stat) -> f64 {
        match self {
            Part::Mean => s.mean,
            Part::Median => s.median,
            Part::Max => s.max,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Part::Mean => "mean",
            Part::Median => "median",
            Part::Max => "max",
        }
    }
}

impl Cell {
    fn text(self, s: &Summary) -> String {
        match self {
            Cell::Group(i) => s.group[i].to_string(),
            Cell::Text(f) => f(s),
            Cell::Count(f) => f(s).to_string(),
            Cell::Number(get, fmt) => opt_text(get(s), fmt),
            Cell::Stat(get, part, fmt) => opt_text(get(s).map(|v| part.of(v)), fmt),
            Cell::Both(text, _) => text(s),
        }
    }

    fn csv(self, s: &Summary) -> String {
        match self {
            Cell::Number(get, _) => opt_csv(get(s)),
            Cell::Stat(get, part, _) => opt_csv(get(s).map(|v| part.of(v))),
            Cell::Both(_, csv) => csv(s),
            other => other.text(s),
        }
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

/// Ratios and b*: three decimals.
fn fmt_ratio(x: f64) -> String {
    format!("{x:.3}")
}

/// Which of mean, median and max a statistic shows, in the full and the compact set.
struct StatCols {
    max: bool,
    compact_mean: bool,
    compact_median: bool,
}

/// One line of the column tables below.
enum Entry {
    /// One column: text title, CSV title, alignment, column sets, cell.
    Col(&'static str, &'static str, Align, Shown, Cell),
    /// A statistic's mean, median (and max) columns: the name (titles `NAME mean`, CSV
    /// `NAME_mean`, ...), the statistic, its text format, which columns.
    Stat(
        &'static str,
        fn(&Summary) -> Option<Stat>,
        fn(f64) -> String,
        StatCols,
    ),
}

use Align::{Left, Right};
use Shown::{All, Compact, Nonzero};

/// The pair, its outcomes and statistics: the columns of every summary, after the groups.
const SUMMARY_COLUMNS: &[Entry] = &[
    Entry::Col(
        "algorithm",
        "algorithm",
        Left,
        Compact,
        Cell::Text(|s| s.pair.algorithm.clone()),
    ),
    Entry::Col(
        "heuristic",
        "heuristic",
        Left,
        Compact,
        Cell::Text(|s| s.pair.heuristic.clone()),
    ),
    Entry::Col(
        "solved",
        "solved",
        Right,
        Compact,
        Cell::Both(
            |s| format!("{}/{}", s.solved, s.runs),
            |s| s.solved.to_string(),
        ),
    ),
    Entry::Col("runs", "runs", Right, All, Cell::Count(|s| s.runs)),
    Entry::Stat(
        "moves",
        |s| s.moves,
        |x| format!("{x:.2}"),
        StatCols {
            max: false,
            compact_mean: true,
            compact_median: false,
        },
    ),
    Entry::Stat(
        "expanded",
        |s| s.expanded,
        fmt_count,
        StatCols {
            max: true,
            compact_mean: true,
            compact_median: true,
        },
    ),
    Entry::Stat(
        "generated",
        |s| s.generated,
        fmt_count,
        StatCols {
            max: true,
            compact_mean: false,
            compact_median: false,
        },
    ),
    Entry::Col(
        "b*",
        "bstar",
        Right,
        Compact,
        Cell::Number(|s| s.bstar, fmt_ratio),
    ),
    Entry::Stat(
        "ms",
        |s| s.time_ms,
        fmt_ms,
        StatCols {
            max: false,
            compact_mean: true,
            compact_median: true,
        },
    ),
    Entry::Col(
        "Mnodes/s",
        "nodes_per_sec",
        Right,
        All,
        Cell::Number(|s| s.nodes_per_sec, |x| format!("{:.2}", x / 1e6)),
    ),
    Entry::Col(
        "heap mean",
        "peak_heap_bytes_mean",
        Right,
        All,
        Cell::Stat(|s| s.heap, Part::Mean, format_bytes),
    ),
    Entry::Col(
        "heap max",
        "peak_heap_bytes_max",
        Right,
        Compact,
        Cell::Stat(|s| s.heap, Part::Max, format_bytes),
    ),
    Entry::Col(
        "timeout",
        "timeout",
        Right,
        Nonzero,
        Cell::Count(|s| s.timeouts),
    ),
    Entry::Col(
        "node-limit",
        "node_limit",
        Right,
        Nonzero,
        Cell::Count(|s| s.node_limits),
    ),
    Entry::Col(
        "mem-limit",
        "memory_limit",
        Right,
        Nonzero,
        Cell::Count(|s| s.memory_limits),
    ),
    Entry::Col(
        "depth-limit",
        "depth_limit",
        Right,
        Nonzero,
        Cell::Count(|s| s.depth_limits),
    ),
    Entry::Col("error", "error", Right, Nonzero, Cell::Count(|s| s.errors)),
];

/// Outcomes only jobs run as processes have (shown when some summary has one).
const PROCESS_COLUMNS: &[Entry] = &[
    Entry::Col(
        "cpu-limit",
        "cpu_limit",
        Right,
        Nonzero,
        Cell::Count(|s| s.cpu_limits),
    ),
    Entry::Col(
        "wrong-answer",
        "wrong_answer",
        Right,
        Nonzero,
        Cell::Count(|s| s.wrong_answers),
    ),
    Entry::Col(
        "rejected",
        "rejected",
        Right,
        Nonzero,
        Cell::Count(|s| s.rejected),
    ),
    Entry::Col(
        "crashed",
        "crashed",
        Right,
        Nonzero,
        Cell::Count(|s| s.crashed),
    ),
];

/// The ratios to the `--baseline` pair.
const BASELINE_COLUMNS: &[Entry] = &[
    Entry::Col(
        "base n",
        "baseline_instances",
        Right,
        All,
        Cell::Text(|s| {
            s.baseline
                .map_or_else(String::new, |r| r.instances.to_string())
        }),
    ),
    Entry::Col(
        "nodes vs base",
        "expanded_vs_baseline",
        Right,
        Compact,
        Cell::Number(|s| s.baseline.and_then(|r| r.nodes), fmt_ratio),
    ),
    Entry::Col(
        "time vs base",
        "time_vs_baseline",
        Right,
        Compact,
        Cell::Number(|s| s.baseline.and_then(|r| r.time), fmt_ratio),
    ),
];

impl Entry {
    /// The columns of this entry.
    fn push_to(&self, cols: &mut Vec<Column>) {
        match *self {
            Entry::Col(text_title, csv_title, align, shown, cell) => cols.push(Column {
                text_title: text_title.to_string(),
                csv_title: csv_title.to_string(),
                left: align == Left,
                shown,
                cell,
            }),
            Entry::Stat(name, get, fmt, ref which) => {
                let parts = [
                    (Part::Mean, which.compact_mean),
                    (Part::Median, which.compact_median),
                ];
                let max = which.max.then_some((Part::Max, false));
                for (part, compact) in parts.into_iter().chain(max) {
                    cols.push(Column {
                        text_title: format!("{name} {}", part.name()),
                        csv_title: format!("{name}_{}", part.name()),
                        left: false,
                        shown: if compact { Compact } else { All },
                        cell: Cell::Stat(get, part, fmt),
                    });
                }
            }
        }
    }
}

/// Whether any summary has an outcome only processes have (their columns are shown then).
fn has_process_outcomes(summaries: &[Summary]) -> bool {
    summaries
        .iter()
        .any(|s| s.cpu_limits + s.wrong_answers + s.rejected + s.crashed > 0)
}

/// Every column, in order: the `--by` groups, then the tables above (the process outcomes
/// and the baseline ratios only when there are some).
fn columns(by: &[GroupBy], baseline: Option<&str>, process_outcomes: bool) -> Vec<Column> {
    let mut cols: Vec<Column> = by
        .iter()
        .enumerate()
        .map(|(i, g)| Column {
            text_title: g.title().to_string(),
            csv_title: g.title().to_string(),
            left: true,
            shown: Compact,
            cell: Cell::Group(i),
        })
        .collect();
    let mut tables = vec![SUMMARY_COLUMNS];
    if process_outcomes {
        tables.push(PROCESS_COLUMNS);
    }
    if baseline.is_some() {
        tables.push(BASELINE_COLUMNS);
    }
    for entry in tables.into_iter().flatten() {
        entry.push_to(&mut cols);
    }
    cols
}

/// Whether a column is in the set shown: all of them, or the compact set (a count column only
/// when some summary's count is not zero).
fn is_shown(c: &Column, all: bool, summaries: &[Summary]) -> bool {
    match (c.shown, c.cell) {
        _ if all => true,
        (Compact, _) => true,
        (Nonzero, Cell::Count(n)) => summaries.iter().any(|s| n(s) > 0),
        _ => false,
    }
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
        .filter(|c| is_shown(c, all, summaries))
        .collect();
    Table {
        head: cols.iter().map(|c| c.text_title.clone()).collect(),
        csv_head: cols.iter().map(|c| c.csv_title.clone()).collect(),
        left: cols.iter().map(|c| c.left).collect(),
        text: summaries
            .iter()
            .map(|s| cols.iter().map(|c| c.cell.text(s)).collect())
            .collect(),
        csv: summaries
            .iter()
            .map(|s| cols.iter().map(|c| c.cell.csv(s)).collect())
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
