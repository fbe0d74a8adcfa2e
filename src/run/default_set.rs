//! The instances `bench run` uses when it is given none and `instances/` holds none: the
//! design card's set, 1000 random walks of 20 moves on the 15-puzzle from seed 1 (blank-last),
//! written to `instances/` as `bench gen` would, so that `bench run` works in an empty
//! directory and the run's sidecar names a file anyone can regenerate.

use std::path::{Path, PathBuf};

use crate::board::Goal;
use crate::generate::{self, GenKind, GenSpec};
use crate::instances::INSTANCES_DIR;

/// How many boards the default set holds.
pub const COUNT: usize = 1000;

/// The default set's generator: 4 x 4, blank-last, walks of 20 moves, seed 1.
pub fn spec() -> GenSpec {
    GenSpec::new(4, 4, Goal::BlankLast, GenKind::RandomWalk { moves: 20 }, 1)
        .expect("4 x 4 is a valid board")
}

/// When `instances/` holds no instance file, writes the default set there and returns its
/// path (saying so on stderr unless `quiet`); otherwise `None` (`bench run` then takes the
/// newest file there, as before).
pub fn ensure(quiet: bool) -> anyhow::Result<Option<PathBuf>> {
    let dir = Path::new(INSTANCES_DIR);
    if super::plan::newest_instance_file(dir)
        .ok()
        .flatten()
        .is_some()
    {
        return Ok(None);
    }
    let spec = spec();
    let written = generate::generate(&spec, COUNT, None)?;
    if !quiet {
        eprintln!(
            "no --instances and no instance file in {INSTANCES_DIR}/: wrote the default set, \
             {COUNT} 4 x 4 boards ({}), to {} (the same as `{}`)",
            written.made_by,
            written.out.display(),
            spec.reproduce_command(COUNT)
        );
    }
    Ok(Some(written.out))
}
