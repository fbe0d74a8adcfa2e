//! IDA* (Korf 1985): depth-first search in iterations of increasing f-bound.
//!
//! The position is changed in place (one swap per move and one undo), successors come from the
//! geometry's per-cell lists in Korf's order, the move back to the parent is never generated,
//! and nothing is allocated or written per node beyond the position itself: the path is
//! collected only while the recursion unwinds from the goal.
//!
//! Plain IDA* + Manhattan on the 4 x 4 (Korf's benchmark) runs a specialised kernel,
//! [`Manhattan4x4`], with the same order, pruning and counts; everything else runs the generic
//! [`Ida`], monomorphised per heuristic and capacity.
//!
//! Beside the serial search: [`parallel`] (the same iterations, the tree shared among threads),
//! [`subtree`] (one bounded iteration below a frontier node, for split searches) and
//! [`duplicates`] (the move automaton of duplicate-path pruning).

pub mod duplicates;
pub(super) mod parallel;
pub mod subtree;

use std::time::Duration;

use crate::geometry::{Capacity, Geometry, TileInt, Tiles};
use crate::heuristic::{Built, Heuristic};
use crate::with_heuristic;

use super::storage::Storage;
use super::{
    Budget, IterationCount, Limits, Outcome, RawOutcome, SearchStats, moves_between_blanks,
};
use duplicates::MoveAutomaton;

/// The mutable state of one IDA* run on a board of capacity `C`.
pub(super) struct Ida<'a, C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> {
    pub(super) geometry: &'a Geometry<C>,
    pub(super) heuristic: &'a H,
    pub(super) tiles: C::Tiles,
    /// The f-bound of this iteration; f = g + h, or 100 g + W h (W in hundredths) when
    /// `WEIGHTED`.
    pub(super) bound: u32,
    pub(super) next_bound: u32,
    pub(super) weight: u32,
    /// The blank's cells from the goal back to the root, filled while the recursion unwinds
    /// from a found goal (so nothing is written per node on the way down).
    pub(super) path: Vec<C::Tile>,
    pub(super) generated: u64,
    pub(super) expanded: u64,
    pub(super) max_depth: u64,
    /// Set when a limit stops the search; the recursion then unwinds without a path.
    pub(super) stopped: Option<Outcome>,
    pub(super) budget: Budget,
    /// Duplicate-path pruning (`idastar-fsm`); `None` prunes only the move back to the parent.
    pub(super) automaton: Option<&'a MoveAutomaton>,
}

impl<'a, C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> Ida<'a, C, H, WEIGHTED> {
    /// A search from `tiles` (bound 0, no counts yet).
    pub(super) fn new(
        geometry: &'a Geometry<C>,
        heuristic: &'a H,
        tiles: &C::Tiles,
        budget: Budget,
        weight: u32,
        automaton: Option<&'a MoveAutomaton>,
    ) -> Self {
        Ida {
            geometry,
            heuristic,
            tiles: *tiles,
            bound: 0,
            next_bound: u32::MAX,
            weight,
            path: Vec::new(),
            generated: 0,
            expanded: 0,
            max_depth: 1,
            stopped: None,
            budget,
            automaton,
        }
    }

    /// The duplicate automaton's state after the blank's move `k` from `blank` in `state`, or
    /// `None` if the pruning rejects that move (always `Some` without an automaton).
    #[inline(always)]
    pub(super) fn child_state(&self, state: u32, blank: usize, k: usize) -> Option<u32> {
        match self.automaton {
            None => Some(MoveAutomaton::START),
            Some(a) => {
                let s = a.step(state, self.geometry.neighbour_move[C::cell(blank)][k]);
                (s != MoveAutomaton::DEAD).then_some(s)
            }
        }
    }

    #[inline(always)]
    fn f(&self, g: u32, h: u32) -> u32 {
        if WEIGHTED {
            100 * g + self.weight * h
        } else {
            g + h
        }
    }

    /// Searches below a node with f <= bound, reached after `g` moves with the blank on
    /// `blank`, arrived at from `parent` (`usize::MAX` at the root), with the duplicate
    /// automaton in `state` (unused without one). Returns `true` when the
    /// recursion must unwind: the goal was found (path collected) or a limit stopped it.
    ///
    /// Children over the bound are counted as generated and pruned here, in the parent,
    /// rather than in a call of their own: half of all generated nodes are such leaves.
    pub(super) fn probe(
        &mut self,
        blank: usize,
        parent: usize,
        state: u32,
        g: u32,
        h: u32,
        memo: H::Memo,
    ) -> bool {
        if h == 0 && self.geometry.is_goal(&self.tiles) {
            self.path.push(C::Tile::from_index(blank));
            return true;
        }
        expand(self, blank, parent, state, g, h, memo)
    }

    /// The child on `next` (already moved there, estimate `h2`): pruned against the bound
    /// here, in the parent, or searched. Returns `true` when the recursion must unwind.
    #[inline(always)]
    fn descend(
        &mut self,
        blank: usize,
        next: usize,
        state: u32,
        g: u32,
        h2: u32,
        memo2: H::Memo,
    ) -> bool {
        let f2 = self.f(g + 1, h2);
        if f2 > self.bound {
            if f2 < self.next_bound {
                self.next_bound = f2;
            }
            false
        } else if self.probe(next, blank, state, g + 1, h2, memo2) {
            if self.stopped.is_none() {
                self.path.push(C::Tile::from_index(blank));
            }
            true
        } else {
            false
        }
    }
}

/// What an IDA* walk does with a child that passed the limits: the search descends into it
/// ([`Ida`]), the parallel search's split walk also stops at its depth. Both share
/// [`expand`], IDA*'s one child loop.
pub(super) trait Walk<'a, C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> {
    /// The search state the walk moves through.
    fn ida(&mut self) -> &mut Ida<'a, C, H, WEIGHTED>;
    /// The child's estimate above which only that it exceeds matters (see
    /// [`Heuristic::update_within`]), for a child `g + 1` moves deep.
    fn limit(ida: &Ida<'a, C, H, WEIGHTED>, g: u32) -> u32;
    /// The child on `next` (already moved there, estimate `h2`, automaton state `state`) of
    /// the node on `blank`, `g` moves deep: pruned against the bound or walked. Returns
    /// `true` when the walk must unwind.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        blank: usize,
        next: usize,
        state: u32,
        g: u32,
        h2: u32,
        memo2: H::Memo,
    ) -> bool;
}

impl<'a, C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> Walk<'a, C, H, WEIGHTED>
    for Ida<'a, C, H, WEIGHTED>
{
    #[inline(always)]
    fn ida(&mut self) -> &mut Ida<'a, C, H, WEIGHTED> {
        self
    }
    #[inline(always)]
    fn limit(ida: &Ida<'a, C, H, WEIGHTED>, g: u32) -> u32 {
        // The child is pruned if its h exceeds this (only an exact value below it matters).
        if WEIGHTED {
            u32::MAX
        } else {
            ida.bound.saturating_sub(g + 1)
        }
    }
    #[inline(always)]
    fn descend(
        &mut self,
        blank: usize,
        next: usize,
        state: u32,
        g: u32,
        h2: u32,
        memo2: H::Memo,
    ) -> bool {
        Ida::descend(self, blank, next, state, g, h2, memo2)
    }
}

/// IDA*'s child loop, once for every walk: expands the node on `blank` (`g` moves deep,
/// estimate `h`, arrived from `parent`, automaton state `state`): its children in Korf's
/// order, without the move back and those the automaton rejects, each counted as generated
/// (the limits checked as it is), moved to in place, estimated, handed to
/// [`Walk::descend`] and moved back. Returns `true` when the walk must unwind.
#[inline(always)]
pub(super) fn expand<'a, C, H, const WEIGHTED: bool, K>(
    walk: &mut K,
    blank: usize,
    parent: usize,
    state: u32,
    g: u32,
    h: u32,
    memo: H::Memo,
) -> bool
where
    C: Capacity,
    H: Heuristic<C> + 'a,
    K: Walk<'a, C, H, WEIGHTED>,
{
    let ida = walk.ida();
    ida.expanded += 1;
    let child_depth = u64::from(g) + 2;
    if child_depth > ida.max_depth {
        ida.max_depth = child_depth;
    }
    let n = usize::from(ida.geometry.neighbour_count[C::cell(blank)]);
    for k in 0..n {
        let ida = walk.ida();
        let next = ida.geometry.neighbours[C::cell(blank)][k].into();
        if next == parent {
            continue;
        }
        let Some(child_state) = ida.child_state(state, blank, k) else {
            continue;
        };
        ida.generated += 1;
        if ida.generated >= ida.budget.next_check
            && let Some(s) = ida.budget.check(ida.generated)
        {
            ida.stopped = Some(s);
            return true;
        }
        let tile = ida.tiles[C::cell(next)];
        ida.tiles[C::cell(blank)] = tile;
        ida.tiles[C::cell(next)] = C::Tile::default();
        let limit = K::limit(ida, g);
        let (h2, memo2) = ida
            .heuristic
            .update_within(&ida.tiles, tile, next, blank, h, memo, limit);
        if walk.descend(blank, next, child_state, g, h2, memo2) {
            return true;
        }
        let ida = walk.ida();
        ida.tiles[C::cell(next)] = tile;
        ida.tiles[C::cell(blank)] = C::Tile::default();
    }
    false
}

/// Runs IDA* from `start` with the built heuristic; with `weight` (in hundredths) weighted
/// IDA*, whose f = g + W h makes solutions at most W times longer than optimal. Plain IDA* +
/// Manhattan on the 4 x 4 runs the [`Manhattan4x4`] kernel.
pub(crate) fn run<C: Storage>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    built: &Built<C>,
    limits: &Limits,
    weight: Option<u32>,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome {
    if weight.is_none()
        && automaton.is_none()
        && let Some((g, t)) = C::small(geometry, start)
        && (g.rows, g.cols) == (4, 4)
        && let Some(Built::Manhattan(h)) = C::small_heuristic(built)
    {
        return run_manhattan_4x4(g, t, h, limits);
    }
    with_heuristic!(C, built, h => match weight {
        None => run_with::<C, _, false>(geometry, start, h, limits, 100, automaton),
        Some(w) => run_with::<C, _, true>(geometry, start, h, limits, w, automaton),
    })
}

/// One IDA* search as its iteration driver ([`drive`]) sees it: the generic serial search,
/// the 4 x 4 kernel and the parallel search.
pub(super) trait Iterations {
    /// Nodes expanded and generated so far.
    fn counts(&self) -> (u64, u64);
    /// The current f-bound.
    fn bound(&self) -> u32;
    /// Searches one iteration with the current bound: `true` when the search must stop (the
    /// goal found, or a limit reached: then [`Iterations::stopped`] names it).
    fn iterate(&mut self) -> bool;
    /// The limit that stopped the search, `None` if it found the goal.
    fn stopped(&self) -> Option<Outcome>;
    /// Moves to the next bound; `false` when there is none (the tree is exhausted, which
    /// cannot happen on a solvable board).
    fn advance(&mut self) -> bool;
    /// The limits' check between two iterations.
    fn between(&mut self) -> Option<Outcome>;
}

/// How [`drive`] ended: the status, the iterations run and each one's counts.
pub(super) struct Driven {
    pub(super) status: Outcome,
    pub(super) iterations: u32,
    pub(super) per_iteration: Vec<IterationCount>,
}

/// IDA*'s iteration driver, once for every search: iterations of increasing bound until one
/// finds the goal or a limit stops the search, each one's counts recorded (its generated
/// count includes the root, which the run counts once).
pub(super) fn drive(search: &mut impl Iterations) -> Driven {
    let mut iterations = 0u32;
    let mut per_iteration = Vec::new();
    let status = loop {
        iterations += 1;
        let (expanded0, generated0) = search.counts();
        let done = search.iterate();
        let (expanded, generated) = search.counts();
        per_iteration.push(IterationCount {
            bound: search.bound(),
            expanded: expanded - expanded0,
            generated: generated - generated0 + 1,
            complete: !done,
        });
        if done {
            break search.stopped().unwrap_or(Outcome::Solved);
        }
        if !search.advance() {
            // Cannot happen on a solvable board; treat as exhausted.
            break Outcome::NodeLimit;
        }
        if let Some(s) = search.between() {
            break s;
        }
    };
    Driven {
        status,
        iterations,
        per_iteration,
    }
}

/// The generic serial search from its root (blank on `blank`, estimate `h0` and `memo0`).
struct Serial<'a, C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> {
    ida: Ida<'a, C, H, WEIGHTED>,
    blank: usize,
    h0: u32,
    memo0: H::Memo,
}

impl<C: Capacity, H: Heuristic<C>, const WEIGHTED: bool> Iterations for Serial<'_, C, H, WEIGHTED> {
    fn counts(&self) -> (u64, u64) {
        (self.ida.expanded, self.ida.generated)
    }
    fn bound(&self) -> u32 {
        self.ida.bound
    }
    fn iterate(&mut self) -> bool {
        self.ida.next_bound = u32::MAX;
        let (blank, h0, memo0) = (self.blank, self.h0, self.memo0);
        self.ida
            .probe(blank, usize::MAX, MoveAutomaton::START, 0, h0, memo0)
    }
    fn stopped(&self) -> Option<Outcome> {
        self.ida.stopped
    }
    fn advance(&mut self) -> bool {
        if self.ida.next_bound == u32::MAX {
            return false;
        }
        self.ida.bound = self.ida.next_bound;
        true
    }
    fn between(&mut self) -> Option<Outcome> {
        let ida = &mut self.ida;
        if ida.generated >= ida.budget.next_check {
            ida.budget.check(ida.generated)
        } else {
            None
        }
    }
}

fn run_with<C: Capacity, H: Heuristic<C>, const WEIGHTED: bool>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    heuristic: &H,
    limits: &Limits,
    weight: u32,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome {
    let (h0, memo0) = heuristic.init(start);
    let blank = geometry.blank_of(start);
    let budget = Budget::new(limits);
    let mut ida = Ida::<C, H, WEIGHTED>::new(geometry, heuristic, start, budget, weight, automaton);
    ida.bound = ida.f(0, h0);
    ida.generated = 1; // the root, counted once for the whole run (Korf's convention)
    let mut search = Serial {
        ida,
        blank,
        h0,
        memo0,
    };
    let Driven {
        status,
        iterations,
        per_iteration,
    } = drive(&mut search);
    let ida = search.ida;
    let moves = (status == Outcome::Solved).then(|| {
        let blanks: Vec<usize> = ida.path.iter().rev().map(|&b| b.into()).collect();
        moves_between_blanks(geometry, &blanks)
    });
    RawOutcome {
        status,
        moves,
        per_iteration,
        stats: SearchStats {
            expanded: ida.expanded,
            generated: ida.generated,
            stored_peak: ida.max_depth,
            memory_bytes: (ida.path.capacity() * std::mem::size_of::<C::Tile>()
                + std::mem::size_of::<C::Tiles>()) as u64,
            iterations: Some(iterations),
            helper_cpu: Duration::ZERO,
            lower_bound: (!WEIGHTED && status != Outcome::Solved).then_some(ida.bound),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// The 4 x 4 with Manhattan distance: a specialised kernel.

/// IDA* + Manhattan on the 4 x 4, the literature's benchmark, specialised: the position is a
/// `u64` of 16 nibbles kept in a register (a move is two XORs), the search is a loop over an
/// explicit stack (no call per node), and everything a move needs comes from small tables
/// indexed by one byte, the move's *code* `next << 4 | blank` (the blank's cell before and
/// after it; never 0, as the two cells differ).
///
/// Manhattan changes by exactly 1 per move, so f = g + h keeps its parity and a child's f is
/// its parent's or 2 more. The kernel therefore keeps no h and no f, only the *slack*
/// `bound - f` (even, never negative on the path): a move costs 0 of it (the tile moves
/// towards its goal cell) or 2; a child whose cost exceeds its parent's slack is over the
/// bound (counted as generated and pruned in the parent), the goal is the position equal to
/// the goal's, and the next bound is the current one plus 2 (every pruned child has
/// f = bound + 2, and an iteration that fails has pruned some).
///
/// A node's moves not yet tried wait on the stack in one `u32`; a node whose last move is
/// being tried needs no frame, so the stack holds only ancestors with moves left, each with
/// its depth, and the path is kept as one move code per depth. Same successor order, pruning,
/// counts (one at a time, as each child is generated, limits included) and path as the
/// generic [`Ida`].
struct Manhattan4x4 {
    /// `cost[tile << 8 | code]`: the slack a move costs (0 or 2) when it moves `tile`.
    cost: [u8; 4096],
    /// `children[code]`: the moves from the cell the blank reached with move `code`, in Korf's
    /// order, without the move back: their codes in the bytes of a `u32` from the lowest,
    /// ending at the first zero byte.
    children: [u32; 256],
    /// The moves from each cell (all of them: the root has no parent).
    root: [u32; 16],
    /// The goal's position.
    goal: u64,
    /// The root's position, its blank's cell and its Manhattan distance.
    start: u64,
    root_blank: usize,
    h0: u32,
    bound: u32,
    generated: u64,
    expanded: u64,
    max_depth: u64,
    /// The blank's cells from the root to the goal, once found.
    path: Vec<u8>,
    stopped: Option<Outcome>,
    budget: Budget,
}

/// An ancestor of the node being searched that has moves left: its position, those moves,
/// its slack and its depth.
#[derive(Clone, Copy, Default)]
struct Frame {
    state: u64,
    moves: u32,
    slack: u16,
    depth: u16,
}

/// Depths the explicit stack and the path hold: more than the longest optimal 15-puzzle
/// solution (80 moves) needs; a bound past it stops the search with [`Outcome::DepthLimit`]
/// (it cannot happen on a solvable board). A power of two, so that masked indices need no
/// bounds checks.
const STACK: usize = 256;

/// The codes of the blank's moves from `cell` in Korf's order, except to `skip`, packed from
/// the lowest byte.
fn pack_moves(geometry: &Geometry, cell: usize, skip: usize) -> u32 {
    let mut packed = 0u32;
    let mut n = 0;
    for &next in &geometry.neighbours[cell][..usize::from(geometry.neighbour_count[cell])] {
        let next = usize::from(next);
        if next != skip {
            packed |= ((next << 4 | cell) as u32) << (8 * n);
            n += 1;
        }
    }
    packed
}

impl Manhattan4x4 {
    /// The kernel's tables for `geometry`, the search from `start` (bound its distance).
    fn new(
        geometry: &Geometry,
        h: &crate::heuristic::Manhattan,
        start: &Tiles,
        budget: Budget,
    ) -> Self {
        let (h0, ()) = h.init(start);
        let mut k = Manhattan4x4 {
            cost: [0; 4096],
            children: [0; 256],
            root: [0; 16],
            goal: 0,
            start: (0..16).fold(0u64, |acc, c| acc | u64::from(start[c]) << (4 * c)),
            root_blank: geometry.blank_of(start),
            h0,
            bound: h0,
            generated: 1, // the root, counted once for the whole run (Korf's convention)
            expanded: 0,
            max_depth: 1,
            path: Vec::new(),
            stopped: None,
            budget,
        };
        for cell in 0..16 {
            k.root[cell] = pack_moves(geometry, cell, NO_PARENT);
            for &next in &geometry.neighbours[cell][..usize::from(geometry.neighbour_count[cell])] {
                let next = usize::from(next);
                let code = next << 4 | cell;
                k.children[code] = pack_moves(geometry, next, cell);
                for t in 1..16u8 {
                    // The tile on `next` moves to `cell`: 1 + the change of its distance.
                    let cost = h.tile_distance(t, cell) + 1 - h.tile_distance(t, next);
                    k.cost[usize::from(t) << 8 | code] = cost as u8;
                }
            }
        }
        k.goal = (0..16).fold(0u64, |acc, c| {
            acc | (geometry.goal.tile_at(c, 16) as u64) << (4 * c)
        });
        k
    }

    /// One iteration from the root `root` (blank on `blank`, Manhattan `h0 <= bound`):
    /// `true` when the search must stop (goal found, path collected, or a limit reached).
    fn iteration(&mut self, root: u64, blank: usize, h0: u32) -> bool {
        if root == self.goal {
            self.path.push(blank as u8);
            return true;
        }
        if self.bound as usize >= STACK {
            // Depths stay within the bound, and the stack and path hold `STACK` of them.
            self.stopped = Some(Outcome::DepthLimit);
            return true;
        }
        let mut stack = [Frame::default(); STACK];
        let mut codes = [0u8; STACK];
        let mut sp = 0usize;
        let mut generated = self.generated;
        // The inner loop leaves when the next child's count reaches `budget.next_check`: the
        // call to the budget stays out of it (so it costs the hot loop no registers).
        let mut last_unchecked = self.budget.next_check.saturating_sub(1);
        let mut expanded = self.expanded + 1;
        let mut deepest = 0usize;
        let mut state = root;
        let mut moves = self.root[blank & 15];
        let mut slack = self.bound - h0;
        let mut depth = 0usize;
        let found = loop {
            let pause = loop {
                if moves == 0 {
                    if sp == 0 {
                        break Pause::Done;
                    }
                    sp -= 1;
                    let f = stack[sp & (STACK - 1)];
                    (state, moves) = (f.state, f.moves);
                    (slack, depth) = (u32::from(f.slack), usize::from(f.depth));
                }
                if generated >= last_unchecked {
                    break Pause::Check;
                }
                let code = (moves & 0xff) as usize;
                moves >>= 8;
                generated += 1;
                let next = code >> 4;
                let tile = (state >> (4 * next)) & 15;
                let cost = u32::from(self.cost[(tile as usize) << 8 | code]);
                if cost > slack {
                    continue; // over the bound: generated (counted) and pruned
                }
                let child = state ^ tile << (4 * next) ^ tile << (4 * (code & 15));
                codes[depth & (STACK - 1)] = code as u8;
                if child == self.goal {
                    break Pause::Goal;
                }
                if moves != 0 {
                    stack[sp & (STACK - 1)] = Frame {
                        state,
                        moves,
                        slack: slack as u16,
                        depth: depth as u16,
                    };
                    sp += 1;
                }
                depth += 1;
                deepest = deepest.max(depth);
                state = child;
                slack -= cost;
                moves = self.children[code];
                expanded += 1;
            };
            match pause {
                Pause::Done => break false,
                Pause::Goal => {
                    self.path.push(blank as u8);
                    let on_path = &codes[..=depth & (STACK - 1)];
                    self.path.extend(on_path.iter().map(|&c| c >> 4));
                    break true;
                }
                Pause::Check => {
                    // The limits as the next child is counted.
                    if let Some(stop) = self.budget.check(generated + 1) {
                        generated += 1;
                        self.stopped = Some(stop);
                        break false;
                    }
                    last_unchecked = self.budget.next_check.saturating_sub(1).max(generated + 1);
                }
            }
        };
        self.generated = generated;
        self.expanded = expanded;
        // Expanded nodes lie `deepest` moves deep at most; the root's 0 included.
        self.max_depth = self.max_depth.max(deepest as u64 + 2);
        found || self.stopped.is_some()
    }
}

/// Why [`Manhattan4x4::iteration`]'s inner loop paused: control flow inside one iteration,
/// private to it, not how the search ended. The one place it meets the crate's [`Outcome`] is
/// that function's `match`: `Goal` ends the search solved, `Check` asks `Budget::check`, whose
/// answer is the limit's `Outcome`.
enum Pause {
    /// The iteration is complete.
    Done,
    /// The last child generated is the goal.
    Goal,
    /// The next child's count is due for a check of the limits.
    Check,
}

/// No cell: the root's parent.
const NO_PARENT: usize = 16;

impl Iterations for Manhattan4x4 {
    fn counts(&self) -> (u64, u64) {
        (self.expanded, self.generated)
    }
    fn bound(&self) -> u32 {
        self.bound
    }
    fn iterate(&mut self) -> bool {
        self.iteration(self.start, self.root_blank, self.h0)
    }
    fn stopped(&self) -> Option<Outcome> {
        self.stopped
    }
    fn advance(&mut self) -> bool {
        // Every pruned child had f = bound + 2 (see `Manhattan4x4`).
        self.bound += 2;
        true
    }
    fn between(&mut self) -> Option<Outcome> {
        if self.generated >= self.budget.next_check {
            self.budget.check(self.generated)
        } else {
            None
        }
    }
}

/// [`run`] for IDA* + Manhattan on the 4 x 4 (see [`Manhattan4x4`]).
fn run_manhattan_4x4(
    geometry: &Geometry,
    start: &Tiles,
    h: &crate::heuristic::Manhattan,
    limits: &Limits,
) -> RawOutcome {
    let mut k = Manhattan4x4::new(geometry, h, start, Budget::new(limits));
    let Driven {
        status,
        iterations,
        per_iteration,
    } = drive(&mut k);
    let moves = (status == Outcome::Solved).then(|| {
        let blanks: Vec<usize> = k.path.iter().map(|&b| usize::from(b)).collect();
        moves_between_blanks(geometry, &blanks)
    });
    RawOutcome {
        status,
        moves,
        per_iteration,
        stats: SearchStats {
            expanded: k.expanded,
            generated: k.generated,
            stored_peak: k.max_depth,
            memory_bytes: (k.path.capacity()
                + std::mem::size_of::<[Frame; STACK]>()
                + STACK
                + std::mem::size_of::<u64>()) as u64,
            iterations: Some(iterations),
            helper_cpu: Duration::ZERO,
            lower_bound: (status != Outcome::Solved).then_some(k.bound),
        },
    }
}

#[cfg(test)]
mod tests {
    //! The 4 x 4 Manhattan kernel against the generic [`Ida`] (a separate implementation that
    //! prunes, counts and orders moves per node, with h and the next bound computed as the
    //! textbook does): same path, counts, depth and iterations, on random walks to both goals
    //! and at node limits. Korf's published counts are checked in `tests/korf.rs`.

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::board::{Board, Goal};
    use crate::generate::random_walk;
    use crate::heuristic::Manhattan;

    fn both(board: &Board, goal: Goal, limits: &Limits) -> (RawOutcome, RawOutcome) {
        let geometry = Geometry::new(4, 4, goal);
        let h = Manhattan::new(&geometry);
        let tiles = geometry.compact_tiles(board);
        let kernel = run_manhattan_4x4(&geometry, &tiles, &h, limits);
        let generic = run_with::<_, _, false>(&geometry, &tiles, &h, limits, 100, None);
        (kernel, generic)
    }

    fn assert_same(k: &RawOutcome, g: &RawOutcome, what: &str) {
        assert_eq!(k.status, g.status, "{what}");
        assert_eq!(k.moves, g.moves, "{what}");
        assert_eq!(k.stats.generated, g.stats.generated, "{what}");
        assert_eq!(k.stats.expanded, g.stats.expanded, "{what}");
        assert_eq!(k.stats.stored_peak, g.stats.stored_peak, "{what}");
        assert_eq!(k.stats.iterations, g.stats.iterations, "{what}");
        assert_eq!(k.stats.lower_bound, g.stats.lower_bound, "{what}");
        assert_eq!(k.per_iteration, g.per_iteration, "{what}");
    }

    #[test]
    fn kernel_equals_the_generic_search_on_random_walks() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            for (i, walk) in [0u32, 1, 2, 3, 8, 15, 24, 31, 36, 40, 44, 50]
                .iter()
                .enumerate()
            {
                let board = random_walk(Board::solved(4, 4, goal), *walk, &mut rng);
                let (k, g) = both(&board, goal, &Limits::default());
                let what = format!("{goal:?}, walk {i} of {walk} moves:\n{board}");
                assert_eq!(k.status, Outcome::Solved, "{what}");
                assert_same(&k, &g, &what);
                assert!(
                    board.replay_reaches_goal(k.moves.as_ref().unwrap(), goal),
                    "{what}"
                );
            }
        }
    }

    /// A node limit stops both at exactly that many generated nodes (the root and its first
    /// child at least), at the same node of the same iteration.
    #[test]
    fn kernel_stops_at_the_node_limit_like_the_generic_search() {
        // Korf's instance 79: 540,860 nodes published.
        let tiles = vec![0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15];
        let board = Board::new(4, 4, tiles).unwrap();
        let goal = Goal::BlankFirst;
        let (full, _) = both(&board, goal, &Limits::default());
        let total = full.stats.generated;
        assert_eq!(total, 540_860);
        for max in [
            1,
            2,
            3,
            4,
            5,
            6,
            17,
            1000,
            65_535,
            65_536,
            65_537,
            100_003,
            total - 1,
            total,
        ] {
            let limits = Limits {
                max_nodes: Some(max),
                ..Limits::default()
            };
            let (k, g) = both(&board, goal, &limits);
            let what = format!("max_nodes {max}");
            assert_eq!(k.status, Outcome::NodeLimit, "{what}");
            assert_eq!(k.stats.generated, max.max(2), "{what}");
            assert_same(&k, &g, &what);
        }
        // The goal is the last node counted: one more and the search completes.
        let limits = Limits {
            max_nodes: Some(total + 1),
            ..Limits::default()
        };
        let (k, g) = both(&board, goal, &limits);
        assert_eq!(k.status, Outcome::Solved);
        assert_eq!(k.stats.generated, total);
        assert_same(&k, &g, "max_nodes one over the solution's count");
    }
}
