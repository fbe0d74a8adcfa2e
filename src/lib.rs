//! npuzzle: solve the sliding-tile puzzle of any size and benchmark search algorithms on it.
//!
//! Modules, one idea each, in layers (docs/ARCHITECTURE.md; `tests/architecture.rs` keeps
//! every import pointing down):
//! - [`cli`]: the `bench` command line, arguments to requests and results to output.
//! - Engines, one per subcommand: [`mod@solve`] (`bench solve`), [`run`] (`bench run`), [`merge`],
//!   [`mod@pdb`] (`bench pdb`), [`report`], [`generate`]
//!   (`bench gen`), [`predict`] (IDA* tree-size prediction), [`census`] (complete
//!   breadth-first search of small boards).
//! - Files and protocols: [`results`] (the results CSV and its sidecar), [`instances`]
//!   (instance files), [`external`] (external solvers in the original task's protocol),
//!   [`input`] (one board from JSON or plain text, with precise errors).
//! - Solvers: [`search`] (BFS, Dijkstra, A*, IDA* and the one entry point [`search::solve`]),
//!   [`heuristic`] (lower bounds, incremental), [`approx`] (the polynomial-time solver for
//!   boards too large to solve optimally), [`geometry`] (per-size tables, packed positions).
//! - Foundation: [`board`] (the R x C board model, goal layouts, moves, solvability) and
//!   [`infra`] (the counting allocator, limits, signals, locked output, provenance, units).
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
pub mod pdb;
pub mod predict;
pub mod report;
pub mod results;
pub mod run;
pub mod search;
pub mod solve;
pub mod split;

pub use board::{Board, BoardError, Goal, Move};
pub use heuristic::HeuristicKind;
pub use search::{Algorithm, Limits, Outcome, SearchStats, SolveError, SolveReport, solve};
