//! Breadth-first search, layer by layer, without a table of every state.
//!
//! The puzzle's graph is undirected and bipartite (every move changes the blank's colour on a
//! chessboard), so the successors of layer `d` lie in layer `d - 1` or `d + 1`: layer `d + 1`
//! is the successors of layer `d`, duplicates removed, minus layer `d - 1`. A layer is kept as
//! a sorted array, so both steps are sequential passes (a sort, then a merge), which run at the
//! speed of the memory system where a hash table of every state waits on a cache miss per node.
//! Every layer is kept (for the path), each entry with the cell the blank came from.
//!
//! # Counts and order (what decides the partial count of the last layer)
//! - A layer is expanded in its sorted order: by the blank's cell, then by the tiles compared
//!   from the last cell down to the first ([`Packed::cmp_from_last_cell`]).
//! - A state's successors are produced in Korf's order, except the move back to the cell its
//!   blank came from: the blank's cell in its first discoverer (the earliest state of the
//!   previous layer, in that order, that produced it). The root produces all its moves.
//! - The goal test happens on generation, as in a FIFO BFS: the search stops at the first
//!   successor equal to the goal. `expanded` counts the states whose successors were (being)
//!   produced, `generated` the successors produced plus the root.
//! - `stored_peak` is the most entries held at once: the states of the kept layers plus the
//!   successors waiting in the buffer (duplicates included, each entry once). The last layer's
//!   successors are counted, not stored: before a layer is expanded, the goal's neighbours are
//!   looked up in it, and when one is there the goal is in the next layer. The goal's producer
//!   is then the first of them in the layer's order; the nibble path counts the successors of
//!   the entries before it (every entry but the root's has one move fewer than its cell) without
//!   producing them, so the counts are those of producing them one by one.
//!
//! # Two paths
//! Boards of at most 16 cells (`u64` states, the 4 x 4 and smaller) take a specialised path.
//! Layers are bucketed by the blank's cell, each entry 8 bytes: the state's 15 other nibbles
//! (the blank's removed, "squeezed"), whose nibble 0 (which follows from the others: the tiles
//! are always the same set) is replaced by the came-from cell. Compared as integers, entries
//! are in the layer order, and the entries of one state by came-from cell, which is the order
//! of the discoverers' buckets: the smallest is the first discoverer's.
//!
//! A bucket's successors are written into one run per move. A horizontal move leaves the
//! squeezed state unchanged, so its run is sorted as it comes; a vertical move over `w` columns
//! rotates `w` nibbles by one, so its run is sorted above that field and needs a stable sort
//! on one (up) or `w - 1` (down) nibbles within groups of equal higher nibbles (insertion sort
//! for small groups, nibble-wise LSD counting passes for large ones). The up to four runs that
//! land on a cell are then merged, repeats dropped (the first, smallest entry kept) and the
//! previous layer's bucket subtracted in the same pass. Large buffers are advised to use
//! transparent huge pages (written once end to end, they otherwise cost a page fault per 4 KiB).
//!
//! Larger boards, up to 64 cells, store `(state, blank, came-from)` entries, packed without
//! padding, and sort a layer's successors in place (by the layer order, then the came-from
//! cell: the first of a state's entries is its first discoverer's); the next layer is made of
//! them in place, so a stored state costs the entry's bytes and nothing beside. Beyond 64
//! cells the states are kept as their differences from the root ([`sparse`]); both
//! stores run the same driver ([`layered`], the driver above which the stores sit; this module dispatches).
//!
//! The path is recovered backwards from the goal: the came-from cell of a state gives its
//! predecessor, which is found in the previous layer by binary search.

mod layered;
mod nibbles;
mod packed;
mod sparse;

use crate::geometry::{Capacity, Geometry};

use super::storage::packed::Packed;
use super::storage::{PackedJob, Storage, StoredJob};
use super::{Limits, RawOutcome};

/// Runs BFS from `start`: the nibble path on boards of at most 16 cells, the packed one
/// up to 64, states kept as their differences from the root beyond (see
/// [`sparse`] and [`Storage::stored`]).
pub(crate) fn run<C: Storage>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    if let Some((g, t)) = C::small(geometry, start)
        && g.cells <= 16
    {
        return nibbles::run(g, t, limits);
    }
    C::stored(
        geometry.cells,
        Job {
            geometry,
            start,
            limits,
        },
    )
}

/// One BFS on more than 16 cells, waiting for its packed state type.
struct Job<'a, C: Capacity> {
    geometry: &'a Geometry<C>,
    start: &'a C::Tiles,
    limits: &'a Limits,
}

impl<C: Storage> PackedJob<C> for Job<'_, C> {
    type Output = RawOutcome;
    fn run<P: Packed<C>>(self) -> RawOutcome {
        packed::run::<C, P>(self.geometry, self.start, self.limits)
    }
}

impl<C: Storage> StoredJob<C> for Job<'_, C> {
    fn run_implicit(self) -> RawOutcome {
        sparse::run(self.geometry, self.start, self.limits)
    }
}
