//! The metadata sidecar of a results file, `<out>.meta.json`: what was run, by which build, on
//! which machine, with which inputs, when. `run_id` joins it with the CSV rows; it shares the
//! CSV's [`SCHEMA_VERSION`]. The build and the machine are [`crate::infra::provenance`]'s.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::SCHEMA_VERSION;
use crate::board::Shape;
use crate::infra::provenance::{Build, Host, sidecar_path};
use crate::search::Limits;

/// One instance file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InstanceFileMeta {
    /// The path as named on the command line (the `instance_file` column).
    pub path: String,
    /// SHA-256 of the file's bytes, hex.
    pub sha256: String,
    /// Instances read.
    pub instances: usize,
    /// The boards' size and the goal used (the keys `rows`, `cols`, `goal`).
    #[serde(flatten)]
    pub shape: Shape,
    /// Ids of unsolvable instances skipped with `--skip-invalid`.
    pub skipped_unsolvable: Vec<String>,
}

/// An external solver of the run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SolverMeta {
    /// The `algorithm` column of its rows.
    pub name: String,
    /// The command line, before placeholder substitution.
    pub command: String,
}

/// How a session of `bench run` (or a `bench census`) ended, written `running`, `complete`,
/// `interrupted`, `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SessionStatus {
    /// Still running, or killed without a word (a session whose process is gone).
    Running,
    /// Every job ran.
    Complete,
    /// Stopped by SIGINT or SIGTERM; the rows written are kept.
    Interrupted,
    /// Stopped by an error (a failed write, the worker pool).
    Failed,
}

impl SessionStatus {
    /// The name in the sidecar.
    pub fn name(self) -> &'static str {
        match self {
            SessionStatus::Running => "running",
            SessionStatus::Complete => "complete",
            SessionStatus::Interrupted => "interrupted",
            SessionStatus::Failed => "failed",
        }
    }
}

impl std::fmt::Display for SessionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One invocation of `bench run` on this output (a resumed run has several).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Session {
    /// The command line.
    pub command_line: Vec<String>,
    /// The build.
    pub program: Build,
    /// Worker threads.
    pub threads: usize,
    /// Start time (RFC 3339, UTC).
    pub start_time: String,
    /// End time (`null` while running or if the process was killed).
    pub end_time: Option<String>,
    /// Jobs this session was to run (after resume and shard filtering).
    pub jobs_to_run: usize,
    /// Rows this session wrote.
    pub rows_written: usize,
    /// How the session ended, or `running`.
    pub status: SessionStatus,
    /// The process id of the session (names the holder of a locked output).
    #[serde(default)]
    pub pid: Option<u32>,
    /// The host the session ran on.
    #[serde(default)]
    pub hostname: Option<String>,
}

/// The whole sidecar.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// Version of the CSV schema and of this file's layout.
    pub schema_version: u32,
    /// Joins the sidecar with the CSV rows.
    pub run_id: String,
    /// The build of the latest session.
    pub program: Build,
    /// The command line of the latest session.
    pub command_line: Vec<String>,
    /// Worker threads of the latest session.
    pub threads: usize,
    /// Per-job limits.
    pub limits: Limits,
    /// Seed of the job-order shuffle (execution order only; results do not depend on it).
    pub job_order_seed: u64,
    /// `K/N` when only a shard of the job list was run.
    pub shard: Option<String>,
    /// Algorithms.
    pub algorithms: Vec<String>,
    /// Heuristics (blind algorithms use `none`).
    pub heuristics: Vec<String>,
    /// Repetitions per job.
    pub repeat: u32,
    /// External solvers (`--solver NAME=COMMAND`), in the order given.
    #[serde(default)]
    pub solvers: Vec<SolverMeta>,
    /// Whether the built-in algorithms ran as child processes (`--isolate`).
    #[serde(default)]
    pub isolate: bool,
    /// CPU-time limit of each job run as a process, in milliseconds (`--cpu-limit`).
    #[serde(default)]
    pub cpu_limit_ms: Option<u64>,
    /// Unrecorded warm-up runs before each job (`--warmup`; 0 in sidecars older than it).
    #[serde(default)]
    pub warmup: u32,
    /// Jobs in the plan (this shard, before skipping finished ones).
    pub jobs_planned: usize,
    /// The machine.
    pub host: Host,
    /// The instance files.
    pub instance_files: Vec<InstanceFileMeta>,
    /// Start of the first session.
    pub start_time: String,
    /// End of the latest session.
    pub end_time: Option<String>,
    /// Every session on this output, oldest first.
    pub sessions: Vec<Session>,
}

/// Who holds the results file `path` locked, from the last session of its sidecar (for
/// [`crate::infra::output::open`]).
pub fn holder(path: &Path) -> String {
    let session = Meta::read(&sidecar_path(path))
        .ok()
        .and_then(|m| m.sessions.last().cloned());
    match session {
        Some(s) if s.pid.is_some() => format!(
            "pid {}{}, started {}: {}",
            s.pid.unwrap_or_default(),
            s.hostname.map_or(String::new(), |h| format!(" on {h}")),
            s.start_time,
            s.command_line.join(" ")
        ),
        _ => "a process that has not written its metadata yet".into(),
    }
}

impl Meta {
    /// Writes the sidecar ([`crate::infra::output::write_sidecar`]: atomically, no temporary
    /// file left behind on failure).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::infra::output::write_sidecar(path, self)
    }

    /// Reads a sidecar.
    pub fn read(path: &Path) -> anyhow::Result<Meta> {
        use anyhow::Context;
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let meta: Meta = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a results metadata file", path.display()))?;
        // Versions 2 and 3 changed the CSV; the sidecar only gained fields with defaults.
        anyhow::ensure!(
            (1..=SCHEMA_VERSION).contains(&meta.schema_version),
            "{}: schema version {} (this program reads 1 to {SCHEMA_VERSION})",
            path.display(),
            meta.schema_version
        );
        Ok(meta)
    }
}
