//! Per-instance comparisons of two configurations (`algorithm/heuristic` pairs), hyperfine's
//! idea carried over to a set of instances.
//!
//! - Each pair's value on an instance ([`per_instance`]) is taken over its *solved* rows on that
//!   instance: with `--repeat R` the repetitions are aggregated first ([`Repeats`]: mean, sample
//!   standard deviation, min, max), and the mean stands for the instance.
//! - [`compare`] matches the instances both pairs solved and summarises the per-instance ratios
//!   A / B ([`RatioStats`]): geometric mean, the standard error of the geometric mean (delta
//!   method: g * s / sqrt(n), s the sample standard deviation of the log ratios) and a 95%
//!   confidence interval from Student's t on the log ratios; plus wins, losses and ties.
//! - [`Comparison::sentence`] says it in words: "idastar/linear-conflict is 3.20 ± 0.10 times
//!   faster than idastar/manhattan on the 60 instances both solved".

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::results::Pair;
use crate::results::{Outcome, Row};

pub use crate::results::InstanceKey;

/// What is compared per instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// The job's wall time (`wall_ms`).
    Time,
    /// Nodes expanded.
    Expanded,
    /// Nodes generated.
    Generated,
}

impl Metric {
    /// Every metric.
    pub const ALL: [Metric; 3] = [Metric::Time, Metric::Expanded, Metric::Generated];

    /// The metric's value in a row, if the row has it.
    pub fn value(self, r: &Row) -> Option<f64> {
        match self {
            Metric::Time => Some(r.wall_ms),
            Metric::Expanded => r.nodes_expanded.map(|v| v as f64),
            Metric::Generated => r.nodes_generated.map(|v| v as f64),
        }
    }

    /// The spelling on the command line: `time`, `expanded`, `generated`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Expanded => "expanded",
            Metric::Generated => "generated",
        }
    }

    /// The relative difference up to which two per-instance values count as a tie in
    /// [`compare`]'s wins/losses/ties: 5% for time (timer and machine noise), 0 for node counts
    /// (deterministic).
    pub fn default_tie(self) -> f64 {
        match self {
            Metric::Time => 0.05,
            Metric::Expanded | Metric::Generated => 0.0,
        }
    }

    /// (verb, "better" comparative, "worse" comparative) of the sentence.
    fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Metric::Time => ("is", "faster than", "slower than"),
            Metric::Expanded => ("expands", "fewer nodes than", "more nodes than"),
            Metric::Generated => ("generates", "fewer nodes than", "more nodes than"),
        }
    }
}

impl FromStr for Metric {
    type Err = CompareError;
    fn from_str(s: &str) -> Result<Metric, CompareError> {
        match s {
            "time" | "ms" => Ok(Metric::Time),
            "expanded" => Ok(Metric::Expanded),
            "generated" => Ok(Metric::Generated),
            other => Err(CompareError::UnknownMetric(other.to_string())),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a comparison cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompareError {
    /// A pair not spelled `ALGORITHM/HEURISTIC`.
    #[error(
        "{0:?}: expected ALGORITHM/HEURISTIC as the report table names it, e.g. idastar/manhattan"
    )]
    PairSyntax(String),
    /// A pair without rows in the results.
    #[error("{pair}: no rows of that pair; the results have {available}")]
    UnknownPair {
        /// The pair asked for.
        pair: String,
        /// The pairs present, comma-separated.
        available: String,
    },
    /// An unknown metric name.
    #[error("unknown metric {0:?}: expected time, expanded or generated")]
    UnknownMetric(String),
}

/// Parses `ALGORITHM/HEURISTIC` (split at the first `/`; neither part empty).
pub fn parse_pair(s: &str) -> Result<Pair, CompareError> {
    match s.split_once('/') {
        Some((a, h)) if !a.is_empty() && !h.is_empty() => Ok(Pair::new(a, h)),
        _ => Err(CompareError::PairSyntax(s.to_string())),
    }
}

/// Parses `s` and checks that `rows` has rows of the pair (the error lists the pairs present).
pub fn parse_pair_in(s: &str, rows: &[Row]) -> Result<Pair, CompareError> {
    let p = parse_pair(s)?;
    if rows.iter().any(|r| p.matches(r)) {
        return Ok(p);
    }
    Err(CompareError::UnknownPair {
        pair: s.to_string(),
        available: pairs(rows)
            .iter()
            .map(Pair::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// The distinct pairs of `rows`, sorted.
pub fn pairs(rows: &[Row]) -> Vec<Pair> {
    let mut v: Vec<Pair> = rows.iter().map(Row::pair).collect();
    v.sort();
    v.dedup();
    v
}

/// Statistics of one job's repetitions (or of any small sample).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Repeats {
    /// Sample size.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (divisor n - 1); 0 for a single value.
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Repeats {
    /// The statistics of `values`; `None` if empty.
    pub fn of(values: &[f64]) -> Option<Repeats> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Repeats {
            n,
            mean,
            sd,
            min,
            max,
        })
    }

    /// Coefficient of variation sd / mean; `None` for a zero mean.
    pub fn cv(&self) -> Option<f64> {
        (self.mean > 0.0).then(|| self.sd / self.mean)
    }

    /// max / min; `None` when min is 0.
    pub fn max_over_min(&self) -> Option<f64> {
        (self.min > 0.0).then(|| self.max / self.min)
    }
}

/// A pair's value per instance: `metric` over the pair's solved rows on each instance
/// (repetitions aggregated). Instances the pair never solved, or whose solved rows lack the
/// metric, are absent.
pub fn per_instance<'a>(
    rows: &'a [Row],
    pair: &Pair,
    metric: Metric,
) -> BTreeMap<InstanceKey<'a>, Repeats> {
    let mut values: BTreeMap<InstanceKey<'a>, Vec<f64>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.status == Outcome::Solved && pair.matches(r))
    {
        if let Some(v) = metric.value(r) {
            values.entry(r.instance_key()).or_default().push(v);
        }
    }
    values
        .into_iter()
        .filter_map(|(k, v)| Some((k, Repeats::of(&v)?)))
        .collect()
}

/// One instance both pairs solved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Matched<'a> {
    /// The instance.
    pub instance: InstanceKey<'a>,
    /// Pair A's repetitions on it.
    pub a: Repeats,
    /// Pair B's repetitions on it.
    pub b: Repeats,
}

/// Summary of per-instance ratios r_i = A_i / B_i.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioStats {
    /// Ratios summarised.
    pub n: usize,
    /// Geometric mean g = exp(mean of ln r_i).
    pub geo_mean: f64,
    /// Sample standard deviation s of ln r_i (`None` for n = 1).
    pub log_sd: Option<f64>,
    /// Standard error of g by the delta method, g * s / sqrt(n) (`None` for n = 1).
    pub se: Option<f64>,
    /// 95% confidence interval of the geometric mean: exp(mean ln r +- t(0.975, n - 1) *
    /// s / sqrt(n)) (`None` for n = 1).
    pub ci95: Option<(f64, f64)>,
    /// Smallest ratio.
    pub min: f64,
    /// Largest ratio.
    pub max: f64,
}

impl RatioStats {
    /// The statistics of `ratios` (every one finite and > 0; others are left out). `None` if
    /// none remains.
    pub fn of(ratios: &[f64]) -> Option<RatioStats> {
        let kept: Vec<f64> = ratios
            .iter()
            .copied()
            .filter(|r| r.is_finite() && *r > 0.0)
            .collect();
        let logs: Vec<f64> = kept.iter().map(|r| r.ln()).collect();
        let l = Repeats::of(&logs)?;
        let r = Repeats::of(&kept)?;
        let n = l.n;
        let g = l.mean.exp();
        let (log_sd, se, ci95) = if n > 1 {
            let half = t_975(n - 1) * l.sd / (n as f64).sqrt();
            (
                Some(l.sd),
                Some(g * l.sd / (n as f64).sqrt()),
                Some(((l.mean - half).exp(), (l.mean + half).exp())),
            )
        } else {
            (None, None, None)
        };
        Some(RatioStats {
            n,
            geo_mean: g,
            log_sd,
            se,
            ci95,
            min: r.min,
            max: r.max,
        })
    }

    /// The same statistics for the reciprocal ratios B / A.
    pub fn inverse(&self) -> RatioStats {
        let g = 1.0 / self.geo_mean;
        RatioStats {
            n: self.n,
            geo_mean: g,
            log_sd: self.log_sd,
            se: self.log_sd.map(|s| g * s / (self.n as f64).sqrt()),
            ci95: self.ci95.map(|(lo, hi)| (1.0 / hi, 1.0 / lo)),
            min: 1.0 / self.max,
            max: 1.0 / self.min,
        }
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (two-sided 95%): exact table
/// values to three decimals for df <= 30, the Cornish-Fisher expansion beyond (error < 1e-4).
/// `df = 0` gives infinity.
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let z: f64 = 1.959_963_984_540_054;
            let v = df as f64;
            let z3 = z.powi(3);
            let z5 = z.powi(5);
            let z7 = z.powi(7);
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        }
    }
}

/// A against B per instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison<'a> {
    /// Pair A.
    pub a: Pair,
    /// Pair B.
    pub b: Pair,
    /// What was compared.
    pub metric: Metric,
    /// The instances both solved, in instance order.
    pub matched: Vec<Matched<'a>>,
    /// Instances only A solved.
    pub only_a: usize,
    /// Instances only B solved.
    pub only_b: usize,
    /// Per-instance ratios A / B (instance means over repetitions) over the matched instances
    /// where both values are > 0; `None` if there is none.
    pub ratio: Option<RatioStats>,
    /// Matched instances left out of `ratio` because a value is 0 (e.g. 0 nodes expanded on a
    /// solved start board).
    pub zero: usize,
    /// Matched instances where A's value is lower than B's by more than the tie tolerance.
    pub wins: usize,
    /// Matched instances where A's value is higher than B's by more than the tie tolerance.
    pub losses: usize,
    /// Matched instances within the tie tolerance: |A - B| <= tie * max(A, B).
    pub ties: usize,
    /// The tie tolerance used (relative).
    pub tie: f64,
}

/// Compares `a` with `b` on `metric` per instance over `rows`; `tie` is the relative difference
/// up to which an instance counts as a tie (see [`Metric::default_tie`]).
pub fn compare<'a>(
    rows: &'a [Row],
    a: &Pair,
    b: &Pair,
    metric: Metric,
    tie: f64,
) -> Comparison<'a> {
    let ma = per_instance(rows, a, metric);
    let mb = per_instance(rows, b, metric);
    let mut matched = Vec::new();
    let mut only_a = 0;
    for (k, ra) in &ma {
        match mb.get(k) {
            Some(rb) => matched.push(Matched {
                instance: *k,
                a: *ra,
                b: *rb,
            }),
            None => only_a += 1,
        }
    }
    let only_b = mb.keys().filter(|k| !ma.contains_key(*k)).count();
    let (mut wins, mut losses, mut ties, mut zero) = (0, 0, 0, 0);
    let mut ratios = Vec::with_capacity(matched.len());
    for m in &matched {
        let (x, y) = (m.a.mean, m.b.mean);
        if (x - y).abs() <= tie * x.max(y) {
            ties += 1;
        } else if x < y {
            wins += 1;
        } else {
            losses += 1;
        }
        if x > 0.0 && y > 0.0 {
            ratios.push(x / y);
        } else {
            zero += 1;
        }
    }
    Comparison {
        a: a.clone(),
        b: b.clone(),
        metric,
        ratio: RatioStats::of(&ratios),
        matched,
        only_a,
        only_b,
        zero,
        wins,
        losses,
        ties,
        tie,
    }
}

/// A factor with three significant digits.
fn factor(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 0.001 {
        // Three significant digits: 0.123, 0.0123, 0.00123.
        let decimals = (2.0 - x.log10().floor()) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.2e}")
    }
}

impl Comparison<'_> {
    /// One line in hyperfine's manner, the larger-than-one factor first: "A is 3.20 ± 0.10
    /// times faster than B" (node counts: "A expands 2.50 ± 0.20 times fewer nodes than B") on the 60 instances both solved (geometric mean of per-instance
    /// ratios, 95% CI 3.01 to 3.40; A lower on 55, higher on 3, tie on 2)". ± is the standard
    /// error of the geometric mean. Without a ratio: "A and B: no instance both solved".
    pub fn sentence(&self) -> String {
        let Some(r) = self.ratio else {
            return if self.matched.is_empty() {
                format!("{} and {}: no instance both solved", self.a, self.b)
            } else {
                format!(
                    "{} and {}: no ratio ({} instance(s) both solved, every one with a {} of 0)",
                    self.a,
                    self.b,
                    self.matched.len(),
                    self.metric
                )
            };
        };
        // r is A / B: below 1, A is better by 1 / r.
        let (verb, better, worse) = self.metric.words();
        let (g, word) = if r.geo_mean <= 1.0 {
            (r.inverse(), better)
        } else {
            (r, worse)
        };
        let pm =
            g.se.map_or_else(String::new, |s| format!(" ± {}", factor(s)));
        let ci = g.ci95.map_or_else(String::new, |(lo, hi)| {
            format!(", 95% CI {} to {}", factor(lo), factor(hi))
        });
        let n = self.matched.len();
        let zero = if self.zero > 0 {
            format!(", {} with a 0 left out of the ratio", self.zero)
        } else {
            String::new()
        };
        format!(
            "{} {verb} {}{pm} times {word} {} on the {n} instance(s) both solved (geometric mean of \
             per-instance ratios{ci}{zero}; {} lower on {}, higher on {}, within {}% on {})",
            self.a,
            factor(g.geo_mean),
            self.b,
            self.a,
            self.wins,
            self.losses,
            self.tie * 100.0,
            self.ties
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A row of instance `id`, also the fixture of [`super::super::spread`]'s tests.
    pub(crate) fn row(id: &str, alg: &str, rep: u32, status: Outcome, ms: f64, exp: u64) -> Row {
        Row {
            run_id: "r".into(),
            instance_file: "f".into(),
            instance_id: id.into(),
            rows: 3,
            cols: 3,
            goal: crate::board::Goal::BlankLast,
            scramble_moves: None,
            algorithm: alg.into(),
            heuristic: "h".into(),
            repetition: rep,
            status,
            moves: Some(4),
            lower_bound: None,
            optimal: Some(true),
            known_optimal: None,
            suboptimal: None,
            nodes_expanded: Some(exp),
            nodes_generated: Some(2 * exp),
            iterations: None,
            peak_stored_nodes: None,
            peak_heap_bytes: None,
            peak_rss_bytes: None,
            wall_ms: ms,
            search_ms: None,
            cpu_ms: None,
            user_ms: None,
            sys_ms: None,
            measured_by: None,
            setup_ms: None,
            initial_h: None,
            message: None,
            solution: None,
        }
    }

    #[test]
    fn repeats_by_hand() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum 32, sample sd sqrt(32/7).
        let r = Repeats::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!((r.n, r.mean, r.min, r.max), (8, 5.0, 2.0, 9.0));
        assert!((r.sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((r.cv().unwrap() - (32.0f64 / 7.0).sqrt() / 5.0).abs() < 1e-12);
        assert_eq!(r.max_over_min(), Some(4.5));
        let one = Repeats::of(&[3.0]).unwrap();
        assert_eq!(
            (one.sd, one.cv(), one.max_over_min()),
            (0.0, Some(0.0), Some(1.0))
        );
        assert_eq!(Repeats::of(&[]), None);
        assert_eq!(Repeats::of(&[0.0, 0.0]).unwrap().cv(), None);
    }

    #[test]
    fn t_quantiles() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(10), 2.228);
        assert_eq!(t_975(30), 2.042);
        // Published values: t(0.975, 40) = 2.021, 60 -> 2.000, 120 -> 1.980.
        assert!((t_975(40) - 2.021).abs() < 5e-4, "{}", t_975(40));
        assert!((t_975(60) - 2.000).abs() < 5e-4, "{}", t_975(60));
        assert!((t_975(120) - 1.980).abs() < 5e-4, "{}", t_975(120));
        assert!((t_975(100_000) - 1.960).abs() < 5e-4);
        assert!(t_975(0).is_infinite());
    }

    #[test]
    fn ratio_stats_by_hand() {
        // Ratios 2, 8: logs ln 2, 3 ln 2; mean 2 ln 2 -> g = 4; s = sqrt(2) ln 2;
        // se = 4 * sqrt(2) ln 2 / sqrt(2) = 4 ln 2; CI exp(2 ln 2 +- 12.706 * ln 2).
        let r = RatioStats::of(&[2.0, 8.0]).unwrap();
        let ln2 = std::f64::consts::LN_2;
        assert!((r.geo_mean - 4.0).abs() < 1e-12);
        assert!((r.log_sd.unwrap() - 2f64.sqrt() * ln2).abs() < 1e-12);
        assert!((r.se.unwrap() - 4.0 * ln2).abs() < 1e-12);
        let (lo, hi) = r.ci95.unwrap();
        assert!((lo - ((2.0 - 12.706) * ln2).exp()).abs() < 1e-12);
        assert!((hi - ((2.0 + 12.706) * ln2).exp()).abs() < 1e-9);
        assert_eq!((r.min, r.max), (2.0, 8.0));
        let inv = r.inverse();
        assert!((inv.geo_mean - 0.25).abs() < 1e-12);
        assert!((inv.se.unwrap() - 0.25 * ln2).abs() < 1e-12);
        assert!((inv.ci95.unwrap().0 - 1.0 / hi).abs() < 1e-12);
        assert!((inv.min - 0.125).abs() < 1e-12 && (inv.max - 0.5).abs() < 1e-12);
        // One ratio: no spread; zeros and infinities left out.
        let one = RatioStats::of(&[3.0, 0.0, f64::INFINITY]).unwrap();
        assert_eq!((one.n, one.log_sd, one.ci95), (1, None, None));
        assert!((one.geo_mean - 3.0).abs() < 1e-12);
        assert_eq!(RatioStats::of(&[0.0]), None);
    }

    #[test]
    fn compare_matches_instances_and_aggregates_repetitions_first() {
        use Outcome::*;
        let rows = vec![
            // Instance 1: A's repetitions 1 and 3 ms (mean 2), B 8 ms -> ratio 1/4, A wins.
            row("1", "a", 1, Solved, 1.0, 10),
            row("1", "a", 2, Solved, 3.0, 10),
            row("1", "b", 1, Solved, 8.0, 40),
            // Instance 2: A 4 ms, B 4.1 ms: a tie at 5% (ratio 4 / 4.1).
            row("2", "a", 1, Solved, 4.0, 20),
            row("2", "b", 1, Solved, 4.1, 20),
            // Instance 3: A 9 ms, B's repetitions 2 and 4 ms (the timeout row left out) -> 3.
            row("3", "a", 1, Solved, 9.0, 30),
            row("3", "b", 1, Solved, 2.0, 15),
            row("3", "b", 2, Solved, 4.0, 15),
            row("3", "b", 3, Timeout, 60_000.0, 99),
            // Instance 4: only A solved; instance 5: only B.
            row("4", "a", 1, Solved, 1.0, 1),
            row("4", "b", 1, Timeout, 60_000.0, 1),
            row("5", "b", 1, Solved, 1.0, 1),
            // Another pair is never looked at.
            row("1", "c", 1, Solved, 1000.0, 1),
        ];
        let a = Pair::new("a", "h");
        let b = Pair::new("b", "h");
        let c = compare(&rows, &a, &b, Metric::Time, Metric::Time.default_tie());
        assert_eq!(c.matched.len(), 3);
        assert_eq!((c.only_a, c.only_b, c.zero), (1, 1, 0));
        assert_eq!((c.wins, c.losses, c.ties), (1, 1, 1));
        assert_eq!(c.matched[0].a.n, 2);
        assert_eq!(c.matched[2].b.mean, 3.0);
        let r = c.ratio.unwrap();
        // Ratios 0.25, 4 / 4.1, 3: geometric mean (0.75 * 4 / 4.1)^(1/3).
        let g = (0.25f64 * (4.0 / 4.1) * 3.0).cbrt();
        assert!((r.geo_mean - g).abs() < 1e-12, "{}", r.geo_mean);
        // Node counts: 10/40, 20/20, 30/15 -> ties only on exact equality.
        let n = compare(&rows, &a, &b, Metric::Expanded, 0.0);
        assert_eq!((n.wins, n.losses, n.ties), (1, 1, 1));
        let g = (0.25f64 * 1.0 * 2.0).cbrt();
        assert!((n.ratio.unwrap().geo_mean - g).abs() < 1e-12);
    }

    #[test]
    fn sentences() {
        use Outcome::*;
        // A is 2x and 8x faster: speed-up g = 4, se = 4 ln 2 = 2.77, CI from t(1).
        let rows = vec![
            row("1", "a", 1, Solved, 1.0, 0),
            row("1", "b", 1, Solved, 2.0, 0),
            row("2", "a", 1, Solved, 1.0, 5),
            row("2", "b", 1, Solved, 8.0, 5),
        ];
        let (a, b) = (Pair::new("a", "h"), Pair::new("b", "h"));
        let s = compare(&rows, &a, &b, Metric::Time, 0.05).sentence();
        assert!(
            s.starts_with(
                "a/h is 4.00 ± 2.77 times faster than b/h on the 2 instance(s) both solved"
            ),
            "{s}"
        );
        assert!(
            s.ends_with("a/h lower on 2, higher on 0, within 5% on 0)"),
            "{s}"
        );
        let s = compare(&rows, &b, &a, Metric::Time, 0.05).sentence();
        assert!(
            s.starts_with("b/h is 4.00 ± 2.77 times slower than a/h"),
            "{s}"
        );
        // Nodes: one instance with 0 expanded is left out of the ratio; the other is 1.
        let s = compare(&rows, &a, &b, Metric::Expanded, 0.0).sentence();
        assert!(
            s.starts_with("a/h expands 1.00 times fewer nodes than b/h on the 2 instance(s)"),
            "{s}"
        );
        assert!(s.contains("1 with a 0 left out"), "{s}");
        let none = compare(&rows, &a, &Pair::new("z", "h"), Metric::Time, 0.05).sentence();
        assert_eq!(none, "a/h and z/h: no instance both solved");
    }

    #[test]
    fn factors_have_three_significant_digits() {
        let f: Vec<String> = [1234.5, 12.34, 1.234, 0.1234, 0.01234, 0.001234, 0.0001234]
            .iter()
            .map(|&x| factor(x))
            .collect();
        assert_eq!(
            f,
            [
                "1234", "12.3", "1.23", "0.123", "0.0123", "0.00123", "1.23e-4"
            ]
        );
    }

    #[test]
    fn pair_parsing() {
        let rows = vec![row("1", "astar", 1, Outcome::Solved, 1.0, 1)];
        assert_eq!(parse_pair_in("astar/h", &rows), Ok(Pair::new("astar", "h")));
        assert_eq!(
            parse_pair("astar").unwrap_err().to_string(),
            "\"astar\": expected ALGORITHM/HEURISTIC as the report table names it, e.g. idastar/manhattan"
        );
        assert!(parse_pair("/h").is_err() && parse_pair("a/").is_err());
        let e = parse_pair_in("bfs/none", &rows).unwrap_err().to_string();
        assert_eq!(
            e,
            "bfs/none: no rows of that pair; the results have astar/h"
        );
        assert_eq!("ms".parse::<Metric>(), Ok(Metric::Time));
        assert!(
            "speed"
                .parse::<Metric>()
                .unwrap_err()
                .to_string()
                .contains("time, expanded or generated")
        );
    }
}
