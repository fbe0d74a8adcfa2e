//! Spread of the time measurements and hyperfine-style comparisons, for `bench run`'s summary
//! and `bench report`.
//!
//! Times are aggregated in two steps, and the text says so: first over the repetitions of each
//! job (one instance, one pair: mean, standard deviation, min, max, see [`Repeats`]), then over
//! the instances (mean ± σ, median, min, max of the per-instance means). The repetition noise
//! of a pair is the median over its instances of σ/mean and of max/min of the repetitions; a
//! pair whose median σ/mean is above [`NOISY_CV`] or whose median max/min is above
//! [`NOISY_RATIO`] gets a warning (the measurements of one job disagree with each other, so
//! comparisons built on them are shaky).
//!
//! The comparisons put every pair beside one reference (the `--baseline` pair, else the
//! fastest: most instances solved, then the smallest median time) with
//! [`compare::compare`] on the time of the instances both solved.

use std::fmt::Write as _;

use super::aggregate::Stat;
use super::compare::{self, Comparison, Metric, Repeats};
use super::table::fmt_ms;
use crate::results::Pair;
use crate::results::Row;

/// Median σ/mean of a pair's repetitions above which its times are called noisy.
pub const NOISY_CV: f64 = 0.10;
/// Median max/min of a pair's repetitions above which its times are called noisy.
pub const NOISY_RATIO: f64 = 1.5;

/// The time spread of one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSpread {
    /// The pair.
    pub pair: Pair,
    /// Instances with at least one solved repetition.
    pub instances: usize,
    /// The most solved repetitions of one instance.
    pub max_repetitions: usize,
    /// Over instances: mean, sample σ, min and max of the per-instance mean times (ms).
    pub time: Option<Repeats>,
    /// Over instances: median of the per-instance mean times (ms).
    pub median_ms: Option<f64>,
    /// Median over instances with two or more solved repetitions of σ/mean.
    pub noise_cv: Option<f64>,
    /// Median over those instances of max/min.
    pub noise_ratio: Option<f64>,
    /// The instance (`file #id`) with the largest max/min, and that ratio.
    pub worst: Option<(String, f64)>,
}

impl PairSpread {
    /// Whether the repetitions disagree enough for a warning (see [`NOISY_CV`],
    /// [`NOISY_RATIO`]).
    pub fn is_noisy(&self) -> bool {
        self.noise_cv.is_some_and(|c| c > NOISY_CV)
            || self.noise_ratio.is_some_and(|r| r > NOISY_RATIO)
    }
}

fn median(v: &[f64]) -> Option<f64> {
    Stat::of(v).map(|s| s.median)
}

/// The time spread of `pair` over `rows` (solved rows only).
pub fn pair_spread(rows: &[Row], pair: &Pair) -> PairSpread {
    let per = compare::per_instance(rows, pair, Metric::Time);
    let means: Vec<f64> = per.values().map(|r| r.mean).collect();
    // Instances named as the tables name them: `file #id`.
    let repeated: Vec<(String, &Repeats)> = per
        .iter()
        .filter(|(_, r)| r.n > 1)
        .map(|(k, r)| (format!("{} #{}", k.0, k.1), r))
        .collect();
    let cvs: Vec<f64> = repeated.iter().filter_map(|(_, r)| r.cv()).collect();
    let ratios: Vec<f64> = repeated
        .iter()
        .filter_map(|(_, r)| r.max_over_min())
        .collect();
    let worst = repeated
        .iter()
        .filter_map(|(id, r)| Some((id.clone(), r.max_over_min()?)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    PairSpread {
        pair: pair.clone(),
        instances: per.len(),
        max_repetitions: per.values().map(|r| r.n).max().unwrap_or(0),
        time: Repeats::of(&means),
        median_ms: median(&means),
        noise_cv: median(&cvs),
        noise_ratio: median(&ratios),
        worst,
    }
}

/// The spread of every pair of `rows`, in pair order.
pub fn spreads(rows: &[Row]) -> Vec<PairSpread> {
    compare::pairs(rows)
        .iter()
        .map(|p| pair_spread(rows, p))
        .collect()
}

/// The reference of the comparisons: `baseline` if given, else the pair that solved the most
/// instances, the smallest median time among those. `None` without a solved row.
pub fn reference(spreads: &[PairSpread], baseline: Option<&Pair>) -> Option<Pair> {
    if let Some(b) = baseline {
        return Some(b.clone());
    }
    spreads
        .iter()
        .filter(|s| s.instances > 0)
        .min_by(|a, b| {
            b.instances.cmp(&a.instances).then(
                a.median_ms
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&b.median_ms.unwrap_or(f64::INFINITY)),
            )
        })
        .map(|s| s.pair.clone())
}

/// The reference against every other pair, on time.
pub fn comparisons<'a>(rows: &'a [Row], reference: &Pair) -> Vec<Comparison<'a>> {
    compare::pairs(rows)
        .iter()
        .filter(|p| *p != reference)
        .map(|p| compare::compare(rows, reference, p, Metric::Time, Metric::Time.default_tie()))
        .collect()
}

fn ms_cell(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), fmt_ms)
}

/// The spread section (only when some job was repeated) and the comparisons (only with two
/// pairs or more), as plain text lines; empty if there is neither.
pub fn render(rows: &[Row], baseline: Option<&Pair>) -> String {
    let spreads = spreads(rows);
    let mut out = String::new();
    let repeated = spreads.iter().any(|s| s.max_repetitions > 1);
    if repeated {
        out.push_str(
            "time per pair in ms: each instance's solved repetitions averaged first, then \
             mean ± σ, median, min and max over the instances; noise = median over instances \
             of the repetitions' σ/mean and max/min\n",
        );
        let head = [
            "pair",
            "instances",
            "reps",
            "mean",
            "± σ",
            "median",
            "min",
            "max",
            "noise σ/mean",
            "noise max/min",
        ];
        let body: Vec<Vec<String>> = spreads
            .iter()
            .map(|s| {
                let t = s.time;
                vec![
                    s.pair.to_string(),
                    s.instances.to_string(),
                    s.max_repetitions.to_string(),
                    ms_cell(t.map(|t| t.mean)),
                    ms_cell(t.map(|t| t.sd)),
                    ms_cell(s.median_ms),
                    ms_cell(t.map(|t| t.min)),
                    ms_cell(t.map(|t| t.max)),
                    s.noise_cv
                        .map_or_else(|| "-".into(), |c| format!("{:.1}%", c * 100.0)),
                    s.noise_ratio
                        .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
                ]
            })
            .collect();
        let widths: Vec<usize> = (0..head.len())
            .map(|i| {
                body.iter()
                    .map(|r| r[i].chars().count())
                    .chain([head[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<String>| {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let pad = " ".repeat(widths[i] - c.chars().count());
                    if i == 0 {
                        format!("{c}{pad}")
                    } else {
                        format!("{pad}{c}")
                    }
                })
                .collect();
            parts.join("  ").trim_end().to_string()
        };
        writeln!(
            out,
            "{}",
            line(head.iter().map(|h| h.to_string()).collect())
        )
        .expect("string");
        for r in body {
            writeln!(out, "{}", line(r)).expect("string");
        }
        for s in spreads.iter().filter(|s| s.is_noisy()) {
            let worst = s.worst.as_ref().map_or_else(String::new, |(id, r)| {
                format!("; the widest is instance {id}, max/min {r:.2}")
            });
            writeln!(
                out,
                "warning: {}: its repetitions differ a lot (median σ/mean {}, max/min {}; \
                 warned above {:.0}% or {NOISY_RATIO}){worst}. The machine may be busy or the \
                 jobs too short to time: try --warmup, fewer --threads, or harder instances.",
                s.pair,
                s.noise_cv
                    .map_or_else(|| "-".into(), |c| format!("{:.1}%", c * 100.0)),
                s.noise_ratio
                    .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
                NOISY_CV * 100.0,
            )
            .expect("string");
        }
    }
    if spreads.len() > 1
        && let Some(reference) = reference(&spreads, baseline)
    {
        let how = if baseline.is_some() {
            "the baseline"
        } else {
            "the pair that solved the most instances, fastest by median"
        };
        writeln!(
            out,
            "time, per instance (repetitions averaged), against {reference} ({how}):"
        )
        .expect("string");
        for c in comparisons(rows, &reference) {
            writeln!(out, "  {}", c.sentence()).expect("string");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Outcome;

    /// A solved row (one node expanded) taking `ms`.
    fn row(id: &str, alg: &str, rep: u32, ms: f64) -> Row {
        crate::report::compare::tests::row(id, alg, rep, Outcome::Solved, ms, 1)
    }

    fn fixture() -> Vec<Row> {
        vec![
            // Pair a: instance 1 reps 1, 3 (mean 2, σ sqrt 2, max/min 3); instance 2 reps 4, 4
            // (mean 4, σ 0, max/min 1); instance 3 reps 9, 9 (mean 9).
            row("1", "a", 1, 1.0),
            row("1", "a", 2, 3.0),
            row("2", "a", 1, 4.0),
            row("2", "a", 2, 4.0),
            row("3", "a", 1, 9.0),
            row("3", "a", 2, 9.0),
            // Pair b: 4x a's means on instances 1, 2 (8, 16), no noise.
            row("1", "b", 1, 8.0),
            row("1", "b", 2, 8.0),
            row("2", "b", 1, 16.0),
            row("2", "b", 2, 16.0),
        ]
    }

    #[test]
    fn spread_by_hand() {
        let rows = fixture();
        let s = pair_spread(&rows, &Pair::new("a", "h"));
        assert_eq!((s.instances, s.max_repetitions), (3, 2));
        let t = s.time.unwrap();
        // Means 2, 4, 9: mean 5, σ = sqrt(((−3)² + (−1)² + 4²) / 2) = sqrt(13).
        assert_eq!((t.mean, t.min, t.max), (5.0, 2.0, 9.0));
        assert!((t.sd - 13f64.sqrt()).abs() < 1e-12);
        assert_eq!(s.median_ms, Some(4.0));
        // σ/mean per instance: sqrt(2)/2, 0, 0 -> median 0; max/min 3, 1, 1 -> median 1.
        assert_eq!(s.noise_cv, Some(0.0));
        assert_eq!(s.noise_ratio, Some(1.0));
        assert_eq!(s.worst, Some(("f #1".to_string(), 3.0)));
        assert!(!s.is_noisy());
        // b solved fewer instances: a is the reference.
        let all = spreads(&rows);
        assert_eq!(reference(&all, None), Some(Pair::new("a", "h")));
        let base = Pair::new("b", "h");
        assert_eq!(reference(&all, Some(&base)), Some(base));
    }

    #[test]
    fn a_noisy_pair_is_warned_and_compared() {
        let mut rows = fixture();
        // Instance 2 of a: 4 and 8 ms -> max/min 2, σ/mean sqrt(8)/6 = 0.47.
        rows[3].wall_ms = 8.0;
        let s = pair_spread(&rows, &Pair::new("a", "h"));
        // σ/mean: 0.707, 0.471, 0 -> median 0.471; max/min 3, 2, 1 -> median 2.
        assert!((s.noise_cv.unwrap() - 8f64.sqrt() / 6.0).abs() < 1e-12);
        assert_eq!(s.noise_ratio, Some(2.0));
        assert!(s.is_noisy());
        let text = render(&rows, None);
        assert!(
            text.contains("warning: a/h: its repetitions differ a lot"),
            "{text}"
        );
        assert!(
            text.contains("the widest is instance f #1, max/min 3.00"),
            "{text}"
        );
        assert!(!text.contains("warning: b/h"), "{text}");
        // a against b: per-instance ratios 2/8 and 6/16.
        let g = (0.25f64 * 6.0 / 16.0).sqrt();
        let line = text.lines().find(|l| l.starts_with("  a/h is")).unwrap();
        assert!(
            line.starts_with(&format!("  a/h is {:.2} ± ", 1.0 / g)),
            "{line} {}",
            1.0 / g
        );
        assert!(line.contains("times faster than b/h on the 2 instance(s) both solved"));
    }

    #[test]
    fn nothing_to_say_without_repetitions_or_a_second_pair() {
        let rows = vec![row("1", "a", 1, 1.0), row("2", "a", 1, 2.0)];
        assert_eq!(render(&rows, None), "");
    }
}
