//! The algorithm registry: one table ([`ALGORITHMS`]) that gives every algorithm its
//! command-line name, accepted spellings, properties and one-line help, so that parsing,
//! printing, `--help` and the docs cannot drift apart.
//!
//! Names: the product names (`idastar-par-fsm`) are canonical and are what results files
//! hold; the modifier spelling `idastar[:par][:fsm]` (in any order) is accepted as well.

use std::fmt;
use std::str::FromStr;

/// A weight W >= 1 for the bounded-suboptimal searches, kept in hundredths so that it is
/// exact, hashable and usable in integer priorities (`wastar:1.5` is `Weight(150)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight(u32);

impl Weight {
    /// W in hundredths.
    pub fn hundredths(self) -> u32 {
        self.0
    }

    /// W as a number.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.0 / 100, self.0 % 100);
        match frac {
            0 => write!(f, "{whole}"),
            x if x % 10 == 0 => write!(f, "{whole}.{}", x / 10),
            x => write!(f, "{whole}.{x:02}"),
        }
    }
}

impl FromStr for Weight {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad =
            || format!("weight \"{s}\" must be a number from 1 to 100 with at most two decimals");
        let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
        if whole.is_empty()
            || frac.len() > 2
            || !whole
                .bytes()
                .chain(frac.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let whole: u32 = whole.parse().map_err(|_| bad())?;
        let frac: u32 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
        let w = whole
            .checked_mul(100)
            .and_then(|x| x.checked_add(frac))
            .ok_or_else(bad)?;
        if !(100..=10_000).contains(&w) {
            return Err(bad());
        }
        Ok(Weight(w))
    }
}

/// A search algorithm, by its command-line name (see [`ALGORITHMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search (`bfs`): blind, goal test on generation, optimal.
    Bfs,
    /// Bidirectional breadth-first search (`bibfs`): layers from the start and from the goal
    /// until they meet; blind, optimal, far fewer nodes than `bfs`.
    Bibfs,
    /// Uniform-cost search (`dijkstra`): best-first on g alone, goal test on expansion, optimal.
    Dijkstra,
    /// A* (`astar`): best-first on f = g + h, optimal with an admissible heuristic.
    Astar,
    /// Iterative-deepening A* (`idastar`): depth-first in f-bounded iterations, optimal,
    /// memory linear in the depth.
    Idastar,
    /// Parallel IDA* (`idastar-par`): IDA* with each iteration split at a shallow depth and
    /// the subtrees searched by the whole thread pool, so one hard instance uses every core.
    /// Optimal; node counts as IDA*'s except in the last iteration.
    ParallelIdastar,
    /// IDA* with duplicate-path pruning (`idastar-fsm`, Taylor & Korf's automaton,
    /// [`super::duplicates`]): optimal, far fewer nodes on deep searches; its counts are not
    /// comparable with published plain IDA* counts.
    IdastarFsm,
    /// Parallel IDA* with duplicate-path pruning (`idastar-par-fsm`).
    ParallelIdastarFsm,
    /// Greedy best-first search (`greedy`): on h alone; fast, no bound on the length.
    Greedy,
    /// Weighted A* (`wastar:W`): f = g + W h, solutions at most W times optimal.
    WeightedAstar(Weight),
    /// Weighted IDA* (`wida:W`): IDA* on f = g + W h, solutions at most W times optimal.
    WeightedIdastar(Weight),
    /// The polynomial-time line-by-line solver (`approx`, [`crate::approx`]): any size, not
    /// optimal, no search (its node counts are not applicable).
    Approx,
}

/// How a registry entry makes its [`Algorithm`]: as is, or from a weight (`wastar:1.5`).
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// A name without a parameter.
    Plain(Algorithm),
    /// A name followed by `:W`, a [`Weight`].
    Weighted(fn(Weight) -> Algorithm),
}

/// One row of the registry.
#[derive(Debug, Clone, Copy)]
pub struct AlgorithmEntry {
    /// The canonical command-line name (without `:W`).
    pub name: &'static str,
    /// Other accepted spellings (the modifier form `idastar:par:fsm`).
    pub aliases: &'static [&'static str],
    /// How the algorithm is made from the name.
    pub form: Form,
    /// Whether it ignores the heuristic.
    pub blind: bool,
    /// Whether one search uses the whole thread pool.
    pub parallel: bool,
    /// One line for `--help` and the docs.
    pub summary: &'static str,
}

impl AlgorithmEntry {
    /// The name as the user types it, `wastar:W` for the weighted ones.
    pub fn usage(&self) -> String {
        match self.form {
            Form::Plain(_) => self.name.to_string(),
            Form::Weighted(_) => format!("{}:W", self.name),
        }
    }

    fn is(&self, a: Algorithm) -> bool {
        match self.form {
            Form::Plain(p) => p == a,
            Form::Weighted(make) => {
                std::mem::discriminant(&make(Weight(100))) == std::mem::discriminant(&a)
            }
        }
    }
}

/// Every algorithm, in the order the CLI and the docs list them: THE table that names,
/// parses and describes them.
pub static ALGORITHMS: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "bfs",
        aliases: &[],
        form: Form::Plain(Algorithm::Bfs),
        blind: true,
        parallel: false,
        summary: "breadth-first search; blind, optimal",
    },
    AlgorithmEntry {
        name: "bibfs",
        aliases: &[],
        form: Form::Plain(Algorithm::Bibfs),
        blind: true,
        parallel: false,
        summary: "bidirectional breadth-first search; blind, optimal",
    },
    AlgorithmEntry {
        name: "dijkstra",
        aliases: &[],
        form: Form::Plain(Algorithm::Dijkstra),
        blind: true,
        parallel: false,
        summary: "uniform-cost search; blind, optimal",
    },
    AlgorithmEntry {
        name: "astar",
        aliases: &[],
        form: Form::Plain(Algorithm::Astar),
        blind: false,
        parallel: false,
        summary: "A*; optimal",
    },
    AlgorithmEntry {
        name: "idastar",
        aliases: &[],
        form: Form::Plain(Algorithm::Idastar),
        blind: false,
        parallel: false,
        summary: "iterative-deepening A*; optimal, memory linear in the depth",
    },
    AlgorithmEntry {
        name: "idastar-par",
        aliases: &["idastar:par"],
        form: Form::Plain(Algorithm::ParallelIdastar),
        blind: false,
        parallel: true,
        summary: "IDA* on every thread of the pool; optimal",
    },
    AlgorithmEntry {
        name: "idastar-fsm",
        aliases: &["idastar:fsm"],
        form: Form::Plain(Algorithm::IdastarFsm),
        blind: false,
        parallel: false,
        summary: "IDA* with duplicate-path pruning (move automaton); optimal",
    },
    AlgorithmEntry {
        name: "idastar-par-fsm",
        aliases: &["idastar:par:fsm", "idastar:fsm:par"],
        form: Form::Plain(Algorithm::ParallelIdastarFsm),
        blind: false,
        parallel: true,
        summary: "parallel IDA* with duplicate-path pruning; optimal",
    },
    AlgorithmEntry {
        name: "greedy",
        aliases: &[],
        form: Form::Plain(Algorithm::Greedy),
        blind: false,
        parallel: false,
        summary: "greedy best-first search on h alone; not optimal",
    },
    AlgorithmEntry {
        name: "wastar",
        aliases: &[],
        form: Form::Weighted(Algorithm::WeightedAstar),
        blind: false,
        parallel: false,
        summary: "weighted A* (f = g + W h, 1 <= W <= 100); at most W times optimal",
    },
    AlgorithmEntry {
        name: "wida",
        aliases: &[],
        form: Form::Weighted(Algorithm::WeightedIdastar),
        blind: false,
        parallel: false,
        summary: "weighted IDA*; at most W times optimal",
    },
    AlgorithmEntry {
        name: "approx",
        aliases: &[],
        form: Form::Plain(Algorithm::Approx),
        blind: true,
        parallel: false,
        summary: "polynomial line-by-line solver, any size; not optimal",
    },
];

/// The accepted names, comma-separated (`bfs, bibfs, ..., wastar:W, ...`), for messages.
pub fn algorithm_names() -> String {
    ALGORITHMS
        .iter()
        .map(AlgorithmEntry::usage)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per algorithm (`name: summary`), for `--help`.
pub fn algorithm_help() -> String {
    ALGORITHMS
        .iter()
        .map(|e| format!("{}: {}", e.usage(), e.summary))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Algorithm {
    /// The algorithms without a parameter except `approx` (the exact searches and greedy),
    /// in the order the CLI lists them.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Dijkstra,
        Algorithm::Astar,
        Algorithm::Idastar,
        Algorithm::ParallelIdastar,
        Algorithm::IdastarFsm,
        Algorithm::ParallelIdastarFsm,
    ];

    /// The algorithm's row in [`ALGORITHMS`].
    pub fn entry(self) -> &'static AlgorithmEntry {
        ALGORITHMS
            .iter()
            .find(|e| e.is(self))
            .expect("every algorithm has a registry entry")
    }

    /// The command-line name (with its weight, e.g. `wastar:1.5`).
    pub fn name(self) -> String {
        match self {
            Algorithm::WeightedAstar(w) | Algorithm::WeightedIdastar(w) => {
                format!("{}:{w}", self.entry().name)
            }
            _ => self.entry().name.to_string(),
        }
    }

    /// Whether the algorithm ignores the heuristic.
    pub fn is_blind(self) -> bool {
        self.entry().blind
    }

    /// Whether one search uses the whole thread pool (the harness then runs such jobs one at
    /// a time, before the others).
    pub fn is_parallel(self) -> bool {
        self.entry().parallel
    }

    /// Whether the algorithm searches (and so reports node counts); only `approx` does not.
    pub fn is_search(self) -> bool {
        self != Algorithm::Approx
    }

    /// The largest board (in cells) the algorithm takes.
    pub fn max_cells(self) -> usize {
        match self {
            Algorithm::Approx => crate::board::MAX_CELLS,
            _ => super::MAX_EXACT_CELLS,
        }
    }

    /// Whether the returned solution is guaranteed shortest (given an admissible heuristic).
    pub fn is_optimal(self) -> bool {
        match self {
            Algorithm::Bfs
            | Algorithm::Bibfs
            | Algorithm::Dijkstra
            | Algorithm::Astar
            | Algorithm::Idastar
            | Algorithm::ParallelIdastar
            | Algorithm::IdastarFsm
            | Algorithm::ParallelIdastarFsm => true,
            Algorithm::Greedy | Algorithm::Approx => false,
            Algorithm::WeightedAstar(w) | Algorithm::WeightedIdastar(w) => w.0 == 100,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        for e in ALGORITHMS {
            match e.form {
                Form::Plain(a) if s == e.name || e.aliases.contains(&s) => return Ok(a),
                Form::Weighted(make) => {
                    if let Some(w) = s.strip_prefix(e.name).and_then(|r| r.strip_prefix(':')) {
                        return Ok(make(w.parse()?));
                    }
                    if s == e.name {
                        return Err(format!("{s} needs a weight, e.g. {s}:1.5"));
                    }
                }
                Form::Plain(_) => {}
            }
        }
        Err(format!(
            "unknown algorithm \"{s}\", expected one of {}",
            algorithm_names()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_parses_from_its_names_and_prints_its_name() {
        for e in ALGORITHMS {
            let typed = match e.form {
                Form::Plain(_) => e.name.to_string(),
                Form::Weighted(_) => format!("{}:1.5", e.name),
            };
            let a: Algorithm = typed.parse().unwrap();
            assert_eq!(a.name(), typed);
            assert!(std::ptr::eq(a.entry(), e));
            for alias in e.aliases {
                assert_eq!(alias.parse::<Algorithm>(), Ok(a));
            }
        }
        assert_eq!(
            "idastar:fsm:par".parse::<Algorithm>(),
            Ok(Algorithm::ParallelIdastarFsm)
        );
    }

    #[test]
    fn bad_names_are_refused_with_the_list() {
        let e = "idastar-foo".parse::<Algorithm>().unwrap_err();
        assert!(
            e.contains("wastar:W") && e.contains("idastar-par-fsm"),
            "{e}"
        );
        assert!(
            "wastar"
                .parse::<Algorithm>()
                .unwrap_err()
                .contains("weight")
        );
        assert!("wastar:0.5".parse::<Algorithm>().is_err());
        assert!("wastarx".parse::<Algorithm>().is_err());
    }
}
