//! `--pivot depth`: the classic depth x configuration table of search papers. Rows are the
//! instances' optimal solution lengths (as `--by moves` groups them), columns the
//! configurations (algorithm/heuristic, prefixed by any other `--by` group), cells one
//! statistic of the solved runs at that depth.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::aggregate::{GroupBy, GroupValue, Summary, aggregate, group_of, instance_lengths};
use super::table::{Table, fmt_count, fmt_ms};
use crate::results::Row;

/// What a pivot cell holds; `--pivot-value`'s values (`time` and `b*` are old spellings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PivotValue {
    /// Mean nodes expanded over the solved runs.
    #[default]
    Expanded,
    /// Mean nodes generated over the solved runs.
    Generated,
    /// Mean wall time (ms) over the solved runs.
    #[value(alias = "time")]
    Ms,
    /// b* of the mean nodes generated (as the summary's `b*` column).
    #[value(alias = "b*")]
    Bstar,
}

impl PivotValue {
    /// The value's name in CSV titles and notes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Expanded => "expanded_mean",
            Self::Generated => "generated_mean",
            Self::Ms => "ms_mean",
            Self::Bstar => "bstar",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::Expanded => "mean nodes expanded",
            Self::Generated => "mean nodes generated",
            Self::Ms => "mean wall time (ms)",
            Self::Bstar => "b* of the mean nodes generated",
        }
    }

    fn get(self, s: &Summary) -> Option<f64> {
        match self {
            Self::Expanded => s.expanded.map(|v| v.mean),
            Self::Generated => s.generated.map(|v| v.mean),
            Self::Ms => s.time_ms.map(|v| v.mean),
            Self::Bstar => s.bstar,
        }
    }

    fn fmt(self, v: f64) -> String {
        match self {
            Self::Expanded | Self::Generated => fmt_count(v),
            Self::Ms => fmt_ms(v),
            Self::Bstar => format!("{v:.3}"),
        }
    }
}

/// One cell: the value (over the solved runs), and the solved and total runs behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// The statistic; `None` if no run of the cell was solved.
    pub value: Option<f64>,
    /// Solved runs.
    pub solved: usize,
    /// All runs.
    pub runs: usize,
}

/// A depth x configuration table.
#[derive(Debug, Clone, PartialEq)]
pub struct Pivot {
    /// The statistic in the cells.
    pub value: PivotValue,
    /// Configurations: the other groups' values, then `algorithm/heuristic`.
    pub columns: Vec<String>,
    /// Rows in depth order (`unsolved` last): the depth, the number of instances at that depth,
    /// and one cell per column (`None`: the configuration has no run at that depth).
    pub rows: Vec<(GroupValue, usize, Vec<Option<Cell>>)>,
}

/// The pivot of `records` by optimal solution length. `by` lists further groupings (size,
/// file, scramble) that split the columns; it must not contain `moves`.
pub fn pivot(records: &[Row], by: &[GroupBy], value: PivotValue) -> Pivot {
    let mut groups = vec![GroupBy::Moves];
    groups.extend(by.iter().copied().filter(|g| *g != GroupBy::Moves));
    let summaries = aggregate(records, &groups, None);
    let lengths = instance_lengths(records);
    let mut instances: BTreeMap<GroupValue, HashSet<_>> = BTreeMap::new();
    for r in records {
        let depth = group_of(r, &[GroupBy::Moves], &lengths).remove(0);
        instances.entry(depth).or_default().insert(r.instance_key());
    }
    let column_of = |s: &Summary| {
        let mut parts: Vec<String> = s.group[1..].iter().map(ToString::to_string).collect();
        parts.push(s.pair.to_string());
        parts.join(" ")
    };
    // Columns in the order of their other groups, then pair (the summaries' order).
    let mut keys: BTreeSet<(Vec<GroupValue>, String)> = BTreeSet::new();
    for s in &summaries {
        keys.insert((s.group[1..].to_vec(), column_of(s)));
    }
    let columns: Vec<String> = keys.into_iter().map(|(_, c)| c).collect();
    let index: BTreeMap<&str, usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    let mut rows: BTreeMap<GroupValue, Vec<Option<Cell>>> = BTreeMap::new();
    for s in &summaries {
        let cells = rows
            .entry(s.group[0].clone())
            .or_insert_with(|| vec![None; columns.len()]);
        cells[index[column_of(s).as_str()]] = Some(Cell {
            value: value.get(s),
            solved: s.solved,
            runs: s.runs,
        });
    }
    Pivot {
        value,
        columns,
        rows: rows
            .into_iter()
            .map(|(d, cells)| {
                let n = instances.get(&d).map_or(0, HashSet::len);
                (d, n, cells)
            })
            .collect(),
    }
}

/// The pivot as a [`Table`]: columns `depth`, `instances`, then one per configuration. A cell
/// whose runs were not all solved is marked `*` (the value is over the solved runs); CSV has
/// the value unrounded and, per configuration, its `solved` and `runs` counts.
pub fn pivot_table(p: &Pivot) -> Table {
    let mut head = vec!["depth".to_string(), "instances".to_string()];
    head.extend(p.columns.iter().cloned());
    let mut csv_head = head.clone();
    for c in &p.columns {
        csv_head.push(format!("{c} solved"));
        csv_head.push(format!("{c} runs"));
    }
    let mut left = vec![true, false];
    left.extend(p.columns.iter().map(|_| false));
    let mut partial = false;
    let mut text = Vec::new();
    let mut csv = Vec::new();
    for (depth, n, cells) in &p.rows {
        let mut t = vec![depth.to_string(), n.to_string()];
        let mut c = t.clone();
        let mut counts = Vec::new();
        for cell in cells {
            match cell {
                None => {
                    t.push(String::new());
                    c.push(String::new());
                    counts.extend([String::new(), String::new()]);
                }
                Some(cell) => {
                    let mark = cell.solved < cell.runs;
                    partial |= mark && cell.value.is_some();
                    t.push(match cell.value {
                        None => "-".to_string(),
                        Some(v) if mark => format!("{}*", p.value.fmt(v)),
                        Some(v) => p.value.fmt(v),
                    });
                    c.push(cell.value.map_or_else(String::new, |v| format!("{v}")));
                    counts.extend([cell.solved.to_string(), cell.runs.to_string()]);
                }
            }
        }
        c.extend(counts);
        text.push(t);
        csv.push(c);
    }
    let mut notes = vec![format!(
        "cells: {} over the solved runs at each optimal solution length (depth); - = none solved",
        p.value.describe()
    )];
    if partial {
        notes.push(
            "* not every run at that depth was solved: the value is over the solved ones only"
                .to_string(),
        );
    }
    Table {
        head,
        csv_head,
        left,
        text,
        csv,
        notes,
    }
}
