//! SVG figures of a set of results (plotters, SVG backend): nodes expanded and peak memory
//! against solution length on log axes, the distribution of time per instance (CDF), and b*
//! by depth. One series per (algorithm, heuristic).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use thiserror::Error;

use super::aggregate::effective_branching_factor;
use super::table::{fmt_count, fmt_ms};
use crate::results::{Outcome, Row};

/// A figure could not be drawn or written.
#[derive(Debug, Error)]
#[error("{path}: cannot write the figure: {message}")]
pub struct PlotError {
    /// The SVG file.
    pub path: PathBuf,
    /// What failed.
    pub message: String,
}

/// Distinct colours (Tableau 10), cycled over the series.
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

const SIZE: (u32, u32) = (960, 600);

/// One named series of (x, y) points.
struct Series {
    name: String,
    points: Vec<(f64, f64)>,
}

/// What to draw in one figure.
struct Figure<'a> {
    file: &'a str,
    title: String,
    x_desc: &'a str,
    y_desc: &'a str,
    x_log: bool,
    y_log: bool,
    x_fmt: fn(f64) -> String,
    y_fmt: fn(f64) -> String,
    legend: fn() -> SeriesLabelPosition,
    /// Draw a step function (for CDFs) instead of lines with markers.
    steps: bool,
    /// Two more decades on top of a log y axis, room for the legend above flat series.
    headroom: bool,
    series: Vec<Series>,
}

/// Solved rows of each pair, pairs in name order.
fn by_pair(records: &[Row]) -> BTreeMap<String, (usize, Vec<&Row>)> {
    let mut m: BTreeMap<String, (usize, Vec<&Row>)> = BTreeMap::new();
    for r in records {
        let e = m.entry(r.pair()).or_default();
        e.0 += 1;
        if r.status == Outcome::Solved {
            e.1.push(r);
        }
    }
    m
}

/// Mean of `value` per solution length over solved rows; only positive means are kept (log axes).
fn mean_by_depth(rows: &[&Row], value: impl Fn(&Row) -> Option<f64>) -> Vec<(u32, f64)> {
    let mut m: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
    for r in rows {
        if let (Some(d), Some(v)) = (r.moves, value(r)) {
            let e = m.entry(d).or_default();
            e.0 += v;
            e.1 += 1;
        }
    }
    m.into_iter().map(|(d, (s, k))| (d, s / k as f64)).collect()
}

fn series_by_depth(
    records: &[Row],
    value: impl Fn(&Row) -> Option<f64> + Copy,
    positive: bool,
) -> Vec<Series> {
    by_pair(records)
        .into_iter()
        .map(|(name, (_, rows))| Series {
            name,
            points: mean_by_depth(&rows, value)
                .into_iter()
                .map(|(d, v)| (f64::from(d), v))
                .filter(|&(_, v)| v.is_finite() && (!positive || v > 0.0))
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

/// The label of a figure's source: the number of rows.
fn subtitle(records: &[Row]) -> String {
    let solved = records
        .iter()
        .filter(|r| r.status == Outcome::Solved)
        .count();
    format!("{solved} solved of {} runs", records.len())
}

fn figures(records: &[Row]) -> Vec<Figure<'static>> {
    let sub = subtitle(records);
    let int = |x: f64| format!("{x:.0}");
    let nodes = Figure {
        file: "nodes_vs_length.svg",
        title: format!("Nodes expanded by solution length ({sub})"),
        x_desc: "solution length (moves)",
        y_desc: "mean nodes expanded (log scale)",
        x_log: false,
        y_log: true,
        x_fmt: int,
        y_fmt: fmt_sci,
        legend: || SeriesLabelPosition::UpperLeft,
        steps: false,
        headroom: false,
        series: series_by_depth(records, |r| r.nodes_expanded.map(|v| v as f64), true),
    };
    let memory = Figure {
        file: "memory_vs_length.svg",
        title: format!("Peak heap memory by solution length ({sub})"),
        x_desc: "solution length (moves)",
        y_desc: "mean peak heap (bytes, log scale)",
        x_log: false,
        y_log: true,
        x_fmt: int,
        y_fmt: fmt_si_bytes,
        legend: || SeriesLabelPosition::UpperLeft,
        steps: false,
        headroom: true,
        series: series_by_depth(records, |r| r.peak_heap_bytes.map(|v| v as f64), true),
    };
    let bstar = Figure {
        file: "bstar_by_depth.svg",
        title: format!("Effective branching factor b* by depth ({sub})"),
        x_desc: "solution length d (moves)",
        y_desc: "b* of the mean nodes generated at depth d",
        x_log: false,
        y_log: false,
        x_fmt: int,
        y_fmt: |y| format!("{y:.2}"),
        legend: || SeriesLabelPosition::UpperRight,
        steps: false,
        headroom: false,
        series: by_pair(records)
            .into_iter()
            .map(|(name, (_, rows))| Series {
                name,
                points: mean_by_depth(&rows, |r| r.nodes_generated.map(|v| v as f64))
                    .into_iter()
                    .filter_map(|(d, n)| Some((f64::from(d), effective_branching_factor(n, d)?)))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    // CDF over all runs of the pair: unsolved runs never arrive, so a curve tops out at the
    // pair's solved fraction. Times are clamped to 1 microsecond for the log axis.
    let cdf = Figure {
        file: "time_cdf.svg",
        title: format!("Time per instance, cumulative distribution ({sub})"),
        x_desc: "wall time per run (ms, log scale)",
        y_desc: "fraction of runs solved within the time",
        x_log: true,
        y_log: false,
        x_fmt: fmt_ms_axis,
        y_fmt: |y| format!("{y:.1}"),
        legend: || SeriesLabelPosition::LowerRight,
        steps: true,
        headroom: false,
        series: by_pair(records)
            .into_iter()
            .map(|(name, (runs, rows))| {
                let mut t: Vec<f64> = rows
                    .iter()
                    .map(|r| r.wall_ms)
                    .map(|v| v.max(1e-3))
                    .collect();
                t.sort_by(f64::total_cmp);
                let points = t
                    .iter()
                    .enumerate()
                    .map(|(i, &ms)| (ms, (i + 1) as f64 / runs as f64))
                    .collect();
                Series { name, points }
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    vec![nodes, cdf, memory, bstar]
}

fn fmt_sci(v: f64) -> String {
    if v < 1e4 {
        fmt_count(v)
    } else {
        format!("{v:.0e}")
    }
}

/// Bytes in decimal units (decades of a log axis land on 1 kB, 10 kB, 1 MB, ...).
fn fmt_si_bytes(v: f64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut x = v;
    let mut u = 0;
    while x >= 1000.0 && u + 1 < UNITS.len() {
        x /= 1000.0;
        u += 1;
    }
    let digits = if x >= 100.0 || x.fract() == 0.0 {
        0
    } else if x >= 10.0 {
        1
    } else {
        2
    };
    let mut t = format!("{x:.digits$}");
    if t.contains('.') {
        t = t.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{t} {}", UNITS[u])
}

fn fmt_ms_axis(v: f64) -> String {
    if v >= 1.0 { fmt_count(v) } else { fmt_ms(v) }
}

/// The range covering `values`, padded; `log` keeps it positive and pads by factors.
fn range(values: impl Iterator<Item = f64>, log: bool, min_pad: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        // Whole decades, so the log axis has labelled ticks.
        let lo = 10f64.powf(lo.log10().floor());
        let mut hi = 10f64.powf(hi.log10().ceil());
        if hi <= lo {
            hi = lo * 10.0;
        }
        (lo, hi)
    } else {
        let pad = ((hi - lo) * 0.08).max(min_pad);
        let lo = (lo - pad).max(0.0);
        (lo, hi + pad)
    }
}

fn draw(dir: &Path, fig: &Figure<'_>) -> Result<PathBuf, PlotError> {
    let path = dir.join(fig.file);
    let err = |e: &dyn std::fmt::Display| PlotError {
        path: path.clone(),
        message: e.to_string(),
    };
    let xs = || fig.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = || fig.series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (mut x0, mut x1) = range(xs(), fig.x_log, 0.5);
    // Solution lengths are integers: whole-number bounds and at most one label per move.
    let x_labels = if fig.x_log {
        10
    } else {
        x0 = x0.floor();
        x1 = x1.ceil();
        ((x1 - x0) as usize + 1).min(16)
    };
    let (y0, mut y1) = if fig.steps {
        (0.0, 1.02)
    } else {
        range(ys(), fig.y_log, 0.05)
    };
    if fig.headroom && fig.y_log {
        y1 *= 100.0;
    }
    {
        let root = SVGBackend::new(&path, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&fig.title, ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(90);
        // The four axis kinds are different types in plotters; one macro draws them all.
        macro_rules! plot {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| err(&e))?;
                chart
                    .configure_mesh()
                    .x_desc(fig.x_desc)
                    .x_labels(x_labels)
                    .y_desc(fig.y_desc)
                    .x_label_formatter(&|v| (fig.x_fmt)(*v))
                    .y_label_formatter(&|v| (fig.y_fmt)(*v))
                    .axis_desc_style(("sans-serif", 18))
                    .label_style(("sans-serif", 15))
                    .light_line_style(RGBColor(235, 235, 235))
                    .draw()
                    .map_err(|e| err(&e))?;
                for (i, s) in fig.series.iter().enumerate() {
                    let color = COLORS[i % COLORS.len()];
                    let style = color.stroke_width(2);
                    let pts: Vec<(f64, f64)> = if fig.steps {
                        let mut v = Vec::with_capacity(2 * s.points.len() + 1);
                        let mut prev = 0.0;
                        for &(x, y) in &s.points {
                            v.push((x, prev));
                            v.push((x, y));
                            prev = y;
                        }
                        v
                    } else {
                        s.points.clone()
                    };
                    chart
                        .draw_series(LineSeries::new(pts, style))
                        .map_err(|e| err(&e))?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                        });
                    if !fig.steps {
                        chart
                            .draw_series(
                                s.points.iter().map(|&p| Circle::new(p, 3, color.filled())),
                            )
                            .map_err(|e| err(&e))?;
                    }
                }
                chart
                    .configure_series_labels()
                    .position((fig.legend)())
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .label_font(("sans-serif", 16))
                    .draw()
                    .map_err(|e| err(&e))?;
            }};
        }
        match (fig.x_log, fig.y_log) {
            (false, false) => plot!(builder.build_cartesian_2d(x0..x1, y0..y1)),
            (false, true) => plot!(builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale())),
            (true, false) => plot!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1)),
            (true, true) => {
                plot!(builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()))
            }
        }
        root.present().map_err(|e| err(&e))?;
    }
    Ok(path)
}

/// Writes the figures into `dir` (created if missing); returns the files written, and the
/// figures left out because nothing in the results could go into them.
pub fn write_plots(dir: &Path, records: &[Row]) -> Result<(Vec<PathBuf>, Vec<String>), PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| PlotError {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    for fig in figures(records) {
        if fig.series.is_empty() {
            skipped.push(format!(
                "{} (no solved runs with the values it needs)",
                fig.file
            ));
            continue;
        }
        written.push(draw(dir, &fig)?);
    }
    Ok((written, skipped))
}

/// One log-y line chart of named (x, y) series into `dir/file`, in the style of the report's
/// figures (for other subcommands, e.g. `bench predict`). Non-positive y values are dropped.
pub fn log_line_chart(
    dir: &Path,
    file: &str,
    title: String,
    x_desc: &str,
    y_desc: &str,
    series: Vec<(String, Vec<(f64, f64)>)>,
) -> Result<PathBuf, PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| PlotError {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let fig = Figure {
        file,
        title,
        x_desc,
        y_desc,
        x_log: false,
        y_log: true,
        x_fmt: |x| format!("{x:.0}"),
        y_fmt: fmt_sci,
        legend: || SeriesLabelPosition::UpperLeft,
        steps: false,
        headroom: true,
        series: series
            .into_iter()
            .map(|(name, points)| Series {
                name,
                points: points
                    .into_iter()
                    .filter(|p| p.1 > 0.0 && p.1.is_finite())
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    draw(dir, &fig)
}
