//! The job plan of `bench run`: instance files are read and checked, the cross product of
//! instances x pairs x repetitions is listed in a fixed order, cut into shards and shuffled for
//! execution. A pair is a built-in (algorithm, heuristic) or an external solver
//! (`--solver NAME=COMMAND`, heuristic `-`).
//!
//! The order of the full list (before any shuffle) is: instance files as given, instances in
//! file order, pairs as given (built-ins, then external solvers), repetitions. Shard `K/N` takes the jobs at
//! positions `K-1, K-1+N, K-1+2N, ...` of that list, so shards are disjoint, cover the list, and
//! each gets a similar mix of easy and hard jobs. The shuffle (seeded) changes only the order
//! in which jobs run, never which jobs or their results.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::board::Shape;
use crate::external::Solver;
use crate::heuristic::{self, HeuristicKind};
use crate::search::{ALGORITHMS, Algorithm};

use crate::instances::{InstanceSource, SourceError};
use crate::results::{JobKey, Pair};

/// Why a plan cannot be made. Nothing has run when one of these is returned.
#[derive(Debug, Error)]
pub enum PlanError {
    /// An instance file cannot be read, or holds boards the run cannot take.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A heuristic does not exist for a board size.
    #[error("--heuristics: {0}")]
    Heuristic(String),
    /// A board is too large for an algorithm.
    #[error(
        "--algos: {algorithm} solves boards of at most {max} cells; {file} has {rows} x {cols} boards"
    )]
    TooLarge {
        /// The algorithm.
        algorithm: Algorithm,
        /// The file.
        file: String,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The cell limit.
        max: usize,
    },
    /// No algorithm / heuristic given.
    #[error("{0}: no names given")]
    Empty(&'static str),
    /// An external solver's name is taken.
    #[error("--solver {name}: {why}; choose another NAME in --solver NAME=COMMAND")]
    SolverName {
        /// The name.
        name: String,
        /// What it clashes with.
        why: String,
    },
}

/// What a job runs: a built-in algorithm with a heuristic, or an external solver with its
/// command. Its name, the configuration rows record and reports compare, is [`Program::pair`]
/// (the crate's one [`Pair`]); this type adds only what executes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Program {
    /// A built-in algorithm (`none` for blind ones).
    Builtin(Algorithm, HeuristicKind),
    /// An external solver (`--solver`).
    External(Arc<Solver>),
}

impl Program {
    /// The configuration this program runs: its `algorithm` and `heuristic` columns.
    pub fn pair(&self) -> Pair {
        match self {
            Program::Builtin(a, h) => Pair::builtin(*a, h),
            Program::External(s) => Pair::external(&s.name),
        }
    }

    /// Whether one job uses the whole machine (such jobs run one at a time).
    pub fn is_parallel(&self) -> bool {
        matches!(self, Program::Builtin(a, _) if a.is_parallel())
    }

    /// Whether the pair guarantees a shortest solution (built-in optimal algorithms only).
    pub fn is_optimal(&self) -> bool {
        matches!(self, Program::Builtin(a, _) if a.is_optimal())
    }
}

/// The pairs: every algorithm with every heuristic, except that blind algorithms get the
/// single heuristic `none`, then the external solvers. Duplicates of built-ins are dropped,
/// order kept; a solver name that is a built-in algorithm's (or another solver's) is an error.
pub fn pairs(
    algorithms: &[Algorithm],
    heuristics: &[HeuristicKind],
    solvers: &[Solver],
) -> Result<Vec<Program>, PlanError> {
    if algorithms.is_empty() && solvers.is_empty() {
        return Err(PlanError::Empty("--algos"));
    }
    if heuristics.is_empty() && !algorithms.is_empty() {
        return Err(PlanError::Empty("--heuristics"));
    }
    let mut out: Vec<Program> = Vec::new();
    for &a in algorithms {
        let hs: Vec<HeuristicKind> = if a.is_blind() {
            vec![HeuristicKind::None]
        } else {
            heuristics.to_vec()
        };
        for h in hs {
            let pair = Program::Builtin(a, h);
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    for (i, s) in solvers.iter().enumerate() {
        let builtin = ALGORITHMS
            .iter()
            .any(|e| e.name == s.name || e.aliases.contains(&s.name.as_str()))
            || s.name.parse::<Algorithm>().is_ok();
        if builtin {
            return Err(PlanError::SolverName {
                name: s.name.clone(),
                why: "that is the name of a built-in algorithm".into(),
            });
        }
        if solvers[..i].iter().any(|t| t.name == s.name) {
            return Err(PlanError::SolverName {
                name: s.name.clone(),
                why: "the name is given twice".into(),
            });
        }
        out.push(Program::External(Arc::new(s.clone())));
    }
    Ok(out)
}

/// Checks that every pair can run on every file's board size (heuristics built once per size
/// here, so a failure is reported before anything starts).
pub fn check_pairs(sources: &[InstanceSource], pairs: &[Program]) -> Result<(), PlanError> {
    let mut checked: Vec<(Shape, HeuristicKind)> = Vec::new();
    for s in sources {
        let shape = s.set.shape;
        let Shape { rows, cols, .. } = shape;
        for pair in pairs {
            // An external solver takes any board (it may reject it: a row says so).
            let Program::Builtin(a, h) = pair else {
                continue;
            };
            if rows * cols > a.max_cells() {
                return Err(PlanError::TooLarge {
                    algorithm: *a,
                    file: s.name.clone(),
                    rows,
                    cols,
                    max: a.max_cells(),
                });
            }
            if a.is_blind()
                || checked
                    .iter()
                    .any(|(seen, heur)| *seen == shape && heur == h)
            {
                continue;
            }
            heuristic::check_available(h, shape)
                .map_err(|e| PlanError::Heuristic(format!("{e} (in {})", s.name)))?;
            checked.push((shape, h.clone()));
        }
    }
    Ok(())
}

/// One job: an instance, a pair (algorithm and heuristic, or external solver), a repetition.
#[derive(Debug, Clone)]
pub struct Job {
    /// Position in the full, unshuffled job list.
    pub index: usize,
    /// Index into the instance sources.
    pub source: usize,
    /// Index into that source's instances.
    pub instance: usize,
    /// What runs.
    pub program: Program,
    /// 1-based repetition.
    pub repetition: u32,
}

impl Job {
    /// The job's key (as its CSV row will carry it).
    pub fn key(&self, sources: &[InstanceSource]) -> JobKey {
        let s = &sources[self.source];
        let pair = self.program.pair();
        JobKey {
            instance_file: s.name.clone(),
            instance_id: s.set.instances[self.instance].id.clone(),
            algorithm: pair.algorithm,
            heuristic: pair.heuristic,
            repetition: self.repetition,
        }
    }
}

/// The full job list in its fixed order (see the module documentation).
pub fn jobs(sources: &[InstanceSource], pairs: &[Program], repeat: u32) -> Vec<Job> {
    let mut out = Vec::new();
    for (si, s) in sources.iter().enumerate() {
        for ii in 0..s.set.instances.len() {
            for pair in pairs {
                for r in 1..=repeat {
                    out.push(Job {
                        index: out.len(),
                        source: si,
                        instance: ii,
                        program: pair.clone(),
                        repetition: r,
                    });
                }
            }
        }
    }
    out
}

/// `--shard K/N`: the K-th (1-based) of N slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: usize,
    /// Number of shards.
    pub n: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let err = || format!("\"{s}\" is not a shard: expected K/N with 1 <= K <= N, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(err)?;
        let k: usize = k.trim().parse().map_err(|_| err())?;
        let n: usize = n.trim().parse().map_err(|_| err())?;
        if k == 0 || n == 0 || k > n {
            return Err(err());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// Keeps this shard's jobs.
    pub fn select(self, jobs: Vec<Job>) -> Vec<Job> {
        jobs.into_iter()
            .filter(|j| j.index % self.n == self.k - 1)
            .collect()
    }
}

/// Shuffles the execution order with a seeded, portable generator (ChaCha8).
pub fn shuffle(jobs: &mut [Job], seed: u64) {
    jobs.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
}

/// The newest regular file in `dir` (by modification time, then name), skipping hidden files
/// and READMEs: the default instance file of `bench run`.
pub fn newest_instance_file(dir: &Path) -> std::io::Result<Option<PathBuf>> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme") {
            continue;
        }
        let meta = entry.metadata()?;
        if !meta.is_file() {
            continue;
        }
        let t = meta.modified()?;
        let path = dir.join(&name);
        if best.as_ref().is_none_or(|(bt, bp)| (t, &path) > (*bt, bp)) {
            best = Some((t, path));
        }
    }
    Ok(best.map(|(_, p)| p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { k: 2, n: 8 });
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let mk = |n: usize| -> Vec<Job> {
            (0..n)
                .map(|i| Job {
                    index: i,
                    source: 0,
                    instance: i,
                    program: Program::Builtin(Algorithm::Bfs, HeuristicKind::None),
                    repetition: 1,
                })
                .collect()
        };
        let mut seen = vec![0; 10];
        for k in 1..=3 {
            for j in (Shard { k, n: 3 }).select(mk(10)) {
                seen[j.index] += 1;
            }
        }
        assert_eq!(seen, vec![1; 10]);
        let mut a = mk(50);
        let mut b = mk(50);
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        let ia: Vec<_> = a.iter().map(|j| j.index).collect();
        let ib: Vec<_> = b.iter().map(|j| j.index).collect();
        assert_eq!(ia, ib);
        assert_ne!(ia, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn blind_algorithms_get_heuristic_none_once() {
        let p = pairs(
            &[Algorithm::Bfs, Algorithm::Astar, Algorithm::Bfs],
            &[HeuristicKind::Manhattan, HeuristicKind::LinearConflict],
            &[],
        )
        .unwrap();
        assert_eq!(
            p,
            vec![
                Program::Builtin(Algorithm::Bfs, HeuristicKind::None),
                Program::Builtin(Algorithm::Astar, HeuristicKind::Manhattan),
                Program::Builtin(Algorithm::Astar, HeuristicKind::LinearConflict),
            ]
        );
        assert!(pairs(&[], &[HeuristicKind::Manhattan], &[]).is_err());
    }

    #[test]
    fn solvers_come_after_the_builtins_and_their_names_must_be_free() {
        let solver = |s: &str| s.parse::<Solver>().unwrap();
        let p = pairs(
            &[Algorithm::Idastar],
            &[HeuristicKind::Manhattan],
            &[solver("mine=./mine --short")],
        )
        .unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].pair(), Pair::new("mine", "-"));
        assert!(!p[1].is_optimal() && p[0].is_optimal() && !p[1].is_parallel());
        // Only solvers: no heuristic needed.
        assert_eq!(pairs(&[], &[], &[solver("x=true")]).unwrap().len(), 1);
        for (spec, want) in [
            (
                "astar=./a",
                "--solver astar: that is the name of a built-in algorithm",
            ),
            (
                "wastar=./a",
                "--solver wastar: that is the name of a built-in algorithm",
            ),
            ("ida=./a", ""),
        ] {
            let r = pairs(&[], &[], &[solver(spec)]);
            match r {
                Err(e) => assert!(e.to_string().starts_with(want) && !want.is_empty(), "{e}"),
                Ok(_) => assert!(want.is_empty(), "{spec} accepted"),
            }
        }
        let e = pairs(&[], &[], &[solver("a=x"), solver("a=y")]).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
    }
}
