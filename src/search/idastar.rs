//! IDA* (Korf 1985): depth-first search in iterations of increasing f-bound.
//!
//! The position is changed in place (one swap per move and one undo), successors come from the
//! geometry's per-cell lists in Korf's order, the move back to the parent is never generated,
//! and nothing is allocated per node: the path lives in a buffer sized once per iteration.

use crate::board::Move;
use crate::geometry::{Geometry, Tiles};
use crate::heuristic::{Built, Heuristic};
use crate::with_heuristic;

use super::{Budget, Limits, RawOutcome, SearchStats, Status};

/// What one depth-first probe ended with.
enum Probe {
    Found,
    NotFound,
    Stopped(Status),
}

/// The mutable state of one IDA* run.
struct Ida<'a, H: Heuristic> {
    geometry: &'a Geometry,
    heuristic: &'a H,
    tiles: Tiles,
    bound: u32,
    next_bound: u32,
    /// `path[d]`: the blank's cell after `d` moves.
    path: Vec<u8>,
    generated: u64,
    expanded: u64,
    max_depth: u64,
    /// The depth of the goal, once found.
    solution_length: usize,
    budget: Budget,
}

impl<H: Heuristic> Ida<'_, H> {
    /// Searches below the node reached after `g` moves with the blank on `blank`, having
    /// arrived from `parent` (or `usize::MAX` at the root).
    fn probe(&mut self, blank: usize, parent: usize, g: u32, h: u32, memo: H::Memo) -> Probe {
        let f = g + h;
        if f > self.bound {
            if f < self.next_bound {
                self.next_bound = f;
            }
            return Probe::NotFound;
        }
        if h == 0 && self.geometry.is_goal(&self.tiles) {
            self.solution_length = g as usize;
            return Probe::Found;
        }
        self.expanded += 1;
        let depth = g as usize + 1;
        if depth as u64 > self.max_depth {
            self.max_depth = depth as u64;
        }
        let n = self.geometry.neighbour_count[blank & 63] as usize;
        for k in 0..n {
            let next = self.geometry.neighbours[blank & 63][k] as usize;
            if next == parent {
                continue;
            }
            self.generated += 1;
            if self.generated >= self.budget.next_check
                && let Some(s) = self.budget.check(self.generated)
            {
                return Probe::Stopped(s);
            }
            let tile = self.tiles[next & 63];
            self.tiles[blank & 63] = tile;
            self.tiles[next & 63] = 0;
            let (h2, memo2) = self
                .heuristic
                .update(&self.tiles, tile, next, blank, h, memo);
            self.path[depth] = next as u8;
            let r = self.probe(next, blank, g + 1, h2, memo2);
            if !matches!(r, Probe::NotFound) {
                return r;
            }
            self.tiles[next & 63] = tile;
            self.tiles[blank & 63] = 0;
        }
        Probe::NotFound
    }
}

/// Runs IDA* from `start` with the built heuristic.
pub(crate) fn run(
    geometry: &Geometry,
    start: &Tiles,
    built: &Built,
    limits: &Limits,
) -> RawOutcome {
    with_heuristic!(built, h => run_with(geometry, start, h, limits))
}

fn run_with<H: Heuristic>(
    geometry: &Geometry,
    start: &Tiles,
    heuristic: &H,
    limits: &Limits,
) -> RawOutcome {
    let (h0, memo0) = heuristic.init(start);
    let blank = geometry.blank_of(start);
    let mut ida = Ida {
        geometry,
        heuristic,
        tiles: *start,
        bound: h0,
        next_bound: u32::MAX,
        path: Vec::new(),
        generated: 0,
        expanded: 0,
        max_depth: 1,
        solution_length: 0,
        budget: Budget::new(limits),
    };
    let mut iterations = 0u32;
    ida.generated = 1; // the root, counted once for the whole run (Korf's convention)
    let status = loop {
        iterations += 1;
        ida.next_bound = u32::MAX;
        ida.path.clear();
        ida.path.resize(ida.bound as usize + 2, 0);
        ida.path[0] = blank as u8;
        match ida.probe(blank, usize::MAX, 0, h0, memo0) {
            Probe::Found => break Status::Solved,
            Probe::Stopped(s) => break s,
            Probe::NotFound => {
                if ida.next_bound == u32::MAX {
                    // Cannot happen on a solvable board; treat as exhausted.
                    break Status::NodeLimit;
                }
                ida.bound = ida.next_bound;
            }
        }
        if ida.generated >= ida.budget.next_check
            && let Some(s) = ida.budget.check(ida.generated)
        {
            break s;
        }
    };
    let moves = (status == Status::Solved).then(|| {
        (0..ida.solution_length)
            .map(|d| geometry.move_between(ida.path[d] as usize, ida.path[d + 1] as usize))
            .collect::<Vec<Move>>()
    });
    RawOutcome {
        status,
        moves,
        stats: SearchStats {
            expanded: ida.expanded,
            generated: ida.generated,
            stored_peak: ida.max_depth,
            memory_bytes: (ida.path.capacity() + std::mem::size_of::<Tiles>()) as u64,
            iterations: Some(iterations),
        },
    }
}
