//! `bench run`'s engine ([`engine`]): the job plan ([`plan`]), the rayon pool and per-job
//! measurement ([`runner`]) and the end-of-run table ([`summary`]). The rows and their sidecar
//! are [`crate::results`]'; the allocator, signals, the locked output and limit parsing are
//! [`crate::infra`]'s.

pub mod default_set;
pub mod engine;
pub mod plan;
pub mod runner;
pub mod summary;
