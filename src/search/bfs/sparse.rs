//! The layered BFS of [`super`] on boards of more than 64 cells, each state kept as its
//! differences from the root.
//!
//! A BFS that stops at depth `d` only holds positions within `d` moves of its root, and such a
//! position differs from the root on at most `d + 1` cells (the ones the blank visited). So a
//! state is kept as the list of `(cell, tile)` pairs where it differs from the root, cells in
//! descending order: on a 12 x 12 board at depth 12, about 26 bytes where the position itself
//! takes 144. The list is canonical (a pair only where the tile differs), so two states are
//! equal exactly when their lists are, and the layer order of [`super`] (the blank's cell,
//! then the tiles compared from the last cell down) is computed from the lists alone: the
//! first cell from the top where two positions differ is the first cell, in a merge of their
//! two lists, where the tiles differ (a cell on one list only holds the root's tile in the
//! other). Nothing is ever unpacked into a whole position.
//!
//! Everything else is the packed path's algorithm: the same driver ([`super::layered`]:
//! expand a layer in its order, sort the successors, drop repeats and the layer before in one
//! merge) over this layer store, so counts, lengths and paths are the same node for node.
//!
//! Storage: an arena of tiles per layer, each state `[blank, came-from, cell, tile, ...]`, and
//! an index of `u64`s, the state's offset in the arena (high 48 bits) and its pair count (low
//! 16). Sorting a layer sorts its index; the next layer is copied out in that order, so a layer
//! is read front to back when it is expanded.

use std::cmp::Ordering;
use std::mem::size_of;

use crate::board::Move;
use crate::geometry::{Capacity, Geometry, TileInt};

use super::layered::{LayerStore, layered, solved_at_root};
use crate::search::{Limits, RawOutcome, moves_between_blanks};

/// The low bits of an index entry: the state's pair count.
const LEN_BITS: u32 = 16;
/// An index entry's pair count when the merge dropped the state.
const DROPPED: u64 = (1 << LEN_BITS) - 1;

/// One state of a layer, borrowed from its arena.
#[derive(Clone, Copy)]
struct State<'a, T> {
    blank: usize,
    came_from: usize,
    /// `(cell, tile)` pairs, cells descending, where the state differs from the root.
    pairs: &'a [T],
}

/// A layer, or the successors of one: states in an arena, reached through an index.
#[derive(Default)]
struct Layer<T> {
    index: Vec<u64>,
    arena: Vec<T>,
}

/// The state of index entry `entry` in `arena`.
#[inline]
fn state<T: TileInt>(arena: &[T], entry: u64) -> State<'_, T> {
    let off = (entry >> LEN_BITS) as usize;
    let len = (entry & DROPPED) as usize;
    let a = &arena[off..off + 2 + 2 * len];
    State {
        blank: a[0].into(),
        came_from: a[1].into(),
        pairs: &a[2..],
    }
}

impl<T: TileInt> Layer<T> {
    #[inline]
    fn get(&self, entry: u64) -> State<'_, T> {
        state(&self.arena, entry)
    }

    fn bytes(&self) -> u64 {
        (self.index.capacity() * 8 + self.arena.capacity() * size_of::<T>()) as u64
    }

    /// Appends `state` (its index entry included).
    fn push(&mut self, state: State<'_, T>) {
        let off = self.arena.len() as u64;
        self.arena.push(T::from_index(state.blank));
        self.arena.push(T::from_index(state.came_from));
        self.arena.extend_from_slice(state.pairs);
        self.index
            .push(off << LEN_BITS | (state.pairs.len() / 2) as u64);
    }
}

/// The tile on `cell` of the state with `pairs` (the root's where the list has none).
#[inline]
fn tile_at<T: TileInt>(root: &[T], pairs: &[T], cell: usize) -> T {
    for p in pairs.chunks_exact(2) {
        let c: usize = p[0].into();
        if c == cell {
            return p[1];
        }
        if c < cell {
            break;
        }
    }
    root[cell]
}

/// Appends to `out` the pairs of the successor of the state with `pairs` (blank on `blank`)
/// where the blank moved to `next`, whose tile is `tile`: `blank` gets `tile`, `next` the blank;
/// each is listed only where it now differs from the root. Returns the successor's pair count.
#[inline]
fn push_successor<T: TileInt>(
    out: &mut Vec<T>,
    root: &[T],
    pairs: &[T],
    blank: usize,
    next: usize,
    tile: T,
) -> usize {
    let zero = T::default();
    let mut changed = [(blank, tile), (next, zero)];
    if next > blank {
        changed.swap(0, 1);
    }
    let start = out.len();
    let mut k = 0;
    let put = |out: &mut Vec<T>, (c, t): (usize, T)| {
        if root[c] != t {
            out.push(T::from_index(c));
            out.push(t);
        }
    };
    for p in pairs.chunks_exact(2) {
        let c: usize = p[0].into();
        while k < 2 && changed[k].0 > c {
            put(out, changed[k]);
            k += 1;
        }
        if c != blank && c != next {
            out.extend_from_slice(p);
        }
    }
    for &ch in &changed[k..] {
        put(out, ch);
    }
    (out.len() - start) / 2
}

/// The layer order on pair lists: the first cell from the top where the positions differ
/// decides (see the module documentation).
#[inline]
fn cmp_pairs<T: TileInt>(root: &[T], a: &[T], b: &[T]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (ca, cb) = (a[i], b[j]);
        if ca == cb {
            if a[i + 1] != b[j + 1] {
                return a[i + 1].cmp(&b[j + 1]);
            }
            i += 2;
            j += 2;
        } else if ca > cb {
            return a[i + 1].cmp(&root[ca.into()]);
        } else {
            return root[cb.into()].cmp(&b[j + 1]);
        }
    }
    if i < a.len() {
        a[i + 1].cmp(&root[a[i].into()])
    } else if j < b.len() {
        root[b[j].into()].cmp(&b[j + 1])
    } else {
        Ordering::Equal
    }
}

/// The layer order: by the blank's cell, then by the tiles from the last cell down.
#[inline]
fn order<T: TileInt>(root: &[T], a: State<'_, T>, b: State<'_, T>) -> Ordering {
    a.blank
        .cmp(&b.blank)
        .then_with(|| cmp_pairs(root, a.pairs, b.pairs))
}

/// Whether `layer` holds the state with `blank` and `pairs`.
fn holds<T: TileInt>(root: &[T], layer: &Layer<T>, blank: usize, pairs: &[T]) -> bool {
    let probe = State {
        blank,
        came_from: blank,
        pairs,
    };
    layer
        .index
        .binary_search_by(|&e| order(root, layer.get(e), probe))
        .is_ok()
}

/// Runs BFS from `start` on a board of more than 64 cells (see the module documentation).
pub(crate) fn run<C: Capacity>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    let cells = geometry.cells;
    let root = &start.as_ref()[..cells];
    let goal_tiles = geometry.goal_tiles();
    let goal = &goal_tiles.as_ref()[..cells];
    if root == goal {
        return solved_at_root();
    }
    let goal_blank = geometry.blank_of(&goal_tiles);
    let (goal_pairs, goal_neighbours) = goal_lists(geometry, root, goal, goal_blank);
    let store = SparseLayers {
        geometry,
        root,
        root_blank: geometry.blank_of(start),
        goal_blank,
        goal_pairs,
        goal_neighbours,
    };
    layered(&store, limits)
}

/// Layers of states kept as their differences from the root.
struct SparseLayers<'a, C: Capacity> {
    geometry: &'a Geometry<C>,
    root: &'a [C::Tile],
    root_blank: usize,
    goal_blank: usize,
    goal_pairs: Vec<C::Tile>,
    /// The goal's neighbours: blank cell and pair list.
    goal_neighbours: Vec<(usize, Vec<C::Tile>)>,
}

/// The goal's producer: blank, came-from cell and pair list.
type Producer<T> = (usize, usize, Vec<T>);

impl<C: Capacity> LayerStore<C> for SparseLayers<'_, C> {
    type Layer = Layer<C::Tile>;
    type Found = Producer<C::Tile>;
    /// Successors, and a bound on the arena they take.
    type Sizes = (usize, usize);

    fn geometry(&self) -> &Geometry<C> {
        self.geometry
    }

    fn root_layer(&self) -> Layer<C::Tile> {
        let mut first = Layer::default();
        first.push(State {
            blank: self.root_blank,
            came_from: self.root_blank,
            pairs: &[],
        });
        first
    }

    #[inline]
    fn len(layer: &Layer<C::Tile>) -> usize {
        layer.index.len()
    }

    fn bytes(layer: &Layer<C::Tile>) -> u64 {
        layer.bytes()
    }

    #[inline]
    fn cells(layer: &Layer<C::Tile>, i: usize) -> (usize, usize) {
        let s = layer.get(layer.index[i]);
        (s.blank, s.came_from)
    }

    fn holds_goal_neighbour(&self, layer: &Layer<C::Tile>) -> bool {
        self.goal_neighbours
            .iter()
            .any(|(n, pairs)| holds(self.root, layer, *n, pairs))
    }

    fn sizes(&self, layer: &Layer<C::Tile>) -> ((usize, usize), u64) {
        let (total, bound) = successors_size(self.geometry, self.root_blank, layer);
        // The successors (index and arena) and the next layer, at most as large.
        let bytes = 2 * (total * 8 + bound * size_of::<C::Tile>()) as u64;
        ((total, bound), bytes)
    }

    fn reserve(out: &mut Layer<C::Tile>, (total, bound): (usize, usize)) {
        out.index.reserve_exact(total);
        out.arena.reserve_exact(bound);
    }

    #[inline]
    fn child(
        &self,
        layer: &Layer<C::Tile>,
        i: usize,
        b: usize,
        n: usize,
        out: &mut Layer<C::Tile>,
        keep: bool,
    ) -> bool {
        let s = layer.get(layer.index[i]);
        let off = out.arena.len();
        out.arena.push(C::Tile::from_index(n));
        out.arena.push(C::Tile::from_index(b));
        let tile = tile_at(self.root, s.pairs, n);
        let len = push_successor(&mut out.arena, self.root, s.pairs, b, n, tile);
        if n == self.goal_blank && out.arena[off + 2..] == self.goal_pairs[..] {
            out.arena.truncate(off);
            return true;
        }
        if keep {
            out.index.push((off as u64) << LEN_BITS | len as u64);
        } else {
            out.arena.truncate(off);
        }
        false
    }

    fn found(layer: &Layer<C::Tile>, i: usize) -> Producer<C::Tile> {
        let s = layer.get(layer.index[i]);
        (s.blank, s.came_from, s.pairs.to_vec())
    }

    fn next_layer(
        &self,
        out: &mut Layer<C::Tile>,
        previous: Option<&Layer<C::Tile>>,
    ) -> Layer<C::Tile> {
        new_states(self.root, out, previous)
    }

    fn path_back(&self, layers: &[Layer<C::Tile>], found: Producer<C::Tile>) -> Vec<Move> {
        let (blank, came_from, pairs) = found;
        let producer = State {
            blank,
            came_from,
            pairs: &pairs,
        };
        path_back(self.geometry, self.root, layers, producer, self.goal_blank)
    }
}

/// The goal's pair list, and its neighbours' with their blanks (for the test of a layer that
/// holds one).
#[allow(clippy::type_complexity)]
fn goal_lists<C: Capacity>(
    geometry: &Geometry<C>,
    root: &[C::Tile],
    goal: &[C::Tile],
    goal_blank: usize,
) -> (Vec<C::Tile>, Vec<(usize, Vec<C::Tile>)>) {
    let goal_pairs: Vec<C::Tile> = (0..root.len())
        .rev()
        .filter(|&c| goal[c] != root[c])
        .flat_map(|c| [C::Tile::from_index(c), goal[c]])
        .collect();
    let neighbours = (0..usize::from(geometry.neighbour_count[goal_blank]))
        .map(|k| {
            let n: usize = geometry.neighbours[goal_blank][k].into();
            let mut pairs = Vec::new();
            let tile = tile_at(root, &goal_pairs, n);
            push_successor(&mut pairs, root, &goal_pairs, goal_blank, n, tile);
            (n, pairs)
        })
        .collect();
    (goal_pairs, neighbours)
}

/// How many successors `layer` produces, and a bound on the arena they take: a successor
/// lists at most one pair more than its parent, two when the parent's blank is on the root's
/// blank cell (which its list does not hold), plus the two header tiles.
fn successors_size<C: Capacity>(
    geometry: &Geometry<C>,
    root_blank: usize,
    layer: &Layer<C::Tile>,
) -> (usize, usize) {
    let (mut total, mut bound) = (0, 0);
    for &e in &layer.index {
        let s = layer.get(e);
        let children =
            usize::from(geometry.neighbour_count[s.blank]) - usize::from(s.came_from != s.blank);
        let len = s.pairs.len() / 2 + 1 + usize::from(s.blank == root_blank);
        total += children;
        bound += children * (2 + 2 * len);
    }
    (total, bound)
}

/// The next layer from the successors `out`: sorted in the layer order (ties in the order
/// produced), repeats dropped (the first kept) and the states of the `previous` layer
/// subtracted in one merge, then copied into a layer of their own. Empties `out`.
fn new_states<T: TileInt>(root: &[T], out: &mut Layer<T>, previous: Option<&Layer<T>>) -> Layer<T> {
    let Layer { index, arena } = out;
    let get = |e: u64| state(arena, e);
    // The offset (high bits) keeps the order of production among equal states.
    index.sort_unstable_by(|&x, &y| order(root, get(x), get(y)).then(x.cmp(&y)));
    let (mut count, mut size) = (0, 0);
    let mut j = 0;
    let mut last: Option<u64> = None;
    for e in index.iter_mut() {
        let s = get(*e);
        let repeat = last.is_some_and(|l| order(root, get(l), s) == Ordering::Equal);
        last = Some(*e);
        let mut drop = repeat;
        if !repeat && let Some(p) = previous {
            while j < p.index.len() && order(root, p.get(p.index[j]), s) == Ordering::Less {
                j += 1;
            }
            drop = j < p.index.len() && order(root, p.get(p.index[j]), s) == Ordering::Equal;
        }
        if drop {
            *e |= DROPPED;
        } else {
            count += 1;
            size += 2 + s.pairs.len();
        }
    }
    let mut next = Layer {
        index: Vec::with_capacity(count),
        arena: Vec::with_capacity(size),
    };
    for &e in index.iter() {
        if e & DROPPED != DROPPED {
            next.push(get(e));
        }
    }
    *out = Layer::default();
    next
}

/// The moves from the root to the goal, whose producer lies in the last of `layers`: each
/// state's came-from cell gives its predecessor, found in the layer before by binary search.
fn path_back<C: Capacity>(
    geometry: &Geometry<C>,
    root: &[C::Tile],
    layers: &[Layer<C::Tile>],
    producer: State<'_, C::Tile>,
    goal_blank: usize,
) -> Vec<Move> {
    let mut blanks = vec![goal_blank, producer.blank];
    let (mut came_from, mut blank) = (producer.came_from, producer.blank);
    let mut pairs = producer.pairs.to_vec();
    let mut parent = Vec::new();
    for layer in layers.iter().rev().skip(1) {
        parent.clear();
        let tile = tile_at(root, &pairs, came_from);
        push_successor(&mut parent, root, &pairs, blank, came_from, tile);
        let probe = State {
            blank: came_from,
            came_from,
            pairs: &parent,
        };
        let i = layer
            .index
            .partition_point(|&e| order(root, layer.get(e), probe) == Ordering::Less);
        let s = layer.get(layer.index[i]);
        blanks.push(s.blank);
        (blank, came_from) = (s.blank, s.came_from);
        std::mem::swap(&mut pairs, &mut parent);
    }
    blanks.reverse();
    moves_between_blanks(geometry, &blanks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::geometry::Large;

    type C = Large<u8, 128>;

    /// A position `len` random blank moves from `from` (SplitMix-style stream `seed`).
    fn walk(geometry: &Geometry<C>, from: [u8; 128], len: usize, seed: &mut u64) -> [u8; 128] {
        let mut t = from;
        let mut blank = geometry.blank_of(&t);
        for _ in 0..len {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (*seed >> 33) as usize % usize::from(geometry.neighbour_count[blank]);
            let n: usize = geometry.neighbours[blank][k].into();
            t[blank] = t[n];
            t[n] = 0;
            blank = n;
        }
        t
    }

    fn pairs_of(root: &[u8], t: &[u8]) -> Vec<u8> {
        (0..root.len())
            .rev()
            .filter(|&c| t[c] != root[c])
            .flat_map(|c| [c as u8, t[c]])
            .collect()
    }

    /// The order and the successors computed on pair lists equal those of whole positions.
    #[test]
    fn pair_lists_order_and_move_like_positions() {
        let geometry = Geometry::<C>::build(9, 10, Goal::BlankLast);
        let cells = 90;
        let mut seed = 5;
        let root = walk(&geometry, geometry.goal_tiles(), 40, &mut seed);
        let r = &root[..cells];
        let states: Vec<[u8; 128]> = (0..300)
            .map(|i| walk(&geometry, root, i % 25, &mut seed))
            .collect();
        for a in &states {
            let pa = pairs_of(r, &a[..cells]);
            for b in states.iter().step_by(7) {
                let pb = pairs_of(r, &b[..cells]);
                let want = a[..cells].iter().rev().cmp(b[..cells].iter().rev());
                assert_eq!(cmp_pairs(r, &pa, &pb), want);
            }
            let blank = geometry.blank_of(a);
            for k in 0..usize::from(geometry.neighbour_count[blank]) {
                let n: usize = geometry.neighbours[blank][k].into();
                let mut child = *a;
                child[blank] = child[n];
                child[n] = 0;
                let mut got = Vec::new();
                let len = push_successor(&mut got, r, &pa, blank, n, tile_at(r, &pa, n));
                assert_eq!(got, pairs_of(r, &child[..cells]));
                assert_eq!(len, got.len() / 2);
            }
        }
    }

    /// Counts and the path itself equal the packed path's (whole positions) on large boards.
    #[test]
    fn counts_and_paths_equal_the_packed_path() {
        let mut seed = 9;
        for (rows, cols, len) in [(9, 9, 9), (5, 14, 8), (11, 11, 7)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst] {
                let geometry = Geometry::<C>::build(rows, cols, goal);
                let start = walk(&geometry, geometry.goal_tiles(), len, &mut seed);
                let limits = Limits::default();
                let sparse = run(&geometry, &start, &limits);
                let packed = super::super::packed::run::<C, [u8; 128]>(&geometry, &start, &limits);
                assert_eq!(sparse.status, packed.status);
                assert_eq!(sparse.moves, packed.moves, "{rows}x{cols} {goal:?}");
                let (s, p) = (&sparse.stats, &packed.stats);
                assert_eq!(
                    (s.expanded, s.generated, s.stored_peak),
                    (p.expanded, p.generated, p.stored_peak)
                );
            }
        }
    }
}
