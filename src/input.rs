//! Reading one board from text: a JSON matrix (`[[1,2,3],[4,5,6],[7,8,0]]`, the original task's
//! format) or plain text (rows of whitespace-separated numbers, one row per line).
//!
//! Every rejection is an [`InputError`] that says what is wrong and where ("row 3 has 3 entries,
//! expected 4", "\"x\" is not an integer (row 2, column 3)", ...). The parser is built for
//! hostile input: it reads at most [`MAX_INPUT_BYTES`], never recurses on the input's nesting
//! (JSON values inside a row are skipped by serde_json's iterative scanner), quotes at most
//! [`SHOWN_CHARS`] characters of an offending token, works in linear time and stores one `u32`
//! per cell.
//!
//! Validation order: the shape first, in reading order (rows of equal length, entries that are
//! integers), then the size (at least 2 x 2), then the values in row-major order (each in
//! `0..=R*C-1`, none twice). Solvability is not checked here (see
//! [`Board::check_solvable`]).

use std::fmt;
use std::io::Read;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;
use thiserror::Error;

use crate::board::{Board, BoardError, MAX_CELLS, MIN_SIDE};

/// The largest input accepted, in bytes (64 MiB: a 2000 x 2000 board as JSON is about 32 MB).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// How many characters of an offending token an error message quotes.
pub const SHOWN_CHARS: usize = 32;

/// A place in the matrix, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    /// The row (1-based).
    pub row: usize,
    /// The column (1-based).
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// What is wrong with an input that should hold one board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// Nothing but whitespace.
    #[error("empty input")]
    Empty,
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the input is larger than {max} bytes")]
    TooLong {
        /// The limit.
        max: u64,
    },
    /// The bytes are not UTF-8 text.
    #[error("the input is not UTF-8 text (invalid byte 0x{byte:02x} at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
        /// That byte.
        byte: u8,
    },
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Io(String),
    /// Malformed JSON (as reported by serde_json).
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's description.
        message: String,
    },
    /// Valid JSON, but not a list of rows.
    #[error("expected a JSON array of arrays (one array of integers per row), found {found}")]
    NotMatrix {
        /// What was found instead, e.g. "a number as row 1".
        found: String,
    },
    /// A JSON row entry that is an array or an object.
    #[error("expected an integer, found {found} ({pos})")]
    NestedValue {
        /// "an array" or "an object".
        found: &'static str,
        /// Where.
        pos: Pos,
    },
    /// A row whose length differs from the first row's.
    #[error("row {row} has {found} entries, expected {expected}")]
    RaggedRow {
        /// 1-based row.
        row: usize,
        /// Entries found.
        found: usize,
        /// Entries of row 1.
        expected: usize,
    },
    /// A blank line between rows of a plain-text board.
    #[error(
        "line {line} is blank but more rows follow: a board's rows must be on consecutive lines \
         (one board per input)"
    )]
    BlankLine {
        /// 1-based line of the input.
        line: usize,
    },
    /// An entry that is not an integer (a word, a string, a boolean, null).
    #[error("{token} is not an integer ({pos})")]
    NotInteger {
        /// The token as written (quoted, shortened).
        token: String,
        /// Where.
        pos: Pos,
    },
    /// A number written with a decimal point or an exponent.
    #[error(
        "{token} is not an integer ({pos}); tiles are written as plain digits, without a \
         decimal point or exponent"
    )]
    NotPlainInteger {
        /// The number as written (shortened).
        token: String,
        /// Where.
        pos: Pos,
    },
    /// Fewer than 2 rows or columns.
    #[error("the board must be at least {MIN_SIDE} x {MIN_SIDE}; this one is {rows} x {cols}")]
    TooSmall {
        /// Rows found.
        rows: usize,
        /// Columns found.
        cols: usize,
    },
    /// More cells than the board model holds.
    #[error("the board has more than {max} cells, more than the board model holds")]
    TooManyCells {
        /// The limit.
        max: usize,
    },
    /// A value outside `0..=max` (negative, too large, beyond any integer type).
    #[error("value {token} is out of range 0..={max} ({pos})")]
    OutOfRange {
        /// The value as written (shortened).
        token: String,
        /// `rows * cols - 1`.
        max: usize,
        /// Where.
        pos: Pos,
    },
    /// A value that appears more than once.
    #[error("{value} appears twice ({first} and {second})")]
    Duplicate {
        /// The value.
        value: u32,
        /// Its first place.
        first: Pos,
        /// Its second place.
        second: Pos,
    },
    /// The board model refused the board (not expected after the checks above).
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// Reads at most `max` bytes from `reader`; more is [`InputError::TooLong`].
pub fn read_limited(reader: impl Read, max: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(InputError::TooLong { max });
    }
    Ok(bytes)
}

/// The bytes as UTF-8 text, without a leading byte-order mark.
pub fn decode(bytes: &[u8]) -> Result<&str, InputError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        InputError::NotUtf8 {
            offset,
            byte: bytes[offset],
        }
    })
}

/// Parses one board: a JSON matrix if the first non-blank character is `[` or `{`, otherwise
/// rows of whitespace-separated numbers.
pub fn parse_board(text: &str) -> Result<Board, InputError> {
    let trimmed = text.trim_start();
    match trimmed.as_bytes().first() {
        None => Err(InputError::Empty),
        Some(b'[' | b'{') => parse_json(text),
        Some(_) => parse_plain(text),
    }
}

/// Parses a JSON matrix: an array of rows, each an array of integers.
///
/// The whole text is first checked to be one JSON value by serde_json's iterative scanner
/// (so nesting depth cannot exhaust the stack), then read row by row.
pub fn parse_json(text: &str) -> Result<Board, InputError> {
    if text.trim().is_empty() {
        return Err(InputError::Empty);
    }
    let top: &RawValue = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    let raw = top.get();
    if !raw.starts_with('[') {
        return Err(InputError::NotMatrix {
            found: json_kind(raw).to_string(),
        });
    }
    let mut builder = Builder::default();
    let mut de = serde_json::Deserializer::from_str(raw);
    if let Err(e) = de.deserialize_seq(MatrixVisitor(&mut builder)) {
        return Err(builder.error.take().unwrap_or_else(|| json_error(&e)));
    }
    builder.finish()
}

/// Parses rows of whitespace-separated numbers, one row per line. Blank lines before and after
/// the board are ignored.
pub fn parse_plain(text: &str) -> Result<Board, InputError> {
    let mut builder = Builder::default();
    let mut blank_line = None;
    for (i, line) in text.lines().enumerate() {
        let mut tokens = line.split_whitespace().peekable();
        if tokens.peek().is_none() {
            if builder.rows > 0 && blank_line.is_none() {
                blank_line = Some(i + 1);
            }
            continue;
        }
        if let Some(line) = blank_line {
            return Err(InputError::BlankLine { line });
        }
        for token in tokens {
            let pos = builder.next_pos();
            let t = match classify_number(token) {
                Some(n) => n,
                None => Token::NotInteger(format!("\"{}\"", show(token))),
            };
            builder.push(t, pos)?;
        }
        builder.end_row()?;
    }
    if builder.rows == 0 {
        return Err(InputError::Empty);
    }
    builder.finish()
}

/// One matrix entry, classified.
enum Token {
    /// A value that fits `u32`.
    Value(u32),
    /// An integer outside `0..=u32::MAX` (negative or huge), as written.
    Overflow(String),
    /// A number with a decimal point or an exponent, as written.
    NotPlain(String),
    /// Not a number at all, as it is to be shown.
    NotInteger(String),
}

/// Classifies `s` if it is written as a number (`-`/`+`, digits, optional fraction and
/// exponent); `None` otherwise.
fn classify_number(s: &str) -> Option<Token> {
    let b = s.as_bytes();
    let unsigned = match b.first() {
        Some(b'-' | b'+') => &b[1..],
        _ => b,
    };
    if unsigned.is_empty() || !unsigned[0].is_ascii_digit() {
        return None;
    }
    if unsigned.iter().all(u8::is_ascii_digit) {
        if b[0] != b'-'
            && let Ok(v) = std::str::from_utf8(unsigned).unwrap_or("").parse::<u32>()
        {
            return Some(Token::Value(v));
        }
        return Some(Token::Overflow(show(s)));
    }
    // Digits followed by something: a decimal or exponent form, or garbage like "12ab".
    let digits = unsigned.iter().take_while(|c| c.is_ascii_digit()).count();
    let float_like = matches!(unsigned[digits], b'.' | b'e' | b'E') && s.parse::<f64>().is_ok();
    float_like.then(|| Token::NotPlain(show(s)))
}

/// At most [`SHOWN_CHARS`] characters of `s`, control characters escaped, `…` if shortened.
fn show(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == SHOWN_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// serde_json's error without its " at line L column C" suffix, as an [`InputError::Json`].
fn json_error(e: &serde_json::Error) -> InputError {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
    InputError::Json {
        line: e.line(),
        column: e.column(),
        message,
    }
}

/// Collects entries row by row, checking the shape as it goes; [`Builder::finish`] checks the
/// size and the values.
#[derive(Default)]
struct Builder {
    /// Entries of the first row, once it is complete.
    cols: Option<usize>,
    /// Complete rows.
    rows: usize,
    /// Entries of the current row so far.
    row_len: usize,
    /// The values, row-major (only the first `cols` entries of an over-long row).
    values: Vec<u32>,
    /// The first entry that does not fit `u32`: its index in `values` and its text.
    overflow: Option<(usize, String)>,
    /// The error a JSON visitor hit (serde only carries strings).
    error: Option<InputError>,
}

impl Builder {
    /// The place of the next entry.
    fn next_pos(&self) -> Pos {
        Pos {
            row: self.rows + 1,
            col: self.row_len + 1,
        }
    }

    fn push(&mut self, token: Token, pos: Pos) -> Result<(), InputError> {
        let value = match token {
            Token::Value(v) => v,
            Token::Overflow(text) => {
                if self.overflow.is_none() {
                    self.overflow = Some((self.values.len(), text));
                }
                u32::MAX
            }
            Token::NotPlain(token) => return Err(InputError::NotPlainInteger { token, pos }),
            Token::NotInteger(token) => return Err(InputError::NotInteger { token, pos }),
        };
        self.row_len += 1;
        if self.cols.is_none_or(|c| self.row_len <= c) {
            if self.values.len() >= MAX_CELLS {
                return Err(InputError::TooManyCells { max: MAX_CELLS });
            }
            self.values.push(value);
        }
        Ok(())
    }

    fn end_row(&mut self) -> Result<(), InputError> {
        match self.cols {
            None => self.cols = Some(self.row_len),
            Some(expected) if expected != self.row_len => {
                return Err(InputError::RaggedRow {
                    row: self.rows + 1,
                    found: self.row_len,
                    expected,
                });
            }
            Some(_) => {}
        }
        self.rows += 1;
        self.row_len = 0;
        Ok(())
    }

    fn finish(self) -> Result<Board, InputError> {
        let (rows, cols) = (self.rows, self.cols.unwrap_or(0));
        if rows < MIN_SIDE || cols < MIN_SIDE {
            return Err(InputError::TooSmall { rows, cols });
        }
        let cells = self.values.len();
        debug_assert_eq!(cells, rows * cols);
        let pos = |i: usize| Pos {
            row: i / cols + 1,
            col: i % cols + 1,
        };
        // first[v] = 1 + the index where v was first seen (0 = not yet).
        let mut first = vec![0u32; cells];
        for (i, &v) in self.values.iter().enumerate() {
            let Some(slot) = first.get_mut(v as usize) else {
                let token = match &self.overflow {
                    Some((at, text)) if *at == i => text.clone(),
                    _ => v.to_string(),
                };
                return Err(InputError::OutOfRange {
                    token,
                    max: cells - 1,
                    pos: pos(i),
                });
            };
            if *slot != 0 {
                return Err(InputError::Duplicate {
                    value: v,
                    first: pos(*slot as usize - 1),
                    second: pos(i),
                });
            }
            // cells <= MAX_CELLS < u32::MAX, so the index fits.
            *slot = i as u32 + 1;
        }
        Ok(Board::new(rows, cols, self.values)?)
    }
}

/// What a JSON value is, for messages.
fn json_kind(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'{') => "an object",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// Stashes `error` in the builder and returns a placeholder for serde to carry back.
fn stash<E: de::Error>(builder: &mut Builder, error: InputError) -> E {
    let e = E::custom(&error);
    builder.error = Some(error);
    e
}

/// The top level, already known to be valid JSON starting with `[`: an array of rows.
struct MatrixVisitor<'b>(&'b mut Builder);

impl<'de> Visitor<'de> for MatrixVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array of arrays")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let builder = self.0;
        while let Some(row) = seq.next_element::<&'de RawValue>()? {
            let raw = row.get();
            if !raw.starts_with('[') {
                let found = format!("{} as row {}", json_kind(raw), builder.rows + 1);
                return Err(stash(builder, InputError::NotMatrix { found }));
            }
            let mut de = serde_json::Deserializer::from_str(raw);
            if let Err(e) = de.deserialize_seq(RowVisitor(&mut *builder)) {
                let error = builder.error.take().unwrap_or_else(|| json_error(&e));
                return Err(stash(builder, error));
            }
            builder.end_row().map_err(|e| stash(builder, e))?;
        }
        Ok(())
    }
}

/// One row: an array of integers.
struct RowVisitor<'b>(&'b mut Builder);

impl<'de> Visitor<'de> for RowVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of integers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let builder = self.0;
        while let Some(entry) = seq.next_element::<&'de RawValue>()? {
            let raw = entry.get();
            let pos = builder.next_pos();
            let token = match raw.as_bytes()[0] {
                b'[' | b'{' => {
                    let found = json_kind(raw);
                    return Err(stash(builder, InputError::NestedValue { found, pos }));
                }
                b'-' | b'0'..=b'9' => {
                    classify_number(raw).unwrap_or_else(|| Token::NotInteger(show(raw)))
                }
                _ => Token::NotInteger(show(raw)),
            };
            builder.push(token, pos).map_err(|e| stash(builder, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> InputError {
        parse_board(text).expect_err(text)
    }

    fn detail(text: &str) -> String {
        err(text).to_string()
    }

    #[test]
    fn json_example_board() {
        let b = parse_board("[[1,2,3,4],[5,6,7,8],[9,10,0,12],[13,14,11,15]]").unwrap();
        assert_eq!((b.rows(), b.cols()), (4, 4));
        assert_eq!(
            b.tiles(),
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 12, 13, 14, 11, 15]
        );
        assert_eq!(b.blank(), 10);
    }

    #[test]
    fn json_with_whitespace_and_bom() {
        let b = parse_board(" \n[ [1, 2] ,\n [3 , 0] ]\n").unwrap();
        assert_eq!(b.tiles(), &[1, 2, 3, 0]);
        let text = decode(b"\xEF\xBB\xBF[[1,2],[3,0]]").unwrap();
        assert_eq!(parse_board(text).unwrap().tiles(), &[1, 2, 3, 0]);
    }

    #[test]
    fn plain_text_board() {
        let b = parse_board("\n\n 1 2 3\n4\t5 6\r\n7 8 0\n\n").unwrap();
        assert_eq!((b.rows(), b.cols()), (3, 3));
        assert_eq!(b.tiles(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
    }

    #[test]
    fn rectangular_boards() {
        let b = parse_board("[[1,2,3],[4,5,0]]").unwrap();
        assert_eq!((b.rows(), b.cols()), (2, 3));
        let b = parse_board("1 2\n3 4\n5 0\n").unwrap();
        assert_eq!((b.rows(), b.cols()), (3, 2));
    }

    #[test]
    fn empty_inputs() {
        for t in ["", " ", "\n\n\t ", "\r\n"] {
            assert_eq!(err(t), InputError::Empty, "{t:?}");
        }
        assert_eq!(parse_json(""), Err(InputError::Empty));
        assert_eq!(parse_plain("\n\n"), Err(InputError::Empty));
    }

    #[test]
    fn ragged_rows() {
        assert_eq!(
            detail("[[1,2,3,4],[5,6,7,8],[9,10,0],[12,13,14,11,15]]"),
            "row 3 has 3 entries, expected 4"
        );
        assert_eq!(
            detail("1 2 3 4\n5 6 7 8\n9 10 0\n12 13 14 11 15"),
            "row 3 has 3 entries, expected 4"
        );
        assert_eq!(detail("[[1,2],[3,0,4]]"), "row 2 has 3 entries, expected 2");
        assert_eq!(detail("[[1,2],[]]"), "row 2 has 0 entries, expected 2");
    }

    #[test]
    fn blank_line_inside_plain_board() {
        assert_eq!(
            err("1 2\n\n3 0\n"),
            InputError::BlankLine { line: 2 },
            "two boards or a broken one"
        );
    }

    #[test]
    fn non_integers() {
        assert_eq!(
            detail("[[1,2],[\"x\",0]]"),
            "\"x\" is not an integer (row 2, column 1)"
        );
        assert_eq!(
            detail("1 2\nx 0"),
            "\"x\" is not an integer (row 2, column 1)"
        );
        assert_eq!(
            detail("[[1,true],[3,0]]"),
            "true is not an integer (row 1, column 2)"
        );
        assert_eq!(
            detail("[[1,2],[null,0]]"),
            "null is not an integer (row 2, column 1)"
        );
        assert_eq!(
            detail("1 2\n3 0x"),
            "\"0x\" is not an integer (row 2, column 2)"
        );
        for (t, tok) in [
            ("[[1,1.5],[3,0]]", "1.5"),
            ("[[1,2.0],[3,0]]", "2.0"),
            ("[[1,1e400],[3,0]]", "1e400"),
            ("[[1,-2E3],[3,0]]", "-2E3"),
            ("1 1.5\n3 0", "1.5"),
        ] {
            let d = detail(t);
            assert!(
                d.starts_with(&format!("{tok} is not an integer (row 1, column 2)")),
                "{t}: {d}"
            );
        }
    }

    #[test]
    fn nested_values_in_a_row() {
        assert_eq!(
            err("[[1,[2]],[3,0]]"),
            InputError::NestedValue {
                found: "an array",
                pos: Pos { row: 1, col: 2 }
            }
        );
        assert_eq!(
            detail("[[1,2],[3,{\"a\":0}]]"),
            "expected an integer, found an object (row 2, column 2)"
        );
    }

    #[test]
    fn not_a_matrix() {
        let cases = [
            ("{\"board\": [[1,2],[3,0]]}", "found an object"),
            ("[1,2,3,0]", "found a number as row 1"),
            ("[[1,2],\"3 0\"]", "found a string as row 2"),
            ("[[1,2],null]", "found null as row 2"),
        ];
        for (t, want) in cases {
            let d = detail(t);
            assert!(
                d.starts_with("expected a JSON array of arrays") && d.ends_with(want),
                "{t}: {d}"
            );
        }
    }

    #[test]
    fn malformed_json() {
        for t in [
            "[[1,2],[3,0]",
            "[[1,2],[3,0]]]",
            "[[1,2],[3,0]] x",
            "[[1,2,],[3,0]]",
            "[[01,2],[3,0]]",
        ] {
            assert!(
                matches!(err(t), InputError::Json { line: 1, .. }),
                "{t}: {}",
                detail(t)
            );
        }
        assert_eq!(
            detail("[[1,2],\n[3,0]"),
            "invalid JSON at line 2, column 5: EOF while parsing a list"
        );
    }

    #[test]
    fn too_small() {
        assert_eq!(
            detail("[[1,0]]"),
            "the board must be at least 2 x 2; this one is 1 x 2"
        );
        assert_eq!(
            detail("[[0],[1]]"),
            "the board must be at least 2 x 2; this one is 2 x 1"
        );
        assert_eq!(
            detail("[]"),
            "the board must be at least 2 x 2; this one is 0 x 0"
        );
        assert_eq!(
            detail("[[],[]]"),
            "the board must be at least 2 x 2; this one is 2 x 0"
        );
        assert_eq!(
            detail("0"),
            "the board must be at least 2 x 2; this one is 1 x 1"
        );
    }

    #[test]
    fn out_of_range() {
        assert_eq!(
            detail("[[1,2,3,4],[5,6,7,8],[9,10,0,12],[13,14,11,99]]"),
            "value 99 is out of range 0..=15 (row 4, column 4)"
        );
        assert_eq!(
            detail("[[1,-2],[3,0]]"),
            "value -2 is out of range 0..=3 (row 1, column 2)"
        );
        assert_eq!(
            detail("1 2\n99999999999999999999999 0"),
            "value 99999999999999999999999 is out of range 0..=3 (row 2, column 1)"
        );
        assert_eq!(
            detail("[[1,2],[4294967295,0]]"),
            "value 4294967295 is out of range 0..=3 (row 2, column 1)"
        );
        // The first offending value in reading order is named.
        assert_eq!(
            detail("[[1,7],[-1,0]]"),
            "value 7 is out of range 0..=3 (row 1, column 2)"
        );
        let long = "9".repeat(1000);
        let d = detail(&format!("[[1,2],[{long},0]]"));
        assert!(d.len() < 100 && d.contains("…"), "{d}");
    }

    #[test]
    fn duplicates() {
        let mut rows: Vec<String> = (0..5)
            .map(|r| {
                (0..4)
                    .map(|c| (r * 4 + c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows[4] = "16 17 18 16".into();
        assert_eq!(
            detail(&rows.join("\n")),
            "16 appears twice (row 5, column 1 and row 5, column 4)"
        );
        assert_eq!(
            detail("[[1,1],[3,0]]"),
            "1 appears twice (row 1, column 1 and row 1, column 2)"
        );
    }

    #[test]
    fn hostile_inputs_are_errors() {
        // Deep nesting, balanced or not, never recurses.
        let deep = "[".repeat(100_000);
        assert!(matches!(err(&deep), InputError::Json { .. }));
        let balanced = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            detail(&balanced),
            "expected an integer, found an array (row 1, column 1)"
        );
        // Control characters are escaped and long tokens shortened.
        let d = detail("1 2\n\u{0}\u{1}\u{7f}abc 0");
        assert!(
            d.starts_with("\"\\0\\u{1}\\u{7f}abc\" is not an integer"),
            "{d}"
        );
        let d = detail(&format!("1 {}\n3 0", "x".repeat(100_000)));
        assert!(d.len() < 100, "{d}");
        // A long string inside JSON is shortened too.
        let d = detail(&format!("[[1,\"{}\"],[3,0]]", "y".repeat(100_000)));
        assert!(d.len() < 100, "{d}");
    }

    #[test]
    fn input_size_and_encoding() {
        assert_eq!(
            read_limited(&b"12345"[..], 4),
            Err(InputError::TooLong { max: 4 })
        );
        assert_eq!(read_limited(&b"1234"[..], 4).unwrap(), b"1234");
        assert_eq!(
            decode(b"[[1,2],\xff"),
            Err(InputError::NotUtf8 {
                offset: 7,
                byte: 0xff
            })
        );
    }

    #[test]
    fn over_long_row_is_not_stored() {
        let row: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
        let text = format!("1 2\n{}\n", row.join(" "));
        assert_eq!(detail(&text), "row 2 has 10000 entries, expected 2");
    }
}
