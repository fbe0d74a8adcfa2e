//! Instance files as a run takes them: read, hashed (the sidecar records the SHA-256 so that a
//! resume can tell a changed file), ids checked unique, unsolvable boards refused or left out.

use std::collections::HashMap;
use std::path::PathBuf;

use thiserror::Error;

use super::{InstanceError, InstanceSet};
use crate::board::Goal;
use crate::infra::provenance::sha256_file;

/// An instance file, read and checked.
#[derive(Debug)]
pub struct InstanceSource {
    /// The path as named on the command line (the `instance_file` column).
    pub name: String,
    /// The instances.
    pub set: InstanceSet,
    /// SHA-256 of the file.
    pub sha256: String,
    /// Ids of unsolvable instances left out (`--skip-invalid`).
    pub skipped: Vec<String>,
    /// The file's `optimal` column (published optimal solution lengths), per instance of
    /// `set` (empty when the file has none).
    pub optimal: Vec<Option<u32>>,
}

impl InstanceSource {
    /// The published optimal solution length of instance `i`, if the file gives one.
    pub fn known_optimal(&self, i: usize) -> Option<u32> {
        self.optimal.get(i).copied().flatten()
    }
}

/// Why an instance file cannot be used.
#[derive(Debug, Error)]
pub enum SourceError {
    /// The instance file is unreadable or malformed.
    #[error(transparent)]
    Instances(#[from] InstanceError),
    /// Hashing the file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// An instance cannot reach the goal.
    #[error(
        "{file}:{line}: instance {id} is unsolvable for goal {goal} ({why}); \
         fix the file or pass --skip-invalid to leave such instances out"
    )]
    Unsolvable {
        /// The file.
        file: String,
        /// Its line.
        line: usize,
        /// Instance id.
        id: String,
        /// The goal.
        goal: Goal,
        /// The solvability check's message.
        why: String,
    },
    /// Two instances share an id (job keys would collide).
    #[error("{file}:{line}: instance id {id} was already used on line {first}")]
    DuplicateId {
        /// The file.
        file: String,
        /// The later line.
        line: usize,
        /// The first line.
        first: usize,
        /// The id.
        id: String,
    },
    /// The same file was named twice.
    #[error("--instances: {0} is given more than once")]
    DuplicateFile(String),
}

/// Reads, hashes and checks the instance files. Unsolvable instances are an error unless
/// `skip_unsolvable`, which leaves them out (recorded in [`InstanceSource::skipped`]).
pub fn load_instances(
    paths: &[PathBuf],
    goal_override: Option<Goal>,
    skip_unsolvable: bool,
) -> Result<Vec<InstanceSource>, SourceError> {
    let mut sources: Vec<InstanceSource> = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        if sources.iter().any(|s| s.name == name) {
            return Err(SourceError::DuplicateFile(name));
        }
        let (mut set, _, extras) = super::read_detailed(path, goal_override)?;
        let mut optimal = extras.optimal;
        let sha256 = sha256_file(path).map_err(|error| SourceError::Io {
            path: path.clone(),
            error,
        })?;
        let mut first_line: HashMap<&str, usize> = HashMap::new();
        for inst in &set.instances {
            if let Some(&first) = first_line.get(inst.id.as_str()) {
                return Err(SourceError::DuplicateId {
                    file: name,
                    line: inst.line,
                    first,
                    id: inst.id.clone(),
                });
            }
            first_line.insert(&inst.id, inst.line);
        }
        let goal = set.shape.goal;
        let mut skipped = Vec::new();
        let mut bad = None;
        optimal.resize(set.instances.len(), None);
        let mut kept = Vec::with_capacity(set.instances.len());
        for (inst, opt) in std::mem::take(&mut set.instances).into_iter().zip(optimal) {
            match inst.board.check_solvable(goal) {
                Ok(()) => kept.push((inst, opt)),
                Err(e) => {
                    if bad.is_none() {
                        bad = Some((inst.line, inst.id.clone(), e.to_string()));
                    }
                    skipped.push(inst.id.clone());
                }
            }
        }
        let (instances, optimal): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
        set.instances = instances;
        if let Some((line, id, why)) = bad
            && !skip_unsolvable
        {
            return Err(SourceError::Unsolvable {
                file: name,
                line,
                id,
                goal,
                why,
            });
        }
        sources.push(InstanceSource {
            name,
            set,
            sha256,
            skipped,
            optimal,
        });
    }
    Ok(sources)
}
