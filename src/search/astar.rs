//! A* (and, with the zero heuristic, uniform-cost search) on packed states.
//!
//! - Every distinct state ever generated is one [`Node`] in an array of fixed-size chunks
//!   ([`Chunked`]: no copy of the whole array as it grows): its state (packed up to 25 cells,
//!   a 32-bit hash beyond, the position replayed from the root), parent index, g and h. The
//!   hash table holds only `u32` indices into that array (hashing the node's state), so a
//!   stored node costs its `Node` plus about five to ten bytes of table.
//! - The open list is a bucket queue on integer f, then g: the lowest f is taken first and ties
//!   go to the larger g (deeper nodes, closer to a goal), last in first out within a bucket.
//!   A node whose g improves is pushed again and its stale entry skipped when popped.
//! - The goal test happens when a node is taken off the open list (expanded), which is what
//!   makes the result optimal with an admissible heuristic.
//! - As in IDA*, the move straight back to the parent is not generated (it can only lead to a
//!   state already stored with a smaller g); the arriving move is kept in two spare bits of g.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::mem::size_of;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use crate::board::Move;

use crate::geometry::{Capacity, Geometry};
use crate::heuristic::{Built, Heuristic};
use crate::with_heuristic;

use super::storage::chunked::Chunked;
use super::storage::implicit::{self, Links, Replay, korf_index};
use super::storage::packed::Packed;
use super::storage::{IMPLICIT_ABOVE, PackedJob, Storage, StoredJob};
use super::{Budget, Limits, MAX_STORED_DEPTH, Outcome, RawOutcome, SearchStats};

/// One stored state: for the 4 x 4, 16 bytes. Aligned to at most 8 bytes, so that a `u128`
/// state (up to 25 cells) takes 24 bytes, not 32.
#[repr(C, packed(8))]
struct Node<P, M> {
    state: P,
    parent: u32,
    /// g in the low 14 bits; the top 2 bits hold the index (in Korf's order) of the move that
    /// reached this node, so that expansion can skip the move straight back to the parent
    /// without touching the parent's node.
    g_arrival: u16,
    h: u16,
    memo: M,
}

impl<P: Copy, M: Copy> Clone for Node<P, M> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Copy, M: Copy> Copy for Node<P, M> {}

impl<P, M> Node<P, M> {
    #[inline]
    fn g(&self) -> usize {
        usize::from(self.g_arrival & 0x3FFF)
    }

    #[inline]
    fn arrival(&self) -> usize {
        usize::from(self.g_arrival >> 14)
    }
}

/// Packs g and the arriving move's index into [`Node::g_arrival`].
#[inline]
fn g_arrival(g: usize, arrival: Move) -> u16 {
    (g as u16 & 0x3FFF) | ((korf_index(arrival) as u16) << 14)
}

/// The index (in Korf's order) of the move that undoes the move of index `k`.
#[inline]
fn inverse_index(k: usize) -> usize {
    3 - k
}

/// What orders the open list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Priority {
    /// f = g + h (A*; uniform-cost search with the zero heuristic).
    Astar,
    /// f = g + W h, W in hundredths (weighted A*).
    Weighted(u32),
    /// f = h (greedy best-first).
    Greedy,
}

impl Priority {
    /// The key a node is queued under (smaller first).
    #[inline]
    fn key(self, g: usize, h: u32) -> usize {
        match self {
            Priority::Astar => g + h as usize,
            Priority::Weighted(w) => 100 * g + w as usize * h as usize,
            Priority::Greedy => h as usize,
        }
    }
}

/// An open list: smallest key first, ties to the larger g.
pub(crate) trait OpenList: Default {
    /// Queues node `idx` with its key and g.
    fn push(&mut self, key: usize, g: usize, idx: u32);
    /// Takes an entry of smallest key, largest g: `(g, idx)`.
    fn pop(&mut self) -> Option<(usize, u32)>;
    /// Entries waiting.
    fn len(&self) -> usize;
    /// Bytes an entry takes.
    const ENTRY_BYTES: u64;
}

/// A binary heap for keys that are not small integers (weighted A*, greedy).
#[derive(Default)]
pub(crate) struct HeapQueue {
    heap: BinaryHeap<Reverse<HeapEntry>>,
}

/// A heap entry, ordered as `(key << 16 | (0xFFFF - g), idx)`: 12 bytes (a `(u64, u32)`
/// would take 16).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct HeapEntry {
    /// The high and low halves of `key << 16 | (0xFFFF - g)`.
    high: u32,
    low: u32,
    idx: u32,
}

/// Once the heap holds this many entries it grows by a quarter at a time instead of doubling
/// (its old and new blocks are both counted while it moves).
const HEAP_STEP_FROM: usize = 1 << 14;

impl OpenList for HeapQueue {
    const ENTRY_BYTES: u64 = size_of::<HeapEntry>() as u64;
    #[inline]
    fn push(&mut self, key: usize, g: usize, idx: u32) {
        let packed = ((key as u64) << 16) | (0xFFFF - g as u64);
        let len = self.heap.len();
        if len == self.heap.capacity() && len >= HEAP_STEP_FROM {
            self.heap.reserve_exact(len / 4);
        }
        self.heap.push(Reverse(HeapEntry {
            high: (packed >> 32) as u32,
            low: packed as u32,
            idx,
        }));
    }
    #[inline]
    fn pop(&mut self) -> Option<(usize, u32)> {
        self.heap
            .pop()
            .map(|Reverse(e)| ((0xFFFF - (e.low & 0xFFFF)) as usize, e.idx))
    }
    fn len(&self) -> usize {
        self.heap.len()
    }
}

/// Open list: `buckets[f][g]` holds node indices; `top[f]` is an upper bound on the highest
/// non-empty g of row f.
#[derive(Default)]
pub(crate) struct BucketQueue {
    buckets: Vec<Vec<Vec<u32>>>,
    top: Vec<usize>,
    min_f: usize,
    len: usize,
}

impl OpenList for BucketQueue {
    const ENTRY_BYTES: u64 = 4;

    #[inline]
    fn push(&mut self, f: usize, g: usize, idx: u32) {
        if let Some(bucket) = self.buckets.get_mut(f).and_then(|row| row.get_mut(g)) {
            bucket.push(idx);
            self.top[f] = self.top[f].max(g);
            self.min_f = self.min_f.min(f);
            self.len += 1;
            return;
        }
        self.push_growing(f, g, idx);
    }

    fn pop(&mut self) -> Option<(usize, u32)> {
        self.pop_impl()
    }

    fn len(&self) -> usize {
        self.len
    }
}

impl BucketQueue {
    /// The slow path of `push`: a row or bucket that does not exist yet.
    #[cold]
    fn push_growing(&mut self, f: usize, g: usize, idx: u32) {
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
            self.top.resize(f + 1, 0);
        }
        let row = &mut self.buckets[f];
        if row.len() <= g {
            row.resize_with(g + 1, Vec::new);
        }
        row[g].push(idx);
        self.top[f] = self.top[f].max(g);
        self.min_f = self.min_f.min(f);
        self.len += 1;
    }

    fn pop_impl(&mut self) -> Option<(usize, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let f = self.min_f;
            let row = &mut self.buckets[f];
            let mut g = self.top[f];
            loop {
                if let Some(idx) = row.get_mut(g).and_then(Vec::pop) {
                    self.top[f] = g;
                    self.len -= 1;
                    return Some((g, idx));
                }
                if g == 0 {
                    break;
                }
                g -= 1;
            }
            self.top[f] = 0;
            self.min_f += 1;
        }
    }
}

/// Runs best-first search from `start` with the built heuristic, ordered by `priority`:
/// A* (uniform-cost search with `Built::Zero`), weighted A* or greedy; states packed in the
/// node up to 25 cells, implicit beyond (see [`Storage`]).
pub(crate) fn run<C: Storage>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    built: &Built<C>,
    limits: &Limits,
    priority: Priority,
) -> RawOutcome {
    with_heuristic!(C, built, h => C::stored(geometry.cells, Job { geometry, start, h, limits, priority }))
}

/// One best-first search, waiting for its storage (see [`Storage`]).
struct Job<'a, C: Capacity, H> {
    geometry: &'a Geometry<C>,
    start: &'a C::Tiles,
    h: &'a H,
    limits: &'a Limits,
    priority: Priority,
}

impl<C: Storage, H: Heuristic<C>> PackedJob<C> for Job<'_, C, H> {
    type Output = RawOutcome;
    fn run<P: Packed<C>>(self) -> RawOutcome {
        let positions = Explicit::<P>(self.geometry.cells, std::marker::PhantomData);
        let (g, s, l) = (self.geometry, self.start, self.limits);
        run_ordered::<C, Explicit<P>, _>(g, s, self.h, l, self.priority, positions)
    }
}

impl<C: Storage, H: Heuristic<C>> StoredJob<C> for Job<'_, C, H> {
    const PACKED_UP_TO: usize = IMPLICIT_ABOVE;
    fn run_implicit(self) -> RawOutcome {
        let positions = Implicit(Replay::new(self.geometry, self.start));
        let (g, s, l) = (self.geometry, self.start, self.limits);
        run_ordered::<C, Implicit<C>, _>(g, s, self.h, l, self.priority, positions)
    }
}

/// Picks the open list (buckets for integer f, a heap otherwise) and the memo storage.
fn run_ordered<C: Capacity, P: Positions<C>, H: Heuristic<C>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    h: &H,
    limits: &Limits,
    priority: Priority,
    positions: P,
) -> RawOutcome {
    let (g, s, l) = (geometry, start, limits);
    // A constant per heuristic type, tested in an inline `const` so that only the memo store
    // the heuristic uses is compiled (a condition computed at run time would instantiate
    // `run_with` for both).
    if const { rebuilds_memo::<C, H>() } {
        match priority {
            Priority::Astar => {
                run_with::<C, P, _, BucketQueue, Rebuilt>(g, s, h, l, priority, positions)
            }
            _ => run_with::<C, P, _, HeapQueue, Rebuilt>(g, s, h, l, priority, positions),
        }
    } else {
        match priority {
            Priority::Astar => {
                run_with::<C, P, _, BucketQueue, Stored<_>>(g, s, h, l, priority, positions)
            }
            _ => run_with::<C, P, _, HeapQueue, Stored<_>>(g, s, h, l, priority, positions),
        }
    }
}

/// How A* keeps a node's position: packed in the node ([`Explicit`], up to 25 cells), or as
/// a hash, the position replayed from the root when needed ([`Implicit`], beyond).
trait Positions<C: Capacity> {
    /// What a node holds of its position.
    type State: Copy;
    /// Whether expansion needs the position whatever the heuristic (to compare children).
    const NEEDS_TILES: bool;
    /// The root's state.
    fn root(&self, start: &C::Tiles) -> Self::State;
    /// The state's hash.
    fn hash(state: &Self::State) -> u64;
    /// Node `idx`'s position (only when `tiles` or [`Positions::NEEDS_TILES`]; zeros
    /// otherwise) and blank.
    fn open<M>(
        &mut self,
        nodes: &Chunked<Node<Self::State, M>>,
        idx: u32,
        tiles: bool,
    ) -> (C::Tiles, usize);
    /// Whether node `idx` is the goal.
    fn is_goal<M>(
        &mut self,
        nodes: &Chunked<Node<Self::State, M>>,
        idx: u32,
        geometry: &Geometry<C>,
    ) -> bool;
    /// The tile on `cell` of `state`, whose position is `tiles` when it was asked for.
    fn tile(state: &Self::State, tiles: &C::Tiles, cell: usize) -> C::Tile;
    /// The state after `tile` moved from `from` to the blank's cell `to`.
    fn child(state: Self::State, from: usize, to: usize, tile: C::Tile) -> Self::State;
    /// Whether stored node `i` holds `state`, whose position is `tiles` (blank on `blank`)
    /// when [`Positions::NEEDS_TILES`].
    fn same<M>(
        &self,
        nodes: &Chunked<Node<Self::State, M>>,
        i: u32,
        state: &Self::State,
        tiles: &C::Tiles,
        blank: usize,
    ) -> bool;
}

/// Positions packed into the node (`cells` cells).
struct Explicit<P>(usize, std::marker::PhantomData<P>);

impl<C: Capacity, P: Packed<C>> Positions<C> for Explicit<P> {
    type State = P;
    const NEEDS_TILES: bool = false;
    #[inline]
    fn root(&self, start: &C::Tiles) -> P {
        P::pack(start, self.0)
    }
    #[inline]
    fn hash(state: &P) -> u64 {
        state.hash64()
    }
    #[inline]
    fn open<M>(&mut self, nodes: &Chunked<Node<P, M>>, idx: u32, tiles: bool) -> (C::Tiles, usize) {
        let state = nodes[idx as usize].state;
        let t = if tiles {
            state.unpack(self.0)
        } else {
            C::zero_tiles()
        };
        (t, state.blank(self.0))
    }
    #[inline]
    fn is_goal<M>(
        &mut self,
        nodes: &Chunked<Node<P, M>>,
        idx: u32,
        geometry: &Geometry<C>,
    ) -> bool {
        let state = nodes[idx as usize].state;
        geometry.is_goal(&state.unpack(self.0))
    }
    #[inline]
    fn tile(state: &P, _: &C::Tiles, cell: usize) -> C::Tile {
        state.tile(cell)
    }
    #[inline]
    fn child(state: P, from: usize, to: usize, tile: C::Tile) -> P {
        state.moved(from, to, tile)
    }
    #[inline]
    fn same<M>(
        &self,
        nodes: &Chunked<Node<P, M>>,
        i: u32,
        state: &P,
        _: &C::Tiles,
        _: usize,
    ) -> bool {
        let kept = nodes[i as usize].state;
        kept == *state
    }
}

/// Positions kept as their hash and replayed from the root (see [`super::implicit`]).
struct Implicit<C: Capacity>(Replay<C>);

impl<S, M> Links for Chunked<Node<S, M>> {
    #[inline]
    fn link(&self, i: u32) -> (u32, usize) {
        let n = &self[i as usize];
        (n.parent, n.arrival())
    }
}

impl<C: Capacity> Positions<C> for Implicit<C> {
    /// The low 32 bits of the position's hash (see [`implicit::table_hash`]).
    type State = u32;
    const NEEDS_TILES: bool = true;
    #[inline]
    fn root(&self, start: &C::Tiles) -> u32 {
        implicit::hash_of::<C>(start, C::MAX_CELLS) as u32
    }
    #[inline]
    fn hash(state: &u32) -> u64 {
        implicit::table_hash(*state)
    }
    #[inline]
    fn open<M>(&mut self, nodes: &Chunked<Node<u32, M>>, idx: u32, _: bool) -> (C::Tiles, usize) {
        let (tiles, blank) = self.0.seek_any(nodes, idx);
        (*tiles, blank)
    }
    fn is_goal<M>(
        &mut self,
        nodes: &Chunked<Node<u32, M>>,
        idx: u32,
        geometry: &Geometry<C>,
    ) -> bool {
        geometry.is_goal(self.0.seek_any(nodes, idx).0)
    }
    #[inline]
    fn tile(_: &u32, tiles: &C::Tiles, cell: usize) -> C::Tile {
        tiles[cell]
    }
    #[inline]
    fn child(state: u32, from: usize, to: usize, tile: C::Tile) -> u32 {
        implicit::hash_after(u64::from(state), from, to, tile.into()) as u32
    }
    #[inline]
    fn same<M>(
        &self,
        nodes: &Chunked<Node<u32, M>>,
        i: u32,
        state: &u32,
        tiles: &C::Tiles,
        blank: usize,
    ) -> bool {
        nodes[i as usize].state == *state && self.0.holds(nodes, i, *tiles, blank)
    }
}

/// How a node keeps the heuristic's memo: small memos are stored in the node; large ones
/// (pattern databases carry every tile's cell) would multiply the node size, so only `()` is
/// stored and the memo is rebuilt from the position when the node is expanded.
trait MemoStore<C: Capacity, H: Heuristic<C>>: Copy {
    fn keep(memo: H::Memo) -> Self;
    fn memo(self, heuristic: &H, tiles: &C::Tiles) -> H::Memo;
}

/// Stores the memo in the node.
#[derive(Clone, Copy)]
struct Stored<M>(M);

impl<C: Capacity, H: Heuristic<C>> MemoStore<C, H> for Stored<H::Memo> {
    #[inline(always)]
    fn keep(memo: H::Memo) -> Self {
        Stored(memo)
    }
    #[inline(always)]
    fn memo(self, _: &H, _: &C::Tiles) -> H::Memo {
        self.0
    }
}

/// Stores nothing; rebuilds the memo at expansion.
#[derive(Clone, Copy)]
struct Rebuilt;

impl<C: Capacity, H: Heuristic<C>> MemoStore<C, H> for Rebuilt {
    #[inline(always)]
    fn keep(_: H::Memo) -> Self {
        Rebuilt
    }
    #[inline(always)]
    fn memo(self, heuristic: &H, tiles: &C::Tiles) -> H::Memo {
        heuristic.init(tiles).1
    }
}

/// Memos larger than this are rebuilt rather than stored.
const MAX_STORED_MEMO: usize = 8;

/// The closed flag, kept in the top bit of [`Node::h`].
const CLOSED: u16 = 0x8000;

/// Whether `H`'s memo is rebuilt at expansion instead of stored (see [`MemoStore`]); only
/// for heuristics that read the position, which expansion then unpacks anyway.
const fn rebuilds_memo<C: Capacity, H: Heuristic<C>>() -> bool {
    size_of::<H::Memo>() > MAX_STORED_MEMO && H::READS_TILES
}

/// A*'s tables: every node ever generated, the index over them, the open list.
struct Tables<St, S, Q> {
    nodes: Chunked<Node<St, S>>,
    table: HashTable<u32>,
    open: Q,
}

impl<St: Copy, S: Copy, Q: OpenList> Tables<St, S, Q> {
    const NODE_BYTES: u64 = size_of::<Node<St, S>>() as u64;

    /// The bytes the tables hold.
    fn memory(&self) -> u64 {
        self.nodes.capacity() as u64 * Self::NODE_BYTES
            + self.table.capacity() as u64 * 8 / 7 * (size_of::<u32>() as u64 + 1)
            + self.open.len() as u64 * Q::ENTRY_BYTES
    }

    /// Whether one more node fits the memory budget: growing the node vector or the table is
    /// where memory jumps, so the check comes before either can happen.
    #[inline]
    fn room_for_one(&self, budget: &Budget) -> bool {
        let nodes = self.nodes.growth_bytes() as u64;
        if nodes == 0 && self.table.len() < self.table.capacity() {
            return true;
        }
        let grown = self.memory() + nodes + self.table.capacity() as u64 * 8 / 7 * 5;
        budget.memory_allows(grown)
    }
}

/// A child generated by expanding node `parent` (g `g - 1`) with move `mv`, the tile on
/// `from` sliding to the blank's cell `to`.
struct Child<St, T> {
    state: St,
    tile: T,
    parent: u32,
    g: usize,
    mv: Move,
    from: usize,
    to: usize,
}

/// Stores `child` unless it is known; a known, still open node reached more cheaply is
/// re-parented and requeued. `tiles` is the child's position (when `H::READS_TILES` or
/// `P::NEEDS_TILES`), `h` and `memo` its parent's.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn offer<C: Capacity, P: Positions<C>, H: Heuristic<C>, Q: OpenList, S: MemoStore<C, H>>(
    t: &mut Tables<P::State, S, Q>,
    positions: &P,
    heuristic: &H,
    priority: Priority,
    child: Child<P::State, C::Tile>,
    tiles: &C::Tiles,
    h: u32,
    memo: H::Memo,
) {
    let Child {
        state,
        tile,
        parent,
        g,
        mv,
        from,
        to,
    } = child;
    let fresh = t.nodes.len() as u32;
    let nodes = &t.nodes;
    match t.table.entry(
        P::hash(&state),
        |&i| positions.same(nodes, i, &state, tiles, from),
        |&j| {
            let kept = nodes[j as usize].state;
            P::hash(&kept)
        },
    ) {
        Entry::Occupied(entry) => {
            // A better path to a queued node: requeue it. A closed node is not reopened (with
            // a consistent heuristic A* never needs to; weighted A* keeps its W bound without
            // reopening).
            let i = *entry.get();
            let old = &mut t.nodes[i as usize];
            if old.g() > g && old.h & CLOSED == 0 {
                old.g_arrival = g_arrival(g, mv);
                old.parent = parent;
                t.open.push(priority.key(g, old.h.into()), g, i);
            }
        }
        Entry::Vacant(entry) => {
            entry.insert(fresh);
            let (h, memo) = heuristic.update(tiles, tile, from, to, h, memo);
            t.nodes.push(Node {
                state,
                parent,
                g_arrival: g_arrival(g, mv),
                h: h as u16,
                memo: S::keep(memo),
            });
            t.open.push(priority.key(g, h), g, fresh);
        }
    }
}

fn run_with<C: Capacity, P: Positions<C>, H: Heuristic<C>, Q: OpenList, S: MemoStore<C, H>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    heuristic: &H,
    limits: &Limits,
    priority: Priority,
    mut positions: P,
) -> RawOutcome {
    let mut budget = Budget::new(limits);
    let mut t = Tables::<P::State, S, Q> {
        nodes: Chunked::with_capacity(budget.initial_capacity()),
        table: HashTable::with_capacity(budget.initial_capacity()),
        open: Q::default(),
    };
    let mut stats = SearchStats::default();

    let (h0, memo0) = heuristic.init(start);
    let root = positions.root(start);
    t.nodes.push(Node {
        state: root,
        parent: u32::MAX,
        g_arrival: 0,
        h: h0 as u16,
        memo: S::keep(memo0),
    });
    let nodes = &t.nodes;
    t.table.insert_unique(P::hash(&root), 0, |&i| {
        let kept = nodes[i as usize].state;
        P::hash(&kept)
    });
    t.open.push(priority.key(0, h0), 0, 0);
    stats.generated = 1;

    let reads = H::READS_TILES || P::NEEDS_TILES;
    let mut status = None;
    let mut goal_index = None;
    'search: while let Some((g, idx)) = t.open.pop() {
        let node = t.nodes[idx as usize];
        if node.g() != g || node.h & CLOSED != 0 {
            continue; // a stale entry: reached more cheaply since, or already expanded
        }
        t.nodes[idx as usize].h |= CLOSED;
        let h = u32::from(node.h);
        if h == 0 && positions.is_goal(&t.nodes, idx, geometry) {
            goal_index = Some(idx);
            status = Some(Outcome::Solved);
            break;
        }
        // Only heuristics that read the whole position need it unpacked.
        let (mut tiles, blank) = positions.open(&t.nodes, idx, H::READS_TILES);
        stats.expanded += 1;
        let memo = node.memo.memo(heuristic, &tiles);
        let child_g = g + 1;
        if child_g > MAX_STORED_DEPTH {
            status = Some(Outcome::DepthLimit); // deeper than any stored g can say
            break;
        }
        let back = (node.parent != u32::MAX).then(|| inverse_index(node.arrival()));
        for k in 0..usize::from(geometry.neighbour_count[blank]) {
            let mv = geometry.neighbour_move[blank][k];
            if Some(korf_index(mv)) == back {
                continue;
            }
            let next = geometry.neighbours[blank][k].into();
            stats.generated += 1;
            if stats.generated >= budget.next_check
                && let Some(s) = budget.check(stats.generated)
            {
                status = Some(s);
                break 'search;
            }
            let tile = P::tile(&{ node.state }, &tiles, next);
            if reads {
                tiles[blank] = tile;
                tiles[next] = C::Tile::default();
            }
            if !t.room_for_one(&budget) {
                status = Some(Outcome::MemoryLimit);
                break 'search;
            }
            let child = Child {
                state: P::child(node.state, next, blank, tile),
                tile,
                parent: idx,
                g: child_g,
                mv,
                from: next,
                to: blank,
            };
            offer(
                &mut t, &positions, heuristic, priority, child, &tiles, h, memo,
            );
            if reads {
                tiles[next] = tile;
                tiles[blank] = C::Tile::default();
            }
        }
    }
    stats.stored_peak = t.nodes.len() as u64;
    stats.memory_bytes = t.memory();
    let moves = goal_index.map(|i| implicit::moves_to(&t.nodes, i));
    RawOutcome {
        status: status.unwrap_or(Outcome::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::geometry::{Small, Tiles};
    use crate::heuristic::{Manhattan, Zero};
    use crate::search::packed::Wide;
    use crate::search::storage::implicit::hash_of;
    use crate::search::storage::testing::{layers, walk};

    /// What must not depend on how a state is stored.
    fn summary(r: &RawOutcome) -> (Outcome, Option<Vec<Move>>, u64, u64, u64) {
        let s = &r.stats;
        (
            r.status,
            r.moves.clone(),
            s.expanded,
            s.generated,
            s.stored_peak,
        )
    }

    /// The same search with states packed as `P` (the oracle: states compared whole) and
    /// implicit (hash, parent and move, replayed).
    fn both<P: Packed, H: Heuristic>(
        geometry: &Geometry,
        start: &Tiles,
        h: &H,
        priority: Priority,
        max_nodes: Option<u64>,
    ) -> (RawOutcome, RawOutcome) {
        let limits = Limits {
            max_nodes,
            ..Limits::default()
        };
        let job = || Job {
            geometry,
            start,
            h,
            limits: &limits,
            priority,
        };
        (job().run::<P>(), job().run_implicit())
    }

    /// A*, weighted A* and greedy on 26-64 cells (implicit there) store, expand and answer
    /// node for node what the packed nodes do, past several chunks of nodes (solved, or
    /// stopped by the node limit in the same place).
    #[test]
    fn implicit_nodes_agree_with_packed_ones_node_for_node() {
        fn check<P: Packed>(rows: usize, cols: usize, moves: usize) {
            let geometry = Geometry::new(rows, cols, Goal::BlankLast);
            let h = Manhattan::new(&geometry);
            let mut most = 0;
            for seed in 1..=3 {
                let start = walk(&geometry, moves, seed);
                for priority in [Priority::Astar, Priority::Weighted(150), Priority::Greedy] {
                    let (packed, implicit) =
                        both::<P, _>(&geometry, &start, &h, priority, Some(400_000));
                    assert_eq!(
                        summary(&implicit),
                        summary(&packed),
                        "{rows}x{cols} {priority:?}"
                    );
                    most = most.max(packed.stats.stored_peak);
                }
            }
            assert!(
                most > 2 * crate::search::storage::chunked::CHUNK as u64,
                "{rows}x{cols}: {most}"
            );
        }
        check::<Wide<5>>(6, 6, 80);
        check::<Wide<7>>(7, 7, 80);
        check::<Wide<8>>(8, 8, 200);
    }

    /// Two distinct positions whose kept 32-bit hashes are equal, both stored by one
    /// uniform-cost search: the implicit store must keep them apart (the stored and expanded
    /// counts of packed nodes, and a path as long as an exact BFS says).
    #[test]
    fn a_hash_collision_is_told_apart() {
        let geometry = Geometry::new(6, 6, Goal::BlankLast);
        let distance = 14;
        let start = layers(&geometry, &geometry.goal_tiles(), distance)[distance][0];
        // Every position within `distance` of the start is stored before the goal is taken.
        let ball: Vec<Tiles> = layers(&geometry, &start, distance).concat();
        let mut kept: Vec<(u32, usize)> = ball
            .iter()
            .enumerate()
            .map(|(i, t)| (hash_of::<Small>(t, 36) as u32, i))
            .collect();
        kept.sort_unstable();
        let collisions = kept
            .windows(2)
            .filter(|w| w[0].0 == w[1].0 && ball[w[0].1] != ball[w[1].1])
            .count();
        assert!(
            collisions > 0,
            "no collision among {} positions",
            ball.len()
        );
        let (packed, implicit) =
            both::<Wide<5>, _>(&geometry, &start, &Zero, Priority::Astar, None);
        assert!(packed.stats.stored_peak >= ball.len() as u64);
        assert_eq!(summary(&implicit), summary(&packed));
        // The start was taken from the BFS layer at `distance` from the goal.
        assert_eq!(implicit.moves.map(|m| m.len()), Some(distance));
    }
}
