//! `bench predict`: IDA* tree-size predictions (see `npuzzle::predict`) as a tidy CSV, a
//! relative-performance table on stdout and an SVG figure.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::flags::{BoardSize, HeuristicList, parse_heuristic_list};
use crate::board::Goal;
use crate::predict::{Method, Pruning, Request, Row, Scope, Summary, Target, TreeCounts, predict};

/// Arguments of `bench predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The board size [default: the instance file's].
    #[command(flatten)]
    pub size: BoardSize,
    /// Goal layout: blank-last or blank-first [default: blank-last, or the instance file's].
    #[arg(long)]
    pub goal: Option<Goal>,
    /// Heuristics, comma-separated, as in `bench run` (misplaced, manhattan, linear-conflict,
    /// walking-distance, pdb, pdb:6-6-3, pdb:1,2,3/4,5,6:noreflect, ...); the first is the
    /// reference of the relative table.
    #[arg(
        long,
        default_value = "manhattan",
        value_name = "LIST",
        value_parser = parse_heuristic_list
    )]
    pub heuristics: HeuristicList,
    /// Methods, comma-separated: kre (random start states, and per instance), cdp and ss (per
    /// instance of --instances).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "kre",
        value_name = "LIST"
    )]
    pub method: Vec<Method>,
    /// Trees, comma-separated: plain (IDA*: the move back pruned) and fsm (idastar-fsm:
    /// duplicate-path automaton).
    #[arg(long, value_delimiter = ',', default_value = "plain,fsm", value_name = "LIST", value_parser = parse_pruning)]
    pub pruning: Vec<Pruning>,
    /// Cost bounds A..B for random start states (and instances without an optimal column)
    /// [default: the mean Manhattan distance to 1.6 times it].
    #[arg(long, value_name = "A..B", value_parser = parse_bounds)]
    pub bounds: Option<(u32, u32)>,
    /// Instance file (any format `bench run` reads) for per-instance predictions; with an
    /// `optimal` column, also the total through the last iteration.
    #[arg(long, value_name = "FILE")]
    pub instances: Option<PathBuf>,
    /// Only the first K instances of --instances.
    #[arg(long, value_name = "K")]
    pub first: Option<usize>,
    /// Random positions sampled for a heuristic's distributions (split evenly over the blank
    /// cells; boards of at most 10 cells are counted exactly instead).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub samples: usize,
    /// Stratified-sampling probes per instance.
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub probes: usize,
    /// CDP: levels of the real tree walked before the conditional distributions take over.
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub cdp_exact_depth: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// The share of its last iteration IDA* is taken to search before its first solution, in
    /// the total over all instances with an `optimal` column (the `set` row): 0.5 if the
    /// first solution is as likely anywhere in the last iteration's depth-first order.
    #[arg(long, default_value_t = 0.5, value_name = "F")]
    pub last_fraction: f64,
    /// Validate: run IDA* (idastar, or idastar-fsm for the fsm tree) on every instance of
    /// --instances with this budget of generated nodes, and put its counts beside the
    /// predictions (CSV column measured_generated; median ratios on stdout).
    #[arg(long, value_name = "NODES")]
    pub measure: Option<u64>,
    /// Tidy CSV of every prediction (`-` for stdout, which then gets no table).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Exact heuristic distributions from `bench census --heuristic LIST --heuristic-out FILE`
    /// (same board and goal; every heuristic of --heuristics in it): they replace the sampled
    /// ones (KRE, and the start of CDP).
    #[arg(long, value_name = "FILE")]
    pub census_table: Option<PathBuf>,
    /// The brute-force tree by depth as CSV (nodes per depth from a uniformly random blank
    /// cell, plain and fsm).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Directory for the SVG figure of predicted nodes against the bound.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
}

fn parse_pruning(s: &str) -> Result<Pruning, String> {
    match s {
        "plain" => Ok(Pruning::Parent),
        "fsm" => Ok(Pruning::Automaton),
        other => Err(format!("unknown tree \"{other}\", expected plain or fsm")),
    }
}

fn parse_bounds(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| {
        t.trim().parse::<u32>().map_err(|_| {
            format!("expected a bound range A..B of non-negative integers, found \"{s}\"")
        })
    };
    match s.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(format!(
                    "bounds \"{s}\": the first must not exceed the second"
                ));
            }
            Ok((a, b))
        }
        None => num(s).map(|a| (a, a)),
    }
}

/// Reads `--census-table`.
fn read_census_table(
    path: &std::path::Path,
    rows: usize,
    cols: usize,
    goal: Goal,
) -> anyhow::Result<crate::predict::census_table::CensusDistributions> {
    Ok(crate::predict::census_table::read(path, rows, cols, goal)?)
}

/// Runs `bench predict`.
pub fn run(args: PredictArgs) -> anyhow::Result<i32> {
    let heuristics = args.heuristics.0.clone();
    let mut size = args.size.get()?;
    if let Some((r, c)) = size
        && (r < 2 || c < 2)
    {
        bail!("--size {r}x{c}: boards have at least 2 rows and 2 columns");
    }
    let mut goal = args.goal;
    let mut targets = Vec::new();
    if let Some(path) = &args.instances {
        let (set, _, extras) = crate::instances::read_detailed(path, args.goal)
            .with_context(|| format!("reading --instances {}", path.display()))?;
        set.check_solvable()
            .with_context(|| format!("--instances {}", path.display()))?;
        if let Some((r, c)) = size
            && (r, c) != (set.rows, set.cols)
        {
            bail!(
                "--size {r}x{c} but --instances {} holds {} x {} boards",
                path.display(),
                set.rows,
                set.cols
            );
        }
        size = Some((set.rows, set.cols));
        goal = Some(set.goal);
        let geometry = crate::geometry::Geometry::new(set.rows, set.cols, set.goal);
        let take = args.first.unwrap_or(usize::MAX);
        for (i, inst) in set.instances.iter().enumerate().take(take) {
            targets.push(Target {
                id: inst.id.clone(),
                tiles: geometry.compact_tiles(&inst.board),
                board: inst.board.clone(),
                optimal: extras.optimal.get(i).copied().flatten(),
            });
        }
    }
    let Some((rows, cols)) = size else {
        bail!("give the board size with --size RxC (or an instance file with --instances)");
    };
    if rows * cols > crate::geometry::MAX_EXACT_CELLS {
        bail!("--size {rows}x{cols}: predictions take boards of at most 64 cells");
    }
    let goal = goal.unwrap_or(Goal::BlankLast);
    if targets.is_empty() && args.method.iter().any(|m| *m != Method::Kre) {
        bail!("--method cdp and ss predict for given start states: add --instances FILE");
    }
    if targets.is_empty() && args.measure.is_some() {
        bail!("--measure runs IDA* on given start states: add --instances FILE");
    }
    let census = match &args.census_table {
        Some(path) => Some(read_census_table(path, rows, cols, goal)?),
        None => None,
    };
    let req = Request {
        census,
        rows,
        cols,
        goal,
        heuristics,
        methods: args.method.clone(),
        prunings: args.pruning.clone(),
        bounds: args.bounds,
        targets,
        samples_per_cell: args.samples.div_ceil(rows * cols).max(1),
        probes: args.probes.max(1),
        seed: args.seed,
        cdp_exact_depth: args.cdp_exact_depth,
        last_fraction: args.last_fraction,
        measure_nodes: args.measure,
    };
    let (predictions, summary) = predict(&req, |line| eprintln!("{line}"))?;
    for note in &summary.notes {
        eprintln!("note: {note}");
    }
    let to_stdout = args.out.as_deref() == Some(std::path::Path::new("-"));
    if let Some(out) = &args.out {
        write_csv(out, &req, &summary, &predictions)?;
    }
    if let Some(path) = &args.tree {
        write_tree(path, &req, &summary)?;
    }
    if let Some(dir) = &args.plots {
        let written = plot(dir, &req, &predictions)?;
        eprintln!("figure: {}", written.display());
    }
    if !to_stdout {
        print_tables(&req, &summary, &predictions);
    }
    Ok(0)
}

/// The CSV columns.
const COLUMNS: [&str; 17] = [
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

fn write_csv(
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
            req.rows.to_string(),
            req.cols.to_string(),
            req.goal.to_string(),
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

fn write_tree(path: &std::path::Path, req: &Request, summary: &Summary) -> anyhow::Result<()> {
    let geometry = crate::geometry::Geometry::new(req.rows, req.cols, req.goal);
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
                req.rows.to_string(),
                req.cols.to_string(),
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

fn plot(dir: &std::path::Path, req: &Request, rows: &[Row]) -> anyhow::Result<PathBuf> {
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
        req.rows, req.cols
    );
    let file = format!("predict_{}x{}.svg", req.rows, req.cols);
    let path = crate::report::plots::log_line_chart(
        dir,
        &file,
        title,
        "cost bound of the iteration",
        "nodes generated (log scale)",
        series.into_iter().map(|((_, n), p)| (n, p)).collect(),
    )?;
    Ok(path)
}

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

fn print_tables(req: &Request, summary: &Summary, rows: &[Row]) {
    let mut out = String::new();
    out.push_str(&format!("{} x {}, goal {}\n", req.rows, req.cols, req.goal));
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
    print!("{out}");
}

/// The median and quartiles of `v` (sorted in place); `None` if empty.
fn quartiles(v: &mut [f64]) -> Option<(f64, f64, f64)> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let x = q * (v.len() - 1) as f64;
        let (i, f) = (x.floor() as usize, x.fract());
        v[i] + f * (v[(i + 1).min(v.len() - 1)] - v[i])
    };
    Some((at(0.25), at(0.5), at(0.75)))
}

/// Predicted vs measured for one heuristic, tree and method.
fn validation_lines(v: &crate::predict::Validation) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_sizes() {
        assert_eq!(parse_bounds("40..60"), Ok((40, 60)));
        assert_eq!(parse_bounds("40..=60"), Ok((40, 60)));
        assert_eq!(parse_bounds("52"), Ok((52, 52)));
        assert!(parse_bounds("60..40").is_err());
    }
}
