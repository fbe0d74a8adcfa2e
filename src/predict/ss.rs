//! Stratified sampling (Chen 1992) of IDA*'s tree, with the type system of Lelis, Zilles &
//! Holte ("Predicting the size of IDA*'s search tree", AI 2013): a probe walks the real tree
//! level by level, keeping one representative node per type (its estimate, its parent's
//! estimate, the blank's cell) with the summed weight of the nodes of that type it stands
//! for (the blank's previous cell is part of the type too, so that the representative's
//! moves are those of every node it stands for); a new node replaces the representative with probability weight / summed weight.
//! Every probe is an unbiased estimate of any sum over the tree's nodes; the mean over probes
//! is the prediction and their spread its standard error.
//!
//! One probe of the tree at the largest bound `D` serves every smaller bound too: a node is
//! in the iteration with bound `d` exactly when the largest `f` along its path is at most
//! `d`, so each sampled node's weight is filed under that path maximum.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use crate::generate::instance_rng;
use crate::geometry::{Geometry, Tiles};
use crate::heuristic::{Built, Heuristic};
use crate::search::duplicates::MoveAutomaton;
use crate::with_heuristic;

use super::tree::Pruning;

/// Stratified sampling's prediction for one bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SsEstimate {
    /// The cost bound.
    pub bound: u32,
    /// Nodes expanded in that iteration (mean over probes).
    pub expanded: f64,
    /// Nodes generated in that iteration, its root included.
    pub generated: f64,
    /// The standard error of `generated` over the probes.
    pub generated_se: f64,
}

/// Estimates for every bound from the start's estimate to `max_bound`, from `probes` probes
/// seeded by `seed`.
pub fn stratified_sampling(
    geometry: &Geometry,
    built: &Built,
    start: &Tiles,
    pruning: Pruning,
    max_bound: u32,
    probes: usize,
    seed: u64,
) -> Vec<SsEstimate> {
    with_heuristic!(crate::geometry::Small, built, h => run(geometry, h, start, pruning, max_bound, probes, seed))
}

struct Node<M> {
    tiles: Tiles,
    blank: u8,
    parent: u8,
    state: u32,
    h: u32,
    path_max: u32,
    memo: M,
    weight: f64,
}

fn run<H: Heuristic>(
    geometry: &Geometry,
    heuristic: &H,
    start: &Tiles,
    pruning: Pruning,
    max_bound: u32,
    probes: usize,
    seed: u64,
) -> Vec<SsEstimate> {
    let (h0, memo0) = heuristic.init(start);
    let mut sampler = Sampler {
        geometry,
        heuristic,
        automaton: pruning.automaton(),
        max_bound,
        rng: instance_rng(seed, 0x55),
        level: Vec::new(),
        next: Vec::new(),
        index: FxHashMap::default(),
    };
    let per_probe: Vec<(Vec<f64>, Vec<f64>)> = (0..probes.max(1))
        .map(|_| sampler.probe(start, h0, memo0))
        .collect();
    estimates(&per_probe, h0, max_bound)
}

/// The probes of one prediction: what they walk (the board, heuristic, tree and bound), the
/// random stream they share, and the levels' storage, reused from probe to probe.
struct Sampler<'a, H: Heuristic> {
    geometry: &'a Geometry,
    heuristic: &'a H,
    automaton: &'static MoveAutomaton,
    max_bound: u32,
    rng: ChaCha8Rng,
    level: Vec<Node<H::Memo>>,
    next: Vec<Node<H::Memo>>,
    /// The representative in `next` of each node type.
    index: FxHashMap<u64, usize>,
}

impl<H: Heuristic> Sampler<'_, H> {
    /// One probe from `start`: per bound, the nodes expanded and generated in the iteration
    /// with that bound (filed under each node's path maximum, then cumulated).
    fn probe(&mut self, start: &Tiles, h0: u32, memo0: H::Memo) -> (Vec<f64>, Vec<f64>) {
        let width = self.max_bound as usize + 1;
        let mut expanded = vec![0.0; width];
        let mut generated = vec![0.0; width];
        self.level.clear();
        if h0 <= self.max_bound {
            self.level.push(Node {
                tiles: *start,
                blank: self.geometry.blank_of(start) as u8,
                parent: u8::MAX,
                state: MoveAutomaton::START,
                h: h0,
                path_max: h0,
                memo: memo0,
                weight: 1.0,
            });
        }
        let mut g = 0u32;
        while !self.level.is_empty() {
            self.expand_level(g, &mut expanded, &mut generated);
            std::mem::swap(&mut self.level, &mut self.next);
            g += 1;
        }
        for d in 1..width {
            expanded[d] += expanded[d - 1];
            generated[d] += generated[d - 1];
        }
        (expanded, generated)
    }

    /// Expands the representatives of depth `g` into those of depth `g + 1` (in `next`),
    /// counting their weights as expanded and their children's as generated.
    fn expand_level(&mut self, g: u32, expanded: &mut [f64], generated: &mut [f64]) {
        let geometry = self.geometry;
        self.next.clear();
        self.index.clear();
        for node in &self.level {
            if node.h == 0 && geometry.is_goal(&node.tiles) {
                continue;
            }
            let blank = node.blank as usize;
            expanded[node.path_max as usize] += node.weight;
            let mut kids = 0u32;
            for k in 0..geometry.neighbour_count[blank] as usize {
                let to = geometry.neighbours[blank][k] as usize;
                if to == node.parent as usize {
                    continue;
                }
                let state = self
                    .automaton
                    .step(node.state, geometry.neighbour_move[blank][k]);
                if state == MoveAutomaton::DEAD {
                    continue;
                }
                kids += 1;
                let mut tiles = node.tiles;
                let tile = tiles[to];
                tiles[blank] = tile;
                tiles[to] = 0;
                let (h2, memo2) = self
                    .heuristic
                    .update(&tiles, tile, to, blank, node.h, node.memo);
                let f2 = g + 1 + h2;
                if f2 > self.max_bound {
                    continue;
                }
                let child = Node {
                    tiles,
                    blank: to as u8,
                    parent: blank as u8,
                    state,
                    h: h2,
                    path_max: node.path_max.max(f2),
                    memo: memo2,
                    weight: node.weight,
                };
                let key =
                    u64::from(h2) << 40 | u64::from(node.h) << 16 | (to as u64) << 8 | blank as u64;
                match self.index.get(&key) {
                    Some(&i) => {
                        let rep = &mut self.next[i];
                        let total = rep.weight + node.weight;
                        if uniform(&mut self.rng) * total < node.weight {
                            *rep = child;
                        }
                        rep.weight = total;
                    }
                    None => {
                        self.index.insert(key, self.next.len());
                        self.next.push(child);
                    }
                }
            }
            generated[node.path_max as usize] += node.weight * f64::from(kids);
        }
    }
}

/// The prediction per bound from `h0` to `max_bound`: the probes' mean (the root added to the
/// generated count) and the standard error of the generated mean.
fn estimates(per_probe: &[(Vec<f64>, Vec<f64>)], h0: u32, max_bound: u32) -> Vec<SsEstimate> {
    let n = per_probe.len() as f64;
    (h0..=max_bound)
        .map(|d| {
            let d_ = d as usize;
            let e = per_probe.iter().map(|p| p.0[d_]).sum::<f64>() / n;
            let m = per_probe.iter().map(|p| p.1[d_]).sum::<f64>() / n;
            let var = if n > 1.0 {
                per_probe.iter().map(|p| (p.1[d_] - m).powi(2)).sum::<f64>() / (n - 1.0)
            } else {
                0.0
            };
            SsEstimate {
                bound: d,
                expanded: e,
                generated: m + 1.0,
                generated_se: (var / n).sqrt(),
            }
        })
        .collect()
}

/// A uniform number in [0, 1).
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::heuristic::{HeuristicKind, build};
    use crate::predict::tree::TreeCounts;

    /// With the zero heuristic all nodes of a type (blank cell, previous cell) have the same
    /// subtree in the plain tree, so the weights are exact path counts and stratified sampling
    /// must give the brute-force tree; with the automaton they differ, and the mean over
    /// probes must still come close.
    #[test]
    fn zero_heuristic_gives_the_whole_tree() {
        let g = Geometry::new(3, 3, Goal::BlankLast);
        let built = build(&HeuristicKind::None, &g).unwrap();
        // 31 moves from the goal: no goal node within the bounds below.
        let mut start = [0u8; 64];
        start[..9].copy_from_slice(&[8, 6, 7, 2, 5, 4, 3, 0, 1]);
        for (pruning, probes, tolerance) in
            [(Pruning::Parent, 2, 1e-9), (Pruning::Automaton, 200, 0.05)]
        {
            let est = stratified_sampling(&g, &built, &start, pruning, 16, probes, 1);
            let tree = TreeCounts::from_cell(&g, pruning, 7, 17);
            assert_eq!(est.len(), 17);
            for e in est {
                let d = e.bound as usize;
                let nodes: f64 = (0..=d).map(|i| tree.total(i)).sum();
                let kids: f64 = (0..=d).map(|i| tree.children[i].iter().sum::<f64>()).sum();
                let (re, rg) = (
                    (e.expanded - nodes).abs() / nodes,
                    (e.generated - 1.0 - kids).abs() / kids,
                );
                assert!(
                    re < tolerance && rg < tolerance,
                    "{pruning:?} d {d}: {re} {rg}"
                );
            }
        }
    }
}
