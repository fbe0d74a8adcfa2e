//! The BFS kernel of boards of at most 16 cells (`u64` states, the 4 x 4 and smaller): 8-byte
//! entries bucketed by the blank's cell, a bucket's successors written into one run per move,
//! the runs sorted and merged (see the [`super`] documentation).

use std::mem::MaybeUninit;

use crate::board::Move;
use crate::geometry::{Geometry, Tiles};
use crate::search::storage::packed::Packed;
use crate::search::{Budget, Limits, Outcome, RawOutcome, SearchStats, moves_between_blanks};

use super::layered::{finish, solved_at_root};

/// The nibble of an entry that holds the cell its blank came from. An entry is its state
/// squeezed ([`squeeze`]) with nibble 0 replaced by that cell: the tiles of a squeezed state
/// are always the same set, so its nibble 0 follows from the others ([`full`]). Compared as
/// integers, entries are then in the layer order, and two entries of one state in the order
/// of their came-from cells, which is the order of their discoverers' buckets.
const FROM: u64 = 0xF;

/// The xor of the 16 nibbles of `v`.
#[inline(always)]
fn xor_nibbles(mut v: u64) -> u64 {
    v ^= v >> 32;
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v & 0xF
}

/// A state's 15 tiles without the blank's nibble, so that they take 60 bits, in the same order
/// as the packed value.
#[inline(always)]
fn squeeze(state: u64, blank: usize) -> u64 {
    let low = (1u64 << (4 * blank)) - 1;
    (state & low) | ((state >> 4) & !low)
}

/// The packed state of a squeezed state whose blank is on `blank`.
#[inline(always)]
fn unsqueeze(squeezed: u64, blank: usize) -> u64 {
    let low = (1u64 << (4 * blank)) - 1;
    (squeezed & low) | ((squeezed & !low) << 4)
}

/// The squeezed state of an entry, its nibble 0 restored from the others (`tiles_xor`: the
/// xor of all the board's tiles).
#[inline(always)]
fn full(entry: u64, tiles_xor: u64) -> u64 {
    let k = entry & !FROM;
    k | (xor_nibbles(k) ^ tiles_xor)
}

/// One layer of the nibble path: entries sorted within buckets, bucket `b` (the blank on cell
/// `b`) at `keys[start[b]..start[b + 1]]`.
struct NibbleLayer {
    keys: Vec<u64>,
    start: [usize; 17],
}

impl NibbleLayer {
    /// The first layer: the root alone, in its blank's bucket, come from its own cell.
    fn root(root: u64, root_blank: usize) -> NibbleLayer {
        let mut first = NibbleLayer {
            keys: vec![(squeeze(root, root_blank) & !FROM) | root_blank as u64],
            start: [1; 17],
        };
        for s in &mut first.start[..=root_blank] {
            *s = 0;
        }
        first
    }

    fn bucket(&self, b: usize) -> &[u64] {
        &self.keys[self.start[b]..self.start[b + 1]]
    }
}

/// A move of the blank from cell `b` to `next`, on squeezed states. A horizontal move leaves
/// the squeezed state as it is (the tile takes the blank's place in the same order). A
/// vertical move over `w` columns rotates the `w` nibbles between the two cells by one nibble:
/// the moved tile goes from the top of that field to its bottom (down) or back (up).
#[derive(Clone, Copy, Default)]
struct Step {
    next: usize,
    /// The rotated field (0 for a horizontal move).
    mask: u64,
    left: u32,
    right: u32,
    /// For a vertical move, the bits `lo..hi` by which its successors, in their parents'
    /// order, must be sorted stably within each group of equal bits from `hi` up (which keep
    /// their parents' order): see [`sort_run`]. `hi == 0` for a horizontal move.
    lo: u32,
    hi: u32,
}

impl Step {
    fn new(geometry: &Geometry, b: usize, next: usize) -> Step {
        let w = geometry.cols;
        let mut step = Step {
            next,
            ..Step::default()
        };
        if next.abs_diff(b) == w && w > 1 {
            let m = b.min(next) as u32;
            let w = w as u32;
            step.mask = ((1u64 << (4 * w)) - 1) << (4 * m);
            if next > b {
                // Down: the tile goes from nibble m + w - 1 to m; the nibbles above m keep
                // their order, so sort by nibbles m + 1 .. m + w.
                (step.left, step.right) = (4, 4 * (w - 1));
                (step.lo, step.hi) = (4 * (m + 1), 4 * (m + w));
            } else {
                // Up: the tile goes from nibble m to m + w - 1: sort by that nibble.
                (step.left, step.right) = (4 * (w - 1), 4);
                (step.lo, step.hi) = (4 * (m + w - 1), 4 * (m + w));
            }
        }
        step
    }

    /// The successor's squeezed state (nibble 0 left as it comes out).
    #[inline(always)]
    fn apply(&self, key: u64) -> u64 {
        let f = key & self.mask;
        (key & !self.mask) | (((f << self.left) | (f >> self.right)) & self.mask)
    }
}

pub(super) fn run(geometry: &Geometry, start: &Tiles, limits: &Limits) -> RawOutcome {
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
    let tiles_xor = xor_nibbles(root);
    let mut layers = vec![NibbleLayer::root(root, root_blank)];
    let goal_blank = goal.blank(cells);
    let goal_key = squeeze(goal, goal_blank) >> 4;
    let goal_neighbours = nibble_goal_neighbours(geometry, goal);
    let moves = CellMoves::new(geometry);
    // came_from[b][c]: entries of the newest layer in bucket b whose blank came from cell c
    // (they produce no successor with the blank on c).
    let mut came_from = [[0usize; 16]; 16];
    came_from[root_blank][root_blank] = 1;
    // The successors of a layer, run after run: bucket by bucket, move by move.
    let mut out: Vec<u64> = Vec::new();
    let mut scratch: Vec<u64> = Vec::new();
    let mut layer_bytes = 8u64;
    let mut produced = 0usize;
    let mut status = None;
    let mut found = None;

    'search: loop {
        let layer = layers.last().expect("the root's layer");
        // The last layer: expanded only to count up to the goal, its successors not stored.
        // The goal's first producer is its neighbour earliest in the layer (bucket, index).
        let producer = goal_neighbours
            .iter()
            .filter_map(|&(n, key)| {
                let found = layer.bucket(n).binary_search_by(|e| (e >> 4).cmp(&key));
                found.ok().map(|i| (n, i))
            })
            .min();
        let last = producer.is_some();
        let runs = Runs::size(geometry, layer, &moves.steps, &came_from);
        let (total, slots) = (runs.total, runs.slots);
        if !last
            && !make_room(
                &runs,
                layer_bytes,
                &mut budget,
                &mut stats,
                &mut out,
                &mut scratch,
            )
        {
            status = Some(Outcome::MemoryLimit);
            break 'search;
        }

        let spare = out.spare_capacity_mut();
        let ctx = LayerExpansion {
            geometry,
            layer,
            moves: &moves,
            runs: &runs,
            producer,
            tiles_xor,
            goal_key,
            goal_blank,
        };
        let expanded = ctx.expand(&mut budget, &mut stats, spare);
        produced = expanded.produced;
        if let Some(s) = expanded.stop {
            status = Some(s);
            found = expanded.found;
            break 'search;
        }
        stats.stored_peak = stats.stored_peak.max(stored(&layers, produced));
        // A last layer always produces the goal; no successors means no goal reachable.
        if last || total == 0 {
            break 'search;
        }
        assert_eq!(produced, total, "the runs were sized exactly");
        runs.write_sentinels(geometry, spare);
        // SAFETY: the loop above wrote every one of the first `slots` slots: each run
        // `run_start[b][k]..run_end[b][k]` received one successor per entry of bucket `b`
        // not come from the move's cell, which is the run's length (and `produced == total`
        // checks it), and the slot after every run was just written.
        unsafe { out.set_len(slots) };

        let previous = layers.len().checked_sub(2).map(|i| &layers[i]);
        let next_layer = sort_and_merge(
            &mut out,
            &mut scratch,
            &runs,
            &moves,
            previous,
            &mut came_from,
            geometry,
        );
        out.clear();
        produced = 0;
        layer_bytes += next_layer.keys.capacity() as u64 * 8;
        layers.push(next_layer);
    }

    // A search stopped inside a layer holds that layer's successors so far.
    stats.stored_peak = stats.stored_peak.max(stored(&layers, produced));
    let moves = found.map(|(state, blank)| nibble_path_back(geometry, &layers, goal, state, blank));
    finish(stats, status, moves, layer_bytes)
}

/// Makes room for a layer's successors (`runs`), the sort's scratch and the next layer within
/// the memory budget: false when the budget does not allow it. The output buffer is allocated
/// anew rather than grown (growing would copy the old contents), the scratch freed before a
/// larger one is allocated.
fn make_room(
    runs: &Runs,
    layer_bytes: u64,
    budget: &mut Budget,
    stats: &mut SearchStats,
    out: &mut Vec<u64>,
    scratch: &mut Vec<u64>,
) -> bool {
    let out_bytes = runs.slots as u64 * 8;
    // The runs, the sort's scratch, and the next layer (at most as long as the runs).
    let need = layer_bytes + 2 * out_bytes + runs.largest_vertical as u64 * 8;
    if !budget.memory_allows(need) {
        return false;
    }
    stats.memory_bytes = stats.memory_bytes.max(need);
    if out.capacity() < runs.slots {
        *out = Vec::new();
        out.reserve_exact(runs.slots);
        advise_huge_pages(out);
    }
    if scratch.len() < runs.largest_vertical {
        drop(std::mem::take(scratch));
        // Written before it is read: the zeros only make it safe to index.
        scratch.reserve_exact(runs.largest_vertical);
        advise_huge_pages(scratch);
        scratch.resize(runs.largest_vertical, 0);
    }
    true
}

/// What expanding one layer needs to know.
struct LayerExpansion<'a> {
    geometry: &'a Geometry,
    layer: &'a NibbleLayer,
    moves: &'a CellMoves,
    runs: &'a Runs,
    /// In the last layer, the goal's first producer (bucket, index); `None` before it.
    producer: Option<(usize, usize)>,
    tiles_xor: u64,
    goal_key: u64,
    goal_blank: usize,
}

/// How a layer's expansion ended: the successors written, and the status (with the goal's
/// producer: state, blank cell) when the search stops in it.
struct Expanded {
    produced: usize,
    stop: Option<Outcome>,
    found: Option<(u64, usize)>,
}

impl LayerExpansion<'_> {
    /// Expands the layer in its order, writing each successor to the run of its move. Runs
    /// of entries whose successors cannot reach the next limit check take the fast loops; the
    /// entry on which a check falls, and the goal's producer, the checked loop. In the last
    /// layer successors are only counted, up to the goal.
    fn expand(
        &self,
        budget: &mut Budget,
        stats: &mut SearchStats,
        spare: &mut [MaybeUninit<u64>],
    ) -> Expanded {
        let last = self.producer.is_some();
        let tiles_xor = self.tiles_xor;
        let mut produced = 0;
        let stop = |stop, found, produced| Expanded {
            produced,
            stop: Some(stop),
            found,
        };
        for b in 0..self.geometry.cells {
            let count = usize::from(self.geometry.neighbour_count[b]);
            let steps = &self.moves.steps[b][..count];
            let mut at = self.runs.start[b];
            let full_key = self.moves.needs_full[b];
            let bucket = self.layer.bucket(b);
            // In the last layer, the entries before the goal's producer are only counted.
            let fast_end = match self.producer {
                Some((pb, pi)) if pb == b => pi,
                _ => bucket.len(),
            };
            let mut i = 0;
            while i < bucket.len() {
                let room = budget.next_check.saturating_sub(stats.generated);
                let chunk = (room.saturating_sub(1) / count as u64)
                    .min(fast_end.saturating_sub(i) as u64) as usize;
                if chunk > 0 {
                    let part = &bucket[i..i + chunk];
                    let generated = if last {
                        // Every entry but the root's skips the move back to its came-from cell.
                        part.iter()
                            .map(|&e| count as u64 - u64::from((e & FROM) as usize != b))
                            .sum()
                    } else {
                        let args = (part, steps, b, full_key, tiles_xor, &mut *spare, &mut at);
                        match count {
                            1 => expand_bucket::<1>(args),
                            2 => expand_bucket::<2>(args),
                            3 => expand_bucket::<3>(args),
                            _ => expand_bucket::<4>(args),
                        }
                    };
                    stats.expanded += chunk as u64;
                    stats.generated += generated;
                    if !last {
                        produced += generated as usize;
                    }
                    i += chunk;
                    continue;
                }
                let entry = bucket[i];
                i += 1;
                let key = if full_key {
                    full(entry, tiles_xor)
                } else {
                    entry
                };
                let from = (entry & FROM) as usize;
                stats.expanded += 1;
                for (k, step) in steps.iter().enumerate() {
                    if step.next == from {
                        continue;
                    }
                    stats.generated += 1;
                    if stats.generated >= budget.next_check
                        && let Some(s) = budget.check(stats.generated)
                    {
                        return stop(s, None, produced);
                    }
                    let child = (step.apply(key) & !FROM) | b as u64;
                    if child >> 4 == self.goal_key && step.next == self.goal_blank {
                        let found = (unsqueeze(full(entry, tiles_xor), b), b);
                        return stop(Outcome::Solved, Some(found), produced);
                    }
                    if !last {
                        spare[at[k]].write(child);
                        at[k] += 1;
                        produced += 1;
                    }
                }
            }
        }
        Expanded {
            produced,
            stop: None,
            found: None,
        }
    }
}

/// The goal's neighbours (blank cell, squeezed state without nibble 0): when one is in a
/// layer, the goal is in the next.
fn nibble_goal_neighbours(geometry: &Geometry, goal: u64) -> Vec<(usize, u64)> {
    let goal_blank = goal.blank(geometry.cells);
    (0..usize::from(geometry.neighbour_count[goal_blank]))
        .map(|k| {
            let n = usize::from(geometry.neighbours[goal_blank][k]);
            let tile = (goal >> (4 * n)) & 0xF;
            let state = (goal & !(0xF << (4 * n))) | tile << (4 * goal_blank);
            (n, squeeze(state, n) >> 4)
        })
        .collect()
}

/// The moves of every cell, in Korf's order; whether a cell's moves need the entries' nibble
/// 0; and for every cell the runs (parent cell, move) whose successors land on it, by parent
/// cell. Fixed for the whole search.
struct CellMoves {
    steps: [[Step; 4]; 16],
    needs_full: [bool; 16],
    inbound: Vec<Vec<(usize, usize)>>,
}

impl CellMoves {
    fn new(geometry: &Geometry) -> CellMoves {
        let mut steps = [[Step::default(); 4]; 16];
        let mut needs_full = [false; 16];
        let mut inbound: Vec<Vec<(usize, usize)>> = vec![Vec::new(); geometry.cells];
        for (b, cell_steps) in steps.iter_mut().enumerate().take(geometry.cells) {
            let count = usize::from(geometry.neighbour_count[b]);
            for (k, step) in cell_steps[..count].iter_mut().enumerate() {
                let n = usize::from(geometry.neighbours[b][k]);
                *step = Step::new(geometry, b, n);
                needs_full[b] |= step.mask & FROM != 0;
                inbound[n].push((b, k));
            }
        }
        CellMoves {
            steps,
            needs_full,
            inbound,
        }
    }
}

/// Where each run of a layer's successors goes in the output buffer, sized exactly before
/// any is produced: run (bucket b, move k) fills `start[b][k]..end[b][k]`, and the slot after
/// every run ends up holding `u64::MAX` (the merge's sentinel).
struct Runs {
    start: [[usize; 4]; 16],
    end: [[usize; 4]; 16],
    /// Successors in all runs.
    total: usize,
    /// Successors plus one sentinel slot per run.
    slots: usize,
    /// The longest run of a vertical move (the sort's scratch length).
    largest_vertical: usize,
}

impl Runs {
    /// Writes the merge's sentinel (`u64::MAX`) into the slot after every run.
    fn write_sentinels(&self, geometry: &Geometry, spare: &mut [MaybeUninit<u64>]) {
        for b in 0..geometry.cells {
            for &end in &self.end[b][..usize::from(geometry.neighbour_count[b])] {
                spare[end].write(u64::MAX);
            }
        }
    }

    fn size(
        geometry: &Geometry,
        layer: &NibbleLayer,
        steps: &[[Step; 4]; 16],
        came_from: &[[usize; 16]; 16],
    ) -> Runs {
        let mut runs = Runs {
            start: [[0; 4]; 16],
            end: [[0; 4]; 16],
            total: 0,
            slots: 0,
            largest_vertical: 0,
        };
        for b in 0..geometry.cells {
            let n = layer.start[b + 1] - layer.start[b];
            let count = usize::from(geometry.neighbour_count[b]);
            for (k, step) in steps[b][..count].iter().enumerate() {
                let len = n - came_from[b][step.next];
                runs.start[b][k] = runs.slots;
                runs.end[b][k] = runs.slots + len;
                runs.slots += len + 1;
                runs.total += len;
                if step.hi != 0 {
                    runs.largest_vertical = runs.largest_vertical.max(len);
                }
            }
        }
        runs
    }
}

/// The next layer from a layer's successors in `out` (every run written, sentinels included):
/// the runs of vertical moves sorted (those of horizontal moves are in order already), then
/// the runs landing on each cell merged, dropping repeats and the `previous` layer's states.
/// `came_from` is rewritten for the new layer.
fn sort_and_merge(
    out: &mut [u64],
    scratch: &mut [u64],
    runs: &Runs,
    moves: &CellMoves,
    previous: Option<&NibbleLayer>,
    came_from: &mut [[usize; 16]; 16],
    geometry: &Geometry,
) -> NibbleLayer {
    let cells = geometry.cells;
    for b in 0..cells {
        for k in 0..usize::from(geometry.neighbour_count[b]) {
            let step = &moves.steps[b][k];
            if step.hi != 0 {
                let run = &mut out[runs.start[b][k]..runs.end[b][k]];
                sort_run(run, scratch, step.lo, step.hi);
            }
        }
    }
    let mut next_layer = NibbleLayer {
        keys: Vec::with_capacity(runs.total),
        start: [0; 17],
    };
    advise_huge_pages(&next_layer.keys);
    *came_from = [[0; 16]; 16];
    for (c, came) in came_from.iter_mut().enumerate().take(cells) {
        // Every run with its sentinel.
        let mut inbound: [&[u64]; 4] = [&[u64::MAX]; 4];
        for (slot, &(b, k)) in inbound.iter_mut().zip(&moves.inbound[c]) {
            *slot = &out[runs.start[b][k]..=runs.end[b][k]];
        }
        let before: &[u64] = previous.map_or(&[], |p| p.bucket(c));
        let keys = &mut next_layer.keys;
        match moves.inbound[c].len() {
            1 => merge_runs::<1>(&[inbound[0]], before, keys, came),
            2 => merge_runs::<2>(&[inbound[0], inbound[1]], before, keys, came),
            3 => merge_runs::<3>(&[inbound[0], inbound[1], inbound[2]], before, keys, came),
            _ => merge_runs::<4>(&inbound, before, keys, came),
        }
        next_layer.start[c + 1] = next_layer.keys.len();
    }
    for c in cells..16 {
        next_layer.start[c + 1] = next_layer.keys.len();
    }
    next_layer.keys.shrink_to_fit();
    next_layer
}

/// The solution's moves: from the goal's producer (`state` with its blank on `blank`, in the
/// newest layer) back through the layers by the came-from cells to the root.
fn nibble_path_back(
    geometry: &Geometry,
    layers: &[NibbleLayer],
    goal: u64,
    state: u64,
    blank: usize,
) -> Vec<Move> {
    let mut blanks = vec![goal.blank(geometry.cells), blank];
    let (mut state, mut blank) = (state, blank);
    for layer in layers.iter().rev() {
        let bucket = layer.bucket(blank);
        let key = squeeze(state, blank) >> 4;
        let i = bucket.partition_point(|&e| e >> 4 < key);
        let from = (bucket[i] & FROM) as usize;
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
}

/// Asks the kernel to back the 2 MiB-aligned interior of `v`'s allocation (its capacity,
/// before it is written) with transparent huge pages: a layer's buffers are written once
/// from end to end, and a fault per 4 KiB page costs more than the writing (a hint; ignored
/// where unsupported).
fn advise_huge_pages(v: &Vec<u64>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (v.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (v.as_ptr() as usize + v.capacity() * 8) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside `v`'s allocation; MADV_HUGEPAGE does not change
            // its contents or validity.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Entries held: the kept layers' and the successors produced by the current layer.
fn stored(layers: &[NibbleLayer], produced: usize) -> u64 {
    (layers.iter().map(|l| l.keys.len()).sum::<usize>() + produced) as u64
}

/// Groups up to this long are sorted by insertion.
const SMALL_GROUP: usize = 24;

/// Sorts the run of a vertical move's successors (in their parents' order). Entries with equal
/// bits from `hi` up are contiguous and in order between groups; within a group, a stable sort
/// by the bits `lo..hi` puts them in order (the rest of their order is their parents').
/// The entries of a run are distinct, so any sort by value gives the same result.
/// Out of line: called once per run and layer, and so visible in profiles.
#[inline(never)]
fn sort_run(run: &mut [u64], scratch: &mut [u64], lo: u32, hi: u32) {
    let mut i = 0;
    while i < run.len() {
        let top = run[i] >> hi;
        let mut j = i + 1;
        while j < run.len() && run[j] >> hi == top {
            j += 1;
        }
        let group = &mut run[i..j];
        if group.len() <= SMALL_GROUP {
            insertion_sort(group);
        } else {
            nibble_sort(group, scratch, lo, hi);
        }
        i = j;
    }
}

fn insertion_sort(v: &mut [u64]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// A stable LSD radix sort of `v` by its bits `lo..hi`, a nibble a pass; `scratch` at least as
/// long as `v`.
fn nibble_sort(v: &mut [u64], scratch: &mut [u64], lo: u32, hi: u32) {
    let n = v.len();
    let scratch = &mut scratch[..n];
    let digits = ((hi - lo) / 4) as usize;
    let mut counts = [[0u32; 16]; 15];
    for &e in v.iter() {
        for (d, c) in counts[..digits].iter_mut().enumerate() {
            c[((e >> (lo as usize + 4 * d)) & 0xF) as usize] += 1;
        }
    }
    let mut in_scratch = false;
    for (d, c) in counts[..digits].iter_mut().enumerate() {
        // A digit that all entries share leaves the order as it is.
        if c.iter().any(|&k| k as usize == n) {
            continue;
        }
        let mut sum = 0u32;
        for k in c.iter_mut() {
            let here = *k;
            *k = sum;
            sum += here;
        }
        let shift = lo as usize + 4 * d;
        let (from, to): (&[u64], &mut [u64]) = if in_scratch {
            (&scratch[..], &mut v[..])
        } else {
            (&v[..], &mut scratch[..])
        };
        for &e in from {
            let slot = &mut c[((e >> shift) & 0xF) as usize];
            to[*slot as usize] = e;
            *slot += 1;
        }
        in_scratch = !in_scratch;
    }
    if in_scratch {
        v.copy_from_slice(scratch);
    }
}

/// The arguments of [`expand_bucket`]: entries of bucket `b`, its moves, `b`, whether the
/// moves need the entries' nibble 0, the xor of the tiles, the runs, and the runs' ends.
type ExpandArgs<'a> = (
    &'a [u64],
    &'a [Step],
    usize,
    bool,
    u64,
    &'a mut [MaybeUninit<u64>],
    &'a mut [usize; 4],
);

/// Expands entries of bucket `b` (whose moves have `K` steps; none produces the goal) into
/// the runs of their moves, without branches: every successor is written, and its run's end
/// advanced unless the move goes back to the entry's came-from cell (a later write, at the
/// latest the run's sentinel, overwrites such a slot). Returns the successors produced.
#[inline(never)]
fn expand_bucket<const K: usize>(args: ExpandArgs) -> u64 {
    let (bucket, steps, b, full_key, tiles_xor, spare, at) = args;
    let steps: &[Step; K] = steps.try_into().expect("K steps");
    let mut ends = [0usize; K];
    ends.copy_from_slice(&at[..K]);
    for &entry in bucket {
        let key = if full_key {
            full(entry, tiles_xor)
        } else {
            entry
        };
        let from = (entry & FROM) as usize;
        for k in 0..K {
            let child = (steps[k].apply(key) & !FROM) | b as u64;
            spare[ends[k]].write(child);
            ends[k] += usize::from(steps[k].next != from);
        }
    }
    let mut produced = 0;
    for k in 0..K {
        produced += (ends[k] - at[k]) as u64;
        at[k] = ends[k];
    }
    produced
}

/// Appends to `layer` the merge of the `R` sorted `runs` (the successors landing on one cell,
/// by their parents' cells, each ending with the sentinel u64::MAX, which no entry reaches:
/// their top nibble is 0), keeping the first entry of each state (the smallest came-from cell:
/// the first discoverer's) and dropping the states in `before` (the previous layer's bucket);
/// counts the kept entries by came-from cell.
#[inline(never)]
fn merge_runs<const R: usize>(
    runs: &[&[u64]; R],
    before: &[u64],
    layer: &mut Vec<u64>,
    came_from: &mut [usize; 16],
) {
    let mut at = [0usize; R];
    let mut head = [0u64; R];
    for r in 0..R {
        head[r] = runs[r][0];
    }
    let mut last = u64::MAX;
    let mut j = 0;
    loop {
        // Entries of different runs differ (in their came-from cells): one run holds the least.
        let mut e = head[0];
        for h in &head[1..] {
            e = e.min(*h);
        }
        if e == u64::MAX {
            break;
        }
        for r in 0..R {
            at[r] += usize::from(head[r] == e);
            head[r] = runs[r][at[r]];
        }
        let state = e >> 4;
        if state == last {
            continue;
        }
        last = state;
        while j < before.len() && before[j] >> 4 < state {
            j += 1;
        }
        if j < before.len() && before[j] >> 4 == state {
            continue;
        }
        layer.push(e);
        came_from[(e & FROM) as usize] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;

    /// SplitMix64.
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    /// A random arrangement of the tiles 0..cells (0 the blank), packed a nibble a cell.
    fn random_state(cells: usize, next: &mut impl FnMut() -> u64) -> u64 {
        let mut tiles: Vec<u64> = (0..cells as u64).collect();
        for i in (1..cells).rev() {
            tiles.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        tiles
            .iter()
            .enumerate()
            .fold(0, |acc, (c, &t)| acc | t << (4 * c))
    }

    /// The state with the blank (on `blank`) and the tile on `next` swapped, nibble by nibble.
    fn swapped(state: u64, blank: usize, next: usize) -> u64 {
        let tile = (state >> (4 * next)) & 0xF;
        (state & !(0xF << (4 * next)) & !(0xF << (4 * blank))) | tile << (4 * blank)
    }

    /// The blank's cell, by looking.
    fn blank_of(state: u64, cells: usize) -> usize {
        (0..cells).find(|&c| (state >> (4 * c)) & 0xF == 0).unwrap()
    }

    const SIZES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 3), (2, 4), (4, 2), (4, 4)];

    #[test]
    fn a_step_on_a_squeezed_state_is_the_move() {
        let mut next = rng(1);
        for (rows, cols) in SIZES {
            let geometry = Geometry::new(rows, cols, Goal::BlankLast);
            let cells = rows * cols;
            for _ in 0..2000 {
                let state = random_state(cells, &mut next);
                let b = blank_of(state, cells);
                let tiles_xor = xor_nibbles(state);
                let entry = (squeeze(state, b) & !FROM) | 7;
                assert_eq!(full(entry, tiles_xor), squeeze(state, b));
                assert_eq!(unsqueeze(squeeze(state, b), b), state);
                for k in 0..usize::from(geometry.neighbour_count[b]) {
                    let n = usize::from(geometry.neighbours[b][k]);
                    let step = Step::new(&geometry, b, n);
                    let child = swapped(state, b, n);
                    assert_eq!(
                        step.apply(squeeze(state, b)),
                        squeeze(child, n),
                        "{rows}x{cols} {b} -> {n}"
                    );
                    // Horizontal moves leave the squeezed state as it is.
                    assert_eq!(step.mask == 0, n.abs_diff(b) == 1);
                }
            }
        }
    }

    #[test]
    fn sorting_a_vertical_run_sorts_it() {
        let mut next = rng(2);
        for (rows, cols) in SIZES {
            let geometry = Geometry::new(rows, cols, Goal::BlankLast);
            let cells = rows * cols;
            let tiles_xor = (0..cells as u64).fold(0, |x, t| x ^ t);
            for b in 0..cells {
                for k in 0..usize::from(geometry.neighbour_count[b]) {
                    let n = usize::from(geometry.neighbours[b][k]);
                    let step = Step::new(&geometry, b, n);
                    if step.hi == 0 {
                        continue;
                    }
                    // A sorted bucket of distinct states with the blank on b, small and large
                    // (groups sorted by insertion and by counting passes).
                    for count in [5, 300, 20_000] {
                        let mut parents: Vec<u64> = (0..count)
                            .map(|_| {
                                let s = random_state(cells, &mut next);
                                let s = swapped(s, blank_of(s, cells), b);
                                (squeeze(s, b) & !FROM) | 3
                            })
                            .collect();
                        parents.sort_unstable();
                        parents.dedup();
                        let mut run: Vec<u64> = parents
                            .iter()
                            .map(|&e| (step.apply(full(e, tiles_xor)) & !FROM) | b as u64)
                            .collect();
                        let mut expected = run.clone();
                        expected.sort_unstable();
                        let mut scratch = vec![0; run.len()];
                        sort_run(&mut run, &mut scratch, step.lo, step.hi);
                        assert_eq!(run, expected, "{rows}x{cols} {b} -> {n}, {count}");
                    }
                }
            }
        }
    }

    #[test]
    fn merging_runs_keeps_the_first_of_each_state_and_drops_the_previous_layer() {
        let mut next = rng(3);
        for round in 0..200 {
            let states: Vec<u64> = (0..40).map(|_| (next() % 60) << 4).collect();
            // Up to four runs from distinct came-from cells, each sorted, with its sentinel.
            let runs: Vec<Vec<u64>> = [2u64, 5, 6, 9][..1 + round % 4]
                .iter()
                .map(|&from| {
                    let mut r: Vec<u64> = states
                        .iter()
                        .filter(|_| next().is_multiple_of(2))
                        .map(|&s| s | from)
                        .collect();
                    r.sort_unstable();
                    r.dedup();
                    r.push(u64::MAX);
                    r
                })
                .collect();
            let mut before: Vec<u64> = (0..10).map(|_| (next() % 60) << 4 | 1).collect();
            before.sort_unstable();
            before.dedup_by_key(|e| *e >> 4);
            // The reference: all entries in order, the first of each state, minus `before`.
            let mut all: Vec<u64> = runs
                .iter()
                .flatten()
                .copied()
                .filter(|&e| e != u64::MAX)
                .collect();
            all.sort_unstable();
            all.dedup_by_key(|e| *e >> 4);
            all.retain(|e| !before.iter().any(|b| b >> 4 == e >> 4));
            let mut got = Vec::new();
            let mut came_from = [0usize; 16];
            let r: Vec<&[u64]> = runs.iter().map(Vec::as_slice).collect();
            match r.len() {
                1 => merge_runs::<1>(&[r[0]], &before, &mut got, &mut came_from),
                2 => merge_runs::<2>(&[r[0], r[1]], &before, &mut got, &mut came_from),
                3 => merge_runs::<3>(&[r[0], r[1], r[2]], &before, &mut got, &mut came_from),
                _ => merge_runs::<4>(&[r[0], r[1], r[2], r[3]], &before, &mut got, &mut came_from),
            }
            assert_eq!(got, all, "round {round}");
            for (c, &counted) in came_from.iter().enumerate() {
                let n = all.iter().filter(|&&e| (e & FROM) as usize == c).count();
                assert_eq!(counted, n);
            }
        }
    }
}
