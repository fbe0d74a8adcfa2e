//! A small supervisor per job, so that nothing a command starts outlives the run that started
//! it, even a run killed with SIGKILL.
//!
//! `PR_SET_PDEATHSIG` reaches only the direct child, and a process group only the processes
//! that stay in it: a solver that double-forks, calls `setsid` or runs a pipeline through a
//! script escapes both. So the `bench` binary runs each command under a copy of itself
//! (`bench __supervise`, the program named by [`install`]): the supervisor makes itself a
//! child subreaper (`PR_SET_CHILD_SUBREAPER`, so every orphan of the command's tree becomes
//! its child, wherever it went), starts `/bin/sh -c COMMAND` as the leader of a new process
//! group exactly as an unsupervised job starts, and
//!
//! - when the command's own process ends, kills whatever of its tree is left (the processes
//!   `Measured::leftover_killed` counts) and reports the command's status and rusage;
//! - when the run dies, kills the whole tree at once: it holds the read end of a pipe whose
//!   only writer is the run (the *lifeline*), and the kernel closes that pipe when the run
//!   ends, however it ends.
//!
//! The run still signals and samples the command's process group itself (limits, cancel),
//! and reads the command's own rusage from the supervisor's report, so the supervisor's
//! process adds no memory floor and no CPU time to a job's figures: it is outside the
//! command's group, outside its memory cgroup and not under its CPU limit.
//!
//! The report is two lines on a pipe the supervisor inherits (`started PID`, then
//! `end STATUS USER_US SYSTEM_US MAXRSS_KB LEFTOVER WALL_US`); it is an internal protocol
//! between two copies of one binary.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

/// The argument that turns `bench` into a supervisor (hidden from `--help`).
pub const SUPERVISE_ARG: &str = "__supervise";

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Names the program that supervises every command (the `bench` binary itself, which
/// answers [`SUPERVISE_ARG`] with [`main`]); set once at start-up. Until it is set (in a
/// library caller, or the Python package) commands run unsupervised: their process group is
/// still killed whole, and the direct child still dies with its parent.
pub fn install(program: PathBuf) {
    let _ = PROGRAM.set(program);
}

/// The installed supervisor program, if any ([`install`]).
pub fn installed() -> Option<PathBuf> {
    PROGRAM.get().cloned()
}

/// How the supervised command ended, as the supervisor reaped it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ended {
    /// The raw wait status.
    pub status: i32,
    /// The command's rusage (its own and that of the children it waited for).
    pub usage: libc::rusage,
    /// Whether processes of its tree were still running when it ended (then killed).
    pub leftover: bool,
    /// The command's own wall time, from just before its fork to its reaping (the
    /// supervisor's own start-up, a few milliseconds, is not the command's).
    pub wall: std::time::Duration,
}

/// The run's side of one supervised command (beside the supervisor's process, which the run
/// waits for).
pub(super) struct Supervised {
    /// The command's process group (the run signals and samples it).
    pub group: libc::pid_t,
    report: BufReader<File>,
    /// Closed when dropped: the supervisor then kills the command's tree.
    _lifeline: OwnedFd,
}

impl Supervised {
    /// The supervisor's report of the command's end, once the supervisor has ended; `None`
    /// if it ended without one (it was killed).
    pub fn ended(mut self) -> Option<Ended> {
        let mut line = String::new();
        self.report.read_line(&mut line).ok()?;
        parse_end(&line)
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Starts `program __supervise` for `command` with piped standard streams (the command
/// inherits them), the cgroup's `cgroup.procs` descriptor and the CPU limit passed on for the
/// command alone, and waits for its word that the command runs.
pub(super) fn launch(
    program: &Path,
    command: &str,
    cgroup_procs: Option<RawFd>,
    cpu_secs: Option<u64>,
) -> io::Result<(Child, Supervised)> {
    let (report_r, report_w) = pipe()?;
    let (life_r, life_w) = pipe()?;
    let inherited = [
        report_w.as_raw_fd(),
        life_r.as_raw_fd(),
        cgroup_procs.unwrap_or(-1),
    ];
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let mut cmd = Command::new(program);
    cmd.arg(SUPERVISE_ARG)
        .arg(report_w.as_raw_fd().to_string())
        .arg(life_r.as_raw_fd().to_string())
        .arg(opt(cgroup_procs.map(|fd| fd.to_string())))
        .arg(opt(cpu_secs.map(|s| s.to_string())))
        .arg("--")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: fcntl is async-signal-safe; the descriptors were opened before the fork.
    unsafe {
        cmd.pre_exec(move || {
            for fd in inherited.into_iter().filter(|&fd| fd >= 0) {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    drop((report_w, life_r));
    let mut report = BufReader::new(File::from(report_r));
    let mut line = String::new();
    report.read_line(&mut line)?;
    let Some(group) = line
        .strip_prefix("started ")
        .and_then(|p| p.trim().parse().ok())
    else {
        let _ = child.wait();
        let why = line.strip_prefix("error ").unwrap_or(&line).trim();
        return Err(io::Error::other(format!(
            "the supervisor could not start the command: {}",
            if why.is_empty() { "no report" } else { why }
        )));
    };
    Ok((
        child,
        Supervised {
            group,
            report,
            _lifeline: life_w,
        },
    ))
}

fn parse_end(line: &str) -> Option<Ended> {
    let mut f = line.strip_prefix("end ")?.split_whitespace();
    let mut next = || f.next()?.parse::<i64>().ok();
    let (status, user, system, maxrss) = (next()?, next()?, next()?, next()?);
    let (leftover, wall) = (next()?, next()?);
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let tv = |us: i64| libc::timeval {
        tv_sec: (us / 1_000_000) as libc::time_t,
        tv_usec: (us % 1_000_000) as libc::suseconds_t,
    };
    usage.ru_utime = tv(user);
    usage.ru_stime = tv(system);
    usage.ru_maxrss = maxrss as libc::c_long;
    Some(Ended {
        status: status as i32,
        usage,
        leftover: leftover != 0,
        wall: std::time::Duration::from_micros(wall.max(0) as u64),
    })
}

/// `bench __supervise REPORT_FD LIFELINE_FD PROCS_FD|- CPU_SECS|- -- COMMAND`: runs COMMAND
/// and its whole tree to their end (module docs). Returns the exit status for the process.
pub fn main(args: &[OsString]) -> i32 {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let fd = |s: &str| s.parse::<RawFd>().ok();
    let (report, lifeline, procs, cpu, command) = match args.as_slice() {
        [r, l, p, c, dash, command] if dash == "--" => {
            (fd(r), fd(l), fd(p), c.parse::<u64>().ok(), command)
        }
        _ => {
            eprintln!("bench {SUPERVISE_ARG}: internal use only (started by bench run)");
            return 2;
        }
    };
    let (Some(report), Some(lifeline)) = (report, lifeline) else {
        eprintln!("bench {SUPERVISE_ARG}: bad descriptors");
        return 2;
    };
    // SAFETY: the run passed us these two descriptors, open and ours alone.
    let (mut report, lifeline) =
        unsafe { (File::from_raw_fd(report), OwnedFd::from_raw_fd(lifeline)) };
    match supervise(command, &lifeline, procs, cpu, &mut report) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(report, "error {e}");
            127
        }
    }
}

fn supervise(
    command: &str,
    lifeline: &OwnedFd,
    procs: Option<RawFd>,
    cpu: Option<u64>,
    report: &mut File,
) -> io::Result<i32> {
    // SAFETY: prctl and fcntl with these arguments touch no memory of ours.
    unsafe {
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) != 0 {
            return Err(io::Error::last_os_error());
        }
        for fd in [Some(report.as_raw_fd()), Some(lifeline.as_raw_fd()), procs]
            .into_iter()
            .flatten()
        {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    let children = ChildSignals::new()?;
    let mut cmd = super::group::command_in_group(command, procs, cpu);
    let start = std::time::Instant::now();
    let child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    writeln!(report, "started {pid}")?;
    // The pipes are the command's now: the run sees their end when its tree closes them.
    let null = File::options().read(true).write(true).open("/dev/null")?;
    for fd in 0..3 {
        // SAFETY: dup2 onto our own standard descriptors.
        unsafe { libc::dup2(null.as_raw_fd(), fd) };
    }
    let Some((status, usage)) = children.wait_for(pid, lifeline) else {
        // The run is gone: so is everything it started.
        kill_tree(pid, &children);
        return Ok(137);
    };
    let wall = start.elapsed();
    let leftover = kill_tree(pid, &children);
    let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    writeln!(
        report,
        "end {status} {} {} {} {} {}",
        us(usage.ru_utime),
        us(usage.ru_stime),
        usage.ru_maxrss,
        u8::from(leftover),
        wall.as_micros()
    )?;
    Ok(if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    })
}

/// SIGCHLD as a descriptor (blocked, read through a signalfd), so the supervisor sleeps in
/// one `poll` until a child changes state or the lifeline closes.
struct ChildSignals {
    fd: OwnedFd,
}

impl ChildSignals {
    fn new() -> io::Result<ChildSignals> {
        // SAFETY: a sigset is plain data; the calls fill and use it.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCHLD);
            if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
            let fd = libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(ChildSignals {
                fd: OwnedFd::from_raw_fd(fd),
            })
        }
    }

    /// Sleeps until a child changes state, the lifeline closes (returns false) or `most_ms`
    /// passes (-1: no limit).
    fn sleep(&self, lifeline: Option<&OwnedFd>, most_ms: i32) -> bool {
        let mut fds = [
            libc::pollfd {
                fd: self.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: lifeline.map_or(-1, |l| l.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: `fds` is valid for its length; a negative fd is ignored by poll.
        unsafe { libc::poll(fds.as_mut_ptr(), 2, most_ms) };
        let mut buf = [0u8; 128 * 8];
        // SAFETY: reads queued siginfo records into `buf` (non-blocking).
        while unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
        // Only the run writes to the lifeline, and it never does: readable means closed.
        fds[1].revents == 0
    }

    /// Reaps children until `pid` ends (its status and rusage), or `None` once the lifeline
    /// closes. Adopted orphans that end on the way are reaped too.
    fn wait_for(&self, pid: libc::pid_t, lifeline: &OwnedFd) -> Option<(i32, libc::rusage)> {
        loop {
            while let Some((p, status, usage)) = reap_one() {
                if p == pid {
                    return Some((status, usage));
                }
            }
            if !self.sleep(Some(lifeline), -1) {
                return None;
            }
        }
    }
}

/// One ended child of ours, without waiting.
fn reap_one() -> Option<(libc::pid_t, i32, libc::rusage)> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid and writable.
    let p = unsafe { libc::wait4(-1, &mut status, libc::WNOHANG, &mut usage) };
    (p > 0).then_some((p, status, usage))
}

/// Whether we have any child left, ended or not.
fn has_children() -> bool {
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid with WNOWAIT only inspects; `info` is valid and writable.
    let r = unsafe {
        libc::waitid(
            libc::P_ALL,
            0,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    r == 0
}

/// Kills every process below us (the command's group first) and reaps them all; returns
/// whether any was still running. As a subreaper we become the parent of every orphan of the
/// tree, so once we have no child left, nothing of the tree is left.
fn kill_tree(command: libc::pid_t, children: &ChildSignals) -> bool {
    // What runs below us before any kill is what the command left: counted first, since the
    // group kill below may reap it before any later look could see it.
    let mut leftover = !running_descendants(std::process::id() as libc::pid_t).is_empty();
    // SAFETY: kill(2) on the command's process group; errors (an empty group) are harmless.
    unsafe { libc::kill(-command, libc::SIGKILL) };
    loop {
        while reap_one().is_some() {}
        if !has_children() {
            return leftover;
        }
        let running = running_descendants(std::process::id() as libc::pid_t);
        leftover |= !running.is_empty();
        for p in running {
            // SAFETY: kill(2) on a process of our own tree.
            unsafe { libc::kill(p, libc::SIGKILL) };
        }
        children.sleep(None, 10);
    }
}

/// The processes below `root` that are not yet zombies, from `/proc` (parent: field 4 of
/// `stat`, state: field 3).
fn running_descendants(root: libc::pid_t) -> Vec<libc::pid_t> {
    let mut parent_of: HashMap<libc::pid_t, (libc::pid_t, bool)> = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<libc::pid_t>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next().unwrap_or("Z");
        if let Some(ppid) = f.next().and_then(|p| p.parse().ok()) {
            parent_of.insert(pid, (ppid, state != "Z" && state != "X"));
        }
    }
    let below = |mut p: libc::pid_t| {
        for _ in 0..parent_of.len() {
            match parent_of.get(&p) {
                Some(&(pp, _)) if pp == root => return true,
                Some(&(pp, _)) if pp > 1 => p = pp,
                _ => return false,
            }
        }
        false
    };
    parent_of
        .iter()
        .filter(|&(&p, &(_, live))| live && below(p))
        .map(|(&p, _)| p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_line_carries_status_rusage_and_leftovers() {
        let e = parse_end("end 256 1500000 250 2048 1 7300\n").unwrap();
        assert_eq!(e.wall, std::time::Duration::from_micros(7300));
        assert_eq!(e.status, 256);
        assert_eq!(
            (e.usage.ru_utime.tv_sec, e.usage.ru_utime.tv_usec),
            (1, 500_000)
        );
        assert_eq!(
            (e.usage.ru_stime.tv_sec, e.usage.ru_stime.tv_usec),
            (0, 250)
        );
        assert_eq!(e.usage.ru_maxrss, 2048);
        assert!(e.leftover);
        assert!(parse_end("end 0 1 2\n").is_none());
        assert!(parse_end("end 0 1 2 3 0\n").is_none());
        assert!(parse_end("started 12\n").is_none());
    }
}
