//! The breadth-first sweep: 2 bits per position, one pass over the whole table per depth.
//!
//! Codes: `00` not reached, `11` expanded, and the frontier and the next layer as `01`/`10`,
//! their roles swapping with the depth's parity so that no pass is needed to turn "next" into
//! "frontier". The puzzle graph is undirected and bipartite, so a frontier position's
//! neighbours are either one layer back (already `11`) or one layer on; no parent is stored.
//!
//! Threads own disjoint ranges of blocks for reading and expanding, but write anywhere: a new
//! position is claimed with an atomic `fetch_or` on its 64-bit word (after a plain load showed
//! it unreached), and the thread that saw `00` in the returned value counts it. The only code
//! written during a sweep is "next", so a racing write is idempotent. Vertical neighbours land
//! far away, so their words are prefetched and the claims issued a few positions later.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{Cursor, MAX_CELLS, Space};

/// The low bit of every 2-bit slot.
const LOW: u64 = 0x5555_5555_5555_5555;

/// The code table: `words` zeroed 64-bit words in an anonymous mapping, so that the kernel
/// hands out zero pages lazily and can back them with huge pages (fewer TLB misses for the
/// random vertical writes).
pub struct Table {
    ptr: *mut AtomicU64,
    words: usize,
}

// SAFETY: the mapping is owned by the table and only accessed through atomics.
unsafe impl Send for Table {}
// SAFETY: as above; every access is an atomic operation.
unsafe impl Sync for Table {}

impl Table {
    /// Maps `words` zeroed words.
    pub fn new(words: usize) -> io::Result<Table> {
        let bytes = words.max(1) * 8;
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: advice on the mapping just created; failure only loses the hint.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE);
        }
        Ok(Table {
            ptr: ptr.cast(),
            words: words.max(1),
        })
    }

    /// The words.
    #[inline(always)]
    pub fn words(&self) -> &[AtomicU64] {
        // SAFETY: the mapping holds `words` zero-initialised u64s, valid as AtomicU64, for
        // the table's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr, self.words) }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping created in `new`.
        unsafe {
            libc::munmap(self.ptr.cast(), self.words * 8);
        }
    }
}

/// Something computed for every position when it is expanded (at its exact depth).
pub trait Visitor: Sync {
    /// Whether [`Visitor::visit`] does anything (if not, the sweep skips building the board).
    const ACTIVE: bool;
    /// Slots of the per-layer histogram.
    fn width(&self) -> usize;
    /// Adds one position (row-major tiles, 0 = blank, zero beyond the board; the blank on
    /// cell `blank`) to `hist`.
    fn visit(&self, hist: &mut [u64], tiles: &[u8; 64], blank: usize);
}

/// The visitor that does nothing.
pub struct NoVisit;

impl Visitor for NoVisit {
    const ACTIVE: bool = false;
    fn width(&self) -> usize {
        0
    }
    #[inline(always)]
    fn visit(&self, _: &mut [u64], _: &[u8; 64], _: usize) {}
}

/// What one sweep (one depth) found.
#[derive(Debug, Default)]
pub struct Sweep {
    /// Frontier positions expanded (the layer's size, a consistency check).
    pub expanded: u64,
    /// Positions reached for the first time (the next layer's size).
    pub new: u64,
    /// The frontier's indices, when asked for.
    pub collected: Vec<u64>,
    /// The visitor's histogram over the frontier.
    pub hist: Vec<u64>,
}

impl Sweep {
    fn merge(mut self, other: Sweep) -> Sweep {
        self.expanded += other.expanded;
        self.new += other.new;
        self.collected.extend(other.collected);
        if self.hist.len() < other.hist.len() {
            self.hist.resize(other.hist.len(), 0);
        }
        for (a, b) in self.hist.iter_mut().zip(other.hist) {
            *a += b;
        }
        self
    }
}

/// Marks `index` as the depth-0 frontier (code `01`).
pub fn seed(table: &Table, index: u64) {
    table.words()[(index >> 5) as usize].fetch_or(1 << ((index & 31) * 2), Relaxed);
}

/// The frontier's slots (low bit of each) in word `x` at `depth`.
#[inline(always)]
fn frontier(x: u64, depth: u32) -> u64 {
    if depth & 1 == 0 {
        x & !(x >> 1) & LOW
    } else {
        (x >> 1) & !x & LOW
    }
}

/// Expands the frontier at `depth` once, in parallel over chunks of `chunk` blocks. Returns
/// `None` if `stop` was raised before every chunk was done (the layer is then incomplete).
pub fn sweep<V: Visitor>(
    space: &Space,
    table: &Table,
    depth: u32,
    collect: bool,
    visitor: &V,
    chunk: u64,
    stop: &AtomicBool,
) -> Option<Sweep> {
    let chunks = space.blocks.div_ceil(chunk);
    let result = (0..chunks)
        .into_par_iter()
        .map(|k| {
            if stop.load(Relaxed) {
                return None;
            }
            let b0 = k * chunk;
            let b1 = (b0 + chunk).min(space.blocks);
            Some(sweep_chunk(space, table, depth, b0, b1, collect, visitor))
        })
        .reduce(
            || Some(Sweep::default()),
            |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a.merge(b)),
                _ => None,
            },
        );
    if stop.load(Relaxed) { None } else { result }
}

/// Claims positions for the next layer; vertical neighbours go through a short queue so that
/// their words are prefetched before the claim.
struct Marker<'a> {
    words: &'a [AtomicU64],
    next: u64,
    new: u64,
    queue: [u64; QUEUE],
    len: usize,
    pos: usize,
}

/// Prefetch distance (claims in flight).
const QUEUE: usize = 16;

impl Marker<'_> {
    #[inline(always)]
    fn mark(&mut self, e: u64) {
        let w = &self.words[(e >> 5) as usize];
        let sh = (e & 31) * 2;
        if (w.load(Relaxed) >> sh) & 3 == 0 {
            let prev = w.fetch_or(self.next << sh, Relaxed);
            if (prev >> sh) & 3 == 0 {
                self.new += 1;
            }
        }
    }

    #[inline(always)]
    fn later(&mut self, e: u64) {
        prefetch(&self.words[(e >> 5) as usize]);
        if self.len < QUEUE {
            self.queue[self.len] = e;
            self.len += 1;
        } else {
            let old = std::mem::replace(&mut self.queue[self.pos], e);
            self.pos = (self.pos + 1) % QUEUE;
            self.mark(old);
        }
    }

    fn flush(&mut self) {
        for i in 0..self.len {
            let e = self.queue[i];
            self.mark(e);
        }
        self.len = 0;
        self.pos = 0;
    }
}

#[inline(always)]
fn prefetch(w: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint; the address is a valid word of the table.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((w as *const AtomicU64).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = w;
}

/// One chunk of a sweep, compiled twice: with the `popcnt` instruction where the CPU has it
/// (the vertical rank update counts bits in every step; the baseline x86-64 target would
/// count them in software), and for the baseline.
fn sweep_chunk<V: Visitor>(
    space: &Space,
    table: &Table,
    depth: u32,
    b0: u64,
    b1: u64,
    collect: bool,
    visitor: &V,
) -> Sweep {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports popcnt (checked just above).
        return unsafe { sweep_chunk_popcnt(space, table, depth, b0, b1, collect, visitor) };
    }
    sweep_chunk_body(space, table, depth, b0, b1, collect, visitor)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn sweep_chunk_popcnt<V: Visitor>(
    space: &Space,
    table: &Table,
    depth: u32,
    b0: u64,
    b1: u64,
    collect: bool,
    visitor: &V,
) -> Sweep {
    sweep_chunk_body(space, table, depth, b0, b1, collect, visitor)
}

#[inline(always)]
fn sweep_chunk_body<V: Visitor>(
    space: &Space,
    table: &Table,
    depth: u32,
    b0: u64,
    b1: u64,
    collect: bool,
    visitor: &V,
) -> Sweep {
    let words = table.words();
    let cells = space.cells as u64;
    let cols = space.cols;
    let (e0, e1) = (b0 * cells, b1 * cells);
    let mut col = [0usize; MAX_CELLS];
    for (c, x) in col.iter_mut().enumerate() {
        *x = c % cols;
    }
    let convert_low = depth & 1 == 1; // 10 -> 11 sets the low bit, 01 -> 11 the high one
    let mut marker = Marker {
        words,
        next: if depth & 1 == 0 { 2 } else { 1 },
        new: 0,
        queue: [0; QUEUE],
        len: 0,
        pos: 0,
    };
    let mut out = Sweep {
        hist: vec![0; visitor.width()],
        ..Sweep::default()
    };
    let mut cursor = Cursor::new(space);
    cursor.seek(space, b0);
    let mut block = b0;
    let mut base = b0 * cells;
    for wi in (e0 >> 5)..=((e1 - 1) >> 5) {
        let x = words[wi as usize].load(Relaxed);
        let mut m = frontier(x, depth);
        let first = wi << 5;
        if first < e0 {
            m &= !0u64 << ((e0 - first) * 2);
        }
        if first + 32 > e1 {
            m &= (1u64 << ((e1 - first) * 2)) - 1;
        }
        if m == 0 {
            continue;
        }
        words[wi as usize].fetch_or(if convert_low { m } else { m << 1 }, Relaxed);
        while m != 0 {
            let e = first + u64::from(m.trailing_zeros() / 2);
            m &= m - 1;
            out.expanded += 1;
            if collect {
                out.collected.push(e);
            }
            let mut off = e - base;
            if off >= cells {
                if off < 8 * cells {
                    while off >= cells {
                        off -= cells;
                        block += 1;
                        base += cells;
                    }
                } else {
                    block = e / cells;
                    base = block * cells;
                    off = e - base;
                }
                cursor.seek(space, block);
            }
            let blank = off as usize;
            let seq = cursor.sequence(space, blank);
            if V::ACTIVE {
                let seq = *seq;
                let mut tiles = [0u8; 64];
                let mut k = 0;
                for (c, t) in tiles.iter_mut().enumerate().take(space.cells) {
                    if c != blank {
                        *t = seq[k] + 1;
                        k += 1;
                    }
                }
                visitor.visit(&mut out.hist, &tiles, blank);
            }
            let c = col[blank & (MAX_CELLS - 1)];
            if c > 0 {
                marker.mark(e - 1);
            }
            if c + 1 < cols {
                marker.mark(e + 1);
            }
            if blank + cols < space.cells {
                let nb = cursor.vertical(space, blank, true);
                marker.later(nb * cells + (blank + cols) as u64);
            }
            if blank >= cols {
                let nb = cursor.vertical(space, blank, false);
                marker.later(nb * cells + (blank - cols) as u64);
            }
        }
    }
    marker.flush();
    out.new = marker.new;
    out
}
