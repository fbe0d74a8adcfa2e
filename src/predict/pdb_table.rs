//! Exact heuristic distributions of a single pattern database, from its own table.
//!
//! A database of `k` pattern tiles on `n` cells stores, per placement of those tiles, the
//! value every position with that placement gets. With one group and no reflection the
//! heuristic *is* that value, so the number of positions with the blank on cell `c` and
//! estimate `v` is a sum over the table's entries:
//! - `k <= n - 3`: every placement that leaves `c` free stands for the same number of solvable
//!   positions with the blank on `c`: the `(n - 1 - k)!` ways to place the other tiles, half of
//!   them solvable (swapping two of those tiles flips solvability, and at least two remain);
//! - `k >= n - 2`: a placement and a blank cell leave at most one way to place the rest, which
//!   is solvable or not; each is checked ([`super::profile::solvable`]).
//!
//! The scan visits every entry once (in parallel over chunks), decoding its cells with the
//! table's own [`unrank`]. It replaces the per-cell histogram of a sampled
//! [`super::Profile`] (KRE's input); CDP's move statistics stay sampled.

use rayon::prelude::*;

use crate::geometry::{Geometry, MAX_EXACT_CELLS};
use crate::heuristic::Built;
use crate::heuristic::pdb::table::{UNREACHED, unrank};

use super::profile::solvable;

/// Entries per parallel chunk of the scan.
const CHUNK: usize = 1 << 16;

/// The exact `hist[c][v]` (positions with the blank on `c` and estimate `v`, scaled to
/// positions: every cell sums to `(n - 1)! / 2`) of `built` on `geometry`, if `built` is a
/// single pattern database without reflection; `None` for any other heuristic (a sum of
/// several databases, or the max with a mirrored lookup, is not the table's distribution),
/// and for a table holding an unreached placement where every placement must be reachable.
pub fn exact_hist(geometry: &Geometry, built: &Built) -> Option<Vec<Vec<f64>>> {
    let Built::Pdb(pdb) = built else {
        return None;
    };
    if pdb.reflects() || pdb.groups().len() != 1 {
        return None;
    }
    let table = pdb.tables().next()?;
    // Predictions take boards of at most 64 cells, whose tiles fit a byte.
    let pattern: Vec<u8> = table
        .key
        .tiles
        .iter()
        .map(|&t| u8::try_from(t).ok())
        .collect::<Option<_>>()?;
    let pattern = &pattern;
    let n = geometry.cells;
    let k = pattern.len();
    let free = n - 1 - k;
    // Solvability decides per (entry, blank cell) only when at most one tile is left free.
    let check = free <= 1;
    let others: Vec<u8> = (1..n as u8).filter(|t| !pattern.contains(t)).collect();
    let counts = table
        .data
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(chunk, part)| {
            // counts[c * 256 + v]; `None` once an unreached placement turns up.
            let mut counts = vec![0u64; n * 256];
            let mut pos = [0u8; MAX_EXACT_CELLS];
            for (i, &v) in part.iter().enumerate() {
                let used = unrank(n, k, chunk * CHUNK + i, &mut pos);
                if v == UNREACHED {
                    if check {
                        // Only the unsolvable placements of a (nearly) full database.
                        continue;
                    }
                    return None;
                }
                let row = usize::from(v);
                for c in (0..n).filter(|&c| used & (1u64 << c) == 0) {
                    if check && !solvable(geometry, &completion(n, &pos[..k], pattern, &others, c))
                    {
                        continue;
                    }
                    counts[c * 256 + row] += 1;
                }
            }
            Some(counts)
        })
        .try_reduce(
            || vec![0u64; n * 256],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                Some(a)
            },
        )?;
    // Each counted (entry, cell) stands for (free)! / 2 positions when free >= 2, else one.
    let weight = if check {
        1.0
    } else {
        (2..=free).map(|i| i as f64).product::<f64>() / 2.0
    };
    Some(
        (0..n)
            .map(|c| {
                let row = &counts[c * 256..(c + 1) * 256];
                let len = row.iter().rposition(|&x| x > 0).map_or(1, |l| l + 1);
                row[..len].iter().map(|&x| x as f64 * weight).collect()
            })
            .collect(),
    )
}

/// The position with the pattern tiles on `cells`, the blank on `blank` and the other tiles
/// (`others`, at most one) on the remaining cells in order.
fn completion(
    n: usize,
    cells: &[u8],
    pattern: &[u8],
    others: &[u8],
    blank: usize,
) -> [u8; MAX_EXACT_CELLS] {
    let mut tiles = [0u8; MAX_EXACT_CELLS];
    let mut taken = 1u64 << blank;
    for (&c, &t) in cells.iter().zip(pattern) {
        tiles[c as usize] = t;
        taken |= 1u64 << c;
    }
    let mut rest = others.iter();
    for (c, slot) in tiles.iter_mut().enumerate().take(n) {
        if taken & (1u64 << c) == 0 {
            *slot = *rest.next().expect("one tile per free cell");
        }
    }
    tiles
}
