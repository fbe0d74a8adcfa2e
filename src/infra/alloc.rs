//! A counting global allocator: per-thread current and peak heap bytes, so that each job of
//! `bench run` (which runs on one worker thread) can report the most heap it held.
//!
//! Install it in a binary with
//!
//! ```
//! #[global_allocator]
//! static ALLOC: npuzzle::infra::alloc::CountingAlloc = npuzzle::infra::alloc::CountingAlloc;
//!
//! fn main() {
//!     let job = npuzzle::infra::alloc::start_job(None, None);
//!     let v = vec![0u8; 1 << 20];
//!     assert!(job.peak_bytes().unwrap() >= 1 << 20);
//!     drop(v);
//! }
//! ```
//!
//! The counters are thread-local: bytes allocated on a thread count on that thread, and bytes
//! freed count on the thread that frees them. A job's peak is measured relative to the thread's
//! level when [`start_job`] was called, so memory a thread already held does not count.
//!
//! Within a job, [`search_scope`] marks the search itself (`search::solve` opens it after the
//! heuristic's set-up and closes it before the replay check): the job's reported peak
//! ([`JobMemory::peak_bytes`]) is then the most heap the *search* held at once above the level
//! it started from, i.e. its own structures (nodes, hash table, open list, path) as they grew.
//! Heuristic tables built or loaded in the set-up (a pattern database the process keeps for
//! later jobs, say) are not part of it. The searches reserve no large block up front, so the
//! peak of a tiny search is tiny and that of a big one grows with it.
//!
//! The allocator can also enforce a per-job budget as a backstop to the searches' own checks:
//! when a job's heap grows past the budget given to [`start_job`], the job's flag is raised (the
//! runner passes it as the search's `Limits::memory_tripped`, so the search stops with
//! `Outcome::MemoryLimit` itself) and [`JobMemory::over_budget`] reports it. An allocation itself
//! never fails because of the budget.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

/// The counting allocator (a thin wrapper around [`System`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAlloc;

/// Set once the first allocation went through [`CountingAlloc`]: whether counts are real.
static ACTIVE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Bytes allocated minus bytes freed on this thread (can go negative when a thread frees
    /// what another allocated).
    static CURRENT: Cell<i64> = const { Cell::new(0) };
    /// The highest `CURRENT` since the last [`start_job`].
    static PEAK: Cell<i64> = const { Cell::new(0) };
    /// `CURRENT` above which the job's flag is raised (`i64::MAX` = no budget).
    static LIMIT: Cell<i64> = const { Cell::new(i64::MAX) };
    /// The flag to raise when `LIMIT` is passed (null = none).
    static FLAG: Cell<*const AtomicBool> = const { Cell::new(ptr::null()) };
    /// Whether `LIMIT` was passed since the last [`start_job`].
    static OVER: Cell<bool> = const { Cell::new(false) };
    /// `CURRENT` when the open [`search_scope`] began (`None` outside one).
    static SEARCH_BASE: Cell<Option<i64>> = const { Cell::new(None) };
    /// The peak of the last closed [`search_scope`] since the last [`start_job`], in bytes
    /// above its base.
    static SEARCH_PEAK: Cell<Option<i64>> = const { Cell::new(None) };
}

#[inline]
fn record_alloc(size: usize) {
    // `try_with`: during thread teardown the slots may be gone; those bytes go uncounted.
    let _ = CURRENT.try_with(|c| {
        let now = c.get() + size as i64;
        c.set(now);
        let _ = PEAK.try_with(|p| {
            if now > p.get() {
                p.set(now);
                let _ = LIMIT.try_with(|l| {
                    if now > l.get() {
                        over_limit();
                    }
                });
            }
        });
    });
}

#[cold]
fn over_limit() {
    let _ = OVER.try_with(|o| o.set(true));
    let _ = FLAG.try_with(|f| {
        let flag = f.get();
        if !flag.is_null() {
            // SAFETY: `start_job` stores a pointer into an `Arc` that `JobMemory` keeps alive
            // until it is dropped, and `JobMemory::drop` clears the pointer first.
            unsafe { (*flag).store(true, Ordering::Relaxed) };
        }
    });
}

#[inline]
fn record_free(size: usize) {
    let _ = CURRENT.try_with(|c| c.set(c.get() - size as i64));
}

// SAFETY: every call is forwarded to `System`; the bookkeeping only touches thread-local
// `Cell`s with const initialisers (no allocation, no lazy initialisation, no re-entry).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            mark_active();
            record_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            mark_active();
            record_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: forwarded; `p` was allocated by `System` with `layout`.
        unsafe { System.dealloc(p, layout) };
        record_free(layout.size());
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded; `p` was allocated by `System` with `layout`.
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size > layout.size() {
                // Count the new block before releasing the old one: the peak of a growing
                // vector is reached while both exist (when the block cannot grow in place).
                record_alloc(new_size);
                record_free(layout.size());
            } else {
                // A shrink gives the tail back (in place, or by remapping a mapped block):
                // the two blocks never exist at once.
                record_free(layout.size() - new_size);
            }
        }
        q
    }
}

#[inline]
fn mark_active() {
    if !ACTIVE.load(Ordering::Relaxed) {
        ACTIVE.store(true, Ordering::Relaxed);
    }
}

/// Whether [`CountingAlloc`] is the global allocator of this process (and so whether
/// [`JobMemory::peak_bytes`] means anything).
pub fn is_active() -> bool {
    ACTIVE.load(Ordering::Relaxed)
}

/// The heap accounting of one job on the current thread; see [`start_job`].
#[derive(Debug)]
pub struct JobMemory {
    base: i64,
    _flag: Option<std::sync::Arc<AtomicBool>>,
}

/// Starts measuring a job on the current thread: resets the peak to the current level and, with
/// `budget = Some(bytes)`, raises `flag` once the job holds more than `bytes` of heap.
pub fn start_job(budget: Option<u64>, flag: Option<std::sync::Arc<AtomicBool>>) -> JobMemory {
    let base = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(base));
    OVER.with(|o| o.set(false));
    SEARCH_BASE.with(|b| b.set(None));
    SEARCH_PEAK.with(|p| p.set(None));
    let limit = budget
        .and_then(|b| i64::try_from(b).ok())
        .map_or(i64::MAX, |b| base.saturating_add(b));
    LIMIT.with(|l| l.set(limit));
    FLAG.with(|f| {
        f.set(
            flag.as_ref()
                .map_or(ptr::null(), |a| a.as_ref() as *const _),
        )
    });
    JobMemory { base, _flag: flag }
}

impl JobMemory {
    /// The most heap bytes the job's search held at once above its level when it began (see
    /// [`search_scope`]); for a job that never reached its search (an error in the set-up), the
    /// most the job held above its start. `None` when the counting allocator is not installed.
    pub fn peak_bytes(&self) -> Option<u64> {
        is_active().then(|| self.counted_peak())
    }

    /// [`JobMemory::peak_bytes`] from the counters, whether or not they are real.
    fn counted_peak(&self) -> u64 {
        let peak = match (SEARCH_PEAK.with(Cell::get), SEARCH_BASE.with(Cell::get)) {
            (Some(p), _) => p,
            // A search still open (it panicked through its scope's drop): measure it so far.
            (None, Some(b)) => PEAK.with(Cell::get) - b,
            (None, None) => PEAK.with(Cell::get) - self.base,
        };
        peak.max(0) as u64
    }

    /// Whether the job's heap passed its budget.
    pub fn over_budget(&self) -> bool {
        OVER.with(Cell::get)
    }
}

/// Marks the search of the current job: from now until the returned value is dropped, the
/// thread's peak is measured from its current level; [`JobMemory::peak_bytes`] reports that
/// peak. Harmless outside a job (nothing reads it). The job's memory budget is not affected: it
/// still counts from [`start_job`].
pub fn search_scope() -> SearchScope {
    let now = CURRENT.with(Cell::get);
    SEARCH_BASE.with(|b| b.set(Some(now)));
    SEARCH_PEAK.with(|p| p.set(None));
    // The job's limit check runs when the peak rises; a peak at the current level keeps it
    // running from here on.
    PEAK.with(|p| p.set(now));
    SearchScope {
        _not_send: std::marker::PhantomData,
    }
}

/// An open search measurement (see [`search_scope`]); dropping it records the search's peak.
#[derive(Debug)]
pub struct SearchScope {
    /// Thread-bound: the counters are per thread.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for SearchScope {
    fn drop(&mut self) {
        let _ = SEARCH_BASE.try_with(|b| {
            if let Some(base) = b.take() {
                let peak = PEAK.try_with(Cell::get).unwrap_or(base);
                let _ = SEARCH_PEAK.try_with(|p| p.set(Some(peak - base)));
            }
        });
    }
}

impl Drop for JobMemory {
    fn drop(&mut self) {
        let _ = FLAG.try_with(|f| f.set(ptr::null()));
        let _ = LIMIT.try_with(|l| l.set(i64::MAX));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The library's unit tests run without the counting allocator, so the accounting is
    // exercised through the record functions directly.
    #[test]
    fn peak_is_relative_to_the_job_start_and_budget_raises_the_flag() {
        std::thread::spawn(|| {
            record_alloc(1000);
            let flag = std::sync::Arc::new(AtomicBool::new(false));
            let job = start_job(Some(5000), Some(flag.clone()));
            record_alloc(3000);
            record_free(2000);
            record_alloc(1500);
            assert_eq!(PEAK.with(Cell::get) - job.base, 3000);
            assert!(!job.over_budget());
            assert!(!flag.load(Ordering::Relaxed));
            record_alloc(4000);
            assert!(job.over_budget());
            assert!(flag.load(Ordering::Relaxed));
            drop(job);
            assert!(FLAG.with(Cell::get).is_null());
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_search_scope_measures_from_its_own_start() {
        std::thread::spawn(|| {
            let job = start_job(None, None);
            // Set-up: 10,000 bytes of tables, 4,000 of them kept through the search.
            record_alloc(10_000);
            record_free(6_000);
            {
                let _search = search_scope();
                record_alloc(300);
                record_alloc(200);
                record_free(450);
                record_alloc(100); // 150 held: the peak stays 500
            }
            // After the search (the replay check, say): not the search's.
            record_alloc(5_000);
            assert_eq!(job.counted_peak(), 500);
            drop(job);
            // Without a search, the job's own peak from its start.
            let job = start_job(None, None);
            record_alloc(700);
            record_free(700);
            assert_eq!(job.counted_peak(), 700);
            // A search whose scope is still open is measured so far.
            let _open = search_scope();
            record_alloc(40);
            assert_eq!(job.counted_peak(), 40);
        })
        .join()
        .unwrap();
    }
}
