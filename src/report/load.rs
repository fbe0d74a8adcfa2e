//! Reading results CSVs: the documented header, one [`Record`] per row, typed errors that name
//! the file and line.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

/// The results CSV header, in order: the schema `bench run` writes, defined once there.
pub use crate::harness::record::HEADER;

/// What went wrong reading results CSVs.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No file was given.
    #[error("no results CSV given")]
    NoFiles,
    /// The file cannot be opened or read.
    #[error("{path}: cannot read")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The CSV itself is malformed (unbalanced quotes, wrong number of fields, bad UTF-8).
    #[error("{path}:{line}: malformed CSV: {message}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The CSV reader's description.
        message: String,
    },
    /// The file is empty (no header line).
    #[error("{path}: empty file, expected the results header ({})", HEADER.join(","))]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// Columns of the schema are missing from the header.
    #[error("{path}:1: not a results CSV: missing column(s) {}", missing.join(", "))]
    MissingColumns {
        /// The file.
        path: PathBuf,
        /// The missing column names.
        missing: Vec<String>,
    },
    /// The header differs from the first file's.
    #[error(
        "{path}:1: header differs from {first}'s ({detail}); results of different schemas cannot be combined"
    )]
    HeaderMismatch {
        /// The file whose header differs.
        path: PathBuf,
        /// The first file, whose header is the reference.
        first: PathBuf,
        /// What differs.
        detail: String,
    },
    /// A cell does not hold what its column needs.
    #[error("{path}:{line}: column {column}: {message}, found {value:?}")]
    Cell {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The column name.
        column: &'static str,
        /// The cell's text.
        value: String,
        /// What was expected.
        message: String,
    },
}

/// The outcome of one job, as the `status` column spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RunStatus {
    /// Solved.
    Solved,
    /// Stopped by the wall-clock limit.
    Timeout,
    /// Stopped by the node limit.
    NodeLimit,
    /// Stopped by the memory limit.
    MemoryLimit,
    /// Stopped at the deepest path the search can represent.
    DepthLimit,
    /// Failed with an error (see `message`).
    Error,
}

impl FromStr for RunStatus {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(match s {
            "solved" => Self::Solved,
            "timeout" => Self::Timeout,
            "node-limit" => Self::NodeLimit,
            "memory-limit" => Self::MemoryLimit,
            "depth-limit" => Self::DepthLimit,
            "error" => Self::Error,
            _ => return Err(()),
        })
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Solved => "solved",
            Self::Timeout => "timeout",
            Self::NodeLimit => "node-limit",
            Self::MemoryLimit => "memory-limit",
            Self::DepthLimit => "depth-limit",
            Self::Error => "error",
        })
    }
}

/// One results row, with the columns the report uses. `None` = empty cell (not applicable).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The file the row came from.
    pub file: PathBuf,
    /// Its 1-based line.
    pub line: u64,
    /// `instance_file`.
    pub instance_file: String,
    /// `instance_id`.
    pub instance_id: String,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// `goal`.
    pub goal: String,
    /// The random-walk length of the instance, if generated so.
    pub scramble_moves: Option<u32>,
    /// `algorithm`.
    pub algorithm: String,
    /// `heuristic`.
    pub heuristic: String,
    /// `repetition`.
    pub repetition: u32,
    /// `status`.
    pub status: RunStatus,
    /// Solution length (solved rows).
    pub moves: Option<u32>,
    /// Whether the algorithm guarantees shortest solutions.
    pub optimal: Option<bool>,
    /// Nodes expanded.
    pub nodes_expanded: Option<u64>,
    /// Nodes generated.
    pub nodes_generated: Option<u64>,
    /// Peak heap bytes of the job.
    pub peak_heap_bytes: Option<u64>,
    /// Wall time in milliseconds.
    pub wall_ms: Option<f64>,
}

impl Record {
    /// The instance this row ran on: (instance file, id, rows, cols, goal).
    pub fn instance_key(&self) -> (&str, &str, u32, u32, &str) {
        (
            &self.instance_file,
            &self.instance_id,
            self.rows,
            self.cols,
            &self.goal,
        )
    }

    /// `algorithm/heuristic`, the name of the pair.
    pub fn pair(&self) -> String {
        format!("{}/{}", self.algorithm, self.heuristic)
    }
}

/// Column positions of the fields the report reads.
struct Columns {
    idx: [usize; HEADER.len()],
}

impl Columns {
    fn get<'r>(&self, rec: &'r csv::StringRecord, name: &'static str) -> &'r str {
        let i = HEADER
            .iter()
            .position(|h| *h == name)
            .expect("schema column");
        rec.get(self.idx[i]).unwrap_or("")
    }
}

struct RowCtx<'a> {
    path: &'a Path,
    line: u64,
}

impl RowCtx<'_> {
    fn err(&self, column: &'static str, value: &str, message: &str) -> LoadError {
        LoadError::Cell {
            path: self.path.to_path_buf(),
            line: self.line,
            column,
            value: value.to_string(),
            message: message.to_string(),
        }
    }

    fn required<T: FromStr>(
        &self,
        column: &'static str,
        value: &str,
        what: &str,
    ) -> Result<T, LoadError> {
        if value.is_empty() {
            return Err(self.err(
                column,
                value,
                &format!("expected {what}, the cell is empty"),
            ));
        }
        value
            .parse()
            .map_err(|_| self.err(column, value, &format!("expected {what}")))
    }

    fn optional<T: FromStr>(
        &self,
        column: &'static str,
        value: &str,
        what: &str,
    ) -> Result<Option<T>, LoadError> {
        if value.is_empty() {
            Ok(None)
        } else {
            value
                .parse()
                .map(Some)
                .map_err(|_| self.err(column, value, &format!("expected {what} or an empty cell")))
        }
    }
}

fn io_err(path: &Path, source: std::io::Error) -> LoadError {
    LoadError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn csv_err(path: &Path, e: csv::Error) -> LoadError {
    let line = e.position().map_or(0, |p| p.line());
    if let csv::ErrorKind::Io(_) = e.kind() {
        let csv::ErrorKind::Io(io) = e.into_kind() else {
            unreachable!()
        };
        return io_err(path, io);
    }
    LoadError::Csv {
        path: path.to_path_buf(),
        line,
        message: e.to_string(),
    }
}

/// Reads one results CSV; returns its header and rows.
pub fn load_file(path: &Path) -> Result<(Vec<String>, Vec<Record>), LoadError> {
    let file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(std::io::BufReader::new(file));
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| csv_err(path, e))?
        .iter()
        .map(str::to_string)
        .collect();
    if header.is_empty() || header.iter().all(String::is_empty) {
        return Err(LoadError::Empty {
            path: path.to_path_buf(),
        });
    }
    let mut idx = [0usize; HEADER.len()];
    let mut missing = Vec::new();
    for (i, name) in HEADER.iter().enumerate() {
        match header.iter().position(|h| h == name) {
            Some(p) => idx[i] = p,
            None => missing.push((*name).to_string()),
        }
    }
    if !missing.is_empty() {
        return Err(LoadError::MissingColumns {
            path: path.to_path_buf(),
            missing,
        });
    }
    let cols = Columns { idx };
    let mut records = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| csv_err(path, e))?;
        let line = row.position().map_or(0, |p| p.line());
        records.push(parse_row(&cols, &row, RowCtx { path, line })?);
    }
    Ok((header, records))
}

fn parse_row(c: &Columns, row: &csv::StringRecord, ctx: RowCtx<'_>) -> Result<Record, LoadError> {
    let g = |name| c.get(row, name);
    let status_text = g("status");
    let status = status_text.parse().map_err(|()| {
        ctx.err(
            "status",
            status_text,
            "expected solved, timeout, node-limit, memory-limit or error",
        )
    })?;
    let optimal = match g("optimal") {
        "" => None,
        "true" => Some(true),
        "false" => Some(false),
        other => return Err(ctx.err("optimal", other, "expected true, false or an empty cell")),
    };
    let wall_ms: Option<f64> = ctx.optional("wall_ms", g("wall_ms"), "a time in milliseconds")?;
    if let Some(w) = wall_ms
        && !(w.is_finite() && w >= 0.0)
    {
        return Err(ctx.err(
            "wall_ms",
            g("wall_ms"),
            "expected a non-negative time in milliseconds",
        ));
    }
    let rec = Record {
        instance_file: g("instance_file").to_string(),
        instance_id: g("instance_id").to_string(),
        rows: ctx.required("rows", g("rows"), "a row count")?,
        cols: ctx.required("cols", g("cols"), "a column count")?,
        goal: g("goal").to_string(),
        scramble_moves: ctx.optional("scramble_moves", g("scramble_moves"), "a move count")?,
        algorithm: g("algorithm").to_string(),
        heuristic: g("heuristic").to_string(),
        repetition: ctx.required("repetition", g("repetition"), "a repetition number")?,
        status,
        moves: ctx.optional("moves", g("moves"), "a solution length")?,
        optimal,
        nodes_expanded: ctx.optional("nodes_expanded", g("nodes_expanded"), "a node count")?,
        nodes_generated: ctx.optional("nodes_generated", g("nodes_generated"), "a node count")?,
        peak_heap_bytes: ctx.optional("peak_heap_bytes", g("peak_heap_bytes"), "a byte count")?,
        wall_ms,
        file: ctx.path.to_path_buf(),
        line: ctx.line,
    };
    if rec.algorithm.is_empty() {
        return Err(ctx.err("algorithm", "", "expected an algorithm name"));
    }
    if rec.status == RunStatus::Solved && rec.moves.is_none() {
        return Err(ctx.err("moves", "", "expected the solution length of a solved row"));
    }
    Ok(rec)
}

/// Reads several results CSVs (shards, or runs on different machines) whose headers must be
/// identical; returns all their rows in file order.
pub fn load_files(paths: &[PathBuf]) -> Result<Vec<Record>, LoadError> {
    let Some(first) = paths.first() else {
        return Err(LoadError::NoFiles);
    };
    let (first_header, mut all) = load_file(first)?;
    for path in &paths[1..] {
        let (header, records) = load_file(path)?;
        if header != first_header {
            return Err(LoadError::HeaderMismatch {
                path: path.clone(),
                first: first.clone(),
                detail: describe_difference(&first_header, &header),
            });
        }
        all.extend(records);
    }
    Ok(all)
}

fn describe_difference(a: &[String], b: &[String]) -> String {
    let extra: Vec<&str> = b
        .iter()
        .filter(|h| !a.contains(h))
        .map(String::as_str)
        .collect();
    let missing: Vec<&str> = a
        .iter()
        .filter(|h| !b.contains(h))
        .map(String::as_str)
        .collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("lacks {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        parts.push(format!("has extra {}", extra.join(", ")));
    }
    if parts.is_empty() {
        parts.push("same columns in a different order".to_string());
    }
    parts.join("; ")
}
