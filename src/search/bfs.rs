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
//!   looked up in it, and when one is there the goal is in the next layer.
//!
//! # Two paths
//! Boards of at most 16 cells (`u64` states, the 4 x 4 and smaller) take a specialised path:
//! layers bucketed by the blank's cell, each entry 8 bytes (the 15 other nibbles, with the
//! blank's nibble removed, and the came-from cell in the top 4 bits), sorted by a stable LSD
//! radix sort on the 60 state bits. Larger boards store `(state, blank, came-from)` entries
//! and sort them with the standard library's stable sort.
//!
//! The path is recovered backwards from the goal: the came-from cell of a state gives its
//! predecessor, which is found in the previous layer by binary search.

use std::cmp::Ordering;
use std::mem::size_of;

use crate::geometry::{Capacity, Geometry, TileInt, Tiles};

use super::packed::Packed;
use super::{Budget, Limits, RawOutcome, SearchStats, Status, moves_between_blanks};

/// Runs BFS from `start`.
pub(crate) fn run(geometry: &Geometry, start: &Tiles, limits: &Limits) -> RawOutcome {
    let cells = geometry.cells;
    if cells <= 16 {
        run_nibbles(geometry, start, limits)
    } else if cells <= 25 {
        run_with::<_, u128>(geometry, start, limits)
    } else if cells <= 40 {
        run_with::<_, super::packed::Wide<5>>(geometry, start, limits)
    } else {
        run_with::<_, super::packed::Wide<8>>(geometry, start, limits)
    }
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

// ---------------------------------------------------------------------------------------------
// Boards of at most 16 cells: 8-byte entries bucketed by the blank's cell.

/// The 60 bits of an entry that hold the state (the top 4 hold the came-from cell).
const STATE_BITS: u64 = (1 << 60) - 1;

/// A state's entry in the bucket of its blank's cell: its nibbles without the blank's, so that
/// 15 tiles take 60 bits, in the same order as the packed value.
#[inline(always)]
fn squeeze(state: u64, blank: usize) -> u64 {
    let low = (1u64 << (4 * blank)) - 1;
    (state & low) | ((state >> 4) & !low)
}

/// The packed state of an entry of the bucket of cell `blank`.
#[inline(always)]
fn unsqueeze(entry: u64, blank: usize) -> u64 {
    let e = entry & STATE_BITS;
    let low = (1u64 << (4 * blank)) - 1;
    (e & low) | ((e & !low) << 4)
}

/// One layer of the nibble path: entries sorted within buckets, bucket `b` (the blank on cell
/// `b`) at `keys[start[b]..start[b + 1]]`.
struct NibbleLayer {
    keys: Vec<u64>,
    start: [usize; 17],
}

impl NibbleLayer {
    fn bucket(&self, b: usize) -> &[u64] {
        &self.keys[self.start[b]..self.start[b + 1]]
    }
}

fn run_nibbles(geometry: &Geometry, start: &Tiles, limits: &Limits) -> RawOutcome {
    let cells = geometry.cells;
    let goal = <u64 as Packed>::pack(&geometry.goal_tiles(), cells);
    let root = <u64 as Packed>::pack(start, cells);
    let root_blank = root.blank(cells);
    let mut budget = Budget::new(limits);
    if root == goal {
        return solved_at_root();
    }
    let mut stats = SearchStats {
        generated: 1,
        ..SearchStats::default()
    };
    let mut first = NibbleLayer {
        keys: vec![squeeze(root, root_blank) | (root_blank as u64) << 60],
        start: [1; 17],
    };
    for s in &mut first.start[..=root_blank] {
        *s = 0;
    }
    let mut layers = vec![first];
    // The goal's neighbours (blank cell, entry): when one is in a layer, the goal is in the next.
    let goal_blank = goal.blank(cells);
    let goal_neighbours: Vec<(usize, u64)> = (0..usize::from(geometry.neighbour_count[goal_blank]))
        .map(|k| {
            let n = usize::from(geometry.neighbours[goal_blank][k]);
            let tile = (goal >> (4 * n)) & 0xF;
            let state = (goal & !(0xF << (4 * n))) | tile << (4 * goal_blank);
            (n, squeeze(state, n))
        })
        .collect();
    // came_from[b][c]: entries of the newest layer in bucket b whose blank came from cell c
    // (they produce no successor with the blank on c).
    let mut came_from = [[0usize; 16]; 16];
    came_from[root_blank][root_blank] = 1;
    let mut out: Vec<Vec<u64>> = (0..cells).map(|_| Vec::new()).collect();
    let mut scratch: Vec<u64> = Vec::new();
    let mut layer_bytes = 8u64;
    let mut status = None;
    let mut found = None;

    'search: loop {
        let layer = layers.last().expect("the root's layer");
        // The last layer: expanded only to count up to the goal, its successors not stored.
        let last = goal_neighbours.iter().any(|&(n, key)| {
            layer
                .bucket(n)
                .binary_search_by(|e| (e & STATE_BITS).cmp(&key))
                .is_ok()
        });
        // Size this layer's successor buckets exactly before producing any.
        let mut sizes = [0usize; 16];
        for (b, cf) in came_from.iter().enumerate().take(cells) {
            let n = layer.start[b + 1] - layer.start[b];
            for k in 0..usize::from(geometry.neighbour_count[b]) {
                let next = usize::from(geometry.neighbours[b][k]);
                sizes[next] += n - cf[next];
            }
        }
        let total: usize = sizes.iter().sum();
        if !last {
            let largest = sizes.iter().copied().max().unwrap_or(0);
            let out_bytes: u64 = sizes.iter().map(|&n| n as u64 * 8).sum();
            // Buffers, the radix sort's scratch, and the next layer (at most as long as the
            // buffer).
            let need = layer_bytes + 2 * out_bytes + largest as u64 * 8;
            if !budget.memory_allows(need) {
                status = Some(Status::MemoryLimit);
                break 'search;
            }
            stats.memory_bytes = stats.memory_bytes.max(need);
            for (buf, &n) in out.iter_mut().zip(&sizes) {
                if buf.capacity() < n {
                    // A new allocation: growing would copy the old contents.
                    *buf = Vec::new();
                    buf.reserve_exact(n);
                }
            }
            // Written before it is read: the zeros only make it safe to index.
            if scratch.len() < largest {
                // The old one freed before the larger one is allocated.
                drop(std::mem::take(&mut scratch));
                scratch = vec![0; largest];
            }
        }

        // Expand the layer in its order, producing successors into the buckets of their blanks.
        for b in 0..cells {
            let neighbours = geometry.neighbours[b];
            let count = usize::from(geometry.neighbour_count[b]);
            for &entry in layer.bucket(b) {
                let state = unsqueeze(entry, b);
                let from = (entry >> 60) as usize;
                stats.expanded += 1;
                for &next in &neighbours[..count] {
                    let next = usize::from(next);
                    if next == from {
                        continue;
                    }
                    stats.generated += 1;
                    if stats.generated >= budget.next_check
                        && let Some(s) = budget.check(stats.generated)
                    {
                        status = Some(s);
                        break 'search;
                    }
                    let tile = (state >> (4 * next)) & 0xF;
                    let child = (state & !(0xF << (4 * next))) | tile << (4 * b);
                    if child == goal {
                        found = Some((state, b));
                        status = Some(Status::Solved);
                        break 'search;
                    }
                    if !last {
                        out[next & 15].push(squeeze(child, next) | (b as u64) << 60);
                    }
                }
            }
        }
        stats.stored_peak = stats.stored_peak.max(stored(&layers, &out));
        // A last layer always produces the goal; an empty buffer means no goal reachable.
        if last || total == 0 {
            break 'search;
        }

        // Sort, deduplicate and subtract the previous layer, bucket by bucket.
        let previous = layers.len().checked_sub(2).map(|i| &layers[i]);
        let mut next_layer = NibbleLayer {
            keys: Vec::with_capacity(total),
            start: [0; 17],
        };
        came_from = [[0; 16]; 16];
        for (b, buf) in out.iter_mut().enumerate() {
            let sorted: &[u64] = if radix_sort(buf, &mut scratch) {
                &scratch[..buf.len()]
            } else {
                buf
            };
            let before: &[u64] = previous.map_or(&[], |p| p.bucket(b));
            let mut j = 0;
            let mut last = u64::MAX;
            for &e in sorted {
                let key = e & STATE_BITS;
                if key == last {
                    continue;
                }
                last = key;
                while j < before.len() && before[j] & STATE_BITS < key {
                    j += 1;
                }
                if j < before.len() && before[j] & STATE_BITS == key {
                    continue;
                }
                next_layer.keys.push(e);
                came_from[b][(e >> 60) as usize] += 1;
            }
            next_layer.start[b + 1] = next_layer.keys.len();
            buf.clear();
        }
        for b in cells..16 {
            next_layer.start[b + 1] = next_layer.keys.len();
        }
        next_layer.keys.shrink_to_fit();
        layer_bytes += next_layer.keys.capacity() as u64 * 8;
        layers.push(next_layer);
    }

    // A search stopped inside a layer holds that layer's successors so far.
    stats.stored_peak = stats.stored_peak.max(stored(&layers, &out));
    let moves = found.map(|(state, blank)| {
        // The goal's blank, then back through the layers by the came-from cells.
        let mut blanks = vec![goal.blank(cells), blank];
        let (mut state, mut blank) = (state, blank);
        for layer in layers.iter().rev() {
            let bucket = layer.bucket(blank);
            let key = squeeze(state, blank);
            let i = bucket.partition_point(|&e| e & STATE_BITS < key);
            let from = (bucket[i] >> 60) as usize;
            if from == blank {
                break; // the root
            }
            let tile = (state >> (4 * from)) & 0xF;
            state = (state & !(0xF << (4 * from))) | tile << (4 * blank);
            blank = from;
            blanks.push(blank);
        }
        blanks.reverse();
        moves_between_blanks(geometry, &blanks)
    });
    stats.memory_bytes = stats.memory_bytes.max(layer_bytes);
    RawOutcome {
        // An exhausted graph cannot happen on a solvable board.
        status: status.unwrap_or(Status::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}

/// Entries held: the kept layers' and the successor buckets'.
fn stored(layers: &[NibbleLayer], out: &[Vec<u64>]) -> u64 {
    (layers.iter().map(|l| l.keys.len()).sum::<usize>() + out.iter().map(Vec::len).sum::<usize>())
        as u64
}

/// Bits per digit of the radix sort: 5 passes over the 60 state bits, 4096 counters a pass.
const DIGIT_BITS: u32 = 12;
const DIGITS: usize = 5;
const RADIX: usize = 1 << DIGIT_BITS;

/// Sorts `keys` stably by their 60 state bits (equal states keep their production order, so
/// the first of a run is the first discoverer). Returns whether the result is in `scratch`
/// (which must be at least as long as `keys`).
/// Out of line: called once per bucket and layer, and so visible in profiles.
#[inline(never)]
fn radix_sort(keys: &mut [u64], scratch: &mut [u64]) -> bool {
    let n = keys.len();
    if n <= 256 {
        keys.sort_by_key(|&e| e & STATE_BITS);
        return false;
    }
    let mut counts = vec![[0u32; RADIX]; DIGITS];
    for &e in keys.iter() {
        for (d, c) in counts.iter_mut().enumerate() {
            c[((e >> (DIGIT_BITS as usize * d)) as usize) & (RADIX - 1)] += 1;
        }
    }
    let scratch = &mut scratch[..n];
    let mut in_scratch = false;
    for (d, c) in counts.iter_mut().enumerate() {
        // A digit that all keys share leaves the order as it is.
        if c.iter().any(|&k| k as usize == n) {
            continue;
        }
        let mut sum = 0u32;
        for k in c.iter_mut() {
            let here = *k;
            *k = sum;
            sum += here;
        }
        let shift = DIGIT_BITS as usize * d;
        let (from, to): (&[u64], &mut [u64]) = if in_scratch {
            (&scratch[..], &mut keys[..])
        } else {
            (&keys[..], &mut scratch[..])
        };
        for &e in from {
            let slot = &mut c[((e >> shift) as usize) & (RADIX - 1)];
            to[*slot as usize] = e;
            *slot += 1;
        }
        in_scratch = !in_scratch;
    }
    in_scratch
}

// ---------------------------------------------------------------------------------------------
// Any other board: entries with the state, the blank's cell and the came-from cell.

#[derive(Clone, Copy)]
struct Entry<P, T> {
    state: P,
    blank: T,
    came_from: T,
}

/// The layer order: by the blank's cell, then by the tiles from the last cell down.
#[inline]
fn entry_order<C: Capacity, P: Packed<C>>(
    a: &Entry<P, C::Tile>,
    b: &Entry<P, C::Tile>,
) -> Ordering {
    a.blank
        .cmp(&b.blank)
        .then_with(|| a.state.cmp_from_last_cell(&b.state))
}

fn run_with<C: Capacity, P: Packed<C>>(
    geometry: &Geometry<C>,
    start: &C::Tiles,
    limits: &Limits,
) -> RawOutcome {
    let cells = geometry.cells;
    let goal = P::pack(&geometry.goal_tiles(), cells);
    let root = P::pack(start, cells);
    let mut budget = Budget::new(limits);
    if root == goal {
        return solved_at_root();
    }
    let mut stats = SearchStats {
        generated: 1,
        ..SearchStats::default()
    };
    let entry_bytes = size_of::<Entry<P, C::Tile>>() as u64;
    let root_blank = C::Tile::from_index(root.blank(cells));
    let mut layers: Vec<Vec<Entry<P, C::Tile>>> = vec![vec![Entry {
        state: root,
        blank: root_blank,
        came_from: root_blank,
    }]];
    let goal_blank = goal.blank(cells);
    let goal_neighbours: Vec<Entry<P, C::Tile>> =
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
            .collect();
    let mut out: Vec<Entry<P, C::Tile>> = Vec::new();
    let mut layer_bytes = entry_bytes;
    let mut status = None;
    let mut found = None;

    'search: loop {
        let layer = layers.last().expect("the root's layer");
        // The last layer: expanded only to count up to the goal, its successors not stored.
        let last = goal_neighbours.iter().any(|g| {
            layer
                .binary_search_by(|e| entry_order::<C, P>(e, g))
                .is_ok()
        });
        let total: usize = layer
            .iter()
            .map(|e| {
                let b: usize = e.blank.into();
                usize::from(geometry.neighbour_count[b]) - usize::from(e.came_from != e.blank)
            })
            .sum();
        // Buffer, the stable sort's scratch (half the buffer) and the next layer.
        let need = layer_bytes + (2 * total + total / 2) as u64 * entry_bytes;
        if !last {
            if !budget.memory_allows(need) {
                status = Some(Status::MemoryLimit);
                break 'search;
            }
            stats.memory_bytes = stats.memory_bytes.max(need);
            out.reserve_exact(total);
        }
        for e in layer {
            let b: usize = e.blank.into();
            stats.expanded += 1;
            for k in 0..usize::from(geometry.neighbour_count[b]) {
                let next = geometry.neighbours[b][k];
                if next == e.came_from {
                    continue;
                }
                stats.generated += 1;
                if stats.generated >= budget.next_check
                    && let Some(s) = budget.check(stats.generated)
                {
                    status = Some(s);
                    break 'search;
                }
                let n: usize = next.into();
                let child = e.state.moved(n, b, e.state.tile(n));
                if child == goal {
                    found = Some(*e);
                    status = Some(Status::Solved);
                    break 'search;
                }
                if !last {
                    out.push(Entry {
                        state: child,
                        blank: next,
                        came_from: e.blank,
                    });
                }
            }
        }
        let held = layers.iter().map(Vec::len).sum::<usize>() + out.len();
        stats.stored_peak = stats.stored_peak.max(held as u64);
        // A last layer always produces the goal; an empty buffer means no goal reachable.
        if last || out.is_empty() {
            break 'search;
        }
        out.sort_by(entry_order::<C, P>);
        let previous: &[Entry<P, C::Tile>] =
            layers.len().checked_sub(2).map_or(&[], |i| &layers[i]);
        let mut next_layer = Vec::with_capacity(out.len());
        let mut j = 0;
        let mut last: Option<&Entry<P, C::Tile>> = None;
        for e in &out {
            if last.is_some_and(|l| entry_order::<C, P>(l, e) == Ordering::Equal) {
                continue;
            }
            last = Some(e);
            while j < previous.len() && entry_order::<C, P>(&previous[j], e) == Ordering::Less {
                j += 1;
            }
            if j < previous.len() && entry_order::<C, P>(&previous[j], e) == Ordering::Equal {
                continue;
            }
            next_layer.push(*e);
        }
        next_layer.shrink_to_fit();
        layer_bytes += next_layer.capacity() as u64 * entry_bytes;
        layers.push(next_layer);
        out.clear();
    }
    let held = layers.iter().map(Vec::len).sum::<usize>() + out.len();
    stats.stored_peak = stats.stored_peak.max(held as u64);

    let moves = found.map(|e| {
        let mut blanks = vec![goal.blank(cells), e.blank.into()];
        let mut e = e;
        for layer in layers.iter().rev().skip(1) {
            let from: usize = e.came_from.into();
            let b: usize = e.blank.into();
            let probe = Entry {
                state: e.state.moved(from, b, e.state.tile(from)),
                blank: e.came_from,
                came_from: e.came_from,
            };
            let i = layer.partition_point(|x| entry_order::<C, P>(x, &probe) == Ordering::Less);
            e = layer[i];
            blanks.push(from);
        }
        blanks.reverse();
        moves_between_blanks(geometry, &blanks)
    });
    stats.memory_bytes = stats.memory_bytes.max(layer_bytes);
    RawOutcome {
        status: status.unwrap_or(Status::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}

/// The outcome when the start is the goal: the root generated and stored, no moves.
fn solved_at_root() -> RawOutcome {
    RawOutcome {
        status: Status::Solved,
        moves: Some(Vec::new()),
        stats: SearchStats {
            generated: 1,
            stored_peak: 1,
            ..SearchStats::default()
        },
        per_iteration: Vec::new(),
    }
}
