//! Writing results: one [`RowWriter`] per output, which writes the header of this schema
//! version and flushes every row, so that a killed run keeps every row it finished.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

use super::read::ResultsFile;
use super::row::{JobKey, Row};
use super::{HEADER, SCHEMA_VERSION};

/// Writes rows to a CSV sink, refusing a second row for a job key it has seen.
pub struct RowWriter<W: Write = Box<dyn Write + Send>> {
    writer: csv::Writer<W>,
    keys: HashSet<JobKey>,
}

impl<W: Write> RowWriter<W> {
    /// Writes to a new `sink` (a file being written, a buffer), starting with the header.
    pub fn new(sink: W) -> io::Result<RowWriter<W>> {
        RowWriter::start(sink, HashSet::new(), true)
    }

    fn start(sink: W, keys: HashSet<JobKey>, header: bool) -> io::Result<RowWriter<W>> {
        let mut w = RowWriter {
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(sink),
            keys,
        };
        if header {
            w.writer.write_record(HEADER)?;
            w.writer.flush()?;
        }
        Ok(w)
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

impl RowWriter {
    /// Writes to stdout, starting with the header.
    pub fn stdout() -> io::Result<RowWriter> {
        RowWriter::start(
            Box::new(io::stdout()) as Box<dyn Write + Send>,
            HashSet::new(),
            true,
        )
    }

    /// Writes to `file`, an open results file whose content was read as `existing`: a torn
    /// last line is cut off first; a file without a complete header is started over (it can
    /// only hold blank lines or a torn header), else rows are appended after `existing`'s,
    /// which must be of this schema version (rows of two versions never share a file).
    pub fn append(mut file: File, existing: &ResultsFile) -> io::Result<RowWriter> {
        if let Some(v) = existing.version.filter(|&v| v != SCHEMA_VERSION) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "cannot append rows of schema version {SCHEMA_VERSION} to a file of version {v}"
                ),
            ));
        }
        let len = file.seek(SeekFrom::End(0))?;
        let keep = match (existing.version, existing.torn) {
            (None, _) => 0,
            (Some(_), Some(t)) => len - t.bytes as u64,
            (Some(_), None) => len,
        };
        if keep < len {
            file.set_len(keep)?;
        }
        file.seek(SeekFrom::End(0))?;
        let keys = existing.rows.iter().map(|(_, r)| r.key()).collect();
        RowWriter::start(
            Box::new(file) as Box<dyn Write + Send>,
            keys,
            existing.version.is_none(),
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::results::{MeasuredBy, Outcome, ReadError, header_line, parse, read};

    fn row(id: &str) -> Row {
        Row {
            run_id: "r".into(),
            instance_file: "f.txt".into(),
            instance_id: id.into(),
            rows: 3,
            cols: 3,
            goal: crate::board::Goal::BlankLast,
            scramble_moves: None,
            algorithm: "idastar".into(),
            heuristic: "manhattan".into(),
            repetition: 1,
            status: Outcome::Solved,
            moves: Some(4),
            lower_bound: None,
            optimal: Some(true),
            known_optimal: None,
            suboptimal: None,
            nodes_expanded: Some(5),
            nodes_generated: Some(11),
            iterations: Some(1),
            peak_stored_nodes: Some(9),
            peak_heap_bytes: None,
            peak_rss_bytes: None,
            wall_ms: 0.25,
            search_ms: Some(0.125),
            cpu_ms: Some(0.2),
            user_ms: None,
            sys_ms: None,
            setup_ms: Some(0.001),
            initial_h: Some(4),
            measured_by: Some(MeasuredBy::InProcess),
            message: None,
            solution: Some("UULL".into()),
        }
    }

    #[test]
    fn header_is_the_documented_schema() {
        // Typed from docs/results-schema.md, not from HEADER.
        assert_eq!(
            header_line(),
            "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,heuristic,\
             repetition,status,moves,lower_bound,optimal,known_optimal,suboptimal,nodes_expanded,\
             nodes_generated,iterations,peak_stored_nodes,peak_heap_bytes,peak_rss_bytes,wall_ms,\
             search_ms,cpu_ms,user_ms,sys_ms,setup_ms,initial_h,measured_by,message,solution"
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
            "r,f.txt,1,3,3,blank-last,,idastar,manhattan,1,solved,4,,true,,,5,11,1,9,,,0.25,0.125,\
             0.2,,,0.001,4,in-process,,UULL"
        );
        // A killed writer leaves part of a row behind: set aside, the rest read.
        std::fs::write(&path, format!("{text}r,f.txt,2,3,3,bla")).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back.version, Some(SCHEMA_VERSION));
        let torn = back.torn.unwrap();
        assert_eq!((torn.line, torn.bytes), (3, "r,f.txt,2,3,3,bla".len()));
        assert!(matches!(
            back.reject_torn(),
            Err(ReadError::Torn { line: 3, .. })
        ));
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
        let back = read(&path).unwrap();
        assert!(back.torn.is_none());
        let ids: Vec<_> = back
            .rows
            .iter()
            .map(|(_, r)| r.instance_id.as_str())
            .collect();
        assert_eq!(ids, ["1", "2"]);
    }

    #[test]
    fn rows_are_not_appended_to_a_version_1_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.csv");
        let v1 = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,algorithm,\
                  heuristic,repetition,status,moves,optimal,nodes_expanded,nodes_generated,\
                  peak_stored_nodes,peak_heap_bytes,wall_ms,cpu_ms,setup_ms,initial_h,message,\
                  solution\n";
        std::fs::write(&path, v1).unwrap();
        let existing = parse(&path, v1.as_bytes()).unwrap();
        assert_eq!(existing.version, Some(1));
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        assert!(RowWriter::append(file, &existing).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), v1);
    }
}
