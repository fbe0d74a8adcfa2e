//! What the engines share that is not about puzzles: the counting allocator ([`alloc`]), how
//! quantities are written ([`units`]), line charts ([`chart`]), per-job limits as the command line spells them
//! ([`limits`]), SIGINT/SIGTERM ([`signals`]), the locked output file and write errors
//! ([`output`]), and the provenance every sidecar records ([`provenance`]). Nothing here
//! imports another module of the crate: every other layer may use it.

pub mod alloc;
pub mod chart;
pub mod limits;
pub mod output;
pub mod provenance;
pub mod signals;
pub mod units;
