//! The end-of-run table: one line per (algorithm, heuristic).
//!
//! Moves and nodes are over solved rows (a stopped search's counts say how far it got, not
//! what the job costs); times are over all rows; peak memory is the largest `peak_heap_bytes`;
//! "limits" counts timeout / node-limit / memory-limit rows, "errors" the `error` rows.

use std::fmt::Write as _;

use super::limits::format_bytes;
use crate::results::{Outcome, Row};

/// The statistics of one (algorithm, heuristic) group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSummary {
    /// Algorithm.
    pub algorithm: String,
    /// Heuristic.
    pub heuristic: String,
    /// Rows.
    pub total: usize,
    /// Solved rows.
    pub solved: usize,
    /// Mean solution length.
    pub mean_moves: Option<f64>,
    /// Median solution length.
    pub median_moves: Option<f64>,
    /// Mean nodes expanded (solved rows).
    pub mean_expanded: Option<f64>,
    /// Median nodes expanded (solved rows).
    pub median_expanded: Option<f64>,
    /// Most nodes expanded (solved rows).
    pub max_expanded: Option<u64>,
    /// Median wall time, ms.
    pub median_wall_ms: Option<f64>,
    /// Total wall time, ms.
    pub total_wall_ms: f64,
    /// Largest peak heap, bytes.
    pub peak_heap_bytes: Option<u64>,
    /// Rows that hit a limit.
    pub limits_hit: usize,
    /// Error rows.
    pub errors: usize,
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Groups rows by (algorithm, heuristic), in order of first appearance.
pub fn summarize<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Vec<GroupSummary> {
    let mut groups: Vec<((String, String), Vec<&Row>)> = Vec::new();
    for r in rows {
        let key = (r.algorithm.clone(), r.heuristic.clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    groups
        .into_iter()
        .map(|((algorithm, heuristic), rows)| {
            let solved: Vec<&&Row> = rows
                .iter()
                .filter(|r| r.status == Outcome::Solved)
                .collect();
            let mut moves: Vec<f64> = solved
                .iter()
                .filter_map(|r| r.moves)
                .map(|m| m as f64)
                .collect();
            let mut expanded: Vec<f64> = solved
                .iter()
                .filter_map(|r| r.nodes_expanded)
                .map(|n| n as f64)
                .collect();
            let mut wall: Vec<f64> = rows.iter().map(|r| r.wall_ms).collect();
            GroupSummary {
                algorithm,
                heuristic,
                total: rows.len(),
                solved: solved.len(),
                mean_moves: mean(&moves),
                median_moves: median(&mut moves),
                mean_expanded: mean(&expanded),
                median_expanded: median(&mut expanded),
                max_expanded: solved.iter().filter_map(|r| r.nodes_expanded).max(),
                median_wall_ms: median(&mut wall),
                total_wall_ms: rows.iter().map(|r| r.wall_ms).sum(),
                peak_heap_bytes: rows.iter().filter_map(|r| r.peak_heap_bytes).max(),
                limits_hit: rows.iter().filter(|r| r.status.is_limit()).count(),
                errors: rows.iter().filter(|r| r.status == Outcome::Error).count(),
            }
        })
        .collect()
}

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.decimals$}"))
}

fn time(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.2} ms")
    }
}

/// Formats the summary as an aligned text table.
pub fn render(groups: &[GroupSummary]) -> String {
    let header = [
        "algorithm",
        "heuristic",
        "solved",
        "moves mean",
        "median",
        "expanded mean",
        "median",
        "max",
        "time median",
        "total",
        "peak heap",
        "limits",
        "errors",
    ];
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for g in groups {
        table.push(vec![
            g.algorithm.clone(),
            g.heuristic.clone(),
            format!("{}/{}", g.solved, g.total),
            opt(g.mean_moves, 2),
            opt(g.median_moves, 1),
            opt(g.mean_expanded, 0),
            opt(g.median_expanded, 0),
            g.max_expanded.map_or("-".into(), |x| x.to_string()),
            g.median_wall_ms.map_or("-".into(), time),
            time(g.total_wall_ms),
            g.peak_heap_bytes.map_or("-".into(), format_bytes),
            g.limits_hit.to_string(),
            g.errors.to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            if c < 2 {
                let _ = write!(line, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(line, "{cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(alg: &str, status: &str, moves: Option<u32>, expanded: u64, wall: f64) -> Row {
        Row {
            run_id: "r".into(),
            instance_file: "f".into(),
            instance_id: "1".into(),
            rows: 3,
            cols: 3,
            goal: "blank-last".into(),
            scramble_moves: None,
            algorithm: alg.into(),
            heuristic: "manhattan".into(),
            repetition: 1,
            status: status.parse().unwrap(),
            moves,
            lower_bound: None,
            optimal: Some(true),
            nodes_expanded: Some(expanded),
            nodes_generated: Some(expanded * 2),
            iterations: None,
            peak_stored_nodes: Some(1),
            peak_heap_bytes: Some(2048),
            wall_ms: wall,
            search_ms: None,
            cpu_ms: None,
            setup_ms: None,
            initial_h: None,
            message: None,
            solution: None,
        }
    }

    #[test]
    fn groups_and_statistics_by_hand() {
        let rows = [
            row("astar", "solved", Some(4), 10, 1.0),
            row("idastar", "solved", Some(6), 7, 2.0),
            row("astar", "solved", Some(10), 30, 3.0),
            row("astar", "timeout", None, 1000, 60.0),
            row("astar", "solved", Some(7), 20, 5.0),
        ];
        let g = summarize(&rows);
        assert_eq!(g.len(), 2);
        let a = &g[0];
        assert_eq!((a.algorithm.as_str(), a.solved, a.total), ("astar", 3, 4));
        assert_eq!(a.mean_moves, Some(7.0));
        assert_eq!(a.median_moves, Some(7.0));
        assert_eq!(a.mean_expanded, Some(20.0));
        assert_eq!(a.max_expanded, Some(30));
        assert_eq!(a.median_wall_ms, Some(4.0));
        assert_eq!(a.total_wall_ms, 69.0);
        assert_eq!((a.limits_hit, a.errors), (1, 0));
        let text = render(&g);
        assert!(text.lines().nth(1).unwrap().starts_with("astar"), "{text}");
        assert!(text.contains("3/4") && text.contains("2.0 KiB"), "{text}");
    }
}
