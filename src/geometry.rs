//! Precomputed facts about one board size and goal, shared by heuristics and searches so that
//! the inner loops only index small tables.
//!
//! # Capacities: one search code, two storage classes
//! The exact searches are generic over a [`Capacity`], which fixes at compile time how a
//! position and the per-cell tables are stored:
//! - [`Small`] (at most 64 cells, up to 8 x 8): a position is `[u8; 64]` and every table an
//!   inline array, indices masked with `& 63` so that the compiler drops bounds checks. This
//!   is the hot path (Korf's 15- and 24-puzzles), unchanged by the general one.
//! - [`Large<T, N>`] (more than 64 cells): a position is `[T; N]` (`u8` tiles up to 256
//!   cells, `u16` beyond), `N` the smallest bucket that holds the board (see
//!   [`with_large_capacity!`](crate::with_large_capacity)), and the per-cell tables live on
//!   the heap, sized to the board.
//!
//! A job picks its capacity once (in `search::solve`); everything below is monomorphised for
//! it, so no per-node code asks which one it has.

use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use crate::board::{Board, Goal, Move};

/// The largest board (in cells) of the [`Small`] capacity: 8 x 8.
pub const MAX_EXACT_CELLS: usize = 64;

/// The largest board (in cells) the exact searches accept (the largest [`Large`] bucket):
/// 64 x 64, or any R x C with R C <= 4096.
pub const MAX_LARGE_CELLS: usize = 4096;

/// The compact position of the [`Small`] capacity: one byte per cell, at most 64 cells.
pub type Tiles = [u8; MAX_EXACT_CELLS];

/// A tile number, also used for cell indices in the tables: `u8` or `u16`.
pub trait TileInt:
    Copy + Eq + Ord + Hash + Debug + Default + Into<usize> + Send + Sync + 'static
{
    /// `i` as a tile (`i` fits: the capacity was chosen for the board).
    fn from_index(i: usize) -> Self;
    /// The tiles as bytes, when a tile is one (what a caller's function sees, see
    /// `heuristic::custom`).
    fn as_bytes(tiles: &[Self]) -> Option<&[u8]>;
}

impl TileInt for u8 {
    #[inline(always)]
    fn from_index(i: usize) -> u8 {
        i as u8
    }
    #[inline(always)]
    fn as_bytes(tiles: &[u8]) -> Option<&[u8]> {
        Some(tiles)
    }
}

impl TileInt for u16 {
    #[inline(always)]
    fn from_index(i: usize) -> u16 {
        i as u16
    }
    #[inline(always)]
    fn as_bytes(_: &[u16]) -> Option<&[u8]> {
        None
    }
}

/// How positions and per-cell tables of one class of board sizes are stored (see the module
/// documentation).
pub trait Capacity: Sized + Send + Sync + 'static {
    /// A tile or cell number.
    type Tile: TileInt;
    /// A position: `tiles[c]` is the tile on cell `c` (0 the blank); entries from the board's
    /// cell count on are 0.
    type Tiles: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Send
        + Sync
        + AsRef<[Self::Tile]>
        + AsMut<[Self::Tile]>
        + Index<usize, Output = Self::Tile>
        + IndexMut<usize>;
    /// A table with one `X` per cell (or per tile).
    type Table<X: Copy + Debug + Send + Sync + 'static>: Clone
        + Debug
        + Send
        + Sync
        + Index<usize, Output = X>
        + IndexMut<usize>;
    /// The most cells a board of this capacity has.
    const MAX_CELLS: usize;
    /// The all-zero position.
    fn zero_tiles() -> Self::Tiles;
    /// A table for `cells` cells, filled with `x`.
    fn table<X: Copy + Debug + Send + Sync + 'static>(cells: usize, x: X) -> Self::Table<X>;
    /// `c` (a cell below [`Capacity::MAX_CELLS`]) reduced so that the compiler can see it is
    /// in bounds of an inline table: `c & 63` for [`Small`], `c` for [`Large`].
    fn cell(c: usize) -> usize;
}

/// Boards of at most 64 cells: inline arrays (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Small;

impl Capacity for Small {
    type Tile = u8;
    type Tiles = Tiles;
    type Table<X: Copy + Debug + Send + Sync + 'static> = [X; MAX_EXACT_CELLS];
    const MAX_CELLS: usize = MAX_EXACT_CELLS;
    #[inline(always)]
    fn zero_tiles() -> Tiles {
        [0; MAX_EXACT_CELLS]
    }
    fn table<X: Copy + Debug + Send + Sync + 'static>(_: usize, x: X) -> [X; MAX_EXACT_CELLS] {
        [x; MAX_EXACT_CELLS]
    }
    #[inline(always)]
    fn cell(c: usize) -> usize {
        c & (MAX_EXACT_CELLS - 1)
    }
}

/// Boards of more than 64 and at most `N` cells, tiles of type `T` (see the module
/// documentation).
#[derive(Debug, Clone, Copy)]
pub struct Large<T, const N: usize>(PhantomData<T>);

impl<T: TileInt, const N: usize> Capacity for Large<T, N> {
    type Tile = T;
    type Tiles = [T; N];
    type Table<X: Copy + Debug + Send + Sync + 'static> = Vec<X>;
    const MAX_CELLS: usize = N;
    #[inline(always)]
    fn zero_tiles() -> [T; N] {
        [T::default(); N]
    }
    fn table<X: Copy + Debug + Send + Sync + 'static>(cells: usize, x: X) -> Vec<X> {
        vec![x; cells]
    }
    #[inline(always)]
    fn cell(c: usize) -> usize {
        c
    }
}

/// Calls `$body` with the type alias `$c` set to the [`Large`] capacity for a board of
/// `$cells` cells (65 to [`MAX_LARGE_CELLS`]): the one place where the bucket sizes are
/// chosen. Buckets of one-byte tiles double (128, 256 cells), so such a position takes at most
/// twice its cells' bytes; those of two-byte tiles quadruple (1024, 4096), at most four times:
/// every bucket is a copy of each search and heuristic in the binary, and boards past 256
/// cells are rare enough not to pay for two more (about a tenth of the library's compile).
#[macro_export]
#[doc(hidden)]
macro_rules! with_large_capacity {
    ($cells:expr, $c:ident => $body:expr) => {{
        let cells = $cells;
        if cells <= 128 {
            type $c = $crate::geometry::Large<u8, 128>;
            $body
        } else if cells <= 256 {
            type $c = $crate::geometry::Large<u8, 256>;
            $body
        } else if cells <= 1024 {
            type $c = $crate::geometry::Large<u16, 1024>;
            $body
        } else {
            assert!(cells <= $crate::geometry::MAX_LARGE_CELLS);
            type $c = $crate::geometry::Large<u16, 4096>;
            $body
        }
    }};
}

/// Board size, goal layout and successor lists for the exact searches.
#[derive(Debug, Clone)]
pub struct Geometry<C: Capacity = Small> {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows * cols` (at most `C::MAX_CELLS`).
    pub cells: usize,
    /// The goal layout.
    pub goal: Goal,
    /// `goal_cell[t]`: where tile `t` belongs.
    pub goal_cell: C::Table<C::Tile>,
    /// `neighbours[c][..neighbour_count[c]]`: cells the blank can reach from `c`, in Korf's
    /// order (up, left, right, down).
    pub neighbours: C::Table<[C::Tile; 4]>,
    /// How many entries of `neighbours[c]` are used.
    pub neighbour_count: C::Table<u8>,
    /// The move that takes the blank from `c` to `neighbours[c][k]`.
    pub neighbour_move: C::Table<[Move; 4]>,
}

impl Geometry<Small> {
    /// Tables for a `rows` x `cols` board (at most 64 cells) and `goal`.
    pub fn new(rows: usize, cols: usize, goal: Goal) -> Geometry {
        Geometry::build(rows, cols, goal)
    }
}

impl<C: Capacity> Geometry<C> {
    /// Tables for a `rows` x `cols` board (at most `C::MAX_CELLS` cells) and `goal`.
    pub fn build(rows: usize, cols: usize, goal: Goal) -> Geometry<C> {
        let cells = rows * cols;
        assert!(
            cells <= C::MAX_CELLS,
            "a {rows} x {cols} board does not fit a capacity of {} cells",
            C::MAX_CELLS
        );
        let zero = C::Tile::default();
        let mut g = Geometry::<C> {
            rows,
            cols,
            cells,
            goal,
            goal_cell: C::table(cells, zero),
            neighbours: C::table(cells, [zero; 4]),
            neighbour_count: C::table(cells, 0),
            neighbour_move: C::table(cells, [Move::Up; 4]),
        };
        for t in 0..cells {
            g.goal_cell[t] = C::Tile::from_index(goal.cell_of(t, cells));
        }
        for c in 0..cells {
            let mut k = 0;
            for m in Move::KORF_ORDER {
                if let Some(to) = m.target(c, rows, cols) {
                    g.neighbours[c][k] = C::Tile::from_index(to);
                    g.neighbour_move[c][k] = m;
                    k += 1;
                }
            }
            g.neighbour_count[c] = k as u8;
        }
        g
    }

    /// The goal position in compact form.
    pub fn goal_tiles(&self) -> C::Tiles {
        let mut t = C::zero_tiles();
        for c in 0..self.cells {
            t[c] = C::Tile::from_index(self.goal.tile_at(c, self.cells));
        }
        t
    }

    /// Copies a board into compact form.
    ///
    /// # Panics
    /// If the board is not of this geometry's size.
    pub fn compact_tiles(&self, board: &Board) -> C::Tiles {
        assert_eq!((board.rows(), board.cols()), (self.rows, self.cols));
        let mut t = C::zero_tiles();
        for (slot, &v) in t.as_mut().iter_mut().zip(board.tiles()) {
            *slot = C::Tile::from_index(v as usize);
        }
        t
    }

    /// Whether a compact position is the goal.
    #[inline]
    pub fn is_goal(&self, tiles: &C::Tiles) -> bool {
        (0..self.cells).all(|c| self.goal_cell[tiles[c].into()].into() == c)
    }

    /// The blank's cell in a compact position.
    #[inline]
    pub fn blank_of(&self, tiles: &C::Tiles) -> usize {
        tiles.as_ref()[..self.cells]
            .iter()
            .position(|&t| t == C::Tile::default())
            .expect("a position has a blank")
    }

    /// The move that takes the blank from `from` to the adjacent cell `to`.
    pub fn move_between(&self, from: usize, to: usize) -> Move {
        let k = self.neighbours[from][..usize::from(self.neighbour_count[from])]
            .iter()
            .position(|&n| n.into() == to)
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
