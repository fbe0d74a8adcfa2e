//! How the searches that store states keep them, chosen once per job from the board's
//! [`Capacity`]: each algorithm is one implementation generic over a state's storage, and
//! this trait hands it the storage that fits the board.
//!
//! - Up to 25 cells a state is packed into the node: the smallest [`Packed`] type for the board
//!   (a `u64` of nibbles up to 16 cells, a `u128` up to 25).
//! - Beyond, a position takes a byte or two a cell, so the searches that can keep a node
//!   implicitly (parent, arriving move and a hash, see [`super::implicit`]: A*, its variants,
//!   bibfs) do so from [`IMPLICIT_ABOVE`] cells on; the layered BFS keeps packed entries (bytes a
//!   cell) up to 64 cells ([`Small`]) and differences from the root beyond ([`Large`]).
//!
//! A job implements [`PackedJob`] (and [`StoredJob`] when it can store states implicitly);
//! [`Storage::packed`] or [`Storage::stored`] call it monomorphised for the chosen storage, so
//! nothing per node asks which one it has.

use crate::geometry::{Geometry, Large, MAX_EXACT_CELLS, Small, TileInt, Tiles};
use crate::heuristic::{Built, Heuristics};
use crate::with_packed;

pub(super) mod chunked;
pub(super) mod implicit;
pub mod packed;

use packed::Packed;

/// The most cells whose states A*, its variants and bibfs keep packed in the node: a `u128`
/// (25 cells) makes a 24-byte node; a byte a cell beyond (36 to 64 bytes) would cost 3 to 5
/// times the 12-byte node (8 for bibfs) of an implicit state (measured: `results/memory-growth.md`,
/// 2026-12-06 issue 27 storage section).
pub(crate) const IMPLICIT_ABOVE: usize = 25;

/// A search that stores its states as a [`Packed`] type `P`.
pub(crate) trait PackedJob<C: Heuristics> {
    /// What the search returns.
    type Output;
    /// Runs the search with states packed as `P`.
    fn run<P: Packed<C>>(self) -> Self::Output;
}

/// A [`PackedJob`] that can also keep its states implicitly (see [`super::implicit`]).
pub(crate) trait StoredJob<C: Heuristics>: PackedJob<C> {
    /// On [`Small`] boards, the most cells whose states are still packed in the node (beyond,
    /// implicit); [`Large`] boards are always implicit.
    const PACKED_UP_TO: usize = MAX_EXACT_CELLS;
    /// Runs the search with states kept implicitly.
    fn run_implicit(self) -> Self::Output;
}

/// A capacity as the searches see it: how its states are stored, and its view as [`Small`]
/// for the named fast paths (the 4 x 4 IDA* kernel, the nibble BFS).
pub(crate) trait Storage: Heuristics {
    /// Runs `job` with the smallest packed form of a `cells`-cell position (beyond 64 cells,
    /// the position itself).
    fn packed<J: PackedJob<Self>>(cells: usize, job: J) -> J::Output;
    /// Runs `job` with the most compact storage: packed up to [`StoredJob::PACKED_UP_TO`] cells,
    /// implicit beyond.
    fn stored<J: StoredJob<Self>>(cells: usize, job: J) -> J::Output;
    /// The geometry and position as [`Small`] ones, when they are.
    fn small<'a>(
        geometry: &'a Geometry<Self>,
        tiles: &'a Self::Tiles,
    ) -> Option<(&'a Geometry, &'a Tiles)>;
    /// The heuristic as a [`Small`] one, when it is.
    fn small_heuristic(built: &Built<Self>) -> Option<&Built>;
}

impl Storage for Small {
    fn packed<J: PackedJob<Small>>(cells: usize, job: J) -> J::Output {
        with_packed!(cells, P => job.run::<P>())
    }
    fn stored<J: StoredJob<Small>>(cells: usize, job: J) -> J::Output {
        if cells > J::PACKED_UP_TO {
            job.run_implicit()
        } else {
            Self::packed(cells, job)
        }
    }
    fn small<'a>(geometry: &'a Geometry, tiles: &'a Tiles) -> Option<(&'a Geometry, &'a Tiles)> {
        Some((geometry, tiles))
    }
    fn small_heuristic(built: &Built) -> Option<&Built> {
        Some(built)
    }
}

impl<T: TileInt, const N: usize> Storage for Large<T, N> {
    fn packed<J: PackedJob<Self>>(_: usize, job: J) -> J::Output {
        job.run::<[T; N]>()
    }
    fn stored<J: StoredJob<Self>>(_: usize, job: J) -> J::Output {
        job.run_implicit()
    }
    fn small<'a>(_: &'a Geometry<Self>, _: &'a [T; N]) -> Option<(&'a Geometry, &'a Tiles)> {
        None
    }
    fn small_heuristic(_: &Built<Self>) -> Option<&Built> {
        None
    }
}

/// What the storage tests share: random walks and an exact BFS over whole positions (the
/// oracle the stored searches are checked against).
#[cfg(test)]
pub(crate) mod testing {
    use rustc_hash::FxHashSet;

    use crate::geometry::{Geometry, Tiles};

    /// A position `len` random blank moves from the goal (an LCG stream from `seed`).
    pub(crate) fn walk(geometry: &Geometry, len: usize, seed: u64) -> Tiles {
        let mut t = geometry.goal_tiles();
        let mut blank = geometry.blank_of(&t);
        let mut s = seed;
        for _ in 0..len {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (s >> 33) as usize % usize::from(geometry.neighbour_count[blank]);
            let n = usize::from(geometry.neighbours[blank][k]);
            t[blank] = t[n];
            t[n] = 0;
            blank = n;
        }
        t
    }

    /// The positions at distance 0, 1, ..., `depth` from `root`, by exact breadth-first
    /// search over whole positions.
    pub(crate) fn layers(geometry: &Geometry, root: &Tiles, depth: usize) -> Vec<Vec<Tiles>> {
        let mut seen = FxHashSet::from_iter([*root]);
        let mut layers = vec![vec![*root]];
        for _ in 0..depth {
            let mut next = Vec::new();
            for t in layers.last().expect("the root's layer") {
                let blank = geometry.blank_of(t);
                for k in 0..usize::from(geometry.neighbour_count[blank]) {
                    let n = usize::from(geometry.neighbours[blank][k]);
                    let mut c = *t;
                    c[blank] = c[n];
                    c[n] = 0;
                    if seen.insert(c) {
                        next.push(c);
                    }
                }
            }
            layers.push(next);
        }
        layers
    }
}
