//! What a run says while it runs: the progress bar (`--progress`) and its tally of how the rows
//! ended, with wrong answers and errors named on stderr as they come.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::options::RunOptions;
use crate::results::{Outcome, Row};

/// Wrong answers, rejections and crashes of external solvers named on stderr (the rest are
/// only counted: a solver that is wrong on every board must not flood the terminal).
const MAX_ANSWER_NOTES: usize = 10;

/// Writes a line to stderr above the progress bar.
pub(super) fn note(pb: &ProgressBar, msg: impl AsRef<str>) {
    pb.suspend(|| note!("{}", msg.as_ref()));
}

/// The progress bar on stderr with `--progress` (hidden with `--quiet` or without it).
pub(super) fn progress_bar(options: &RunOptions, jobs: usize) -> ProgressBar {
    let pb = if options.progress && !options.quiet {
        ProgressBar::with_draw_target(Some(jobs as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} jobs  {msg}  {elapsed_precise} elapsed, ETA {eta}",
        )
        .expect("valid progress template"),
    );
    pb
}

/// How the rows written so far ended, for the progress bar's message; wrong answers and
/// errors are named on stderr as they come.
#[derive(Default)]
pub(super) struct Tally {
    solved: usize,
    limited: usize,
    errors: usize,
    wrong: usize,
}

impl Tally {
    /// Counts a row; names the first [`MAX_ANSWER_NOTES`] wrong answers, rejections and crashes
    /// (unless `quiet`) and every error.
    pub(super) fn count(&mut self, row: &Row, pb: &ProgressBar, quiet: bool) {
        match row.status {
            Outcome::Solved => self.solved += 1,
            Outcome::WrongAnswer | Outcome::Rejected | Outcome::Crashed => {
                self.wrong += 1;
                // The first few on stderr; all of them are in the CSV.
                if self.wrong <= MAX_ANSWER_NOTES && !quiet {
                    note(
                        pb,
                        format!(
                            "{}: {} instance {} {}: {}{}",
                            row.status,
                            row.instance_file,
                            row.instance_id,
                            row.algorithm,
                            row.message.as_deref().unwrap_or(""),
                            if self.wrong == MAX_ANSWER_NOTES {
                                " (further wrong answers, rejections and crashes only in \
                                 the results)"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
            Outcome::Error => {
                self.errors += 1;
                note(
                    pb,
                    format!(
                        "error: {} instance {} {}/{}: {}",
                        row.instance_file,
                        row.instance_id,
                        row.algorithm,
                        row.heuristic,
                        row.message.as_deref().unwrap_or("")
                    ),
                );
            }
            _ => self.limited += 1,
        }
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "solved {}, limits hit {}", self.solved, self.limited)?;
        if self.wrong > 0 {
            write!(f, ", wrong/rejected/crashed {}", self.wrong)?;
        }
        if self.errors > 0 {
            write!(f, ", errors {}", self.errors)?;
        }
        Ok(())
    }
}
