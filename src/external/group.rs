//! The command of a job as the leader of a process group of its own, set up between fork
//! and exec (cgroup, CPU limit, death with its parent); used both by a job run as our own
//! child and by its supervisor.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// `/bin/sh -c command` as the leader of a new process group, joining the memory cgroup
/// whose `cgroup.procs` is `procs_fd` if one was made, under `RLIMIT_CPU` `cpu_secs` (hard
/// limit one second later), and killed by the kernel if the thread that started it dies.
/// Standard streams are inherited unless the caller sets them.
pub(super) fn command_in_group(
    command: &str,
    procs_fd: Option<i32>,
    cpu_secs: Option<u64>,
) -> Command {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(command).process_group(0);
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (prctl, getppid, setrlimit, getpid, write) on memory
    // prepared before the fork.
    unsafe {
        cmd.pre_exec(move || {
            // Dies with us, even of SIGKILL; if we died before this line, go now.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
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
    cmd
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
