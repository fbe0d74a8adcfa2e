//! Misplaced tiles: the weakest classic heuristic, kept as a baseline.

use crate::geometry::{Capacity, Geometry, Small};

use super::Heuristic;

/// The number of tiles (blank excluded) not on their goal cell.
#[derive(Debug, Clone)]
pub struct Misplaced<C: Capacity = Small> {
    cells: usize,
    goal_cell: C::Table<C::Tile>,
}

impl<C: Capacity> Misplaced<C> {
    /// Tables for `g`.
    pub fn new(g: &Geometry<C>) -> Misplaced<C> {
        Misplaced {
            cells: g.cells,
            goal_cell: g.goal_cell.clone(),
        }
    }

    #[inline]
    fn out_of_place(&self, t: C::Tile, c: usize) -> u32 {
        let t: usize = t.into();
        u32::from(t != 0 && self.goal_cell[C::cell(t)].into() != c)
    }
}

impl<C: Capacity> Heuristic<C> for Misplaced<C> {
    type Memo = ();
    const READS_TILES: bool = false;

    fn init(&self, tiles: &C::Tiles) -> (u32, ()) {
        let h = (0..self.cells)
            .map(|c| self.out_of_place(tiles[c], c))
            .sum();
        (h, ())
    }

    #[inline(always)]
    fn update(
        &self,
        _: &C::Tiles,
        tile: C::Tile,
        from: usize,
        to: usize,
        h: u32,
        _: (),
    ) -> (u32, ()) {
        (
            h + self.out_of_place(tile, to) - self.out_of_place(tile, from),
            (),
        )
    }
}
