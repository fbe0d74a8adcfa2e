//! `bench predict`: how many nodes IDA* will need, without running it.
//!
//! Three methods from the literature, each in its own module:
//! - [`kre`]: Korf, Reid & Edelkamp's formula for random start states, from the brute-force
//!   tree ([`tree`]) and the heuristic's distribution per blank cell ([`profile`]);
//! - [`cdp`]: Zahavi et al.'s conditional distributions, for one start state;
//! - [`ss`]: Lelis, Zilles & Holte's stratified sampling of the real tree, for one start
//!   state (usually the most accurate per instance).
//!
//! [`predict`] runs the methods asked for over heuristics x prunings and returns tidy rows;
//! the CLI (`src/cli/predict.rs`) writes them as CSV, a table and a figure.
//!
//! Counting conventions follow IDA*'s own (`search::idastar`): an iteration with bound `d`
//! expands the nodes with `g + h <= d` whose ancestors all were (the goal is not expanded),
//! and generates their children; the prediction for one iteration counts its root too, the
//! total through an iteration counts the root once, as IDA*'s run total does.

pub mod cdp;
pub mod census_table;
pub mod kre;
pub mod measure;
pub mod options;
pub mod output;
pub mod pdb_table;
pub mod profile;
pub mod ss;
pub mod tree;

use std::collections::HashMap;

use rayon::prelude::*;
use std::fmt;

use thiserror::Error;

use crate::board::{Board, Shape};
use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};
use crate::heuristic::{Built, HeuristicError, HeuristicKind, build};
pub use profile::Profile;
pub use tree::{MoveShares, Pruning, TreeCounts, branching_factor};

/// A prediction method (`--method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Method {
    /// Korf, Reid & Edelkamp's formula.
    Kre,
    /// Conditional distribution prediction.
    Cdp,
    /// Stratified sampling.
    Ss,
}

impl Method {
    /// The name in outputs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Kre => "kre",
            Method::Cdp => "cdp",
            Method::Ss => "ss",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One start state to predict for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The instance's id.
    pub id: String,
    /// The position.
    pub tiles: Tiles,
    /// The same position as a board (what IDA* runs on with [`Request::measure_nodes`]).
    pub board: Board,
    /// Its optimal solution length, if known: the bound of IDA*'s last iteration.
    pub optimal: Option<u32>,
}

/// What to predict.
#[derive(Debug, Clone)]
pub struct Request {
    /// The board size and goal layout.
    pub shape: Shape,
    /// The heuristics; the first is the reference of the relative table.
    pub heuristics: Vec<HeuristicKind>,
    /// The methods.
    pub methods: Vec<Method>,
    /// The trees: plain IDA* and/or `idastar-fsm`.
    pub prunings: Vec<Pruning>,
    /// The bounds for random start states (and for instances without a known optimal length);
    /// `None`: from the mean Manhattan distance (see [`default_bounds`]).
    pub bounds: Option<(u32, u32)>,
    /// Start states for the per-instance methods.
    pub targets: Vec<Target>,
    /// Random positions per blank cell for sampled distributions.
    pub samples_per_cell: usize,
    /// Stratified-sampling probes per instance.
    pub probes: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// CDP: levels of the real tree walked before the prediction takes over.
    pub cdp_exact_depth: u32,
    /// The share of its last iteration IDA* is assumed to search before it meets the first
    /// solution, in the [`Scope::Set`] total (published run totals stop there).
    pub last_fraction: f64,
    /// Run IDA* on every instance with this node budget and put its counts beside the
    /// predictions ([`Row::measured`], [`Summary::validation`]).
    pub measure_nodes: Option<u64>,
    /// Exact distributions from a census table ([`census_table::read`]); they replace the
    /// sampled or enumerated per-cell distributions of every heuristic (each must be there).
    pub census: Option<census_table::CensusDistributions>,
}

/// Whether a row is one iteration or the total through it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The iteration with that bound alone.
    Iteration,
    /// Every iteration from the start's estimate through that bound (root counted once).
    Total,
    /// Summed over every instance with a known optimal length: its iterations before the
    /// last, plus [`Request::last_fraction`] of the last one (IDA* stops at the first
    /// solution); `bound` is the largest optimal length. Comparable with a published run
    /// total such as Korf's 36,302,808,031 for his 100 instances.
    Set,
}

impl Scope {
    /// `iteration` or `total`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Iteration => "iteration",
            Scope::Total => "total",
            Scope::Set => "set",
        }
    }
}

/// One prediction.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The heuristic's name.
    pub heuristic: String,
    /// The tree.
    pub pruning: Pruning,
    /// The method.
    pub method: Method,
    /// The instance, `None` for random start states.
    pub instance_id: Option<String>,
    /// The cost bound.
    pub bound: u32,
    /// One iteration or the total through it.
    pub scope: Scope,
    /// Nodes expanded.
    pub expanded: f64,
    /// Nodes generated.
    pub generated: f64,
    /// Standard error of `generated` (sampling of the distribution or probes), if known.
    pub generated_se: Option<f64>,
    /// With [`Request::measure_nodes`]: IDA*'s nodes generated in that iteration if it ran
    /// to its end; for a `total` row the run's total, for a `set` row the sum of the run
    /// totals, if every run was solved.
    pub measured: Option<f64>,
}

/// Predicted against measured, per heuristic, tree and method ([`Request::measure_nodes`]).
#[derive(Debug, Clone)]
pub struct Validation {
    /// The heuristic's name.
    pub heuristic: String,
    /// The tree.
    pub pruning: Pruning,
    /// The method.
    pub method: Method,
    /// Per instance with at least one complete iteration: predicted / measured nodes
    /// generated, each summed over the instance's complete iterations.
    pub ratios: Vec<f64>,
    /// Per solved instance: (nodes IDA* generated in its last iteration before the first
    /// solution, the predicted nodes of that whole iteration).
    pub last: Vec<(f64, f64)>,
    /// Instances measured and how many IDA* solved within the budget.
    pub instances: (usize, usize),
}

/// Facts about the heuristics and trees beside the rows.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Per heuristic: name, whether its distribution is exact, positions profiled, mean estimate.
    pub profiles: Vec<(String, bool, f64, f64)>,
    /// Per pruning, the asymptotic branching factor.
    pub branching: Vec<(Pruning, f64)>,
    /// The bounds used for random start states.
    pub bounds: (u32, u32),
    /// What was not predicted and why.
    pub notes: Vec<String>,
    /// Predicted against measured ([`Request::measure_nodes`]).
    pub validation: Vec<Validation>,
}

/// The deepest cost bound predicted: the brute-force tree of the widest board (branching
/// factor below 2.2) stays below `f64::MAX` (about 1.8e308) to this depth (2.2^800 is about
/// 1e274).
pub const MAX_BOUND: u32 = 800;

/// Why a prediction cannot be made.
#[derive(Debug, Error)]
pub enum PredictError {
    /// The board is too large for the exact searches' position.
    #[error("{rows} x {cols}: predictions take boards of at most {MAX_EXACT_CELLS} cells")]
    TooLarge {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// A heuristic cannot be built.
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    /// Empty bound range.
    #[error("--bounds {0}..{1}: the first bound must not exceed the second")]
    Bounds(u32, u32),
    /// A bound so deep that node counts pass the largest finite number (`inf`).
    #[error(
        "--bounds ..{0}: at most {MAX_BOUND} (deeper trees have more nodes than a 64-bit float \
         holds, so the prediction would be inf)"
    )]
    BoundTooDeep(u32),
    /// No probes: stratified sampling would have nothing to average.
    #[error("--probes 0: stratified sampling needs at least one probe per instance")]
    NoProbes,
    /// A last-iteration share outside [0, 1].
    #[error("--last-fraction {0}: expected a share of the last iteration between 0 and 1")]
    LastFraction(f64),
    /// A heuristic the census table does not hold.
    #[error(
        "--census-table has no distribution of {heuristic} (it holds: {have}); run bench census --heuristic with it"
    )]
    CensusMissing {
        /// The heuristic.
        heuristic: String,
        /// The heuristics the table holds.
        have: String,
    },
    /// IDA* could not run on an instance.
    #[error("instance {id}: {error}")]
    Measure {
        /// The instance.
        id: String,
        /// Why.
        error: crate::search::SolveError,
    },
}

/// The default bounds for random start states: from the mean Manhattan distance to 1.6 times
/// it. Optimal lengths of random boards lie around 1.3-1.6 times the mean Manhattan distance
/// (3 x 3: 22.0 / 14.0; 4 x 4: 52.6 / 37.3; 5 x 5 (Korf's 50): 100.8 / 76.7), so this covers
/// them with room on both sides.
pub fn default_bounds(geometry: &Geometry) -> (u32, u32) {
    // E|x - y| for x uniform on 0..n and y fixed, averaged over y: (n^2 - 1) / (3 n).
    let axis = |n: usize| (n * n - 1) as f64 / (3.0 * n as f64);
    let md = (geometry.cells - 1) as f64 * (axis(geometry.rows) + axis(geometry.cols));
    (md.floor() as u32, (1.6 * md).ceil() as u32)
}

/// Runs the request; `progress` hears a line per finished step.
pub fn predict(
    req: &Request,
    mut progress: impl FnMut(&str),
) -> Result<(Vec<Row>, Summary), PredictError> {
    let mut ctx = Context::new(req)?;
    let mut summary = Summary {
        profiles: Vec::new(),
        branching: Vec::new(),
        bounds: ctx.bounds,
        notes: Vec::new(),
        validation: Vec::new(),
    };
    ctx.count_trees(&mut summary, &mut progress);
    let mut rows = Vec::new();
    for kind in &req.heuristics {
        let h = profile_heuristic(&ctx, kind, &mut summary, &mut progress)?;
        for &pruning in &req.prunings {
            let measured = measure_targets(req, kind, &h.name, pruning, &mut progress)?;
            for &method in &req.methods {
                let (method_rows, validation) = ctx.method_rows(&h, pruning, method, &measured);
                rows.extend(method_rows);
                if req.measure_nodes.is_some() && !req.targets.is_empty() {
                    summary.validation.push(validation);
                }
                if !req.targets.is_empty() {
                    progress(&format!(
                        "{} {} {method}: {} instances",
                        h.name,
                        pruning.name(),
                        req.targets.len()
                    ));
                }
            }
        }
    }
    Ok((rows, summary))
}

/// One iteration's estimate: (bound, expanded, generated, standard error of generated).
type Estimate = (u32, f64, f64, Option<f64>);

/// What every prediction of one request shares: the board, the bounds, and the trees and move
/// statistics, each computed once and reused across heuristics and instances.
struct Context<'a> {
    req: &'a Request,
    geometry: Geometry,
    bounds: (u32, u32),
    /// The largest known optimal length of the targets: the bound of the set total.
    max_optimal: u32,
    /// How deep every tree is counted.
    depth: usize,
    /// Brute-force trees per pruning: from random start cells (`None`) or from one blank cell.
    trees: HashMap<(Pruning, Option<usize>), TreeCounts>,
    /// CDP's move statistics per pruning and blank cell.
    shares: HashMap<(Pruning, usize), MoveShares>,
}

impl<'a> Context<'a> {
    /// Checks the request (size, bounds, last fraction) and fixes the bounds and depth.
    fn new(req: &'a Request) -> Result<Context<'a>, PredictError> {
        if req.shape.rows * req.shape.cols > MAX_EXACT_CELLS {
            return Err(PredictError::TooLarge {
                rows: req.shape.rows,
                cols: req.shape.cols,
            });
        }
        let geometry = Geometry::new(req.shape.rows, req.shape.cols, req.shape.goal);
        let bounds = req.bounds.unwrap_or_else(|| default_bounds(&geometry));
        if bounds.0 > bounds.1 {
            return Err(PredictError::Bounds(bounds.0, bounds.1));
        }
        if bounds.1 > MAX_BOUND {
            return Err(PredictError::BoundTooDeep(bounds.1));
        }
        if req.probes == 0 {
            return Err(PredictError::NoProbes);
        }
        if !(0.0..=1.0).contains(&req.last_fraction) {
            return Err(PredictError::LastFraction(req.last_fraction));
        }
        let max_optimal = req
            .targets
            .iter()
            .filter_map(|t| t.optimal)
            .max()
            .unwrap_or(0);
        Ok(Context {
            req,
            geometry,
            bounds,
            max_optimal,
            depth: bounds.1.max(max_optimal) as usize + 1,
            trees: HashMap::new(),
            shares: HashMap::new(),
        })
    }

    /// The brute-force tree of each pruning from random start cells, and its asymptotic
    /// branching factor (in the summary).
    fn count_trees(&mut self, summary: &mut Summary, progress: &mut impl FnMut(&str)) {
        for &pruning in &self.req.prunings {
            let b = branching_factor(&self.geometry, pruning, 2000);
            progress(&format!(
                "{} tree: asymptotic branching factor {b:.5}",
                pruning.name()
            ));
            summary.branching.push((pruning, b));
            self.trees.insert(
                (pruning, None),
                TreeCounts::uniform(&self.geometry, pruning, self.depth),
            );
        }
    }

    /// The rows of one heuristic, tree and method: KRE's for random start states, then each
    /// target's iterations and total, then the set total; and how the predictions compare
    /// with IDA*'s `measured` counts.
    fn method_rows(
        &mut self,
        h: &Profiled,
        pruning: Pruning,
        method: Method,
        measured: &[Option<measure::Measured>],
    ) -> (Vec<Row>, Validation) {
        let req = self.req;
        let mut rows = Vec::new();
        if method == Method::Kre {
            let p = h.profile.as_ref().expect("profiled for KRE");
            let random_bounds: Vec<u32> = (self.bounds.0..=self.bounds.1).collect();
            for e in kre::kre(&self.trees[&(pruning, None)], p, &random_bounds) {
                rows.push(Row {
                    heuristic: h.name.clone(),
                    pruning,
                    method,
                    instance_id: None,
                    bound: e.bound,
                    scope: Scope::Iteration,
                    expanded: e.expanded,
                    generated: e.generated,
                    generated_se: Some(e.generated_se),
                    measured: None,
                });
            }
        }
        // The set total: (instances, expanded, generated, variance of generated).
        let mut set = (0usize, 0.0, 0.0, Some(0.0));
        let mut set_measured = Some(0.0);
        let mut validation = Validation {
            heuristic: h.name.clone(),
            pruning,
            method,
            ratios: Vec::new(),
            last: Vec::new(),
            instances: (0, 0),
        };
        for (t, run) in req.targets.iter().zip(measured) {
            let estimates = self.estimates(h, pruning, method, t);
            let row = |bound, scope, expanded, generated, se, measured| Row {
                heuristic: h.name.clone(),
                pruning,
                method,
                instance_id: Some(t.id.clone()),
                bound,
                scope,
                expanded,
                generated,
                generated_se: se,
                measured,
            };
            for &(b, e, g, se) in &estimates {
                let m = run.as_ref().and_then(|r| r.complete(b));
                rows.push(row(b, Scope::Iteration, e, g, se, m));
            }
            if let Some(run) = run {
                validate(&mut validation, run, &estimates);
            }
            if let Some(opt) = t.optimal {
                let (expanded, generated, se) = instance_total(&estimates);
                let m = run.as_ref().and_then(measure::Measured::total);
                set_measured = set_measured.zip(m).map(|(a, b)| a + b);
                rows.push(row(opt, Scope::Total, expanded, generated, se, m));
                let (e, g, v) = last_iteration_share(&estimates, opt, req.last_fraction);
                set.0 += 1;
                set.1 += e;
                set.2 += g;
                set.3 = set.3.zip(v).map(|(a, b)| a + b);
            }
        }
        if set.0 > 0 {
            rows.push(Row {
                heuristic: h.name.clone(),
                pruning,
                method,
                instance_id: None,
                bound: self.max_optimal,
                scope: Scope::Set,
                expanded: set.1,
                generated: set.2,
                generated_se: set.3.map(f64::sqrt),
                measured: set_measured.filter(|_| req.measure_nodes.is_some()),
            });
        }
        (rows, validation)
    }

    /// One method's estimates for the iterations of target `t`: from its heuristic estimate to
    /// its optimal length (or the last of the bounds).
    fn estimates(
        &mut self,
        h: &Profiled,
        pruning: Pruning,
        method: Method,
        t: &Target,
    ) -> Vec<Estimate> {
        let geometry = &self.geometry;
        let h0 = h.built.estimate(geometry, &t.tiles);
        let last = t.optimal.unwrap_or(self.bounds.1);
        let its = h.iteration_bounds(h0, last);
        let depth = self.depth;
        let cell = geometry.blank_of(&t.tiles);
        match method {
            Method::Kre => {
                let tree = self
                    .trees
                    .entry((pruning, Some(cell)))
                    .or_insert_with(|| TreeCounts::from_cell(geometry, pruning, cell, depth));
                kre::kre(tree, h.profile.as_ref().expect("profiled"), &its)
                    .into_iter()
                    .map(|e| (e.bound, e.expanded, e.generated, Some(e.generated_se)))
                    .collect()
            }
            Method::Cdp => cdp::cdp(
                geometry,
                &h.built,
                h.profile.as_ref().expect("profiled"),
                &t.tiles,
                self.shares
                    .entry((pruning, cell))
                    .or_insert_with(|| MoveShares::new(geometry, pruning, cell, depth)),
                &its,
                self.req.cdp_exact_depth,
            )
            .into_iter()
            .map(|e| (e.bound, e.expanded, e.generated, None))
            .collect(),
            Method::Ss => {
                let seed = self.req.seed ^ hash_id(&t.id);
                let all = ss::stratified_sampling(
                    geometry,
                    &h.built,
                    &t.tiles,
                    pruning,
                    last,
                    self.req.probes,
                    seed,
                );
                all.into_iter()
                    .filter(|e| its.contains(&e.bound))
                    .map(|e| (e.bound, e.expanded, e.generated, Some(e.generated_se)))
                    .collect()
            }
        }
    }
}

/// One heuristic, built, with its distribution of estimates (for KRE and CDP).
struct Profiled {
    name: String,
    built: Built,
    profile: Option<Profile>,
}

impl Profiled {
    /// The iteration bounds of an instance: from its estimate to `last`, every second one when
    /// every move changes h by an odd amount.
    fn iteration_bounds(&self, h0: u32, last: u32) -> Vec<u32> {
        let odd = self.profile.as_ref().is_none_or(|p| p.odd_steps);
        (h0..=last.max(h0))
            .step_by(if odd { 2 } else { 1 })
            .collect()
    }
}

/// Builds a heuristic and, when KRE or CDP is asked for, its distribution: sampled, or exact
/// from its pattern database or from the census table (which must hold it).
fn profile_heuristic(
    ctx: &Context,
    kind: &HeuristicKind,
    summary: &mut Summary,
    progress: &mut impl FnMut(&str),
) -> Result<Profiled, PredictError> {
    let (req, geometry) = (ctx.req, &ctx.geometry);
    let name = kind.name();
    let built = build(kind, geometry)?;
    let needs_profile = req
        .methods
        .iter()
        .any(|m| matches!(m, Method::Kre | Method::Cdp));
    let mut profile =
        needs_profile.then(|| Profile::new(geometry, &built, req.samples_per_cell, req.seed));
    if let (Some(p), None) = (profile.as_mut(), &req.census)
        && !p.exact
    {
        let start = std::time::Instant::now();
        if let Some(hist) = pdb_table::exact_hist(geometry, &built) {
            p.use_exact(hist);
            summary.notes.push(format!(
                "{name}: distribution exact from its pattern database ({:.1} s to scan it); \
                 CDP's move statistics sampled",
                start.elapsed().as_secs_f64()
            ));
        }
    }
    if let (Some(p), Some(census)) = (profile.as_mut(), &req.census) {
        let hist = census
            .get(&name)
            .ok_or_else(|| PredictError::CensusMissing {
                heuristic: name.clone(),
                have: census.keys().cloned().collect::<Vec<_>>().join(", "),
            })?;
        p.use_exact(hist.clone());
    }
    if let Some(p) = &profile {
        let n: f64 = p.states.iter().sum();
        summary.profiles.push((name.clone(), p.exact, n, p.mean()));
        progress(&format!(
            "{name}: distribution {} over {n} positions, mean {:.3}",
            if p.exact { "exact" } else { "sampled" },
            p.mean()
        ));
    }
    Ok(Profiled {
        name,
        built,
        profile,
    })
}

/// With [`Request::measure_nodes`], IDA*'s counts on every target (in parallel); else none.
fn measure_targets(
    req: &Request,
    kind: &HeuristicKind,
    name: &str,
    pruning: Pruning,
    progress: &mut impl FnMut(&str),
) -> Result<Vec<Option<measure::Measured>>, PredictError> {
    let Some(budget) = req.measure_nodes else {
        return Ok(vec![None; req.targets.len()]);
    };
    let runs = req
        .targets
        .par_iter()
        .map(|t| {
            measure::measure(&t.board, req.shape.goal, kind, pruning, budget)
                .map(Some)
                .map_err(|error| PredictError::Measure {
                    id: t.id.clone(),
                    error,
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    progress(&format!(
        "{name} {}: IDA* measured on {} instances, {} solved within {budget} nodes",
        pruning.name(),
        runs.len(),
        runs.iter().flatten().filter(|m| m.solved).count()
    ));
    Ok(runs)
}

/// Adds one measured instance to the comparison: predicted over measured nodes across its
/// complete iterations, and its last (partly searched) iteration beside the prediction.
fn validate(validation: &mut Validation, run: &measure::Measured, estimates: &[Estimate]) {
    validation.instances.0 += 1;
    let (mut p, mut m) = (0.0, 0.0);
    for &(b, _, g, _) in estimates {
        if let Some(x) = run.complete(b) {
            p += g;
            m += x;
        }
    }
    if m > 0.0 {
        validation.ratios.push(p / m);
    }
    if let Some((b, partial)) = run.last() {
        validation.instances.1 += 1;
        if let Some(e) = estimates.iter().find(|e| e.0 == b) {
            validation.last.push((partial, e.2));
        }
    }
}

/// An instance's total through its optimal bound: (expanded, generated with the root counted
/// once, standard error if every estimate has one).
fn instance_total(estimates: &[Estimate]) -> (f64, f64, Option<f64>) {
    let expanded: f64 = estimates.iter().map(|e| e.1).sum();
    let generated = 1.0 + estimates.iter().map(|e| e.2 - 1.0).sum::<f64>();
    let se = estimates
        .iter()
        .map(|e| e.3.map(|s| s * s))
        .sum::<Option<f64>>()
        .map(f64::sqrt);
    (expanded, generated, se)
}

/// One instance's share of a [`Scope::Set`] total: every iteration before the one with bound
/// `opt` whole, that one times `fraction`; the root counted once. Returns (expanded,
/// generated, variance of generated if every estimate has a standard error).
fn last_iteration_share(
    estimates: &[(u32, f64, f64, Option<f64>)],
    opt: u32,
    fraction: f64,
) -> (f64, f64, Option<f64>) {
    let (mut e, mut g, mut v) = (0.0, 1.0, Some(0.0));
    for &(b, exp, gen_, se) in estimates {
        let w = if b == opt { fraction } else { 1.0 };
        e += w * exp;
        g += w * (gen_ - 1.0);
        v = v.zip(se).map(|(acc, s)| acc + (w * s) * (w * s));
    }
    (e, g, v)
}

/// A stable per-instance seed offset (FNV-1a of the id).
fn hash_id(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_share_counts_the_last_iteration_partly_and_the_root_once() {
        // Iterations 10 and 12 (each with its root), optimal 12, half the last one.
        let est = [(10, 5.0, 11.0, Some(1.0)), (12, 20.0, 41.0, Some(2.0))];
        let (e, g, v) = last_iteration_share(&est, 12, 0.5);
        assert_eq!(e, 5.0 + 10.0);
        assert_eq!(g, 1.0 + 10.0 + 20.0);
        assert_eq!(v, Some(1.0 + 1.0));
        let (_, g1, _) = last_iteration_share(&est, 12, 1.0);
        assert_eq!(g1, 1.0 + 10.0 + 40.0);
        let (_, _, none) = last_iteration_share(&[(10, 5.0, 11.0, None)], 10, 0.5);
        assert_eq!(none, None);
    }
}
