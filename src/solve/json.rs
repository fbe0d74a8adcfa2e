//! The one JSON object `bench solve --format json` prints, and `bench run --isolate` reads
//! back from its child: a solution, or (exit status 3) the statistics of a search a limit
//! stopped, without `moves`, `length` and `blank_positions`.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Goal, Move, moves_to_string};
use crate::heuristic::HeuristicKind;
use crate::infra::units::millis;
use crate::search::{Algorithm, IterationCount, Outcome, SolveReport};

/// `bench solve --format json`'s object. Field order is the output's order.
#[derive(Debug, Serialize, Deserialize)]
pub struct SolveJson {
    /// `solved`, or the limit: `timeout`, `node-limit`, `memory-limit`, `depth-limit`.
    pub status: Outcome,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The goal layout the moves lead to.
    pub goal: Goal,
    /// The moves as letters U/D/L/R (the direction the blank moves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// The number of moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// 1-based positions of the blank along the path, start included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blank_positions: Option<Vec<usize>>,
    /// The algorithm that answered.
    pub algorithm: String,
    /// Its heuristic (`none` for blind algorithms).
    pub heuristic: String,
    /// Whether the solution is proved optimal.
    pub optimal: bool,
    /// Expanded nodes.
    pub nodes_expanded: u64,
    /// Generated nodes.
    pub nodes_generated: u64,
    /// The most nodes stored at once.
    pub peak_stored_nodes: u64,
    /// The heuristic's estimate of the start.
    pub initial_h: Option<u32>,
    /// IDA* iterations.
    pub iterations: Option<u32>,
    /// For a stopped search: every solution has at least this many moves (IDA*).
    #[serde(default)]
    pub lower_bound: Option<u32>,
    /// The most heap bytes the search held (counting allocator; null without it).
    #[serde(default)]
    pub peak_heap_bytes: Option<u64>,
    /// IDA*: bound, expanded, generated (root included) and completeness of every iteration.
    /// Written only; a reader does not need it back.
    #[serde(default, skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub per_iteration: Vec<IterationCount>,
    /// Search time in milliseconds.
    pub search_ms: f64,
    /// Setup time (tables, pattern databases) in milliseconds.
    pub setup_ms: f64,
}

impl SolveJson {
    /// The object for `report` of `algorithm` + `heuristic` on `board`; `solution` holds the
    /// moves when the search solved it.
    pub fn new(
        board: &Board,
        goal: Goal,
        algorithm: Algorithm,
        heuristic: &HeuristicKind,
        report: &SolveReport,
        solution: Option<&[Move]>,
        peak_heap_bytes: Option<u64>,
    ) -> SolveJson {
        SolveJson {
            status: report.status,
            rows: board.rows(),
            cols: board.cols(),
            goal,
            moves: solution.map(moves_to_string),
            length: solution.map(<[Move]>::len),
            blank_positions: solution.map(|m| super::output::blank_positions(board, m).collect()),
            algorithm: algorithm.to_string(),
            heuristic: heuristic.to_string(),
            optimal: report.optimal,
            nodes_expanded: report.stats.expanded,
            nodes_generated: report.stats.generated,
            peak_stored_nodes: report.stats.stored_peak,
            initial_h: report.initial_h,
            iterations: report.stats.iterations,
            lower_bound: report.stats.lower_bound,
            peak_heap_bytes,
            per_iteration: report.per_iteration.clone(),
            search_ms: millis(report.search_time),
            setup_ms: millis(report.setup_time),
        }
    }
}
