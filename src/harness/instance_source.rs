//! TEMPORARY stand-in for `crate::instances::read_instance_file` (owned by the `gen` branch),
//! with the same API, reading only Korf's tsv layout (`id\ttiles` header, tiles
//! space-separated). Replaced by a re-export of `crate::instances` once that lands.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::board::{Board, Goal};

/// One instance.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Id.
    pub id: String,
    /// 1-based line.
    pub line: usize,
    /// The board.
    pub board: Board,
    /// Random-walk length, if generated so.
    pub scramble_moves: Option<u32>,
}

/// A file of instances.
#[derive(Debug, Clone)]
pub struct InstanceSet {
    /// The file.
    pub path: PathBuf,
    /// The goal.
    pub goal: Goal,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The instances.
    pub instances: Vec<Instance>,
}

/// A malformed instance file.
#[derive(Debug, Error)]
#[error("{file}:{line}: {what}")]
pub struct InstanceError {
    file: String,
    line: usize,
    what: String,
}

/// Reads a Korf-layout tsv file (blank-first goal unless overridden).
pub fn read_instance_file(
    path: &Path,
    goal_override: Option<Goal>,
) -> Result<InstanceSet, InstanceError> {
    let file = path.display().to_string();
    let err = |line: usize, what: String| InstanceError {
        file: file.clone(),
        line,
        what,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(0, e.to_string()))?;
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or_else(|| err(1, "empty file".into()))?;
    let cols: Vec<&str> = header.split('\t').collect();
    let id_col = cols.iter().position(|c| *c == "id");
    let tiles_col = cols.iter().position(|c| *c == "tiles");
    let (Some(id_col), Some(tiles_col)) = (id_col, tiles_col) else {
        return Err(err(1, "expected a header with columns id and tiles".into()));
    };
    let goal = goal_override.unwrap_or(Goal::BlankFirst);
    let mut instances = Vec::new();
    let mut size = None;
    for (i, l) in lines {
        if l.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = l.split('\t').collect();
        let (Some(id), Some(tiles)) = (fields.get(id_col), fields.get(tiles_col)) else {
            return Err(err(i + 1, "missing id or tiles column".into()));
        };
        let tiles: Vec<u32> = tiles
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| err(i + 1, format!("bad tile {t}"))))
            .collect::<Result<_, _>>()?;
        let n = (tiles.len() as f64).sqrt().round() as usize;
        let board = Board::new(n, n, tiles).map_err(|e| err(i + 1, e.to_string()))?;
        if *size.get_or_insert(n) != n {
            return Err(err(i + 1, "board size differs from the first".into()));
        }
        instances.push(Instance {
            id: id.to_string(),
            line: i + 1,
            board,
            scramble_moves: None,
        });
    }
    let n = size.ok_or_else(|| err(1, "no instances".into()))?;
    Ok(InstanceSet {
        path: path.to_path_buf(),
        goal,
        rows: n,
        cols: n,
        instances,
    })
}
