//! The results CSV: one [`Row`] per job, the documented header, the job key, and reading a
//! results file back (tolerating a torn last line left by a killed run).

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::search::Status;
use thiserror::Error;

/// The schema version of the CSV and its metadata sidecar.
pub const SCHEMA_VERSION: u32 = 1;

/// The CSV header, in order (the documented schema).
pub const HEADER: [&str; 23] = [
    "run_id",
    "instance_file",
    "instance_id",
    "rows",
    "cols",
    "goal",
    "scramble_moves",
    "algorithm",
    "heuristic",
    "repetition",
    "status",
    "moves",
    "optimal",
    "nodes_expanded",
    "nodes_generated",
    "peak_stored_nodes",
    "peak_heap_bytes",
    "wall_ms",
    "cpu_ms",
    "setup_ms",
    "initial_h",
    "message",
    "solution",
];

/// How a job ended, as the `status` column spells it: the search's own [`Status`] (a
/// cancelled search writes no row) or `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobStatus {
    /// Solved (and the solution replayed).
    Solved,
    /// The timeout ran out.
    Timeout,
    /// The node budget ran out.
    NodeLimit,
    /// The memory budget ran out.
    MemoryLimit,
    /// Stopped at the deepest path the search can represent (`search::MAX_STORED_DEPTH`).
    DepthLimit,
    /// The job failed (see the `message` column).
    Error,
}

impl JobStatus {
    /// Every status, in the documented order.
    pub const ALL: [JobStatus; 6] = [
        JobStatus::Solved,
        JobStatus::Timeout,
        JobStatus::NodeLimit,
        JobStatus::MemoryLimit,
        JobStatus::DepthLimit,
        JobStatus::Error,
    ];

    /// The spelling in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::Solved => "solved",
            JobStatus::Timeout => "timeout",
            JobStatus::NodeLimit => "node-limit",
            JobStatus::MemoryLimit => "memory-limit",
            JobStatus::DepthLimit => "depth-limit",
            JobStatus::Error => "error",
        }
    }

    /// The status of a search that ended with `status`; `None` for a cancelled one.
    pub fn of_search(status: Status) -> Option<JobStatus> {
        match status {
            Status::Solved => Some(JobStatus::Solved),
            Status::Timeout => Some(JobStatus::Timeout),
            Status::NodeLimit => Some(JobStatus::NodeLimit),
            Status::MemoryLimit => Some(JobStatus::MemoryLimit),
            Status::DepthLimit => Some(JobStatus::DepthLimit),
            Status::Cancelled => None,
        }
    }

    /// Whether a limit stopped the job.
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            JobStatus::Timeout
                | JobStatus::NodeLimit
                | JobStatus::MemoryLimit
                | JobStatus::DepthLimit
        )
    }
}

impl std::str::FromStr for JobStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<JobStatus, String> {
        JobStatus::ALL
            .into_iter()
            .find(|j| j.name() == s)
            .ok_or_else(|| format!("unknown status \"{s}\""))
    }
}

/// One job's result. `None` is written as an empty cell (not applicable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Identifies the run (joins the CSV with its `.meta.json`).
    pub run_id: String,
    /// The instance file as named on the command line.
    pub instance_file: String,
    /// The instance's id within its file.
    pub instance_id: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The goal layout (`blank-last` / `blank-first`).
    pub goal: String,
    /// The random-walk length the instance was generated with, if it was.
    pub scramble_moves: Option<u32>,
    /// The algorithm.
    pub algorithm: String,
    /// The heuristic (`none` for blind algorithms).
    pub heuristic: String,
    /// The repetition, 1-based.
    pub repetition: u32,
    /// How the job ended.
    pub status: JobStatus,
    /// Solution length, when solved.
    pub moves: Option<usize>,
    /// Whether the algorithm guarantees a shortest solution.
    pub optimal: Option<bool>,
    /// Nodes expanded.
    pub nodes_expanded: Option<u64>,
    /// Nodes generated.
    pub nodes_generated: Option<u64>,
    /// The most nodes the search held at once.
    pub peak_stored_nodes: Option<u64>,
    /// The most heap bytes the job held at once (counting allocator).
    pub peak_heap_bytes: Option<u64>,
    /// Wall time of the job in milliseconds.
    pub wall_ms: f64,
    /// CPU time of the job's thread in milliseconds.
    pub cpu_ms: Option<f64>,
    /// Heuristic set-up time in milliseconds.
    pub setup_ms: Option<f64>,
    /// The heuristic's estimate of the start board.
    pub initial_h: Option<u32>,
    /// The error, for status `error`.
    pub message: Option<String>,
    /// The moves as U/D/L/R letters (with `--solutions`).
    pub solution: Option<String>,
}

/// What identifies a job across runs, shards and resumes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobKey {
    /// The instance file as named.
    pub instance_file: String,
    /// The instance id.
    pub instance_id: String,
    /// The algorithm.
    pub algorithm: String,
    /// The heuristic.
    pub heuristic: String,
    /// The repetition.
    pub repetition: u32,
}

impl std::fmt::Display for JobKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} #{} {}/{} repetition {}",
            self.instance_file, self.instance_id, self.algorithm, self.heuristic, self.repetition
        )
    }
}

impl Row {
    /// The row's job key.
    pub fn key(&self) -> JobKey {
        JobKey {
            instance_file: self.instance_file.clone(),
            instance_id: self.instance_id.clone(),
            algorithm: self.algorithm.clone(),
            heuristic: self.heuristic.clone(),
            repetition: self.repetition,
        }
    }
}

/// Problems with a results file.
#[derive(Debug, Error)]
pub enum RecordError {
    /// Reading or writing failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// The header is not the documented one.
    #[error(
        "{path}: the header is not the results schema (version {SCHEMA_VERSION}); expected \"{expected}\", found \"{found}\""
    )]
    Header {
        /// The file.
        path: PathBuf,
        /// The documented header.
        expected: String,
        /// What the file has.
        found: String,
    },
    /// A row does not parse.
    #[error("{path}:{line}: {what}")]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
}

/// The header as one CSV line (without the newline).
pub fn header_line() -> String {
    HEADER.join(",")
}

/// A results file read back.
#[derive(Debug, Default)]
pub struct ResultsFile {
    /// The rows with the line each starts on.
    pub rows: Vec<(u64, Row)>,
    /// Bytes of a torn (incomplete) last line, if any.
    pub torn_bytes: usize,
    /// Whether the file held a complete header line.
    pub has_header: bool,
}

/// Reads a results file. With `allow_torn`, an incomplete last line (no final newline; what a
/// killed writer leaves) is reported in `torn_bytes` instead of being parsed.
pub fn read_results(path: &Path, allow_torn: bool) -> Result<ResultsFile, RecordError> {
    let io_err = |error| RecordError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut text = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut text))
        .map_err(io_err)?;
    parse_results(path, &text, allow_torn)
}

/// Parses the bytes of a results file (see [`read_results`]); besides the header and every
/// cell's type (a status is a [`JobStatus`]) it checks that no job key appears twice.
pub fn parse_results(
    path: &Path,
    text: &[u8],
    allow_torn: bool,
) -> Result<ResultsFile, RecordError> {
    let mut out = ResultsFile::default();
    let complete = if allow_torn {
        let end = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        out.torn_bytes = text.len() - end;
        &text[..end]
    } else {
        text
    };
    if complete.is_empty() {
        return Ok(out);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(complete);
    let row_err = |line: u64, what: String| RecordError::Row {
        path: path.to_path_buf(),
        line,
        what,
    };
    let headers = reader
        .byte_headers()
        .map_err(|e| row_err(1, e.to_string()))?
        .clone();
    let found: Vec<String> = headers
        .iter()
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    if found != HEADER {
        return Err(RecordError::Header {
            path: path.to_path_buf(),
            expected: header_line(),
            found: found.join(","),
        });
    }
    out.has_header = true;
    let mut first_line = std::collections::HashMap::new();
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                let what = match e.kind() {
                    csv::ErrorKind::UnequalLengths { len, .. } => format!(
                        "{len} fields, expected {} (the results schema)",
                        HEADER.len()
                    ),
                    _ => e.to_string(),
                };
                return Err(row_err(line, what));
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = record.deserialize(Some(&headers)).map_err(|e| {
            let what = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let column = err
                        .field()
                        .and_then(|i| HEADER.get(i as usize))
                        .map_or(String::new(), |h| format!("column {h}: "));
                    format!("{column}{}", err.kind())
                }
                _ => e.to_string(),
            };
            row_err(line, what)
        })?;
        if let Some(first) = first_line.insert(row.key(), line) {
            return Err(row_err(
                line,
                format!(
                    "a second row for job {} (the first is on line {first})",
                    row.key()
                ),
            ));
        }
        out.rows.push((line, row));
    }
    Ok(out)
}

/// Writes rows to a CSV sink, flushing after every row so that a killed run keeps every row it
/// finished.
pub struct RowWriter {
    writer: csv::Writer<Box<dyn Write + Send>>,
    keys: HashSet<JobKey>,
}

impl RowWriter {
    /// Writes to stdout, starting with the header.
    pub fn stdout() -> io::Result<RowWriter> {
        RowWriter::start(Box::new(io::stdout()), HashSet::new(), true)
    }

    /// Writes to `file`, an open results file whose content was read as `existing`: a torn
    /// last line is cut off first; a file without a complete header is started over (it can
    /// only hold blank lines or a torn header), else rows are appended after `existing`'s.
    pub fn append(mut file: File, existing: &ResultsFile) -> io::Result<RowWriter> {
        let len = file.seek(SeekFrom::End(0))?;
        let keep = if existing.has_header {
            len - existing.torn_bytes as u64
        } else {
            0
        };
        if keep < len {
            file.set_len(keep)?;
        }
        file.seek(SeekFrom::End(0))?;
        let keys = existing.rows.iter().map(|(_, r)| r.key()).collect();
        RowWriter::start(Box::new(file), keys, !existing.has_header)
    }

    fn start(
        sink: Box<dyn Write + Send>,
        keys: HashSet<JobKey>,
        header: bool,
    ) -> io::Result<RowWriter> {
        let mut w = RowWriter {
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(sink),
            keys,
        };
        if header {
            w.write_header()?;
        }
        Ok(w)
    }

    fn write_header(&mut self) -> io::Result<()> {
        self.writer.write_record(HEADER)?;
        self.writer.flush()
    }

    /// Writes one row and flushes it. A row whose job key was already written is refused.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        if !self.keys.insert(row.key()) {
            return Err(io::Error::other(format!(
                "internal error: a second row for job {}",
                row.key()
            )));
        }
        self.writer
            .serialize(row)
            .map_err(|e| match e.into_kind() {
                csv::ErrorKind::Io(e) => e,
                other => io::Error::other(format!("{other:?}")),
            })?;
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> Row {
        Row {
            run_id: "r".into(),
            instance_file: "f.txt".into(),
            instance_id: id.into(),
            rows: 3,
            cols: 3,
            goal: "blank-last".into(),
            scramble_moves: None,
            algorithm: "astar".into(),
            heuristic: "manhattan".into(),
            repetition: 1,
            status: JobStatus::Solved,
            moves: Some(4),
            optimal: Some(true),
            nodes_expanded: Some(5),
            nodes_generated: Some(11),
            peak_stored_nodes: Some(9),
            peak_heap_bytes: None,
            wall_ms: 0.25,
            cpu_ms: Some(0.2),
            setup_ms: Some(0.001),
            initial_h: Some(4),
            message: None,
            solution: Some("UULL".into()),
        }
    }

    #[test]
    fn header_is_the_documented_schema() {
        // Copied from the project brief / README, not from HEADER.
        assert_eq!(
            header_line(),
            "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,heuristic,\
             repetition,status,moves,optimal,nodes_expanded,nodes_generated,peak_stored_nodes,\
             peak_heap_bytes,wall_ms,cpu_ms,setup_ms,initial_h,message,solution"
        );
    }

    #[test]
    fn rows_round_trip_with_empty_cells_and_a_torn_tail_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let create =
            |p: &Path| RowWriter::append(File::create(p).unwrap(), &ResultsFile::default());
        let mut w = create(&path).unwrap();
        let a = row("1");
        w.write(&a).unwrap();
        assert!(w.write(&a).is_err(), "duplicate key must be refused");
        drop(w);
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text.lines().nth(1).unwrap();
        assert_eq!(
            line,
            "r,f.txt,1,3,3,blank-last,,astar,manhattan,1,solved,4,true,5,11,9,,0.25,0.2,0.001,4,,UULL"
        );
        // A killed writer leaves part of a row behind.
        std::fs::write(&path, format!("{text}r,f.txt,2,3,3,bla")).unwrap();
        assert!(read_results(&path, false).is_err());
        let back = read_results(&path, true).unwrap();
        assert_eq!(back.torn_bytes, "r,f.txt,2,3,3,bla".len());
        assert_eq!(back.rows.len(), 1);
        assert_eq!(back.rows[0].0, 2);
        assert_eq!(back.rows[0].1, a);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let mut w = RowWriter::append(file, &back).unwrap();
        assert!(w.write(&a).is_err());
        w.write(&row("2")).unwrap();
        drop(w);
        let back = read_results(&path, false).unwrap();
        let ids: Vec<_> = back
            .rows
            .iter()
            .map(|(_, r)| r.instance_id.as_str())
            .collect();
        assert_eq!(ids, ["1", "2"]);
    }

    #[test]
    fn foreign_header_and_bad_cells_are_reported_with_position() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let e = read_results(&path, false).unwrap_err().to_string();
        assert!(e.contains("header"), "{e}");
        let mut text = header_line() + "\n";
        text += "r,f,1,three,3,blank-last,,astar,manhattan,1,solved,4,true,5,11,9,,0.25,0.2,0.001,4,,\n";
        std::fs::write(&path, text).unwrap();
        let e = read_results(&path, false).unwrap_err().to_string();
        assert!(e.contains("x.csv:2:") && e.contains("rows"), "{e}");
    }
}
