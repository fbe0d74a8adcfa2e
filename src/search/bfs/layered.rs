//! The driver of a layered BFS, shared by every way of keeping a layer ([`LayerStore`]): the
//! layer loop, the budget, the counts, the move back skipped, the goal test on generation and
//! the outcome (the order and counts are those of the [`super`] documentation).

use crate::board::Move;
use crate::geometry::{Capacity, Geometry};
use crate::search::{Budget, Limits, Outcome, RawOutcome, SearchStats};

/// How a layered BFS keeps its layers: the packed entries up to 64 cells
/// ([`super::packed`]), the differences from the root beyond ([`super::sparse`]). The
/// driver ([`layered`]) holds what does not depend on it: the layer loop, the budget, the
/// counts, the move back skipped, the goal test on generation and the outcome.
pub(super) trait LayerStore<C: Capacity> {
    /// A layer, or the successors of one.
    type Layer: Default;
    /// What the path is rebuilt from: the goal's producer.
    type Found;
    /// What [`LayerStore::reserve`] needs to know of a layer's successors.
    type Sizes;

    fn geometry(&self) -> &Geometry<C>;
    /// The first layer: the root alone, come from its own cell.
    fn root_layer(&self) -> Self::Layer;
    /// States in `layer`.
    fn len(layer: &Self::Layer) -> usize;
    /// Heap bytes `layer` takes.
    fn bytes(layer: &Self::Layer) -> u64;
    /// The blank's cell and the came-from cell of the `i`-th state of `layer`.
    fn cells(layer: &Self::Layer, i: usize) -> (usize, usize);
    /// Whether `layer` holds a neighbour of the goal (then it is the last layer expanded).
    fn holds_goal_neighbour(&self, layer: &Self::Layer) -> bool;
    /// The sizes of `layer`'s successors, and the bytes they and the next layer take at most
    /// (beyond the layers kept).
    fn sizes(&self, layer: &Self::Layer) -> (Self::Sizes, u64);
    /// Makes room in `out` for successors of these sizes.
    fn reserve(out: &mut Self::Layer, sizes: Self::Sizes);
    /// Produces the successor of the `i`-th state of `layer` (blank on `b`) whose blank moves
    /// to `n`: true when it is the goal (then nothing is kept), else kept in `out` if `keep`.
    fn child(
        &self,
        layer: &Self::Layer,
        i: usize,
        b: usize,
        n: usize,
        out: &mut Self::Layer,
        keep: bool,
    ) -> bool;
    /// The `i`-th state of `layer` as the goal's producer.
    fn found(layer: &Self::Layer, i: usize) -> Self::Found;
    /// The next layer from the successors in `out`: in the layer order, the first of each
    /// state kept (its first discoverer's), the states of `previous` dropped. Empties `out`.
    fn next_layer(&self, out: &mut Self::Layer, previous: Option<&Self::Layer>) -> Self::Layer;
    /// The moves from the root to the goal, whose producer lies in the last of `layers`.
    fn path_back(&self, layers: &[Self::Layer], found: Self::Found) -> Vec<Move>;
}

/// The layered BFS over layers kept by `store` (see the module documentation for the order
/// and the counts), from a root that is not the goal.
pub(super) fn layered<C: Capacity, S: LayerStore<C>>(store: &S, limits: &Limits) -> RawOutcome {
    let geometry = store.geometry();
    let mut budget = Budget::new(limits);
    let mut stats = SearchStats {
        generated: 1,
        ..SearchStats::default()
    };
    let first = store.root_layer();
    let mut layer_bytes = S::bytes(&first);
    let mut layers = vec![first];
    let mut out = S::Layer::default();
    let mut status = None;
    let mut found = None;

    'search: loop {
        let layer = layers.last().expect("the root's layer");
        // The last layer: expanded only to count up to the goal, its successors not stored.
        let last = store.holds_goal_neighbour(layer);
        if !last {
            let (sizes, bytes) = store.sizes(layer);
            let need = layer_bytes + bytes;
            if !budget.memory_allows(need) {
                status = Some(Outcome::MemoryLimit);
                break 'search;
            }
            stats.memory_bytes = stats.memory_bytes.max(need);
            S::reserve(&mut out, sizes);
        }
        for i in 0..S::len(layer) {
            let (b, came_from) = S::cells(layer, i);
            stats.expanded += 1;
            for k in 0..usize::from(geometry.neighbour_count[b]) {
                let n: usize = geometry.neighbours[b][k].into();
                if n == came_from {
                    continue;
                }
                stats.generated += 1;
                if stats.generated >= budget.next_check
                    && let Some(s) = budget.check(stats.generated)
                {
                    status = Some(s);
                    break 'search;
                }
                if store.child(layer, i, b, n, &mut out, !last) {
                    found = Some(S::found(layer, i));
                    status = Some(Outcome::Solved);
                    break 'search;
                }
            }
        }
        let held = layers.iter().map(S::len).sum::<usize>() + S::len(&out);
        stats.stored_peak = stats.stored_peak.max(held as u64);
        // A last layer always produces the goal; no successors means no goal reachable.
        if last || S::len(&out) == 0 {
            break 'search;
        }
        let previous = layers.len().checked_sub(2).map(|i| &layers[i]);
        let next_layer = store.next_layer(&mut out, previous);
        layer_bytes += S::bytes(&next_layer);
        layers.push(next_layer);
    }
    let held = layers.iter().map(S::len).sum::<usize>() + S::len(&out);
    stats.stored_peak = stats.stored_peak.max(held as u64);
    let moves = found.map(|f| store.path_back(&layers, f));
    finish(stats, status, moves, layer_bytes)
}

/// The outcome of a layered BFS that ended with `status` (`None`: the graph exhausted, which
/// cannot happen on a solvable board) and `layer_bytes` in its layers.
pub(super) fn finish(
    mut stats: SearchStats,
    status: Option<Outcome>,
    moves: Option<Vec<Move>>,
    layer_bytes: u64,
) -> RawOutcome {
    stats.memory_bytes = stats.memory_bytes.max(layer_bytes);
    RawOutcome {
        status: status.unwrap_or(Outcome::NodeLimit),
        moves,
        stats,
        per_iteration: Vec::new(),
    }
}

/// The outcome when the start is the goal: the root generated and stored, no moves.
pub(super) fn solved_at_root() -> RawOutcome {
    RawOutcome {
        status: Outcome::Solved,
        moves: Some(Vec::new()),
        stats: SearchStats {
            generated: 1,
            stored_peak: 1,
            ..SearchStats::default()
        },
        per_iteration: Vec::new(),
    }
}
