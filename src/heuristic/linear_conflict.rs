//! Linear conflict (Hansson, Mayer & Yung 1992), the admissible form.
//!
//! Two tiles are in conflict in a line (row or column) when both belong to that line and lie in
//! it in the reverse of their goal order. Resolving the conflicts of one line needs at least as
//! many tiles to step out of the line (and back: 2 moves each) as the line has tiles outside a
//! longest increasing subsequence of goal positions. Counting every conflicting pair instead
//! would overestimate, so we count that minimum: `k - LIS` per line, where `k` is the number of
//! tiles in the line that belong to it.
//!
//! Incrementally: a move shifts one tile across a line boundary (a horizontal move changes its
//! column, a vertical one its row), and only a line the tile belongs to can change its count.
//! So each move looks at most one line: one scan builds the line's code after the move, the
//! code before differs in one digit, and a table gives both counts.

use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};

use super::{Heuristic, Manhattan};

/// Manhattan distance plus 2 per tile that must leave its line to let the others pass.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    manhattan: Manhattan,
    rows: usize,
    cols: usize,
    goal_row: [u8; MAX_EXACT_CELLS],
    goal_col: [u8; MAX_EXACT_CELLS],
    /// Removal counts of a row, indexed by its code (see [`LineTable`]).
    row_table: LineTable,
    /// Removal counts of a column.
    col_table: LineTable,
}

/// The digit of a cell whose tile does not belong to the line (or the blank). In a table
/// code it is stored as 7 (`NONE & 7`), which no goal position reaches in lines of <= 7 cells.
const NONE: u32 = 0xFF;

/// Lines of up to 7 cells are looked up: a line's code has 3 bits a cell, the tile's goal
/// position along the line or [`NONE`], so the table has `8^len` entries (2 MiB at most).
/// Longer lines (8 x 8 boards) fall back to computing the subsequence.
#[derive(Debug, Clone)]
struct LineTable {
    removals: Option<Box<[u8]>>,
}

/// The length of a longest strictly increasing subsequence of `seq`.
#[inline]
fn lis(seq: &[u8]) -> u32 {
    let mut tails = [0u8; MAX_EXACT_CELLS];
    let mut len = 0usize;
    for &v in seq {
        let mut i = 0;
        while i < len && tails[i] < v {
            i += 1;
        }
        tails[i] = v;
        if i == len {
            len += 1;
        }
    }
    len as u32
}

/// Tiles to remove from a line whose cells carry `digits` (goal positions or [`NONE`]).
fn removals_of_digits(digits: impl Iterator<Item = u32>) -> u32 {
    let mut seq = [0u8; MAX_EXACT_CELLS];
    let mut k = 0;
    for d in digits {
        if d != NONE {
            seq[k] = d as u8;
            k += 1;
        }
    }
    k as u32 - lis(&seq[..k])
}

impl LineTable {
    fn new(len: usize) -> LineTable {
        if len > 7 {
            return LineTable { removals: None };
        }
        let size = 1usize << (3 * len);
        let table = (0..size)
            .map(|code| {
                removals_of_digits((0..len).map(|i| match (code >> (3 * i)) as u32 & 7 {
                    7 => NONE,
                    d => d,
                })) as u8
            })
            .collect();
        LineTable {
            removals: Some(table),
        }
    }
}

impl LinearConflict {
    /// Tables for `g`.
    pub fn new(g: &Geometry) -> LinearConflict {
        let mut goal_row = [u8::MAX; MAX_EXACT_CELLS];
        let mut goal_col = [u8::MAX; MAX_EXACT_CELLS];
        for t in 1..g.cells {
            let gc = g.goal_cell[t] as usize;
            goal_row[t] = g.row(gc) as u8;
            goal_col[t] = g.col(gc) as u8;
        }
        LinearConflict {
            manhattan: Manhattan::new(g),
            rows: g.rows,
            cols: g.cols,
            goal_row,
            goal_col,
            row_table: LineTable::new(g.cols),
            col_table: LineTable::new(g.rows),
        }
    }

    /// The digit of tile `t` in row `r`: its goal column if it belongs to the row.
    #[inline(always)]
    fn row_digit(&self, t: u8, r: usize) -> u32 {
        let t = t as usize & 63;
        if t != 0 && self.goal_row[t] as usize == r {
            u32::from(self.goal_col[t])
        } else {
            NONE
        }
    }

    /// The digit of tile `t` in column `c`: its goal row if it belongs to the column.
    #[inline(always)]
    fn col_digit(&self, t: u8, c: usize) -> u32 {
        let t = t as usize & 63;
        if t != 0 && self.goal_col[t] as usize == c {
            u32::from(self.goal_row[t])
        } else {
            NONE
        }
    }

    /// Removals of row `r` after and before a change of the digit at position `at` to
    /// `before_digit`: one scan of the line serves both.
    #[inline(always)]
    fn row_change(&self, tiles: &Tiles, r: usize, at: usize, before_digit: u32) -> (u32, u32) {
        let first = r * self.cols;
        let line = &tiles[first..first + self.cols];
        match &self.row_table.removals {
            Some(table) => {
                let mut code = 0usize;
                for (i, &t) in line.iter().enumerate() {
                    code |= (self.row_digit(t, r) as usize & 7) << (3 * i);
                }
                let before = (code & !(7 << (3 * at))) | (before_digit as usize & 7) << (3 * at);
                (u32::from(table[code]), u32::from(table[before]))
            }
            None => {
                let after = removals_of_digits(line.iter().map(|&t| self.row_digit(t, r)));
                let before = removals_of_digits(line.iter().enumerate().map(|(i, &t)| {
                    if i == at {
                        before_digit
                    } else {
                        self.row_digit(t, r)
                    }
                }));
                (after, before)
            }
        }
    }

    /// As [`Self::row_change`], for column `c`.
    #[inline(always)]
    fn col_change(&self, tiles: &Tiles, c: usize, at: usize, before_digit: u32) -> (u32, u32) {
        let digit = |i: usize| self.col_digit(tiles[(i * self.cols + c) & 63], c);
        match &self.col_table.removals {
            Some(table) => {
                let mut code = 0usize;
                for i in 0..self.rows {
                    code |= (digit(i) as usize & 7) << (3 * i);
                }
                let before = (code & !(7 << (3 * at))) | (before_digit as usize & 7) << (3 * at);
                (u32::from(table[code]), u32::from(table[before]))
            }
            None => {
                let after = removals_of_digits((0..self.rows).map(digit));
                let before = removals_of_digits(
                    (0..self.rows).map(|i| if i == at { before_digit } else { digit(i) }),
                );
                (after, before)
            }
        }
    }

    /// The conflict part alone (the estimate minus Manhattan), from scratch.
    pub fn conflicts(&self, tiles: &Tiles) -> u32 {
        let rows: u32 = (0..self.rows)
            .map(|r| {
                removals_of_digits(
                    (0..self.cols).map(|i| self.row_digit(tiles[r * self.cols + i], r)),
                )
            })
            .sum();
        let cols: u32 = (0..self.cols)
            .map(|c| {
                removals_of_digits(
                    (0..self.rows).map(|i| self.col_digit(tiles[i * self.cols + c], c)),
                )
            })
            .sum();
        2 * (rows + cols)
    }
}

impl Heuristic for LinearConflict {
    type Memo = ();

    fn init(&self, tiles: &Tiles) -> (u32, ()) {
        (self.manhattan.init(tiles).0 + self.conflicts(tiles), ())
    }

    #[inline(always)]
    fn update(&self, tiles: &Tiles, tile: u8, from: usize, to: usize, h: u32, _: ()) -> (u32, ()) {
        let h = self.manhattan.update(tiles, tile, from, to, h, ()).0;
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        let t = tile as usize & 63;
        let (after, before) = if fr == tr {
            // Horizontal: the tile leaves column fc (its cell there is now the blank's) and
            // enters column tc, at row fr in both.
            let home = self.goal_col[t] as usize;
            if home == fc {
                self.col_change(tiles, fc, fr, u32::from(self.goal_row[t]))
            } else if home == tc {
                self.col_change(tiles, tc, fr, NONE)
            } else {
                return (h, ());
            }
        } else {
            // Vertical: the tile leaves row fr and enters row tr, at column fc in both.
            let home = self.goal_row[t] as usize;
            if home == fr {
                self.row_change(tiles, fr, fc, u32::from(self.goal_col[t]))
            } else if home == tr {
                self.row_change(tiles, tr, fc, NONE)
            } else {
                return (h, ());
            }
        };
        (h + 2 * after - 2 * before, ())
    }
}

#[cfg(test)]
mod tests {
    use super::lis;

    #[test]
    fn lis_of_small_sequences() {
        assert_eq!(lis(&[]), 0);
        assert_eq!(lis(&[3, 2, 1]), 1);
        assert_eq!(lis(&[0, 1, 2, 3]), 4);
        assert_eq!(lis(&[2, 0, 3, 1]), 2);
        assert_eq!(lis(&[1, 3, 0, 2, 4]), 3);
    }
}
