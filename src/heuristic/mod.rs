//! Heuristics: lower bounds on the distance to the goal, built once per job and evaluated
//! incrementally inside the searches.
//!
//! A heuristic is a value of [`HeuristicKind`] (parsed from its command-line name); [`build`]
//! turns it into [`Built`] tables for one board size and goal, of any capacity (the concrete
//! type per capacity comes from [`Heuristics`]). The searches match on `Built` once per job
//! ([`with_heuristic!`](crate::with_heuristic)) and then run a loop monomorphised for that
//! heuristic (via [`Heuristic`]), so no dynamic dispatch happens per node.

pub mod custom;
mod linear_conflict;
mod manhattan;
mod misplaced;
pub mod pdb;
mod walking_distance;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::geometry::{
    Capacity, Geometry, Large, MAX_EXACT_CELLS, MAX_LARGE_CELLS, Small, TileInt,
};
pub use custom::{Custom, CustomEstimate, MAX_CUSTOM_CELLS};
pub use linear_conflict::LinearConflict;
pub use manhattan::{GridManhattan, Manhattan};
pub use misplaced::Misplaced;
pub use pdb::{Layout as PdbLayout, Pdb, PdbSpec};
pub use walking_distance::WalkingDistance;

/// A heuristic, by its command-line name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// `none`: always 0 (what blind searches use).
    None,
    /// `misplaced`: the number of tiles not on their goal cell.
    Misplaced,
    /// `manhattan`: the sum of the tiles' grid distances to their goal cells.
    Manhattan,
    /// `linear-conflict`: Manhattan plus 2 for each tile that must leave its row or column so
    /// that the others in that line can pass (the minimum number per line).
    LinearConflict,
    /// `walking-distance`: Takahashi's walking distance (boards of at most 16 cells).
    WalkingDistance,
    /// `pdb[:PARTITION][:noreflect][:compact]`: additive disjoint pattern databases (see [`pdb`]).
    Pdb(PdbSpec),
    /// A function the caller gives at run time (see [`custom`]); no command-line name parses
    /// to it.
    Custom(Custom),
}

impl HeuristicKind {
    /// The simple heuristics, in the order the CLI lists them.
    pub const BASIC: [HeuristicKind; 4] = [
        HeuristicKind::None,
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ];

    /// The command-line name.
    pub fn name(&self) -> String {
        match self {
            HeuristicKind::Pdb(spec) => spec.to_string(),
            HeuristicKind::Custom(custom) => custom.name().to_string(),
            simple => HEURISTICS
                .iter()
                .find(|e| e.kind.as_ref() == Some(simple))
                .expect("every simple heuristic has a registry entry")
                .name
                .to_string(),
        }
    }
}

/// One row of the heuristic registry.
#[derive(Debug, Clone)]
pub struct HeuristicEntry {
    /// The name as the user types it (`pdb[:PARTITION]` for the parameterised one).
    pub name: &'static str,
    /// The heuristic, `None` for `pdb` (parsed by [`PdbSpec`]).
    pub kind: Option<HeuristicKind>,
    /// One line for `--help` and the docs.
    pub summary: &'static str,
}

/// Every heuristic, in the order the CLI and the docs list them: THE table that names,
/// parses and describes them.
pub const HEURISTICS: &[HeuristicEntry] = &[
    HeuristicEntry {
        name: "none",
        kind: Some(HeuristicKind::None),
        summary: "always 0 (blind search)",
    },
    HeuristicEntry {
        name: "misplaced",
        kind: Some(HeuristicKind::Misplaced),
        summary: "tiles not on their goal cell",
    },
    HeuristicEntry {
        name: "manhattan",
        kind: Some(HeuristicKind::Manhattan),
        summary: "sum of the tiles' grid distances to their goal cells",
    },
    HeuristicEntry {
        name: "linear-conflict",
        kind: Some(HeuristicKind::LinearConflict),
        summary: "Manhattan plus 2 per tile that must leave its row or column",
    },
    HeuristicEntry {
        name: "walking-distance",
        kind: Some(HeuristicKind::WalkingDistance),
        summary: "Takahashi's walking distance (boards of at most 16 cells)",
    },
    HeuristicEntry {
        name: "pdb[:PARTITION]",
        kind: None,
        summary: "additive pattern databases, any board size; PARTITION: auto (default; above \
                  64 cells groups of consecutive tiles sized by memory), full, 5-5-5, 6-6-3, \
                  7-8, 6-6-6-6 or tile groups like 1,2,3/4,5,6; options :noreflect, :compact",
    },
];

/// The accepted names, comma-separated, for messages.
pub fn heuristic_names() -> String {
    HEURISTICS
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per heuristic (`name: summary`), for `--help`.
pub fn heuristic_help() -> String {
    HEURISTICS
        .iter()
        .map(|e| format!("{}: {}", e.name, e.summary))
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.starts_with("pdb") {
            return s.parse().map(HeuristicKind::Pdb);
        }
        HEURISTICS
            .iter()
            .find(|e| e.name == s)
            .and_then(|e| e.kind.clone())
            .ok_or_else(|| {
                format!(
                    "unknown heuristic \"{s}\", expected one of {}",
                    heuristic_names()
                )
            })
    }
}

/// Why a heuristic cannot be built for a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeuristicError {
    /// The heuristic does not exist for this board size.
    #[error("heuristic {name} is not available for a {rows} x {cols} board: {why}")]
    NotForSize {
        /// The heuristic's name.
        name: String,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Why not.
        why: String,
    },
}

/// A heuristic as the inner loops see it: an initial estimate and an update per move, for
/// positions of the capacity `C` ([`Small`] by default, see [`crate::geometry`]).
///
/// `Memo` is whatever the heuristic carries from a node to its children beside `h` (nothing
/// for the simple heuristics; per-pattern values for pattern databases).
pub trait Heuristic<C: Capacity = Small> {
    /// Per-node state carried beside `h`.
    type Memo: Copy;
    /// Whether [`Heuristic::update`] reads the position. Searches that store packed states
    /// skip unpacking them for heuristics that do not.
    const READS_TILES: bool = true;
    /// The estimate of a whole position and its memo.
    fn init(&self, tiles: &C::Tiles) -> (u32, Self::Memo);
    /// The estimate after `tile` moved from cell `from` to cell `to`; `tiles` is the position
    /// *after* the move, `h` and `memo` are the values before it.
    fn update(
        &self,
        tiles: &C::Tiles,
        tile: C::Tile,
        from: usize,
        to: usize,
        h: u32,
        memo: Self::Memo,
    ) -> (u32, Self::Memo);

    /// [`Heuristic::update`] for a child that will be pruned if its estimate exceeds `limit`
    /// (IDA*): once it is known to exceed `limit`, any admissible value above `limit` may be
    /// returned, with a memo that must not be used. Pattern databases with reflection then
    /// skip the mirrored lookup, one of the two cache misses of a node.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn update_within(
        &self,
        tiles: &C::Tiles,
        tile: C::Tile,
        from: usize,
        to: usize,
        h: u32,
        memo: Self::Memo,
        limit: u32,
    ) -> (u32, Self::Memo) {
        let _ = limit;
        self.update(tiles, tile, from, to, h, memo)
    }
}

/// The zero heuristic: blind search.
#[derive(Debug, Clone, Copy)]
pub struct Zero;

impl<C: Capacity> Heuristic<C> for Zero {
    type Memo = ();
    const READS_TILES: bool = false;
    #[inline]
    fn init(&self, _: &C::Tiles) -> (u32, ()) {
        (0, ())
    }
    #[inline]
    fn update(&self, _: &C::Tiles, _: C::Tile, _: usize, _: usize, _: u32, _: ()) -> (u32, ()) {
        (0, ())
    }
}

/// The heuristics' concrete types for one [`Capacity`]: table-driven ones up to 64 cells
/// ([`Small`]), ones that compute from coordinates and group tables beyond ([`Large`]
/// capacities), so that one [`Built`] and one [`with_heuristic!`] serve every board size.
///
/// [`Large`]: crate::geometry::Large
pub trait Heuristics: Capacity {
    /// Manhattan distance.
    type Manhattan: Heuristic<Self, Memo = ()> + Clone + fmt::Debug + Send + Sync;
    /// Linear conflict.
    type LinearConflict: Heuristic<Self, Memo = ()> + Clone + fmt::Debug + Send + Sync;
    /// Whether walking distance exists for this capacity (else its type is [`Unavailable`]).
    const WALKING_DISTANCE: bool;
    /// Walking distance ([`Unavailable`] beyond 64 cells).
    type WalkingDistance: Heuristic<Self, Memo: Send + Sync> + Clone + fmt::Debug + Send + Sync;
    /// Additive pattern databases.
    type Pdb: Heuristic<Self, Memo: Send + Sync> + Clone + fmt::Debug + Send + Sync;
    /// Manhattan's tables for `g`.
    fn manhattan(g: &Geometry<Self>) -> Self::Manhattan;
    /// Linear conflict's tables for `g`.
    fn linear_conflict(g: &Geometry<Self>) -> Self::LinearConflict;
    /// Walking distance's tables for `g`, or why it does not exist for that board.
    fn walking_distance(g: &Geometry<Self>) -> Result<Self::WalkingDistance, HeuristicError>;
    /// The pattern databases of `spec` for `g` (built, loaded or shared).
    fn pdb(spec: &PdbSpec, g: &Geometry<Self>) -> Result<Self::Pdb, HeuristicError>;
}

impl Heuristics for Small {
    const WALKING_DISTANCE: bool = true;
    type Manhattan = Manhattan;
    type LinearConflict = LinearConflict;
    type WalkingDistance = WalkingDistance;
    type Pdb = Pdb;
    fn manhattan(g: &Geometry) -> Manhattan {
        Manhattan::new(g)
    }
    fn linear_conflict(g: &Geometry) -> LinearConflict {
        LinearConflict::new(g)
    }
    fn walking_distance(g: &Geometry) -> Result<WalkingDistance, HeuristicError> {
        WalkingDistance::new(g)
    }
    fn pdb(spec: &PdbSpec, g: &Geometry) -> Result<Pdb, HeuristicError> {
        Pdb::new(spec, g)
    }
}

impl<T: TileInt, const N: usize> Heuristics for Large<T, N> {
    const WALKING_DISTANCE: bool = false;
    type Manhattan = GridManhattan<Self>;
    type LinearConflict = LinearConflict<Self, GridManhattan<Self>>;
    type WalkingDistance = Unavailable;
    type Pdb = pdb::large::LargePdb<Self>;
    fn manhattan(g: &Geometry<Self>) -> Self::Manhattan {
        GridManhattan::new(g)
    }
    fn linear_conflict(g: &Geometry<Self>) -> Self::LinearConflict {
        LinearConflict::with_manhattan(g, GridManhattan::new(g))
    }
    fn walking_distance(g: &Geometry<Self>) -> Result<Unavailable, HeuristicError> {
        Err(HeuristicError::NotForSize {
            name: HeuristicKind::WalkingDistance.name(),
            rows: g.rows,
            cols: g.cols,
            why: "walking distance takes boards of at most 16 cells".to_string(),
        })
    }
    fn pdb(spec: &PdbSpec, g: &Geometry<Self>) -> Result<Self::Pdb, HeuristicError> {
        pdb::large::LargePdb::new(spec, g)
    }
}

/// A heuristic that does not exist for a capacity (no value of it can be made), so that
/// [`Built`] keeps the same variants for every capacity.
#[derive(Debug, Clone, Copy)]
pub enum Unavailable {}

impl<C: Capacity> Heuristic<C> for Unavailable {
    type Memo = ();
    fn init(&self, _: &C::Tiles) -> (u32, ()) {
        match *self {}
    }
    fn update(&self, _: &C::Tiles, _: C::Tile, _: usize, _: usize, _: u32, _: ()) -> (u32, ()) {
        match *self {}
    }
}

/// A heuristic built for one geometry of capacity `C`, ready for the searches.
///
/// The pattern-database variant is large (its per-tile lookup tables live inline): a `Built`
/// is made once per job, and boxing it would add a pointer chase to every node's lookup.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Built<C: Heuristics = Small> {
    /// Always 0.
    Zero,
    /// Misplaced tiles.
    Misplaced(Misplaced<C>),
    /// Manhattan distance.
    Manhattan(C::Manhattan),
    /// Linear conflict.
    LinearConflict(C::LinearConflict),
    /// Walking distance (boards of at most 16 cells).
    WalkingDistance(C::WalkingDistance),
    /// Additive pattern databases.
    Pdb(C::Pdb),
    /// The caller's function (boards of at most [`MAX_CUSTOM_CELLS`] cells).
    Custom(CustomEstimate),
}

impl<C: Heuristics> Built<C> {
    /// The estimate of a compact position.
    pub fn estimate(&self, _geometry: &Geometry<C>, tiles: &C::Tiles) -> u32 {
        crate::with_heuristic!(C, self, h => Heuristic::<C>::init(h, tiles).0)
    }
}

/// Calls `$body` with `$h` bound to the concrete heuristic inside a [`Built`] of capacity
/// `$c`: the one place where a job's heuristic is dispatched, so that `$body` is
/// monomorphised per heuristic.
#[macro_export]
#[doc(hidden)]
macro_rules! with_heuristic {
    ($c:ty, $built:expr, $h:ident => $body:expr) => {
        match $built {
            $crate::heuristic::Built::Zero => {
                let $h = &$crate::heuristic::Zero;
                $body
            }
            $crate::heuristic::Built::Misplaced(x) => {
                let $h = x;
                $body
            }
            $crate::heuristic::Built::Manhattan(x) => {
                let $h = x;
                $body
            }
            $crate::heuristic::Built::LinearConflict(x) => {
                let $h = x;
                $body
            }
            // Two variants exist only for some capacities: tested in an inline `const`, the
            // body is not compiled for the others (it would be dead code in every search).
            $crate::heuristic::Built::WalkingDistance(x) => {
                if const { <$c as $crate::heuristic::Heuristics>::WALKING_DISTANCE } {
                    let $h = x;
                    $body
                } else {
                    unreachable!("walking distance is never built for this capacity")
                }
            }
            $crate::heuristic::Built::Pdb(x) => {
                let $h = x;
                $body
            }
            $crate::heuristic::Built::Custom(x) => {
                if const {
                    <$c as $crate::geometry::Capacity>::MAX_CELLS
                        <= $crate::heuristic::MAX_CUSTOM_CELLS
                } {
                    let $h = x;
                    $body
                } else {
                    unreachable!("a function heuristic is refused past its cell limit")
                }
            }
        }
    };
}

/// Checks that `kind` exists for boards of `shape` of either capacity, by building it (a
/// pattern database is loaded or built as [`build`] would). Boards too large for the exact
/// searches pass: the search refuses them.
pub fn check_available(
    kind: &HeuristicKind,
    shape: crate::board::Shape,
) -> Result<(), HeuristicError> {
    let crate::board::Shape { rows, cols, goal } = shape;
    let cells = shape.cells();
    if cells <= MAX_EXACT_CELLS {
        build(kind, &Geometry::new(rows, cols, goal)).map(drop)
    } else if cells <= MAX_LARGE_CELLS {
        crate::with_large_capacity!(cells, C => {
            build(kind, &Geometry::<C>::build(rows, cols, goal)).map(drop)
        })
    } else {
        Ok(())
    }
}

/// Builds the tables of `kind` for `geometry`, of any capacity.
pub fn build<C: Heuristics>(
    kind: &HeuristicKind,
    geometry: &Geometry<C>,
) -> Result<Built<C>, HeuristicError> {
    Ok(match kind {
        HeuristicKind::None => Built::Zero,
        HeuristicKind::Misplaced => Built::Misplaced(Misplaced::new(geometry)),
        HeuristicKind::Manhattan => Built::Manhattan(C::manhattan(geometry)),
        HeuristicKind::LinearConflict => Built::LinearConflict(C::linear_conflict(geometry)),
        HeuristicKind::WalkingDistance => Built::WalkingDistance(C::walking_distance(geometry)?),
        HeuristicKind::Pdb(spec) => Built::Pdb(C::pdb(spec, geometry)?),
        HeuristicKind::Custom(custom) => Built::Custom(custom.bind(geometry)?),
    })
}
