//! Running one external command in isolation, measured by the kernel and held to limits, the
//! way BenchExec runs a tool: its own process group (so a timeout reaches every process it
//! forked and none is left behind), wall time from our clock, user and system CPU time and
//! peak resident memory from the kernel (`wait4`'s rusage, and a memory cgroup when one can be
//! made), limits enforced by the kernel where it can (a cgroup's memory limit, `RLIMIT_CPU`)
//! and by a watchdog that samples the group otherwise.
//!
//! Memory, in order of preference: a cgroup v1 memory group made for the job (`memory.limit_in_bytes`
//! is enforced by the kernel's OOM killer, `memory.max_usage_in_bytes` is the peak of the whole
//! group, page cache included); without one, the watchdog sums the resident memory of the
//! group's processes every few milliseconds and kills the group above the limit, and the peak
//! is the larger of that sum and the largest process's `ru_maxrss`. [`Measured::measured_by`]
//! says which.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::supervisor;
use crate::search::Outcome;

/// Limits for one process group.
#[derive(Debug, Clone)]
pub struct ProcessLimits {
    /// Wall-clock limit: then SIGTERM to the group, and SIGKILL after `grace`.
    pub timeout: Option<Duration>,
    /// CPU-time limit (user + system, all processes of the group).
    pub cpu: Option<Duration>,
    /// Memory limit in bytes (resident memory of the whole group).
    pub memory: Option<u64>,
    /// Time between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// Bytes of stdout kept; more is read and dropped (and reported).
    pub max_stdout: usize,
    /// Whether to try a memory cgroup for `memory` (else, or where none can be made, the
    /// watchdog enforces it).
    pub cgroup: bool,
    /// Raised from outside (an interrupted run): the group is killed at once and the run
    /// ends with [`Outcome::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// The program that runs the command under a supervisor which kills its whole tree when
    /// the command ends or the run dies ([`super::supervisor`]); default: the one the binary
    /// installed at start-up, if any. `None`: the command is this process's own child.
    pub supervisor: Option<PathBuf>,
}

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            timeout: None,
            cpu: None,
            memory: None,
            grace: Duration::from_millis(500),
            max_stdout: 64 << 20,
            cgroup: true,
            cancel: None,
            supervisor: super::supervisor::installed(),
        }
    }
}

/// How the command's own process ended, as the kernel reports it: the data beside a job's
/// [`Outcome`] (a crash's exit status or signal, how a limit's stop came about), not an end
/// state of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Exited with this status.
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
}

/// One finished run.
#[derive(Debug, Clone)]
pub struct Measured {
    /// How the process ended.
    pub exit: Exit,
    /// The limit that stopped it, if one did: [`Outcome::Timeout`], [`Outcome::CpuLimit`],
    /// [`Outcome::MemoryLimit`] or [`Outcome::Cancelled`].
    pub stop: Option<Outcome>,
    /// Wall time of the command's process from spawn to reaping (under a supervisor, as the
    /// supervisor measured it: its own start-up is not the command's).
    pub wall: Duration,
    /// User CPU time of the process and the children it waited for.
    pub user: Duration,
    /// System CPU time, likewise.
    pub system: Duration,
    /// Peak resident memory in bytes (see the module docs for what it covers).
    pub peak_memory: u64,
    /// How memory was measured: `cgroup` or `rusage+sampling`.
    pub measured_by: &'static str,
    /// Standard output (at most `max_stdout` bytes).
    pub stdout: Vec<u8>,
    /// Whether stdout was longer than `max_stdout`.
    pub stdout_truncated: bool,
    /// The last bytes of standard error (for messages).
    pub stderr_tail: String,
    /// Processes of the group still alive after the command exited, killed by us.
    pub leftover_killed: bool,
}

/// Why a command could not be run at all.
#[derive(Debug, Error)]
pub enum ProcessError {
    /// `sh` could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The OS error.
        source: io::Error,
    },
    /// Waiting for the process failed.
    #[error("waiting for `{command}` failed: {source}")]
    Wait {
        /// The command line.
        command: String,
        /// The OS error.
        source: io::Error,
    },
}

/// The longest the pipes are drained after the command ended (a process that left the group
/// with `setsid` may hold stdout open and keep writing: its words after the command's end are
/// not the command's answer, and it is never waited for).
const DRAIN_DEADLINE: Duration = Duration::from_millis(200);
/// Bytes of stderr kept.
const STDERR_TAIL: usize = 4096;
/// How often the watchdog samples the group's memory and CPU time in `/proc`.
const SAMPLE_PERIOD: Duration = Duration::from_millis(5);
/// The longest the watchdog sleeps between looks at the clock, the cancel flag and the group.
const LONGEST_NAP: Duration = Duration::from_millis(2);

/// Runs `command` with `/bin/sh -c`, writes `stdin` to it, and waits, enforcing `limits`.
///
/// The answer is what the command wrote before its own process ended: the pipes are read
/// while it runs and drained when it ends, never waited on for an end-of-file a grandchild
/// that left the group could withhold. The command dies with the thread that started it
/// (`PR_SET_PDEATHSIG`), and under a supervisor (`limits.supervisor`) so does every process
/// it started, wherever it went: a `bench run` killed with SIGKILL leaves nothing behind.
pub fn run(
    command: &str,
    stdin: Vec<u8>,
    limits: &ProcessLimits,
) -> Result<Measured, ProcessError> {
    let cgroup = limits
        .memory
        .filter(|_| limits.cgroup)
        .and_then(MemoryCgroup::create);
    // RLIMIT_CPU counts whole seconds: the limit rounded up, at least one.
    let cpu_secs = limits
        .cpu
        .map(|c| (c.as_secs() + u64::from(c.subsec_nanos() > 0)).max(1));
    let start = Instant::now();
    let (mut child, group, supervised) = spawn(command, cgroup.as_ref(), cpu_secs, limits)?;
    // A supervisor has started the command when it returns: the limits' clock starts there,
    // so the command's own wall time (the supervisor's measure) reaches any timeout.
    let start = if supervised.is_some() {
        Instant::now()
    } else {
        start
    };
    let pid = child.id() as libc::pid_t;
    let mut pipes = Pipes::new(&mut child, stdin, limits.max_stdout);
    let watched = match watch(pid, group, limits, cgroup.is_some(), start, &mut pipes) {
        Ok(w) => w,
        Err(source) => {
            kill_group(group, libc::SIGKILL);
            let _ = child.kill();
            return Err(ProcessError::Wait {
                command: command.to_string(),
                source,
            });
        }
    };
    let mut wall = start.elapsed();
    let Watched {
        mut status,
        mut usage,
        mut stop,
        killed,
        sampled_peak,
    } = watched;
    // A supervisor reports the command's own end (its rusage without the supervisor's) and
    // has already killed what the command left running, wherever it went.
    let mut leftover_killed = false;
    if let Some(ended) = supervised.and_then(supervisor::Supervised::ended) {
        (status, usage, leftover_killed) = (ended.status, ended.usage, ended.leftover);
        wall = ended.wall;
    }
    // Whatever the command left behind in its group goes now; what it wrote is in the pipes.
    leftover_killed |= group_alive(group);
    kill_group(group, libc::SIGKILL);
    pipes.drain(DRAIN_DEADLINE);
    let exit = if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else {
        Exit::Signal(libc::WTERMSIG(status))
    };
    let user = timeval(usage.ru_utime);
    let system = timeval(usage.ru_stime);
    if stop.is_none() && exit != Exit::Code(0) {
        let oom = cgroup.as_ref().is_some_and(MemoryCgroup::oom_killed);
        stop = kernel_stop(exit, oom, cpu_secs, killed, user + system);
    }
    let rusage_peak = (usage.ru_maxrss.max(0) as u64) * 1024;
    let (peak_memory, measured_by) = match &cgroup {
        Some(c) => (c.peak().unwrap_or(0).max(rusage_peak), "cgroup"),
        None => (sampled_peak.max(rusage_peak), "rusage+sampling"),
    };
    let (stdout, stdout_truncated, stderr_tail) = pipes.into_output();
    Ok(Measured {
        exit,
        stop,
        wall,
        user,
        system,
        peak_memory,
        measured_by,
        stdout,
        stdout_truncated,
        stderr_tail,
        leftover_killed,
    })
}

/// Starts the command: under the supervisor named in `limits` (then the process to wait for
/// is the supervisor, the group to signal the command's), or as our own child (both the same
/// process). Returns the process, the command's group and the supervisor's side, if any.
fn spawn(
    command: &str,
    cgroup: Option<&MemoryCgroup>,
    cpu_secs: Option<u64>,
    limits: &ProcessLimits,
) -> Result<(Child, libc::pid_t, Option<supervisor::Supervised>), ProcessError> {
    let procs_fd = cgroup.map(|c| c.procs.as_raw_fd());
    let spawned = match &limits.supervisor {
        Some(program) => supervisor::launch(program, command, procs_fd, cpu_secs)
            .map(|(child, s)| (child, s.group, Some(s))),
        None => super::group::command_in_group(command, procs_fd, cpu_secs)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map(|c| {
                let pid = c.id() as libc::pid_t;
                (c, pid, None)
            }),
    };
    spawned.map_err(|source| ProcessError::Spawn {
        command: command.to_string(),
        source,
    })
}

/// How the watched process ended and what the watchdog did on the way.
struct Watched {
    status: i32,
    usage: libc::rusage,
    stop: Option<Outcome>,
    /// Whether we sent SIGKILL.
    killed: bool,
    sampled_peak: u64,
}

/// Serves the pipes and enforces the limits on the command's process `group` until the
/// process `pid` (the command's, or its supervisor's) ends: the timeout and
/// the cancel flag from our clock, memory (without a cgroup) and the group's CPU time from
/// samples of `/proc`; SIGTERM first, SIGKILL after the grace time (at once for memory and
/// cancel).
fn watch(
    pid: libc::pid_t,
    group: libc::pid_t,
    limits: &ProcessLimits,
    has_cgroup: bool,
    start: Instant,
    pipes: &mut Pipes,
) -> io::Result<Watched> {
    // Where the kernel offers one, a pidfd wakes the wait below the moment the process ends,
    // so a quick job is not charged the rest of a nap.
    let pidfd = pidfd_open(pid);
    let mut w = Watched {
        status: 0,
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        usage: unsafe { std::mem::zeroed() },
        stop: None,
        killed: false,
        sampled_peak: 0,
    };
    let mut term_sent: Option<Instant> = None;
    let mut nap = Duration::from_micros(50);
    let watch_memory = limits.memory.is_some() && !has_cgroup;
    // The first sample after one period: a process that ends sooner is measured by rusage
    // alone, and a quick job pays no scan of /proc.
    let mut next_sample = start + SAMPLE_PERIOD;
    loop {
        if let Some((status, usage)) = wait4(pid, true)? {
            (w.status, w.usage) = (status, usage);
            return Ok(w);
        }
        let now = Instant::now();
        if w.stop.is_none() && limits.timeout.is_some_and(|t| now - start >= t) {
            w.stop = Some(Outcome::Timeout);
        }
        if (watch_memory || limits.cpu.is_some()) && now >= next_sample {
            next_sample = now + SAMPLE_PERIOD;
            let g = sample_group(group);
            w.sampled_peak = w.sampled_peak.max(g.rss);
            if w.stop.is_none() && watch_memory && limits.memory.is_some_and(|m| g.rss > m) {
                w.stop = Some(Outcome::MemoryLimit);
                kill_group(group, libc::SIGKILL);
                w.killed = true;
            }
            if w.stop.is_none() && limits.cpu.is_some_and(|c| g.cpu > c) {
                w.stop = Some(Outcome::CpuLimit);
            }
        }
        let cancelled = limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst));
        if w.stop.is_none() && cancelled {
            w.stop = Some(Outcome::Cancelled);
            kill_group(group, libc::SIGKILL);
            w.killed = true;
        }
        if w.stop.is_some() && term_sent.is_none() && !w.killed {
            kill_group(group, libc::SIGTERM);
            term_sent = Some(now);
        }
        if term_sent.is_some_and(|t| !w.killed && now - t >= limits.grace) {
            kill_group(group, libc::SIGKILL);
            w.killed = true;
        }
        if pidfd.is_some() {
            nap = LONGEST_NAP;
        }
        pipes.pump(pidfd.as_ref(), nap);
        nap = (nap * 2).min(LONGEST_NAP);
    }
}

/// The limit the kernel enforced, read from how the process ended: the kernel's signal is the
/// fact, never a comparison of CPU time with the limit (the rusage sum of a process stopped by
/// `RLIMIT_CPU` may read a little under the limit, and a loaded machine must not turn a limit
/// into a crash).
///
/// - The memory cgroup's OOM killer fired (`oom`): the memory limit.
/// - `SIGXCPU` under a CPU limit (`cpu_secs`, the soft `RLIMIT_CPU`), or `sh`'s report of it in
///   a child (exit status 128 + `SIGXCPU`): the CPU limit.
/// - `SIGKILL` that we did not send (`we_killed`), under a CPU limit, after at least the soft
///   limit of CPU time: the kernel's hard `RLIMIT_CPU` (one second beyond the soft one), for a
///   process that caught or ignored `SIGXCPU`.
fn kernel_stop(
    exit: Exit,
    oom: bool,
    cpu_secs: Option<u64>,
    we_killed: bool,
    cpu: Duration,
) -> Option<Outcome> {
    if oom {
        return Some(Outcome::MemoryLimit);
    }
    let soft = cpu_secs?.max(1);
    match exit {
        Exit::Signal(libc::SIGXCPU) => Some(Outcome::CpuLimit),
        Exit::Code(c) if c == 128 + libc::SIGXCPU => Some(Outcome::CpuLimit),
        Exit::Signal(libc::SIGKILL) if !we_killed && cpu >= Duration::from_secs(soft) => {
            Some(Outcome::CpuLimit)
        }
        _ => None,
    }
}

/// A pidfd for `pid` (Linux 5.3 and later), `None` where the kernel has none.
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a descriptor we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000)
}

/// `wait4(pid)`: the status and the rusage once it has ended (`None` while it runs, with
/// `nohang`).
fn wait4(pid: libc::pid_t, nohang: bool) -> io::Result<Option<(i32, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if nohang { libc::WNOHANG } else { 0 };
    loop {
        // SAFETY: `status` and `usage` are valid, writable, and live across the call.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            return Ok(Some((status, usage)));
        }
        if r == 0 {
            return Ok(None);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Sends `sig` to every process of the group `pgid` (errors, e.g. an empty group, ignored).
fn kill_group(pgid: libc::pid_t, sig: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// Whether any process is left in the group `pgid`.
fn group_alive(pgid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    unsafe { libc::kill(-pgid, 0) == 0 }
}

/// The resident memory and CPU time of a process group, summed over `/proc`.
#[derive(Debug, Default, Clone, Copy)]
struct GroupSample {
    rss: u64,
    cpu: Duration,
}

fn sample_group(pgid: libc::pid_t) -> GroupSample {
    static PAGE: AtomicU64 = AtomicU64::new(0);
    static TICKS: AtomicU64 = AtomicU64::new(0);
    if PAGE.load(Ordering::Relaxed) == 0 {
        // SAFETY: sysconf has no memory-safety preconditions.
        let (page, ticks) = unsafe {
            (
                libc::sysconf(libc::_SC_PAGESIZE),
                libc::sysconf(libc::_SC_CLK_TCK),
            )
        };
        PAGE.store(page.max(1) as u64, Ordering::Relaxed);
        TICKS.store(ticks.max(1) as u64, Ordering::Relaxed);
    }
    let (page, ticks) = (PAGE.load(Ordering::Relaxed), TICKS.load(Ordering::Relaxed));
    let mut sum = GroupSample::default();
    let Ok(dir) = fs::read_dir("/proc") else {
        return sum;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(Path::new("/proc").join(pid).join("stat")) else {
            continue;
        };
        // Fields after the command name (which may contain spaces) start with the state.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        // state=0, ppid=1, pgrp=2, ..., utime=11, stime=12, ..., rss=21 (proc(5) numbering - 3).
        if f.len() < 22 || f[2].parse::<libc::pid_t>().ok() != Some(pgid) {
            continue;
        }
        let num = |i: usize| f[i].parse::<u64>().unwrap_or(0);
        sum.rss += num(21) * page;
        sum.cpu += Duration::from_nanos((num(11) + num(12)) * 1_000_000_000 / ticks);
    }
    sum
}

/// The command's three standard streams on our side, non-blocking, served by `poll` from the
/// watchdog's loop: stdin fed as the command reads it, stdout kept up to a cap (the rest read
/// and dropped), the tail of stderr kept.
struct Pipes {
    stdin: Option<std::process::ChildStdin>,
    input: Vec<u8>,
    written: usize,
    stdout: Option<std::process::ChildStdout>,
    out: Vec<u8>,
    max_out: usize,
    truncated: bool,
    stderr: Option<std::process::ChildStderr>,
    err: Vec<u8>,
}

/// What one non-blocking read or write came to.
enum Io {
    /// Some bytes moved; there may be more.
    Moved,
    /// Nothing now (`EAGAIN`).
    Later,
    /// End of file or an error: this stream is done.
    Done,
}

fn set_nonblocking(fd: i32) {
    // SAFETY: fcntl on a descriptor we own, with integer arguments only.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// One non-blocking `read` from `fd` into `buf`.
fn read_some(fd: i32, buf: &mut [u8]) -> (Io, usize) {
    // SAFETY: `buf` is valid and writable for its length.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    match n {
        0 => (Io::Done, 0),
        n if n > 0 => (Io::Moved, n as usize),
        _ => match io::Error::last_os_error().kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => (Io::Later, 0),
            _ => (Io::Done, 0),
        },
    }
}

impl Pipes {
    fn new(child: &mut std::process::Child, input: Vec<u8>, max_out: usize) -> Pipes {
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        for fd in [
            stdin.as_ref().map(|s| s.as_raw_fd()),
            stdout.as_ref().map(|s| s.as_raw_fd()),
            stderr.as_ref().map(|s| s.as_raw_fd()),
        ]
        .into_iter()
        .flatten()
        {
            set_nonblocking(fd);
        }
        let mut pipes = Pipes {
            stdin,
            input,
            written: 0,
            stdout,
            out: Vec::new(),
            max_out,
            truncated: false,
            stderr,
            err: Vec::new(),
        };
        pipes.feed();
        pipes
    }

    /// Writes what the pipe takes of the input now; closes stdin when all is written or the
    /// command stopped reading.
    fn feed(&mut self) {
        while let Some(s) = &self.stdin {
            let rest = &self.input[self.written..];
            if rest.is_empty() {
                self.stdin = None;
                return;
            }
            // SAFETY: `rest` is valid for its length.
            let n = unsafe { libc::write(s.as_raw_fd(), rest.as_ptr().cast(), rest.len()) };
            if n > 0 {
                self.written += n as usize;
                continue;
            }
            let kind = io::Error::last_os_error().kind();
            if !matches!(kind, io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) {
                self.stdin = None; // EPIPE: the command does not read (all of) its input.
            }
            return;
        }
    }

    /// Reads what stdout and stderr hold now; returns whether anything moved.
    fn read_ready(&mut self) -> bool {
        let mut buf = [0u8; 64 * 1024];
        let mut moved = false;
        if let Some(s) = &self.stdout {
            match read_some(s.as_raw_fd(), &mut buf) {
                (Io::Moved, n) => {
                    let room = self.max_out.saturating_sub(self.out.len());
                    self.out.extend_from_slice(&buf[..n.min(room)]);
                    self.truncated |= n > room;
                    moved = true;
                }
                (Io::Done, _) => self.stdout = None,
                (Io::Later, _) => {}
            }
        }
        if let Some(s) = &self.stderr {
            match read_some(s.as_raw_fd(), &mut buf) {
                (Io::Moved, n) => {
                    self.err.extend_from_slice(&buf[..n]);
                    if self.err.len() > 2 * STDERR_TAIL {
                        self.err.drain(..self.err.len() - STDERR_TAIL);
                    }
                    moved = true;
                }
                (Io::Done, _) => self.stderr = None,
                (Io::Later, _) => {}
            }
        }
        moved
    }

    /// Waits up to `most` for one of the streams or `pidfd` (the process ended), then serves
    /// the streams.
    fn pump(&mut self, pidfd: Option<&OwnedFd>, most: Duration) {
        let mut fds = Vec::with_capacity(4);
        let mut add = |fd: Option<i32>, events: i16| {
            if let Some(fd) = fd {
                fds.push(libc::pollfd {
                    fd,
                    events,
                    revents: 0,
                });
            }
        };
        add(pidfd.map(|f| f.as_raw_fd()), libc::POLLIN);
        add(self.stdin.as_ref().map(|s| s.as_raw_fd()), libc::POLLOUT);
        add(self.stdout.as_ref().map(|s| s.as_raw_fd()), libc::POLLIN);
        add(self.stderr.as_ref().map(|s| s.as_raw_fd()), libc::POLLIN);
        let ts = libc::timespec {
            tv_sec: most.as_secs() as libc::time_t,
            tv_nsec: most.subsec_nanos() as libc::c_long,
        };
        // SAFETY: `fds` holds valid pollfds for its length, `ts` is valid, no signal mask; an
        // error (EINTR) just ends this nap early.
        unsafe {
            libc::ppoll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                &ts,
                std::ptr::null(),
            );
        }
        self.feed();
        self.read_ready();
    }

    /// After the command ended: reads what it left in the pipes, without waiting for an end
    /// of file, for at most `most`.
    fn drain(&mut self, most: Duration) {
        self.stdin = None;
        let until = Instant::now() + most;
        while (self.stdout.is_some() || self.stderr.is_some())
            && self.read_ready()
            && Instant::now() < until
        {}
    }

    fn into_output(self) -> (Vec<u8>, bool, String) {
        let mut err = self.err;
        if err.len() > STDERR_TAIL {
            err.drain(..err.len() - STDERR_TAIL);
        }
        (
            self.out,
            self.truncated,
            String::from_utf8_lossy(&err).into_owned(),
        )
    }
}

/// A cgroup v1 memory group made for one job, removed when dropped.
struct MemoryCgroup {
    dir: PathBuf,
    /// `cgroup.procs`, opened before the fork so the child can join without allocating.
    procs: fs::File,
}

impl MemoryCgroup {
    /// A fresh group under our own memory cgroup with `limit` bytes, or `None` where cgroups
    /// cannot be made (no v1 memory controller, not root, read-only): the watchdog then
    /// enforces the limit.
    fn create(limit: u64) -> Option<MemoryCgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let own = fs::read_to_string("/proc/self/cgroup").ok()?;
        let path = own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then(|| path.to_string())
        })?;
        let base = Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/'));
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("npuzzle-{}-{n}", std::process::id()));
        fs::create_dir(&dir).ok()?;
        let group = (|| {
            fs::write(dir.join("memory.limit_in_bytes"), limit.to_string()).ok()?;
            // Without swap accounting this file is absent; where it exists, swap counts too.
            let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), limit.to_string());
            let procs = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
                .ok()?;
            Some(procs)
        })();
        match group {
            Some(procs) => Some(MemoryCgroup { dir, procs }),
            None => {
                let _ = fs::remove_dir(&dir);
                None
            }
        }
    }

    fn read_u64(&self, file: &str) -> Option<u64> {
        fs::read_to_string(self.dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    fn peak(&self) -> Option<u64> {
        self.read_u64("memory.max_usage_in_bytes")
    }

    /// Whether the kernel's OOM killer killed a process of the group (`oom_kill` in
    /// `memory.oom_control`; on kernels without that counter, any failed charge).
    fn oom_killed(&self) -> bool {
        let control = fs::read_to_string(self.dir.join("memory.oom_control")).unwrap_or_default();
        match control.lines().find_map(|l| l.strip_prefix("oom_kill ")) {
            Some(n) => n.trim().parse::<u64>().is_ok_and(|n| n > 0),
            None => self.read_u64("memory.failcnt").is_some_and(|f| f > 0),
        }
    }
}

impl Drop for MemoryCgroup {
    fn drop(&mut self) {
        // The group is empty once its processes are reaped; rmdir may race a dying process.
        for _ in 0..50 {
            if fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Shell-quotes `s` for `/bin/sh` (for placeholders substituted into a command line).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu_limited(secs: u64) -> ProcessLimits {
        ProcessLimits {
            timeout: Some(Duration::from_secs(600)),
            cpu: Some(Duration::from_secs(secs)),
            ..ProcessLimits::default()
        }
    }

    #[test]
    fn sigxcpu_under_a_cpu_limit_is_the_cpu_limit_whatever_the_cpu_time() {
        // The process gets the kernel's CPU-limit signal long before it used its second: the
        // signal decides, not a comparison of its CPU time with the limit.
        let m = run("kill -XCPU $$", Vec::new(), &cpu_limited(1)).unwrap();
        assert_eq!(m.exit, Exit::Signal(libc::SIGXCPU));
        assert_eq!(m.stop, Some(Outcome::CpuLimit), "{m:?}");
        // Through `sh`, a child stopped by it shows as 128 + SIGXCPU.
        let m = run(
            "sh -c 'kill -XCPU $$'; exit $?",
            Vec::new(),
            &cpu_limited(1),
        )
        .unwrap();
        assert_eq!(m.stop, Some(Outcome::CpuLimit), "{m:?}");
        // Without a CPU limit the same signal is a crash, not a limit.
        let m = run("kill -XCPU $$", Vec::new(), &ProcessLimits::default()).unwrap();
        assert_eq!(m.stop, None);
        assert_eq!(m.exit, Exit::Signal(libc::SIGXCPU));
    }

    #[test]
    fn a_grandchild_that_left_the_group_holding_stdout_neither_spoils_nor_delays_the_answer() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        // The escaped `sleep` holds stdout (and stderr) open for 60 s after the answer.
        let command = format!(
            "setsid sleep 60 & echo $! > {}; echo answer; echo last words >&2",
            pidfile.display()
        );
        let lim = ProcessLimits {
            timeout: Some(Duration::from_secs(600)),
            ..ProcessLimits::default()
        };
        let began = Instant::now();
        let m = run(&command, Vec::new(), &lim).unwrap();
        let took = began.elapsed();
        let pid: i32 = fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: kill(2) on the pid the command reported; no memory involved.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        assert_eq!(m.exit, Exit::Code(0));
        assert_eq!(String::from_utf8_lossy(&m.stdout), "answer\n");
        assert_eq!(m.stderr_tail, "last words\n");
        // Not waited for: far less than the escaped process's 60 s, whatever the load.
        assert!(took < Duration::from_secs(30), "{took:?}");
    }

    #[test]
    fn large_input_and_output_flow_both_ways_and_stdout_is_capped() {
        // More than a pipe holds, both ways: nothing blocks, nothing is lost.
        let input: Vec<u8> = (0..1_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let lim = ProcessLimits::default();
        let m = run("cat", input.clone(), &lim).unwrap();
        assert_eq!(m.exit, Exit::Code(0));
        assert_eq!(m.stdout, input);
        assert!(!m.stdout_truncated);
        let lim = ProcessLimits {
            max_stdout: 1000,
            ..ProcessLimits::default()
        };
        let m = run("cat", input.clone(), &lim).unwrap();
        assert_eq!(m.stdout, input[..1000]);
        assert!(m.stdout_truncated);
        // A command that never reads its input still ends and answers.
        let m = run("echo hi", input, &ProcessLimits::default()).unwrap();
        assert_eq!(m.stdout, b"hi\n");
    }

    #[test]
    fn the_kernels_signals_decide_which_limit_stopped_a_process() {
        let sec = Duration::from_secs(1);
        let ms = Duration::from_millis(1);
        let xcpu = Exit::Signal(libc::SIGXCPU);
        let kill = Exit::Signal(libc::SIGKILL);
        assert_eq!(
            kernel_stop(xcpu, false, Some(1), false, ms),
            Some(Outcome::CpuLimit)
        );
        assert_eq!(kernel_stop(xcpu, false, None, false, sec), None);
        assert_eq!(
            kernel_stop(xcpu, true, Some(1), false, ms),
            Some(Outcome::MemoryLimit)
        );
        // The hard RLIMIT_CPU: SIGKILL we did not send, after the soft limit's CPU time.
        assert_eq!(
            kernel_stop(kill, false, Some(1), false, 2 * sec),
            Some(Outcome::CpuLimit)
        );
        assert_eq!(kernel_stop(kill, false, Some(1), true, 2 * sec), None);
        assert_eq!(kernel_stop(kill, false, Some(1), false, ms), None);
        assert_eq!(
            kernel_stop(Exit::Signal(libc::SIGSEGV), false, Some(1), false, 2 * sec),
            None
        );
        assert_eq!(
            kernel_stop(Exit::Code(1), false, Some(1), false, 2 * sec),
            None
        );
        assert_eq!(
            kernel_stop(Exit::Code(128 + libc::SIGXCPU), false, Some(1), false, ms),
            Some(Outcome::CpuLimit)
        );
    }
}
