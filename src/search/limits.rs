//! What bounds a search and how it ended: the user's [`Limits`], the [`Status`] a search
//! stops with, and the [`Budget`] the inner loops check them through (batched, so that the
//! common path costs one comparison per node).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bounds on one search. `None` = unbounded.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Wall-clock budget for the search.
    pub timeout: Option<Duration>,
    /// Budget of generated nodes.
    pub max_nodes: Option<u64>,
    /// Budget for the search's own data structures, in bytes (checked before they grow).
    pub max_memory_bytes: Option<u64>,
    /// Set from outside (e.g. on Ctrl-C) to stop the search as soon as possible.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found (and replayed).
    Solved,
    /// The timeout ran out.
    Timeout,
    /// The node budget ran out.
    NodeLimit,
    /// The memory budget would have been exceeded.
    MemoryLimit,
    /// The cancel flag was raised.
    Cancelled,
}

impl Status {
    /// The spelling used in CSV files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Timeout => "timeout",
            Status::NodeLimit => "node-limit",
            Status::MemoryLimit => "memory-limit",
            Status::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The checks an inner loop makes against [`Limits`], batched so that the common path costs
/// one comparison per node.
pub(crate) struct Budget {
    deadline: Option<Instant>,
    max_nodes: u64,
    max_memory: u64,
    cancel: Option<Arc<AtomicBool>>,
    /// For one of several workers on one search: the node count of all of them and a flag
    /// raised when one found the goal (see [`Budget::worker`]).
    shared: Option<Arc<Shared>>,
    /// The nodes this worker may count before it asks `shared` for more.
    granted: u64,
    /// The generated count at which [`Budget::check`] must next be called.
    pub next_check: u64,
}

/// What the workers of one parallel search share: the nodes granted to them so far (for the
/// node limit) and a flag raised when one of them has found the goal or hit a limit, which
/// stops the others.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub granted: std::sync::atomic::AtomicU64,
    pub stop: AtomicBool,
}

/// How many nodes go by between clock and cancel-flag checks.
const CHECK_INTERVAL: u64 = 1 << 16;

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        let mut b = Budget {
            deadline: limits.timeout.map(|t| Instant::now() + t),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_memory: limits.max_memory_bytes.unwrap_or(u64::MAX),
            cancel: limits.cancel.clone(),
            shared: None,
            granted: 0,
            next_check: 0,
        };
        b.next_check = CHECK_INTERVAL.min(b.max_nodes);
        b
    }

    /// The budget of one worker of a parallel search: the same deadline and cancel flag as
    /// `self`, and a node limit on the sum over all workers. A worker takes nodes from the
    /// shared limit in grants of up to one check interval, so together they stop at the limit
    /// (a worker whose first node finds the limit used up counts that one node over it). A
    /// worker that hits a limit raises `shared.stop`; the others then stop with
    /// [`Status::Cancelled`].
    pub(crate) fn worker(&self, shared: &Arc<Shared>) -> Budget {
        Budget {
            deadline: self.deadline,
            max_nodes: self.max_nodes,
            max_memory: self.max_memory,
            cancel: self.cancel.clone(),
            shared: Some(shared.clone()),
            granted: 0,
            next_check: 0,
        }
    }

    /// Returns the unused part of a worker's grant at the end of its task.
    pub(crate) fn finish(&mut self, generated: u64) {
        if let Some(shared) = &self.shared
            && self.granted > generated
        {
            shared
                .granted
                .fetch_sub(self.granted - generated, Ordering::Relaxed);
            self.granted = generated;
        }
    }

    /// Called when `generated >= next_check`: returns the status to stop with, if any.
    #[cold]
    pub(crate) fn check(&mut self, generated: u64) -> Option<Status> {
        if let Some(shared) = &self.shared {
            // Cover the nodes counted so far and take up to one interval more.
            let need = generated.saturating_sub(self.granted);
            let mut taken = shared.granted.load(Ordering::Relaxed);
            loop {
                let left = self.max_nodes.saturating_sub(taken);
                let grant = left.min(need + CHECK_INTERVAL);
                match shared.granted.compare_exchange_weak(
                    taken,
                    taken + grant,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        self.granted += grant;
                        if left <= need {
                            shared.stop.store(true, Ordering::Relaxed);
                            return Some(Status::NodeLimit);
                        }
                        break;
                    }
                    Err(now) => taken = now,
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                return Some(Status::Cancelled);
            }
            self.next_check = self.granted;
        } else if generated >= self.max_nodes {
            return Some(Status::NodeLimit);
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Some(Status::Cancelled);
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            if let Some(shared) = &self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Some(Status::Timeout);
        }
        if self.shared.is_none() {
            self.next_check = generated.saturating_add(CHECK_INTERVAL).min(self.max_nodes);
        }
        None
    }

    /// How many nodes a search that stores states reserves at the start: enough to skip the
    /// first rounds of growth, small enough for a tight memory budget.
    pub(crate) fn initial_capacity(&self) -> usize {
        (self.max_memory / 256).clamp(256, 1 << 16) as usize
    }

    /// Whether growing the search's structures to `bytes` stays within the memory budget.
    #[inline]
    pub(crate) fn memory_allows(&self, bytes: u64) -> bool {
        bytes <= self.max_memory
    }
}
