//! A heuristic the caller gives at run time as a function of the position: the hook behind
//! the Python package's `heuristic=callable`, so that an idea can be tried in a few lines
//! without a new [`Built`](super::Built) variant of its own.
//!
//! It is one more [`HeuristicKind`](super::HeuristicKind) ([`HeuristicKind::Custom`]) and one
//! more `Built` variant, so it runs through the one entry point ([`crate::search::solve`]) with
//! every algorithm that uses a heuristic, on every board whose tiles fit a byte (at most
//! [`MAX_CUSTOM_CELLS`] cells). The function sees every generated position whole (no
//! incremental update) and is trusted to return a lower bound: the algorithms' optimality
//! holds only for an admissible one.
//!
//! [`HeuristicKind::Custom`]: super::HeuristicKind::Custom

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::geometry::{Capacity, Geometry, TileInt};

use super::{Heuristic, HeuristicError};

/// The most cells of a board a caller's function takes: it sees one byte per cell.
pub const MAX_CUSTOM_CELLS: usize = 256;

/// The caller's function: a position's tiles row-major (0 the blank, one byte each) to a
/// lower bound on its distance to the goal. `Send + Sync` because the parallel searches call
/// it from several threads.
pub type EstimateFn = dyn Fn(&[u8]) -> u32 + Send + Sync;

/// A caller's heuristic, by the name its rows carry.
///
/// Two are equal when they carry the same name and the same function (not a copy of it).
#[derive(Clone)]
pub struct Custom {
    name: Arc<str>,
    estimate: Arc<EstimateFn>,
}

impl Custom {
    /// `estimate` under `name` (what the rows' `heuristic` column says, e.g. `python:f`).
    pub fn new(
        name: impl Into<String>,
        estimate: impl Fn(&[u8]) -> u32 + Send + Sync + 'static,
    ) -> Custom {
        Custom {
            name: name.into().into(),
            estimate: Arc::new(estimate),
        }
    }

    /// The name its rows carry.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The function for boards of `geometry`'s size, or why it cannot see them.
    pub(super) fn bind<C: Capacity>(
        &self,
        geometry: &Geometry<C>,
    ) -> Result<CustomEstimate, HeuristicError> {
        let fits = geometry.cells <= MAX_CUSTOM_CELLS
            && C::Tile::as_bytes(C::zero_tiles().as_ref()).is_some();
        if !fits {
            return Err(HeuristicError::NotForSize {
                name: self.name.to_string(),
                rows: geometry.rows,
                cols: geometry.cols,
                why: format!(
                    "a heuristic given as a function sees one byte per cell: boards of at \
                     most {MAX_CUSTOM_CELLS} cells"
                ),
            });
        }
        Ok(CustomEstimate {
            cells: geometry.cells,
            estimate: self.estimate.clone(),
        })
    }
}

impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Custom").field(&self.name).finish()
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Custom) -> bool {
        self.name == other.name && Arc::ptr_eq(&self.estimate, &other.estimate)
    }
}

impl Eq for Custom {}

impl Hash for Custom {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

/// A [`Custom`] bound to one board size: what the inner loops call.
#[derive(Clone)]
pub struct CustomEstimate {
    cells: usize,
    estimate: Arc<EstimateFn>,
}

impl CustomEstimate {
    #[inline]
    fn call<C: Capacity>(&self, tiles: &C::Tiles) -> u32 {
        let bytes = C::Tile::as_bytes(&tiles.as_ref()[..self.cells])
            .expect("Custom::bind refuses capacities whose tiles are not bytes");
        (self.estimate)(bytes)
    }
}

impl fmt::Debug for CustomEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomEstimate")
            .field("cells", &self.cells)
            .finish_non_exhaustive()
    }
}

impl<C: Capacity> Heuristic<C> for CustomEstimate {
    type Memo = ();
    #[inline]
    fn init(&self, tiles: &C::Tiles) -> (u32, ()) {
        (self.call::<C>(tiles), ())
    }
    #[inline]
    fn update(&self, tiles: &C::Tiles, _: C::Tile, _: usize, _: usize, _: u32, _: ()) -> (u32, ()) {
        (self.call::<C>(tiles), ())
    }
}
