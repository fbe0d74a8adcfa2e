//! The two tab-separated layouts: the project's own (with a `#` header block) and Korf's.

use std::collections::HashMap;
use std::path::Path;

use super::{
    Extras, Instance, InstanceError, InstanceSet, Layout, Problem, excerpt, make_board, parse_u32,
};
use crate::board::{BoardError, Goal};

/// How the first line of the project's format starts (the version follows).
pub(super) const MAGIC_PREFIX: &str = "# npuzzle-instances";

/// The header block of the project's format: `key -> (value, line)`.
struct Header {
    keys: HashMap<String, (String, usize)>,
    /// Line of the magic line.
    line: usize,
}

impl Header {
    fn get(&self, key: &str) -> Option<(&str, usize)> {
        self.keys.get(key).map(|(v, l)| (v.as_str(), *l))
    }
}

/// The columns of the table.
struct Columns {
    names: Vec<String>,
    scramble: Option<usize>,
    optimal: Option<usize>,
}

/// Strips the quotes a spreadsheet may put around a field, and surrounding spaces.
fn field(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(s)
        .trim()
}

/// Reads a file in either tab-separated layout: the lines before the table (header block or
/// comments), then the size and goal they declare, then one instance per data line, then the
/// checks over the whole file. Every error names the file and the line.
pub(super) fn parse(
    path: &Path,
    text: &str,
    layout: Layout,
    goal_override: Option<Goal>,
) -> Result<(InstanceSet, Extras), InstanceError> {
    let err = |line: usize, problem: Problem| InstanceError::invalid(path, line, problem);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_start_matches('\u{feff}')));
    let last_line = text.lines().count().max(1);

    let (header, columns_line, columns) = read_preamble(path, &mut lines, layout, last_line)?;
    let declared = match &header {
        Some(h) => Some(declared_shape(path, h, columns_line)?),
        None => None,
    };
    let goal = goal_override.unwrap_or(declared.as_ref().map_or(Goal::BlankFirst, |d| d.goal));
    let mut table = Table {
        path,
        columns: &columns,
        ids: HashMap::new(),
        size: declared.as_ref().map(|d| (d.rows, d.cols, d.line)),
        korf: header.is_none(),
        header_moves: header
            .as_ref()
            .and_then(|h| h.get("moves"))
            .and_then(|(v, _)| parse_u32(v)),
    };
    let mut instances = Vec::new();
    let mut extras = Extras::default();
    for (no, raw) in lines {
        if let Some((instance, optimal)) = table.instance(no, raw)? {
            instances.push(instance);
            extras.optimal.push(optimal);
        }
    }

    if instances.is_empty() {
        return Err(err(last_line, Problem::NoInstances));
    }
    if let Some((declared, header_line)) = declared.and_then(|d| d.count)
        && declared != instances.len()
    {
        return Err(err(
            last_line,
            Problem::CountMismatch {
                declared,
                found: instances.len(),
                header_line,
            },
        ));
    }
    let (rows, cols, _) = table.size.expect("set by the first instance");
    Ok((
        InstanceSet {
            path: path.to_path_buf(),
            shape: crate::board::Shape::new(rows, cols, goal),
            instances,
        },
        extras,
    ))
}

/// Reads the lines before the table: the header block (ours) or leading comments (Korf's
/// layout), up to and including the column header. Returns the header (ours only), the
/// column header's line and its columns.
fn read_preamble<'a>(
    path: &Path,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    layout: Layout,
    last_line: usize,
) -> Result<(Option<Header>, usize, Columns), InstanceError> {
    let err = |line: usize, problem: Problem| InstanceError::invalid(path, line, problem);
    let mut header: Option<Header> = None;
    loop {
        let Some((no, raw)) = lines.next() else {
            return Err(match layout {
                Layout::Npuzzle => err(
                    last_line,
                    Problem::BadColumns {
                        message: "the file ends before the column header \"id<TAB>...<TAB>tiles\""
                            .into(),
                    },
                ),
                // Only blank and comment lines: an empty instance file.
                _ => err(last_line, Problem::NoInstances),
            });
        };
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(rest) = l.strip_prefix(MAGIC_PREFIX)
            && layout == Layout::Npuzzle
            && header.is_none()
        {
            let version = rest.trim();
            if version != "1" {
                return Err(err(
                    no,
                    Problem::UnsupportedVersion {
                        found: version.to_string(),
                    },
                ));
            }
            header = Some(Header {
                keys: HashMap::new(),
                line: no,
            });
            continue;
        }
        if let Some(comment) = l.strip_prefix('#') {
            if let Some(h) = header.as_mut() {
                h.add(comment, no).map_err(|p| err(no, p))?;
            }
            continue;
        }
        let columns = parse_columns(raw).map_err(|message| match layout {
            Layout::KorfTsv if !raw.contains('\t') => {
                err(no, Problem::UnknownLayout { found: excerpt(l) })
            }
            _ => err(no, Problem::BadColumns { message }),
        })?;
        return Ok((header, no, columns));
    }
}

impl Header {
    /// Takes a `# key: value` line of the header block. Only single-word keys are entries;
    /// anything else is a comment. A key given twice is an error (except `note`, which may
    /// repeat).
    fn add(&mut self, comment: &str, no: usize) -> Result<(), Problem> {
        let Some((k, v)) = comment.split_once(':') else {
            return Ok(());
        };
        let key = k.trim().to_ascii_lowercase();
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Ok(());
        }
        if let Some((_, first)) = self.keys.get(&key)
            && key != "note"
        {
            return Err(Problem::DuplicateHeader {
                key,
                first_line: *first,
            });
        }
        self.keys.insert(key, (v.trim().to_string(), no));
        Ok(())
    }
}

/// What the project's header block declares about every instance.
struct Declared {
    rows: usize,
    cols: usize,
    goal: Goal,
    /// `count` and its line, if given (checked against the instances read).
    count: Option<(usize, usize)>,
    /// The magic line (where the size was declared).
    line: usize,
}

/// The size, goal and count of the header block: `rows`, `cols` and `goal` are required (a
/// missing one is reported on the column header's line, where the block ended), the size must
/// make a board.
fn declared_shape(path: &Path, h: &Header, columns_line: usize) -> Result<Declared, InstanceError> {
    let err = |line: usize, problem: Problem| InstanceError::invalid(path, line, problem);
    let whole = |key: &str, v: &str, l: usize| {
        v.parse::<usize>().map_err(|_| {
            err(
                l,
                Problem::BadHeader {
                    key: key.to_string(),
                    message: format!("expected a whole number, found \"{v}\""),
                },
            )
        })
    };
    let required = |key: &str| {
        h.get(key).ok_or_else(|| {
            err(
                columns_line,
                Problem::MissingHeader {
                    key: key.to_string(),
                },
            )
        })
    };
    let (v, l) = required("rows")?;
    let rows = whole("rows", v, l)?;
    let (v, l) = required("cols")?;
    let cols = whole("cols", v, l)?;
    let (g, gl) = required("goal")?;
    let goal: Goal = g.parse().map_err(|message| {
        err(
            gl,
            Problem::BadHeader {
                key: "goal".into(),
                message,
            },
        )
    })?;
    // The size must make a board at all; report it on the header line.
    if let Err(e) = super::check_size(rows, cols) {
        let l = h.get("rows").map_or(h.line, |(_, l)| l);
        return Err(err(l, Problem::Board(e)));
    }
    let count = match h.get("count") {
        Some((v, l)) => Some((whole("count", v, l)?, l)),
        None => None,
    };
    Ok(Declared {
        rows,
        cols,
        goal,
        count,
        line: h.line,
    })
}

/// The data lines, read one at a time: what the columns are, the ids seen so far and the size
/// every board must have (declared, or taken from the first board in Korf's layout).
struct Table<'a> {
    path: &'a Path,
    columns: &'a Columns,
    /// Each id and its line, to name both lines of a duplicate.
    ids: HashMap<String, usize>,
    /// Rows, columns and the line that set them.
    size: Option<(usize, usize, usize)>,
    /// No header block (Korf's layout): a square of another size is a mixed-size file.
    korf: bool,
    /// The header's `moves`, the scramble length of rows without a `scramble_moves` column.
    header_moves: Option<u32>,
}

impl Table<'_> {
    fn err(&self, line: usize, problem: Problem) -> InstanceError {
        InstanceError::invalid(self.path, line, problem)
    }

    /// The instance on line `no` and its `optimal` column; `None` for a blank or comment line.
    fn instance(
        &mut self,
        no: usize,
        raw: &str,
    ) -> Result<Option<(Instance, Option<u32>)>, InstanceError> {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            return Ok(None);
        }
        let ncols = self.columns.names.len();
        let fields: Vec<&str> = raw.trim_end_matches(['\r', '\n']).split('\t').collect();
        if fields.len() != ncols {
            return Err(self.err(
                no,
                Problem::WrongFieldCount {
                    expected: ncols,
                    columns: self.columns.names.join(", "),
                    found: fields.len(),
                },
            ));
        }
        let id = field(fields[0]);
        if id.is_empty() {
            return Err(self.err(no, Problem::EmptyId));
        }
        if let Some(&first_line) = self.ids.get(id) {
            return Err(self.err(
                no,
                Problem::DuplicateId {
                    id: id.to_string(),
                    first_line,
                },
            ));
        }
        self.ids.insert(id.to_string(), no);
        let scramble_moves = self
            .number(&fields, self.columns.scramble, no)?
            .or(self.header_moves);
        let optimal = self.number(&fields, self.columns.optimal, no)?;

        let tiles_text = field(fields[ncols - 1]);
        let mut values: Vec<u32> = match self.size {
            Some((r, c, _)) => Vec::with_capacity(r * c),
            None => Vec::new(),
        };
        for (k, t) in tiles_text.split_ascii_whitespace().enumerate() {
            values.push(parse_tile(t, k + 1).map_err(|p| self.err(no, p))?);
        }
        let (rows, cols) = self.board_size(values.len(), no)?;
        let board = make_board(rows, cols, values).map_err(|p| self.err(no, p))?;
        let instance = Instance {
            id: id.to_string(),
            line: no,
            board,
            scramble_moves,
        };
        Ok(Some((instance, optimal)))
    }

    /// An optional whole-number column (`None` if the file has no such column or the field is
    /// empty).
    fn number(
        &self,
        fields: &[&str],
        column: Option<usize>,
        no: usize,
    ) -> Result<Option<u32>, InstanceError> {
        let Some(i) = column else { return Ok(None) };
        let v = field(fields[i]);
        if v.is_empty() {
            return Ok(None);
        }
        parse_u32(v).map(Some).ok_or_else(|| {
            self.err(
                no,
                Problem::NotAnInteger {
                    what: format!("column {}", self.columns.names[i]),
                    found: excerpt(v),
                },
            )
        })
    }

    /// The size of a board of `tiles` tiles on line `no`: the file's size, or (the first board
    /// of Korf's layout) the square it makes, which then becomes the file's size.
    fn board_size(&mut self, tiles: usize, no: usize) -> Result<(usize, usize), InstanceError> {
        let Some((rows, cols, first_line)) = self.size else {
            let side = tiles.isqrt();
            if side * side != tiles || side < 2 {
                return Err(self.err(no, Problem::NotSquare { found: tiles }));
            }
            self.size = Some((side, side, no));
            return Ok((side, side));
        };
        if tiles == rows * cols {
            return Ok((rows, cols));
        }
        // Korf's layout: a different square size is a mixed-size file.
        let side = tiles.isqrt();
        if self.korf && side * side == tiles && side >= 2 {
            return Err(self.err(
                no,
                Problem::MixedSizes {
                    rows: side,
                    cols: side,
                    first_rows: rows,
                    first_cols: cols,
                    first_line,
                },
            ));
        }
        Err(self.err(
            no,
            Problem::WrongTileCount {
                rows,
                cols,
                expected: rows * cols,
                found: tiles,
            },
        ))
    }
}

/// Parses one tile value (`index` is 1-based, for the message).
pub(super) fn parse_tile(t: &str, index: usize) -> Result<u32, Problem> {
    if let Some(v) = parse_u32(t) {
        return Ok(v);
    }
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        // An integer, just far too large for any board.
        return Err(Problem::Board(BoardError::OutOfRange {
            value: t.parse().unwrap_or(u64::MAX),
            max: crate::board::MAX_CELLS - 1,
        }));
    }
    Err(Problem::NotAnInteger {
        what: format!("tile {index}"),
        found: excerpt(t),
    })
}

/// Parses the column header `id<TAB>...<TAB>tiles`.
fn parse_columns(raw: &str) -> Result<Columns, String> {
    let names: Vec<String> = raw
        .split('\t')
        .map(|f| field(f).to_ascii_lowercase())
        .collect();
    if names.len() < 2 || names[0] != "id" || names[names.len() - 1] != "tiles" {
        return Err(format!(
            "expected tab-separated column names starting with \"id\" and ending with \"tiles\", found \"{}\"",
            excerpt(raw.trim())
        ));
    }
    for (i, n) in names.iter().enumerate() {
        if n.is_empty() {
            return Err(format!("column {} has no name", i + 1));
        }
        if names[..i].contains(n) {
            return Err(format!("column \"{n}\" appears twice"));
        }
    }
    let pos = |name: &str| names.iter().position(|n| n == name);
    Ok(Columns {
        scramble: pos("scramble_moves"),
        optimal: pos("optimal"),
        names,
    })
}
