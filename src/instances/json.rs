//! Files of JSON matrices: one matrix per line (JSON lines), matrices spread over several lines,
//! or one JSON array of matrices. Lines starting with `#` are comments.

use std::path::Path;

use serde_json::Value;

use super::{Extras, Instance, InstanceError, InstanceSet, Problem, excerpt, make_board};
use crate::board::Goal;

pub(super) fn parse(
    path: &Path,
    text: &str,
    goal_override: Option<Goal>,
) -> Result<(InstanceSet, Extras), InstanceError> {
    let err = |line: usize, problem: Problem| InstanceError::invalid(path, line, problem);
    // Blank out comment lines, keeping byte offsets (and so line numbers) unchanged.
    let cleaned: String = text
        .split_inclusive('\n')
        .map(|l| {
            if l.trim_start().starts_with('#') {
                l.chars()
                    .map(|c| if c == '\n' { '\n' } else { ' ' })
                    .collect::<String>()
            } else {
                l.replace('\u{feff}', " ")
            }
        })
        .collect();
    // Line numbers are counted incrementally, so that long files stay linear.
    let (mut counted_to, mut counted_line) = (0usize, 1usize);
    let mut line_of = |offset: usize| {
        counted_line += cleaned.as_bytes()[counted_to..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted_to = offset;
        counted_line
    };

    // (line, matrix value)
    let mut matrices: Vec<(usize, Value)> = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(&cleaned).into_iter::<Value>();
    let mut end = 0usize;
    loop {
        let start = end + cleaned[end..].len() - cleaned[end..].trim_start().len();
        match stream.next() {
            None => break,
            Some(Err(e)) => return Err(err(e.line().max(1), Problem::Json(e.to_string()))),
            Some(Ok(v)) => {
                end = stream.byte_offset();
                let line = line_of(start);
                let is_list_of_matrices = matches!(&v, Value::Array(items)
                    if matches!(items.first(), Some(Value::Array(row)) if matches!(row.first(), Some(Value::Array(_)))));
                if is_list_of_matrices {
                    let starts = element_lines(&cleaned[start..end], line);
                    let Value::Array(items) = v else {
                        unreachable!()
                    };
                    for (k, m) in items.into_iter().enumerate() {
                        matrices.push((starts.get(k).copied().unwrap_or(line), m));
                    }
                } else {
                    matrices.push((line, v));
                }
            }
        }
    }

    let goal = goal_override.unwrap_or(Goal::BlankLast);
    let mut instances: Vec<Instance> = Vec::with_capacity(matrices.len());
    for (k, (line, m)) in matrices.into_iter().enumerate() {
        let (rows, cols, values) = matrix(&m).map_err(|p| err(line, p))?;
        if let Some(first) = instances.first()
            && (first.board.rows(), first.board.cols()) != (rows, cols)
        {
            return Err(err(
                line,
                Problem::MixedSizes {
                    rows,
                    cols,
                    first_rows: first.board.rows(),
                    first_cols: first.board.cols(),
                    first_line: first.line,
                },
            ));
        }
        let board = make_board(rows, cols, values).map_err(|p| err(line, p))?;
        instances.push(Instance {
            id: (k + 1).to_string(),
            line,
            board,
            scramble_moves: None,
        });
    }
    let Some(first) = instances.first() else {
        return Err(err(text.lines().count().max(1), Problem::NoInstances));
    };
    let (rows, cols) = (first.board.rows(), first.board.cols());
    let n = instances.len();
    Ok((
        InstanceSet {
            path: path.to_path_buf(),
            shape: crate::board::Shape::new(rows, cols, goal),
            instances,
        },
        Extras {
            optimal: vec![None; n],
        },
    ))
}

/// The lines on which the elements of a JSON array (given as text starting with `[`) start.
fn element_lines(text: &str, first_line: usize) -> Vec<usize> {
    let mut lines = Vec::new();
    let (mut depth, mut line, mut in_string, mut escaped) = (0usize, first_line, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth == 2 {
                    lines.push(line);
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    lines
}

/// Checks that `v` is a rectangular matrix of non-negative integers.
fn matrix(v: &Value) -> Result<(usize, usize, Vec<u32>), Problem> {
    let shape_error = || {
        Problem::Json(format!(
            "expected a matrix (an array of rows of numbers) or an array of matrices, found {}",
            excerpt(&v.to_string())
        ))
    };
    let Value::Array(rows) = v else {
        return Err(shape_error());
    };
    let first_len = match rows.first() {
        Some(Value::Array(r)) => r.len(),
        _ => return Err(shape_error()),
    };
    let mut values = Vec::with_capacity(rows.len() * first_len);
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else {
            return Err(Problem::Json(format!(
                "row {} is not an array: {}",
                r + 1,
                excerpt(&row.to_string())
            )));
        };
        if cells.len() != first_len {
            return Err(Problem::RaggedMatrix {
                row: r + 1,
                len: cells.len(),
                first_len,
            });
        }
        for (c, cell) in cells.iter().enumerate() {
            match cell.as_u64() {
                Some(t) => values.push(u32::try_from(t).map_err(|_| {
                    Problem::Board(crate::board::BoardError::OutOfRange {
                        value: t,
                        max: (rows.len() * first_len).saturating_sub(1),
                    })
                })?),
                None => {
                    return Err(Problem::NotAnInteger {
                        what: format!("row {}, column {}", r + 1, c + 1),
                        found: match cell {
                            Value::String(s) => excerpt(s),
                            other => excerpt(&other.to_string()),
                        },
                    });
                }
            }
        }
    }
    Ok((rows.len(), first_len, values))
}
