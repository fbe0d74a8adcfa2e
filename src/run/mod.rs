//! `bench run`'s engine, in three steps: [`prepare`] checks everything before any job starts
//! (the plan, the locked output, a resume's consistency ([`resume`]), the metadata),
//! [`Prepared::execute`] runs the jobs and writes each row as it finishes ([`execute`]), and
//! the result says how the session ended. `cli::run` and the Python package only fill
//! [`RunOptions`]. Beside them: the job plan ([`plan`]), the rayon pool and per-job measurement
//! ([`runner`]), the progress display ([`progress`]), the optimality judge ([`known_optimal`])
//! and the end-of-run table ([`summary`]). The rows and their sidecar are [`crate::results`]';
//! the allocator, signals, the locked output and limit parsing are [`crate::infra`]'s.

/// `eprintln!` that never panics: a diagnostic that cannot be written must not stop the run
/// ([`crate::infra::output::note`]).
macro_rules! note {
    ($($t:tt)*) => {
        $crate::infra::output::note(format_args!("{}\n", format_args!($($t)*)))
    };
}

pub mod default_set;
mod execute;
mod known_optimal;
mod options;
pub mod plan;
mod prepare;
mod progress;
mod resume;
pub mod runner;
mod sink;
pub mod summary;

pub use execute::run;
pub use options::{RESULTS_DIR, RunOptions};
pub use prepare::{Prepared, prepare};
