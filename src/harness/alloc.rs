//! A counting global allocator: per-thread current and peak heap bytes, so that each job of
//! `bench run` (which runs on one worker thread) can report the most heap it held.
//!
//! Install it in a binary with
//!
//! ```
//! #[global_allocator]
//! static ALLOC: npuzzle::harness::alloc::CountingAlloc = npuzzle::harness::alloc::CountingAlloc;
//!
//! fn main() {
//!     let job = npuzzle::harness::alloc::start_job(None, None);
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
//! The allocator can also enforce a per-job budget as a backstop to the searches' own checks:
//! when a job's heap grows past the budget given to [`start_job`], the job's flag is raised (the
//! runner passes it as the search's `Limits::memory_tripped`, so the search stops with
//! `Status::MemoryLimit` itself) and [`JobMemory::over_budget`] reports it. An allocation itself
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
            // Count the new block before releasing the old one: the peak of a growing vector
            // is reached while both exist (when the block cannot grow in place).
            record_alloc(new_size);
            record_free(layout.size());
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
    /// The most heap bytes the job held at once (`None` when the counting allocator is not
    /// installed).
    pub fn peak_bytes(&self) -> Option<u64> {
        is_active().then(|| (PEAK.with(Cell::get) - self.base).max(0) as u64)
    }

    /// Whether the job's heap passed its budget.
    pub fn over_budget(&self) -> bool {
        OVER.with(Cell::get)
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
}
