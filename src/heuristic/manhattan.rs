//! Manhattan distance with a per-(tile, cell) table, so a move costs two loads.

use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};

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
