//! Writing the project's instance format.

use std::io::{self, Write};

use crate::board::{Board, Goal};

/// The first line of every file in the project's format (the `1` is the format version).
pub const FORMAT_LINE: &str = "# npuzzle-instances 1";

/// How the boards of a file were made (recorded in its header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generator {
    /// `bench gen --moves M`: random walks of exactly `moves` blank moves from the goal.
    RandomWalk {
        /// The walk length.
        moves: u32,
    },
    /// `bench gen` without `--moves`: uniformly random solvable boards.
    Uniform,
    /// `bench census --antipodes`: every position at the largest optimal distance.
    Census {
        /// That distance (the board's diameter).
        diameter: u32,
    },
    /// Converted from another file.
    Converted {
        /// The file converted (as given, for the record).
        from: String,
        /// A citation of where the boards come from.
        source: Option<String>,
    },
}

/// Everything the header of a file in the project's format records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// The goal layout.
    pub goal: Goal,
    /// How the boards were made.
    pub generator: Generator,
    /// The seed, for generated sets.
    pub seed: Option<u64>,
    /// The number of instances that follow.
    pub count: usize,
    /// Whether the table has an `optimal` column (published optimal solution lengths).
    pub optimal_column: bool,
    /// The canonical command that regenerates the file, if any.
    pub reproduce: Option<String>,
}

impl FileHeader {
    /// The names of the table's columns, in order.
    pub fn columns(&self) -> Vec<&'static str> {
        let mut c = vec!["id"];
        if matches!(self.generator, Generator::RandomWalk { .. }) {
            c.push("scramble_moves");
        }
        if self.optimal_column {
            c.push("optimal");
        }
        c.push("tiles");
        c
    }

    /// Writes the header block and the column header line.
    pub fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        writeln!(w, "{FORMAT_LINE}")?;
        writeln!(w, "# rows: {}", self.rows)?;
        writeln!(w, "# cols: {}", self.cols)?;
        writeln!(w, "# goal: {}", self.goal)?;
        match &self.generator {
            Generator::RandomWalk { moves } => {
                writeln!(w, "# generator: random-walk")?;
                writeln!(w, "# moves: {moves}")?;
                writeln!(
                    w,
                    "# note: each board is exactly {moves} random blank moves from the goal, never undoing the previous move; its true distance may be shorter (by an even number)"
                )?;
            }
            Generator::Uniform => {
                writeln!(w, "# generator: uniform")?;
                writeln!(
                    w,
                    "# note: each board is uniformly random over all solvable positions (Fisher-Yates shuffle, then two tiles swapped if unsolvable)"
                )?;
            }
            Generator::Census { diameter } => {
                writeln!(w, "# generator: census")?;
                writeln!(
                    w,
                    "# note: every position at optimal distance {diameter} (the diameter), found by a complete breadth-first search from the goal"
                )?;
            }
            Generator::Converted { from, source } => {
                writeln!(w, "# generator: converted")?;
                writeln!(w, "# converted-from: {from}")?;
                if let Some(s) = source {
                    writeln!(w, "# source: {s}")?;
                }
            }
        }
        if let Some(seed) = self.seed {
            writeln!(w, "# seed: {seed}")?;
            writeln!(
                w,
                "# rng: ChaCha8 (rand_chacha), key = seed as 8 little-endian bytes + 24 zero bytes, stream = instance id; see README"
            )?;
        }
        writeln!(w, "# count: {}", self.count)?;
        if let Some(r) = &self.reproduce {
            writeln!(w, "# reproduce: {r}")?;
        }
        writeln!(w, "{}", self.columns().join("\t"))
    }
}

/// Writes a file in the project's format: the header on creation, then one line per instance.
///
/// Lines are assembled in one reused buffer (no allocation per tile), so a 1000 x 1000 board
/// costs a few milliseconds.
#[derive(Debug)]
pub struct InstanceWriter<W: Write> {
    out: W,
    header: FileHeader,
    line: Vec<u8>,
    written: usize,
}

impl<W: Write> InstanceWriter<W> {
    /// Writes `header` to `out` and returns the writer for the instance lines.
    pub fn new(mut out: W, header: FileHeader) -> io::Result<Self> {
        header.write_to(&mut out)?;
        Ok(InstanceWriter {
            out,
            header,
            line: Vec::new(),
            written: 0,
        })
    }

    /// Writes one instance line. `scramble_moves` fills the `scramble_moves` column (random-walk
    /// files) and `optimal` the `optimal` column (if the header has one); `None` is an empty cell.
    pub fn write(
        &mut self,
        id: &str,
        scramble_moves: Option<u32>,
        optimal: Option<u32>,
        board: &Board,
    ) -> io::Result<()> {
        if (board.rows(), board.cols()) != (self.header.rows, self.header.cols) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "instance {id} is {} x {}, but the file holds {} x {} boards",
                    board.rows(),
                    board.cols(),
                    self.header.rows,
                    self.header.cols
                ),
            ));
        }
        if id.is_empty() || id.contains(['\t', '\n', '\r']) || id.starts_with('#') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("instance id {id:?} is empty or contains a tab, newline or leading #"),
            ));
        }
        let line = &mut self.line;
        line.clear();
        line.extend_from_slice(id.as_bytes());
        if matches!(self.header.generator, Generator::RandomWalk { .. }) {
            line.push(b'\t');
            if let Some(m) = scramble_moves {
                push_u32(line, m);
            }
        }
        if self.header.optimal_column {
            line.push(b'\t');
            if let Some(o) = optimal {
                push_u32(line, o);
            }
        }
        line.push(b'\t');
        for (k, &t) in board.tiles().iter().enumerate() {
            if k > 0 {
                line.push(b' ');
            }
            push_u32(line, t);
        }
        line.push(b'\n');
        self.out.write_all(line)?;
        self.written += 1;
        Ok(())
    }

    /// Instance lines written so far.
    pub fn written(&self) -> usize {
        self.written
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Appends the decimal digits of `v`.
#[inline]
fn push_u32(buf: &mut Vec<u8>, mut v: u32) {
    let mut tmp = [0u8; 10];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}
