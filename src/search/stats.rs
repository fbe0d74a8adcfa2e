//! The search statistics, with one meaning for every algorithm (defined in the
//! [module documentation of `search`](super)), and the CPU clock they are measured with.

use std::time::Duration;

/// Counters with one meaning across all algorithms (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes whose successors were produced.
    pub expanded: u64,
    /// Nodes produced as successors, plus the root (once, also for IDA*).
    pub generated: u64,
    /// The most nodes held in memory at once.
    pub stored_peak: u64,
    /// Bytes the search's own structures held at their peak (an estimate from capacities).
    pub memory_bytes: u64,
    /// IDA* iterations (`None` for other algorithms).
    pub iterations: Option<u32>,
    /// CPU time the search spent on threads other than the calling one (parallel searches;
    /// zero for the others), for the harness's CPU-time column.
    pub helper_cpu: Duration,
    /// For IDA* stopped by a limit: every solution has at least this many moves (the bound
    /// of the unfinished iteration, all shorter ones having been searched completely).
    pub lower_bound: Option<u32>,
}

/// One IDA* iteration's counts (`bench solve --format json`, validation of `bench predict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct IterationCount {
    /// The iteration's cost bound.
    pub bound: u32,
    /// Nodes expanded in the iteration.
    pub expanded: u64,
    /// Nodes generated in the iteration, its root included (so over a run the sum exceeds
    /// [`SearchStats::generated`], which counts the root once, by the iterations minus one).
    pub generated: u64,
    /// Whether the iteration ran to its end (the last one stops at the first solution or a
    /// limit).
    pub complete: bool,
}

/// CPU time consumed by the calling thread (`None` where the platform cannot tell).
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}
