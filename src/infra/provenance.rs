//! Where a file of results came from: the build ([`Build`]), the machine ([`Host`]), the time,
//! the SHA-256 of its inputs, and the name of its sidecar (`<file>.meta.json`). Every sidecar
//! the program writes (`bench run`'s, `bench merge`'s, `bench census`'s) is made of these.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The build that produced the results.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Build {
    /// Crate name.
    pub name: String,
    /// Crate version.
    pub version: String,
    /// `git rev-parse HEAD` at build time, or `unknown`.
    pub git_commit: String,
    /// `rustc --version` at build time.
    pub rustc: String,
}

impl Build {
    /// This build.
    pub fn current() -> Build {
        Build {
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
        let p = Build::current();
        assert!(!p.git_commit.is_empty() && p.rustc.starts_with("rustc"));
        assert!(Host::current().cores >= 1);
    }
}
