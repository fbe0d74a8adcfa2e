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
    if weight.is_none()
        && automaton.is_none()
        && (geometry.rows, geometry.cols) == (4, 4)
        && let Built::Manhattan(h) = built
    {
        return run_manhattan_4x4(geometry, start, h, limits);
    }
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

// ---------------------------------------------------------------------------------------------
// The 4 x 4 with Manhattan distance: a specialised kernel.

/// IDA* + Manhattan on the 4 x 4, the literature's benchmark, specialised: the position is a
/// `u64` of 16 nibbles kept in a register (a move is two XORs), the heuristic's change per move
/// comes from one table indexed by (tile, from, to), and every table is a fixed-size array
/// indexed with masked indices, so the hot loop has no bounds checks. Same successor order,
/// pruning, counts and path as the generic [`Ida`] (Korf's counts node for node).
struct Manhattan4x4 {
    /// `neighbours[c][..count[c]]`: the blank's moves from cell `c` in Korf's order.
    neighbours: [[u8; 4]; 16],
    count: [u8; 16],
    /// `delta[t << 8 | from << 4 | to]`: how Manhattan changes when tile `t` moves from cell
    /// `from` to cell `to`.
    delta: [i8; 4096],
    bound: u32,
    next_bound: u32,
    generated: u64,
    expanded: u64,
    max_depth: u64,
    /// The blank's cells from the goal back to the root, filled while unwinding from the goal.
    path: Vec<u8>,
    stopped: Option<Status>,
    budget: Budget,
}

/// No cell: the root's parent.
const NO_PARENT: usize = 16;

impl Manhattan4x4 {
    fn new(geometry: &Geometry, h: &crate::heuristic::Manhattan, budget: Budget) -> Self {
        let mut k = Manhattan4x4 {
            neighbours: [[0; 4]; 16],
            count: [0; 16],
            delta: [0; 4096],
            bound: 0,
            next_bound: u32::MAX,
            generated: 1, // the root, counted once for the whole run (Korf's convention)
            expanded: 0,
            max_depth: 1,
            path: Vec::new(),
            stopped: None,
            budget,
        };
        for c in 0..16 {
            k.count[c] = geometry.neighbour_count[c];
            k.neighbours[c] = geometry.neighbours[c];
        }
        for t in 1..16u8 {
            for from in 0..16 {
                for to in 0..16 {
                    let d = h.tile_distance(t, to) as i32 - h.tile_distance(t, from) as i32;
                    k.delta[usize::from(t) << 8 | from << 4 | to] = d as i8;
                }
            }
        }
        k
    }

    /// Searches below the position `state` (blank on `blank`, reached from `parent` after `g`
    /// moves, Manhattan `h`); `true` when the recursion must unwind (goal or limit).
    fn probe(&mut self, state: u64, blank: usize, parent: usize, g: u32, h: u32) -> bool {
        if h == 0 {
            // Manhattan is 0 only on the goal.
            self.path.push(blank as u8);
            return true;
        }
        self.expanded += 1;
        let child_depth = u64::from(g) + 2;
        if child_depth > self.max_depth {
            self.max_depth = child_depth;
        }
        let blank = blank & 15;
        let moves = self.neighbours[blank];
        for &next in moves.iter().take(usize::from(self.count[blank])) {
            let next = usize::from(next) & 15;
            if next == parent {
                continue;
            }
            self.generated += 1;
            if self.generated >= self.budget.next_check
                && let Some(s) = self.budget.check(self.generated)
            {
                self.stopped = Some(s);
                return true;
            }
            let tile = (state >> (4 * next)) & 15;
            let d = self.delta[(tile as usize) << 8 | next << 4 | blank];
            let h2 = h.wrapping_add(d as i32 as u32);
            let f2 = g + 1 + h2;
            if f2 > self.bound {
                if f2 < self.next_bound {
                    self.next_bound = f2;
                }
                continue;
            }
            let child = state ^ tile << (4 * next) ^ tile << (4 * blank);
            if self.probe(child, next, blank, g + 1, h2) {
                if self.stopped.is_none() {
                    self.path.push(blank as u8);
                }
                return true;
            }
        }
        false
    }
}

/// [`run`] for IDA* + Manhattan on the 4 x 4 (see [`Manhattan4x4`]).
fn run_manhattan_4x4(
    geometry: &Geometry,
    start: &Tiles,
    h: &crate::heuristic::Manhattan,
    limits: &Limits,
) -> RawOutcome {
    let (h0, ()) = h.init(start);
    let blank = geometry.blank_of(start);
    let state = (0..16).fold(0u64, |acc, c| acc | u64::from(start[c]) << (4 * c));
    let mut k = Manhattan4x4::new(geometry, h, Budget::new(limits));
    k.bound = h0;
    let mut iterations = 0u32;
    let mut per_iteration = Vec::new();
    let status = loop {
        iterations += 1;
        k.next_bound = u32::MAX;
        let (expanded0, generated0) = (k.expanded, k.generated);
        let done = k.probe(state, blank, NO_PARENT, 0, h0);
        per_iteration.push(IterationCount {
            bound: k.bound,
            expanded: k.expanded - expanded0,
            generated: k.generated - generated0 + 1,
            complete: !done,
        });
        if done {
            break k.stopped.unwrap_or(Status::Solved);
        }
        if k.next_bound == u32::MAX {
            break Status::NodeLimit;
        }
        k.bound = k.next_bound;
        if k.generated >= k.budget.next_check
            && let Some(s) = k.budget.check(k.generated)
        {
            break s;
        }
    };
    let moves = (status == Status::Solved).then(|| {
        let blanks: Vec<usize> = k.path.iter().rev().map(|&b| usize::from(b)).collect();
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
            memory_bytes: (k.path.capacity() + std::mem::size_of::<u64>()) as u64,
            iterations: Some(iterations),
            helper_cpu: Duration::ZERO,
            lower_bound: (status != Status::Solved).then_some(k.bound),
        },
    }
}
