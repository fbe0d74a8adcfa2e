//! The layered BFS on boards of 17 to 64 cells (and beyond, up to the `u128` packing's
//! reach): `(state, blank, came-from)` entries packed without padding, a layer's successors
//! sorted in place (by the layer order, then the came-from cell: the first of a state's entries
//! is its first discoverer's), the next layer made of them in place.

use std::cmp::Ordering;
use std::mem::size_of;

use crate::board::Move;
use crate::geometry::{Capacity, Geometry, TileInt};
use crate::search::storage::packed::Packed;
use crate::search::{Limits, RawOutcome, moves_between_blanks};

use super::layered::{LayerStore, layered, solved_at_root};

/// A state of a layer: its packed position, its blank's cell and the cell its blank came
/// from. Packed without padding (a `u128` position with two byte cells takes 18 bytes, not 32):
/// a layer is a long array of these, read and sorted a few times each.
#[repr(C, packed)]
struct Entry<P, T> {
    state: P,
    blank: T,
    came_from: T,
}

impl<P: Copy, T: Copy> Clone for Entry<P, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Copy, T: Copy> Copy for Entry<P, T> {}

/// The layer order: by the blank's cell, then by the tiles from the last cell down.
#[inline]
fn entry_order<C: Capacity, P: Packed<C>>(
    a: &Entry<P, C::Tile>,
    b: &Entry<P, C::Tile>,
) -> Ordering {
    let (x, y) = (a.state, b.state);
    let (ba, bb) = (a.blank, b.blank);
    ba.cmp(&bb).then_with(|| x.cmp_from_last_cell(&y))
}

/// The order in which a layer's successors are sorted: the layer order, then the came-from
/// cell. The successors of one state differ in their came-from cells (the cell and the state
/// give the parent), and a parent whose blank is on a smaller cell comes earlier in its layer:
/// so the first of a state's entries is its first discoverer's, as a stable sort in the order
/// produced would leave it, without the stable sort's scratch.
#[inline]
fn successor_order<C: Capacity, P: Packed<C>>(
    a: &Entry<P, C::Tile>,
    b: &Entry<P, C::Tile>,
) -> Ordering {
    let (fa, fb) = (a.came_from, b.came_from);
    entry_order::<C, P>(a, b).then(fa.cmp(&fb))
}

/// Layers of entries with the state packed as `P`, its blank's cell and its came-from cell.
struct PackedLayers<'a, C: Capacity, P> {
    geometry: &'a Geometry<C>,
    root: P,
    goal: P,
    goal_neighbours: Vec<Entry<P, C::Tile>>,
}

impl<C: Capacity, P: Packed<C>> LayerStore<C> for PackedLayers<'_, C, P> {
    type Layer = Vec<Entry<P, C::Tile>>;
    type Found = Entry<P, C::Tile>;
    type Sizes = usize;

    fn geometry(&self) -> &Geometry<C> {
        self.geometry
    }

    fn root_layer(&self) -> Self::Layer {
        let blank = C::Tile::from_index(self.root.blank(self.geometry.cells));
        vec![Entry {
            state: self.root,
            blank,
            came_from: blank,
        }]
    }

    #[inline]
    fn len(layer: &Self::Layer) -> usize {
        layer.len()
    }

    fn bytes(layer: &Self::Layer) -> u64 {
        (layer.capacity() * size_of::<Entry<P, C::Tile>>()) as u64
    }

    #[inline]
    fn cells(layer: &Self::Layer, i: usize) -> (usize, usize) {
        let e = layer[i];
        (e.blank.into(), e.came_from.into())
    }

    fn holds_goal_neighbour(&self, layer: &Self::Layer) -> bool {
        self.goal_neighbours.iter().any(|g| {
            layer
                .binary_search_by(|e| entry_order::<C, P>(e, g))
                .is_ok()
        })
    }

    fn sizes(&self, layer: &Self::Layer) -> (usize, u64) {
        let total: usize = layer
            .iter()
            .map(|&e| {
                let (b, from): (usize, usize) = (e.blank.into(), e.came_from.into());
                usize::from(self.geometry.neighbour_count[b]) - usize::from(from != b)
            })
            .sum();
        // The successors; sorted in place, the next layer is made of them in place.
        let entry_bytes = size_of::<Entry<P, C::Tile>>();
        (total, (total * entry_bytes) as u64)
    }

    fn reserve(out: &mut Self::Layer, total: usize) {
        out.reserve_exact(total);
    }

    #[inline]
    fn child(
        &self,
        layer: &Self::Layer,
        i: usize,
        b: usize,
        n: usize,
        out: &mut Self::Layer,
        keep: bool,
    ) -> bool {
        let e = layer[i];
        let state = e.state;
        let child = state.moved(n, b, state.tile(n));
        if child == self.goal {
            return true;
        }
        if keep {
            out.push(Entry {
                state: child,
                blank: C::Tile::from_index(n),
                came_from: e.blank,
            });
        }
        false
    }

    fn found(layer: &Self::Layer, i: usize) -> Self::Found {
        layer[i]
    }

    fn next_layer(&self, out: &mut Self::Layer, previous: Option<&Self::Layer>) -> Self::Layer {
        out.sort_unstable_by(successor_order::<C, P>);
        new_states::<C, P>(out, previous.map_or(&[], Vec::as_slice));
        std::mem::take(out)
    }

    fn path_back(&self, layers: &[Self::Layer], found: Self::Found) -> Vec<Move> {
        path_back::<C, P>(
            self.geometry,
            layers,
            found,
            self.goal.blank(self.geometry.cells),
        )
    }
}

pub(super) fn run<C: Capacity, P: Packed<C>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    let cells = geometry.cells;
    let goal = P::pack(&geometry.goal_tiles(), cells);
    let root = P::pack(start, cells);
    if root == goal {
        return solved_at_root();
    }
    let store = PackedLayers {
        geometry,
        root,
        goal,
        goal_neighbours: goal_neighbours::<C, P>(geometry, goal),
    };
    layered(&store, limits)
}

/// The goal's neighbours as layer entries (for the test of a layer that holds one).
fn goal_neighbours<C: Capacity, P: Packed<C>>(
    geometry: &Geometry<C>,
    goal: P,
) -> Vec<Entry<P, C::Tile>> {
    let goal_blank = goal.blank(geometry.cells);
    (0..usize::from(geometry.neighbour_count[goal_blank]))
        .map(|k| {
            let n = geometry.neighbours[goal_blank][k];
            let state = goal.moved(n.into(), goal_blank, goal.tile(n.into()));
            Entry {
                state,
                blank: n,
                came_from: n,
            }
        })
        .collect()
}

/// Makes the sorted successors `out` the next layer, in place: repeats dropped (the first,
/// smallest entry kept) and the states of the `previous` layer subtracted, in one merge pass;
/// the tail given back.
fn new_states<C: Capacity, P: Packed<C>>(
    out: &mut Vec<Entry<P, C::Tile>>,
    previous: &[Entry<P, C::Tile>],
) {
    let mut kept = 0;
    let mut j = 0;
    for i in 0..out.len() {
        let e = out[i];
        if i > 0 && entry_order::<C, P>(&out[i - 1], &e) == Ordering::Equal {
            continue;
        }
        while j < previous.len() && entry_order::<C, P>(&previous[j], &e) == Ordering::Less {
            j += 1;
        }
        if j < previous.len() && entry_order::<C, P>(&previous[j], &e) == Ordering::Equal {
            continue;
        }
        out[kept] = e;
        kept += 1;
    }
    out.truncate(kept);
    out.shrink_to_fit();
}

/// The moves from the root to the goal, whose producer `e` lies in the last of `layers`: each
/// entry's came-from cell gives its predecessor, found in the layer before by binary search.
fn path_back<C: Capacity, P: Packed<C>>(
    geometry: &Geometry<C>,
    layers: &[Vec<Entry<P, C::Tile>>],
    mut e: Entry<P, C::Tile>,
    goal_blank: usize,
) -> Vec<Move> {
    let mut blanks = vec![goal_blank, e.blank.into()];
    for layer in layers.iter().rev().skip(1) {
        let from: usize = e.came_from.into();
        let b: usize = e.blank.into();
        let state = e.state;
        let probe = Entry {
            state: state.moved(from, b, state.tile(from)),
            blank: e.came_from,
            came_from: e.came_from,
        };
        let i = layer.partition_point(|x| entry_order::<C, P>(x, &probe) == Ordering::Less);
        e = layer[i];
        blanks.push(from);
    }
    blanks.reverse();
    moves_between_blanks(geometry, &blanks)
}
