//! `--compare A B`: the per-instance comparison of two configurations ([`super::compare`]) as
//! a table, one line per metric (nodes expanded, wall time) and `--by` group.

use std::collections::BTreeMap;

use super::aggregate::{GroupBy, GroupValue, group_of, instance_lengths};
use super::compare::{self, Comparison, Metric};
use super::table::Table;
use crate::results::Pair;
use crate::results::Row;

/// The metrics `--compare` reports, in order.
pub const METRICS: [Metric; 2] = [Metric::Expanded, Metric::Time];

/// One line of the comparison: its group, and the comparison of one metric.
pub struct Line<'a> {
    /// The `--by` group values.
    pub group: Vec<GroupValue>,
    /// A against B on one metric.
    pub comparison: Comparison<'a>,
}

/// The rows of `records` per `by` group (all in one group when `by` is empty), group order.
pub fn split_groups(records: &[Row], by: &[GroupBy]) -> Vec<(Vec<GroupValue>, Vec<Row>)> {
    let lengths = instance_lengths(records);
    let mut groups: BTreeMap<Vec<GroupValue>, Vec<Row>> = BTreeMap::new();
    for r in records {
        groups
            .entry(group_of(r, by, &lengths))
            .or_default()
            .push(r.clone());
    }
    groups.into_iter().collect()
}

/// A against B per group of `groups` (from [`split_groups`]) on each of [`METRICS`], ties as
/// [`Metric::default_tie`] defines them.
pub fn compare_groups<'a>(
    groups: &'a [(Vec<GroupValue>, Vec<Row>)],
    a: &Pair,
    b: &Pair,
) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    for (group, rows) in groups {
        for m in METRICS {
            out.push(Line {
                group: group.clone(),
                comparison: compare::compare(rows, a, b, m, m.default_tie()),
            });
        }
    }
    out
}

fn factor(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 0.01 {
        format!("{x:.3}")
    } else {
        format!("{x:.2e}")
    }
}

/// The comparison as a [`Table`]: per line the group, the metric, the instances both solved
/// and solved by one only, the geometric mean of the per-instance ratios A / B with its 95%
/// confidence interval, and A lower / higher / tie counts. The notes say it in words.
pub fn compare_table(lines: &[Line<'_>], by: &[GroupBy], a: &Pair, b: &Pair) -> Table {
    let mut head: Vec<String> = by.iter().map(|g| g.title().to_string()).collect();
    let mut left = vec![true; by.len()];
    let titles = [
        ("metric", true),
        ("both solved", false),
        ("only A", false),
        ("only B", false),
        ("A/B geo mean", false),
        ("95% CI", false),
        ("A lower", false),
        ("A higher", false),
        ("tie", false),
    ];
    for (t, l) in titles {
        head.push(t.to_string());
        left.push(l);
    }
    let mut csv_head: Vec<String> = by.iter().map(|g| g.title().to_string()).collect();
    csv_head.extend(
        [
            "metric",
            "both_solved",
            "only_a",
            "only_b",
            "ratio_geo_mean",
            "ratio_ci95_low",
            "ratio_ci95_high",
            "ratio_se",
            "ratio_min",
            "ratio_max",
            "zero_left_out",
            "a_lower",
            "a_higher",
            "tie",
            "tie_tolerance",
        ]
        .map(String::from),
    );
    let mut text = Vec::new();
    let mut csv = Vec::new();
    let mut notes = vec![
        format!(
            "A = {a}, B = {b}. Per instance both solved: A's value / B's (repetitions averaged \
             first); geometric mean of those ratios with a 95% confidence interval from \
             Student's t on their logarithms. Lower / higher / tie: A's value against B's; \
             nodes tie when equal, times when within 5%."
        ),
        String::new(),
    ];
    for line in lines {
        let c = &line.comparison;
        let group: Vec<String> = line.group.iter().map(ToString::to_string).collect();
        let mut t = group.clone();
        let mut v = group;
        let r = c.ratio;
        t.extend([
            c.metric.name().to_string(),
            c.matched.len().to_string(),
            c.only_a.to_string(),
            c.only_b.to_string(),
            r.map_or_else(|| "-".into(), |r| factor(r.geo_mean)),
            r.and_then(|r| r.ci95).map_or_else(
                || "-".into(),
                |(lo, hi)| format!("{}-{}", factor(lo), factor(hi)),
            ),
            c.wins.to_string(),
            c.losses.to_string(),
            c.ties.to_string(),
        ]);
        let num = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{x}"));
        v.extend([
            c.metric.name().to_string(),
            c.matched.len().to_string(),
            c.only_a.to_string(),
            c.only_b.to_string(),
            num(r.map(|r| r.geo_mean)),
            num(r.and_then(|r| r.ci95).map(|c| c.0)),
            num(r.and_then(|r| r.ci95).map(|c| c.1)),
            num(r.and_then(|r| r.se)),
            num(r.map(|r| r.min)),
            num(r.map(|r| r.max)),
            c.zero.to_string(),
            c.wins.to_string(),
            c.losses.to_string(),
            c.ties.to_string(),
            format!("{}", c.tie),
        ]);
        text.push(t);
        csv.push(v);
        let prefix = if by.is_empty() {
            String::new()
        } else {
            let g: Vec<String> = by
                .iter()
                .zip(&line.group)
                .map(|(b, v)| format!("{} {v}", b.title()))
                .collect();
            format!("{}: ", g.join(", "))
        };
        notes.push(format!("{prefix}{}", c.sentence()));
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
