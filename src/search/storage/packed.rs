//! Compact positions for the searches that store states (A*, Dijkstra, BFS).
//!
//! The state type is fitted to the board: 4 bits a cell in a `u64` up to 16 cells (the 4 x 4
//! in 8 bytes), 5 bits a cell in a `u128` up to 25 cells, a byte a cell beyond (in 40, 56 or 64 bytes). A move changes
//! two cells, so a child's packed form is derived from its parent's with two field writes
//! rather than repacked.
//!
//! Boards of more than 64 cells ([`Large`] capacities) store their compact position itself,
//! `[T; N]`: a byte a cell up to 256 cells, two beyond.

use std::cmp::Ordering;
use std::hash::{BuildHasher, Hash};

use rustc_hash::FxBuildHasher;

use crate::geometry::{Capacity, Large, MAX_EXACT_CELLS, Small, TileInt, Tiles};

/// A position of capacity `C` packed into a fixed-size value that can be hashed and compared.
pub trait Packed<C: Capacity = Small>: Copy + Eq + Hash {
    /// The most cells this type holds.
    const MAX_CELLS: usize;
    /// Packs the first `cells` entries of `tiles`.
    fn pack(tiles: &C::Tiles, cells: usize) -> Self;
    /// Unpacks into a compact position.
    fn unpack(&self, cells: usize) -> C::Tiles;
    /// The value after `tile` moved from cell `from` to the blank's cell `to`.
    fn moved(self, from: usize, to: usize, tile: C::Tile) -> Self;
    /// The tile on `cell`.
    #[inline]
    fn tile(&self, cell: usize) -> C::Tile {
        self.unpack(cell + 1)[cell]
    }
    /// The blank's cell.
    #[inline]
    fn blank(&self, cells: usize) -> usize {
        let t = self.unpack(cells);
        t.as_ref()[..cells]
            .iter()
            .position(|&x| x == C::Tile::default())
            .unwrap_or(0)
    }
    /// Compares two positions by their tiles read from the last cell down to the first: the
    /// order of the layered BFS (for the integer packings, the order of the values).
    #[inline]
    fn cmp_from_last_cell(&self, other: &Self) -> Ordering {
        let (a, b) = (self.unpack(Self::MAX_CELLS), other.unpack(Self::MAX_CELLS));
        a.as_ref().iter().rev().cmp(b.as_ref().iter().rev())
    }
    /// A fast, well-mixed hash (FxHash).
    #[inline]
    fn hash64(&self) -> u64 {
        FxBuildHasher.hash_one(self)
    }
}

impl Packed for u64 {
    const MAX_CELLS: usize = 16;
    #[inline]
    fn pack(tiles: &Tiles, cells: usize) -> u64 {
        (0..cells).fold(0, |acc, c| acc | u64::from(tiles[c]) << (4 * c))
    }
    #[inline]
    fn unpack(&self, cells: usize) -> Tiles {
        let mut t = [0u8; MAX_EXACT_CELLS];
        for (c, slot) in t.iter_mut().enumerate().take(cells) {
            *slot = ((self >> (4 * c)) & 0xF) as u8;
        }
        t
    }
    #[inline]
    fn moved(self, from: usize, to: usize, tile: u8) -> u64 {
        (self & !(0xF << (4 * from))) | u64::from(tile) << (4 * to)
    }
    #[inline]
    fn tile(&self, cell: usize) -> u8 {
        ((self >> (4 * cell)) & 0xF) as u8
    }
    #[inline]
    fn cmp_from_last_cell(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    /// The one all-zero nibble among the first `cells`, found without a loop.
    #[inline]
    fn blank(&self, cells: usize) -> usize {
        const LOW_BITS: u64 = 0x1111_1111_1111_1111;
        let mut y = self | (self >> 1);
        y |= y >> 2;
        let used = if cells >= 16 {
            u64::MAX
        } else {
            (1u64 << (4 * cells)) - 1
        };
        let zero = !y & LOW_BITS & used;
        (zero.trailing_zeros() / 4) as usize
    }
}

impl Packed for u128 {
    const MAX_CELLS: usize = 25;
    #[inline]
    fn pack(tiles: &Tiles, cells: usize) -> u128 {
        (0..cells).fold(0, |acc, c| acc | u128::from(tiles[c]) << (5 * c))
    }
    #[inline]
    fn unpack(&self, cells: usize) -> Tiles {
        let mut t = [0u8; MAX_EXACT_CELLS];
        for (c, slot) in t.iter_mut().enumerate().take(cells) {
            *slot = ((self >> (5 * c)) & 0x1F) as u8;
        }
        t
    }
    #[inline]
    fn moved(self, from: usize, to: usize, tile: u8) -> u128 {
        (self & !(0x1F << (5 * from))) | u128::from(tile) << (5 * to)
    }
    #[inline]
    fn tile(&self, cell: usize) -> u8 {
        ((self >> (5 * cell)) & 0x1F) as u8
    }
    #[inline]
    fn cmp_from_last_cell(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    /// The one all-zero 5-bit field among the first `cells`, found without a loop.
    #[inline]
    fn blank(&self, cells: usize) -> usize {
        // Bit 5i set for every field i < 25.
        const LOW_BITS: u128 = {
            let mut m = 0u128;
            let mut i = 0;
            while i < 25 {
                m |= 1 << (5 * i);
                i += 1;
            }
            m
        };
        let y = self | (self >> 1) | (self >> 2) | (self >> 3) | (self >> 4);
        let used = (1u128 << (5 * cells)) - 1;
        let zero = !y & LOW_BITS & used;
        (zero.trailing_zeros() / 5) as usize
    }
}

/// A byte a cell, `W` words: for boards of more than 25 cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const W: usize>([u64; W]);

impl<const W: usize> Packed for Wide<W> {
    const MAX_CELLS: usize = 8 * W;
    #[inline]
    fn pack(tiles: &Tiles, cells: usize) -> Self {
        let mut w = [0u64; W];
        for c in 0..cells {
            w[c / 8] |= u64::from(tiles[c]) << (8 * (c % 8));
        }
        Wide(w)
    }
    #[inline]
    fn unpack(&self, cells: usize) -> Tiles {
        let mut t = [0u8; MAX_EXACT_CELLS];
        for (c, slot) in t.iter_mut().enumerate().take(cells) {
            *slot = (self.0[c / 8] >> (8 * (c % 8))) as u8;
        }
        t
    }
    #[inline]
    fn moved(mut self, from: usize, to: usize, tile: u8) -> Self {
        self.0[from / 8] &= !(0xFF << (8 * (from % 8)));
        self.0[to / 8] |= u64::from(tile) << (8 * (to % 8));
        self
    }
    #[inline]
    fn tile(&self, cell: usize) -> u8 {
        (self.0[cell / 8] >> (8 * (cell % 8))) as u8
    }
    /// Words from the last, each compared as a number (its last cell in the top byte).
    #[inline]
    fn cmp_from_last_cell(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

/// A large board's position is its own packed form.
impl<T: TileInt, const N: usize> Packed<Large<T, N>> for [T; N] {
    const MAX_CELLS: usize = N;
    #[inline]
    fn pack(tiles: &[T; N], _: usize) -> Self {
        *tiles
    }
    #[inline]
    fn unpack(&self, _: usize) -> [T; N] {
        *self
    }
    #[inline]
    fn moved(mut self, from: usize, to: usize, tile: T) -> Self {
        self[from] = T::default();
        self[to] = tile;
        self
    }
    #[inline]
    fn tile(&self, cell: usize) -> T {
        self[cell]
    }
    #[inline]
    fn cmp_from_last_cell(&self, other: &Self) -> Ordering {
        self.iter().rev().cmp(other.iter().rev())
    }
}

/// Calls `$body` with the type alias `$p` set to the smallest [`Packed`] type for `$cells`
/// cells: the one place where a job's state type is chosen.
#[macro_export]
#[doc(hidden)]
macro_rules! with_packed {
    ($cells:expr, $p:ident => $body:expr) => {{
        let cells = $cells;
        if cells <= 16 {
            type $p = u64;
            $body
        } else if cells <= 25 {
            type $p = u128;
            $body
        } else if cells <= 40 {
            type $p = $crate::search::packed::Wide<5>;
            $body
        } else if cells <= 56 {
            type $p = $crate::search::packed::Wide<7>;
            $body
        } else {
            type $p = $crate::search::packed::Wide<8>;
            $body
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<P: Packed + std::fmt::Debug>(cells: usize) {
        let mut tiles = [0u8; MAX_EXACT_CELLS];
        for (c, t) in tiles.iter_mut().enumerate().take(cells) {
            *t = ((c * 7 + 3) % cells) as u8;
        }
        check_round_trip::<Small, P>(tiles, cells);
    }

    fn check_round_trip<C: Capacity, P: Packed<C> + std::fmt::Debug>(
        tiles: C::Tiles,
        cells: usize,
    ) {
        let zero = C::Tile::default();
        let p = P::pack(&tiles, cells);
        assert_eq!(p.unpack(cells), tiles);
        // Move the tile in cell 1 onto the blank's cell.
        let blank = tiles
            .as_ref()
            .iter()
            .take(cells)
            .position(|&t| t == zero)
            .unwrap();
        let from = if blank == 1 { 2 } else { 1 };
        let tile = tiles[from];
        let mut after = tiles;
        after[blank] = tile;
        after[from] = zero;
        assert_eq!(p.moved(from, blank, tile), P::pack(&after, cells));
        assert_eq!(p.blank(cells), blank);
        for (c, &t) in tiles.as_ref().iter().enumerate().take(cells) {
            assert_eq!(p.tile(c), t);
        }
        assert_eq!(P::pack(&after, cells).blank(cells), from);
    }

    fn large_round_trip<T: TileInt, const N: usize>(cells: usize) {
        let mut tiles = [T::default(); N];
        for (c, t) in tiles.iter_mut().enumerate().take(cells) {
            *t = T::from_index((c * 7 + 3) % cells);
        }
        check_round_trip::<Large<T, N>, [T; N]>(tiles, cells);
    }

    /// Every packing orders positions as their tiles read from the last cell down.
    #[test]
    fn packings_order_from_the_last_cell() {
        let mut seed = 7u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for cells in [9, 16, 25, 36, 49, 64] {
            for _ in 0..200 {
                let mut a = [0u8; MAX_EXACT_CELLS];
                let mut b = [0u8; MAX_EXACT_CELLS];
                for c in 0..cells {
                    a[c] = next(cells as u64) as u8;
                    // Often equal, so that ties and late differences are exercised.
                    b[c] = if next(3) == 0 {
                        next(cells as u64) as u8
                    } else {
                        a[c]
                    };
                }
                let want = a[..cells].iter().rev().cmp(b[..cells].iter().rev());
                fn cmp<P: Packed>(a: &Tiles, b: &Tiles, cells: usize) -> Ordering {
                    P::pack(a, cells).cmp_from_last_cell(&P::pack(b, cells))
                }
                if cells <= 16 {
                    assert_eq!(cmp::<u64>(&a, &b, cells), want);
                }
                if cells <= 25 {
                    assert_eq!(cmp::<u128>(&a, &b, cells), want);
                }
                if cells <= 40 {
                    assert_eq!(cmp::<Wide<5>>(&a, &b, cells), want);
                }
                if cells <= 56 {
                    assert_eq!(cmp::<Wide<7>>(&a, &b, cells), want);
                }
                assert_eq!(cmp::<Wide<8>>(&a, &b, cells), want);
                let mut la = [0u16; 128];
                let mut lb = [0u16; 128];
                for c in 0..cells {
                    la[c] = u16::from(a[c]);
                    lb[c] = u16::from(b[c]);
                }
                assert_eq!(la.cmp_from_last_cell(&lb), want);
            }
        }
    }

    #[test]
    fn every_packing_round_trips() {
        round_trip::<u64>(16);
        round_trip::<u64>(9);
        round_trip::<u128>(25);
        round_trip::<Wide<5>>(36);
        round_trip::<Wide<7>>(55);
        round_trip::<Wide<8>>(64);
        large_round_trip::<u8, 128>(81);
        large_round_trip::<u8, 256>(256);
        large_round_trip::<u16, 1024>(900);
    }
}
