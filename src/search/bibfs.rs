//! Bidirectional breadth-first search: one BFS from the start, one from the goal, each
//! expanding a whole layer at a time (the smaller frontier first), until they meet.
//!
//! Optimality: when a layer of side A produces states already reached by side B, every
//! meeting in that layer is checked and the shortest taken; a shorter path would have met in
//! an earlier layer. A distance-d board costs about two searches of depth d/2 instead of one
//! of depth d, which for the 15-puzzle is thousands of times fewer nodes than plain BFS.

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use crate::geometry::{Capacity, Geometry, TileInt, Tiles};
use crate::with_packed;

use super::packed::Packed;
use super::{Budget, Limits, RawOutcome, SearchStats, Status, trace_back};

#[derive(Clone, Copy)]
struct Node<P, T> {
    state: P,
    parent: u32,
    /// The cell the blank left to reach this node (at a root its own blank cell, which no
    /// move reaches).
    came_from: T,
}

/// One direction's search: its nodes (in BFS order), their index, and where its current
/// layer starts.
struct Side<P, T> {
    nodes: Vec<Node<P, T>>,
    table: HashTable<u32>,
    layer_start: usize,
}

impl<P: Copy + Eq, T: TileInt> Side<P, T> {
    fn new<C: Capacity<Tile = T>>(root: P, cells: usize, capacity: usize) -> Side<P, T>
    where
        P: Packed<C>,
    {
        let mut side = Side {
            nodes: Vec::with_capacity(capacity),
            table: HashTable::with_capacity(capacity),
            layer_start: 0,
        };
        side.nodes.push(Node {
            state: root,
            parent: u32::MAX,
            came_from: C::Tile::from_index(root.blank(cells)),
        });
        let nodes = &side.nodes;
        side.table
            .insert_unique(root.hash64(), 0, |&i| nodes[i as usize].state.hash64());
        side
    }
}

impl<P: Copy + Eq, T> Side<P, T> {
    fn find(&self, state: P, hash: u64) -> Option<u32> {
        self.table
            .find(hash, |&i| self.nodes[i as usize].state == state)
            .copied()
    }

    fn bytes(&self) -> u64 {
        (self.nodes.capacity() * std::mem::size_of::<Node<P, T>>()) as u64
            + self.table.capacity() as u64 * 8 / 7 * 5
    }
}

/// Runs bidirectional BFS from `start`.
pub(crate) fn run(geometry: &Geometry, start: &Tiles, limits: &Limits) -> RawOutcome {
    with_packed!(geometry.cells, P => run_with::<_, P>(geometry, start, limits))
}

/// [`run`] on a board of more than 64 cells (capacity `C`), whose positions are stored as
/// they are.
pub(crate) fn run_large<C: Capacity>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome
where
    C::Tiles: Packed<C>,
{
    run_with::<C, C::Tiles>(geometry, start, limits)
}

fn run_with<C: Capacity, P: Packed<C>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    let cells = geometry.cells;
    let mut budget = Budget::new(limits);
    let root = P::pack(start, cells);
    let goal = P::pack(&geometry.goal_tiles(), cells);
    let capacity = budget.initial_capacity() / 2;
    let mut sides = [
        Side::new::<C>(root, cells, capacity),
        Side::new::<C>(goal, cells, capacity),
    ];
    let mut stats = SearchStats {
        generated: 2,
        ..SearchStats::default()
    };
    // (forward index, backward index) of the best meeting so far.
    let mut meeting = (root == goal).then_some((0u32, 0u32));
    let mut status = meeting.map(|_| Status::Solved);
    'search: while meeting.is_none() {
        // Expand the side whose frontier is smaller; `a` expands, `b` is looked up.
        let frontier = |s: &Side<P, C::Tile>| s.nodes.len() - s.layer_start;
        let a = usize::from(frontier(&sides[1]) < frontier(&sides[0]));
        let (layer_start, layer_end) = (sides[a].layer_start, sides[a].nodes.len());
        if layer_start == layer_end {
            break; // exhausted: cannot happen on a solvable board
        }
        let mut best: Option<(usize, u32, u32)> = None; // (length, a index, b index)
        for idx in layer_start..layer_end {
            let node = sides[a].nodes[idx];
            let blank = node.state.blank(cells);
            stats.expanded += 1;
            for k in 0..usize::from(geometry.neighbour_count[blank]) {
                let next = geometry.neighbours[blank][k].into();
                if next == node.came_from.into() {
                    continue;
                }
                stats.generated += 1;
                if stats.generated >= budget.next_check
                    && let Some(s) = budget.check(stats.generated)
                {
                    status = Some(s);
                    break 'search;
                }
                let state = node.state.moved(next, blank, node.state.tile(next));
                let hash = state.hash64();
                let side = &mut sides[a];
                if side.nodes.len() == side.nodes.capacity()
                    || side.table.len() == side.table.capacity()
                {
                    let total = sides[0].bytes() + sides[1].bytes();
                    if !budget.memory_allows(total + sides[a].bytes()) {
                        status = Some(Status::MemoryLimit);
                        break 'search;
                    }
                }
                let side = &mut sides[a];
                let fresh = side.nodes.len() as u32;
                let nodes = &side.nodes;
                match side.table.entry(
                    hash,
                    |&i| nodes[i as usize].state == state,
                    |&j| nodes[j as usize].state.hash64(),
                ) {
                    Entry::Occupied(_) => continue,
                    Entry::Vacant(v) => {
                        v.insert(fresh);
                    }
                }
                side.nodes.push(Node {
                    state,
                    parent: idx as u32,
                    came_from: C::Tile::from_index(blank),
                });
                if let Some(j) = sides[1 - a].find(state, hash) {
                    let len = depth(&sides[a], fresh) + depth(&sides[1 - a], j);
                    if best.is_none_or(|(l, _, _)| len < l) {
                        best = Some((len, fresh, j));
                    }
                }
            }
        }
        sides[a].layer_start = layer_end;
        if let Some((_, i, j)) = best {
            meeting = Some(if a == 0 { (i, j) } else { (j, i) });
            status = Some(Status::Solved);
        }
    }
    stats.stored_peak = (sides[0].nodes.len() + sides[1].nodes.len()) as u64;
    stats.memory_bytes = sides[0].bytes() + sides[1].bytes();
    let moves = meeting.map(|(f, b)| {
        let mut moves = trace_back(geometry, f, |j| link(&sides[0], j));
        // The backward half, traced from the goal to the meeting, is walked in reverse:
        // each of its moves is undone, in reverse order.
        let back = trace_back(geometry, b, |j| link(&sides[1], j));
        moves.extend(back.iter().rev().map(|m| m.inverse()));
        moves
    });
    RawOutcome {
        status: status.unwrap_or(Status::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}

/// Node `j`'s state and parent, for [`trace_back`].
fn link<P: Copy, T>(side: &Side<P, T>, j: u32) -> (P, u32) {
    let n = &side.nodes[j as usize];
    (n.state, n.parent)
}

/// The depth of node `i` of a side (its distance from that side's root).
fn depth<P, T>(side: &Side<P, T>, mut i: u32) -> usize {
    let mut d = 0;
    while side.nodes[i as usize].parent != u32::MAX {
        i = side.nodes[i as usize].parent;
        d += 1;
    }
    d
}
