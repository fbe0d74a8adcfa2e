//! `bench predict`'s output: the tidy CSV (its schema is [`COLUMNS`]), the tree-by-depth CSV,
//! the SVG figure and the text tables on stdout.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

use crate::infra::chart::quantile;

use super::{Method, Pruning, Request, Row, Scope, Summary, TreeCounts};

/// The columns of `--out`'s tidy CSV, one row per prediction.
pub const COLUMNS: [&str; 17] = [
    "rows",
    "cols",
    "goal",
    "heuristic",
    "tree",
    "method",
    "instance_id",
    "bound",
    "scope",
    "predicted_expanded",
    "predicted_generated",
    "generated_se",
    "distribution",
    "samples",
    "probes",
    "seed",
    "measured_generated",
];

/// Writes `--out`: every prediction as one row of [`COLUMNS`] (`-`: stdout).
pub fn write_csv(
    path: &std::path::Path,
    req: &Request,
    summary: &Summary,
    rows: &[Row],
) -> anyhow::Result<()> {
    let sink: Box<dyn Write> = if path == std::path::Path::new("-") {
        Box::new(std::io::stdout().lock())
    } else {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("creating --out {}", path.display()))?,
        )
    };
    let mut w = csv::Writer::from_writer(sink);
    w.write_record(COLUMNS)?;
    for r in rows {
        let profile = summary.profiles.iter().find(|p| p.0 == r.heuristic);
        let (distribution, samples) = match (r.method, profile) {
            (Method::Ss, _) | (_, None) => (String::new(), String::new()),
            (_, Some(p)) => (
                if p.1 { "exact" } else { "sampled" }.to_string(),
                format!("{}", p.2),
            ),
        };
        w.write_record([
            req.shape.rows.to_string(),
            req.shape.cols.to_string(),
            req.shape.goal.to_string(),
            r.heuristic.clone(),
            r.pruning.name().to_string(),
            r.method.name().to_string(),
            r.instance_id.clone().unwrap_or_default(),
            r.bound.to_string(),
            r.scope.name().to_string(),
            format!("{:.6e}", r.expanded),
            format!("{:.6e}", r.generated),
            r.generated_se
                .map(|s| format!("{s:.3e}"))
                .unwrap_or_default(),
            distribution,
            samples,
            if r.method == Method::Ss {
                req.probes.to_string()
            } else {
                String::new()
            },
            req.seed.to_string(),
            r.measured.map(|m| format!("{m:.0}")).unwrap_or_default(),
        ])?;
    }
    w.flush()
        .with_context(|| format!("writing --out {}", path.display()))?;
    Ok(())
}

/// Writes `--tree`: the brute-force tree by depth, per pruning.
pub fn write_tree(path: &std::path::Path, req: &Request, summary: &Summary) -> anyhow::Result<()> {
    let geometry = crate::geometry::Geometry::new(req.shape.rows, req.shape.cols, req.shape.goal);
    let depth = summary.bounds.1 as usize;
    let mut w = csv::Writer::from_path(path)
        .with_context(|| format!("creating --tree {}", path.display()))?;
    w.write_record([
        "rows",
        "cols",
        "tree",
        "depth",
        "nodes",
        "cumulative",
        "ratio",
        "asymptotic_branching_factor",
    ])?;
    for &(pruning, b) in &summary.branching {
        let tree = TreeCounts::uniform(&geometry, pruning, depth);
        let mut cum = 0.0;
        for d in 0..=depth {
            let n = tree.total(d);
            cum += n;
            let ratio = if d > 0 {
                format!("{:.6}", n / tree.total(d - 1))
            } else {
                String::new()
            };
            w.write_record([
                req.shape.rows.to_string(),
                req.shape.cols.to_string(),
                pruning.name().to_string(),
                d.to_string(),
                format!("{n:.6e}"),
                format!("{cum:.6e}"),
                ratio,
                format!("{b:.6}"),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}

/// A series' label: heuristic, and the tree when both are predicted.
fn label(req: &Request, r: &Row) -> String {
    if req.prunings.len() > 1 {
        format!("{} {}", r.heuristic, r.pruning.name())
    } else {
        r.heuristic.clone()
    }
}

/// Draws the SVG of KRE's predicted nodes per bound into `dir`; returns its path.
pub fn plot(dir: &std::path::Path, req: &Request, rows: &[Row]) -> anyhow::Result<PathBuf> {
    let mut series: BTreeMap<(usize, String), Vec<(f64, f64)>> = BTreeMap::new();
    let order = |r: &Row| {
        req.heuristics
            .iter()
            .position(|h| h.name() == r.heuristic)
            .unwrap_or(0)
    };
    let per_instance = rows
        .iter()
        .all(|r| r.method != Method::Kre || r.instance_id.is_some());
    for r in rows {
        if r.scope != Scope::Iteration {
            continue;
        }
        if per_instance {
            // Mean over instances per bound, per method.
            continue;
        }
        if r.method == Method::Kre && r.instance_id.is_none() {
            series
                .entry((order(r), label(req, r)))
                .or_default()
                .push((f64::from(r.bound), r.generated));
        }
    }
    let title = format!(
        "Predicted IDA* nodes generated per iteration, {} x {} (KRE, random start states)",
        req.shape.rows, req.shape.cols
    );
    let file = format!("predict_{}x{}.svg", req.shape.rows, req.shape.cols);
    let path = crate::infra::chart::log_line_chart(
        dir,
        &file,
        title,
        "cost bound of the iteration",
        "nodes generated (log scale)",
        series.into_iter().map(|((_, n), p)| (n, p)).collect(),
    )?;
    Ok(path)
}

/// A count: whole below a million, else three significant digits.
fn sci(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.3e}")
    }
}

/// A ratio to the reference column: three decimals, or three significant digits when small.
fn ratio(x: f64) -> String {
    if (0.01..1e4).contains(&x) {
        format!("{x:.3}x")
    } else {
        format!("{x:.2e}x")
    }
}

/// The tables on stdout: branching factors, profiles, KRE per bound relative to the first
/// column, per-instance and set totals, predicted against measured.
pub fn tables(req: &Request, summary: &Summary, rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} x {}, goal {}\n",
        req.shape.rows, req.shape.cols, req.shape.goal
    ));
    for (p, b) in &summary.branching {
        out.push_str(&format!(
            "  {} tree: asymptotic branching factor {b:.5}\n",
            p.name()
        ));
    }
    for (name, exact, n, mean) in &summary.profiles {
        out.push_str(&format!(
            "  {name}: mean h {mean:.3} ({} over {n} positions)\n",
            if *exact { "exact" } else { "sampled" }
        ));
    }
    // Random start states: KRE per bound, generated, relative to the first column.
    let cols: Vec<(String, Pruning)> = {
        let mut v: Vec<(String, Pruning)> = Vec::new();
        for h in &req.heuristics {
            for &p in &req.prunings {
                v.push((h.name(), p));
            }
        }
        v
    };
    let kre: Vec<&Row> = rows
        .iter()
        .filter(|r| r.method == Method::Kre && r.instance_id.is_none())
        .collect();
    if !kre.is_empty() {
        out.push_str("\nKRE, random start states: nodes generated in the iteration with each bound (x: relative to the first column)\n");
        out.push_str(&format!("{:>6}", "bound"));
        for (h, p) in &cols {
            out.push_str(&format!(" {:>24}", format!("{h} {}", p.name())));
        }
        out.push('\n');
        let bounds: Vec<u32> = (summary.bounds.0..=summary.bounds.1).collect();
        for b in bounds {
            out.push_str(&format!("{b:>6}"));
            let get = |h: &str, p: Pruning| {
                kre.iter()
                    .find(|r| r.heuristic == h && r.pruning == p && r.bound == b)
                    .map(|r| r.generated)
            };
            let base = get(&cols[0].0, cols[0].1);
            for (i, (h, p)) in cols.iter().enumerate() {
                let cell = match (get(h, *p), base) {
                    (Some(v), Some(b0)) if i > 0 => format!("{} ({})", sci(v), ratio(v / b0)),
                    (Some(v), _) => sci(v),
                    _ => "-".into(),
                };
                out.push_str(&format!(" {cell:>24}"));
            }
            out.push('\n');
        }
    }
    // Instances: the totals through the optimal bound, summed over instances.
    let totals: Vec<&Row> = rows.iter().filter(|r| r.scope == Scope::Total).collect();
    if !totals.is_empty() {
        out.push_str("\nInstances: predicted nodes generated through the last iteration, summed over instances\n");
        let mut sums: BTreeMap<(usize, usize, String), (f64, usize)> = BTreeMap::new();
        for r in &totals {
            let i = cols
                .iter()
                .position(|(h, p)| *h == r.heuristic && *p == r.pruning)
                .unwrap_or(0);
            let m = [Method::Kre, Method::Cdp, Method::Ss]
                .iter()
                .position(|m| *m == r.method)
                .unwrap_or(0);
            let e = sums.entry((m, i, r.method.name().to_string())).or_default();
            e.0 += r.generated;
            e.1 += 1;
        }
        for ((_, i, method), (sum, n)) in &sums {
            let (h, p) = &cols[*i];
            out.push_str(&format!(
                "  {method:<4} {h:<28} {:<6} {n:>4} instances {:>14}\n",
                p.name(),
                sci(*sum)
            ));
        }
    }
    // The set totals: comparable with a published run total.
    let sets: Vec<&Row> = rows.iter().filter(|r| r.scope == Scope::Set).collect();
    if !sets.is_empty() {
        let n = totals.len() / sets.len().max(1);
        out.push_str(&format!(
            "\nSet total: nodes generated by IDA* over the {n} instances with an optimal length, \
             iterations before the last whole, the last x {} (--last-fraction)\n",
            req.last_fraction
        ));
        for r in sets {
            let se = r
                .generated_se
                .map(|s| format!(" (se {})", sci(s)))
                .unwrap_or_default();
            let measured = r
                .measured
                .map(|m| format!(", measured {} (ratio {:.3})", sci(m), r.generated / m))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {:<4} {:<28} {:<6} {:>14}{se}{measured}\n",
                r.method.name(),
                r.heuristic,
                r.pruning.name(),
                sci(r.generated)
            ));
        }
    }
    for v in &summary.validation {
        out.push_str(&validation_lines(v));
    }
    out
}

/// The median and quartiles of `v` (sorted in place; [`quantile`]'s interpolation, as in
/// `bench report`); `None` if empty.
fn quartiles(v: &mut [f64]) -> Option<(f64, f64, f64)> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some((quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75)))
}

/// Predicted vs measured for one heuristic, tree and method.
fn validation_lines(v: &super::Validation) -> String {
    let mut out = format!(
        "\nMeasured ({} {} {}): IDA* on {} instances, {} solved within --measure\n",
        v.heuristic,
        v.pruning.name(),
        v.method,
        v.instances.0,
        v.instances.1
    );
    let mut ratios = v.ratios.clone();
    match quartiles(&mut ratios) {
        Some((q1, m, q3)) => out.push_str(&format!(
            "  predicted / measured nodes generated over complete iterations: median {m:.3} \
             (quartiles {q1:.3} .. {q3:.3}), {} instances\n",
            ratios.len()
        )),
        None => out.push_str("  no instance completed an iteration within --measure\n"),
    }
    let mut shares: Vec<f64> = v.last.iter().map(|(m, p)| m / p).collect();
    if let Some((q1, m, q3)) = quartiles(&mut shares) {
        let weighted =
            v.last.iter().map(|x| x.0).sum::<f64>() / v.last.iter().map(|x| x.1).sum::<f64>();
        out.push_str(&format!(
            "  last iteration searched before the first solution, / its prediction: median {m:.3} \
             (quartiles {q1:.3} .. {q3:.3}), node-weighted {weighted:.3}, {} solved instances\n",
            shares.len()
        ));
    }
    out
}
