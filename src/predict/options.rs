//! `bench predict`'s options and how they become a [`Request`]: the instance file read and
//! checked, the board size and goal agreed between `--size`, `--goal` and the file, the
//! census table read, and the combinations that cannot work refused.

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::{Method, Pruning, Request, Target};
use crate::board::{Goal, Shape};
use crate::heuristic::HeuristicKind;

/// What the user asked `bench predict` for, before any file is read.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--size` (else the instance file's).
    pub size: Option<(usize, usize)>,
    /// `--goal` (else the instance file's, else blank-last).
    pub goal: Option<Goal>,
    /// `--heuristics`; the first is the reference of the relative table.
    pub heuristics: Vec<HeuristicKind>,
    /// `--method`.
    pub methods: Vec<Method>,
    /// `--pruning`.
    pub prunings: Vec<Pruning>,
    /// `--bounds A..B`.
    pub bounds: Option<(u32, u32)>,
    /// `--instances FILE`.
    pub instances: Option<PathBuf>,
    /// `--first K`.
    pub first: Option<usize>,
    /// `--samples N`, over all blank cells.
    pub samples: usize,
    /// `--probes N`.
    pub probes: usize,
    /// `--cdp-exact-depth N`.
    pub cdp_exact_depth: u32,
    /// `--seed`.
    pub seed: u64,
    /// `--last-fraction F`.
    pub last_fraction: f64,
    /// `--measure NODES`.
    pub measure: Option<u64>,
    /// `--census-table FILE`.
    pub census_table: Option<PathBuf>,
}

/// Parses `--bounds`: `A..B`, `A..=B` or one bound `A`.
pub fn parse_bounds(s: &str) -> Result<(u32, u32), String> {
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

impl Options {
    /// The request: reads `--instances` and `--census-table`, and checks that the options fit
    /// together.
    pub fn request(&self) -> anyhow::Result<Request> {
        let mut size = self.size;
        if let Some((r, c)) = size
            && (r < 2 || c < 2)
        {
            bail!("--size {r}x{c}: boards have at least 2 rows and 2 columns");
        }
        let mut goal = self.goal;
        let mut targets = Vec::new();
        if let Some(path) = &self.instances {
            let (set, _, extras) = crate::instances::read_detailed(path, self.goal)
                .with_context(|| format!("reading --instances {}", path.display()))?;
            set.check_solvable()
                .with_context(|| format!("--instances {}", path.display()))?;
            if let Some((r, c)) = size
                && (r, c) != (set.shape.rows, set.shape.cols)
            {
                bail!(
                    "--size {r}x{c} but --instances {} holds {} x {} boards",
                    path.display(),
                    set.shape.rows,
                    set.shape.cols
                );
            }
            size = Some((set.shape.rows, set.shape.cols));
            goal = Some(set.shape.goal);
            let geometry =
                crate::geometry::Geometry::new(set.shape.rows, set.shape.cols, set.shape.goal);
            let take = self.first.unwrap_or(usize::MAX);
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
        if targets.is_empty() && self.methods.iter().any(|m| *m != Method::Kre) {
            bail!("--method cdp and ss predict for given start states: add --instances FILE");
        }
        if targets.is_empty() && self.measure.is_some() {
            bail!("--measure runs IDA* on given start states: add --instances FILE");
        }
        let census = match &self.census_table {
            Some(path) => Some(super::census_table::read(path, rows, cols, goal)?),
            None => None,
        };
        Ok(Request {
            census,
            shape: Shape::new(rows, cols, goal),
            heuristics: self.heuristics.clone(),
            methods: self.methods.clone(),
            prunings: self.prunings.clone(),
            bounds: self.bounds,
            targets,
            samples_per_cell: self.samples.div_ceil(rows * cols).max(1),
            probes: self.probes,
            seed: self.seed,
            cdp_exact_depth: self.cdp_exact_depth,
            last_fraction: self.last_fraction,
            measure_nodes: self.measure,
        })
    }
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
