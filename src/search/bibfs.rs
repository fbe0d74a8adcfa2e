//! Bidirectional breadth-first search: one BFS from the start, one from the goal, each
//! expanding a whole layer at a time (the smaller frontier first), until they meet.
//!
//! Optimality: when a layer of side A produces states already reached by side B, every
//! meeting in that layer is checked and the shortest taken; a shorter path would have met in
//! an earlier layer. A distance-d board costs about two searches of depth d/2 instead of one
//! of depth d, which for the 15-puzzle is thousands of times fewer nodes than plain BFS.
//!
//! One loop, two ways for a side to store its states ([`Side`]): packed into the node up to 25
//! cells ([`Packed`]), or implicitly beyond (an 8-byte node: hash, parent and arriving move;
//! the position replayed from the side's root, see [`super::implicit`]). Implicit nodes are
//! kept in fixed-size chunks ([`Chunked`]), so a side never holds two copies of them; packed
//! ones (4 x 4, 5 x 5) in a `Vec`, whose one indexing load keeps the 4 x 4 search as fast as it
//! was (chunks measured 4-9% slower there).

use std::marker::PhantomData;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use crate::board::Move;
use crate::geometry::{Capacity, Geometry, TileInt};

use super::storage::chunked::Chunked;
use super::storage::implicit::{self, Links, Replay};
use super::storage::packed::Packed;
use super::storage::{IMPLICIT_ABOVE, PackedJob, Storage, StoredJob};
use super::{Budget, Limits, Outcome, RawOutcome, SearchStats, trace_back};

/// One direction's search: its nodes (in BFS order), their index, where its current layer
/// starts; generic over how a node keeps its position.
trait Side<C: Capacity>: Sized {
    /// A generated child, as the lookups on both sides see it.
    type Child: Copy;
    /// A side searching from `root`.
    fn new(geometry: &Geometry<C>, root: &C::Tiles, capacity: usize) -> Self;
    /// Nodes stored.
    fn len(&self) -> usize;
    /// The bytes the next insertion may allocate: a chunk of nodes or a new table (held
    /// beside the old one while it fills); 0 when it has room.
    fn growth(&self) -> u64;
    /// Bytes held.
    fn bytes(&self) -> u64;
    /// Prepares node `idx`, `depth` moves from the root, for expansion: its blank and the
    /// cell its blank came from (its own blank at the root).
    fn open(&mut self, idx: usize, depth: usize) -> (usize, usize);
    /// The opened node's child where the tile on `next` slides to the blank's cell `blank`
    /// (the blank moving by `mv`).
    fn child(&self, next: usize, blank: usize, mv: Move) -> Self::Child;
    /// The opened node's position, for lookups of its children in the other side.
    fn position(&self) -> &C::Tiles;
    /// Stores `child` of the opened node `parent` unless known: its index.
    fn insert(&mut self, child: &Self::Child, parent: u32) -> Option<u32>;
    /// The index of `child` (of a node whose position is `at`) if this side holds it.
    fn find(&self, child: &Self::Child, at: &C::Tiles) -> Option<u32>;
    /// Node `i`'s parent (`u32::MAX` at the root).
    fn parent(&self, i: u32) -> u32;
    /// The moves from the root to node `i`.
    fn moves_to(&self, geometry: &Geometry<C>, i: u32) -> Vec<Move>;

    /// The depth of node `i` (its distance from the root).
    fn depth(&self, mut i: u32) -> usize {
        let mut d = 0;
        while self.parent(i) != u32::MAX {
            i = self.parent(i);
            d += 1;
        }
        d
    }
}

/// [`Side::growth`]: `nodes`, the bytes the node store allocates next, and the table's.
fn growth(nodes: usize, table: &HashTable<u32>) -> u64 {
    let table = if table.len() == table.capacity() {
        table.capacity() as u64 * 8 / 7 * 5 * 2
    } else {
        0
    };
    nodes as u64 + table
}

/// A node holding its packed position. Aligned to at most 8 bytes, so that a `u128` state (up
/// to 25 cells) takes 24 bytes, not 32.
#[repr(C, packed(8))]
struct PackedNode<P, T> {
    state: P,
    parent: u32,
    /// The cell the blank left to reach this node (at a root its own blank cell, which no
    /// move reaches).
    came_from: T,
}

impl<P: Copy, T: Copy> Clone for PackedNode<P, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Copy, T: Copy> Copy for PackedNode<P, T> {}

/// A side of packed nodes (`P` a packing of capacity `C`).
struct PackedSide<C: Capacity, P> {
    nodes: Vec<PackedNode<P, C::Tile>>,
    table: HashTable<u32>,
    cells: usize,
    /// The node being expanded.
    current: P,
    zero: C::Tiles,
    _capacity: PhantomData<C>,
}

impl<C: Capacity, P: Packed<C>> Side<C> for PackedSide<C, P> {
    type Child = PackedChild<P>;

    fn new(geometry: &Geometry<C>, root: &C::Tiles, capacity: usize) -> Self {
        let cells = geometry.cells;
        let root = P::pack(root, cells);
        let mut side = PackedSide {
            nodes: Vec::with_capacity(capacity),
            table: HashTable::with_capacity(capacity),
            cells,
            current: root,
            zero: C::zero_tiles(),
            _capacity: PhantomData,
        };
        side.nodes.push(PackedNode {
            state: root,
            parent: u32::MAX,
            came_from: C::Tile::from_index(root.blank(cells)),
        });
        let nodes = &side.nodes;
        side.table
            .insert_unique(root.hash64(), 0, |&i| { nodes[i as usize].state }.hash64());
        side
    }
    fn len(&self) -> usize {
        self.nodes.len()
    }
    fn growth(&self) -> u64 {
        let nodes = if self.nodes.len() == self.nodes.capacity() {
            2 * self.nodes.capacity() * size_of::<PackedNode<P, C::Tile>>()
        } else {
            0
        };
        growth(nodes, &self.table)
    }
    fn bytes(&self) -> u64 {
        (self.nodes.capacity() * size_of::<PackedNode<P, C::Tile>>()) as u64
            + self.table.capacity() as u64 * 8 / 7 * 5
    }
    #[inline]
    fn open(&mut self, idx: usize, _: usize) -> (usize, usize) {
        let node = self.nodes[idx];
        self.current = node.state;
        let came_from = node.came_from;
        (self.current.blank(self.cells), came_from.into())
    }
    #[inline]
    fn child(&self, next: usize, blank: usize, _: Move) -> PackedChild<P> {
        let state = self.current.moved(next, blank, self.current.tile(next));
        PackedChild {
            state,
            hash: state.hash64(),
            blank,
        }
    }
    fn position(&self) -> &C::Tiles {
        &self.zero
    }
    #[inline]
    fn insert(&mut self, child: &PackedChild<P>, parent: u32) -> Option<u32> {
        let PackedChild { state, hash, blank } = *child;
        let fresh = self.nodes.len() as u32;
        let nodes = &self.nodes;
        match self.table.entry(
            hash,
            |&i| { nodes[i as usize].state } == state,
            |&j| { nodes[j as usize].state }.hash64(),
        ) {
            Entry::Occupied(_) => return None,
            Entry::Vacant(v) => {
                v.insert(fresh);
            }
        }
        self.nodes.push(PackedNode {
            state,
            parent,
            came_from: C::Tile::from_index(blank),
        });
        Some(fresh)
    }
    #[inline]
    fn find(&self, child: &PackedChild<P>, _: &C::Tiles) -> Option<u32> {
        self.table
            .find(
                child.hash,
                |&i| { self.nodes[i as usize].state } == child.state,
            )
            .copied()
    }
    fn parent(&self, i: u32) -> u32 {
        self.nodes[i as usize].parent
    }
    fn moves_to(&self, geometry: &Geometry<C>, i: u32) -> Vec<Move> {
        trace_back(geometry, i, |j| {
            let n = &self.nodes[j as usize];
            (n.state, n.parent)
        })
    }
}

/// A packed side's child: its state, hash, and the cell its blank came from.
#[derive(Clone, Copy)]
struct PackedChild<P> {
    state: P,
    hash: u64,
    blank: usize,
}

/// A node whose position is implicit: 8 bytes.
#[derive(Clone, Copy)]
struct LinkNode {
    /// The low 32 bits of the position's hash (see [`implicit::table_hash`]).
    hash: u32,
    /// The parent's index in the low 30 bits ([`NO_PARENT`] at the root), the arriving move's
    /// index in Korf's order in the top 2.
    up: u32,
}

/// The parent field of a root.
const NO_PARENT: u32 = (1 << 30) - 1;

impl LinkNode {
    fn hash(&self) -> u64 {
        implicit::table_hash(self.hash)
    }
}

impl Links for Chunked<LinkNode> {
    #[inline]
    fn link(&self, i: u32) -> (u32, usize) {
        let up = self[i as usize].up;
        let parent = up & NO_PARENT;
        let parent = if parent == NO_PARENT {
            u32::MAX
        } else {
            parent
        };
        (parent, (up >> 30) as usize)
    }
}

/// A side of implicit nodes, with its replay cursor.
struct LinkSide<C: Capacity> {
    nodes: Chunked<LinkNode>,
    table: HashTable<u32>,
    replay: Replay<C>,
    /// The kept hash of the node being expanded.
    current: u32,
}

/// An implicit side's child: its kept hash, table hash and move (the tile on `from` slides
/// to `to`).
#[derive(Clone, Copy)]
struct LinkChild {
    kept: u32,
    hash: u64,
    from: usize,
    to: usize,
    mv: usize,
}

impl<C: Capacity> Side<C> for LinkSide<C> {
    type Child = LinkChild;

    fn new(geometry: &Geometry<C>, root: &C::Tiles, capacity: usize) -> Self {
        let kept = implicit::hash_of::<C>(root, geometry.cells) as u32;
        let mut side = LinkSide {
            nodes: Chunked::with_capacity(capacity),
            table: HashTable::with_capacity(capacity),
            replay: Replay::new(geometry, root),
            current: kept,
        };
        side.nodes.push(LinkNode {
            hash: kept,
            up: u32::MAX,
        });
        let nodes = &side.nodes;
        side.table
            .insert_unique(implicit::table_hash(kept), 0, |&i| nodes[i as usize].hash());
        side
    }
    fn len(&self) -> usize {
        self.nodes.len()
    }
    fn growth(&self) -> u64 {
        growth(self.nodes.growth_bytes(), &self.table)
    }
    fn bytes(&self) -> u64 {
        (self.nodes.capacity() * size_of::<LinkNode>()) as u64
            + self.table.capacity() as u64 * 8 / 7 * 5
    }
    #[inline]
    fn open(&mut self, idx: usize, depth: usize) -> (usize, usize) {
        self.current = self.nodes[idx].hash;
        let (parent, k) = self.nodes.link(idx as u32);
        let (_, blank) = self.replay.seek(&self.nodes, idx as u32, depth);
        if parent == u32::MAX {
            return (blank, blank);
        }
        (
            blank,
            self.replay.step(blank, Move::KORF_ORDER[k].inverse()),
        )
    }
    #[inline]
    fn child(&self, next: usize, blank: usize, mv: Move) -> LinkChild {
        let tile = self.replay.tiles()[next].into();
        let kept = implicit::hash_after(u64::from(self.current), next, blank, tile) as u32;
        LinkChild {
            kept,
            hash: implicit::table_hash(kept),
            from: next,
            to: blank,
            mv: implicit::korf_index(mv),
        }
    }
    fn position(&self) -> &C::Tiles {
        self.replay.tiles()
    }
    #[inline]
    fn insert(&mut self, child: &LinkChild, parent: u32) -> Option<u32> {
        let fresh = self.nodes.len() as u32;
        let (nodes, replay) = (&self.nodes, &self.replay);
        let at = replay.tiles();
        match self.table.entry(
            child.hash,
            |&i| {
                nodes[i as usize].hash == child.kept
                    && replay.holds_child(nodes, i, at, child.from, child.to)
            },
            |&j| nodes[j as usize].hash(),
        ) {
            Entry::Occupied(_) => return None,
            Entry::Vacant(v) => {
                v.insert(fresh);
            }
        }
        self.nodes.push(LinkNode {
            hash: child.kept,
            up: parent | (child.mv as u32) << 30,
        });
        Some(fresh)
    }
    #[inline]
    fn find(&self, child: &LinkChild, at: &C::Tiles) -> Option<u32> {
        self.table
            .find(child.hash, |&i| {
                self.nodes[i as usize].hash == child.kept
                    && self
                        .replay
                        .holds_child(&self.nodes, i, at, child.from, child.to)
            })
            .copied()
    }
    fn parent(&self, i: u32) -> u32 {
        self.nodes.link(i).0
    }
    fn moves_to(&self, _: &Geometry<C>, i: u32) -> Vec<Move> {
        implicit::moves_to(&self.nodes, i)
    }
}

/// The most nodes an implicit side indexes (30-bit parent links).
const MAX_LINK_NODES: usize = NO_PARENT as usize - 1;

/// Runs bidirectional BFS from `start`; each side stores its states packed up to 25 cells,
/// implicitly beyond (see [`Storage::stored`]).
pub(crate) fn run<C: Storage>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    C::stored(
        geometry.cells,
        Job {
            geometry,
            start,
            limits,
        },
    )
}

/// One bidirectional BFS, waiting for its storage.
struct Job<'a, C: Capacity> {
    geometry: &'a Geometry<C>,
    start: &'a C::Tiles,
    limits: &'a Limits,
}

impl<C: Storage> PackedJob<C> for Job<'_, C> {
    type Output = RawOutcome;
    fn run<P: Packed<C>>(self) -> RawOutcome {
        run_with::<C, PackedSide<C, P>>(self.geometry, self.start, self.limits)
    }
}

impl<C: Storage> StoredJob<C> for Job<'_, C> {
    const PACKED_UP_TO: usize = IMPLICIT_ABOVE;
    fn run_implicit(self) -> RawOutcome {
        run_with::<C, LinkSide<C>>(self.geometry, self.start, self.limits)
    }
}

fn run_with<C: Capacity, S: Side<C>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    let mut budget = Budget::new(limits);
    let capacity = budget.initial_capacity() / 2;
    let mut sides = [
        S::new(geometry, start, capacity),
        S::new(geometry, &geometry.goal_tiles(), capacity),
    ];
    let mut layer_start = [0usize; 2];
    let mut depth = [0usize; 2];
    let mut stats = SearchStats {
        generated: 2,
        ..SearchStats::default()
    };
    // (forward index, backward index) of the best meeting so far.
    let mut meeting = geometry.is_goal(start).then_some((0u32, 0u32));
    let mut status = meeting.map(|_| Outcome::Solved);
    'search: while meeting.is_none() {
        // Expand the side whose frontier is smaller; `a` expands, `b` is looked up.
        let frontier = |s: usize| sides[s].len() - layer_start[s];
        let a = usize::from(frontier(1) < frontier(0));
        let (first, end) = (layer_start[a], sides[a].len());
        if first == end {
            break; // exhausted: cannot happen on a solvable board
        }
        let mut best: Option<(usize, u32, u32)> = None; // (length, a index, b index)
        for idx in first..end {
            let (blank, came_from) = sides[a].open(idx, depth[a]);
            stats.expanded += 1;
            for k in 0..usize::from(geometry.neighbour_count[blank]) {
                let next = geometry.neighbours[blank][k].into();
                if next == came_from {
                    continue;
                }
                stats.generated += 1;
                if stats.generated >= budget.next_check
                    && let Some(s) = budget.check(stats.generated)
                {
                    status = Some(s);
                    break 'search;
                }
                let child = sides[a].child(next, blank, geometry.neighbour_move[blank][k]);
                let grow = sides[a].growth();
                if grow > 0 || sides[a].len() >= MAX_LINK_NODES {
                    let total = sides[0].bytes() + sides[1].bytes();
                    if !budget.memory_allows(total + grow) || sides[a].len() >= MAX_LINK_NODES {
                        status = Some(Outcome::MemoryLimit);
                        break 'search;
                    }
                }
                let Some(fresh) = sides[a].insert(&child, idx as u32) else {
                    continue;
                };
                if let Some(j) = sides[1 - a].find(&child, sides[a].position()) {
                    let len = depth[a] + 1 + sides[1 - a].depth(j);
                    if best.is_none_or(|(l, _, _)| len < l) {
                        best = Some((len, fresh, j));
                    }
                }
            }
        }
        layer_start[a] = end;
        depth[a] += 1;
        if let Some((_, i, j)) = best {
            meeting = Some(if a == 0 { (i, j) } else { (j, i) });
            status = Some(Outcome::Solved);
        }
    }
    stats.stored_peak = (sides[0].len() + sides[1].len()) as u64;
    stats.memory_bytes = sides[0].bytes() + sides[1].bytes();
    let moves = meeting.map(|(f, b)| {
        let mut moves = sides[0].moves_to(geometry, f);
        // The backward half, traced from the goal to the meeting, is walked in reverse:
        // each of its moves is undone, in reverse order.
        let back = sides[1].moves_to(geometry, b);
        moves.extend(back.iter().rev().map(|m| m.inverse()));
        moves
    });
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
    use crate::geometry::{Geometry, Small};
    use crate::heuristic::{Built, Manhattan};
    use crate::search::packed::Wide;
    use crate::search::storage::testing::walk;

    /// On 26-64 cells (implicit there) both sides store, and the search answers, node for
    /// node what packed sides do, past several chunks of nodes a side; the length is the one
    /// an exact BFS finds.
    #[test]
    fn implicit_sides_agree_with_packed_ones_node_for_node() {
        fn check<P: Packed>(rows: usize, cols: usize, moves: usize, seed: u64) {
            let geometry = Geometry::new(rows, cols, Goal::BlankFirst);
            let start = walk(&geometry, moves, seed);
            let limits = Limits::default();
            let packed = run_with::<Small, PackedSide<Small, P>>(&geometry, &start, &limits);
            let implicit = run_with::<Small, LinkSide<Small>>(&geometry, &start, &limits);
            let summary = |r: &RawOutcome| {
                let s = &r.stats;
                (
                    r.status,
                    r.moves.clone(),
                    s.expanded,
                    s.generated,
                    s.stored_peak,
                )
            };
            assert_eq!(summary(&implicit), summary(&packed), "{rows}x{cols}");
            let stored = packed.stats.stored_peak;
            // One side at least holds more than a chunk.
            assert!(
                stored > 2 * crate::search::storage::chunked::CHUNK as u64,
                "{rows}x{cols}: {stored}"
            );
            let length = packed.moves.map(|m| m.len());
            let h = Built::Manhattan(Manhattan::new(&geometry));
            let ida = crate::search::idastar::run(&geometry, &start, &h, &limits, None, None);
            assert_eq!(length, ida.moves.map(|m| m.len()), "{rows}x{cols}");
        }
        check::<Wide<5>>(6, 6, 50, 3);
        check::<Wide<7>>(7, 7, 50, 4);
        check::<Wide<8>>(8, 8, 50, 5);
    }
}
