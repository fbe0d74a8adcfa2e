//! The metadata sidecar `<out>.meta.json`: what was run, by which build, on which machine, with
//! which inputs, when. `run_id` joins it with the CSV rows.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::results::SCHEMA_VERSION;
use crate::search::Limits;

/// The build that produced the results.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Program {
    /// Crate name.
    pub name: String,
    /// Crate version.
    pub version: String,
    /// `git rev-parse HEAD` at build time, or `unknown`.
    pub git_commit: String,
    /// `rustc --version` at build time.
    pub rustc: String,
}

impl Program {
    /// This build.
    pub fn current() -> Program {
        Program {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
            git_commit: env!("NPUZZLE_GIT_COMMIT").into(),
            rustc: env!("NPUZZLE_RUSTC_VERSION").into(),
        }
    }
}

/// The machine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Host {
    /// Host name.
    pub hostname: Option<String>,
    /// CPU model (`model name` of `/proc/cpuinfo`).
    pub cpu_model: Option<String>,
    /// Logical cores available to the process.
    pub cores: usize,
    /// Physical memory in bytes.
    pub memory_bytes: Option<u64>,
    /// Operating system: family, distribution and kernel where known.
    pub os: String,
}

impl Host {
    /// The machine this process runs on.
    pub fn current() -> Host {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        let cpu_model = read("/proc/cpuinfo").and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        });
        let distro = read("/etc/os-release").and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
        let kernel = read("/proc/sys/kernel/osrelease").map(|s| s.trim().to_string());
        let mut os = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
        if let Some(d) = distro {
            os += &format!(", {d}");
        }
        if let Some(k) = kernel {
            os += &format!(", kernel {k}");
        }
        Host {
            hostname: read("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()),
            cpu_model,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_bytes: super::limits::physical_memory(),
            os,
        }
    }
}

/// One instance file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InstanceFileMeta {
    /// The path as named on the command line (the `instance_file` column).
    pub path: String,
    /// SHA-256 of the file's bytes, hex.
    pub sha256: String,
    /// Instances read.
    pub instances: usize,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The goal used.
    pub goal: String,
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

/// One invocation of `bench run` on this output (a resumed run has several).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Session {
    /// The command line.
    pub command_line: Vec<String>,
    /// The build.
    pub program: Program,
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
    /// `running`, `complete`, `interrupted` or `failed`.
    pub status: String,
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
    pub program: Program,
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

/// The sidecar path of a results file: `<out>.meta.json`.
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".meta.json");
    PathBuf::from(s)
}

/// The current time, RFC 3339 in UTC with seconds.
pub fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// SHA-256 of a file, hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

impl Meta {
    /// Writes the sidecar (atomically: a temporary file renamed over the old one).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        let result = std::fs::write(&tmp, text + "\n").and_then(|()| std::fs::rename(&tmp, path));
        if result.is_err() {
            // Leave no half-written temporary file behind (e.g. on a full disk).
            let _ = std::fs::remove_file(&tmp);
        }
        result
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_a_known_string() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("abc");
        std::fs::write(&p, "abc").unwrap();
        // FIPS 180-2 test vector.
        assert_eq!(
            sha256_file(&p).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn sidecar_name_and_build_info() {
        assert_eq!(
            sidecar_path(Path::new("results/a.csv")),
            PathBuf::from("results/a.csv.meta.json")
        );
        let p = Program::current();
        assert!(!p.git_commit.is_empty() && p.rustc.starts_with("rustc"));
        assert!(Host::current().cores >= 1);
    }
}
