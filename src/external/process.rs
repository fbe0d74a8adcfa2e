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
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

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
    /// ends with [`Stop::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
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
        }
    }
}

/// Which limit stopped the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// `timeout` ran out.
    Timeout,
    /// `cpu` ran out.
    CpuLimit,
    /// `memory` was exceeded.
    MemoryLimit,
    /// The `cancel` flag was raised.
    Cancelled,
}

/// How the command's own process ended.
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
    /// The limit that stopped it, if one did.
    pub stop: Option<Stop>,
    /// Wall time from spawn to reaping.
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

/// The longest a blocked stdout/stderr reader is waited for after the group was killed (a
/// process that left the group with `setsid` may keep the pipe open).
const READER_DEADLINE: Duration = Duration::from_secs(2);
/// Bytes of stderr kept.
const STDERR_TAIL: usize = 4096;
/// How often the watchdog samples the group's memory and CPU time in `/proc`.
const SAMPLE_PERIOD: Duration = Duration::from_millis(5);

/// Runs `command` with `/bin/sh -c`, writes `stdin` to it, and waits, enforcing `limits`.
pub fn run(
    command: &str,
    stdin: Vec<u8>,
    limits: &ProcessLimits,
) -> Result<Measured, ProcessError> {
    let cgroup = limits
        .memory
        .filter(|_| limits.cgroup)
        .and_then(MemoryCgroup::create);
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // RLIMIT_CPU counts whole seconds: the limit rounded up, at least one.
    let cpu_secs = limits
        .cpu
        .map(|c| (c.as_secs() + u64::from(c.subsec_nanos() > 0)).max(1));
    let procs_fd = cgroup.as_ref().map(|c| c.procs.as_raw_fd());
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (setrlimit, getpid, write) on memory prepared before the fork.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(fd) = procs_fd {
                let mut buf = [0u8; 20];
                let digits = format_pid(libc::getpid() as u64, &mut buf);
                if libc::write(fd, digits.as_ptr().cast(), digits.len()) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(secs) = cpu_secs {
                let lim = libc::rlimit {
                    rlim_cur: secs,
                    rlim_max: secs + 1,
                };
                if libc::setrlimit(libc::RLIMIT_CPU, &lim) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| ProcessError::Spawn {
        command: command.to_string(),
        source,
    })?;
    let pid = child.id() as libc::pid_t;
    // Where the kernel offers one, a pidfd wakes the wait below the moment the process ends,
    // so a quick job is not charged the rest of a nap.
    let pidfd = pidfd_open(pid);

    // Feed stdin from its own thread: a solver that never reads it must not block us.
    let mut child_stdin = child.stdin.take().expect("piped");
    let writer = thread::spawn(move || {
        let _ = child_stdin.write_all(&stdin);
    });
    let (out_tx, out_rx) = mpsc::channel();
    let mut child_stdout = child.stdout.take().expect("piped");
    let max_stdout = limits.max_stdout;
    thread::spawn(move || {
        let _ = out_tx.send(read_capped(&mut child_stdout, max_stdout));
    });
    let (err_tx, err_rx) = mpsc::channel();
    let mut child_stderr = child.stderr.take().expect("piped");
    thread::spawn(move || {
        let _ = err_tx.send(read_tail(&mut child_stderr, STDERR_TAIL));
    });

    let mut stop = None;
    let mut term_sent: Option<Instant> = None;
    let mut killed = false;
    let mut sampled_peak = 0u64;
    let mut nap = Duration::from_micros(50);
    // The first sample after one period: a process that ends sooner is measured by rusage
    // alone, and a quick job pays no scan of /proc.
    let mut next_sample = start + SAMPLE_PERIOD;
    let (status, usage) = loop {
        match wait4(pid, true) {
            Ok(Some(done)) => break done,
            Ok(None) => {}
            Err(source) => {
                kill_group(pid, libc::SIGKILL);
                return Err(ProcessError::Wait {
                    command: command.to_string(),
                    source,
                });
            }
        }
        let now = Instant::now();
        let elapsed = now - start;
        if stop.is_none()
            && let Some(t) = limits.timeout
            && elapsed >= t
        {
            stop = Some(Stop::Timeout);
        }
        let watch_memory = limits.memory.is_some() && cgroup.is_none();
        if (watch_memory || limits.cpu.is_some()) && now >= next_sample {
            next_sample = now + SAMPLE_PERIOD;
            let g = sample_group(pid);
            sampled_peak = sampled_peak.max(g.rss);
            if stop.is_none() && watch_memory && limits.memory.is_some_and(|m| g.rss > m) {
                stop = Some(Stop::MemoryLimit);
                kill_group(pid, libc::SIGKILL);
                killed = true;
            }
            if stop.is_none() && limits.cpu.is_some_and(|c| g.cpu > c) {
                stop = Some(Stop::CpuLimit);
            }
        }
        if stop.is_none()
            && limits
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
        {
            stop = Some(Stop::Cancelled);
            kill_group(pid, libc::SIGKILL);
            killed = true;
        }
        if stop.is_some() && term_sent.is_none() && !killed {
            kill_group(pid, libc::SIGTERM);
            term_sent = Some(now);
        }
        if let Some(t) = term_sent
            && !killed
            && now - t >= limits.grace
        {
            kill_group(pid, libc::SIGKILL);
            killed = true;
        }
        match &pidfd {
            Some(fd) => wait_readable(fd, Duration::from_millis(2)),
            None => {
                thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(2));
            }
        }
    };
    let wall = start.elapsed();
    // Whatever the command left behind in its group goes now.
    let leftover_killed = group_alive(pid);
    kill_group(pid, libc::SIGKILL);
    let _ = writer.join();
    let (stdout, stdout_truncated) = out_rx
        .recv_timeout(READER_DEADLINE)
        .unwrap_or((Vec::new(), false));
    let stderr_tail = err_rx.recv_timeout(READER_DEADLINE).unwrap_or_default();

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
) -> Option<Stop> {
    if oom {
        return Some(Stop::MemoryLimit);
    }
    let soft = cpu_secs?.max(1);
    match exit {
        Exit::Signal(libc::SIGXCPU) => Some(Stop::CpuLimit),
        Exit::Code(c) if c == 128 + libc::SIGXCPU => Some(Stop::CpuLimit),
        Exit::Signal(libc::SIGKILL) if !we_killed && cpu >= Duration::from_secs(soft) => {
            Some(Stop::CpuLimit)
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

/// Waits until `fd` is readable (a pidfd: the process ended) or `most` has passed.
fn wait_readable(fd: &OwnedFd, most: Duration) {
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ts = libc::timespec {
        tv_sec: most.as_secs() as libc::time_t,
        tv_nsec: most.subsec_nanos() as libc::c_long,
    };
    // SAFETY: one valid pollfd, a valid timespec, no signal mask; an error (EINTR) just ends
    // this nap early.
    unsafe {
        libc::ppoll(&mut p, 1, &ts, std::ptr::null());
    }
}

/// Writes `n` in decimal into `buf` without allocating (for use between fork and exec).
fn format_pid(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[i..]
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

fn read_capped(r: &mut impl Read, max: usize) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let mut truncated = false;
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = max.saturating_sub(out.len());
                out.extend_from_slice(&buf[..n.min(room)]);
                truncated |= n > room;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (out, truncated)
}

fn read_tail(r: &mut impl Read, keep: usize) -> String {
    let mut tail = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                tail.extend_from_slice(&buf[..n]);
                if tail.len() > 2 * keep {
                    tail.drain(..tail.len() - keep);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if tail.len() > keep {
        tail.drain(..tail.len() - keep);
    }
    String::from_utf8_lossy(&tail).into_owned()
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
        assert_eq!(m.stop, Some(Stop::CpuLimit), "{m:?}");
        // Through `sh`, a child stopped by it shows as 128 + SIGXCPU.
        let m = run(
            "sh -c 'kill -XCPU $$'; exit $?",
            Vec::new(),
            &cpu_limited(1),
        )
        .unwrap();
        assert_eq!(m.stop, Some(Stop::CpuLimit), "{m:?}");
        // Without a CPU limit the same signal is a crash, not a limit.
        let m = run("kill -XCPU $$", Vec::new(), &ProcessLimits::default()).unwrap();
        assert_eq!(m.stop, None);
        assert_eq!(m.exit, Exit::Signal(libc::SIGXCPU));
    }

    #[test]
    fn the_kernels_signals_decide_which_limit_stopped_a_process() {
        let sec = Duration::from_secs(1);
        let ms = Duration::from_millis(1);
        let xcpu = Exit::Signal(libc::SIGXCPU);
        let kill = Exit::Signal(libc::SIGKILL);
        assert_eq!(
            kernel_stop(xcpu, false, Some(1), false, ms),
            Some(Stop::CpuLimit)
        );
        assert_eq!(kernel_stop(xcpu, false, None, false, sec), None);
        assert_eq!(
            kernel_stop(xcpu, true, Some(1), false, ms),
            Some(Stop::MemoryLimit)
        );
        // The hard RLIMIT_CPU: SIGKILL we did not send, after the soft limit's CPU time.
        assert_eq!(
            kernel_stop(kill, false, Some(1), false, 2 * sec),
            Some(Stop::CpuLimit)
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
            Some(Stop::CpuLimit)
        );
    }
}
