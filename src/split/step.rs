//! Bounds in step: pieces that run at once enter every bound together.
//!
//! A piece follows its own bounds (see `piece`), so without coordination a piece whose
//! earlier bounds were light starts the last bound early and, by the time another piece
//! announces the solution, has searched much more of its slice of that bound than IDA*
//! would (single-process IDA* stops at the solution, on average a third of the way into
//! its last iteration). So before a bound b a piece waits until every other *live* piece has
//! covered every bound below b (finished them, or ended: solved, covered, exhausted). Then
//! the pieces start the last bound at about the same time and stop at about the same point
//! of the frontier order.
//!
//! Only pieces that run are waited for. A running piece *registers* with a heartbeat file
//! `DIR/alive/piece-K`, written before its first bound and rewritten every
//! [`HEARTBEAT_PERIOD`] by a helper thread, and removed when the piece returns (finished,
//! stopped by a limit, or failed). A piece that never started has no heartbeat; a killed or
//! suspended one leaves a heartbeat that stops changing, and after `stale_after` (default
//! [`DEFAULT_STALE_AFTER`]) it is no longer waited for: judged by the file's modification
//! time against this machine's clock, or, should the clocks disagree, by the waiter seeing
//! its content unchanged that long. Waiting sleeps (no CPU) and polls the files of the
//! pieces still waited for, from every 10 ms up to every second.
//!
//! The wait never deadlocks: a piece waits only for pieces whose next bound is smaller than
//! its own, so a piece with the smallest next bound among the live ones never waits. And it
//! never decides anything: which bounds a piece searches, what it counts and when a
//! solution stops it are the same with or without waits, which only change when each bound
//! starts. Correctness (the optimal solution, exact counts, resuming) does not depend on
//! them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// How often a running piece rewrites its heartbeat file.
pub const HEARTBEAT_PERIOD: Duration = Duration::from_secs(2);

/// A heartbeat unchanged this long is a dead piece's, not waited for (the default of
/// `bench split piece --stale-after`).
pub const DEFAULT_STALE_AFTER: Duration = Duration::from_secs(30);

/// How a piece runs besides its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceOptions {
    /// Wait before each bound for the other live pieces to cover the bounds below it (see
    /// `step`; `bench split piece --no-lockstep` turns it off).
    pub lockstep: bool,
    /// A piece whose heartbeat has not changed this long is not waited for.
    pub stale_after: Duration,
}

impl Default for PieceOptions {
    fn default() -> PieceOptions {
        PieceOptions {
            lockstep: true,
            stale_after: DEFAULT_STALE_AFTER,
        }
    }
}

const POLL_FIRST: Duration = Duration::from_millis(10);
const POLL_MAX: Duration = Duration::from_secs(1);

/// Piece `k`'s heartbeat file.
pub fn heartbeat_path(dir: &Path, k: u32) -> PathBuf {
    dir.join("alive").join(format!("piece-{k}"))
}

/// A running piece's heartbeat: written at once, rewritten every [`HEARTBEAT_PERIOD`] by a
/// thread of its own, removed when dropped.
pub struct Heartbeat {
    path: PathBuf,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    /// Registers piece `k` of the split in `dir` and keeps its heartbeat going.
    pub fn start(dir: &Path, k: u32) -> std::io::Result<Heartbeat> {
        let path = heartbeat_path(dir, k);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let id = std::process::id();
        std::fs::write(&path, format!("{id} 0\n"))?;
        let (stop, stopped) = mpsc::channel::<()>();
        let file = path.clone();
        let thread = std::thread::Builder::new()
            .name(format!("heartbeat-{k}"))
            .spawn(move || {
                let mut beat = 0u64;
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(HEARTBEAT_PERIOD)
                {
                    beat += 1;
                    // A failed write only makes the piece look dead sooner: others stop
                    // waiting for it.
                    let _ = std::fs::write(&file, format!("{id} {beat}\n"));
                }
            })?;
        Ok(Heartbeat {
            path,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Where another piece stands, as a waiting piece reads it from its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// No file, or a final one (solved, covered, exhausted): never waited for.
    Done,
    /// It has covered every bound below this one (its next bound).
    Next(u32),
}

/// A piece's waits before its bounds.
pub struct InStep {
    stale_after: Duration,
    /// Per piece, the heartbeat content last read and since when (this machine's clock).
    seen: HashMap<u32, (Vec<u8>, Instant)>,
    /// Time spent waiting so far.
    pub waited: Duration,
}

impl InStep {
    /// Waits that stop waiting for a piece whose heartbeat is older than `stale_after`.
    pub fn new(stale_after: Duration) -> InStep {
        InStep {
            stale_after,
            seen: HashMap::new(),
            waited: Duration::ZERO,
        }
    }

    /// Waits until no live piece other than `me` (of `pieces`) stands below `bound`;
    /// `standing` reads a piece's file.
    pub fn wait<E>(
        &mut self,
        dir: &Path,
        me: u32,
        pieces: u32,
        bound: u32,
        mut standing: impl FnMut(u32) -> Result<Standing, E>,
    ) -> Result<(), E> {
        let start = Instant::now();
        let mut pending: Vec<u32> = (1..=pieces).filter(|&j| j != me).collect();
        let mut pause = POLL_FIRST;
        loop {
            let mut behind = Vec::new();
            for j in pending {
                if matches!(standing(j)?, Standing::Next(b) if b < bound) && self.alive(dir, j) {
                    behind.push(j);
                }
            }
            pending = behind;
            if pending.is_empty() {
                break;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(POLL_MAX);
        }
        self.waited += start.elapsed();
        Ok(())
    }

    /// Whether piece `j` has a heartbeat that is not stale.
    pub fn alive(&mut self, dir: &Path, j: u32) -> bool {
        let path = heartbeat_path(dir, j);
        let Ok(content) = std::fs::read(&path) else {
            self.seen.remove(&j);
            return false;
        };
        let touched_recently = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_none_or(|age| age <= self.stale_after);
        let now = Instant::now();
        let since = match self.seen.get(&j) {
            Some((c, t)) if *c == content => *t,
            _ => {
                self.seen.insert(j, (content, now));
                now
            }
        };
        touched_recently && now.duration_since(since) <= self.stale_after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece behind with a live heartbeat is waited for until it catches up; one without a
    /// heartbeat, or with a stale one, is not waited for; one ahead or done never is.
    #[test]
    fn waits_only_for_live_pieces_behind() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // Piece 2: alive, behind until its third reading. Piece 3: behind, never registered.
        // Piece 4: ahead. Piece 5: done.
        let beat = Heartbeat::start(d, 2).unwrap();
        assert!(heartbeat_path(d, 2).exists());
        let mut step = InStep::new(Duration::from_secs(3600));
        let mut reads = 0;
        step.wait::<()>(d, 1, 5, 50, |j| {
            Ok(match j {
                2 => {
                    reads += 1;
                    Standing::Next(if reads < 3 { 48 } else { 50 })
                }
                3 => Standing::Next(40),
                4 => Standing::Next(52),
                _ => Standing::Done,
            })
        })
        .unwrap();
        assert_eq!(reads, 3, "waited for piece 2 until it reached bound 50");
        drop(beat);
        assert!(
            !heartbeat_path(d, 2).exists(),
            "removed when the piece ends"
        );
    }

    /// A heartbeat left by a killed piece (never rewritten) is stale after the timeout: by
    /// its modification time, and by its content unchanged under the waiter's eyes.
    #[test]
    fn a_dead_pieces_heartbeat_goes_stale() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("alive")).unwrap();
        std::fs::write(heartbeat_path(d, 2), "1234 7\n").unwrap();
        // Old by its modification time: not waited for at all.
        let old = SystemTime::now() - Duration::from_secs(600);
        std::fs::File::options()
            .write(true)
            .open(heartbeat_path(d, 2))
            .unwrap()
            .set_modified(old)
            .unwrap();
        let mut step = InStep::new(Duration::from_secs(60));
        step.wait::<()>(d, 1, 2, 50, |_| Ok(Standing::Next(40)))
            .unwrap();
        assert!(step.waited < Duration::from_secs(60));
        // Unchanged, with a time in the future (a clock ahead of this one's): waited for until
        // the waiter has seen it unchanged for the timeout, then no longer.
        std::fs::write(heartbeat_path(d, 2), "1234 8\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(heartbeat_path(d, 2))
            .unwrap()
            .set_modified(SystemTime::now() + Duration::from_secs(3600))
            .unwrap();
        let mut step = InStep::new(Duration::from_millis(200));
        step.wait::<()>(d, 1, 2, 50, |_| Ok(Standing::Next(40)))
            .unwrap();
        assert!(step.waited >= Duration::from_millis(200));
    }
}
