//! Precomputed facts about one board size and goal, shared by heuristics and searches so that
//! the inner loops only index small tables.

use crate::board::{Board, Goal, Move};

/// The largest board (in cells) the exact searches accept: 8 x 8.
pub const MAX_EXACT_CELLS: usize = 64;

/// The compact position the exact searches work on: one byte per cell, at most 64 cells.
pub type Tiles = [u8; MAX_EXACT_CELLS];

/// Board size, goal layout and successor lists for the exact searches.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows * cols` (at most 64).
    pub cells: usize,
    /// The goal layout.
    pub goal: Goal,
    /// `goal_cell[t]`: where tile `t` belongs.
    pub goal_cell: [u8; MAX_EXACT_CELLS],
    /// `neighbours[c][..neighbour_count[c]]`: cells the blank can reach from `c`, in Korf's
    /// order (up, left, right, down).
    pub neighbours: [[u8; 4]; MAX_EXACT_CELLS],
    /// How many entries of `neighbours[c]` are used.
    pub neighbour_count: [u8; MAX_EXACT_CELLS],
    /// The move that takes the blank from `c` to `neighbours[c][k]`.
    pub neighbour_move: [[Move; 4]; MAX_EXACT_CELLS],
}

impl Geometry {
    /// Tables for a `rows` x `cols` board (at most 64 cells) and `goal`.
    pub fn new(rows: usize, cols: usize, goal: Goal) -> Geometry {
        let cells = rows * cols;
        assert!(
            cells <= MAX_EXACT_CELLS,
            "exact searches take at most 64 cells"
        );
        let mut g = Geometry {
            rows,
            cols,
            cells,
            goal,
            goal_cell: [0; MAX_EXACT_CELLS],
            neighbours: [[0; 4]; MAX_EXACT_CELLS],
            neighbour_count: [0; MAX_EXACT_CELLS],
            neighbour_move: [[Move::Up; 4]; MAX_EXACT_CELLS],
        };
        for t in 0..cells {
            g.goal_cell[t] = goal.cell_of(t, cells) as u8;
        }
        for c in 0..cells {
            let mut k = 0;
            for m in Move::KORF_ORDER {
                if let Some(to) = m.target(c, rows, cols) {
                    g.neighbours[c][k] = to as u8;
                    g.neighbour_move[c][k] = m;
                    k += 1;
                }
            }
            g.neighbour_count[c] = k as u8;
        }
        g
    }

    /// The goal position in compact form.
    pub fn goal_tiles(&self) -> Tiles {
        let mut t = [0u8; MAX_EXACT_CELLS];
        for (c, slot) in t.iter_mut().enumerate().take(self.cells) {
            *slot = self.goal.tile_at(c, self.cells) as u8;
        }
        t
    }

    /// Copies a board into compact form.
    ///
    /// # Panics
    /// If the board is not of this geometry's size.
    pub fn compact_tiles(&self, board: &Board) -> Tiles {
        assert_eq!((board.rows(), board.cols()), (self.rows, self.cols));
        let mut t = [0u8; MAX_EXACT_CELLS];
        for (slot, &v) in t.iter_mut().zip(board.tiles()) {
            *slot = v as u8;
        }
        t
    }

    /// Whether a compact position is the goal.
    #[inline]
    pub fn is_goal(&self, tiles: &Tiles) -> bool {
        (0..self.cells).all(|c| self.goal_cell[tiles[c] as usize] as usize == c)
    }

    /// The blank's cell in a compact position.
    #[inline]
    pub fn blank_of(&self, tiles: &Tiles) -> usize {
        tiles[..self.cells]
            .iter()
            .position(|&t| t == 0)
            .expect("a position has a blank")
    }

    /// The move that takes the blank from `from` to the adjacent cell `to`.
    pub fn move_between(&self, from: usize, to: usize) -> Move {
        let k = self.neighbours[from][..self.neighbour_count[from] as usize]
            .iter()
            .position(|&n| n as usize == to)
            .expect("cells are adjacent");
        self.neighbour_move[from][k]
    }

    /// Row of a cell.
    #[inline]
    pub fn row(&self, cell: usize) -> usize {
        cell / self.cols
    }

    /// Column of a cell.
    #[inline]
    pub fn col(&self, cell: usize) -> usize {
        cell % self.cols
    }
}
