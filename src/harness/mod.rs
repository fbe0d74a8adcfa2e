//! `bench run`'s engine ([`engine`]): the job plan ([`plan`]), the rayon pool and per-job
//! measurement ([`runner`]), the locked output ([`output`]), signals ([`signals`]), the
//! metadata sidecar ([`meta`]), limit parsing and memory defaults ([`limits`]), the counting
//! allocator ([`crate::alloc`]) and the end-of-run table ([`summary`]); and `bench merge`'s
//! ([`merge`]). The rows themselves are [`crate::results`]'.

/// The counting allocator, re-exported from [`crate::alloc`] where it lives (the searches
/// mark where their own structures start).
pub use crate::alloc;
pub mod engine;
pub mod limits;
pub mod merge;
pub mod meta;
pub mod output;
pub mod plan;
pub mod runner;
pub mod signals;
pub mod summary;
