//! Conditional distribution prediction (CDP; Zahavi, Felner, Burch & Holte, "Predicting the
//! performance of IDA* using conditional distributions", JAIR 37, 2010): instead of assuming
//! every node's estimate is drawn from the equilibrium distribution (KRE), a child's estimate
//! is drawn from its distribution given the parent's estimate, blank cell and move, so the
//! prediction follows one start state and needs no consistency.
//!
//! The tree is walked level by level over node types (estimate, blank cell, the move that
//! led there), the count of each type carried as a real number; a type is expanded while
//! `depth + h <= d`. A type makes each move with the share of the brute-force tree's nodes of
//! its depth, cell and last move that may make it ([`MoveShares`]): on the plain tree that is
//! every move but the one back (Zahavi et al.'s model); on `fsm` the duplicate-path
//! automaton of `idastar-fsm` forbids moves by more than the last one, and the shares, counted
//! exactly over that tree, carry it (its 11,763 states would make the types too many on
//! 5 x 5). A child's estimate is drawn from its distribution given the parent's estimate,
//! cell and move. The first `exact_depth` levels are the real tree (estimates computed and the
//! automaton walked, not predicted), which removes most of the error of the start's
//! neighbourhood, where the conditional distributions fit least.
//!
//! Exactness: with the exact conditional distributions of a small board and a consistent
//! heuristic, the mean of CDP's prediction over all start states equals KRE's, so the mean
//! of IDA*'s whole iterations, for both trees (`tests/predict.rs`): a uniformly random state
//! moved along any fixed path is uniformly random, so CDP's type counts at each depth stay
//! the tree's node counts times the equilibrium distribution (the shares make the type
//! counts the tree's, whatever its automaton), and with a consistent
//! heuristic `f` never decreases along a path, so the cut at `depth + h > d` drops no
//! node of the iteration.

use rustc_hash::FxHashMap;

use crate::geometry::{Geometry, Tiles};
use crate::heuristic::Built;

use super::profile::Profile;
use super::tree::MoveShares;
use crate::search::duplicates::MoveAutomaton;

/// CDP's prediction for one bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CdpEstimate {
    /// The cost bound.
    pub bound: u32,
    /// Nodes expanded in that iteration.
    pub expanded: f64,
    /// Nodes generated in that iteration, its root included.
    pub generated: f64,
}

/// A node of the exact first levels: what CDP continues from.
struct Frontier {
    h: u32,
    cell: u8,
    /// Index of the move that led here (`Move as usize`), 4 at the root.
    last: u8,
    path_max: u32,
}

/// Predictions for every bound in `bounds` from `start`, on the tree of `shares.pruning`;
/// `shares` must be counted from `start`'s blank cell to the largest bound.
pub fn cdp(
    geometry: &Geometry,
    built: &Built,
    profile: &Profile,
    start: &Tiles,
    shares: &MoveShares,
    bounds: &[u32],
    exact_depth: u32,
) -> Vec<CdpEstimate> {
    let automaton = shares.pruning.automaton();
    let max_bound = bounds.iter().copied().max().unwrap_or(0);
    // The exact prefix: (path max f, children) of every expanded node above exact_depth, and
    // the nodes at exact_depth.
    let mut prefix: Vec<(u32, u32)> = Vec::new();
    let mut frontier: Vec<Frontier> = Vec::new();
    let mut tiles = *start;
    let blank = geometry.blank_of(start);
    let h0 = built.estimate(geometry, start);
    walk_prefix(
        geometry,
        built,
        automaton,
        &mut tiles,
        blank,
        MoveAutomaton::START,
        4,
        0,
        h0,
        h0,
        exact_depth,
        max_bound,
        &mut prefix,
        &mut frontier,
    );
    bounds
        .iter()
        .map(|&d| {
            let (mut expanded, mut generated) = (0.0, 1.0);
            for &(pm, kids) in &prefix {
                if pm <= d {
                    expanded += 1.0;
                    generated += f64::from(kids);
                }
            }
            let mut level: FxHashMap<(u32, u8, u8), f64> = FxHashMap::default();
            for f in frontier.iter().filter(|f| f.path_max <= d) {
                *level.entry((f.h, f.cell, f.last)).or_default() += 1.0;
            }
            let mut depth = exact_depth;
            while !level.is_empty() {
                let mut next: FxHashMap<(u32, u8, u8), f64> = FxHashMap::default();
                for (&(h, cell, last), &n) in &level {
                    if depth + h > d {
                        continue;
                    }
                    expanded += n;
                    let c = cell as usize;
                    for k in 0..geometry.neighbour_count[c] as usize {
                        let w = shares.get(depth as usize, c, last as usize, k);
                        if w == 0.0 {
                            continue;
                        }
                        let n = n * w;
                        let m = geometry.neighbour_move[c][k];
                        generated += n;
                        let to = geometry.neighbours[c][k];
                        for &(delta, p) in profile.step(c, k, h) {
                            let h2 = h as i64 + i64::from(delta);
                            if h2 < 0 || depth as i64 + 1 + h2 > i64::from(d) {
                                continue;
                            }
                            *next.entry((h2 as u32, to, m as u8)).or_default() += n * p;
                        }
                    }
                }
                level = next;
                depth += 1;
            }
            CdpEstimate {
                bound: d,
                expanded,
                generated,
            }
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn walk_prefix(
    geometry: &Geometry,
    built: &Built,
    automaton: &MoveAutomaton,
    tiles: &mut Tiles,
    blank: usize,
    state: u32,
    last: u8,
    g: u32,
    h: u32,
    path_max: u32,
    exact_depth: u32,
    max_bound: u32,
    prefix: &mut Vec<(u32, u32)>,
    frontier: &mut Vec<Frontier>,
) {
    if g == exact_depth {
        frontier.push(Frontier {
            h,
            cell: blank as u8,
            last,
            path_max,
        });
        return;
    }
    let mut kids = 0;
    for k in 0..geometry.neighbour_count[blank] as usize {
        let to = geometry.neighbours[blank][k] as usize;
        let m = geometry.neighbour_move[blank][k];
        let state2 = automaton.step(state, m);
        if state2 == MoveAutomaton::DEAD {
            continue;
        }
        kids += 1;
        tiles.swap(blank, to);
        let h2 = built.estimate(geometry, tiles);
        let f2 = g + 1 + h2;
        if f2 <= max_bound {
            walk_prefix(
                geometry,
                built,
                automaton,
                tiles,
                to,
                state2,
                m as u8,
                g + 1,
                h2,
                path_max.max(f2),
                exact_depth,
                max_bound,
                prefix,
                frontier,
            );
        }
        tiles.swap(blank, to);
    }
    prefix.push((path_max, kids));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::heuristic::{HeuristicKind, build};
    use crate::predict::tree::{Pruning, TreeCounts};

    /// With the zero heuristic CDP must give the brute-force tree, whatever the exact depth.
    #[test]
    fn zero_heuristic_gives_the_whole_tree() {
        let g = Geometry::new(3, 3, Goal::BlankLast);
        let built = build(&HeuristicKind::None, &g).unwrap();
        let profile = Profile::new(&g, &built, 0, 1);
        let mut start = [0u8; 64];
        start[..9].copy_from_slice(&[8, 6, 7, 2, 5, 4, 3, 0, 1]);
        for pruning in [Pruning::Parent, Pruning::Automaton] {
            let tree = TreeCounts::from_cell(&g, pruning, 7, 13);
            let shares = MoveShares::new(&g, pruning, 7, 12);
            for exact_depth in [0, 3] {
                for e in cdp(&g, &built, &profile, &start, &shares, &[4, 12], exact_depth) {
                    let d = e.bound as usize;
                    let nodes: f64 = (0..=d).map(|i| tree.total(i)).sum();
                    let kids: f64 = (0..=d).map(|i| tree.children[i].iter().sum::<f64>()).sum();
                    assert!((e.expanded - nodes).abs() < 1e-9 * nodes, "d {d}");
                    assert!((e.generated - 1.0 - kids).abs() < 1e-9 * kids, "d {d}");
                }
            }
        }
    }
}
