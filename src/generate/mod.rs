//! `bench gen`'s engine: seeded sets of random solvable boards ([`GenSpec`], drawn by the
//! portable generators of [`random`]) and conversions of other instance files ([`convert`]),
//! written in the project's instance format ([`crate::instances`]) by
//! [`crate::infra::output::write_replacing`] (a file appears whole or not at all).

pub mod random;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::board::{Board, BoardError, Goal};
use crate::infra::output::write_replacing;
use crate::instances::{
    FileHeader, Generator, INSTANCES_DIR, InstanceWriter, Layout, check_size, read_detailed,
};
pub use random::{below, instance_rng, random_walk, uniform_solvable};

/// Which generator `bench gen` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind {
    /// A random walk of exactly `moves` blank moves from the goal ([`random_walk`]).
    RandomWalk {
        /// The walk length.
        moves: u32,
    },
    /// A uniformly random solvable board ([`uniform_solvable`]).
    Uniform,
}

/// A generated instance set: size, goal, generator and seed. Instance `k` is
/// [`GenSpec::board`]`(k)`, for `k = 1, 2, ...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenSpec {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The goal the walks start from and the boards are solvable for.
    pub goal: Goal,
    /// The generator.
    pub kind: GenKind,
    /// The seed.
    pub seed: u64,
}

/// Boards per parallel batch are limited to about this many cells in total, so that memory
/// stays bounded for large boards.
const BATCH_CELLS: usize = 1 << 22;

impl GenSpec {
    /// A spec, checking that the size is a valid board (both sides at least 2, not too large).
    pub fn new(
        rows: usize,
        cols: usize,
        goal: Goal,
        kind: GenKind,
        seed: u64,
    ) -> Result<GenSpec, BoardError> {
        check_size(rows, cols)?;
        Ok(GenSpec {
            rows,
            cols,
            goal,
            kind,
            seed,
        })
    }

    /// Instance `id` (1-based) of the set.
    pub fn board(&self, id: u64) -> Board {
        let mut rng = instance_rng(self.seed, id);
        match self.kind {
            GenKind::RandomWalk { moves } => random_walk(
                Board::solved(self.rows, self.cols, self.goal),
                moves,
                &mut rng,
            ),
            GenKind::Uniform => uniform_solvable(self.rows, self.cols, self.goal, &mut rng)
                .expect("size checked by GenSpec::new"),
        }
    }

    /// The random-walk length, if any.
    pub fn scramble_moves(&self) -> Option<u32> {
        match self.kind {
            GenKind::RandomWalk { moves } => Some(moves),
            GenKind::Uniform => None,
        }
    }

    /// The canonical `bench gen` command that regenerates `count` instances.
    pub fn reproduce_command(&self, count: usize) -> String {
        let moves = match self.kind {
            GenKind::RandomWalk { moves } => format!(" --moves {moves}"),
            GenKind::Uniform => String::new(),
        };
        format!(
            "bench gen --rows {} --cols {} --goal {}{moves} --seed {} --count {count}",
            self.rows, self.cols, self.goal, self.seed
        )
    }

    /// The header of a file of `count` instances.
    pub fn header(&self, count: usize) -> FileHeader {
        FileHeader {
            rows: self.rows,
            cols: self.cols,
            goal: self.goal,
            generator: match self.kind {
                GenKind::RandomWalk { moves } => Generator::RandomWalk { moves },
                GenKind::Uniform => Generator::Uniform,
            },
            seed: Some(self.seed),
            count,
            optimal_column: false,
            reproduce: Some(self.reproduce_command(count)),
        }
    }

    /// A descriptive file name, e.g. `4x4-walk20-seed42-n1000.txt` or
    /// `5x5-blank-first-uniform-seed7-n10.txt`.
    pub fn file_name(&self, count: usize) -> String {
        let goal = match self.goal {
            Goal::BlankLast => String::new(),
            g => format!("-{g}"),
        };
        let kind = match self.kind {
            GenKind::RandomWalk { moves } => format!("walk{moves}"),
            GenKind::Uniform => "uniform".to_string(),
        };
        format!(
            "{}x{}{goal}-{kind}-seed{}-n{count}.txt",
            self.rows, self.cols, self.seed
        )
    }

    /// Writes a file of `count` instances to `out` (header, then one line per instance), making
    /// the boards in parallel on the current rayon pool, in bounded batches, and writing them in
    /// id order. The bytes do not depend on the number of threads.
    pub fn write<W: Write>(&self, out: W, count: usize) -> io::Result<W> {
        let mut w = InstanceWriter::new(out, self.header(count))?;
        let cells = self.rows * self.cols;
        let batch = (BATCH_CELLS / cells).clamp(1, 4096);
        let mut id = 1usize;
        while id <= count {
            let end = (id + batch).min(count + 1);
            let boards: Vec<Board> = (id..end)
                .into_par_iter()
                .map(|k| self.board(k as u64))
                .collect();
            for (k, b) in (id..end).zip(&boards) {
                w.write(&k.to_string(), self.scramble_moves(), None, b)?;
            }
            id = end;
        }
        w.finish()
    }
}

/// What `bench gen` wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The file (`-` for stdout).
    pub out: PathBuf,
    /// Instances written.
    pub count: usize,
    /// Rows of the boards.
    pub rows: usize,
    /// Columns of the boards.
    pub cols: usize,
    /// Their goal.
    pub goal: Goal,
    /// How the boards were made: `random walks of 20 moves`, `uniform over solvable boards`, or
    /// the layout they were converted from.
    pub made_by: String,
}

/// Writes `count` instances of `spec` to `out` (default: [`GenSpec::file_name`] under
/// [`INSTANCES_DIR`]), making the boards on the current rayon pool.
pub fn generate(spec: &GenSpec, count: usize, out: Option<&Path>) -> anyhow::Result<Written> {
    anyhow::ensure!(count >= 1, "--count must be at least 1");
    let out = out.map_or_else(
        || Path::new(INSTANCES_DIR).join(spec.file_name(count)),
        Path::to_path_buf,
    );
    write_replacing(&out, |w| {
        spec.write(w, count)?;
        Ok(())
    })?;
    Ok(Written {
        out,
        count,
        rows: spec.rows,
        cols: spec.cols,
        goal: spec.goal,
        made_by: match spec.kind {
            GenKind::RandomWalk { moves } => format!("random walks of {moves} moves"),
            GenKind::Uniform => "uniform over solvable boards".to_string(),
        },
    })
}

/// Rewrites the instance file `file` (Korf's tsv, JSON matrices or our format) in the project's
/// format, keeping its `optimal` column; `goal` overrides the file's, `source` is a citation
/// recorded in the header. `out` defaults to the file's stem under [`INSTANCES_DIR`].
pub fn convert(
    file: &Path,
    goal: Option<Goal>,
    source: Option<&str>,
    out: Option<&Path>,
) -> anyhow::Result<Written> {
    let (set, layout, extras) = read_detailed(file, goal)?;
    let header = converted_header(file, layout, goal, source, &set, &extras);
    let out = out.map_or_else(
        || {
            let stem = file.file_stem().unwrap_or(file.as_os_str());
            Path::new(INSTANCES_DIR).join(format!("{}.txt", stem.to_string_lossy()))
        },
        Path::to_path_buf,
    );
    write_replacing(&out, |w| {
        let mut iw = InstanceWriter::new(w, header)?;
        for (inst, opt) in set.instances.iter().zip(&extras.optimal) {
            iw.write(&inst.id, inst.scramble_moves, *opt, &inst.board)?;
        }
        iw.finish()?;
        Ok(())
    })?;
    Ok(Written {
        out,
        count: set.instances.len(),
        rows: set.shape.rows,
        cols: set.shape.cols,
        goal: set.shape.goal,
        made_by: format!("{} ({layout})", file.display()),
    })
}

/// The header of a converted file: where it came from and the command that redoes it.
fn converted_header(
    file: &Path,
    layout: Layout,
    goal: Option<Goal>,
    source: Option<&str>,
    set: &crate::instances::InstanceSet,
    extras: &crate::instances::Extras,
) -> FileHeader {
    FileHeader {
        rows: set.shape.rows,
        cols: set.shape.cols,
        goal: set.shape.goal,
        generator: Generator::Converted {
            from: format!(
                "{} ({layout}{})",
                file.file_name()
                    .unwrap_or(file.as_os_str())
                    .to_string_lossy(),
                if layout == Layout::KorfTsv && goal.is_none() {
                    ", goal blank-first by that layout's convention"
                } else {
                    ""
                }
            ),
            source: source.map(str::to_string),
        },
        seed: None,
        count: set.instances.len(),
        optimal_column: extras.optimal.iter().any(Option::is_some),
        reproduce: Some(format!(
            "bench gen --convert {}{}{}",
            file.display(),
            goal.map(|g| format!(" --goal {g}")).unwrap_or_default(),
            source
                .map(|s| format!(" --source \"{s}\""))
                .unwrap_or_default()
        )),
    }
}

#[cfg(test)]
mod tests;
