//! `bench run`'s engine: the job plan ([`plan`]), the rayon pool and per-job measurement
//! ([`runner`]), the results CSV ([`record`]), the metadata sidecar ([`meta`]), limit parsing
//! and memory defaults ([`limits`]), the counting allocator ([`alloc`]) and the end-of-run
//! table ([`summary`]).

pub mod alloc;
pub mod engine;
pub mod limits;
pub mod meta;
pub mod output;
pub mod plan;
pub mod record;
pub mod runner;
pub mod signals;
pub mod summary;
