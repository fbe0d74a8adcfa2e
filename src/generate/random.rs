//! Seeded generators of random boards, portable and independent of the thread count.
//!
//! # The random stream
//!
//! Instance `k` (ids `1, 2, ...`) of a set generated with seed `S` draws from the ChaCha8
//! stream cipher of `rand_chacha` ([`instance_rng`]): the 256-bit key is `S` as 8
//! little-endian bytes followed by 24 zero bytes, the 64-bit stream (nonce) is `k`, and the
//! block counter starts at 0. Random integers below `n` are taken from `next_u64` by
//! Lemire's multiply-and-reject method ([`below`]), implemented here so that the output does
//! not depend on `rand`'s sampling code, which may change between versions. ChaCha is
//! specified bit for bit, so a file is byte-identical on every machine; and because instance
//! `k` depends only on `(S, k)`, boards can be made in parallel in any order, and
//! `--count 10` gives the first ten instances of `--count 1000`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, BoardError, Goal, Move};
use crate::instances::check_size;

/// The random stream of instance `stream` of a set generated with `seed` (see the module
/// documentation for the exact definition).
pub fn instance_rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(stream);
    rng
}

/// A uniformly random integer in `0..n`, by Lemire's method ("Fast random integer generation
/// in an interval", ACM TOMACS 2019): take the high 64 bits of `x * n` for a random 64-bit
/// `x`, rejecting the few `x` whose low bits fall below `2^64 mod n`, which makes it exactly
/// uniform.
///
/// # Panics
/// If `n == 0`.
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "below(0)");
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// Walks the blank `moves` random steps from `start`, never undoing the previous step: at
/// each step the legal moves other than the inverse of the last one are listed in Korf's
/// order (up, left, right, down) and one is chosen uniformly with [`below`]. Every cell of a
/// board of at least 2 x 2 has two or more neighbours, so a step always exists and the walk
/// has exactly `moves` moves. Each move changes the Manhattan distance by exactly one, so the
/// result is at most `moves` from `start`, with the same parity; it may be closer.
pub fn random_walk<R: Rng + ?Sized>(mut start: Board, moves: u32, rng: &mut R) -> Board {
    let (rows, cols) = (start.rows(), start.cols());
    let mut prev: Option<Move> = None;
    for _ in 0..moves {
        let mut options = [Move::Up; 4];
        let mut k = 0;
        for m in Move::KORF_ORDER {
            if Some(m.inverse()) != prev && m.target(start.blank(), rows, cols).is_some() {
                options[k] = m;
                k += 1;
            }
        }
        let m = options[below(rng, k as u64) as usize];
        let moved = start.apply(m);
        debug_assert!(moved);
        prev = Some(m);
    }
    start
}

/// A board drawn uniformly from all solvable `rows` x `cols` positions for `goal`.
///
/// The tiles `0..rows*cols` (blank included) are shuffled by Fisher-Yates (for `i` from the
/// last cell down to 1, swap cell `i` with a uniform cell in `0..=i`), which makes every one
/// of the `N!` permutations equally likely. If the result is unsolvable, the tiles in the
/// first two cells (row-major) that do not hold the blank are swapped.
///
/// Why this is uniform over the solvable positions: let `f` swap those two cells. The two
/// cells depend only on where the blank is, which `f` does not change, so `f(f(p)) = p`: `f`
/// is a bijection of the positions onto themselves. Swapping two tiles without moving the
/// blank flips the permutation's parity but not the blank's distance to its goal cell, so it
/// flips solvability ([`Board::is_solvable`]): `f` maps the unsolvable positions one-to-one
/// onto the solvable ones. A solvable `s` is therefore output exactly when the shuffle gives
/// `s` or `f(s)`, with probability `2 / N!`, the same for every solvable `s`.
pub fn uniform_solvable<R: Rng + ?Sized>(
    rows: usize,
    cols: usize,
    goal: Goal,
    rng: &mut R,
) -> Result<Board, BoardError> {
    check_size(rows, cols)?;
    let n = rows * cols;
    let mut tiles: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        tiles.swap(i, j);
    }
    let board = Board::new(rows, cols, tiles)?;
    if board.is_solvable(goal) {
        return Ok(board);
    }
    let mut tiles = board.tiles().to_vec();
    let mut non_blank = (0..n).filter(|&c| tiles[c] != 0);
    let (a, b) = (
        non_blank.next().expect("at least 3 tiles"),
        non_blank.next().expect("at least 3 tiles"),
    );
    tiles.swap(a, b);
    let board = Board::new(rows, cols, tiles)?;
    debug_assert!(board.is_solvable(goal));
    Ok(board)
}
