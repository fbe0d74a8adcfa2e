//! npuzzle: solve the sliding-tile puzzle of any size and benchmark search algorithms on it.
//!
//! Modules, one idea each:
//! - [`alloc`]: the counting allocator: per-thread heap, each job's and each search's peak.
//! - [`board`]: the R x C board model, goal layouts, moves, solvability.
//! - [`census`]: complete breadth-first search of small boards (distance distributions).
//! - [`geometry`]: per-size tables and the compact position the exact searches use.
//! - [`heuristic`]: lower bounds (misplaced, Manhattan, linear conflict, walking distance,
//!   additive pattern databases), incremental.
//! - [`search`]: BFS, Dijkstra, A*, IDA* and the one entry point [`search::solve`].
//! - [`input`]: reading one board from JSON or plain text, with precise errors.
//! - [`instances`]: instance files (our format, Korf's tsv, JSON lines) and the generators.
//! - [`results`]: the results CSV: the typed row, its one writer and its one reader.
//! - [`harness`]: `bench run`: the job plan, the rayon pool, limits, metadata, `bench merge`.
//! - [`external`]: external solvers in the original task's protocol, isolated and measured.
//! - [`approx`]: the polynomial-time solver for boards too large to solve optimally.
//! - [`predict`]: IDA* tree-size prediction (KRE, CDP, stratified sampling), brute-force trees.
//! - [`report`]: aggregate tables and SVG plots from results CSVs.
//! - [`units`]: how bytes and milliseconds are written.
//! - [`cli`]: the `bench` command line.
#![warn(missing_docs)]

pub mod approx;
pub mod board;
pub mod census;
pub mod cli;
pub mod external;
pub mod generate;
pub mod geometry;
pub mod heuristic;
pub mod infra;
pub mod input;
pub mod instances;
pub mod merge;
pub mod predict;
pub mod report;
pub mod results;
pub mod run;
pub mod search;

pub use board::{Board, BoardError, Goal, Move};
pub use heuristic::HeuristicKind;
pub use search::{Algorithm, Limits, SearchStats, SolveError, SolveReport, Status, solve};
