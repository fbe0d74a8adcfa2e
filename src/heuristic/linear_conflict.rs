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
//! So each move recomputes at most one line, twice (with and without the tile).

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
}

/// No cell is overridden.
const NO_CELL: usize = usize::MAX;

/// The length of a longest strictly increasing subsequence of `seq` (at most 8 entries).
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
        }
    }

    /// Tiles to remove from row `r` so the rest are in goal order; cell `ov_cell` is read as
    /// holding `ov_tile` instead of its content.
    #[inline]
    fn row_removals(&self, tiles: &Tiles, r: usize, ov_cell: usize, ov_tile: u8) -> u32 {
        let mut seq = [0u8; MAX_EXACT_CELLS];
        let mut k = 0;
        let first = r * self.cols;
        for (cell, &here) in tiles.iter().enumerate().skip(first).take(self.cols) {
            let t = if cell == ov_cell { ov_tile } else { here };
            if t != 0 && self.goal_row[t as usize & 63] as usize == r {
                seq[k] = self.goal_col[t as usize & 63];
                k += 1;
            }
        }
        k as u32 - lis(&seq[..k])
    }

    /// As [`Self::row_removals`], for column `c`.
    #[inline]
    fn col_removals(&self, tiles: &Tiles, c: usize, ov_cell: usize, ov_tile: u8) -> u32 {
        let mut seq = [0u8; MAX_EXACT_CELLS];
        let mut k = 0;
        for r in 0..self.rows {
            let cell = r * self.cols + c;
            let t = if cell == ov_cell {
                ov_tile
            } else {
                tiles[cell]
            };
            if t != 0 && self.goal_col[t as usize & 63] as usize == c {
                seq[k] = self.goal_row[t as usize & 63];
                k += 1;
            }
        }
        k as u32 - lis(&seq[..k])
    }

    /// The conflict part alone (the estimate minus Manhattan), from scratch.
    pub fn conflicts(&self, tiles: &Tiles) -> u32 {
        let rows: u32 = (0..self.rows)
            .map(|r| self.row_removals(tiles, r, NO_CELL, 0))
            .sum();
        let cols: u32 = (0..self.cols)
            .map(|c| self.col_removals(tiles, c, NO_CELL, 0))
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
        let mut h = self.manhattan.update(tiles, tile, from, to, h, ()).0;
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        let t = tile as usize & 63;
        if fr == tr {
            // Horizontal: the tile leaves column fc and enters column tc.
            let home = self.goal_col[t] as usize;
            if home == fc {
                let before = self.col_removals(tiles, fc, from, tile);
                let after = self.col_removals(tiles, fc, NO_CELL, 0);
                h = h + 2 * after - 2 * before;
            } else if home == tc {
                let before = self.col_removals(tiles, tc, to, 0);
                let after = self.col_removals(tiles, tc, NO_CELL, 0);
                h = h + 2 * after - 2 * before;
            }
        } else {
            // Vertical: the tile leaves row fr and enters row tr.
            let home = self.goal_row[t] as usize;
            if home == fr {
                let before = self.row_removals(tiles, fr, from, tile);
                let after = self.row_removals(tiles, fr, NO_CELL, 0);
                h = h + 2 * after - 2 * before;
            } else if home == tr {
                let before = self.row_removals(tiles, tr, to, 0);
                let after = self.row_removals(tiles, tr, NO_CELL, 0);
                h = h + 2 * after - 2 * before;
            }
        }
        (h, ())
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
