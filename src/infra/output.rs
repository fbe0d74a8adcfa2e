//! The results file of a run, opened once and locked for the whole run: a second `bench run` on
//! the same `--out` is refused at once (naming the process that holds it) instead of
//! interleaving rows. The lock is `flock(2)` on the CSV itself, so it goes away with the process
//! however it ends and leaves no lock file behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use thiserror::Error;

/// The exit status of a run (or `bench solve`) that could not write its output: `EX_IOERR`
/// from sysexits.h, distinct from 1 (rejected input) and 130/143 (interrupted).
pub const EXIT_WRITE_ERROR: i32 = 74;

/// Last words before the process ends on a failed write to stdout or stderr (e.g. `bench
/// run` marks its session `failed`); see [`on_write_failure`].
static LAST_WORDS: std::sync::Mutex<Vec<Box<dyn Fn() + Send>>> = std::sync::Mutex::new(Vec::new());

/// Registers `f` to run before the process ends because stdout or stderr cannot be written.
pub fn on_write_failure(f: impl Fn() + Send + 'static) {
    if let Ok(mut words) = LAST_WORDS.lock() {
        words.push(Box::new(f));
    }
}

/// Makes every failed write to an output end the process with [`EXIT_WRITE_ERROR`] and a
/// message, never a panic (exit 101) nor a signal:
///
/// - `SIGXFSZ` is ignored, so a write past `RLIMIT_FSIZE` (`ulimit -f`) fails with `EFBIG`
///   and takes the ordinary write-error path instead of killing the process;
/// - `println!`/`eprintln!` on a full disk, `/dev/full` or a closed pipe panic by design; a
///   panic hook turns exactly those panics ("failed printing to stdout/stderr") into the
///   registered last words ([`on_write_failure`]), a one-line message (none for a closed pipe:
///   `bench ... | head` is not an error worth a word) and exit status 74. Other panics keep
///   the default hook.
///
/// Call once, at the start of the program.
pub fn install_write_failure_handling() {
    // SAFETY: setting a signal's disposition to SIG_IGN involves no handler code.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        let Some(what) = msg.strip_prefix("failed printing to ") else {
            return default(info);
        };
        if let Ok(words) = LAST_WORDS.lock() {
            words.iter().for_each(|f| f());
        }
        if !msg.contains("Broken pipe") {
            let _ = writeln!(io::stderr(), "error: cannot write to {what}");
        }
        std::process::exit(EXIT_WRITE_ERROR);
    }));
}

/// Set when a diagnostic could not be written to stderr ([`note`]).
static DIAGNOSTICS_LOST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes a diagnostic to stderr, where a failure (a full disk, `2>/dev/full`, a closed pipe)
/// must not stop a run whose product is its results file: the failure is remembered
/// ([`diagnostics_lost`]) and the CLI's exit status says so (74) once the work is done.
pub fn note(args: std::fmt::Arguments<'_>) {
    if io::stderr().write_fmt(args).is_err() {
        DIAGNOSTICS_LOST.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Whether a [`note`] could not be written.
pub fn diagnostics_lost() -> bool {
    DIAGNOSTICS_LOST.load(std::sync::atomic::Ordering::SeqCst)
}

/// Whether `e` is a failed write: a [`WriteError`], or an OS error anywhere in its chain that
/// only a write gives (no space, file too large, a closed pipe, a quota). The CLI maps these
/// to [`EXIT_WRITE_ERROR`].
pub fn is_write_failure(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<WriteError>().is_some()
            || c.downcast_ref::<io::Error>().is_some_and(|io| {
                matches!(
                    io.raw_os_error(),
                    Some(libc::ENOSPC | libc::EFBIG | libc::EPIPE | libc::EDQUOT)
                )
            })
    })
}

/// A failed write to an output; the CLI maps it to [`EXIT_WRITE_ERROR`].
#[derive(Debug, Error)]
#[error("cannot write {}: {error}", path.display())]
pub struct WriteError {
    /// The output (`-` for stdout).
    pub path: PathBuf,
    /// What the operating system said.
    pub error: io::Error,
}

/// Why the results file cannot be opened.
#[derive(Debug, Error)]
pub enum OpenError {
    /// Another process holds the lock.
    #[error(
        "--out {}: in use by another bench run ({holder}); wait for it to finish, or choose \
         another --out",
        path.display()
    )]
    InUse {
        /// The file.
        path: PathBuf,
        /// Who holds it, as far as the sidecar tells.
        holder: String,
    },
    /// The file exists and `--resume` was not given.
    #[error(
        "--out {}: already exists; pass --resume to continue that run, or choose another file",
        path.display()
    )]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// The path exists and is not a regular file ([`refuse_non_regular`]'s message).
    #[error("{0}")]
    NotRegular(io::Error),
    /// Opening or reading failed.
    #[error("--out {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
}

/// Refuses an output path that exists and is not a regular file (a directory, a device, a
/// FIFO, a socket; a symbolic link is judged by what it points to): writing a results file
/// there would block (a FIFO), replace it (a device turned into a file by a rename), or fail
/// late. Called before any work, so nothing is computed for an output that cannot take it.
/// The message names `flag` and the path.
pub fn refuse_non_regular(path: &Path, flag: &str) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{flag} {}: exists and is {}, not a regular file; it is left as it is: choose \
                 another {flag} (a new or a regular file)",
                path.display(),
                file_kind(&m)
            ),
        )),
        _ => Ok(()),
    }
}

/// What kind of file `m` describes, for messages.
fn file_kind(m: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// The locked results file: the open file and, when resuming, what it held.
#[derive(Debug)]
pub struct LockedOutput {
    /// The file, open for reading and writing, locked until dropped.
    pub file: File,
    /// Its content when it was opened (empty for a new file).
    pub existing: Vec<u8>,
}

/// Tries to take the exclusive lock of `file` without waiting; `Ok(false)` if it is held.
fn try_lock(file: &File) -> io::Result<bool> {
    // SAFETY: flock(2) on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    if e.kind() == io::ErrorKind::WouldBlock {
        Ok(false)
    } else {
        Err(e)
    }
}

/// Opens and locks the results file: a new file (refused if it exists), or with `resume` the
/// existing one (created if missing) with its content. `holder` says who holds a file that is
/// locked (e.g. [`crate::results::meta::holder`], from the run's sidecar).
pub fn open(
    path: &Path,
    resume: bool,
    holder: impl Fn(&Path) -> String,
) -> Result<LockedOutput, OpenError> {
    let io_err = |error| OpenError::Io {
        path: path.to_path_buf(),
        error,
    };
    let in_use = || OpenError::InUse {
        path: path.to_path_buf(),
        holder: holder(path),
    };
    refuse_non_regular(path, "--out").map_err(OpenError::NotRegular)?;
    let mut options = OpenOptions::new();
    // Non-blocking open: a FIFO put in place after the check above must not hang us; a
    // regular file ignores the flag.
    options
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK);
    let file = if resume {
        options.create(true).open(path)
    } else {
        match options.create_new(true).open(path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let file = OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(path)
                    .map_err(io_err)?;
                return Err(if try_lock(&file).map_err(io_err)? {
                    OpenError::Exists {
                        path: path.to_path_buf(),
                    }
                } else {
                    in_use()
                });
            }
            other => other,
        }
    }
    .map_err(io_err)?;
    if !file.metadata().map_err(io_err)?.is_file() {
        refuse_non_regular(path, "--out").map_err(OpenError::NotRegular)?;
    }
    if !try_lock(&file).map_err(io_err)? {
        return Err(in_use());
    }
    let mut existing = Vec::new();
    (&file).read_to_end(&mut existing).map_err(io_err)?;
    Ok(LockedOutput { file, existing })
}

/// Writes `body` through a buffered writer to stdout (`-`) or to `out`. A regular file is written via
/// a temporary file in the same directory that is renamed into place at the end, so an
/// interrupted run leaves no half-written instance file.
pub fn write_replacing(
    out: &Path,
    body: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if out == Path::new("-") {
        let stdout = io::stdout();
        let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
        body(&mut w)?;
        w.flush().context("cannot write to stdout")?;
        return Ok(());
    }
    // Only a regular file (or a new one) is replaced by renaming; anything else (a device such
    // as /dev/null, a pipe, a symbolic link) is written in place.
    match fs::symlink_metadata(out) {
        Ok(m) if m.is_dir() => bail!("--out {}: is a directory", out.display()),
        Ok(m) if !m.is_file() => {
            let f = fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(out)
                .with_context(|| format!("cannot open {}", out.display()))?;
            let mut w = BufWriter::with_capacity(1 << 16, f);
            body(&mut w).with_context(|| format!("cannot write {}", out.display()))?;
            w.flush()
                .with_context(|| format!("cannot write {}", out.display()))?;
            return Ok(());
        }
        _ => {}
    }
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let name = out
        .file_name()
        .with_context(|| format!("--out {}: not a file name", out.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> anyhow::Result<()> {
        let f =
            fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut w = BufWriter::with_capacity(1 << 16, f);
        body(&mut w).with_context(|| format!("cannot write {}", out.display()))?;
        w.flush()
            .with_context(|| format!("cannot write {}", out.display()))?;
        fs::rename(&tmp, out)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), out.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes `value` as pretty JSON to a sidecar at `path`, atomically: a temporary file
/// `<path>.tmp` in the same directory, synced, then renamed over `path`, so a reader (or a
/// crash) sees the old sidecar or the new one, never half of one. The temporary file is
/// removed when any step fails (e.g. on a full disk), so a failed write leaves nothing behind.
pub fn write_sidecar(path: &Path, value: &impl serde::Serialize) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    fn no_holder(_: &Path) -> String {
        "nobody".into()
    }

    /// A sidecar write that fails (here the rename: the target is a directory) leaves no
    /// temporary file behind, and a good one leaves only the sidecar.
    #[test]
    fn a_failed_sidecar_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("r.csv.meta.json");
        fs::create_dir(&blocked).unwrap();
        fs::write(blocked.join("keep"), "").unwrap();
        assert!(write_sidecar(&blocked, &serde_json::json!({"a": 1})).is_err());
        let names = |d: &Path| {
            let mut v: Vec<String> = fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(dir.path()), ["r.csv.meta.json"]);
        let good = dir.path().join("s.csv.meta.json");
        write_sidecar(&good, &serde_json::json!({"a": 1})).unwrap();
        assert_eq!(names(dir.path()), ["r.csv.meta.json", "s.csv.meta.json"]);
        assert_eq!(fs::read_to_string(&good).unwrap(), "{\n  \"a\": 1\n}\n");
    }

    #[test]
    fn a_second_open_is_refused_while_the_first_holds_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let first = open(&path, false, no_holder).unwrap();
        assert!(first.existing.is_empty());
        for resume in [false, true] {
            let e = open(&path, resume, no_holder).unwrap_err();
            assert!(matches!(e, OpenError::InUse { .. }), "{e}");
            assert!(e.to_string().contains("in use"), "{e}");
        }
        drop(first);
        assert!(matches!(
            open(&path, false, no_holder).unwrap_err(),
            OpenError::Exists { .. }
        ));
        std::fs::write(&path, "x\n").unwrap();
        assert_eq!(open(&path, true, no_holder).unwrap().existing, b"x\n");
    }

    #[test]
    fn an_output_that_is_not_a_regular_file_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        for (path, kind) in [
            (fifo.as_path(), "a FIFO"),
            (sub.as_path(), "a directory"),
            (Path::new("/dev/null"), "a character device"),
        ] {
            for resume in [false, true] {
                // Refused at once (a FIFO without a reader would block an open or a read).
                let e = open(path, resume, no_holder).unwrap_err();
                let msg = e.to_string();
                assert!(matches!(e, OpenError::NotRegular(_)), "{msg}");
                assert!(msg.contains(&format!("--out {}", path.display())), "{msg}");
                assert!(msg.contains(kind), "{msg}");
            }
        }
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(refuse_non_regular(&dir.path().join("new.csv"), "--out").is_ok());
    }
}
