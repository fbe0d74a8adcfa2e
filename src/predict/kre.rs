//! Korf, Reid & Edelkamp's formula (KRE, "Time complexity of iterative-deepening-A*", AI 129,
//! 2001): the iteration of IDA* with cost bound `d` expands about
//! `sum over depths i and blank cells c of N_i(c) * P_c(d - i)` nodes, where `N_i(c)` counts
//! the brute-force tree's nodes at depth `i` with the blank on `c` and `P_c(v)` is the
//! fraction of states with the blank on `c` whose estimate is at most `v` (the equilibrium
//! distribution). A node at depth `i` is expanded when `i + h <= d`; with a consistent
//! heuristic its ancestors are then too. The nodes generated are the children of the
//! expanded ones, plus the root (counted once, as IDA* does).
//!
//! The formula is exact in expectation over random start states when the distribution is;
//! with a sampled distribution the prediction is a mean over the samples of each cell, which
//! gives its standard error.

use super::profile::Profile;
use super::tree::TreeCounts;

/// KRE's prediction for one bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KreEstimate {
    /// The cost bound of the iteration.
    pub bound: u32,
    /// Nodes expanded in that iteration.
    pub expanded: f64,
    /// Nodes generated in that iteration (children of expanded nodes, plus the root).
    pub generated: f64,
    /// The standard error of `generated` from sampling the distribution (0 when exact).
    pub generated_se: f64,
}

/// The prediction for every bound of `bounds` over the tree `tree` (which must reach the
/// largest bound's depth).
pub fn kre(tree: &TreeCounts, profile: &Profile, bounds: &[u32]) -> Vec<KreEstimate> {
    bounds.iter().map(|&d| kre_one(tree, profile, d)).collect()
}

fn kre_one(tree: &TreeCounts, profile: &Profile, d: u32) -> KreEstimate {
    let depth = (d as usize).min(tree.depth());
    let (mut expanded, mut generated, mut var) = (0.0, 0.0, 0.0);
    for c in 0..tree.cells {
        // Per-sample contributions: a state with estimate h on cell c at depth i counts when
        // h <= d - i, i.e. it contributes the cumulative children through depth d - h.
        let mut cum_nodes = vec![0.0; depth + 1];
        let mut cum_kids = vec![0.0; depth + 1];
        let (mut n, mut k) = (0.0, 0.0);
        for i in 0..=depth {
            n += tree.nodes[i][c];
            k += tree.children[i][c];
            cum_nodes[i] = n;
            cum_kids[i] = k;
        }
        let (mut e1, mut e2, mut x) = (0.0, 0.0, 0.0);
        let m = profile.states[c];
        for (h, &count) in profile.hist[c].iter().enumerate() {
            if count == 0.0 || h as u32 > d {
                continue;
            }
            let j = (d as usize - h).min(depth);
            let p = count / m;
            x += p * cum_nodes[j];
            e1 += p * cum_kids[j];
            e2 += p * cum_kids[j] * cum_kids[j];
        }
        expanded += x;
        generated += e1;
        if !profile.exact && m > 1.0 {
            var += (e2 - e1 * e1).max(0.0) / (m - 1.0);
        }
    }
    KreEstimate {
        bound: d,
        expanded,
        generated: generated + 1.0,
        generated_se: var.sqrt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::geometry::Geometry;
    use crate::heuristic::{HeuristicKind, build};
    use crate::predict::tree::Pruning;

    /// With the zero heuristic every node within the bound is expanded: KRE must give the
    /// brute-force tree exactly.
    #[test]
    fn zero_heuristic_gives_the_whole_tree() {
        let g = Geometry::new(2, 3, Goal::BlankLast);
        let built = build(&HeuristicKind::None, &g).unwrap();
        let profile = Profile::new(&g, &built, 0, 1);
        let tree = TreeCounts::from_cell(&g, Pruning::Parent, 0, 12);
        for e in kre(&tree, &profile, &[0, 5, 12]) {
            let d = e.bound as usize;
            let nodes: f64 = (0..=d).map(|i| tree.total(i)).sum();
            assert_eq!(e.expanded, nodes);
            let kids: f64 = (0..=d).map(|i| tree.children[i].iter().sum::<f64>()).sum();
            assert_eq!(e.generated, 1.0 + kids);
            assert_eq!(e.generated_se, 0.0);
        }
    }
}
