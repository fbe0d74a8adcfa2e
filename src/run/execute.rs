//! [`Prepared::execute`]: the jobs of a prepared run on the worker pool, each row judged and
//! written as it finishes, and how the session ended (complete, interrupted by a signal or the
//! embedding program, failed) recorded in the sidecar.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::bail;

use super::known_optimal::KnownOptimal;
use super::options::RunOptions;
use super::prepare::{Prepared, prepare};
use super::progress::{Tally, progress_bar};
use super::runner::{self, Interrupt, JobEnd, RunContext};
use super::sink::{Sidecar, Sink};
use super::summary;
use crate::infra::output::{self, WriteError};
use crate::infra::signals;
use crate::results::Row;
use crate::results::meta::SessionStatus;

impl Prepared {
    /// Runs the jobs, writing each row as it finishes; returns the exit status: 0 when every job
    /// ran, 128 + the signal when SIGINT/SIGTERM stopped it (rows kept, session
    /// `interrupted`), 141 when the reader of stdout went away. A failed write is an error
    /// ([`WriteError`]).
    pub fn execute(self) -> anyhow::Result<i32> {
        let interrupt = Arc::new(Interrupt::new());
        catch_signals(&interrupt, &self.sidecar);
        self.execute_with(interrupt, None)
    }

    /// [`Prepared::execute`] for a program that embeds the engine (the Python package): no
    /// signal handler is installed; `interrupt` is the caller's stop (it ends the run as
    /// SIGINT would, exit status 130, finished rows kept, session `interrupted`), and
    /// `finished` counts the rows written, for the caller's own progress display.
    pub fn execute_embedded(
        self,
        interrupt: Arc<Interrupt>,
        finished: Arc<AtomicUsize>,
    ) -> anyhow::Result<i32> {
        self.execute_with(interrupt, Some(finished))
    }

    /// How many jobs this session runs (a resume's finished ones left out).
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    /// The jobs, with signals caught by the caller (`finished`: `None`) or by the embedding
    /// program (`Some`, its counter of rows written).
    fn execute_with(
        self,
        interrupt: Arc<Interrupt>,
        finished: Option<Arc<AtomicUsize>>,
    ) -> anyhow::Result<i32> {
        let started = Instant::now();
        let Prepared {
            options,
            sources,
            jobs,
            limits,
            isolate_exe,
            threads,
            run_id,
            sink,
            mut writer,
            existing_rows,
            sidecar,
        } = self;
        let out_name = sink.name();
        let pb = progress_bar(&options, jobs.len());
        let scratch = std::env::temp_dir();
        let ctx = RunContext {
            run_id: &run_id,
            sources: &sources,
            limits: &limits,
            cpu_limit: options.cpu_limit,
            isolate: isolate_exe.as_deref(),
            scratch: &scratch,
            solutions: options.solutions,
            warmup: options.warmup,
            interrupt: &interrupt,
        };
        let mut known = KnownOptimal::new(&sources, &existing_rows);
        let mut new_rows: Vec<Row> = Vec::new();
        let mut tally = Tally::default();
        let solve_fn = crate::search::solve;
        let result = runner::run_all(&ctx, &jobs, threads, &solve_fn, |outcome| {
            let JobEnd::Row(mut row) = outcome else {
                return Ok(());
            };
            known.judge(&mut row);
            writer.write(&row)?;
            tally.count(&row, &pb, options.quiet);
            pb.inc(1);
            pb.set_message(tally.to_string());
            if let Some(n) = &finished {
                n.fetch_add(1, Ordering::SeqCst);
            }
            new_rows.push(*row);
            Ok::<(), std::io::Error>(())
        });
        pb.finish_and_clear();
        drop(writer);

        let signal = match finished {
            None => signals::received(),
            Some(_) => interrupt.is_interrupted().then_some(libc::SIGINT),
        }
        .filter(|_| result.is_ok());
        let status = match (&result, signal) {
            (Err(_), _) => SessionStatus::Failed,
            (Ok(()), Some(_)) => SessionStatus::Interrupted,
            (Ok(()), None) => SessionStatus::Complete,
        };
        let ended = sidecar.end_session(status, Some(new_rows.len()));
        if let Err(error) = result {
            return run_failure(error, &sink, out_name);
        }
        ended?;
        if !options.quiet {
            print_summary(existing_rows, &new_rows, &sink, started.elapsed());
        }
        match signal {
            Some(sig) => {
                note_interrupted(&options, &out_name, sig, jobs.len(), new_rows.len());
                Ok(signals::exit_status(sig))
            }
            None => Ok(0),
        }
    }
}

/// A run the runner could not finish: 141 (quietly, like SIGPIPE) when the reader of stdout
/// went away, else the error; of writes, the first that failed is the one reported.
fn run_failure(
    error: runner::RunError<std::io::Error>,
    sink: &Sink,
    out_name: PathBuf,
) -> anyhow::Result<i32> {
    match error {
        runner::RunError::Sink(error) => {
            if matches!(sink, Sink::Stdout) && error.kind() == std::io::ErrorKind::BrokenPipe {
                // The reader of stdout went away (e.g. `| head`): stop quietly, like SIGPIPE.
                return Ok(141);
            }
            Err(WriteError {
                path: out_name,
                error,
            }
            .into())
        }
        e @ (runner::RunError::Pool(_) | runner::RunError::WorkerPanic) => bail!("{e}"),
    }
}

/// The end-of-run table over all the file's rows (a resume's earlier ones too) and how many
/// rows this session wrote, and where.
fn print_summary(mut all: Vec<Row>, new_rows: &[Row], sink: &Sink, elapsed: Duration) {
    all.extend(new_rows.iter().cloned());
    output::note(format_args!(
        "\n{}",
        summary::render(&all, new_rows.len(), elapsed)
    ));
    note!(
        "{} row(s) written{}",
        new_rows.len(),
        match sink {
            Sink::Stdout => String::new(),
            Sink::File(p) => format!(" to {}", p.display()),
        }
    );
}

/// SIGINT and SIGTERM: the first stops the running jobs (no row is written for them, the rest
/// are flushed); a second ends the process at once, marking the session `interrupted` first.
fn catch_signals(interrupt: &Arc<Interrupt>, sidecar: &Arc<Sidecar>) {
    let first = interrupt.clone();
    let last_words = sidecar.clone();
    let failed = sidecar.clone();
    // stdout or stderr cannot be written: the rows so far are kept, the session says `failed`.
    output::on_write_failure(move || {
        let _ = failed.end_session(SessionStatus::Failed, None);
    });
    let installed = signals::install(
        move |_| first.interrupt(),
        move |sig| {
            // A second signal ends the process now: every finished row is flushed.
            let _ = last_words.end_session(SessionStatus::Interrupted, None);
            note!("{}: stopped at once", signals::name(sig));
        },
    );
    if let Err(e) = installed {
        note!("warning: cannot catch SIGINT/SIGTERM ({e}); an interrupted run keeps its rows");
    }
}

/// Tells an interrupted run how to finish: the same command plus `--resume` (and the `--out`
/// the run chose, if the user gave none).
fn note_interrupted(options: &RunOptions, out_name: &Path, sig: i32, jobs: usize, done: usize) {
    note!(
        "interrupted ({}): {} of {} jobs not run; finish with the same command plus --resume{}",
        signals::name(sig),
        jobs - done,
        jobs,
        if options.out.is_none() {
            format!(" --out {}", out_name.display())
        } else {
            String::new()
        }
    );
}

/// Runs `bench run`: [`prepare`], then [`Prepared::execute`].
pub fn run(options: RunOptions) -> anyhow::Result<i32> {
    prepare(options)?.execute()
}
