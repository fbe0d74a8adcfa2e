//! Breadth-first search on packed states.
//!
//! The node vector is also the FIFO queue: nodes are appended in generation order and expanded
//! in that order, so BFS needs no separate queue. The goal test happens on generation, the
//! earliest moment BFS can know it has a shortest path.

use std::mem::size_of;

use hashbrown::HashTable;

use crate::geometry::{Capacity, Geometry, TileInt, Tiles};
use crate::with_packed;

use super::packed::Packed;
use super::{Budget, Limits, RawOutcome, SearchStats, Status, trace_back};

#[derive(Clone, Copy)]
struct Node<P, T> {
    state: P,
    parent: u32,
    /// The cell the blank left to reach this node (at the root its own blank cell, which no
    /// move reaches): the move back there is not generated.
    came_from: T,
}

/// Runs BFS from `start`.
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
    let goal = P::pack(&geometry.goal_tiles(), cells);
    let mut budget = Budget::new(limits);
    let mut nodes: Vec<Node<P, C::Tile>> = Vec::with_capacity(budget.initial_capacity());
    let mut table: HashTable<u32> = HashTable::with_capacity(budget.initial_capacity());
    let mut stats = SearchStats {
        generated: 1,
        ..SearchStats::default()
    };
    let root = P::pack(start, cells);
    nodes.push(Node {
        state: root,
        parent: u32::MAX,
        came_from: C::Tile::from_index(root.blank(cells)),
    });
    table.insert_unique(root.hash64(), 0, |&i| nodes[i as usize].state.hash64());

    let node_bytes = size_of::<Node<P, C::Tile>>() as u64;
    let memory = |nodes: &Vec<Node<P, C::Tile>>, table: &HashTable<u32>| {
        nodes.capacity() as u64 * node_bytes + table.capacity() as u64 * 8 / 7 * 5
    };

    let mut found = (root == goal).then_some(0u32);
    let mut status = found.map(|_| Status::Solved);
    let mut head = 0usize;
    'search: while found.is_none() && head < nodes.len() {
        let node = nodes[head];
        let parent = head as u32;
        head += 1;
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
            if table
                .find(hash, |&i| nodes[i as usize].state == state)
                .is_some()
            {
                continue;
            }
            if (nodes.len() == nodes.capacity() || table.len() == table.capacity())
                && !budget.memory_allows(2 * memory(&nodes, &table))
            {
                status = Some(Status::MemoryLimit);
                break 'search;
            }
            let i = nodes.len() as u32;
            nodes.push(Node {
                state,
                parent,
                came_from: C::Tile::from_index(blank),
            });
            table.insert_unique(hash, i, |&j| nodes[j as usize].state.hash64());
            if state == goal {
                found = Some(i);
                status = Some(Status::Solved);
                break 'search;
            }
        }
    }
    stats.stored_peak = nodes.len() as u64;
    stats.memory_bytes = memory(&nodes, &table);
    let moves = found.map(|i| {
        trace_back(geometry, i, |j| {
            let n = &nodes[j as usize];
            (n.state, n.parent)
        })
    });
    RawOutcome {
        // An exhausted queue cannot happen on a solvable board.
        status: status.unwrap_or(Status::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}
