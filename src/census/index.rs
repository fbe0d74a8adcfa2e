//! A dense index of the solvable positions of one board: `index = block * cells + blank`.
//!
//! The tiles read row by row, skipping the blank, form a permutation `p` of `0..n` (tile `t`
//! is `t - 1`, `n = cells - 1`). A block is the rank of that permutation; moving the blank
//! along its row does not change the reading order, so horizontal moves stay inside one block
//! (the same cache line), and only vertical moves jump. A vertical move carries one tile
//! `cols - 1` places along the reading order, which changes only `cols` Lehmer digits, so the
//! neighbour's rank is an O(cols) update, not a full re-rank.
//!
//! Only solvable positions are indexed. Reachability is fixed by the invariant
//! `inversions(p) + (cols - 1) * blank_row (mod 2)`, so for each blank cell exactly one parity
//! of `p` is solvable. The block therefore ranks only the first `n - 2` entries of `p` (a
//! partial permutation, `n! / 2` values) and the last two entries follow from the parity the
//! blank's row requires. That halves the index: `cells * n! / 2 = cells! / 2` positions.

use crate::board::Goal;

/// The most cells a census board may have: masks of the remaining tiles are `u16`.
pub const MAX_CELLS: usize = 16;

/// Lehmer digits, permutation entries and tile masks of one board size.
#[derive(Debug, Clone)]
pub struct Space {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows * cols`.
    pub cells: usize,
    /// The goal layout (fixes which parity each blank row requires).
    pub goal: Goal,
    /// Tiles, `cells - 1`.
    pub n: usize,
    /// Blocks: `n! / 2`.
    pub blocks: u64,
    /// Positions: `cells! / 2`.
    pub positions: u64,
    /// `weight[i]`: the place value of Lehmer digit `i` (`i < n - 2`) in the block rank.
    weight: [u64; MAX_CELLS],
    /// `parity[c]`: the permutation parity that is solvable with the blank on cell `c`.
    parity: [u8; MAX_CELLS],
}

impl Space {
    /// The index of an `rows` x `cols` board with `goal`. `None` if the board is outside
    /// 2 x 2 ..= [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize, goal: Goal) -> Option<Space> {
        let cells = rows.checked_mul(cols)?;
        if rows < 2 || cols < 2 || cells > MAX_CELLS {
            return None;
        }
        let n = cells - 1;
        let mut weight = [0u64; MAX_CELLS];
        let mut w = 1u64;
        for i in (0..n - 2).rev() {
            weight[i] = w;
            w *= (n - i) as u64;
        }
        let blocks = w;
        let goal_row = match goal {
            Goal::BlankLast => rows - 1,
            Goal::BlankFirst => 0,
        };
        let mut parity = [0u8; MAX_CELLS];
        for (c, p) in parity.iter_mut().enumerate().take(cells) {
            *p = (((cols - 1) * (c / cols + goal_row)) % 2) as u8;
        }
        Some(Space {
            rows,
            cols,
            cells,
            goal,
            n,
            blocks,
            positions: blocks * cells as u64,
            weight,
            parity,
        })
    }

    /// The permutation parity solvable with the blank on `cell`.
    #[inline(always)]
    pub fn parity(&self, cell: usize) -> u8 {
        self.parity[cell & (MAX_CELLS - 1)]
    }

    /// The index of a solvable position given as row-major tiles (0 = blank).
    ///
    /// # Panics
    /// In debug builds, if the position is not solvable for this space's goal.
    pub fn rank(&self, tiles: &[u32]) -> u64 {
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        let mut used = 0u32;
        let mut block = 0u64;
        let mut sum = 0u32;
        for (i, &t) in tiles.iter().filter(|&&t| t != 0).enumerate() {
            let v = t - 1;
            let digit = v - (used & ((1 << v) - 1)).count_ones();
            used |= 1 << v;
            sum += digit;
            if i < self.n - 2 {
                block += u64::from(digit) * self.weight[i];
            }
        }
        debug_assert_eq!((sum % 2) as u8, self.parity(blank), "unsolvable position");
        block * self.cells as u64 + blank as u64
    }

    /// The row-major tiles (0 = blank) of the position at `index`.
    pub fn unrank(&self, index: u64) -> Vec<u32> {
        let mut cursor = Cursor::new(self);
        let block = index / self.cells as u64;
        let blank = (index % self.cells as u64) as usize;
        cursor.seek(self, block);
        let seq = *cursor.sequence(self, blank);
        let mut tiles = Vec::with_capacity(self.cells);
        let mut k = 0;
        for c in 0..self.cells {
            if c == blank {
                tiles.push(0);
            } else {
                tiles.push(u32::from(seq[k]) + 1);
                k += 1;
            }
        }
        tiles
    }
}

/// The `k`-th (0-based) set bit of `mask`.
#[inline(always)]
fn select(mut mask: u32, k: u8) -> u8 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// The permutation of one block, kept while a sweep walks blocks in increasing order: moving
/// to a nearby block changes the last Lehmer digits only, so only the tail is rebuilt.
#[derive(Debug, Clone)]
pub struct Cursor {
    /// The block this cursor describes.
    pub block: u64,
    /// Lehmer digits `0..n - 2`.
    digits: [u8; MAX_CELLS],
    /// `rest[i]`: the entries at positions `>= i` (as a bit mask), for `i <= n - 2`.
    rest: [u32; MAX_CELLS + 1],
    /// The permutation; its last two entries are set per blank by [`Cursor::sequence`].
    seq: [u8; MAX_CELLS],
    /// Parity of the digit sum.
    sum_parity: u8,
}

impl Cursor {
    /// A cursor on block 0.
    pub fn new(space: &Space) -> Cursor {
        let mut c = Cursor {
            block: 0,
            digits: [0; MAX_CELLS],
            rest: [0; MAX_CELLS + 1],
            seq: [0; MAX_CELLS],
            sum_parity: 0,
        };
        c.rest[0] = (1u32 << space.n) - 1;
        c.rebuild(space, 0);
        c
    }

    /// Moves to `block`: digit arithmetic with carries from the last digit when the step is
    /// forward and short (the common case in a sweep), a full conversion otherwise.
    #[inline(always)]
    pub fn seek(&mut self, space: &Space, block: u64) {
        if block == self.block {
            return;
        }
        let last = space.n - 3;
        let first_changed;
        if block > self.block && block - self.block < 1 << 16 {
            let mut carry = block - self.block;
            let mut i = last;
            loop {
                let radix = (space.n - i) as u64;
                let s = u64::from(self.digits[i]) + carry;
                if s < radix {
                    self.digits[i] = s as u8;
                    break;
                }
                self.digits[i] = (s % radix) as u8;
                carry = s / radix;
                i -= 1;
            }
            first_changed = i;
        } else {
            let mut r = block;
            for i in (0..=last).rev() {
                let radix = (space.n - i) as u64;
                self.digits[i] = (r % radix) as u8;
                r /= radix;
            }
            first_changed = 0;
        }
        self.block = block;
        self.rebuild(space, first_changed);
    }

    /// Recomputes the permutation from digit `from` on.
    #[inline(always)]
    fn rebuild(&mut self, space: &Space, from: usize) {
        let m = space.n - 2;
        for i in from..m {
            let v = select(self.rest[i], self.digits[i]);
            self.seq[i] = v;
            self.rest[i + 1] = self.rest[i] & !(1 << v);
        }
        let mut s = 0u32;
        for &d in &self.digits[..m] {
            s += u32::from(d);
        }
        self.sum_parity = (s & 1) as u8;
    }

    /// Sets the last two entries of the permutation for the blank on `blank` (in the order
    /// that gives the parity that blank's row requires) and returns the permutation. Written
    /// in place, byte by byte, so that later byte reads forward from the stores.
    #[inline(always)]
    pub fn sequence(&mut self, space: &Space, blank: usize) -> &[u8; MAX_CELLS] {
        let m = space.n - 2;
        let two = self.rest[m];
        let a = two.trailing_zeros() as u8;
        let b = (31 - two.leading_zeros()) as u8;
        let keep = self.sum_parity == space.parity(blank);
        self.seq[m] = if keep { a } else { b };
        self.seq[m + 1] = if keep { b } else { a };
        &self.seq
    }

    /// The block of the position reached when the blank on `blank` swaps with the tile on
    /// `blank + cols` (`down`) or `blank - cols`; [`Cursor::sequence`] must have been called
    /// for `blank`.
    ///
    /// In reading order the moving tile jumps over the `cols - 1` tiles between: the window of
    /// `cols` entries starting at `start` rotates by one. Digits outside the window keep their
    /// values (the set of entries after them is unchanged), so only the window's digits are
    /// recomputed, counting smaller entries among the window's later ones and the entries after
    /// it.
    #[inline(always)]
    pub fn vertical(&self, space: &Space, blank: usize, down: bool) -> u64 {
        let seq = &self.seq;
        let cols = space.cols;
        let start = if down { blank } else { blank - cols };
        let end = start + cols; // <= n
        let m = space.n - 2;
        let mut after: u32 = if end <= m {
            self.rest[end]
        } else if end == m + 1 {
            1 << seq[(m + 1) & (MAX_CELLS - 1)]
        } else {
            0
        };
        let mut block = self.block as i64;
        for k in (0..cols).rev() {
            let i = start + k;
            // The entry at window place k after the move.
            let from = if down {
                if k == 0 { end - 1 } else { start + k - 1 }
            } else if k == cols - 1 {
                start
            } else {
                start + k + 1
            };
            let v = seq[from & (MAX_CELLS - 1)];
            if i < m {
                let digit = (after & ((1u32 << v) - 1)).count_ones() as i64;
                block += (digit - i64::from(self.digits[i & (MAX_CELLS - 1)]))
                    * space.weight[i & (MAX_CELLS - 1)] as i64;
            }
            after |= 1 << v;
        }
        block as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move};

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst] {
                let s = Space::new(r, c, goal).unwrap();
                let mut seen = vec![false; s.positions as usize];
                for i in 0..s.positions {
                    let tiles = s.unrank(i);
                    let b = Board::new(r, c, tiles.clone()).unwrap();
                    assert!(b.check_solvable(goal).is_ok(), "{r}x{c} {goal} {i}");
                    let j = s.rank(&tiles);
                    assert_eq!(i, j);
                    assert!(!seen[j as usize]);
                    seen[j as usize] = true;
                }
            }
        }
    }

    #[test]
    fn vertical_update_matches_a_full_rank() {
        for (r, c) in [(2, 3), (3, 3), (3, 4), (4, 2), (2, 6)] {
            let s = Space::new(r, c, Goal::BlankLast).unwrap();
            let mut cursor = Cursor::new(&s);
            let step = (s.positions / 5000).max(1);
            let mut i = 0;
            while i < s.positions {
                let block = i / s.cells as u64;
                let blank = (i % s.cells as u64) as usize;
                cursor.seek(&s, block);
                cursor.sequence(&s, blank);
                let b = Board::new(r, c, s.unrank(i)).unwrap();
                for (m, down) in [(Move::Down, true), (Move::Up, false)] {
                    if let Some(nb) = b.moved(m) {
                        let want = s.rank(nb.tiles());
                        let got =
                            cursor.vertical(&s, blank, down) * s.cells as u64 + nb.blank() as u64;
                        assert_eq!(got, want, "{r}x{c} index {i} move {m:?}");
                    }
                }
                i += step;
            }
        }
    }
}
