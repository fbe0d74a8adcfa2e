//! What bounds a search and how it ended: the user's [`Limits`], the [`Outcome`] a search
//! stops with, and the [`Budget`] the inner loops check them through (batched, so that the
//! common path costs one comparison per node).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::Outcome;

/// Bounds on one search. `None` = unbounded. The one limits type: `bench solve` bounds its
/// search with it, `bench run` every job, and the run's sidecar records it (`limits`:
/// `timeout_ms`, `max_nodes`, `max_memory_bytes`); the two flags belong to a running job and
/// are neither recorded nor compared.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Limits {
    /// Wall-clock budget for the search.
    #[serde(rename = "timeout_ms", default, with = "timeout_ms")]
    pub timeout: Option<Duration>,
    /// Budget of generated nodes.
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Budget for the search's own data structures, in bytes (checked before they grow).
    #[serde(default)]
    pub max_memory_bytes: Option<u64>,
    /// Set from outside (e.g. on Ctrl-C) to stop the search as soon as possible.
    #[serde(skip)]
    pub cancel: Option<Arc<AtomicBool>>,
    /// Raised from outside when the job's heap passed `max_memory_bytes` (the counting
    /// allocator's backstop, `crate::infra::alloc`): the search stops with
    /// [`Outcome::MemoryLimit`], so that the stop is reported as what it was.
    #[serde(skip)]
    pub memory_tripped: Option<Arc<AtomicBool>>,
}

impl PartialEq for Limits {
    fn eq(&self, other: &Limits) -> bool {
        (self.timeout, self.max_nodes, self.max_memory_bytes)
            == (other.timeout, other.max_nodes, other.max_memory_bytes)
    }
}

/// `timeout` as whole milliseconds in the sidecar (its layout since schema version 1).
mod timeout_ms {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        t.map(|t| t.as_millis() as u64).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
    }
}

/// The longest path the best-first searches (A*, Dijkstra, greedy, weighted A*) can follow:
/// their nodes keep g in 14 bits.
pub const MAX_STORED_DEPTH: usize = 0x3FFF;

/// The checks an inner loop makes against [`Limits`], batched so that the common path costs
/// one comparison per node.
pub(crate) struct Budget {
    deadline: Option<Instant>,
    max_nodes: u64,
    max_memory: u64,
    cancel: Option<Arc<AtomicBool>>,
    memory_tripped: Option<Arc<AtomicBool>>,
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

/// Nodes reserved when a storing search (A*, Dijkstra, bidirectional BFS) starts; see
/// [`Budget::initial_capacity`].
const INITIAL_CAPACITY: usize = 256;

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        let mut b = Budget {
            deadline: limits.timeout.map(|t| Instant::now() + t),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_memory: limits.max_memory_bytes.unwrap_or(u64::MAX),
            cancel: limits.cancel.clone(),
            memory_tripped: limits.memory_tripped.clone(),
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
    /// [`Outcome::Cancelled`].
    pub(crate) fn worker(&self, shared: &Arc<Shared>) -> Budget {
        Budget {
            deadline: self.deadline,
            max_nodes: self.max_nodes,
            max_memory: self.max_memory,
            cancel: self.cancel.clone(),
            memory_tripped: self.memory_tripped.clone(),
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
    pub(crate) fn check(&mut self, generated: u64) -> Option<Outcome> {
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
                            return Some(Outcome::NodeLimit);
                        }
                        break;
                    }
                    Err(now) => taken = now,
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                return Some(Outcome::Cancelled);
            }
            self.next_check = self.granted;
        } else if generated >= self.max_nodes {
            return Some(Outcome::NodeLimit);
        }
        // Before the cancel flag: a tripped memory budget is the reason, whatever else stops.
        if let Some(m) = &self.memory_tripped
            && m.load(Ordering::Relaxed)
        {
            if let Some(shared) = &self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Some(Outcome::MemoryLimit);
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Some(Outcome::Cancelled);
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            if let Some(shared) = &self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Some(Outcome::Timeout);
        }
        if self.shared.is_none() {
            self.next_check = generated.saturating_add(CHECK_INTERVAL).min(self.max_nodes);
        }
        None
    }

    /// How many nodes a search that stores states reserves at the start. Small on purpose:
    /// the structures then grow by doubling with the search, so a job's peak heap measures
    /// what the search needed (a large up-front reservation would put a floor under every
    /// job's memory and hide the growth); the few early doublings cost microseconds.
    pub(crate) fn initial_capacity(&self) -> usize {
        INITIAL_CAPACITY
    }

    /// Whether growing the search's structures to `bytes` stays within the memory budget.
    #[inline]
    pub(crate) fn memory_allows(&self, bytes: u64) -> bool {
        bytes <= self.max_memory
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag(up: bool) -> Option<Arc<AtomicBool>> {
        Some(Arc::new(AtomicBool::new(up)))
    }

    #[test]
    fn a_tripped_memory_budget_stops_with_memory_limit_not_cancelled() {
        let limits = |cancel, tripped| Limits {
            cancel: flag(cancel),
            memory_tripped: flag(tripped),
            ..Limits::default()
        };
        assert_eq!(Budget::new(&limits(false, false)).check(0), None);
        assert_eq!(
            Budget::new(&limits(true, false)).check(0),
            Some(Outcome::Cancelled)
        );
        assert_eq!(
            Budget::new(&limits(false, true)).check(0),
            Some(Outcome::MemoryLimit)
        );
        // The allocator trips the job's flag and an interrupt may come too: memory is named.
        assert_eq!(
            Budget::new(&limits(true, true)).check(0),
            Some(Outcome::MemoryLimit)
        );
        // A worker of a parallel search names it and stops the others.
        let shared = Arc::new(Shared::default());
        let mut w = Budget::new(&limits(false, true)).worker(&shared);
        assert_eq!(w.check(0), Some(Outcome::MemoryLimit));
        assert!(shared.stop.load(Ordering::Relaxed));
    }

    #[test]
    fn limits_are_recorded_as_the_sidecar_spells_them() {
        let l = Limits {
            timeout: Some(Duration::from_millis(1500)),
            max_nodes: None,
            max_memory_bytes: Some(1 << 20),
            cancel: flag(true),
            memory_tripped: None,
        };
        // The layout of a version-1 sidecar, typed here.
        let text = r#"{"timeout_ms":1500,"max_nodes":null,"max_memory_bytes":1048576}"#;
        assert_eq!(serde_json::to_string(&l).unwrap(), text);
        let back: Limits = serde_json::from_str(text).unwrap();
        assert_eq!(back, l);
        assert!(back.cancel.is_none());
    }
}
