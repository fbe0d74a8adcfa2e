//! Line charts drawn the same way wherever the crate draws one (`bench report`'s figures,
//! `bench predict`'s chart): plotters with its SVG backend, PNG and PDF rendered from the same
//! SVG with resvg and svg2pdf and an embedded font, so every format shows the same figure.
//!
//! Axes are fitted to the data (a few percent of padding), log axes are drawn as linear axes
//! of log10 (counts, times) or log2 (bytes) with the ticks chosen here, so every label has one
//! style: powers of ten as `10ⁿ`, bytes in binary units (`64 KiB`, `1 MiB`) as in the tables.
//! A caller describes a [`Figure`] (axes, named series with optional bands) and gets SVG.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use thiserror::Error;

/// A figure could not be drawn or written.
#[derive(Debug, Error)]
#[error("{path}: cannot write the figure: {message}")]
pub struct PlotError {
    /// The file.
    pub path: PathBuf,
    /// What failed.
    pub message: String,
}

/// A file format of the figures (`--plot-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum PlotFormat {
    /// SVG, as plotters draws it.
    Svg,
    /// PNG, the SVG rendered at twice its size (1920 x 1200 pixels).
    Png,
    /// PDF, the SVG converted to vector PDF (text as embedded font subsets).
    Pdf,
}

impl PlotFormat {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Svg => "svg",
            Self::Png => "png",
            Self::Pdf => "pdf",
        }
    }
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
const FONT: &str = "sans-serif";

/// How an axis maps values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Linear.
    Linear {
        /// Whole-number ticks (solution lengths).
        integer: bool,
    },
    /// log10, labels `10ⁿ` (counts, milliseconds).
    Log10,
    /// log2, labels in binary byte units.
    Bytes,
}

impl Scale {
    fn to_axis(self, v: f64) -> f64 {
        match self {
            Self::Linear { .. } => v,
            Self::Log10 => v.log10(),
            Self::Bytes => v.log2(),
        }
    }
    fn value_at(self, t: f64) -> f64 {
        match self {
            Self::Linear { .. } => t,
            Self::Log10 => 10f64.powf(t),
            Self::Bytes => 2f64.powf(t),
        }
    }
    fn is_log(self) -> bool {
        !matches!(self, Self::Linear { .. })
    }
}

/// One axis: its description, its scale, and a fixed range (in values) if not fitted.
pub struct Axis {
    /// The axis title.
    pub desc: &'static str,
    /// How values map onto it.
    pub scale: Scale,
    /// A fixed range, in values; `None` to fit the data.
    pub fixed: Option<(f64, f64)>,
}

/// One named series of (x, y) points, with an optional band of (x, low, high).
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// The line's points.
    pub points: Vec<(f64, f64)>,
    /// The band around it (x, low, high); empty for none.
    pub band: Vec<(f64, f64, f64)>,
}

/// What to draw in one figure.
pub struct Figure {
    /// The file name without extension.
    pub stem: &'static str,
    /// The title (drawn unless untitled).
    pub title: String,
    /// What the figure shows, for a caption.
    pub caption: &'static str,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// Markers on the points (off for CDFs, which have one point per run).
    pub markers: bool,
    /// The series, one colour each.
    pub series: Vec<Series>,
}

/// The `q` quantile of sorted `v` by linear interpolation between order statistics (the
/// default of R and NumPy): position q * (n - 1).
pub fn quantile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    if i + 1 < v.len() {
        v[i] + frac * (v[i + 1] - v[i])
    } else {
        v[i]
    }
}

const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/// `10ⁿ` with a superscript exponent.
fn pow10_label(e: i32) -> String {
    let mut s = String::from("10");
    if e < 0 {
        s.push('⁻');
    }
    for d in e.unsigned_abs().to_string().bytes() {
        s.push(SUPERSCRIPTS[usize::from(d - b'0')]);
    }
    s
}

/// `m·10ⁿ` for a value that is a small multiple of a power of ten; `10ⁿ` when m = 1.
fn log10_label(v: f64) -> String {
    let e = v.log10().floor() as i32;
    let m = v / 10f64.powi(e);
    let m_round = (m * 100.0).round() / 100.0;
    if (m_round - 1.0).abs() < 1e-9 {
        pow10_label(e)
    } else if (m_round - 10.0).abs() < 1e-9 {
        pow10_label(e + 1)
    } else {
        let mut t = format!("{m_round:.2}");
        t = t.trim_end_matches('0').trim_end_matches('.').to_string();
        format!("{t}·{}", pow10_label(e))
    }
}

/// Bytes in binary units with up to three significant digits: `512 B`, `1 KiB`, `1.5 MiB`.
pub fn bytes_label(v: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut x = v;
    let mut u = 0;
    while x >= 1024.0 - 1e-9 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    let digits = if x >= 100.0 {
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

/// A "nice" step (1, 2 or 5 times a power of ten) giving at most `max` intervals over `span`.
fn nice_step(span: f64, max: usize) -> f64 {
    let raw = (span / max as f64).max(f64::MIN_POSITIVE);
    let p = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= raw {
            return m * p;
        }
    }
    10.0 * p
}

/// Multiples of `step` within [lo, hi].
fn multiples(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The axis range (in axis coordinates) fitted to `values` (in values), and its labelled and
/// light ticks (in axis coordinates): a linear plotters coordinate with the ticks chosen here.
#[derive(Debug, Clone)]
struct Ticks {
    range: (f64, f64),
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for Ticks {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let (lo, hi) = self.range;
        let r = (v - lo) / (hi - lo);
        limit.0 + (f64::from(limit.1 - limit.0) * r).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.0..self.range.1
    }
}

fn fit(axis: &Axis, values: impl Iterator<Item = f64>) -> Ticks {
    let scale = axis.scale;
    let (lo, hi) = match axis.fixed {
        Some((lo, hi)) => (scale.to_axis(lo), scale.to_axis(hi)),
        None => {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for v in values {
                if v.is_finite() && (!scale.is_log() || v > 0.0) {
                    let t = scale.to_axis(v);
                    lo = lo.min(t);
                    hi = hi.max(t);
                }
            }
            if !lo.is_finite() {
                (0.0, 1.0)
            } else {
                (lo, hi)
            }
        }
    };
    // Padding: 4% of the span, at least a minimum that depends on the scale.
    let min_span = match scale {
        Scale::Linear { integer: true } => 1.0,
        Scale::Linear { integer: false } => (hi.abs() * 0.02).max(0.01),
        Scale::Log10 => 0.3,
        Scale::Bytes => 1.0,
    };
    let span = (hi - lo).max(min_span);
    let mid = 0.5 * (lo + hi);
    let (mut lo, mut hi) = if hi - lo < min_span {
        (mid - span / 2.0, mid + span / 2.0)
    } else {
        (lo, hi)
    };
    let pad = 0.04 * span;
    lo -= pad;
    hi += pad;
    if let Scale::Linear { integer: true } = scale {
        lo = (lo - 0.5)
            .floor()
            .max(if lo >= 0.0 { 0.0 } else { lo.floor() });
        hi = (hi + 0.5).ceil();
    }
    let mut light = Vec::new();
    let bold = match scale {
        Scale::Linear { integer } => {
            let mut step = nice_step(hi - lo, 10);
            if integer {
                step = step.max(1.0);
            }
            multiples(lo, hi, step)
        }
        Scale::Log10 => {
            let decades = multiples(lo, hi, 1.0);
            if decades.len() >= 2 {
                let step = ((decades.len() as f64 / 10.0).ceil()).max(1.0);
                for &d in &decades {
                    for m in 2..10 {
                        let t = d + f64::from(m).log10();
                        if t <= hi {
                            light.push(t);
                        }
                    }
                }
                light.extend(
                    (2..10)
                        .map(|m| decades[0] - 1.0 + f64::from(m).log10())
                        .filter(|&t| t >= lo),
                );
                multiples(lo, hi, step)
            } else {
                // Less than two decades shown: ticks at 1, 2 and 5 (or every digit) times a
                // power of ten.
                let e = lo.floor() as i32;
                let mut t: Vec<f64> = Vec::new();
                for digits in [
                    &[1.0, 2.0, 5.0][..],
                    &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
                ] {
                    t = (e..=hi.ceil() as i32)
                        .flat_map(|k| digits.iter().map(move |m| (m * 10f64.powi(k)).log10()))
                        .filter(|&x| x >= lo && x <= hi)
                        .collect();
                    if t.len() >= 3 {
                        break;
                    }
                }
                t
            }
        }
        Scale::Bytes => {
            let powers = multiples(lo, hi, 1.0);
            if powers.len() >= 3 {
                let step = [1.0, 2.0, 5.0, 10.0]
                    .into_iter()
                    .find(|s| (hi - lo) / s <= 10.0)
                    .unwrap_or(10.0);
                multiples(lo, hi, step)
            } else {
                // Less than a factor 4 shown: nice steps in the unit of the smallest value.
                let (vlo, vhi) = (2f64.powf(lo), 2f64.powf(hi));
                let unit = 1024f64.powi((vlo.log2() / 10.0).floor().max(0.0) as i32);
                let step = nice_step((vhi - vlo) / unit, 6) * unit;
                multiples(vlo, vhi, step)
                    .into_iter()
                    .filter(|&v| v > 0.0)
                    .map(f64::log2)
                    .collect()
            }
        }
    };
    Ticks {
        range: (lo, hi),
        bold,
        light,
    }
}

fn tick_label(scale: Scale, t: f64, step: f64) -> String {
    match scale {
        Scale::Linear { integer: true } => format!("{t:.0}"),
        Scale::Linear { integer: false } => {
            let digits = if step >= 1.0 {
                0
            } else {
                (-step.log10().floor()) as usize
            };
            format!("{t:.digits$}")
        }
        Scale::Log10 => log10_label(scale.value_at(t)),
        Scale::Bytes => bytes_label(scale.value_at(t)),
    }
}

/// Draws `fig` as an SVG document.
pub fn draw_svg(fig: &Figure, titles: bool) -> Result<String, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let xs = fig.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = fig.series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let xt = fit(&fig.x, xs);
    let yt = fit(&fig.y, ys);
    let step = |b: &[f64]| {
        if b.len() >= 2 {
            (b[1] - b[0]).abs()
        } else {
            1.0
        }
    };
    let (x_step, y_step) = (step(&xt.bold), step(&yt.bold));
    let names_width = fig
        .series
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    let legend_w = (names_width as u32 * 9 + 60).clamp(120, 360);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let root = if titles {
            root.titled(&fig.title, (FONT, 22)).map_err(|e| err(&e))?
        } else {
            root
        };
        let (plot_area, legend_area) = root.split_horizontally(SIZE.0 - legend_w);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(16)
            .x_label_area_size(55)
            .y_label_area_size(90)
            .build_cartesian_2d(xt.clone(), yt.clone())
            .map_err(|e| err(&e))?;
        let (xs, ys) = (fig.x.scale, fig.y.scale);
        chart
            .configure_mesh()
            .x_desc(fig.x.desc)
            .y_desc(fig.y.desc)
            .x_label_formatter(&|t| tick_label(xs, *t, x_step))
            .y_label_formatter(&|t| tick_label(ys, *t, y_step))
            .axis_desc_style((FONT, 18))
            .label_style((FONT, 15))
            .bold_line_style(RGBColor(215, 215, 215))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .map_err(|e| err(&e))?;
        let tr = |(x, y): (f64, f64)| (xs.to_axis(x), ys.to_axis(y));
        for (i, s) in fig.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            if s.band.len() >= 2 {
                let mut poly: Vec<(f64, f64)> = s.band.iter().map(|b| tr((b.0, b.2))).collect();
                poly.extend(s.band.iter().rev().map(|b| tr((b.0, b.1))));
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        poly,
                        color.mix(0.15).filled(),
                    )))
                    .map_err(|e| err(&e))?;
            }
        }
        for (i, s) in fig.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let pts: Vec<(f64, f64)> = s.points.iter().map(|&p| tr(p)).collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(|e| err(&e))?;
            if fig.markers {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| err(&e))?;
            }
        }
        // The legend, right of the plot: never over the data.
        let top = 40;
        for (i, s) in fig.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let y = top + 24 * i as i32;
            legend_area
                .draw(&PathElement::new(
                    vec![(4, y), (30, y)],
                    color.stroke_width(3),
                ))
                .map_err(|e| err(&e))?;
            legend_area
                .draw(&Text::new(
                    s.name.as_str(),
                    (38, y - 8),
                    (FONT, 15).into_font().color(&BLACK),
                ))
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

/// The font every PNG and PDF figure is drawn with (DejaVu Sans, embedded: the output does
/// not depend on the fonts of the machine).
const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

fn fontdb() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(DEJAVU_SANS.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

fn svg_tree(svg: &str) -> Result<resvg::usvg::Tree, String> {
    let opt = resvg::usvg::Options {
        fontdb: fontdb(),
        ..resvg::usvg::Options::default()
    };
    resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| e.to_string())
}

/// `svg` rendered to PNG at `scale` times its size, on white.
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let tree = svg_tree(svg)?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("empty image")?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("cannot allocate the image")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// `svg` converted to a one-page PDF of the same size.
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, String> {
    let tree = svg_tree(svg)?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// Writes the SVG `svg` to `path` in `format`; returns the path.
pub fn write_one(path: &Path, svg: &str, format: PlotFormat) -> Result<PathBuf, PlotError> {
    let err = |message: String| PlotError {
        path: path.to_path_buf(),
        message,
    };
    let bytes = match format {
        PlotFormat::Svg => svg.as_bytes().to_vec(),
        PlotFormat::Png => svg_to_png(svg, 2.0).map_err(err)?,
        PlotFormat::Pdf => svg_to_pdf(svg).map_err(err)?,
    };
    std::fs::write(path, bytes).map_err(|e| err(e.to_string()))?;
    Ok(path.to_path_buf())
}

/// One log-y line chart of named (x, y) series into `dir/file` (SVG), in the style of the
/// report's figures (e.g. `bench predict`'s). Non-positive y values are dropped.
pub fn log_line_chart(
    dir: &Path,
    file: &str,
    title: String,
    x_desc: &'static str,
    y_desc: &'static str,
    series: Vec<(String, Vec<(f64, f64)>)>,
) -> Result<PathBuf, PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| PlotError {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let path = dir.join(file);
    let fig = Figure {
        stem: "chart",
        title,
        caption: "",
        x: Axis {
            desc: x_desc,
            scale: Scale::Linear { integer: true },
            fixed: None,
        },
        y: Axis {
            desc: y_desc,
            scale: Scale::Log10,
            fixed: None,
        },
        markers: true,
        series: series
            .into_iter()
            .map(|(name, points)| Series {
                name,
                points: points
                    .into_iter()
                    .filter(|p| p.1 > 0.0 && p.1.is_finite())
                    .collect(),
                band: Vec::new(),
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
    };
    let svg = draw_svg(&fig, true).map_err(|message| PlotError {
        path: path.clone(),
        message,
    })?;
    write_one(&path, &svg, PlotFormat::Svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(pow10_label(4), "10⁴");
        assert_eq!(pow10_label(-3), "10⁻³");
        assert_eq!(pow10_label(0), "10⁰");
        assert_eq!(log10_label(2000.0), "2·10³");
        assert_eq!(log10_label(100.0), "10²");
        assert_eq!(bytes_label(1024.0), "1 KiB");
        assert_eq!(bytes_label(1.5 * 1024.0 * 1024.0), "1.5 MiB");
        assert_eq!(bytes_label(64.0 * 1024.0), "64 KiB");
        assert_eq!(bytes_label(512.0), "512 B");
    }

    #[test]
    fn quartiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        // Positions 0.75 and 2.25.
        assert_eq!(quantile(&v, 0.25), 1.75);
        assert_eq!(quantile(&v, 0.75), 3.25);
        assert_eq!(quantile(&[5.0], 0.75), 5.0);
    }

    #[test]
    fn memory_axis_fits_the_data() {
        // 130 MB of data: the axis ends below 256 MiB, not at 100 GB.
        let axis = Axis {
            desc: "",
            scale: Scale::Bytes,
            fixed: None,
        };
        let t = fit(&axis, [4096.0, 130e6].into_iter());
        assert!(
            2f64.powf(t.range.1) < 256.0 * 1024.0 * 1024.0,
            "{:?}",
            t.range
        );
        assert!(2f64.powf(t.range.0) > 2048.0, "{:?}", t.range);
        // Every labelled tick is a power of two (a round binary size).
        for b in &t.bold {
            assert!((b - b.round()).abs() < 1e-9, "{b}");
        }
    }
}
