//! SIGINT (Ctrl-C) and SIGTERM (what Slurm and most schedulers send at a time limit or on
//! cancel) handled alike: the first one stops the run gracefully (running jobs are cancelled,
//! finished rows are kept, the session is marked `interrupted`); a second one ends the process
//! at once, after the caller's last words (the sidecar). The exit status is 128 + the signal
//! (130 for SIGINT, 143 for SIGTERM), as shells report it.
//!
//! The handler itself only writes the signal number to a pipe (async-signal-safe); a watcher
//! thread reads it and runs the callbacks in ordinary Rust.

use std::sync::atomic::{AtomicI32, Ordering};

/// The write end of the self-pipe (-1 before [`install`]).
static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);
/// The first signal received (0: none).
static FIRST: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    let fd = PIPE_WRITE.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = sig as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is one valid byte on the stack.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }
}

/// The first SIGINT/SIGTERM received since [`install`], if any.
pub fn received() -> Option<i32> {
    match FIRST.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The exit status for a run stopped by `signal`: 128 + its number (130 SIGINT, 143 SIGTERM).
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// A signal's name for messages.
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "signal",
    }
}

/// Catches SIGINT and SIGTERM for the rest of the process. `first` runs on the first signal
/// (it should ask the run to stop); `second` runs on any later one and the process then exits
/// with 128 + that signal. Call once per process.
pub fn install(
    first: impl Fn(i32) + Send + 'static,
    second: impl Fn(i32) + Send + 'static,
) -> std::io::Result<()> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let [read_fd, write_fd] = fds;
    PIPE_WRITE.store(write_fd, Ordering::SeqCst);
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let mut byte = 0u8;
                // SAFETY: reading one byte into a valid buffer from our own pipe.
                let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
                if n == 1 {
                    let sig = i32::from(byte);
                    if FIRST
                        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok()
                    {
                        first(sig);
                    } else {
                        second(sig);
                        std::process::exit(exit_status(sig));
                    }
                } else if n < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                    continue;
                } else {
                    return;
                }
            }
        })?;
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction is valid; we set a plain handler that only calls write(2).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}
