//! The results CSV of `bench run`, owned in one place: the typed [`Row`] with its [`Outcome`]
//! (the one status type from the search to the file), the documented header and its version,
//! one [`RowWriter`] and one reader ([`read()`]) that `bench run --resume`, `bench merge` and
//! `bench report` all use.
//!
//! - [`row`]: the row, its outcome and its job key.
//! - [`pair`]: the algorithm/heuristic configuration a row records, a run plans and a report
//!   compares.
//! - [`read`](mod@read): reading a file back: header (this version, 2 or 1), every cell's type,
//!   duplicate job keys, and at most one torn last line.
//! - [`write`](mod@write): appending rows, one flushed line each.
//! - [`meta`]: the sidecar `<out>.meta.json`: what was run, by which build, where, when.

pub mod meta;
pub mod pair;
pub mod read;
pub mod row;
pub mod write;

pub use pair::{EXTERNAL_HEURISTIC, Pair};
pub use read::{ReadError, ResultsFile, TornLine, parse, read};
pub use row::{InstanceKey, JobKey, MeasuredBy, Outcome, Row};
pub use write::RowWriter;

/// The schema version of the CSV and of its metadata sidecar. Version 3 added
/// `known_optimal`, `suboptimal`, `peak_rss_bytes`, `user_ms`, `sys_ms` and `measured_by`
/// (external solvers and isolated jobs); version 2 added `lower_bound`, `iterations` and
/// `search_ms`. Files of versions 1 and 2 are still read (the newer cells empty).
pub const SCHEMA_VERSION: u32 = 3;

/// The CSV header, in order (the documented schema, `docs/results-schema.md`).
pub const HEADER: [&str; 32] = [
    "run_id",
    "instance_file",
    "instance_id",
    "rows",
    "cols",
    "goal",
    "scramble_moves",
    "algorithm",
    "heuristic",
    "repetition",
    "status",
    "moves",
    "lower_bound",
    "optimal",
    "known_optimal",
    "suboptimal",
    "nodes_expanded",
    "nodes_generated",
    "iterations",
    "peak_stored_nodes",
    "peak_heap_bytes",
    "peak_rss_bytes",
    "wall_ms",
    "search_ms",
    "cpu_ms",
    "user_ms",
    "sys_ms",
    "setup_ms",
    "initial_h",
    "measured_by",
    "message",
    "solution",
];

/// The header of schema version 2.
pub const HEADER_V2: [&str; 26] = [
    "run_id",
    "instance_file",
    "instance_id",
    "rows",
    "cols",
    "goal",
    "scramble_moves",
    "algorithm",
    "heuristic",
    "repetition",
    "status",
    "moves",
    "lower_bound",
    "optimal",
    "nodes_expanded",
    "nodes_generated",
    "iterations",
    "peak_stored_nodes",
    "peak_heap_bytes",
    "wall_ms",
    "search_ms",
    "cpu_ms",
    "setup_ms",
    "initial_h",
    "message",
    "solution",
];

/// The header of schema version 1, which files written before version 2 carry.
pub const HEADER_V1: [&str; 23] = [
    "run_id",
    "instance_file",
    "instance_id",
    "rows",
    "cols",
    "goal",
    "scramble_moves",
    "algorithm",
    "heuristic",
    "repetition",
    "status",
    "moves",
    "optimal",
    "nodes_expanded",
    "nodes_generated",
    "peak_stored_nodes",
    "peak_heap_bytes",
    "wall_ms",
    "cpu_ms",
    "setup_ms",
    "initial_h",
    "message",
    "solution",
];

/// The header as one CSV line (without the newline).
pub fn header_line() -> String {
    HEADER.join(",")
}
