//! Where a run's output goes: the rows ([`Sink`]: a file or stdout) and the metadata sidecar
//! beside a file ([`Sidecar`]), which every session updates as it starts and ends.

use std::path::PathBuf;
use std::sync::Mutex;

use crate::infra::output::WriteError;
use crate::infra::provenance as meta;
use crate::results::meta::{Meta, SessionStatus};

/// Where the rows go.
pub(super) enum Sink {
    Stdout,
    File(PathBuf),
}

impl Sink {
    /// The name messages give the output: the file, or `-` for stdout.
    pub(super) fn name(&self) -> PathBuf {
        match self {
            Sink::Stdout => PathBuf::from("-"),
            Sink::File(p) => p.clone(),
        }
    }
}

/// The metadata sidecar, shared with the signal watcher (which marks the session `interrupted`
/// when a second signal ends the process at once).
pub(super) struct Sidecar {
    pub(super) path: Option<PathBuf>,
    pub(super) meta: Mutex<Meta>,
}

impl Sidecar {
    /// Updates the metadata and writes it.
    pub(super) fn update(&self, f: impl FnOnce(&mut Meta)) -> Result<(), WriteError> {
        let mut meta = self.meta.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut meta);
        match &self.path {
            Some(p) => meta.write(p).map_err(|error| WriteError {
                path: p.clone(),
                error,
            }),
            None => Ok(()),
        }
    }

    /// Ends the current session with `status`.
    pub(super) fn end_session(
        &self,
        status: SessionStatus,
        rows_written: Option<usize>,
    ) -> Result<(), WriteError> {
        self.update(|m| {
            let now = meta::now_rfc3339();
            if let Some(s) = m.sessions.last_mut() {
                s.end_time = Some(now.clone());
                s.status = status;
                if let Some(n) = rows_written {
                    s.rows_written = n;
                }
            }
            m.end_time = Some(now);
        })
    }
}
