//! IDA* (Korf 1985): depth-first search in iterations of increasing f-bound.
//!
//! The position is changed in place (one swap per move and one undo), successors come from the
//! geometry's per-cell lists in Korf's order, the move back to the parent is never generated,
//! and nothing is allocated or written per node beyond the position itself: the path is
//! collected only while the recursion unwinds from the goal.

use std::time::Duration;

use crate::geometry::{Capacity, Geometry, TileInt, Tiles};
use crate::heuristic::{Built, Heuristic, LargeBuilt};
use crate::{with_heuristic, with_large_heuristic};

use super::duplicates::MoveAutomaton;
use super::{
    Budget, IterationCount, Limits, RawOutcome, SearchStats, Status, moves_between_blanks,
};

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
    pub(super) stopped: Option<Status>,
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
        self.expanded += 1;
        let child_depth = u64::from(g) + 2;
        if child_depth > self.max_depth {
            self.max_depth = child_depth;
        }
        let n = usize::from(self.geometry.neighbour_count[C::cell(blank)]);
        for k in 0..n {
            let next = self.geometry.neighbours[C::cell(blank)][k].into();
            if next == parent {
                continue;
            }
            let Some(child_state) = self.child_state(state, blank, k) else {
                continue;
            };
            self.generated += 1;
            if self.generated >= self.budget.next_check
                && let Some(s) = self.budget.check(self.generated)
            {
                self.stopped = Some(s);
                return true;
            }
            let tile = self.tiles[C::cell(next)];
            self.tiles[C::cell(blank)] = tile;
            self.tiles[C::cell(next)] = C::Tile::default();
            // The child is pruned if its h exceeds `limit` (only an exact value below it
            // matters, see `Heuristic::update_within`).
            let limit = if WEIGHTED {
                u32::MAX
            } else {
                self.bound.saturating_sub(g + 1)
            };
            let (h2, memo2) =
                self.heuristic
                    .update_within(&self.tiles, tile, next, blank, h, memo, limit);
            if self.descend(blank, next, child_state, g, h2, memo2) {
                return true;
            }
            self.tiles[C::cell(next)] = tile;
            self.tiles[C::cell(blank)] = C::Tile::default();
        }
        false
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

/// Runs IDA* from `start` with the built heuristic; with `weight` (in hundredths) weighted
/// IDA*, whose f = g + W h makes solutions at most W times longer than optimal.
pub(crate) fn run(
    geometry: &Geometry,
    start: &Tiles,
    built: &Built,
    limits: &Limits,
    weight: Option<u32>,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome {
    with_heuristic!(built, h => match weight {
        None => run_with::<_, _, false>(geometry, start, h, limits, 100, automaton),
        Some(w) => run_with::<_, _, true>(geometry, start, h, limits, w, automaton),
    })
}

/// [`run`] on a board of more than 64 cells (capacity `C`).
pub(crate) fn run_large<C: Capacity>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    built: &LargeBuilt<C>,
    limits: &Limits,
    weight: Option<u32>,
    automaton: Option<&MoveAutomaton>,
) -> RawOutcome {
    with_large_heuristic!(built, h => match weight {
        None => run_with::<C, _, false>(geometry, start, h, limits, 100, automaton),
        Some(w) => run_with::<C, _, true>(geometry, start, h, limits, w, automaton),
    })
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
    let mut iterations = 0u32;
    ida.generated = 1; // the root, counted once for the whole run (Korf's convention)
    let mut per_iteration = Vec::new();
    let status = loop {
        iterations += 1;
        ida.next_bound = u32::MAX;
        let (expanded0, generated0) = (ida.expanded, ida.generated);
        let done = ida.probe(blank, usize::MAX, MoveAutomaton::START, 0, h0, memo0);
        per_iteration.push(IterationCount {
            bound: ida.bound,
            expanded: ida.expanded - expanded0,
            generated: ida.generated - generated0 + 1,
            complete: !done,
        });
        if done {
            break ida.stopped.unwrap_or(Status::Solved);
        }
        if ida.next_bound == u32::MAX {
            // Cannot happen on a solvable board; treat as exhausted.
            break Status::NodeLimit;
        }
        ida.bound = ida.next_bound;
        if ida.generated >= ida.budget.next_check
            && let Some(s) = ida.budget.check(ida.generated)
        {
            break s;
        }
    };
    let moves = (status == Status::Solved).then(|| {
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
            lower_bound: (!WEIGHTED && status != Status::Solved).then_some(ida.bound),
        },
    }
}
