//! The plan of a split search: the frontier, the tree above it, and which piece searches
//! which frontier node.
//!
//! The frontier is the first depth (from 0) whose nodes number at least the target, or that
//! holds the goal (so that no goal lies above it: IDA* would stop there). The slices are
//! balanced by work, not count: a probe runs IDA*'s iterations over the whole frontier from
//! the first bound up while their nodes stay within a budget, and each frontier node weighs
//! what its subtree cost in the last probe iteration that ran to its end (subtree sizes grow
//! by similar factors from one bound to the next). While the heaviest node weighs more than a
//! [`MAX_NODE_SHARE`] of a piece's mean, the frontier goes one level deeper (and is probed
//! again): no assignment balances pieces whose share is smaller than one node.
//!
//! Nodes are then given out in frontier order, each to the piece with the least weight so far:
//! at every point of the frontier order the pieces' weights so far differ by at most one
//! node's weight. A piece searches its nodes in frontier order, so its first solution is
//! IDA*'s first among them; and since every piece's work is spread evenly over the frontier
//! order, pieces running at once reach any frontier node at about the same time, which bounds
//! what they search in the last bound past the solution's frontier node (IDA* stops there).

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::board::{Board, Goal, Shape, moves_from_str, moves_to_string};
use crate::heuristic::HeuristicKind;
use crate::results::Pair;
use crate::search::subtree::{Expansion, Subtrees};
use crate::search::{Algorithm, Limits, thread_cpu_time};

use super::{SplitError, plan_path, read_json, write_json};

/// The format tag of plan files.
pub const PLAN_FORMAT: &str = "npuzzle-split-plan/1";

/// A queue plan has this many chunks per piece (or one per frontier node, if fewer): the
/// finest units a bound is cut into (see `queue::Units`), so that in the last bound, when a
/// solution is announced, the pieces past it have searched a small share of the bound.
pub const CHUNKS_PER_PIECE: usize = 128;

/// The deepest frontier considered.
const MAX_DEPTH: usize = 40;

/// The frontier is deepened while its heaviest node weighs more than this share of a
/// piece's mean weight (1 / 4: with nodes given out in order, a piece then ends within a
/// quarter of the mean above it, as far as the weights predict).
pub const MAX_NODE_SHARE: (u64, u64) = (1, 4);

/// The frontier is not deepened past this many nodes: the plan holds every one (about 100
/// bytes each; every piece reads the plan), and the probe replays each one's path per bound.
const MAX_FRONTIER: usize = 1 << 18;

/// What to plan.
#[derive(Debug, Clone)]
pub struct PlanRequest {
    /// The instance file as named by the user.
    pub instance_file: String,
    /// The instance's id in it.
    pub instance_id: String,
    /// The random walk the instance was generated with, if known.
    pub scramble_moves: Option<u32>,
    /// The start board.
    pub board: Board,
    /// The goal layout.
    pub goal: Goal,
    /// An unweighted IDA*.
    pub algorithm: Algorithm,
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// How many pieces.
    pub pieces: u32,
    /// The frontier aims for at least this many nodes.
    pub frontier: usize,
    /// Nodes the balancing probe may generate.
    pub probe_nodes: u64,
    /// Any optimal solution will do: pieces stop at the first one found (see [`Plan`]).
    pub any_optimal: bool,
    /// Pieces take chunks of the frontier from a shared queue, bound by bound, instead of
    /// fixed slices (see [`Plan::chunks`]).
    pub queue: bool,
}

/// The nodes above the frontier whose path's largest f is `path_max`, and what they count in
/// an iteration with a bound at least that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopLevel {
    /// The largest f on their paths from the root.
    pub path_max: u32,
    /// How many nodes (each expanded once per such iteration).
    pub expanded: u64,
    /// Their children (generated once per such iteration).
    pub generated: u64,
}

/// One frontier node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedNode {
    /// The moves from the start (U/D/L/R).
    pub moves: String,
    /// The largest f on its path: searched by iterations with a bound at least this.
    pub path_max: u32,
    /// Its estimated work (nodes generated below it in the last complete probe iteration,
    /// plus one).
    pub weight: u64,
    /// The piece that searches it (1-based; 0 in a queue plan, where no node has a fixed
    /// piece).
    pub piece: u32,
}

/// A plan, as `plan.json` holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// The instance file as named by the user.
    pub instance_file: String,
    /// The instance id.
    pub instance_id: String,
    /// The random walk the instance was generated with, if known.
    pub scramble_moves: Option<u32>,
    /// The board's size and goal layout (the keys `rows`, `cols`, `goal`).
    #[serde(flatten)]
    pub shape: Shape,
    /// The start board's tiles, row by row (0 is the blank).
    pub tiles: Vec<u32>,
    /// The search's algorithm and heuristic, as a results row names them (the keys
    /// `algorithm`, `heuristic`).
    #[serde(flatten)]
    pub pair: Pair,
    /// How many pieces.
    pub pieces: u32,
    /// The frontier's depth.
    pub depth: u32,
    /// The first iteration's bound (h of the start).
    pub initial_bound: u32,
    /// The tree above the frontier, by path maximum, ascending.
    pub top: Vec<TopLevel>,
    /// The frontier in IDA*'s order.
    pub frontier: Vec<PlannedNode>,
    /// The bound of the probe iteration the weights come from (`None`: none ran to its end).
    pub probe_bound: Option<u32>,
    /// CPU time of planning, in microseconds (heuristic set-up included; integers, so that
    /// the checksum survives a round trip through JSON).
    pub plan_cpu_us: u64,
    /// Wall time of planning, in microseconds.
    pub plan_wall_us: u64,
    /// Any optimal solution will do: a solution at bound L stops every piece in L at once
    /// (every smaller bound is finished), so the answer is an optimal solution, not
    /// necessarily the one single-process IDA* returns, and the last bound costs less.
    /// Absent (false) in plans that want IDA*'s own solution.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_optimal: bool,
    /// A queue plan's chunks: chunk c is the frontier nodes from `chunks[c]` up to the next
    /// chunk's first (or the end), consecutive in frontier order and of about equal weight.
    /// In every bound the pieces take units of the frontier in order, each the next one no
    /// piece has taken (`queue`), so whichever pieces run search the frontier in IDA*'s order
    /// together: the last bound stops near where single-process IDA* stops, whatever the
    /// weights predicted. The first bound's units are groups of chunks, later ones are cut
    /// by measured work, at most one per chunk. Empty in a plan of fixed slices (the `piece`
    /// of each node).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chunks: Vec<u32>,
    /// SHA-256 of this file's content with this field empty (piece files carry it, so that
    /// pieces of two plans never mix).
    pub checksum: String,
}

impl Plan {
    /// The start board.
    pub fn board(&self) -> Result<Board, SplitError> {
        Board::new(self.shape.rows, self.shape.cols, self.tiles.clone())
            .map_err(|e| SplitError::Request(format!("the plan's board is not a board: {e}")))
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Result<Algorithm, SplitError> {
        self.pair.algorithm.parse().map_err(SplitError::Request)
    }

    /// The heuristic.
    pub fn heuristic(&self) -> Result<HeuristicKind, SplitError> {
        self.pair.heuristic.parse().map_err(SplitError::Request)
    }

    /// The board prepared for the plan's search (heuristic built or loaded).
    pub fn subtrees(&self) -> Result<Subtrees, SplitError> {
        Ok(Subtrees::new(
            &self.board()?,
            self.shape.goal,
            self.algorithm()?,
            &self.heuristic()?,
        )?)
    }

    /// Whether pieces take chunks from a shared queue (see [`Plan::chunks`]).
    pub fn is_queue(&self) -> bool {
        !self.chunks.is_empty()
    }

    /// The indices of piece `k`'s frontier nodes, in frontier order.
    pub fn nodes_of(&self, k: u32) -> Vec<usize> {
        (0..self.frontier.len())
            .filter(|&i| self.frontier[i].piece == k)
            .collect()
    }

    /// What the tree above the frontier counts in the iteration with `bound`: (expanded,
    /// generated), the root included in generated.
    pub fn top_counts(&self, bound: u32) -> (u64, u64) {
        self.top
            .iter()
            .filter(|l| l.path_max <= bound)
            .fold((0, 1), |(e, g), l| (e + l.expanded, g + l.generated))
    }

    /// The smallest path maximum above `bound` over the tree above the frontier and the
    /// frontier itself (`u32::MAX` if none).
    pub fn top_next_bound(&self, bound: u32) -> u32 {
        let top = self.top.iter().map(|l| l.path_max);
        let front = self.frontier.iter().map(|n| n.path_max);
        top.chain(front)
            .filter(|&f| f > bound)
            .min()
            .unwrap_or(u32::MAX)
    }

    fn compute_checksum(&self) -> String {
        let mut copy = self.clone();
        copy.checksum.clear();
        let bytes = serde_json::to_vec(&copy).expect("a plan serialises");
        Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Writes the plan to `DIR/plan.json`.
    pub fn write(&self, dir: &Path) -> Result<(), SplitError> {
        write_json(&plan_path(dir), self)
    }

    /// One line on what was planned, for the person who asked.
    pub fn summary(&self, dir: &Path) -> String {
        format!(
            "planned {} pieces over {} frontier nodes at depth {} (weights from bound {}) in {}",
            self.pieces,
            self.frontier.len(),
            self.depth,
            self.probe_bound.map_or(
                "none: the first iteration is over the probe budget".into(),
                |b| b.to_string()
            ),
            plan_path(dir).display()
        )
    }

    /// Reads `DIR/plan.json` and checks its format and checksum.
    pub fn read(dir: &Path) -> Result<Plan, SplitError> {
        let path = plan_path(dir);
        let plan: Plan = read_json(&path)?;
        let bad = |what: String| SplitError::File {
            path: path.clone(),
            what,
        };
        if plan.format != PLAN_FORMAT {
            return Err(bad(format!(
                "format \"{}\", expected \"{PLAN_FORMAT}\"",
                plan.format
            )));
        }
        if plan.compute_checksum() != plan.checksum {
            return Err(bad(
                "the checksum does not match the content (the file was changed after planning)"
                    .into(),
            ));
        }
        for n in &plan.frontier {
            moves_from_str(&n.moves).map_err(|e| bad(format!("frontier node {}: {e}", n.moves)))?;
        }
        Ok(plan)
    }
}

/// The instance `id` of an instance file and the file's goal layout (`goal` where the file
/// does not say it), for a plan of it: an id the file lacks is refused, naming a few it has.
pub fn instance_in_file(
    file: &Path,
    id: &str,
    goal: Option<Goal>,
) -> Result<(crate::instances::Instance, Goal), SplitError> {
    let set = crate::instances::read_instance_file(file, goal)?;
    let goal = set.shape.goal;
    let mut ids = set.instances.iter().map(|i| i.id.as_str());
    let some: Vec<&str> = ids.by_ref().take(5).collect();
    let more = if ids.next().is_some() { ", ..." } else { "" };
    match set.instances.iter().position(|i| i.id == id) {
        Some(at) => Ok((set.instances.into_iter().nth(at).expect("found"), goal)),
        None => Err(SplitError::Request(format!(
            "--id {id}: no instance with that id in {} (ids: {}{more})",
            file.display(),
            some.join(", ")
        ))),
    }
}

/// Makes the plan of `req` and writes it into `dir` (created if missing), which must not
/// hold a plan already: the pieces of an old plan may still run there.
pub fn plan_into(dir: &Path, req: &PlanRequest) -> Result<Plan, SplitError> {
    std::fs::create_dir_all(dir).map_err(|e| SplitError::File {
        path: dir.to_path_buf(),
        what: format!("cannot create the directory (--out): {e}"),
    })?;
    if plan_path(dir).exists() {
        return Err(SplitError::Request(format!(
            "--out {}: holds a plan already (run its pieces, or choose a new directory)",
            dir.display()
        )));
    }
    let plan = make_plan(req)?;
    plan.write(dir)?;
    Ok(plan)
}

/// Plans the split of `req`'s search.
pub fn make_plan(req: &PlanRequest) -> Result<Plan, SplitError> {
    if !matches!(
        req.algorithm,
        Algorithm::Idastar
            | Algorithm::IdastarFsm
            | Algorithm::ParallelIdastar
            | Algorithm::ParallelIdastarFsm
    ) {
        return Err(SplitError::Algorithm(req.algorithm.name()));
    }
    if req.pieces == 0 {
        return Err(SplitError::Request("--pieces must be at least 1".into()));
    }
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    let subtrees = Subtrees::new(&req.board, req.goal, req.algorithm, &req.heuristic)?;
    let target = req.frontier.max(req.pieces as usize);
    let initial_bound = subtrees.initial_bound();
    let (depth, expansion, probe_bound, weights) =
        balanced_frontier(&subtrees, target, req.pieces, req.probe_nodes);
    let (pieces, chunks) = if req.queue {
        let n = (req.pieces as usize * CHUNKS_PER_PIECE).min(weights.len());
        (vec![0; weights.len()], chunk_starts(&weights, n))
    } else {
        (assign(&weights, req.pieces), Vec::new())
    };
    let mut plan = Plan {
        format: PLAN_FORMAT.into(),
        instance_file: req.instance_file.clone(),
        instance_id: req.instance_id.clone(),
        scramble_moves: req.scramble_moves,
        shape: Shape::new(req.board.rows(), req.board.cols(), req.goal),
        tiles: req.board.tiles().to_vec(),
        pair: Pair::new(&req.algorithm.name(), &req.heuristic.name()),
        pieces: req.pieces,
        depth: depth as u32,
        initial_bound,
        top: top_levels(&expansion),
        frontier: expansion
            .frontier
            .iter()
            .zip(weights.iter().zip(pieces))
            .map(|(n, (&weight, piece))| PlannedNode {
                moves: moves_to_string(&n.moves),
                path_max: n.path_max,
                weight,
                piece,
            })
            .collect(),
        probe_bound,
        plan_cpu_us: match (cpu, thread_cpu_time()) {
            (Some(a), Some(b)) => (b - a).as_micros() as u64,
            _ => 0,
        },
        plan_wall_us: wall.elapsed().as_micros() as u64,
        any_optimal: req.any_optimal,
        chunks,
        checksum: String::new(),
    };
    plan.checksum = plan.compute_checksum();
    Ok(plan)
}

/// The first depth whose frontier has at least `target` nodes or holds the goal.
fn frontier(subtrees: &Subtrees, target: usize) -> (usize, Expansion) {
    let mut depth = 0;
    loop {
        let e = subtrees.expand(depth);
        if e.frontier.len() >= target
            || e.frontier.iter().any(|n| n.goal)
            || e.frontier.is_empty()
            || depth == MAX_DEPTH
        {
            return (depth, e);
        }
        depth += 1;
    }
}

/// The frontier of [`frontier`] (at least `target` nodes), then deeper while its heaviest
/// node is too heavy for `pieces` ([`too_coarse`]), the goal is not on it, and it stays within
/// [`MAX_DEPTH`] and [`MAX_FRONTIER`]: the depth, the tree, the probe's bound and weights.
fn balanced_frontier(
    subtrees: &Subtrees,
    target: usize,
    pieces: u32,
    budget: u64,
) -> (usize, Expansion, Option<u32>, Vec<u64>) {
    let (mut depth, mut e) = frontier(subtrees, target);
    let (mut bound, mut weights) = probe(subtrees, &e, subtrees.initial_bound(), budget);
    while let Some(b) = bound
        && too_coarse(&weights, pieces)
        && depth < MAX_DEPTH
        && !e.frontier.iter().any(|n| n.goal)
    {
        let deeper = subtrees.expand(depth + 1);
        if deeper.frontier.is_empty() || deeper.frontier.len() > MAX_FRONTIER {
            break;
        }
        depth += 1;
        e = deeper;
        // The bounds are the tree's, whatever the frontier: the deeper probe starts at the
        // bound the last one completed, which costs at most the nodes it cost there (the
        // new level is above the frontier now), so it completes within the budget again.
        (bound, weights) = probe(subtrees, &e, b, budget);
    }
    (depth, e, bound, weights)
}

/// Whether the heaviest weight exceeds [`MAX_NODE_SHARE`] of the mean per piece (never with
/// one piece).
fn too_coarse(weights: &[u64], pieces: u32) -> bool {
    let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let max = u128::from(weights.iter().copied().max().unwrap_or(0));
    let (num, den) = MAX_NODE_SHARE;
    pieces > 1 && max * u128::from(den) * u128::from(pieces) > total * u128::from(num)
}

/// The tree above the frontier grouped by path maximum.
fn top_levels(e: &Expansion) -> Vec<TopLevel> {
    let mut levels: Vec<TopLevel> = Vec::new();
    for n in &e.top {
        match levels.iter_mut().find(|l| l.path_max == n.path_max) {
            Some(l) => {
                l.expanded += 1;
                l.generated += u64::from(n.children);
            }
            None => levels.push(TopLevel {
                path_max: n.path_max,
                expanded: 1,
                generated: u64::from(n.children),
            }),
        }
    }
    levels.sort_by_key(|l| l.path_max);
    levels
}

/// IDA*'s iterations over the whole frontier while they stay within `budget` generated nodes
/// in all: the last complete one's bound and each node's weight (its nodes there, plus one).
fn probe(subtrees: &Subtrees, e: &Expansion, first: u32, budget: u64) -> (Option<u32>, Vec<u64>) {
    let mut weights = vec![1; e.frontier.len()];
    let (mut bound, mut used, mut done) = (first, 0u64, None);
    while bound != u32::MAX {
        let mut these = Vec::with_capacity(e.frontier.len());
        let mut next = u32::MAX;
        let mut solved = false;
        for n in &e.frontier {
            let limits = Limits {
                max_nodes: Some(budget.saturating_sub(used).max(1)),
                ..Limits::default()
            };
            let c = subtrees.iterate(&n.moves, bound, &limits);
            if c.stopped.is_some() {
                return (done, weights);
            }
            used += c.generated;
            next = next.min(c.next_bound);
            solved |= c.solution.is_some();
            these.push(c.generated + 1);
        }
        weights = these;
        done = Some(bound);
        if solved {
            break;
        }
        bound = next;
    }
    (done, weights)
}

/// Each node, in frontier order, to the piece with the least weight so far (ties: the lower
/// piece): the pieces' numbers (1-based), in node order. After every node the pieces'
/// weights differ by at most the heaviest node's.
fn assign(weights: &[u64], pieces: u32) -> Vec<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut lightest: BinaryHeap<Reverse<(u64, u32)>> =
        (1..=pieces).map(|k| Reverse((0, k))).collect();
    weights
        .iter()
        .map(|&w| {
            let Reverse((load, k)) = lightest.pop().expect("at least one piece");
            lightest.push(Reverse((load + w, k)));
            k
        })
        .collect()
}

/// The first nodes of `n` chunks of consecutive nodes with about equal total weight: chunk c
/// starts at the first node whose preceding weight reaches c / n of the total, and no chunk
/// is empty (`n` at most the nodes).
pub(super) fn chunk_starts(weights: &[u64], n: usize) -> Vec<u32> {
    let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let mut starts = Vec::with_capacity(n);
    let mut before = 0u128;
    for (i, &w) in weights.iter().enumerate() {
        let c = starts.len();
        let remaining_nodes = weights.len() - i;
        let remaining_chunks = n - c;
        if c < n
            && (c == 0
                || before * n as u128 >= total * c as u128
                || remaining_nodes == remaining_chunks)
        {
            starts.push(i as u32);
        }
        before += u128::from(w);
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_consecutive_nodes_of_about_equal_weight() {
        // Total 12, 3 chunks: starts where the weight before reaches 0, 4 and 8.
        assert_eq!(chunk_starts(&[2, 2, 2, 2, 2, 2], 3), [0, 2, 4]);
        // A heavy last node: the chunks before it shrink so that none is empty.
        assert_eq!(chunk_starts(&[1, 1, 1, 1, 8], 3), [0, 3, 4]);
        // A heavy first node: a chunk of its own.
        assert_eq!(chunk_starts(&[8, 1, 1, 1, 1], 3), [0, 1, 2]);
        assert_eq!(chunk_starts(&[5, 5, 5], 3), [0, 1, 2]);
        // In general: n chunks, each non-empty, none heavier than a mean share plus one node.
        let w: Vec<u64> = (0..997u64).map(|i| 1 + (i * 7919) % 101).collect();
        let total: u64 = w.iter().sum();
        for n in [1, 7, 64, 500, 997] {
            let s = chunk_starts(&w, n);
            assert_eq!(s.len(), n);
            assert_eq!(s[0], 0);
            let mut ends: Vec<usize> = s.iter().skip(1).map(|&e| e as usize).collect();
            ends.push(w.len());
            for (c, (&a, &b)) in s.iter().zip(&ends).enumerate() {
                assert!((a as usize) < b, "chunk {c} of {n} is empty");
                let weight: u64 = w[a as usize..b].iter().sum();
                assert!(
                    weight <= total / n as u64 + 101,
                    "chunk {c} of {n} weighs {weight}"
                );
            }
        }
    }

    #[test]
    fn assignment_gives_each_node_in_order_to_the_lightest_piece() {
        // By hand: loads (0,0) -> node 10 to 1 (10,0) -> 1 to 2 (10,1) -> ... the ten 1s
        // all go to 2 (10,10) -> the 9 to 1 (tie: the lower piece) (19,10).
        let w = [10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9];
        let p = assign(&w, 2);
        assert_eq!(p, [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]);
        assert_eq!(assign(&[1, 1, 1], 5), [1, 2, 3]);
        assert_eq!(assign(&[3, 1, 1, 2, 5], 3), [1, 2, 3, 2, 3]);
        // Every prefix balanced within the heaviest weight, every piece used.
        let w: Vec<u64> = (0..997u64).map(|i| 1 + (i * 7919) % 101).collect();
        let p = assign(&w, 13);
        let mut load = [0u64; 13];
        for (i, (&w, &k)) in w.iter().zip(&p).enumerate() {
            load[k as usize - 1] += w;
            if i >= 13 {
                let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
                assert!(hi - lo <= 101, "after node {i}: {load:?}");
            }
        }
        assert!(load.iter().all(|&l| l > 0));
    }

    #[test]
    fn a_frontier_is_too_coarse_when_one_node_outweighs_a_quarter_piece() {
        // 4 pieces of 100: a node of 25 is a quarter of one, 26 more.
        let mut w = vec![25u64; 16];
        assert!(!too_coarse(&w, 4));
        w[0] = 26;
        w[1] = 24;
        assert!(too_coarse(&w, 4));
        assert!(!too_coarse(&w, 1), "one piece is never split finer");
        assert!(!too_coarse(&[], 4));
    }
}
