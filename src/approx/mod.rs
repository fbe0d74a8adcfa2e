//! The polynomial-time solver for boards of any size (issue 6): fast, not optimal.
//!
//! [`solve_approx`] solves every solvable R x C board (R, C >= 2, rectangles included, both
//! goals) in time proportional to the length of its solution, which is O(n^3) for an n x n
//! board: it places the top row, then the left column, tile by tile, recurses on the smaller
//! board and finishes the last 2 x 3 (or smaller) region exactly by breadth-first search. The
//! method is the one analysed by Parberry ("A real-time algorithm for the (n^2 - 1)-puzzle",
//! 1995): about (8/3) n^3 moves on random boards. See `engine` for the manoeuvres.
//!
//! Solutions are stored two bits a move ([`PackedMoves`]): a random 1000 x 1000 board needs
//! about 2.5e9 moves, 600 MB. Each solution is replayed on a copy of the board before it is
//! returned ([`replay_reaches_goal`], constant work per move).
//!
//! The blank-first goal is the blank-last goal of the board turned by a half turn (cell `i`
//! goes to `N - 1 - i`, tile `t > 0` becomes `N - t`): the solver solves that board and maps the
//! moves back (up <-> down, left <-> right).

mod engine;
mod packed;

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, BoardError, Goal};
pub use packed::{Iter, PackedMoves};

/// What can stop the polynomial solver.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ApproxError {
    /// The board cannot reach the goal (checked before any work).
    #[error(transparent)]
    Unsolvable(#[from] BoardError),
    /// The solution would be too long to store (about `estimated_moves` moves, 2 bits each).
    #[error(
        "a {rows} x {cols} board needs about {estimated_moves} moves with the polynomial \
         solver, more than the {max} it will store"
    )]
    TooLong {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// The expected solution length for a random board of this size.
        estimated_moves: u64,
        /// [`MAX_MOVES`].
        max: u64,
    },
    /// A bug: the solver could not finish, or its solution failed the replay.
    #[error("internal error in the polynomial solver: {0}")]
    Internal(String),
}

/// The most moves [`solve_approx`] will attempt (8 GB of packed moves): enough for random
/// boards up to about 2300 x 2300; longer ones are refused up front with
/// [`ApproxError::TooLong`] rather than running out of memory.
pub const MAX_MOVES: u64 = 1 << 35;

/// The expected solution length of [`solve_approx`] on a random `rows` x `cols` board, about
/// (4/3) cells (rows + cols), which is (8/3) n^3 for n x n (a slight overestimate in practice).
pub fn estimated_moves(rows: usize, cols: usize) -> u64 {
    let cells = (rows as f64) * (cols as f64);
    (cells * (rows + cols) as f64 * 4.0 / 3.0) as u64
}

/// Figures about one run of [`solve_approx`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApproxStats {
    /// Length of the returned solution.
    pub moves: u64,
    /// Moves the manoeuvres made before move/undo pairs were cancelled.
    pub generated_moves: u64,
    /// The Manhattan lower bound of the start board (the optimum is at least this).
    pub manhattan: u64,
    /// Time to compute the solution.
    pub solve_time: Duration,
    /// Time to replay it on a copy of the board.
    pub verify_time: Duration,
    /// Heap bytes held by the stored moves.
    pub move_bytes: usize,
}

/// A replay-checked solution of [`solve_approx`].
#[derive(Debug, Clone)]
pub struct ApproxSolution {
    /// The moves (directions the blank travels), two bits each.
    pub moves: PackedMoves,
    /// Length, time and the lower bound.
    pub stats: ApproxStats,
}

/// Solves `board` for `goal` with the polynomial-time line-by-line method.
///
/// The result is not optimal (on random n x n boards it is about (8/3) n^3 moves, about four
/// times the Manhattan lower bound), but it is found in time linear in its length, for any
/// size the board model holds. The solution is replayed before it is returned.
///
/// # Errors
/// [`ApproxError::Unsolvable`] if the board cannot reach `goal`; [`ApproxError::TooLong`] if
/// its solution would be longer than [`MAX_MOVES`];
/// [`ApproxError::Internal`] only on a bug (the replay check failed).
pub fn solve_approx(board: &Board, goal: Goal) -> Result<ApproxSolution, ApproxError> {
    board.check_solvable(goal)?;
    let start = Instant::now();
    let (rows, cols, cells) = (board.rows(), board.cols(), board.cells());
    let estimated = estimated_moves(rows, cols);
    if estimated > MAX_MOVES {
        return Err(ApproxError::TooLong {
            rows,
            cols,
            estimated_moves: estimated,
            max: MAX_MOVES,
        });
    }
    let tiles: Vec<u32> = match goal {
        Goal::BlankLast => board.tiles().to_vec(),
        Goal::BlankFirst => {
            let mut t = vec![0u32; cells];
            for (i, &v) in board.tiles().iter().enumerate() {
                t[cells - 1 - i] = if v == 0 { 0 } else { cells as u32 - v };
            }
            t
        }
    };
    let mut engine = engine::Engine::new(rows, cols, tiles);
    engine.run()?;
    let generated_moves = engine.generated;
    let mut moves = std::mem::take(&mut engine.moves);
    drop(engine);
    if goal == Goal::BlankFirst {
        moves.invert_directions();
    }
    let solve_time = start.elapsed();
    let verify_start = Instant::now();
    if !replay_reaches_goal(board, &moves, goal) {
        return Err(ApproxError::Internal(format!(
            "the solution of {} moves does not reach the goal on replay",
            moves.len()
        )));
    }
    let verify_time = verify_start.elapsed();
    Ok(ApproxSolution {
        stats: ApproxStats {
            moves: moves.len(),
            generated_moves,
            manhattan: board.manhattan(goal),
            solve_time,
            verify_time,
            move_bytes: moves.heap_bytes(),
        },
        moves,
    })
}

/// Replays `moves` on a copy of `board` and reports whether every move is legal and the last
/// position is `goal`'s. Constant work per move, so it suits solutions of billions of moves.
pub fn replay_reaches_goal(board: &Board, moves: &PackedMoves, goal: Goal) -> bool {
    let (rows, cols) = (board.rows(), board.cols());
    let mut tiles = board.tiles().to_vec();
    let mut blank = board.blank();
    let (mut r, mut c) = (blank / cols, blank % cols);
    let words = moves.words();
    let full = (moves.len() / 32) as usize;
    for (i, &word) in words.iter().enumerate() {
        let count = if i < full { 32 } else { moves.len() % 32 };
        let mut w = word;
        for _ in 0..count {
            let to = match w & 3 {
                0 if r > 0 => {
                    r -= 1;
                    blank - cols
                }
                1 if r + 1 < rows => {
                    r += 1;
                    blank + cols
                }
                2 if c > 0 => {
                    c -= 1;
                    blank - 1
                }
                3 if c + 1 < cols => {
                    c += 1;
                    blank + 1
                }
                _ => return false,
            };
            tiles.swap(blank, to);
            blank = to;
            w >>= 2;
        }
    }
    let cells = tiles.len();
    tiles
        .iter()
        .enumerate()
        .all(|(i, &t)| t as usize == goal.tile_at(i, cells))
}

impl ApproxSolution {
    /// Replays the solution on a copy of `board` (see [`replay_reaches_goal`]).
    pub fn replay_reaches_goal(&self, board: &Board, goal: Goal) -> bool {
        replay_reaches_goal(board, &self.moves, goal)
    }
}
