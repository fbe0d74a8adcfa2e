//! A* (and, with the zero heuristic, uniform-cost search) on packed states.
//!
//! - Every distinct state ever generated is one [`Node`] in a vector: packed state, parent
//!   index, g and h. The hash table holds only `u32` indices into that vector (hashing the
//!   node's state), so a stored node costs its `Node` plus about five bytes of table.
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

use crate::geometry::{Capacity, Geometry, Tiles};
use crate::heuristic::{Built, Heuristic, LargeBuilt};
use crate::{with_heuristic, with_large_heuristic, with_packed};

use super::packed::Packed;
use super::{Budget, Limits, MAX_STORED_DEPTH, RawOutcome, SearchStats, Status, trace_back};

/// One stored state: for the 4 x 4, 16 bytes.
#[derive(Clone, Copy)]
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

/// The index of a move in Korf's order (up, left, right, down).
#[inline]
fn korf_index(m: Move) -> usize {
    match m {
        Move::Up => 0,
        Move::Left => 1,
        Move::Right => 2,
        Move::Down => 3,
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
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl OpenList for HeapQueue {
    const ENTRY_BYTES: u64 = 16;
    #[inline]
    fn push(&mut self, key: usize, g: usize, idx: u32) {
        let packed = ((key as u64) << 16) | (0xFFFF - g as u64);
        self.heap.push(Reverse((packed, idx)));
    }
    #[inline]
    fn pop(&mut self) -> Option<(usize, u32)> {
        self.heap
            .pop()
            .map(|Reverse((packed, idx))| ((0xFFFF - (packed & 0xFFFF)) as usize, idx))
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
/// A* (uniform-cost search with `Built::Zero`), weighted A* or greedy.
pub(crate) fn run(
    geometry: &Geometry,
    start: &Tiles,
    built: &Built,
    limits: &Limits,
    priority: Priority,
) -> RawOutcome {
    with_packed!(geometry.cells, P => with_heuristic!(built, h => {
        let big = rebuilds_memo::<crate::geometry::Small, _>(h);
        match (priority == Priority::Astar, big) {
            (true, false) => run_with::<_, P, _, BucketQueue, Stored<_>>(geometry, start, h, limits, priority),
            (true, true) => run_with::<_, P, _, BucketQueue, Rebuilt>(geometry, start, h, limits, priority),
            (false, false) => run_with::<_, P, _, HeapQueue, Stored<_>>(geometry, start, h, limits, priority),
            (false, true) => run_with::<_, P, _, HeapQueue, Rebuilt>(geometry, start, h, limits, priority),
        }
    }))
}

/// [`run`] on a board of more than 64 cells (capacity `C`), whose positions are stored as
/// they are.
pub(crate) fn run_large<C: Capacity>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    built: &LargeBuilt<C>,
    limits: &Limits,
    priority: Priority,
) -> RawOutcome
where
    C::Tiles: Packed<C>,
{
    with_large_heuristic!(built, h => {
        let big = rebuilds_memo::<C, _>(h);
        match (priority == Priority::Astar, big) {
            (true, false) => run_with::<C, C::Tiles, _, BucketQueue, Stored<_>>(geometry, start, h, limits, priority),
            (true, true) => run_with::<C, C::Tiles, _, BucketQueue, Rebuilt>(geometry, start, h, limits, priority),
            (false, false) => run_with::<C, C::Tiles, _, HeapQueue, Stored<_>>(geometry, start, h, limits, priority),
            (false, true) => run_with::<C, C::Tiles, _, HeapQueue, Rebuilt>(geometry, start, h, limits, priority),
        }
    })
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
fn rebuilds_memo<C: Capacity, H: Heuristic<C>>(_: &H) -> bool {
    size_of::<H::Memo>() > MAX_STORED_MEMO && H::READS_TILES
}

fn run_with<C: Capacity, P: Packed<C>, H: Heuristic<C>, Q: OpenList, S: MemoStore<C, H>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    heuristic: &H,
    limits: &Limits,
    priority: Priority,
) -> RawOutcome {
    let cells = geometry.cells;
    let mut budget = Budget::new(limits);
    let mut nodes: Vec<Node<P, S>> = Vec::with_capacity(budget.initial_capacity());
    let mut table: HashTable<u32> = HashTable::with_capacity(budget.initial_capacity());
    let mut open = Q::default();
    let mut stats = SearchStats::default();

    let (h0, memo0) = heuristic.init(start);
    let root = P::pack(start, cells);
    nodes.push(Node {
        state: root,
        parent: u32::MAX,
        g_arrival: 0,
        h: h0 as u16,
        memo: S::keep(memo0),
    });
    table.insert_unique(root.hash64(), 0, |&i| nodes[i as usize].state.hash64());
    open.push(priority.key(0, h0), 0, 0);
    stats.generated = 1;

    let node_bytes = size_of::<Node<P, S>>() as u64;
    let memory = |nodes: &Vec<Node<P, S>>, table: &HashTable<u32>, open: &Q| {
        nodes.capacity() as u64 * node_bytes
            + table.capacity() as u64 * 8 / 7 * (size_of::<u32>() as u64 + 1)
            + open.len() as u64 * Q::ENTRY_BYTES
    };

    let mut status = None;
    let mut goal_index = None;
    'search: while let Some((g, idx)) = open.pop() {
        let node = nodes[idx as usize];
        if node.g() != g || node.h & CLOSED != 0 {
            continue; // a stale entry: reached more cheaply since, or already expanded
        }
        nodes[idx as usize].h |= CLOSED;
        let h = u32::from(node.h);
        if h == 0 && geometry.is_goal(&node.state.unpack(cells)) {
            goal_index = Some(idx);
            status = Some(Status::Solved);
            break;
        }
        // Only heuristics that read the whole position need it unpacked.
        let mut tiles = if H::READS_TILES {
            node.state.unpack(cells)
        } else {
            C::zero_tiles()
        };
        stats.expanded += 1;
        let memo = node.memo.memo(heuristic, &tiles);
        let blank = node.state.blank(cells);
        let child_g = g + 1;
        if child_g > MAX_STORED_DEPTH {
            status = Some(Status::DepthLimit); // deeper than any stored g can say
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
            let tile = node.state.tile(next);
            if H::READS_TILES {
                tiles[blank] = tile;
                tiles[next] = C::Tile::default();
            }
            let state = node.state.moved(next, blank, tile);
            let hash = state.hash64();
            // Growing the node vector or the table is where memory jumps: check the budget
            // before either can happen (one probe below both finds and inserts).
            if nodes.len() == nodes.capacity() || table.len() == table.capacity() {
                let grown = memory(&nodes, &table, &open)
                    + nodes.capacity() as u64 * node_bytes
                    + table.capacity() as u64 * 8 / 7 * 5;
                if !budget.memory_allows(grown) {
                    status = Some(Status::MemoryLimit);
                    break 'search;
                }
            }
            let fresh = nodes.len() as u32;
            match table.entry(
                hash,
                |&i| nodes[i as usize].state == state,
                |&j| nodes[j as usize].state.hash64(),
            ) {
                Entry::Occupied(entry) => {
                    // A better path to a queued node: requeue it. A closed node is not
                    // reopened (with a consistent heuristic A* never needs to; weighted
                    // A* keeps its W bound without reopening).
                    let i = *entry.get();
                    let old = &mut nodes[i as usize];
                    if old.g() > child_g && old.h & CLOSED == 0 {
                        old.g_arrival = g_arrival(child_g, mv);
                        old.parent = idx;
                        open.push(priority.key(child_g, old.h.into()), child_g, i);
                    }
                }
                Entry::Vacant(entry) => {
                    entry.insert(fresh);
                    let (h, memo) = heuristic.update(&tiles, tile, next, blank, h, memo);
                    nodes.push(Node {
                        state,
                        parent: idx,
                        g_arrival: g_arrival(child_g, mv),
                        h: h as u16,
                        memo: S::keep(memo),
                    });
                    open.push(priority.key(child_g, h), child_g, fresh);
                }
            }
            if H::READS_TILES {
                tiles[next] = tile;
                tiles[blank] = C::Tile::default();
            }
        }
    }
    stats.stored_peak = nodes.len() as u64;
    stats.memory_bytes = memory(&nodes, &table, &open);
    let status = status.unwrap_or(Status::NodeLimit);
    let moves = goal_index.map(|i| {
        trace_back(geometry, i, |j| {
            let n = &nodes[j as usize];
            (n.state, n.parent)
        })
    });
    RawOutcome {
        status,
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}
