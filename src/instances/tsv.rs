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
        .map(|(i, l)| (i + 1, l.trim_start_matches('\u{feff}')))
        .peekable();

    // The header block (ours) or leading comments (Korf's layout), up to the column header.
    let mut header: Option<Header> = None;
    let columns_line;
    let columns;
    loop {
        let Some((no, raw)) = lines.next() else {
            let line = text.lines().count().max(1);
            return Err(match layout {
                Layout::Npuzzle => err(
                    line,
                    Problem::BadColumns {
                        message: "the file ends before the column header \"id<TAB>...<TAB>tiles\""
                            .into(),
                    },
                ),
                // Only blank and comment lines: an empty instance file.
                _ => err(line, Problem::NoInstances),
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
            if let Some(h) = header.as_mut()
                && let Some((k, v)) = comment.split_once(':')
            {
                let key = k.trim().to_ascii_lowercase();
                // Only single-word keys are header entries; anything else is a comment.
                if !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    if let Some((_, first)) = h.keys.get(&key)
                        && key != "note"
                    {
                        return Err(err(
                            no,
                            Problem::DuplicateHeader {
                                key,
                                first_line: *first,
                            },
                        ));
                    }
                    h.keys.insert(key, (v.trim().to_string(), no));
                }
            }
            continue;
        }
        // The column header.
        columns_line = no;
        columns = parse_columns(raw).map_err(|message| match layout {
            Layout::KorfTsv if !raw.contains('\t') => {
                err(no, Problem::UnknownLayout { found: excerpt(l) })
            }
            _ => err(no, Problem::BadColumns { message }),
        })?;
        break;
    }

    // Size and goal.
    let (mut size, file_goal, declared_count) = match &header {
        Some(h) => {
            let num = |key: &str| -> Result<usize, InstanceError> {
                let (v, l) = h.get(key).ok_or_else(|| {
                    err(
                        columns_line,
                        Problem::MissingHeader {
                            key: key.to_string(),
                        },
                    )
                })?;
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
            let rows = num("rows")?;
            let cols = num("cols")?;
            let (g, gl) = h
                .get("goal")
                .ok_or_else(|| err(columns_line, Problem::MissingHeader { key: "goal".into() }))?;
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
                Some((v, l)) => Some((
                    v.parse::<usize>().map_err(|_| {
                        err(
                            l,
                            Problem::BadHeader {
                                key: "count".into(),
                                message: format!("expected a whole number, found \"{v}\""),
                            },
                        )
                    })?,
                    l,
                )),
                None => None,
            };
            (Some((rows, cols, h.line)), goal, count)
        }
        None => (None, Goal::BlankFirst, None),
    };
    let goal = goal_override.unwrap_or(file_goal);
    let header_moves = header
        .as_ref()
        .and_then(|h| h.get("moves"))
        .and_then(|(v, _)| parse_u32(v));

    // The data lines.
    let mut instances = Vec::new();
    let mut extras = Extras::default();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let ncols = columns.names.len();
    for (no, raw) in lines {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.trim_end_matches(['\r', '\n']).split('\t').collect();
        if fields.len() != ncols {
            return Err(err(
                no,
                Problem::WrongFieldCount {
                    expected: ncols,
                    columns: columns.names.join(", "),
                    found: fields.len(),
                },
            ));
        }
        let id = field(fields[0]);
        if id.is_empty() {
            return Err(err(no, Problem::EmptyId));
        }
        if let Some(&first_line) = ids.get(id) {
            return Err(err(
                no,
                Problem::DuplicateId {
                    id: id.to_string(),
                    first_line,
                },
            ));
        }
        ids.insert(id.to_string(), no);
        let opt_col = |idx: Option<usize>| -> Result<Option<u32>, InstanceError> {
            let Some(i) = idx else { return Ok(None) };
            let v = field(fields[i]);
            if v.is_empty() {
                return Ok(None);
            }
            parse_u32(v).map(Some).ok_or_else(|| {
                err(
                    no,
                    Problem::NotAnInteger {
                        what: format!("column {}", columns.names[i]),
                        found: excerpt(v),
                    },
                )
            })
        };
        let scramble_moves = opt_col(columns.scramble)?.or(header_moves);
        let optimal = opt_col(columns.optimal)?;

        let tiles_text = field(fields[ncols - 1]);
        let mut values: Vec<u32> = match size {
            Some((r, c, _)) => Vec::with_capacity(r * c),
            None => Vec::new(),
        };
        for (k, t) in tiles_text.split_ascii_whitespace().enumerate() {
            values.push(parse_tile(t, k + 1).map_err(|p| err(no, p))?);
        }
        let (rows, cols) = match size {
            Some((rows, cols, first_line)) => {
                if values.len() != rows * cols {
                    // Korf's layout: a different square size is a mixed-size file.
                    if header.is_none() {
                        let side = values.len().isqrt();
                        if side * side == values.len() && side >= 2 {
                            return Err(err(
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
                    }
                    return Err(err(
                        no,
                        Problem::WrongTileCount {
                            rows,
                            cols,
                            expected: rows * cols,
                            found: values.len(),
                        },
                    ));
                }
                (rows, cols)
            }
            None => {
                let side = values.len().isqrt();
                if side * side != values.len() || side < 2 {
                    return Err(err(
                        no,
                        Problem::NotSquare {
                            found: values.len(),
                        },
                    ));
                }
                size = Some((side, side, no));
                (side, side)
            }
        };
        let board = make_board(rows, cols, values).map_err(|p| err(no, p))?;
        instances.push(Instance {
            id: id.to_string(),
            line: no,
            board,
            scramble_moves,
        });
        extras.optimal.push(optimal);
    }

    let last_line = text.lines().count().max(1);
    if instances.is_empty() {
        return Err(err(last_line, Problem::NoInstances));
    }
    if let Some((declared, header_line)) = declared_count
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
    let (rows, cols, _) = size.expect("set by the first instance");
    Ok((
        InstanceSet {
            path: path.to_path_buf(),
            goal,
            rows,
            cols,
            instances,
        },
        extras,
    ))
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
