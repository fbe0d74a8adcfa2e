//! Rows pooled into one line of a report although they come from different board sizes or
//! instance files: `bench report` names them on stderr (it does not refuse: pooling the
//! shards of one instance set, or the files of one study, is often what is wanted).

use std::collections::{BTreeMap, BTreeSet};

use super::aggregate::{GroupBy, GroupValue, group_of, instance_lengths};
use crate::results::Row;

/// What a line of the report pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PoolKind {
    /// Boards of several sizes.
    Sizes,
    /// Several instance files.
    Files,
}

/// Pairs whose report lines pool the same set of sizes or files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pooled {
    /// Sizes or files.
    pub kind: PoolKind,
    /// The sizes (`RxC`) or file names pooled, sorted.
    pub values: Vec<String>,
    /// The pairs (`algorithm/heuristic`, with their group if `--by` is given) that pool them.
    pub lines: Vec<String>,
}

/// The pairs (with their `size` / `file` group if `by` has one; other groupings are ignored,
/// so one pair is named once) whose rows span more than one board size, or more than one
/// instance file; pairs pooling the same values are listed together, sizes first.
pub fn pooled(records: &[Row], by: &[GroupBy]) -> Vec<Pooled> {
    let by: Vec<GroupBy> = by
        .iter()
        .copied()
        .filter(|g| matches!(g, GroupBy::Size | GroupBy::File))
        .collect();
    let by = by.as_slice();
    let lengths = instance_lengths(records);
    type Line = (Vec<GroupValue>, String);
    let mut sizes: BTreeMap<Line, BTreeSet<(u32, u32)>> = BTreeMap::new();
    let mut files: BTreeMap<Line, BTreeSet<&str>> = BTreeMap::new();
    for r in records {
        let line = (group_of(r, by, &lengths), r.pair().to_string());
        sizes
            .entry(line.clone())
            .or_default()
            .insert((r.rows, r.cols));
        files.entry(line).or_default().insert(&r.instance_file);
    }
    let name = |(group, pair): &Line| {
        if group.is_empty() {
            pair.clone()
        } else {
            let g: Vec<String> = by
                .iter()
                .zip(group)
                .map(|(b, v)| format!("{} {v}", b.title()))
                .collect();
            format!("{pair} ({})", g.join(", "))
        }
    };
    let mut out: BTreeMap<(PoolKind, Vec<String>), Vec<String>> = BTreeMap::new();
    for (line, set) in &sizes {
        if set.len() > 1 {
            let values = set.iter().map(|(r, c)| format!("{r}x{c}")).collect();
            out.entry((PoolKind::Sizes, values))
                .or_default()
                .push(name(line));
        }
    }
    for (line, set) in &files {
        if set.len() > 1 {
            let values = set.iter().map(|f| f.to_string()).collect();
            out.entry((PoolKind::Files, values))
                .or_default()
                .push(name(line));
        }
    }
    out.into_iter()
        .map(|((kind, values), lines)| Pooled {
            kind,
            values,
            lines,
        })
        .collect()
}

/// Up to `max` items joined by ", ", then "and N more".
pub fn short_list(items: &[String], max: usize) -> String {
    if items.len() <= max {
        items.join(", ")
    } else {
        format!(
            "{}, and {} more",
            items[..max].join(", "),
            items.len() - max
        )
    }
}

impl Pooled {
    /// One line for stderr, starting `warning:` (sizes) or `note:` (files).
    pub fn message(&self) -> String {
        let lines = short_list(&self.lines, 4);
        match self.kind {
            PoolKind::Sizes => format!(
                "warning: {lines} pool{} boards of sizes {} in one line; --by size (or --by file) \
                 separates them",
                if self.lines.len() == 1 { "s" } else { "" },
                self.values.join(", ")
            ),
            PoolKind::Files => format!(
                "note: {lines} pool{} {} instance files ({}); --by file separates them",
                if self.lines.len() == 1 { "s" } else { "" },
                self.values.len(),
                short_list(&self.values, 3)
            ),
        }
    }
}
