//! Honest totals for `bench report`: the run's own wall time, read from each results file's
//! metadata sidecar (the sum of its sessions, start to end, to the second), and apart from it
//! the summed time of the jobs (which, with several worker threads, adds up to more than the
//! run took).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::infra::provenance::sidecar_path;

/// One results file's totals.
#[derive(Debug, Clone, PartialEq)]
pub struct FileTotals {
    /// The results file.
    pub path: PathBuf,
    /// Rows read from it.
    pub rows: usize,
    /// Their summed `wall_ms`.
    pub job_ms: f64,
    /// What its sidecar says about the run's own time (`None` without a readable sidecar).
    pub run: Option<RunTime>,
}

/// The run's own time from a sidecar.
#[derive(Debug, Clone, PartialEq)]
pub struct RunTime {
    /// Sessions in the sidecar (a resumed run has several).
    pub sessions: usize,
    /// Sessions without an end time (still running, or killed).
    pub unfinished: usize,
    /// Summed start-to-end time of the finished sessions.
    pub wall: Duration,
    /// Worker threads of the sessions, as recorded.
    pub threads: Vec<usize>,
}

/// Reads the sidecar of results file `csv`: `None` if it is missing or not a sidecar (its
/// sessions and their times are all that is read, so any schema version does).
pub fn read_run_time(csv: &Path) -> Option<RunTime> {
    let text = std::fs::read_to_string(sidecar_path(csv)).ok()?;
    let meta: serde_json::Value = serde_json::from_str(&text).ok()?;
    let sessions = meta.get("sessions")?.as_array()?;
    let mut rt = RunTime {
        sessions: sessions.len(),
        unfinished: 0,
        wall: Duration::ZERO,
        threads: Vec::new(),
    };
    for s in sessions {
        let time = |k: &str| {
            s.get(k)
                .and_then(|v| v.as_str())
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        };
        match (time("start_time"), time("end_time")) {
            (Some(a), Some(b)) => {
                rt.wall += (b - a).to_std().unwrap_or(Duration::ZERO);
            }
            _ => rt.unfinished += 1,
        }
        if let Some(t) = s.get("threads").and_then(|v| v.as_u64()) {
            rt.threads.push(t as usize);
        }
    }
    Some(rt)
}

fn time(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.2} ms")
    }
}

/// One line per results file: the run's wall time per its sidecar (or that there is none),
/// then the summed job time, labelled as such.
pub fn render(files: &[FileTotals]) -> String {
    let mut out = String::new();
    for f in files {
        let run = match &f.run {
            None => "run wall time unknown (no sidecar)".to_string(),
            Some(r) => {
                let mut threads = r.threads.clone();
                threads.sort_unstable();
                threads.dedup();
                let threads = threads
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join("/");
                let unfinished = if r.unfinished > 0 {
                    format!(", {} unfinished session(s) not counted", r.unfinished)
                } else {
                    String::new()
                };
                let wall = if r.wall.is_zero() {
                    "under 1 s".to_string()
                } else {
                    time(r.wall.as_secs_f64() * 1000.0)
                };
                format!(
                    "run wall time {wall} ({} session(s) per the sidecar, to the second, {} \
                     thread(s){unfinished})",
                    r.sessions,
                    if threads.is_empty() {
                        "?".into()
                    } else {
                        threads
                    },
                )
            }
        };
        writeln!(
            out,
            "{}: {run}; summed job time {} over {} row(s)",
            f.path.display(),
            time(f.job_ms),
            f.rows
        )
        .expect("string");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_sessions_are_summed_and_labelled_apart_from_job_time() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("r.csv");
        std::fs::write(&csv, "").unwrap();
        std::fs::write(
            sidecar_path(&csv),
            r#"{"sessions": [
                {"start_time": "2026-12-03T10:00:00Z", "end_time": "2026-12-03T10:02:30Z", "threads": 2},
                {"start_time": "2026-12-03T11:00:00Z", "end_time": "2026-12-03T11:00:20Z", "threads": 4},
                {"start_time": "2026-12-03T12:00:00Z", "end_time": null, "threads": 2}
            ]}"#,
        )
        .unwrap();
        let run = read_run_time(&csv).unwrap();
        assert_eq!(run.wall, Duration::from_secs(170));
        assert_eq!((run.sessions, run.unfinished), (3, 1));
        let text = render(&[
            FileTotals {
                path: csv.clone(),
                rows: 10,
                job_ms: 300_000.0,
                run: Some(run),
            },
            FileTotals {
                path: "quick.csv".into(),
                rows: 2,
                job_ms: 0.5,
                run: Some(RunTime {
                    sessions: 1,
                    unfinished: 0,
                    wall: Duration::ZERO,
                    threads: vec![1],
                }),
            },
            FileTotals {
                path: "other.csv".into(),
                rows: 1,
                job_ms: 2.5,
                run: read_run_time(Path::new("/nonexistent/other.csv")),
            },
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "{}: run wall time 170.0 s (3 session(s) per the sidecar, to the second, 2/4 \
                 thread(s), 1 unfinished session(s) not counted); summed job time 300.0 s over \
                 10 row(s)",
                csv.display()
            )
        );
        assert_eq!(
            lines[1],
            "quick.csv: run wall time under 1 s (1 session(s) per the sidecar, to the second, 1 \
             thread(s)); summed job time 0.50 ms over 2 row(s)"
        );
        assert_eq!(
            lines[2],
            "other.csv: run wall time unknown (no sidecar); summed job time 2.50 ms over 1 row(s)"
        );
    }
}
