//! Inner-loop benchmarks: `cargo bench --bench search [-- FILTER] [--warm-up-time S]
//! [--measurement-time S]`.
//!
//! A small harness of its own (`harness = false`) rather than criterion: criterion and its
//! dependencies were a large share of the test suite's compile time from a clean clone (issue
//! 31), and these benchmarks need only repeated wall-clock samples of one call. Each case is
//! run for the warm-up time, then sampled (at least 10 samples, until the measurement time is
//! spent), and reported as median, minimum and maximum time per call and generated nodes per
//! second at the median. Each sample asserts the solution length against the published optimum
//! (or the node-limit stop), so a fast but wrong change fails here too.

use std::hint::black_box;
use std::time::{Duration, Instant};

use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, solve};

/// The command line: an optional name filter (substring) and the two times.
struct Options {
    filter: Option<String>,
    warm_up: Duration,
    measurement: Duration,
}

impl Options {
    fn from_args() -> Options {
        let mut o = Options {
            filter: None,
            warm_up: Duration::from_secs(1),
            measurement: Duration::from_secs(3),
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            let mut secs = |flag: &str| -> Duration {
                let v = args
                    .next()
                    .unwrap_or_else(|| panic!("{flag} needs a number of seconds"));
                Duration::from_secs_f64(
                    v.parse()
                        .unwrap_or_else(|_| panic!("{flag} {v}: not a number of seconds")),
                )
            };
            match a.as_str() {
                // `cargo bench` passes --bench; `cargo test --benches` passes nothing else.
                "--bench" => {}
                "--warm-up-time" => o.warm_up = secs("--warm-up-time"),
                "--measurement-time" => o.measurement = secs("--measurement-time"),
                flag if flag.starts_with('-') => panic!("unknown flag {flag}"),
                name => o.filter = Some(name.to_string()),
            }
        }
        o
    }
}

fn data(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
    std::fs::read_to_string(format!("{path}{name}"))
        .unwrap_or_else(|e| panic!("benchmark data {path}{name}: {e}"))
}

/// Korf instance `id`: (board, optimal length).
fn korf(id: &str) -> (Board, usize) {
    let text = data("korf100.tsv");
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.split('\t').next() == Some(id))
        .expect("instance")
        .split('\t')
        .collect();
    let tiles = row[4].split(' ').map(|t| t.parse().unwrap()).collect();
    (Board::new(4, 4, tiles).unwrap(), row[1].parse().unwrap())
}

/// One benchmark: a search and what it must come to.
struct Case {
    name: &'static str,
    board: Board,
    goal: Goal,
    algo: Algorithm,
    h: HeuristicKind,
    limits: Limits,
    /// The optimal length, or `None`: the search must stop at the node limit.
    expect_len: Option<usize>,
}

impl Case {
    fn once(&self) {
        let r = solve(
            black_box(&self.board),
            self.goal,
            self.algo,
            &self.h,
            &self.limits,
        )
        .unwrap();
        match self.expect_len {
            Some(len) => assert_eq!(r.moves.map(|m| m.len()), Some(len), "{}", self.name),
            None => assert_eq!(r.status, Outcome::NodeLimit, "{}", self.name),
        }
    }

    fn measure(&self, o: &Options) {
        let generated = solve(&self.board, self.goal, self.algo, &self.h, &self.limits)
            .unwrap()
            .stats
            .generated;
        let start = Instant::now();
        while start.elapsed() < o.warm_up {
            self.once();
        }
        let mut samples = Vec::new();
        let start = Instant::now();
        while samples.len() < 10 || start.elapsed() < o.measurement {
            let t = Instant::now();
            self.once();
            samples.push(t.elapsed());
        }
        samples.sort();
        let median = samples[samples.len() / 2];
        println!(
            "{:<36} median {:>10.3?}  (min {:.3?}, max {:.3?}, {} samples)  {:.1} M generated nodes/s",
            self.name,
            median,
            samples[0],
            samples[samples.len() - 1],
            samples.len(),
            generated as f64 / median.as_secs_f64() / 1e6
        );
    }
}

fn cases() -> Vec<Case> {
    let (korf79, opt79) = korf("79");
    let on79 = |name, algo, h| Case {
        name,
        board: korf79.clone(),
        goal: Goal::BlankFirst,
        algo,
        h,
        limits: Limits::default(),
        expect_len: Some(opt79),
    };
    // One of the two hardest 8-puzzle positions (31 moves, blank last): BFS and Dijkstra
    // touch essentially the whole 181,440-state space.
    let hardest = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    let whole = |name, algo| Case {
        name,
        board: hardest.clone(),
        goal: Goal::BlankLast,
        algo,
        h: HeuristicKind::None,
        limits: Limits::default(),
        expect_len: Some(31),
    };
    // 5 x 5 (Korf & Felner instance 1) through the same code path: a fixed node budget.
    let text = data("korf24.tsv");
    let tiles = text.lines().nth(1).unwrap().split('\t').nth(1).unwrap();
    let board24 = Board::new(5, 5, tiles.split(' ').map(|t| t.parse().unwrap()).collect()).unwrap();
    let budget = |nodes| Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    let (korf2, _) = korf("2");
    vec![
        on79(
            "idastar-manhattan-korf79",
            Algorithm::Idastar,
            HeuristicKind::Manhattan,
        ),
        on79(
            "idastar-linear-conflict-korf79",
            Algorithm::Idastar,
            HeuristicKind::LinearConflict,
        ),
        on79(
            "astar-manhattan-korf79",
            Algorithm::Astar,
            HeuristicKind::Manhattan,
        ),
        on79(
            "astar-linear-conflict-korf79",
            Algorithm::Astar,
            HeuristicKind::LinearConflict,
        ),
        whole("bfs-3x3-whole-space", Algorithm::Bfs),
        whole("dijkstra-3x3-whole-space", Algorithm::Dijkstra),
        Case {
            name: "idastar-manhattan-5x5-20M-nodes",
            limits: budget(20_000_000),
            board: board24.clone(),
            goal: Goal::BlankFirst,
            algo: Algorithm::Idastar,
            h: HeuristicKind::Manhattan,
            expect_len: None,
        },
        Case {
            name: "idastar-manhattan-4x4-15M-nodes",
            limits: budget(15_000_000),
            board: korf2.clone(),
            goal: Goal::BlankFirst,
            algo: Algorithm::Idastar,
            h: HeuristicKind::Manhattan,
            expect_len: None,
        },
    ]
}

fn main() {
    let o = Options::from_args();
    for case in cases() {
        if o.filter.as_deref().is_none_or(|f| case.name.contains(f)) {
            case.measure(&o);
        }
    }
}
