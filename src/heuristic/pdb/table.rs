//! One pattern database: the perfect hash of the pattern tiles' cells and the backward
//! breadth-first build over the abstract space.
//!
//! # Index
//! The entry of a pattern placement is the k-permutation rank of the pattern tiles' cells
//! `(p_0, .., p_{k-1})` (in the order the group lists its tiles): digit `i` is `p_i` minus the
//! number of earlier tiles on lower cells, the digits are read in mixed radix
//! `n, n-1, .., n-k+1`, so the table has exactly `n! / (n-k)!` entries.
//!
//! # Build
//! An abstract state is a placement of the pattern tiles plus the blank. Moving a tile outside
//! the pattern costs 0 in an additive database, so the blank moves freely within its connected
//! region of non-pattern cells; a state is therefore (placement, blank region). The search is a
//! plain breadth-first search over those states backwards from the goal (the moves are their
//! own inverses), one level per pattern-tile move. Each entry stores the smallest level at which
//! its placement was reached, i.e. the minimum over the blank's positions.
//!
//! Per placement the build keeps 2 bits per cell: 0 = not reached, 1 = done, 2 or 3 = in the
//! current or the next level (the roles alternate). A whole region is marked at once. The
//! levels are processed in parallel over index ranges with atomic updates; two threads can only
//! race to mark the same region of the same placement with the same value, which is harmless
//! (on more than 32 cells, where an entry's codes take two words, the entry's value is then set
//! by whichever finds it unreached: neither can tell whether it marked first).

use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::geometry::{Geometry, MAX_EXACT_CELLS};

/// The value of an entry the build has not reached (only unreachable placements keep it).
pub const UNREACHED: u8 = u8::MAX;

/// The number of entries of a database of `k` tiles on `n` cells: `n! / (n-k)!`, or `None` if
/// that does not fit in `u64`.
pub fn entries(n: usize, k: usize) -> Option<u64> {
    (0..k).try_fold(1u64, |acc, i| acc.checked_mul((n - i) as u64))
}

/// `POP8[b]`: the number of set bits of the byte `b`.
static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The number of set bits of `m`: one instruction where the target has POPCNT, else a byte
/// table (cheaper than the generic bit trick for the sparse masks of small boards).
#[inline(always)]
fn popcount<const HW: bool>(mut m: u64) -> usize {
    if HW || cfg!(target_feature = "popcnt") {
        m.count_ones() as usize
    } else {
        let mut c = 0;
        while m != 0 {
            c += POP8[(m & 0xFF) as usize] as usize;
            m >>= 8;
        }
        c
    }
}

/// The rank of the cells `pos` (one per pattern tile, distinct, each `< n`).
#[inline(always)]
pub fn rank(n: usize, pos: impl IntoIterator<Item = u8>) -> usize {
    rank_with::<false>(n, pos)
}

/// [`rank`] of the cells in a slice, on a board of any size (`u8` cells up to 256, `u16`
/// beyond: the one rank of the pattern databases' lookups, small boards' and
/// [`super::large`]'s), counting the earlier cells below each one by comparisons
/// (branch-free, and cheaper than a population count without the POPCNT instruction for the
/// few tiles of a pattern): the form the searches use per node.
#[inline(always)]
pub fn rank_of_cells<T: Copy + Ord + Into<usize>>(n: usize, cells: &[T]) -> usize {
    let mut r = 0usize;
    let mut radix = n;
    for (i, &p) in cells.iter().enumerate() {
        let below: usize = cells[..i].iter().map(|&q| usize::from(q < p)).sum();
        r = r * radix + (p.into() - below);
        radix -= 1;
    }
    r
}

/// [`rank`]; with `HW`, counting bits with the POPCNT instruction (only in code compiled for
/// it).
#[inline(always)]
fn rank_with<const HW: bool>(n: usize, pos: impl IntoIterator<Item = u8>) -> usize {
    let mut used = 0u64;
    let mut r = 0usize;
    let mut radix = n;
    for p in pos {
        let p = p as u32 & 63;
        let below = popcount::<HW>(used & ((1u64 << p) - 1));
        r = r * radix + (p as usize - below);
        used |= 1u64 << p;
        radix -= 1;
    }
    r
}

/// The largest direct table [`spread_direct`] makes: 2^28 entries (256 MiB).
pub const MAX_DIRECT_ENTRIES: u64 = 1 << 28;

/// The number of entries of the direct layout of a `k`-tile database on `n` cells: `n^k`, one
/// per tuple of cells, or `None` if that exceeds [`MAX_DIRECT_ENTRIES`] or `max_ratio` times
/// the compact layout.
pub fn direct_entries(n: usize, k: usize, max_ratio: u64) -> Option<u64> {
    let direct = (0..k).try_fold(1u64, |acc, _| acc.checked_mul(n as u64))?;
    let compact = entries(n, k)?;
    (direct <= MAX_DIRECT_ENTRIES && direct <= compact.saturating_mul(max_ratio)).then_some(direct)
}

/// The direct index of the cells `(p_0, .., p_{k-1})`: `sum p_i n^(k-1-i)`. Unlike the rank,
/// it changes by `(to - from) n^(k-1-i)` when tile `i` moves, so a search can keep it up to
/// date with one multiply-add per move instead of ranking the whole pattern per lookup.
#[inline(always)]
pub fn direct_index(n: usize, cells: &[u8]) -> usize {
    cells.iter().fold(0, |acc, &p| acc * n + usize::from(p))
}

/// The database `compact` (ranked layout, `k` tiles on `n` cells) in the direct layout of
/// [`direct_index`]; tuples with a repeated cell (no placement) hold 0. Built in parallel,
/// one chunk per cell of the first tile; the buffer is marked for huge pages.
pub fn spread_direct(n: usize, k: usize, compact: &[u8]) -> Vec<u8> {
    let len = (0..k).fold(1usize, |acc, _| acc * n);
    let mut out = super::store::table_buffer(len);
    if k == 0 {
        out[0] = compact[0];
        return out;
    }
    let chunk = len / n;
    out.par_chunks_mut(chunk)
        .enumerate()
        .for_each(|(first, part)| {
            spread_below(n, k, 1, 1u64 << first, 0, first, compact, part);
        });
    out
}

/// Places the tiles `i..k` on every free cell in turn (placements only, in increasing direct
/// index, so `part` is written in order), carrying the direct index `d` (within the first
/// tile's chunk) and the rank `r` of the tiles placed so far.
#[allow(clippy::too_many_arguments)]
fn spread_below(
    n: usize,
    k: usize,
    i: usize,
    used: u64,
    d: usize,
    r: usize,
    compact: &[u8],
    part: &mut [u8],
) {
    if i == k {
        part[d] = compact[r];
        return;
    }
    let radix = n - i;
    for p in 0..n {
        if used & (1u64 << p) != 0 {
            continue;
        }
        let below = (used & ((1u64 << p) - 1)).count_ones() as usize;
        spread_below(
            n,
            k,
            i + 1,
            used | (1u64 << p),
            d * n + p,
            r * radix + (p - below),
            compact,
            part,
        );
    }
}

/// The inverse of [`rank`]: fills `pos[..k]` and returns the occupancy mask.
#[inline(always)]
pub fn unrank(n: usize, k: usize, mut r: usize, pos: &mut [u8; MAX_EXACT_CELLS]) -> u64 {
    let mut digits = [0u8; MAX_EXACT_CELLS];
    for i in (0..k).rev() {
        let radix = n - i;
        digits[i] = (r % radix) as u8;
        r /= radix;
    }
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut used = 0u64;
    for i in 0..k {
        let mut free = all & !used;
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let p = free.trailing_zeros();
        pos[i] = p as u8;
        used |= 1u64 << p;
    }
    used
}

/// Bit masks of the board used by the build.
struct Masks {
    all: u64,
    not_last_col: u64,
    not_first_col: u64,
    cols: u32,
    adj: [u64; MAX_EXACT_CELLS],
}

impl Masks {
    fn new(g: &Geometry) -> Masks {
        let mut m = Masks {
            all: if g.cells == 64 {
                u64::MAX
            } else {
                (1u64 << g.cells) - 1
            },
            not_last_col: 0,
            not_first_col: 0,
            cols: g.cols as u32,
            adj: [0; MAX_EXACT_CELLS],
        };
        for c in 0..g.cells {
            if g.col(c) != g.cols - 1 {
                m.not_last_col |= 1 << c;
            }
            if g.col(c) != 0 {
                m.not_first_col |= 1 << c;
            }
            for k in 0..g.neighbour_count[c] as usize {
                m.adj[c] |= 1 << g.neighbours[c][k];
            }
        }
        m
    }

    /// The cells of `free` connected to `seed` (which must be in `free`).
    #[inline(always)]
    fn flood(&self, seed: u64, free: u64) -> u64 {
        let mut r = seed;
        loop {
            let grown = (r
                | ((r & self.not_last_col) << 1)
                | ((r & self.not_first_col) >> 1)
                | (r << self.cols)
                | (r >> self.cols))
                & free;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }
}

/// The per-placement, per-cell 2-bit state of the build.
trait Codes: Sync + Sized {
    fn zeroed(len: usize) -> Self;
    /// The cells of entry `i` holding `code`.
    fn cells_with(&self, i: usize, code: u64) -> u64;
    /// Whether `cell` of entry `i` has been reached.
    fn reached(&self, i: usize, cell: u32) -> bool;
    /// Sets the cells `mask` of entry `i` (all holding 0) to `code`; returns whether no cell
    /// of the entry had been reached before (exactly, if [`Codes::EXACT_FIRST`]; else `true`
    /// means "maybe").
    fn mark(&self, i: usize, mask: u64, code: u64) -> bool;
    /// Whether [`Codes::mark`]'s answer is exact.
    const EXACT_FIRST: bool;
    /// Hints that entry `i` will be accessed soon.
    #[inline(always)]
    fn prefetch(&self, _i: usize) {}
    /// Changes the cells `mask` of entry `i` from `code` (2 or 3) to 1 (done).
    fn close(&self, i: usize, mask: u64, code: u64);
}

/// Spreads the low 32 bits of `x` to the even bits of a u64.
#[inline(always)]
fn spread(mut x: u64) -> u64 {
    x &= 0xFFFF_FFFF;
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & 0x5555_5555_5555_5555
}

/// The inverse of [`spread`]: gathers the even bits of `x`.
#[inline(always)]
fn gather(mut x: u64) -> u64 {
    x &= 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) & 0xFFFF_FFFF
}

/// The cells of a word of 32 2-bit codes holding `code`.
#[inline(always)]
fn word_cells_with(w: u64, code: u64) -> u64 {
    let lo = w;
    let hi = w >> 1;
    let m = match code {
        1 => lo & !hi,
        2 => !lo & hi,
        _ => lo & hi,
    };
    gather(m)
}

/// Asks the CPU to fetch the cache line at `p` (the build's accesses are random; issuing them
/// early overlaps the memory latencies).
#[inline(always)]
fn prefetch(p: *const i8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint without memory effects; SSE is baseline on x86_64.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Up to 16 cells: one `u32` per entry.
struct Codes32(Vec<AtomicU32>);

impl Codes for Codes32 {
    fn zeroed(len: usize) -> Self {
        Codes32((0..len).map(|_| AtomicU32::new(0)).collect())
    }
    #[inline(always)]
    fn cells_with(&self, i: usize, code: u64) -> u64 {
        let w = self.0[i].load(Ordering::Relaxed);
        if w == 0 {
            return 0;
        }
        word_cells_with(u64::from(w), code) & 0xFFFF
    }
    #[inline(always)]
    fn reached(&self, i: usize, cell: u32) -> bool {
        (self.0[i].load(Ordering::Relaxed) >> (2 * cell)) & 3 != 0
    }
    const EXACT_FIRST: bool = true;
    #[inline(always)]
    fn mark(&self, i: usize, mask: u64, code: u64) -> bool {
        self.0[i].fetch_or((spread(mask) * code) as u32, Ordering::Relaxed) == 0
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        prefetch(self.0[i..].as_ptr().cast());
    }
    #[inline(always)]
    fn close(&self, i: usize, mask: u64, code: u64) {
        self.0[i].fetch_xor((spread(mask) * (code ^ 1)) as u32, Ordering::Relaxed);
    }
}

/// Up to 64 cells: `W` u64 words of 32 cells each per entry.
struct Codes64<const W: usize>(Vec<AtomicU64>);

impl<const W: usize> Codes for Codes64<W> {
    fn zeroed(len: usize) -> Self {
        Codes64((0..len * W).map(|_| AtomicU64::new(0)).collect())
    }
    #[inline(always)]
    fn cells_with(&self, i: usize, code: u64) -> u64 {
        let mut m = 0;
        for j in 0..W {
            let w = self.0[i * W + j].load(Ordering::Relaxed);
            if w != 0 {
                m |= word_cells_with(w, code) << (32 * j);
            }
        }
        m
    }
    #[inline(always)]
    fn reached(&self, i: usize, cell: u32) -> bool {
        let w = self.0[i * W + (cell / 32) as usize].load(Ordering::Relaxed);
        (w >> (2 * (cell % 32))) & 3 != 0
    }
    const EXACT_FIRST: bool = W == 1;
    #[inline(always)]
    fn mark(&self, i: usize, mask: u64, code: u64) -> bool {
        let mut first = true;
        for j in 0..W {
            let part = (mask >> (32 * j)) & 0xFFFF_FFFF;
            if part != 0 {
                first &= self.0[i * W + j].fetch_or(spread(part) * code, Ordering::Relaxed) == 0;
            }
        }
        first
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        prefetch(self.0[i * W..].as_ptr().cast());
    }
    #[inline(always)]
    fn close(&self, i: usize, mask: u64, code: u64) {
        for j in 0..W {
            let part = (mask >> (32 * j)) & 0xFFFF_FFFF;
            if part != 0 {
                self.0[i * W + j].fetch_xor(spread(part) * (code ^ 1), Ordering::Relaxed);
            }
        }
    }
}

/// Whether the CPU counts bits in one instruction (the build then runs a variant compiled
/// for it; the crate itself is built for the baseline target).
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One breadth-first level of a build.
struct Level<'a, C> {
    n: usize,
    k: usize,
    #[allow(dead_code)]
    size: usize,
    cur: u64,
    next: u64,
    next_value: u8,
    masks: &'a Masks,
    codes: &'a C,
    table: &'a [AtomicU8],
}

impl<C: Codes> Level<'_, C> {
    /// Expands the entries `range` that are in the current level; returns the states added.
    fn expand(&self, range: std::ops::Range<usize>, fast: bool) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if fast {
            // SAFETY: `fast` is true only when the CPU has POPCNT (checked at run time).
            return unsafe { self.expand_popcnt(range) };
        }
        let _ = fast;
        self.expand_body::<false>(range)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn expand_popcnt(&self, range: std::ops::Range<usize>) -> u64 {
        self.expand_body::<true>(range)
    }

    #[inline(always)]
    fn expand_body<const HW: bool>(&self, range: std::ops::Range<usize>) -> u64 {
        let (n, k, codes, masks, table) = (self.n, self.k, self.codes, self.masks, self.table);
        let mut added = 0u64;
        let mut pos = [0u8; MAX_EXACT_CELLS];
        let mut succ = [(0usize, 0u8, 0u8); 4 * MAX_EXACT_CELLS];
        for i in range {
            let frontier = codes.cells_with(i, self.cur);
            if frontier == 0 {
                continue;
            }
            codes.close(i, frontier, self.cur);
            let occ = unrank(n, k, i, &mut pos);
            // All successors first (ranks prefetched), then their updates.
            let mut count = 0;
            for t in 0..k {
                let p = pos[t];
                let mut targets = masks.adj[p as usize] & frontier;
                while targets != 0 {
                    let q = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let r = rank_with::<HW>(n, (0..k).map(|j| if j == t { q } else { pos[j] }));
                    codes.prefetch(r);
                    succ[count] = (r, p, q);
                    count += 1;
                }
            }
            for &(r, p, q) in &succ[..count] {
                if codes.reached(r, u32::from(p)) {
                    continue;
                }
                let occ2 = occ ^ (1u64 << p) ^ (1u64 << q);
                let region = masks.flood(1u64 << p, masks.all & !occ2);
                let first = codes.mark(r, region, self.next);
                // With two words per entry, two threads marking one region can each find the
                // other's bits in one of the words, and both answer "not first": the entry is
                // then set whenever it is still unreached (levels are built one after the other,
                // so the first level to reach it sets it).
                let set = if C::EXACT_FIRST {
                    first
                } else {
                    table[r].load(Ordering::Relaxed) == UNREACHED
                };
                if set {
                    table[r].store(self.next_value, Ordering::Relaxed);
                }
                added += 1;
            }
        }
        added
    }
}

/// What a build found, beside the table.
#[derive(Debug, Clone, Default)]
pub struct BuildStats {
    /// Abstract states (placement, blank region) reached.
    pub states: u64,
    /// Breadth-first levels (the largest entry + 1).
    pub levels: u32,
}

/// Bytes the build needs for a database of `entries` entries on `cells` cells (table plus the
/// per-cell build state).
pub fn build_bytes(cells: usize, entries: u64) -> u64 {
    let per = if cells <= 16 {
        4
    } else if cells <= 32 {
        8
    } else {
        16
    };
    entries.saturating_mul(per + 1)
}

/// Builds the database of the pattern `tiles` (each `1..cells`, distinct) for `g`: entry `i`
/// is the fewest moves of pattern tiles that bring the placement of rank `i` to the goal.
pub fn build(g: &Geometry, tiles: &[u8]) -> (Vec<u8>, BuildStats) {
    if g.cells <= 16 {
        build_with::<Codes32>(g, tiles)
    } else if g.cells <= 32 {
        build_with::<Codes64<1>>(g, tiles)
    } else {
        build_with::<Codes64<2>>(g, tiles)
    }
}

fn build_with<C: Codes>(g: &Geometry, tiles: &[u8]) -> (Vec<u8>, BuildStats) {
    let n = g.cells;
    let k = tiles.len();
    let size = entries(n, k).expect("database size checked by the caller") as usize;
    let masks = Masks::new(g);
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNREACHED)).collect();
    let codes = C::zeroed(size);

    let goal_pos = tiles.iter().map(|&t| g.goal_cell[t as usize]);
    let r0 = rank(n, goal_pos.clone());
    let occ0 = goal_pos.fold(0u64, |m, c| m | 1 << c);
    let blank0 = 1u64 << g.goal_cell[0];
    codes.mark(r0, masks.flood(blank0, masks.all & !occ0), 2);
    table[r0].store(0, Ordering::Relaxed);

    let mut stats = BuildStats {
        states: 1,
        levels: 1,
    };
    const CHUNK: usize = 1 << 14;
    let fast = has_popcnt();
    let chunks = size.div_ceil(CHUNK);
    for level in 0u32.. {
        let cur = 2 + u64::from(level % 2);
        let next = cur ^ 1;
        let next_value = (level + 1).min(u32::from(UNREACHED - 1)) as u8;
        let level_ctx = Level {
            n,
            k,
            size,
            cur,
            next,
            next_value,
            masks: &masks,
            codes: &codes,
            table: &table,
        };
        let added: u64 = (0..chunks)
            .into_par_iter()
            .map(|ch| level_ctx.expand(ch * CHUNK..(ch * CHUNK + CHUNK).min(size), fast))
            .sum();
        if added == 0 {
            break;
        }
        stats.states += added;
        stats.levels = level + 2;
    }
    drop(codes);
    let table: Vec<u8> = table.into_iter().map(AtomicU8::into_inner).collect();
    (table, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_onto_the_index_range() {
        let n = 6;
        let k = 3;
        let size = entries(n, k).unwrap() as usize;
        assert_eq!(size, 120);
        let mut seen = vec![false; size];
        for a in 0..n as u8 {
            for b in 0..n as u8 {
                for c in 0..n as u8 {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    let r = rank(n, [a, b, c]);
                    assert_eq!(rank_of_cells(n, &[a, b, c]), r);
                    assert!(!seen[r]);
                    seen[r] = true;
                    let mut pos = [0u8; MAX_EXACT_CELLS];
                    let occ = unrank(n, k, r, &mut pos);
                    assert_eq!(&pos[..3], &[a, b, c]);
                    assert_eq!(occ, (1 << a) | (1 << b) | (1 << c));
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn spread_and_gather_invert() {
        for x in [0u64, 1, 0xFFFF_FFFF, 0x8000_0001, 0x1234_5678] {
            assert_eq!(gather(spread(x)), x);
        }
        assert_eq!(spread(0b101), 0b010001);
    }
}
