//! The board model: an R x C sliding-tile board, its two goal layouts, moves and solvability.
//!
//! This is the one general representation of a position. It holds tiles as `u32` so that it
//! carries boards far beyond 255 cells (the polynomial solver goes to 1000 x 1000); the exact
//! searches copy it into compact fixed-size states of their own (see [`crate::search`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The smallest side a board may have.
pub const MIN_SIDE: usize = 2;

/// Where the blank sits in the solved position.
///
/// Both layouts are first-class; nothing in the crate assumes one silently.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// `1, 2, ..., R*C-1` then the blank: the original task's layout, and our default.
    #[default]
    BlankLast,
    /// `0, 1, ..., R*C-1`: the layout of Korf's benchmark sets.
    BlankFirst,
}

impl Goal {
    /// The cell (row-major index) where `tile` belongs in a board of `cells` cells.
    #[inline]
    pub fn cell_of(self, tile: usize, cells: usize) -> usize {
        match self {
            Goal::BlankFirst => tile,
            Goal::BlankLast => {
                if tile == 0 {
                    cells - 1
                } else {
                    tile - 1
                }
            }
        }
    }

    /// The tile that belongs in `cell` of a board of `cells` cells (0 = blank).
    #[inline]
    pub fn tile_at(self, cell: usize, cells: usize) -> usize {
        match self {
            Goal::BlankFirst => cell,
            Goal::BlankLast => (cell + 1) % cells,
        }
    }

    /// The command-line spelling of this goal.
    pub fn name(self) -> &'static str {
        match self {
            Goal::BlankLast => "blank-last",
            Goal::BlankFirst => "blank-first",
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Goal {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "blank-last" => Ok(Goal::BlankLast),
            "blank-first" => Ok(Goal::BlankFirst),
            other => Err(format!(
                "unknown goal \"{other}\", expected blank-last or blank-first"
            )),
        }
    }
}

/// One board size and its goal layout: what a set of instances, a pattern database or a
/// prediction is about. One type, so the three values travel together instead of as a tuple.
/// Serialized as its three fields `rows`, `cols`, `goal` (flattened into the sidecars).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Where the blank and the tiles belong when solved.
    pub goal: Goal,
}

impl Shape {
    /// A shape of `rows` x `cols` with `goal` (the size is validated where boards are read).
    pub fn new(rows: usize, cols: usize, goal: Goal) -> Shape {
        Shape { rows, cols, goal }
    }

    /// Number of cells, `rows * cols`.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
}

/// A move, named by the direction in which the **blank** travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// The blank moves one row up (the tile above it slides down).
    Up,
    /// The blank moves one row down.
    Down,
    /// The blank moves one column left.
    Left,
    /// The blank moves one column right.
    Right,
}

impl Move {
    /// Korf's successor order (up, left, right, down): the default everywhere, so that node
    /// counts are comparable with the literature.
    pub const KORF_ORDER: [Move; 4] = [Move::Up, Move::Left, Move::Right, Move::Down];

    /// The move that undoes this one.
    #[inline]
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter used in solutions: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// Parses `U`, `D`, `L` or `R` (case-insensitive).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The cell the blank reaches from `cell` on a `rows` x `cols` board, if the move is legal.
    #[inline]
    pub fn target(self, cell: usize, rows: usize, cols: usize) -> Option<usize> {
        let (r, c) = (cell / cols, cell % cols);
        match self {
            Move::Up if r > 0 => Some(cell - cols),
            Move::Down if r + 1 < rows => Some(cell + cols),
            Move::Left if c > 0 => Some(cell - 1),
            Move::Right if c + 1 < cols => Some(cell + 1),
            _ => None,
        }
    }
}

/// Formats a move list as a `U`/`D`/`L`/`R` string.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Parses a `U`/`D`/`L`/`R` string into moves.
pub fn moves_from_str(s: &str) -> Result<Vec<Move>, BoardError> {
    s.chars()
        .enumerate()
        .map(|(i, c)| Move::from_letter(c).ok_or(BoardError::BadMoveLetter { index: i + 1, c }))
        .collect()
}

/// What can be wrong with a board or with moves applied to it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A side shorter than [`MIN_SIDE`].
    #[error("the board is {rows} x {cols}; both sides must be at least {MIN_SIDE}")]
    TooSmall {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// The board has more cells than the model supports.
    #[error("the board is {rows} x {cols}, more than {max} cells")]
    TooLarge {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
        /// The largest cell count supported.
        max: usize,
    },
    /// The tile list does not have `rows * cols` entries.
    #[error("expected {expected} tiles for a {rows} x {cols} board, found {found}")]
    WrongTileCount {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
        /// `rows * cols`.
        expected: usize,
        /// Tiles given.
        found: usize,
    },
    /// A value outside `0..rows*cols`.
    #[error("{value} is out of range: tiles must be 0..={max}")]
    OutOfRange {
        /// The value found.
        value: u64,
        /// The largest allowed value.
        max: usize,
    },
    /// A value that appears more than once.
    #[error("{value} appears twice")]
    Duplicate {
        /// The value found twice.
        value: u32,
    },
    /// The board cannot reach the goal.
    #[error("the board is unsolvable for goal {goal}: {reason}")]
    Unsolvable {
        /// The goal asked for.
        goal: Goal,
        /// Why, in terms of parity.
        reason: String,
    },
    /// A move that would take the blank off the board.
    #[error("move {index} ({letter}) takes the blank off the board")]
    IllegalMove {
        /// 1-based position of the move in the list.
        index: usize,
        /// The move's letter.
        letter: char,
    },
    /// A character that is not U, D, L or R.
    #[error("character {index} (\"{c}\") is not a move; expected U, D, L or R")]
    BadMoveLetter {
        /// 1-based position.
        index: usize,
        /// The character found.
        c: char,
    },
}

/// The largest board the model holds (cells). Large enough for 1000 x 1000 and then some.
pub const MAX_CELLS: usize = 1 << 26;

/// An R x C position, tiles row-major, 0 = blank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    tiles: Vec<u32>,
    blank: usize,
}

impl Board {
    /// Builds a board from row-major tiles, checking the shape and that each of
    /// `0..rows*cols` appears exactly once. Solvability is a separate question
    /// ([`Board::check_solvable`]).
    pub fn new(rows: usize, cols: usize, tiles: Vec<u32>) -> Result<Board, BoardError> {
        if rows < MIN_SIDE || cols < MIN_SIDE {
            return Err(BoardError::TooSmall { rows, cols });
        }
        let cells =
            rows.checked_mul(cols)
                .filter(|&c| c <= MAX_CELLS)
                .ok_or(BoardError::TooLarge {
                    rows,
                    cols,
                    max: MAX_CELLS,
                })?;
        if tiles.len() != cells {
            return Err(BoardError::WrongTileCount {
                rows,
                cols,
                expected: cells,
                found: tiles.len(),
            });
        }
        let mut seen = vec![false; cells];
        let mut blank = 0;
        for (i, &t) in tiles.iter().enumerate() {
            let v = t as usize;
            if v >= cells {
                return Err(BoardError::OutOfRange {
                    value: u64::from(t),
                    max: cells - 1,
                });
            }
            if seen[v] {
                return Err(BoardError::Duplicate { value: t });
            }
            seen[v] = true;
            if t == 0 {
                blank = i;
            }
        }
        Ok(Board {
            rows,
            cols,
            tiles,
            blank,
        })
    }

    /// The solved board of the given size and goal layout.
    ///
    /// # Panics
    /// If a side is below [`MIN_SIDE`] or the board exceeds [`MAX_CELLS`].
    pub fn solved(rows: usize, cols: usize, goal: Goal) -> Board {
        let cells = rows * cols;
        let tiles = (0..cells).map(|c| goal.tile_at(c, cells) as u32).collect();
        Board::new(rows, cols, tiles).expect("a solved board of a valid size")
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells, `rows * cols`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.tiles.len()
    }

    /// The tiles, row-major, 0 = blank.
    #[inline]
    pub fn tiles(&self) -> &[u32] {
        &self.tiles
    }

    /// The blank's cell (row-major index, 0-based).
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tile at `(row, col)`.
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> u32 {
        self.tiles[row * self.cols + col]
    }

    /// Whether this is the solved position for `goal`.
    pub fn is_goal(&self, goal: Goal) -> bool {
        let cells = self.cells();
        self.tiles
            .iter()
            .enumerate()
            .all(|(c, &t)| t as usize == goal.tile_at(c, cells))
    }

    /// The moves legal from this position, in Korf's order (up, left, right, down).
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::KORF_ORDER
            .into_iter()
            .filter(|m| m.target(self.blank, self.rows, self.cols).is_some())
    }

    /// Applies a move in place; returns `false` (and changes nothing) if it is illegal.
    #[inline]
    pub fn apply(&mut self, m: Move) -> bool {
        match m.target(self.blank, self.rows, self.cols) {
            Some(to) => {
                self.tiles.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// Returns the board after a move, or `None` if it is illegal.
    pub fn moved(&self, m: Move) -> Option<Board> {
        let mut b = self.clone();
        b.apply(m).then_some(b)
    }

    /// Applies a whole move list, failing at the first illegal move.
    pub fn apply_all(&mut self, moves: &[Move]) -> Result<(), BoardError> {
        for (i, &m) in moves.iter().enumerate() {
            if !self.apply(m) {
                return Err(BoardError::IllegalMove {
                    index: i + 1,
                    letter: m.letter(),
                });
            }
        }
        Ok(())
    }

    /// Replays `moves` from this board and reports whether they end on `goal`'s solved position.
    /// This is the independent check every reported solution passes.
    pub fn replay_reaches_goal(&self, moves: &[Move], goal: Goal) -> bool {
        let mut b = self.clone();
        b.apply_all(moves).is_ok() && b.is_goal(goal)
    }

    /// Parity of the permutation that takes this board to `goal`'s layout, counting the blank
    /// as a tile (`true` = odd). Computed by cycle decomposition in linear time.
    fn permutation_parity_odd(&self, goal: Goal) -> bool {
        let cells = self.cells();
        // perm[c] = the goal cell of the tile now in cell c.
        let mut visited = vec![false; cells];
        let mut transpositions = 0usize;
        for start in 0..cells {
            if visited[start] {
                continue;
            }
            let mut len = 0usize;
            let mut c = start;
            while !visited[c] {
                visited[c] = true;
                c = goal.cell_of(self.tiles[c] as usize, cells);
                len += 1;
            }
            transpositions += len - 1;
        }
        transpositions % 2 == 1
    }

    /// Taxicab distance of the blank from its goal cell.
    fn blank_distance(&self, goal: Goal) -> usize {
        let g = goal.cell_of(0, self.cells());
        let (r, c) = (self.blank / self.cols, self.blank % self.cols);
        let (gr, gc) = (g / self.cols, g % self.cols);
        r.abs_diff(gr) + c.abs_diff(gc)
    }

    /// Whether `goal` is reachable from this board.
    ///
    /// Every move swaps the blank with a neighbour: one transposition of the cells, and one
    /// step of the blank on the grid. So the parity of the permutation (blank included) and the
    /// parity of the blank's taxicab distance to its goal cell change together, and a board is
    /// solvable exactly when they are equal. This single rule covers odd and even widths and
    /// both goal layouts (the familiar "inversions plus blank row" rules are special cases);
    /// it is checked against reachability by enumeration in the tests.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        self.permutation_parity_odd(goal) == (self.blank_distance(goal) % 2 == 1)
    }

    /// [`Board::is_solvable`] as a `Result` whose error says why, in terms of parity.
    pub fn check_solvable(&self, goal: Goal) -> Result<(), BoardError> {
        if self.is_solvable(goal) {
            return Ok(());
        }
        let perm = if self.permutation_parity_odd(goal) {
            "odd"
        } else {
            "even"
        };
        let d = self.blank_distance(goal);
        Err(BoardError::Unsolvable {
            goal,
            reason: format!(
                "the permutation of the tiles (blank included) relative to the goal is {perm}, \
                 but the blank is {d} moves from its goal cell ({}); every move changes both \
                 parities, so they must be equal",
                if d % 2 == 1 { "odd" } else { "even" }
            ),
        })
    }

    /// Sum over tiles of the taxicab distance to their goal cells: a lower bound on the
    /// solution length that works for any size (used by reports and the polynomial solver).
    pub fn manhattan(&self, goal: Goal) -> u64 {
        let cells = self.cells();
        let mut sum = 0u64;
        for (c, &t) in self.tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let g = goal.cell_of(t as usize, cells);
            sum += ((c / self.cols).abs_diff(g / self.cols)
                + (c % self.cols).abs_diff(g % self.cols)) as u64;
        }
        sum
    }
}

impl fmt::Display for Board {
    /// Rows of space-separated numbers, one row per line: the original task's board format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows {
            for c in 0..self.cols {
                if c > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", self.at(r, c))?;
            }
            if r + 1 < self.rows {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_layouts_are_inverse_maps() {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            for cells in [4, 9, 16, 30] {
                for t in 0..cells {
                    assert_eq!(goal.tile_at(goal.cell_of(t, cells), cells), t);
                }
            }
        }
    }

    #[test]
    fn one_swap_of_two_tiles_is_unsolvable() {
        let mut b = Board::solved(4, 4, Goal::BlankLast);
        b.tiles.swap(0, 1);
        assert!(!b.is_solvable(Goal::BlankLast));
        assert!(b.check_solvable(Goal::BlankLast).is_err());
    }

    #[test]
    fn moves_keep_solvability() {
        let mut b = Board::solved(3, 5, Goal::BlankFirst);
        for m in [Move::Right, Move::Down, Move::Right, Move::Down, Move::Left] {
            assert!(b.apply(m));
            assert!(b.is_solvable(Goal::BlankFirst));
        }
        assert!(!b.is_goal(Goal::BlankFirst));
    }
}
