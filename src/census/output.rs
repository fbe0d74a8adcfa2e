//! The files a census writes: the distribution CSV (built up depth by depth under
//! `<out>.partial`, renamed to `<out>` only when the search is complete), the `depth x h`
//! tables, the antipodes as an instance file, and the sidecar `<out>.meta.json`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Census;
use crate::board::{Goal, Shape};
use crate::infra::provenance::{Build, Host};
use crate::instances::{FileHeader, Generator, InstanceWriter};
use crate::results::meta::SessionStatus;

/// The distribution CSV's columns.
pub const COLUMNS: &str = "rows,cols,goal,depth,count";

/// The heuristic table's columns.
pub const HEURISTIC_COLUMNS: &str = "rows,cols,goal,heuristic,depth,blank,h,count";

/// `<path>.partial`: where the distribution grows until the search is complete.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// The distribution CSV, one row per finished depth, flushed as it goes: an interrupted or
/// killed run keeps every depth it finished in `<out>.partial`, and `<out>` itself appears only
/// when the distribution is complete.
pub struct DistributionWriter {
    path: PathBuf,
    partial: PathBuf,
    file: BufWriter<File>,
    prefix: String,
}

impl DistributionWriter {
    /// Creates `<path>.partial` with the header (and removes a stale `<path>`, so that no
    /// complete-looking file from an earlier run survives next to this run's sidecar). A
    /// `<path>` that exists and is not a regular file is refused, untouched.
    pub fn create(path: &Path, rows: usize, cols: usize, goal: Goal) -> io::Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        // Never replace a device, a FIFO or a directory by the renamed `.partial`.
        crate::infra::output::refuse_non_regular(path, "--out")?;
        crate::infra::output::refuse_non_regular(&partial_path(path), "--out")?;
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let partial = partial_path(path);
        let mut file = BufWriter::new(File::create(&partial)?);
        writeln!(file, "{COLUMNS}")?;
        file.flush()?;
        Ok(DistributionWriter {
            path: path.to_path_buf(),
            partial,
            file,
            prefix: format!("{rows},{cols},{goal}"),
        })
    }

    /// Appends one depth and flushes it.
    pub fn depth(&mut self, depth: u32, count: u64) -> io::Result<()> {
        writeln!(self.file, "{},{depth},{count}", self.prefix)?;
        self.file.flush()
    }

    /// Renames `<out>.partial` to `<out>`: the distribution is complete.
    pub fn complete(mut self) -> io::Result<()> {
        self.file.flush()?;
        self.file.get_ref().sync_all()?;
        std::fs::rename(&self.partial, &self.path)
    }

    /// The file holding the depths so far.
    pub fn partial(&self) -> &Path {
        &self.partial
    }
}

/// Writes the `depth x blank cell x h` tables of a census (only non-zero cells).
pub fn write_heuristic_tables(path: &Path, census: &Census) -> io::Result<()> {
    let mut w = BufWriter::new(File::create(path)?);
    writeln!(w, "{HEURISTIC_COLUMNS}")?;
    for (name, table) in &census.heuristic_tables {
        for (d, by_cell) in table.iter().enumerate() {
            for (c, row) in by_cell.iter().enumerate() {
                for (h, &n) in row.iter().enumerate() {
                    if n > 0 {
                        writeln!(
                            w,
                            "{},{},{},{name},{d},{c},{h},{n}",
                            census.shape.rows, census.shape.cols, census.shape.goal
                        )?;
                    }
                }
            }
        }
    }
    w.flush()
}

/// Writes the antipodes as an instance file with their `optimal` length (the diameter).
pub fn write_antipodes(path: &Path, census: &Census, reproduce: String) -> io::Result<()> {
    let Some(diameter) = census.diameter() else {
        return Err(io::Error::other("the census is incomplete: no antipodes"));
    };
    let header = FileHeader {
        rows: census.shape.rows,
        cols: census.shape.cols,
        goal: census.shape.goal,
        generator: Generator::Census { diameter },
        seed: None,
        count: census.antipodes.len(),
        optimal_column: true,
        reproduce: Some(reproduce),
    };
    let mut w = InstanceWriter::new(BufWriter::new(File::create(path)?), header)?;
    for (i, b) in census.antipodes.iter().enumerate() {
        w.write(&format!("antipode-{}", i + 1), None, Some(diameter), b)?;
    }
    w.finish()?.flush()
}

/// The sidecar of a census: what ran, where, how long, how much memory, how far it got.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CensusMeta {
    /// `npuzzle-census 1`.
    pub format: String,
    /// The build.
    pub program: Build,
    /// The machine.
    pub host: Host,
    /// The command line.
    pub command_line: Vec<String>,
    /// Worker threads.
    pub threads: usize,
    /// The board size and goal (the keys `rows`, `cols`, `goal`).
    #[serde(flatten)]
    pub shape: Shape,
    /// Heuristics tabulated.
    pub heuristics: Vec<String>,
    /// Solvable positions (`cells! / 2`).
    pub positions: u64,
    /// Bytes the run needs (table and overhead).
    pub memory_needed_bytes: u64,
    /// The memory limit (`null`: none).
    pub max_memory_bytes: Option<u64>,
    /// Start (RFC 3339, UTC).
    pub start_time: String,
    /// End (`null` while running).
    pub end_time: Option<String>,
    /// Wall-clock seconds.
    pub wall_seconds: Option<f64>,
    /// User plus system CPU seconds of the process.
    pub cpu_seconds: Option<f64>,
    /// Peak resident set size of the process in bytes.
    pub peak_rss_bytes: Option<u64>,
    /// `running`, `complete`, `interrupted` or `failed` (the words of `bench run`'s sessions).
    pub status: SessionStatus,
    /// Depths whose counts are final (0..depths).
    pub depths_complete: usize,
    /// Positions counted so far.
    pub positions_found: u64,
    /// The diameter, when complete.
    pub diameter: Option<u32>,
    /// Positions at the diameter, when complete.
    pub antipodes: Option<u64>,
    /// The message of a failure.
    pub error: Option<String>,
}

impl CensusMeta {
    /// Writes the sidecar ([`crate::infra::output::write_sidecar`]: atomically, no temporary
    /// file left behind on failure).
    pub fn write(&self, path: &Path) -> io::Result<()> {
        crate::infra::output::write_sidecar(path, self)
    }

    /// Fills in the end time, CPU time and peak memory of this process.
    pub fn finish(&mut self, status: SessionStatus, wall_seconds: f64) {
        self.status = status;
        self.end_time = Some(crate::infra::provenance::now_rfc3339());
        self.wall_seconds = Some(wall_seconds);
        let (cpu, rss) = process_usage();
        self.cpu_seconds = cpu;
        self.peak_rss_bytes = rss;
    }
}

/// User plus system CPU seconds and peak resident bytes of this process (`getrusage`).
pub fn process_usage() -> (Option<f64>, Option<u64>) {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a valid pointer.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return (None, None);
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (
        Some(secs(u.ru_utime) + secs(u.ru_stime)),
        Some(u.ru_maxrss as u64 * 1024),
    )
}
