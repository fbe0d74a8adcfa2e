//! The integration tests, compiled as one binary (one link instead of one per file).
//! Each file beside this one is a module; `common` holds the independent oracles they share.

mod any_size;
mod approx;
mod architecture;
mod bfs_layers;
mod census;
mod cli_pdb;
mod cli_vocabulary;
mod cluster_plan;
mod common;
mod custom_heuristic;
mod docs;
mod duplicates;
mod external;
mod gen_cli;
mod help_lists;
mod korf;
mod measurement;
mod parallel_idastar;
mod pdb;
mod pdb_large;
mod predict;
mod readers_proptest;
mod report;
mod report_formats;
mod report_html;
mod run_cli;
mod run_external;
mod search_agreement;
mod solve_cli;
mod split;
mod standalone;
mod state_space;
mod write_errors;
