//! Misplaced tiles: the weakest classic heuristic, kept as a baseline.

use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};

use super::Heuristic;

/// The number of tiles (blank excluded) not on their goal cell.
#[derive(Debug, Clone)]
pub struct Misplaced {
    cells: usize,
    goal_cell: [u8; MAX_EXACT_CELLS],
}

impl Misplaced {
    /// Tables for `g`.
    pub fn new(g: &Geometry) -> Misplaced {
        Misplaced {
            cells: g.cells,
            goal_cell: g.goal_cell,
        }
    }

    #[inline]
    fn out_of_place(&self, t: u8, c: usize) -> u32 {
        u32::from(t != 0 && self.goal_cell[t as usize & 63] as usize != c)
    }
}

impl Heuristic for Misplaced {
    type Memo = ();
    const READS_TILES: bool = false;

    fn init(&self, tiles: &Tiles) -> (u32, ()) {
        let h = (0..self.cells)
            .map(|c| self.out_of_place(tiles[c], c))
            .sum();
        (h, ())
    }

    #[inline(always)]
    fn update(&self, _: &Tiles, tile: u8, from: usize, to: usize, h: u32, _: ()) -> (u32, ()) {
        (
            h + self.out_of_place(tile, to) - self.out_of_place(tile, from),
            (),
        )
    }
}
