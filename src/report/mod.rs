//! `bench report`: results CSVs in, aggregate tables and SVG figures out.
//!
//! - [`load`]: read several results CSVs, check their headers, typed `file:line` errors.
//! - [`aggregate`]: per (algorithm, heuristic[, group]) statistics, b*, baseline ratios.
//! - [`table`]: aligned text, Markdown or CSV output.
//! - [`plots`]: SVG figures.

pub mod aggregate;
pub mod load;
pub mod plots;
pub mod table;

pub use aggregate::{GroupBy, Summary, aggregate, effective_branching_factor};
pub use load::{LoadError, Record, load_files};
pub use table::{Format, render};
