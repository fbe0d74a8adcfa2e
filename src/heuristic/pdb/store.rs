//! The on-disk cache of pattern databases: one file per database.
//!
//! # Directory
//! In order: the directory set with [`set_cache_dir`] (the CLI's `--pdb-dir`), the environment
//! variable `NPUZZLE_PDB_DIR`, `$XDG_CACHE_HOME/npuzzle/pdb`, `$HOME/.cache/npuzzle/pdb`. With
//! none of them (or `NPUZZLE_PDB_DIR=off`) databases are built in memory and not stored.
//!
//! # File format (little-endian)
//! `b"NPZPDB\r\n"`, format version `u32`, rows `u8`, cols `u8`, goal `u8` (0 blank-last,
//! 1 blank-first), k `u8`, the k pattern tiles (`u8` each), entries `u64`, CRC-32 of everything
//! before it and of the table `u32`, then the table (one byte per entry). Databases whose rows,
//! columns or tiles do not fit a byte (boards of more than 256 cells) use format version
//! [`WIDE_FORMAT_VERSION`]: the same fields with rows, cols and the tiles as `u16`. A file whose header
//! does not match the database asked for (another version, size, goal or partition), whose
//! length is wrong, or whose checksum fails is rejected; the caller rebuilds it.
//!
//! Writes go to a temporary file in the same directory that is then renamed over the final
//! name, so a reader never sees a half-written file.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use thiserror::Error;

use super::TableKey;
use crate::board::Goal;

const MAGIC: &[u8; 8] = b"NPZPDB\r\n";
/// The file format version; files of other versions are stale.
pub const FORMAT_VERSION: u32 = 1;
/// The format version of databases with a row count, column count or tile above 255.
pub const WIDE_FORMAT_VERSION: u32 = 2;

/// Whether `key` needs the wide header.
fn is_wide(key: &TableKey) -> bool {
    key.rows > 255 || key.cols > 255 || key.tiles.iter().any(|&t| t > 255)
}

/// The format version of `key`'s file.
fn version_of(key: &TableKey) -> u32 {
    if is_wide(key) {
        WIDE_FORMAT_VERSION
    } else {
        FORMAT_VERSION
    }
}

static CACHE_DIR: RwLock<Option<Option<PathBuf>>> = RwLock::new(None);

/// Overrides the cache directory for this process (`None` = no disk cache).
pub fn set_cache_dir(dir: Option<PathBuf>) {
    *CACHE_DIR.write().unwrap_or_else(|e| e.into_inner()) = Some(dir);
}

/// The cache directory in effect (see the module documentation), if any.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = CACHE_DIR.read().unwrap_or_else(|e| e.into_inner()).clone() {
        return d;
    }
    if let Some(d) = std::env::var_os("NPUZZLE_PDB_DIR").filter(|d| !d.is_empty()) {
        if d == "off" {
            return None;
        }
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("npuzzle").join("pdb"));
    }
    std::env::var_os("HOME")
        .filter(|d| !d.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("npuzzle").join("pdb"))
}

/// Why a cached database file was not used.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The file is not a pattern database of this format version or not the one asked for.
    #[error("{path}: stale or foreign file: {why}")]
    Stale {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: truncated or padded: {len} bytes, expected {expected}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The length the header implies.
        expected: u64,
    },
    /// The checksum does not match: the file is corrupted.
    #[error("{path}: checksum mismatch (stored {stored:08x}, computed {computed:08x})")]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
}

/// The file name of a database inside the cache directory.
pub fn file_name(key: &TableKey) -> String {
    let tiles: Vec<String> = key.tiles.iter().map(u16::to_string).collect();
    format!(
        "{}x{}-{}-{}.pdb",
        key.rows,
        key.cols,
        key.goal.name(),
        tiles.join("-")
    )
}

fn header(key: &TableKey, entries: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(32 + key.tiles.len());
    h.extend_from_slice(MAGIC);
    let wide = is_wide(key);
    h.extend_from_slice(&version_of(key).to_le_bytes());
    let number = |h: &mut Vec<u8>, x: usize| {
        if wide {
            h.extend_from_slice(&(x as u16).to_le_bytes());
        } else {
            h.push(x as u8);
        }
    };
    number(&mut h, key.rows);
    number(&mut h, key.cols);
    h.push(match key.goal {
        Goal::BlankLast => 0,
        Goal::BlankFirst => 1,
    });
    h.push(key.tiles.len() as u8);
    for &t in &key.tiles {
        number(&mut h, usize::from(t));
    }
    h.extend_from_slice(&entries.to_le_bytes());
    h
}

fn checksum(header: &[u8], data: &[u8]) -> u32 {
    let mut c = crc32fast::Hasher::new();
    c.update(header);
    c.update(data);
    c.finalize()
}

/// Writes `data` as the database `key` into `dir` atomically; returns the file's path.
pub fn save(dir: &Path, key: &TableKey, data: &[u8]) -> Result<PathBuf, StoreError> {
    let path = dir.join(file_name(key));
    let io_err = |source| StoreError::Io {
        path: path.clone(),
        source,
    };
    fs::create_dir_all(dir).map_err(io_err)?;
    remove_stale_temporaries(dir, key);
    let head = header(key, data.len() as u64);
    let crc = checksum(&head, data);
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{:?}",
        file_name(key),
        std::process::id(),
        std::thread::current().id()
    ));
    let write = || -> io::Result<()> {
        let mut f = io::BufWriter::with_capacity(1 << 20, fs::File::create(&tmp)?);
        f.write_all(&head)?;
        f.write_all(&crc.to_le_bytes())?;
        f.write_all(data)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, &path)
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(io_err(e));
    }
    Ok(path)
}

/// Removes the temporary files of `key` left in `dir` by writers that died mid-write (killed,
/// out of memory): `.<name>.tmp-<pid>-...` whose process no longer exists.
fn remove_stale_temporaries(dir: &Path, key: &TableKey) {
    let prefix = format!(".{}.tmp-", file_name(key));
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        if pid > 0 && !process_exists(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id exists (on this host).
fn process_exists(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks whether the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// A zeroed buffer of `len` bytes for a table; on Linux its 2 MB-aligned interior is marked
/// for transparent huge pages before it is touched, so that the random lookups of the search
/// miss the TLB less.
pub fn table_buffer(len: usize) -> Vec<u8> {
    let v = vec![0u8; len];
    advise_huge_pages(&v);
    v
}

/// Asks the kernel to back `buf` with huge pages (a hint; ignored where unsupported).
pub fn advise_huge_pages(buf: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (buf.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (buf.as_ptr() as usize + buf.len()) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside `buf`'s allocation; MADV_HUGEPAGE does not change
            // its contents or validity.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

/// Reads and validates the database `key` from `dir`, which must have `entries` entries.
pub fn load(dir: &Path, key: &TableKey, entries: u64) -> Result<Vec<u8>, StoreError> {
    use std::io::Read;
    let path = dir.join(file_name(key));
    let io_err = |source| StoreError::Io {
        path: path.clone(),
        source,
    };
    let mut file = fs::File::open(&path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    let head = header(key, entries);
    let expected = head.len() as u64 + 4 + entries;
    let stale = |why: &str| StoreError::Stale {
        path: path.clone(),
        why: why.to_string(),
    };
    let mut start = vec![0u8; (head.len() + 4).min(len as usize)];
    file.read_exact(&mut start).map_err(io_err)?;
    if start.len() < 12 || &start[..8] != MAGIC {
        return Err(stale("not a pattern-database file"));
    }
    let version = version_of(key);
    if start[8..12] != version.to_le_bytes() {
        return Err(stale(&format!(
            "format version {} (expected {version})",
            u32::from_le_bytes(start[8..12].try_into().expect("4 bytes"))
        )));
    }
    if start.len() < head.len() + 4 {
        return Err(StoreError::Length {
            path,
            len,
            expected,
        });
    }
    if start[..head.len()] != head[..] {
        return Err(stale(
            "the header names another board size, goal or partition",
        ));
    }
    if len != expected {
        return Err(StoreError::Length {
            path,
            len,
            expected,
        });
    }
    let stored = u32::from_le_bytes(start[head.len()..].try_into().expect("4 bytes"));
    let mut data = table_buffer(entries as usize);
    file.read_exact(&mut data).map_err(io_err)?;
    let computed = checksum(&head, &data);
    if stored != computed {
        return Err(StoreError::Checksum {
            path,
            stored,
            computed,
        });
    }
    Ok(data)
}
