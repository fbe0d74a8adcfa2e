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

use std::sync::OnceLock;

use crate::geometry::{Capacity, Geometry, Small, TileInt};

use super::{Heuristic, Manhattan};

/// Manhattan distance plus 2 per tile that must leave its line to let the others pass.
///
/// `M` is the Manhattan part: the table of [`Manhattan`] up to 64 cells,
/// [`GridManhattan`](super::GridManhattan) beyond.
#[derive(Debug, Clone)]
pub struct LinearConflict<C: Capacity = Small, M = Manhattan> {
    manhattan: M,
    rows: usize,
    cols: usize,
    /// The goal row and column of each tile (0 for the blank, which no line counts).
    goal_row: C::Table<C::Tile>,
    goal_col: C::Table<C::Tile>,
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
/// Longer lines (8 x 8 boards) fall back to computing the subsequence. A table depends on the
/// line's length alone, so each is made once per process and shared (building the two 4 x 4
/// tables took about 100 us, most of a small solve's time).
#[derive(Debug, Clone)]
struct LineTable {
    removals: Option<&'static [u8]>,
}

/// The length of a longest strictly increasing subsequence of `seq`, computed in place
/// (patience sorting: the tails of the piles overwrite entries already read).
#[inline]
fn lis(seq: &mut [u16]) -> u32 {
    let mut len = 0usize;
    for i in 0..seq.len() {
        let v = seq[i];
        let at = seq[..len].partition_point(|&x| x < v);
        seq[at] = v;
        if at == len {
            len += 1;
        }
    }
    len as u32
}

/// Lines up to this long are counted in a buffer on the stack; longer ones (boards such as
/// 3 x 300) in one on the heap.
const STACK_LINE: usize = 256;

/// Tiles to remove from a line of `len` cells whose cells carry `digits` (goal positions or
/// [`NONE`]).
fn removals_of_digits(len: usize, digits: impl Iterator<Item = u32>) -> u32 {
    let mut stack = [0u16; STACK_LINE];
    let mut heap = Vec::new();
    let seq: &mut [u16] = if len <= STACK_LINE {
        &mut stack
    } else {
        heap.resize(len, 0);
        &mut heap
    };
    let mut k = 0;
    for d in digits {
        if d != NONE {
            seq[k] = d as u16;
            k += 1;
        }
    }
    k as u32 - lis(&mut seq[..k])
}

impl LineTable {
    fn new(len: usize) -> LineTable {
        static TABLES: [OnceLock<Box<[u8]>>; 8] = [const { OnceLock::new() }; 8];
        if len > 7 {
            return LineTable { removals: None };
        }
        let table = TABLES[len].get_or_init(|| {
            (0..1usize << (3 * len))
                .map(|code| {
                    removals_of_digits(
                        len,
                        (0..len).map(|i| match (code >> (3 * i)) as u32 & 7 {
                            7 => NONE,
                            d => d,
                        }),
                    ) as u8
                })
                .collect()
        });
        LineTable {
            removals: Some(table),
        }
    }
}

impl LinearConflict {
    /// Tables for `g` (at most 64 cells).
    pub fn new(g: &Geometry) -> LinearConflict {
        LinearConflict::with_manhattan(g, Manhattan::new(g))
    }
}

impl<C: Capacity, M: Heuristic<C, Memo = ()>> LinearConflict<C, M> {
    /// Tables for `g`, with `manhattan` the Manhattan part built for `g`.
    pub fn with_manhattan(g: &Geometry<C>, manhattan: M) -> LinearConflict<C, M> {
        let mut goal_row = C::table(g.cells, C::Tile::default());
        let mut goal_col = C::table(g.cells, C::Tile::default());
        for t in 1..g.cells {
            let gc = g.goal_cell[t].into();
            goal_row[t] = C::Tile::from_index(g.row(gc));
            goal_col[t] = C::Tile::from_index(g.col(gc));
        }
        LinearConflict {
            manhattan,
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
    fn row_digit(&self, t: C::Tile, r: usize) -> u32 {
        let t = C::cell(t.into());
        if t != 0 && self.goal_row[t].into() == r {
            self.goal_col[t].into() as u32
        } else {
            NONE
        }
    }

    /// The digit of tile `t` in column `c`: its goal row if it belongs to the column.
    #[inline(always)]
    fn col_digit(&self, t: C::Tile, c: usize) -> u32 {
        let t = C::cell(t.into());
        if t != 0 && self.goal_col[t].into() == c {
            self.goal_row[t].into() as u32
        } else {
            NONE
        }
    }

    /// Removals of row `r` after and before a change of the digit at position `at` to
    /// `before_digit`: one scan of the line serves both.
    #[inline(always)]
    fn row_change(&self, tiles: &C::Tiles, r: usize, at: usize, before_digit: u32) -> (u32, u32) {
        let first = r * self.cols;
        let line = &tiles.as_ref()[first..first + self.cols];
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
                let after =
                    removals_of_digits(self.cols, line.iter().map(|&t| self.row_digit(t, r)));
                let before = removals_of_digits(
                    self.cols,
                    line.iter().enumerate().map(|(i, &t)| {
                        if i == at {
                            before_digit
                        } else {
                            self.row_digit(t, r)
                        }
                    }),
                );
                (after, before)
            }
        }
    }

    /// As [`Self::row_change`], for column `c`.
    #[inline(always)]
    fn col_change(&self, tiles: &C::Tiles, c: usize, at: usize, before_digit: u32) -> (u32, u32) {
        let digit = |i: usize| self.col_digit(tiles[C::cell(i * self.cols + c)], c);
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
                let after = removals_of_digits(self.rows, (0..self.rows).map(digit));
                let before = removals_of_digits(
                    self.rows,
                    (0..self.rows).map(|i| if i == at { before_digit } else { digit(i) }),
                );
                (after, before)
            }
        }
    }

    /// The conflict part alone (the estimate minus Manhattan), from scratch.
    pub fn conflicts(&self, tiles: &C::Tiles) -> u32 {
        let rows: u32 = (0..self.rows)
            .map(|r| {
                removals_of_digits(
                    self.cols,
                    (0..self.cols).map(|i| self.row_digit(tiles[r * self.cols + i], r)),
                )
            })
            .sum();
        let cols: u32 = (0..self.cols)
            .map(|c| {
                removals_of_digits(
                    self.rows,
                    (0..self.rows).map(|i| self.col_digit(tiles[i * self.cols + c], c)),
                )
            })
            .sum();
        2 * (rows + cols)
    }
}

impl<C: Capacity, M: Heuristic<C, Memo = ()>> Heuristic<C> for LinearConflict<C, M> {
    type Memo = ();

    fn init(&self, tiles: &C::Tiles) -> (u32, ()) {
        (self.manhattan.init(tiles).0 + self.conflicts(tiles), ())
    }

    #[inline(always)]
    fn update(
        &self,
        tiles: &C::Tiles,
        tile: C::Tile,
        from: usize,
        to: usize,
        h: u32,
        _: (),
    ) -> (u32, ()) {
        let h = self.manhattan.update(tiles, tile, from, to, h, ()).0;
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        let t = C::cell(tile.into());
        let (after, before) = if fr == tr {
            // Horizontal: the tile leaves column fc (its cell there is now the blank's) and
            // enters column tc, at row fr in both.
            let home = self.goal_col[t].into();
            if home == fc {
                self.col_change(tiles, fc, fr, self.goal_row[t].into() as u32)
            } else if home == tc {
                self.col_change(tiles, tc, fr, NONE)
            } else {
                return (h, ());
            }
        } else {
            // Vertical: the tile leaves row fr and enters row tr, at column fc in both.
            let home = self.goal_row[t].into();
            if home == fr {
                self.row_change(tiles, fr, fc, self.goal_col[t].into() as u32)
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
        assert_eq!(lis(&mut []), 0);
        assert_eq!(lis(&mut [3, 2, 1]), 1);
        assert_eq!(lis(&mut [0, 1, 2, 3]), 4);
        assert_eq!(lis(&mut [2, 0, 3, 1]), 2);
        assert_eq!(lis(&mut [1, 3, 0, 2, 4]), 3);
        assert_eq!(lis(&mut [5, 1, 6, 2, 7, 3, 8, 4]), 4);
    }
}
