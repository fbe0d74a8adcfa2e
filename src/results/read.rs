//! Reading a results file back, the one reader of `bench run --resume`, `bench merge` and
//! `bench report`. It checks the header (this schema version, or version 2 or 1 whose missing
//! columns read as empty cells), every cell's type, and that no job key appears twice, naming
//! `file:line` and the column of the first problem. The one thing it sets aside instead of
//! rejecting is a torn last line (no final newline: what a killed writer leaves); each caller
//! decides what to do with it ([`ResultsFile::torn`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use super::row::{JobKey, MeasuredBy, Outcome, Row};
use super::{HEADER, HEADER_V1, HEADER_V2, SCHEMA_VERSION};
use crate::board::{Goal, MIN_SIDE};

/// A last line without its newline, left out of [`ResultsFile::rows`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TornLine {
    /// Its 1-based line number.
    pub line: u64,
    /// Its length in bytes.
    pub bytes: usize,
}

/// A results file read back.
#[derive(Debug, Clone, Default)]
pub struct ResultsFile {
    /// The file.
    pub path: PathBuf,
    /// The schema version of its header; `None` when it holds no complete header line (an
    /// empty file, blank lines, or a torn header).
    pub version: Option<u32>,
    /// The rows with the line each is on.
    pub rows: Vec<(u64, Row)>,
    /// The torn last line, if any.
    pub torn: Option<TornLine>,
}

impl ResultsFile {
    /// Fails unless the file has a header: for readers that need a results file, not an
    /// empty one.
    pub fn require_header(&self) -> Result<(), ReadError> {
        match self.version {
            Some(_) => Ok(()),
            None => Err(ReadError::Empty {
                path: self.path.clone(),
            }),
        }
    }

    /// Fails if the file ends in a torn line: for readers that must not lose a row silently.
    pub fn reject_torn(&self) -> Result<(), ReadError> {
        match self.torn {
            None => Ok(()),
            Some(t) => Err(ReadError::Torn {
                path: self.path.clone(),
                line: t.line,
                bytes: t.bytes,
            }),
        }
    }
}

/// What is wrong with a results file.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file cannot be opened or read.
    #[error("{}: cannot read", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// No header line.
    #[error("{}: empty file, expected the results header ({})", path.display(), HEADER.join(","))]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The header is neither this schema's nor an older version's.
    #[error(
        "{}:1: not a results CSV header: {detail} (the results schema, version {SCHEMA_VERSION}, is \"{}\")",
        path.display(), HEADER.join(",")
    )]
    Header {
        /// The file.
        path: PathBuf,
        /// What differs from the schema.
        detail: String,
    },
    /// The CSV itself is malformed (unbalanced quotes, wrong number of fields, bad UTF-8).
    #[error("{}:{line}: malformed CSV: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A cell does not hold what its column needs.
    #[error("{}:{line}: column {column}: {message}, found {value:?}", path.display())]
    Cell {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The column.
        column: &'static str,
        /// The cell's text.
        value: String,
        /// What was expected.
        message: String,
    },
    /// A job key appears twice (in one file, or in two files read together).
    #[error(
        "{}:{line}: a second row for job {key}; the first is {}:{first_line}",
        path.display(), first_path.display()
    )]
    Duplicate {
        /// The file of the second row.
        path: PathBuf,
        /// Its line.
        line: u64,
        /// The job (boxed: errors stay small).
        key: Box<JobKey>,
        /// The file of the first row.
        first_path: PathBuf,
        /// Its line.
        first_line: u64,
    },
    /// The last line is torn and the reader needs complete files.
    #[error(
        "{}:{line}: incomplete last line ({bytes} bytes without a final newline, as a killed \
         run leaves it); finish the run with `bench run ... --resume`, which cuts it off",
        path.display()
    )]
    Torn {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// Its length.
        bytes: usize,
    },
}

/// Reads a results file (see [`parse`]).
pub fn read(path: &Path) -> Result<ResultsFile, ReadError> {
    let text = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &text)
}

/// Checks that no job key appears in two of `files` (each file is already checked on its
/// own), naming both places.
pub fn check_unique<'a>(files: impl IntoIterator<Item = &'a ResultsFile>) -> Result<(), ReadError> {
    let mut first: HashMap<JobKey, (&Path, u64)> = HashMap::new();
    for f in files {
        for (line, row) in &f.rows {
            if let Some((first_path, first_line)) = first.insert(row.key(), (&f.path, *line)) {
                return Err(ReadError::Duplicate {
                    path: f.path.clone(),
                    line: *line,
                    key: Box::new(row.key()),
                    first_path: first_path.to_path_buf(),
                    first_line,
                });
            }
        }
    }
    Ok(())
}

/// Parses the bytes of the results file `path`: its header, its rows, and a torn last line set
/// aside. Every other problem is an error.
pub fn parse(path: &Path, text: &[u8]) -> Result<ResultsFile, ReadError> {
    let end = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let complete = &text[..end];
    let mut out = ResultsFile {
        path: path.to_path_buf(),
        torn: (end < text.len()).then(|| TornLine {
            line: complete.iter().filter(|&&b| b == b'\n').count() as u64 + 1,
            bytes: text.len() - end,
        }),
        ..ResultsFile::default()
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(complete);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| csv_error(path, e))?
        .iter()
        .map(str::to_string)
        .collect();
    if header.iter().all(String::is_empty) {
        // Nothing but blank lines (or nothing at all) before the torn line, if any.
        return Ok(out);
    }
    let version = if header == HEADER {
        SCHEMA_VERSION
    } else if header == HEADER_V2 {
        2
    } else if header == HEADER_V1 {
        1
    } else {
        return Err(ReadError::Header {
            path: path.to_path_buf(),
            detail: describe_header(&header),
        });
    };
    out.version = Some(version);
    let columns = Columns::of(&header);
    let mut first_line: HashMap<JobKey, u64> = HashMap::new();
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(path, e))?;
        let line = record.position().map_or(0, |p| p.line());
        let cells = Cells {
            path,
            line,
            record: &record,
            columns: &columns,
        };
        let row = cells.row()?;
        if let Some(first) = first_line.insert(row.key(), line) {
            return Err(ReadError::Duplicate {
                path: path.to_path_buf(),
                line,
                key: Box::new(row.key()),
                first_path: path.to_path_buf(),
                first_line: first,
            });
        }
        out.rows.push((line, row));
    }
    Ok(out)
}

fn csv_error(path: &Path, e: csv::Error) -> ReadError {
    let line = e.position().map_or(0, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            len, expected_len, ..
        } => format!("{len} fields, the header has {expected_len}"),
        _ => e.to_string(),
    };
    ReadError::Csv {
        path: path.to_path_buf(),
        line,
        message,
    }
}

/// How `found` differs from the schema it is closest to: the newest version of which it has
/// a column no older version has (version 1's if none).
fn describe_header(found: &[String]) -> String {
    let has_any_of = |newer: &[&str], older: &[&str]| {
        newer
            .iter()
            .any(|h| !older.contains(h) && found.iter().any(|f| f == h))
    };
    let schema: &[&str] = if has_any_of(&HEADER, &HEADER_V2) {
        &HEADER
    } else if has_any_of(&HEADER_V2, &HEADER_V1) {
        &HEADER_V2
    } else {
        &HEADER_V1
    };
    let missing: Vec<&str> = schema
        .iter()
        .copied()
        .filter(|h| !found.iter().any(|f| f == h))
        .collect();
    let extra: Vec<&str> = found
        .iter()
        .map(String::as_str)
        .filter(|f| !schema.contains(f))
        .collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing column(s) {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        parts.push(format!("unknown column(s) {}", extra.join(", ")));
    }
    if parts.is_empty() {
        parts.push("the columns are in another order (or repeated)".to_string());
    }
    parts.join("; ")
}

/// Where each schema column is in the file (`None`: a column this file's version lacks).
struct Columns([Option<usize>; HEADER.len()]);

impl Columns {
    fn of(header: &[String]) -> Columns {
        Columns(std::array::from_fn(|i| {
            header.iter().position(|h| h == HEADER[i])
        }))
    }
}

/// The cells of one record, with what error messages need.
struct Cells<'a> {
    path: &'a Path,
    line: u64,
    record: &'a csv::StringRecord,
    columns: &'a Columns,
}

impl Cells<'_> {
    fn get(&self, column: &'static str) -> &str {
        let i = HEADER
            .iter()
            .position(|h| *h == column)
            .expect("a schema column");
        self.columns.0[i].map_or("", |p| self.record.get(p).unwrap_or(""))
    }

    fn err(&self, column: &'static str, message: String) -> ReadError {
        ReadError::Cell {
            path: self.path.to_path_buf(),
            line: self.line,
            column,
            value: self.get(column).to_string(),
            message,
        }
    }

    fn text(&self, column: &'static str, what: &str) -> Result<String, ReadError> {
        match self.get(column) {
            "" => Err(self.err(column, format!("expected {what}, the cell is empty"))),
            v => Ok(v.to_string()),
        }
    }

    fn optional_text(&self, column: &'static str) -> Option<String> {
        Some(self.get(column))
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    }

    fn required<T: FromStr>(&self, column: &'static str, what: &str) -> Result<T, ReadError> {
        match self.get(column) {
            "" => Err(self.err(column, format!("expected {what}, the cell is empty"))),
            v => v
                .parse()
                .map_err(|_| self.err(column, format!("expected {what}"))),
        }
    }

    fn optional<T: FromStr>(
        &self,
        column: &'static str,
        what: &str,
    ) -> Result<Option<T>, ReadError> {
        match self.get(column) {
            "" => Ok(None),
            v => v
                .parse()
                .map(Some)
                .map_err(|_| self.err(column, format!("expected {what} or an empty cell"))),
        }
    }

    fn boolean(&self, column: &'static str) -> Result<Option<bool>, ReadError> {
        match self.get(column) {
            "" => Ok(None),
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            _ => Err(self.err(column, "expected true, false or an empty cell".into())),
        }
    }

    fn millis(&self, column: &'static str) -> Result<Option<f64>, ReadError> {
        let what = "a non-negative time in milliseconds";
        let v: Option<f64> = self.optional(column, what)?;
        match v {
            Some(ms) if !(ms.is_finite() && ms >= 0.0) => {
                Err(self.err(column, format!("expected {what}")))
            }
            v => Ok(v),
        }
    }

    fn row(&self) -> Result<Row, ReadError> {
        let goal: Goal = self
            .text("goal", "blank-last or blank-first")?
            .parse()
            .map_err(|_| self.err("goal", "expected blank-last or blank-first".into()))?;
        let status = self
            .get("status")
            .parse::<Outcome>()
            .map_err(|_| self.err("status", format!("expected {}", Outcome::expected())))?;
        let optimal = self.boolean("optimal")?;
        let Some(wall_ms) = self.millis("wall_ms")? else {
            return Err(self.err("wall_ms", "expected a time in milliseconds".into()));
        };
        let row = Row {
            run_id: self.get("run_id").to_string(),
            instance_file: self.text("instance_file", "the instance file")?,
            instance_id: self.text("instance_id", "the instance id")?,
            rows: self.required("rows", "a row count")?,
            cols: self.required("cols", "a column count")?,
            goal,
            scramble_moves: self.optional("scramble_moves", "a move count")?,
            algorithm: self.text("algorithm", "an algorithm name")?,
            heuristic: self.text("heuristic", "a heuristic name")?,
            repetition: self.required("repetition", "a repetition number")?,
            status,
            moves: self.optional("moves", "a solution length")?,
            lower_bound: self.optional("lower_bound", "a move count")?,
            optimal,
            known_optimal: self.optional("known_optimal", "a move count")?,
            suboptimal: self.boolean("suboptimal")?,
            nodes_expanded: self.optional("nodes_expanded", "a node count")?,
            nodes_generated: self.optional("nodes_generated", "a node count")?,
            iterations: self.optional("iterations", "an iteration count")?,
            peak_stored_nodes: self.optional("peak_stored_nodes", "a node count")?,
            peak_heap_bytes: self.optional("peak_heap_bytes", "a byte count")?,
            peak_rss_bytes: self.optional("peak_rss_bytes", "a byte count")?,
            wall_ms,
            search_ms: self.millis("search_ms")?,
            cpu_ms: self.millis("cpu_ms")?,
            user_ms: self.millis("user_ms")?,
            sys_ms: self.millis("sys_ms")?,
            setup_ms: self.millis("setup_ms")?,
            initial_h: self.optional("initial_h", "a heuristic value")?,
            measured_by: self.optional::<MeasuredBy>("measured_by", "in-process, process")?,
            message: self.optional_text("message"),
            solution: self.optional_text("solution"),
        };
        if row.status == Outcome::Solved && row.moves.is_none() {
            return Err(self.err(
                "moves",
                "expected the solution length of a solved row".into(),
            ));
        }
        for (column, side) in [("rows", row.rows), ("cols", row.cols)] {
            if (side as usize) < MIN_SIDE {
                return Err(self.err(column, format!("expected at least {MIN_SIDE}")));
            }
        }
        // Compared before anything parses or replays the solution: a row claiming 10^9 moves
        // beside a short solution is refused here, in time independent of the claim.
        if let (Some(solution), Some(moves)) = (&row.solution, row.moves)
            && solution.len() as u64 != u64::from(moves)
        {
            return Err(self.err(
                "moves",
                format!(
                    "expected the length of the solution column, {} moves",
                    solution.len()
                ),
            ));
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,\
        heuristic,repetition,status,moves,optimal,nodes_expanded,nodes_generated,\
        peak_stored_nodes,peak_heap_bytes,wall_ms,cpu_ms,setup_ms,initial_h,message,solution";

    fn v2_header() -> String {
        // Typed from docs/results-schema.md.
        "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,heuristic,\
         repetition,status,moves,lower_bound,optimal,nodes_expanded,nodes_generated,iterations,\
         peak_stored_nodes,peak_heap_bytes,wall_ms,search_ms,cpu_ms,setup_ms,initial_h,message,\
         solution"
            .to_string()
    }

    /// A version-2 line for instance `id`.
    fn line(id: &str) -> String {
        format!(
            "r,f.txt,{id},4,4,blank-last,,idastar,manhattan,1,timeout,,41,true,100,300,3,40,2048,\
             12.5,12.0,12.4,0.1,37,,"
        )
    }

    fn parse_str(text: &str) -> Result<ResultsFile, ReadError> {
        parse(Path::new("t.csv"), text.as_bytes())
    }

    #[test]
    fn a_version_2_row_reads_with_its_typed_columns() {
        let f = parse_str(&format!("{}\n{}\n", v2_header(), line("7"))).unwrap();
        assert_eq!(f.version, Some(2));
        let (n, r) = &f.rows[0];
        assert_eq!(*n, 2);
        assert_eq!(r.status, Outcome::Timeout);
        assert_eq!(
            (r.moves, r.lower_bound, r.iterations),
            (None, Some(41), Some(3))
        );
        assert_eq!((r.wall_ms, r.search_ms), (12.5, Some(12.0)));
        assert_eq!((r.message.as_deref(), r.solution.as_deref()), (None, None));
    }

    #[test]
    fn a_version_1_file_reads_with_the_new_columns_empty() {
        let text = format!(
            "{V1}\nr1,fix.txt,1,3,3,blank-last,4,astar,manhattan,1,solved,4,true,4,10,8,2048,1.0,\
             0.9,0.01,4,,ULDR\nr1,fix.txt,2,3,3,blank-last,,idastar,manhattan,1,timeout,,true,\
             99,300,7,1024,100.0,100.0,0.01,5,every solution has at least 30 moves,\n"
        );
        let f = parse_str(&text).unwrap();
        assert_eq!(f.version, Some(1));
        assert_eq!(f.rows.len(), 2);
        let a = &f.rows[0].1;
        assert_eq!(
            (a.moves, a.scramble_moves, a.peak_heap_bytes),
            (Some(4), Some(4), Some(2048))
        );
        assert_eq!((a.wall_ms, a.cpu_ms), (1.0, Some(0.9)));
        assert_eq!(a.solution.as_deref(), Some("ULDR"));
        let b = &f.rows[1].1;
        assert_eq!(b.status, Outcome::Timeout);
        assert_eq!(
            (b.lower_bound, b.iterations, b.search_ms),
            (None, None, None)
        );
        assert!(b.message.as_deref().unwrap().contains("at least 30"));
    }

    #[test]
    fn a_version_3_row_reads_with_the_process_columns() {
        // Typed from docs/results-schema.md.
        let header = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,\
            heuristic,repetition,status,moves,lower_bound,optimal,known_optimal,suboptimal,\
            nodes_expanded,nodes_generated,iterations,peak_stored_nodes,peak_heap_bytes,\
            peak_rss_bytes,wall_ms,search_ms,cpu_ms,user_ms,sys_ms,setup_ms,initial_h,\
            measured_by,message,solution";
        let text = format!(
            "{header}\nr,f.txt,1,3,3,blank-last,,mine,-,1,solved,24,,,22,true,10,20,,,,\
             3145728,5.5,,4.25,4.0,0.25,,,process,,\n\
             r,f.txt,2,3,3,blank-last,,mine,-,1,wrong-answer,,,,,,,,,,,1024,1.5,,1.0,0.5,0.5,,,\
             process,step 3 of the move string answer is not a legal move,\n"
        );
        let f = parse_str(&text).unwrap();
        assert_eq!(f.version, Some(3));
        let a = &f.rows[0].1;
        assert_eq!(a.status, Outcome::Solved);
        assert_eq!((a.heuristic.as_str(), a.optimal), ("-", None));
        assert_eq!((a.known_optimal, a.suboptimal), (Some(22), Some(true)));
        assert_eq!(a.peak_rss_bytes, Some(3 << 20));
        assert_eq!((a.user_ms, a.sys_ms), (Some(4.0), Some(0.25)));
        assert_eq!(a.measured_by, Some(MeasuredBy::Process));
        let b = &f.rows[1].1;
        assert_eq!(b.status, Outcome::WrongAnswer);
        assert!(b.message.as_deref().unwrap().contains("step 3"));
        // Older files have no measured_by: empty, not a guess.
        let old = parse_str(&format!("{}\n{}\n", v2_header(), line("1"))).unwrap();
        assert_eq!(old.rows[0].1.measured_by, None);
        // Bad cells of the new columns are named.
        for (from, to, want) in [
            (
                ",true,10,",
                ",maybe,10,",
                "column suboptimal: expected true, false",
            ),
            (
                ",process,,",
                ",kernel,,",
                "column measured_by: expected in-process, process",
            ),
            (
                ",4.0,",
                ",-4,",
                "column user_ms: expected a non-negative time",
            ),
        ] {
            let bad = text.replacen(from, to, 1);
            let e = parse_str(&bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("t.csv:2: {want}")), "{e}");
        }
    }

    #[test]
    fn only_the_last_line_may_be_torn() {
        let good = format!("{}\n{}\n", v2_header(), line("1"));
        let torn = &line("2")[..20];
        let f = parse_str(&format!("{good}{torn}")).unwrap();
        assert_eq!(f.rows.len(), 1);
        assert_eq!(f.torn, Some(TornLine { line: 3, bytes: 20 }));
        // The same piece followed by a complete line is a broken row, not a torn one.
        let e = parse_str(&format!("{good}{torn}\n{}\n", line("3")))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.csv:3:"), "{e}");
        // A torn header: no header, nothing read.
        let f = parse_str("run_id,inst").unwrap();
        assert_eq!((f.version, f.rows.len()), (None, 0));
        assert!(f.require_header().is_err());
        assert_eq!(f.torn.unwrap().line, 1);
        // Empty and blank files hold no header.
        assert_eq!(parse_str("").unwrap().version, None);
        assert_eq!(parse_str("\n\n").unwrap().version, None);
    }

    #[test]
    fn a_duplicate_key_names_both_lines_also_across_files() {
        let text = format!(
            "{}\n{}\n{}\n{}\n",
            v2_header(),
            line("1"),
            line("2"),
            line("1")
        );
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("t.csv:4: a second row for job f.txt #1 idastar/manhattan repetition 1"),
            "{e}"
        );
        assert!(e.ends_with("the first is t.csv:2"), "{e}");
        let a = parse_str(&format!("{}\n{}\n", v2_header(), line("1"))).unwrap();
        let b = parse(
            Path::new("u.csv"),
            format!("{}\n{}\n{}\n", v2_header(), line("2"), line("1")).as_bytes(),
        )
        .unwrap();
        let e = check_unique([&a, &b]).unwrap_err().to_string();
        assert!(e.starts_with("u.csv:3:") && e.ends_with("t.csv:2"), "{e}");
    }

    #[test]
    fn headers_and_cells_are_checked_naming_the_place() {
        let e = parse_str("a,b\n1,2\n").unwrap_err().to_string();
        assert!(
            e.starts_with("t.csv:1: not a results CSV header: missing column(s) run_id"),
            "{e}"
        );
        let no_heap = V1.replace(",peak_heap_bytes", "");
        let e = parse_str(&format!("{no_heap}\n")).unwrap_err().to_string();
        assert!(
            e.starts_with("t.csv:1: not a results CSV header: missing column(s) peak_heap_bytes ("),
            "{e}"
        );
        let swapped = v2_header().replace("wall_ms,search_ms", "search_ms,wall_ms");
        let e = parse_str(&format!("{swapped}\n")).unwrap_err().to_string();
        assert!(e.contains("another order"), "{e}");
        let cases = [
            (
                ",4,4,",
                ",four,4,",
                "column rows: expected a row count, found \"four\"",
            ),
            (
                ",timeout,",
                ",timed-out,",
                "column status: expected solved, timeout, cpu-limit, node-limit, memory-limit, depth-limit, wrong-answer, rejected, crashed or error",
            ),
            (
                ",41,",
                ",-1,",
                "column lower_bound: expected a move count or an empty cell",
            ),
            (
                ",12.5,",
                ",,",
                "column wall_ms: expected a time in milliseconds",
            ),
            (
                ",12.0,",
                ",-3,",
                "column search_ms: expected a non-negative time",
            ),
            (
                ",blank-last,",
                ",blank-middle,",
                "column goal: expected blank-last or blank-first",
            ),
            (
                ",true,",
                ",yes,",
                "column optimal: expected true, false or an empty cell",
            ),
            (
                ",idastar,",
                ",,",
                "column algorithm: expected an algorithm name, the cell is empty",
            ),
            (
                ",timeout,,",
                ",solved,,",
                "column moves: expected the solution length of a solved row",
            ),
            (
                ",37,,",
                ",37,",
                "malformed CSV: 25 fields, the header has 26",
            ),
            (
                ",4,4,",
                ",0,4,",
                "column rows: expected at least 2, found \"0\"",
            ),
            (
                ",4,4,",
                ",1,1,",
                "column rows: expected at least 2, found \"1\"",
            ),
            (
                ",4,4,",
                ",4,0,",
                "column cols: expected at least 2, found \"0\"",
            ),
        ];
        for (from, to, want) in cases {
            let bad = line("9").replacen(from, to, 1);
            let text = format!("{}\n{}\n{bad}\n", v2_header(), line("1"));
            let e = parse_str(&text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("t.csv:3: {want}")),
                "{from} -> {to}: {e}"
            );
        }
    }

    /// A solved version-2 line whose moves column says `moves` and whose solution is `solution`.
    fn solved(moves: u64, solution: &str) -> String {
        line("9")
            .replacen(",timeout,,", &format!(",solved,{moves},"), 1)
            .replacen(",37,,", &format!(",37,,{solution}"), 1)
    }

    #[test]
    fn a_solution_must_have_the_length_the_moves_column_says() {
        let text = |l: String| format!("{}\n{l}\n", v2_header());
        let f = parse_str(&text(solved(4, "LRUD"))).unwrap();
        assert_eq!(f.rows[0].1.solution.as_deref(), Some("LRUD"));
        // The claim of 10^9 moves is refused from the lengths alone: nothing of 10^9 is built.
        let e = parse_str(&text(solved(1_000_000_000, "LR")))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "t.csv:2: column moves: expected the length of the solution column, 2 moves, \
                 found \"1000000000\""
            ),
            "{e}"
        );
        let e = parse_str(&text(solved(3, "LRUD"))).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "t.csv:2: column moves: expected the length of the solution column, 4 moves"
            ),
            "{e}"
        );
    }
}
