//! Work that Ctrl-C can stop: a search runs on a worker thread with the GIL released while the
//! calling thread wakes every [`POLL`] to run Python's signal handlers
//! (`Python::check_signals`). Python runs those handlers only between bytecodes of its main
//! thread, so a search holding the calling thread would see Ctrl-C only when it returned; here
//! a handler's exception (`KeyboardInterrupt`, or whatever a handler of the user's raises)
//! raises the search's cancel flag, which its limit checks read (every 2^16 nodes), and is
//! raised once the search has stopped.
//!
//! The worker threads are kept for the next call (a thread made per call would cost more than
//! the target of 20 us for a whole `solve` of a solved board, results/python.md): a call takes
//! an idle one or makes one, and a worker puts itself back once its job is done, before it
//! hands over the result. There are as many as calls ever ran at once.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for signals (and draws `run`'s progress).
pub const POLL: Duration = Duration::from_millis(50);

/// How long a worker after its job, and a caller after handing one over, poll their channel
/// before they sleep on it: waking a sleeping thread costs more than a short search (tens of
/// microseconds on the development machine), so calls in a loop find each other awake.
const SPIN: Duration = Duration::from_micros(200);

/// `rx.try_recv()` until a message comes or `SPIN` has passed.
fn spin_recv<T>(rx: &Receiver<T>) -> Option<Result<T, TryRecvError>> {
    let start = Instant::now();
    loop {
        match rx.try_recv() {
            Err(TryRecvError::Empty) if start.elapsed() < SPIN => std::hint::spin_loop(),
            Err(TryRecvError::Empty) => return None,
            other => return Some(other),
        }
    }
}

/// One job for a worker, given the worker's own mailbox to put back among the idle ones.
struct Job(Task);

type Task = Box<dyn FnOnce(&Sender<Job>) + Send>;

/// The mailboxes of the workers waiting for a job, and the process they belong to: a child
/// made by `fork` (multiprocessing's default on Linux) has none of its parent's threads, so
/// it starts its own instead of waiting on mailboxes nobody reads.
static IDLE: Mutex<(u32, Vec<Sender<Job>>)> = Mutex::new((0, Vec::new()));

/// This process's idle workers (none yet in a child made by `fork`).
fn idle() -> std::sync::MutexGuard<'static, (u32, Vec<Sender<Job>>)> {
    let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if idle.0 != pid {
        // The parent's mailboxes are forgotten, not dropped: their receivers were its threads'.
        std::mem::forget(std::mem::take(&mut idle.1));
        idle.0 = pid;
    }
    idle
}

fn spawn_worker() -> PyResult<Sender<Job>> {
    let (mailbox, jobs) = mpsc::channel::<Job>();
    let me = mailbox.clone();
    std::thread::Builder::new()
        .name("npuzzle-search".into())
        .spawn(move || {
            loop {
                let next = match spin_recv(&jobs) {
                    Some(next) => next.ok(),
                    None => jobs.recv().ok(),
                };
                match next {
                    Some(Job(job)) => job(&me),
                    None => return,
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
    Ok(mailbox)
}

/// Runs `work` on a worker thread and returns its value, the GIL released meanwhile. If a
/// signal handler raises while it runs, `cancel` is raised, the work is waited for (it must
/// stop soon once `cancel` is up) and the handler's exception is returned instead.
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, result) = mpsc::sync_channel(1);
    let job = Job(Box::new(move |me: &Sender<Job>| {
        let value = work();
        idle().1.push(me.clone());
        let _ = done.send(value);
    }));
    let waiting = idle().1.pop();
    let mailbox = match waiting {
        Some(m) => m,
        None => spawn_worker()?,
    };
    mailbox
        .send(job)
        .map_err(|_| PyRuntimeError::new_err("the search thread is gone"))?;
    let mut pending: Option<PyErr> = None;
    let mut result = result;
    loop {
        // A receiver is not shared between threads: it goes to the GIL-free closure and back.
        let (back, received) = py.detach(move || {
            let received = match spin_recv(&result) {
                Some(Ok(value)) => Ok(value),
                Some(Err(_)) => Err(RecvTimeoutError::Disconnected),
                None => result.recv_timeout(POLL),
            };
            (result, received)
        });
        result = back;
        match received {
            Ok(value) => return pending.map_or(Ok(value), Err),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the search thread panicked"));
            }
        }
        if pending.is_none()
            && let Err(e) = py.check_signals()
        {
            cancel.store(true, Ordering::SeqCst);
            pending = Some(e);
        }
    }
}
