//! The figures of a set of results ([`crate::infra::chart`] draws them): nodes expanded and
//! peak memory against solution length on log axes (mean per depth with the interquartile
//! band), the distribution of time per instance (CDF), and b* by depth. One series per
//! (algorithm, heuristic).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::aggregate::effective_branching_factor;
use crate::infra::chart::{
    Axis, Figure, PlotError, PlotFormat, Scale, Series, draw_svg, quantile, write_one,
};
use crate::results::{Outcome, Row};

/// How to write the figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotOptions {
    /// The formats to write, each figure once per format.
    pub formats: Vec<PlotFormat>,
    /// Draw the title in the image (papers put it in the caption instead).
    pub titles: bool,
}

impl Default for PlotOptions {
    fn default() -> Self {
        Self {
            formats: vec![PlotFormat::Svg],
            titles: true,
        }
    }
}

/// A figure drawn as SVG, before it is written in any format.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedFigure {
    /// The file name without extension, e.g. `nodes_vs_length`.
    pub stem: &'static str,
    /// The title (drawn in the image unless `--no-titles`).
    pub title: String,
    /// What the figure shows, in one or two sentences (for a caption).
    pub caption: &'static str,
    /// The SVG document; `None` if nothing in the results could go into the figure.
    pub svg: Option<String>,
}

/// Solved rows of each pair, and the pair's number of runs, pairs in name order.
fn by_pair(records: &[Row]) -> BTreeMap<String, (usize, Vec<&Row>)> {
    let mut m: BTreeMap<String, (usize, Vec<&Row>)> = BTreeMap::new();
    for r in records {
        let e = m.entry(r.pair().to_string()).or_default();
        e.0 += 1;
        if r.status == Outcome::Solved {
            e.1.push(r);
        }
    }
    m
}

/// Per solution length over solved rows with a value: (depth, mean, first quartile, third
/// quartile). Values that are not finite, or not positive when `positive`, are left out.
fn stats_by_depth(
    rows: &[&Row],
    value: impl Fn(&Row) -> Option<f64>,
    positive: bool,
) -> Vec<(u32, f64, f64, f64)> {
    let mut m: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for r in rows {
        if let (Some(d), Some(v)) = (r.moves, value(r))
            && v.is_finite()
            && (!positive || v > 0.0)
        {
            m.entry(d).or_default().push(v);
        }
    }
    m.into_iter()
        .map(|(d, mut v)| {
            v.sort_by(f64::total_cmp);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            (d, mean, quantile(&v, 0.25), quantile(&v, 0.75))
        })
        .collect()
}

fn series_by_depth(records: &[Row], value: impl Fn(&Row) -> Option<f64> + Copy) -> Vec<Series> {
    by_pair(records)
        .into_iter()
        .map(|(name, (_, rows))| {
            let stats = stats_by_depth(&rows, value, true);
            Series {
                name,
                points: stats
                    .iter()
                    .map(|&(d, mean, _, _)| (f64::from(d), mean))
                    .collect(),
                band: stats
                    .iter()
                    .map(|&(d, _, q1, q3)| (f64::from(d), q1, q3))
                    .collect(),
            }
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

/// Times of one pair's solved runs for the CDF, sorted. Times are written rounded to the
/// microsecond; when every time is a whole number of microseconds, the `m` runs tied at `t`
/// are spread evenly over the rounding interval `[t - 0.5 µs, t + 0.5 µs]` (the k-th at
/// `t - 0.5 + (k + 0.5) / m` µs), so the curve is not a staircase of rounding artefacts.
/// Times of 0 become positive values below 0.5 µs (the log axis).
pub fn cdf_times(times: &[f64]) -> Vec<f64> {
    let mut t: Vec<f64> = times.iter().copied().filter(|v| v.is_finite()).collect();
    t.sort_by(f64::total_cmp);
    let quantized = t
        .iter()
        .all(|&v| v >= 0.0 && ((v * 1e3) - (v * 1e3).round()).abs() < 1e-6);
    if !quantized {
        return t.into_iter().map(|v| v.max(1e-4)).collect();
    }
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        let mut j = i;
        while j < t.len() && t[j] == t[i] {
            j += 1;
        }
        let m = (j - i) as f64;
        // The interval, in microseconds, cut at 0.
        let us = (t[i] * 1e3).round();
        let (lo, hi) = ((us - 0.5).max(0.0), us + 0.5);
        for k in 0..(j - i) {
            out.push((lo + (k as f64 + 0.5) / m * (hi - lo)) / 1e3);
        }
        i = j;
    }
    out
}

/// The label of a figure's source: the number of rows.
fn subtitle(records: &[Row]) -> String {
    let solved = records
        .iter()
        .filter(|r| r.status == Outcome::Solved)
        .count();
    format!("{solved} solved of {} runs", records.len())
}

fn figures(records: &[Row]) -> Vec<Figure> {
    let sub = subtitle(records);
    let depth_axis = Axis {
        desc: "solution length (moves)",
        scale: Scale::Linear { integer: true },
        fixed: None,
    };
    let nodes = Figure {
        stem: "nodes_vs_length",
        title: format!("Nodes expanded by solution length ({sub})"),
        caption: "Mean nodes expanded per solution length over the solved runs (line), with the \
                  band between the first and third quartile; log scale.",
        x: Axis { ..depth_axis },
        y: Axis {
            desc: "nodes expanded (mean, IQR band)",
            scale: Scale::Log10,
            fixed: None,
        },
        markers: true,
        series: series_by_depth(records, |r| r.nodes_expanded.map(|v| v as f64)),
    };
    let memory = Figure {
        stem: "memory_vs_length",
        title: format!("Peak heap memory by solution length ({sub})"),
        caption: "Mean peak heap bytes per solution length over the solved runs (line), with the \
                  band between the first and third quartile; log scale, binary units.",
        x: Axis {
            desc: "solution length (moves)",
            ..depth_axis
        },
        y: Axis {
            desc: "peak heap (mean, IQR band)",
            scale: Scale::Bytes,
            fixed: None,
        },
        markers: true,
        series: series_by_depth(records, |r| r.peak_heap_bytes.map(|v| v as f64)),
    };
    let bstar = Figure {
        stem: "bstar_by_depth",
        title: format!("Effective branching factor b* by depth ({sub})"),
        caption: "b* of the mean nodes generated at each solution length d \
                  (N + 1 = 1 + b* + ... + b*^d).",
        x: Axis {
            desc: "solution length d (moves)",
            ..depth_axis
        },
        y: Axis {
            desc: "b* of the mean nodes generated at depth d",
            scale: Scale::Linear { integer: false },
            fixed: None,
        },
        markers: true,
        series: by_pair(records)
            .into_iter()
            .map(|(name, (_, rows))| Series {
                name,
                points: stats_by_depth(&rows, |r| r.nodes_generated.map(|v| v as f64), false)
                    .into_iter()
                    .filter_map(|(d, n, _, _)| {
                        Some((f64::from(d), effective_branching_factor(n, d)?))
                    })
                    .collect(),
                band: Vec::new(),
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    // CDF over all runs of the pair: unsolved runs never arrive, so a curve tops out at the
    // pair's solved fraction.
    let cdf = Figure {
        stem: "time_cdf",
        title: format!("Time per instance, cumulative distribution ({sub})"),
        caption: "Fraction of each configuration's runs solved within a wall time (log scale); \
                  a curve tops out at the configuration's solved fraction. Times rounded to the \
                  microsecond are spread over their rounding interval.",
        x: Axis {
            desc: "wall time per run (ms)",
            scale: Scale::Log10,
            fixed: None,
        },
        y: Axis {
            desc: "fraction of runs solved within the time",
            scale: Scale::Linear { integer: false },
            fixed: Some((0.0, 1.0)),
        },
        markers: false,
        series: by_pair(records)
            .into_iter()
            .map(|(name, (runs, rows))| {
                let t = cdf_times(&rows.iter().map(|r| r.wall_ms).collect::<Vec<_>>());
                let points = t
                    .iter()
                    .enumerate()
                    .map(|(i, &ms)| (ms, (i + 1) as f64 / runs as f64))
                    .collect();
                Series {
                    name,
                    points,
                    band: Vec::new(),
                }
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    vec![nodes, cdf, memory, bstar]
}

/// Draws the figures of `records` as SVG documents, in the order they are written.
pub fn render_figures(records: &[Row], titles: bool) -> Result<Vec<RenderedFigure>, String> {
    figures(records)
        .into_iter()
        .map(|fig| {
            let svg = if fig.series.is_empty() {
                None
            } else {
                Some(draw_svg(&fig, titles)?)
            };
            Ok(RenderedFigure {
                stem: fig.stem,
                title: fig.title,
                caption: fig.caption,
                svg,
            })
        })
        .collect()
}

/// Writes the figures into `dir` (created if missing) in SVG with titles; returns the files
/// written, and the figures left out because nothing in the results could go into them.
pub fn write_plots(dir: &Path, records: &[Row]) -> Result<(Vec<PathBuf>, Vec<String>), PlotError> {
    write_plots_with(dir, records, &PlotOptions::default())
}

/// [`write_plots`] in the formats and with the titles of `opts`.
pub fn write_plots_with(
    dir: &Path,
    records: &[Row],
    opts: &PlotOptions,
) -> Result<(Vec<PathBuf>, Vec<String>), PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| PlotError {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let figures = render_figures(records, opts.titles).map_err(|message| PlotError {
        path: dir.to_path_buf(),
        message,
    })?;
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    for fig in figures {
        let Some(svg) = fig.svg else {
            skipped.push(format!(
                "{} (no solved runs with the values it needs)",
                fig.stem
            ));
            continue;
        };
        for &format in &opts.formats {
            let path = dir.join(format!("{}.{}", fig.stem, format.extension()));
            written.push(write_one(&path, &svg, format)?);
        }
    }
    Ok((written, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_microsecond_times_spread_over_their_interval() {
        // Three runs at 2 µs, one at 5 µs: 2 µs spread over [1.5, 2.5] µs at 1/6, 3/6, 5/6.
        let t = cdf_times(&[0.002, 0.005, 0.002, 0.002]);
        let want = [1.5 + 1.0 / 6.0, 2.0, 2.5 - 1.0 / 6.0, 5.0];
        for (a, b) in t.iter().zip(want) {
            assert!((a * 1e3 - b).abs() < 1e-9, "{t:?}");
        }
        // Times with finer digits are kept as they are.
        assert_eq!(cdf_times(&[0.0025, 0.001]), vec![0.001, 0.0025]);
    }
}
