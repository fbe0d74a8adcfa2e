//! Manhattan distance: with a per-(tile, cell) table on boards of at most 64 cells, so a
//! move costs two loads ([`Manhattan`]); from the cells' coordinates on larger boards, where
//! such a table would grow with the square of the cells ([`GridManhattan`]).

use crate::geometry::{Capacity, Geometry, MAX_EXACT_CELLS, Tiles};

use super::Heuristic;

/// Sum over tiles of the grid distance to their goal cells.
#[derive(Debug, Clone)]
pub struct Manhattan {
    cells: usize,
    /// `dist[t][c]`: distance of tile `t` on cell `c` from its goal cell (0 for the blank).
    dist: Box<[[u8; MAX_EXACT_CELLS]; MAX_EXACT_CELLS]>,
}

impl Manhattan {
    /// Tables for `g`.
    pub fn new(g: &Geometry) -> Manhattan {
        let mut dist = Box::new([[0u8; MAX_EXACT_CELLS]; MAX_EXACT_CELLS]);
        for t in 1..g.cells {
            let gc = g.goal_cell[t] as usize;
            for c in 0..g.cells {
                dist[t][c] = (g.row(c).abs_diff(g.row(gc)) + g.col(c).abs_diff(g.col(gc))) as u8;
            }
        }
        Manhattan {
            cells: g.cells,
            dist,
        }
    }

    /// The distance of tile `t` on cell `c` from its goal.
    #[inline]
    pub fn tile_distance(&self, t: u8, c: usize) -> u32 {
        u32::from(self.dist[t as usize & 63][c & 63])
    }
}

impl Heuristic for Manhattan {
    type Memo = ();
    const READS_TILES: bool = false;

    fn init(&self, tiles: &Tiles) -> (u32, ()) {
        let h = (0..self.cells)
            .map(|c| self.tile_distance(tiles[c], c))
            .sum();
        (h, ())
    }

    #[inline(always)]
    fn update(&self, _: &Tiles, tile: u8, from: usize, to: usize, h: u32, _: ()) -> (u32, ()) {
        (
            h + self.tile_distance(tile, to) - self.tile_distance(tile, from),
            (),
        )
    }
}

/// Manhattan distance on boards of any size: each tile's goal row and column and each cell's
/// row and column in tables, so a move costs a few loads and no division.
#[derive(Debug, Clone)]
pub struct GridManhattan<C: Capacity> {
    cells: usize,
    goal_row: C::Table<u16>,
    goal_col: C::Table<u16>,
    row: C::Table<u16>,
    col: C::Table<u16>,
}

impl<C: Capacity> GridManhattan<C> {
    /// Tables for `g`.
    pub fn new(g: &Geometry<C>) -> GridManhattan<C> {
        let mut m = GridManhattan::<C> {
            cells: g.cells,
            goal_row: C::table(g.cells, 0u16),
            goal_col: C::table(g.cells, 0u16),
            row: C::table(g.cells, 0u16),
            col: C::table(g.cells, 0u16),
        };
        for c in 0..g.cells {
            m.row[c] = g.row(c) as u16;
            m.col[c] = g.col(c) as u16;
        }
        for t in 1..g.cells {
            let gc = g.goal_cell[t].into();
            m.goal_row[t] = g.row(gc) as u16;
            m.goal_col[t] = g.col(gc) as u16;
        }
        m
    }

    /// The distance of tile `t` (not the blank) on cell `c` from its goal.
    #[inline]
    fn tile_distance(&self, t: usize, c: usize) -> u32 {
        u32::from(self.row[c].abs_diff(self.goal_row[t]) + self.col[c].abs_diff(self.goal_col[t]))
    }
}

impl<C: Capacity> Heuristic<C> for GridManhattan<C> {
    type Memo = ();
    const READS_TILES: bool = false;

    fn init(&self, tiles: &C::Tiles) -> (u32, ()) {
        let h = (0..self.cells)
            .filter(|&c| tiles[c].into() != 0)
            .map(|c| self.tile_distance(tiles[c].into(), c))
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
        let t = tile.into();
        (
            h + self.tile_distance(t, to) - self.tile_distance(t, from),
            (),
        )
    }
}
