//! `bench predict` and IDA*'s per-iteration counts, checked against oracles written here: a
//! plain depth-first count of the nodes of one IDA* iteration, with a Manhattan distance and a
//! misplaced-tiles count of its own, over whole small state spaces.

mod common;

use assert_cmd::Command;
use npuzzle::board::{Board, Goal};
use npuzzle::geometry::Geometry;
use npuzzle::heuristic::{HeuristicKind, build};
use npuzzle::predict::{Profile, Pruning, TreeCounts, kre::kre};
use npuzzle::search::duplicates::MoveAutomaton;
use npuzzle::{Algorithm, Limits, solve};

fn goal_cell(tile: u8, cells: usize) -> usize {
    // Blank last: tile t on cell t - 1, the blank on the last cell.
    if tile == 0 {
        cells - 1
    } else {
        tile as usize - 1
    }
}

fn manhattan(tiles: &[u8], cols: usize) -> u32 {
    let n = tiles.len();
    (0..n)
        .filter(|&c| tiles[c] != 0)
        .map(|c| {
            let g = goal_cell(tiles[c], n);
            ((c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols)) as u32
        })
        .sum()
}

fn misplaced(tiles: &[u8], _cols: usize) -> u32 {
    let n = tiles.len();
    (0..n)
        .filter(|&c| tiles[c] != 0 && goal_cell(tiles[c], n) != c)
        .count() as u32
}

/// The blank's moves from `cell` in Korf's order (up, left, right, down), with the move's
/// letter index as the automaton numbers them (up 0, down 1, left 2, right 3).
fn moves(cell: usize, rows: usize, cols: usize) -> Vec<(usize, npuzzle::Move)> {
    use npuzzle::Move::*;
    let (r, c) = (cell / cols, cell % cols);
    let mut v = Vec::new();
    if r > 0 {
        v.push((cell - cols, Up));
    }
    if c > 0 {
        v.push((cell - 1, Left));
    }
    if c + 1 < cols {
        v.push((cell + 1, Right));
    }
    if r + 1 < rows {
        v.push((cell + cols, Down));
    }
    v
}

struct Oracle<'a> {
    rows: usize,
    cols: usize,
    h: fn(&[u8], usize) -> u32,
    automaton: Option<&'a MoveAutomaton>,
}

impl Oracle<'_> {
    /// (expanded, generated incl. the root) of one whole iteration with `bound`: every node
    /// with g + h <= bound is expanded (the goal too), the move back is never generated.
    fn iteration(&self, tiles: &mut Vec<u8>, bound: u32) -> (u64, u64) {
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        let mut counts = (0, 1);
        let h = (self.h)(tiles, self.cols);
        if h <= bound {
            self.dfs(
                tiles,
                blank,
                usize::MAX,
                MoveAutomaton::START,
                0,
                bound,
                &mut counts,
            );
        }
        counts
    }

    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &self,
        tiles: &mut Vec<u8>,
        blank: usize,
        parent: usize,
        state: u32,
        g: u32,
        bound: u32,
        counts: &mut (u64, u64),
    ) {
        counts.0 += 1;
        for (next, m) in moves(blank, self.rows, self.cols) {
            if next == parent {
                continue;
            }
            let state2 = match self.automaton {
                Some(a) => {
                    let s = a.step(state, m);
                    if s == MoveAutomaton::DEAD {
                        continue;
                    }
                    s
                }
                None => state,
            };
            counts.1 += 1;
            tiles.swap(blank, next);
            if g + 1 + (self.h)(tiles, self.cols) <= bound {
                self.dfs(tiles, next, blank, state2, g + 1, bound, counts);
            }
            tiles.swap(blank, next);
        }
    }
}

/// IDA*'s per-iteration counts: every complete iteration is the oracle's, the last one
/// stops early, and they add up to the run's totals.
#[test]
fn idastar_iterations_match_the_oracle() {
    let distances = common::exact_distances(3, 3, false);
    let mut states: Vec<(&Vec<u8>, &u8)> = distances.iter().filter(|(_, d)| **d >= 12).collect();
    states.sort();
    let oracle = Oracle {
        rows: 3,
        cols: 3,
        h: manhattan,
        automaton: None,
    };
    for &(tiles, &d) in states.iter().step_by(states.len() / 40) {
        let board = Board::new(3, 3, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap();
        let report = solve(
            &board,
            Goal::BlankLast,
            Algorithm::Idastar,
            &HeuristicKind::Manhattan,
            &Limits::default(),
        )
        .unwrap();
        let its = &report.per_iteration;
        assert_eq!(its.len() as u32, report.stats.iterations.unwrap());
        assert_eq!(its.last().unwrap().bound, u32::from(d));
        assert!(!its.last().unwrap().complete);
        assert_eq!(
            its.iter().map(|i| i.expanded).sum::<u64>(),
            report.stats.expanded
        );
        assert_eq!(
            its.iter().map(|i| i.generated).sum::<u64>(),
            report.stats.generated + its.len() as u64 - 1
        );
        for it in &its[..its.len() - 1] {
            assert!(it.complete);
            let mut t = tiles.clone();
            assert_eq!(
                oracle.iteration(&mut t, it.bound),
                (it.expanded, it.generated),
                "{tiles:?} bound {}",
                it.bound
            );
        }
    }
}

/// KRE is exact in expectation over uniformly random start states (a fixed move path maps
/// them one-to-one onto the states with the blank at its end): with the exact distribution
/// of a 2 x 4 board it must equal the mean over all 20,160 start states of the oracle's
/// whole iterations, for both trees.
#[test]
fn kre_is_exact_over_all_start_states() {
    let distances = common::exact_distances(2, 4, false);
    assert_eq!(distances.len(), 20_160);
    let g = Geometry::new(2, 4, Goal::BlankLast);
    let bounds = [9u32, 16];
    for (kind, h) in [
        (
            HeuristicKind::Manhattan,
            manhattan as fn(&[u8], usize) -> u32,
        ),
        (HeuristicKind::Misplaced, misplaced),
    ] {
        let built = build(&kind, &g).unwrap();
        let profile = Profile::new(&g, &built, 0, 1);
        assert!(profile.exact);
        for pruning in [Pruning::Parent, Pruning::Automaton] {
            let oracle = Oracle {
                rows: 2,
                cols: 4,
                h,
                automaton: (pruning == Pruning::Automaton).then(MoveAutomaton::shared),
            };
            let tree = TreeCounts::uniform(&g, pruning, 20);
            let predicted = kre(&tree, &profile, &bounds);
            for (k, &bound) in bounds.iter().enumerate() {
                let (mut e, mut generated) = (0u64, 0u64);
                for tiles in distances.keys() {
                    let c = oracle.iteration(&mut tiles.clone(), bound);
                    e += c.0;
                    generated += c.1;
                }
                let n = distances.len() as f64;
                let (e, generated) = (e as f64 / n, generated as f64 / n);
                let p = predicted[k];
                assert!(
                    (p.expanded - e).abs() < 1e-9 * e,
                    "{kind} {pruning:?} {bound}: {} vs {e}",
                    p.expanded
                );
                assert!(
                    (p.generated - generated).abs() < 1e-9 * generated,
                    "{kind} {pruning:?} {bound}: {} vs {generated}",
                    p.generated
                );
            }
        }
    }
}

#[test]
fn cli_writes_a_tidy_csv_and_a_figure() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("p.csv");
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args([
            "predict",
            "--size",
            "2x3",
            "--heuristics",
            "manhattan,misplaced",
            "--bounds",
            "4..8",
        ])
        .arg("--out")
        .arg(&csv)
        .arg("--plots")
        .arg(dir.path())
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("asymptotic branching factor"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    for col in [
        "rows",
        "cols",
        "goal",
        "heuristic",
        "method",
        "instance_id",
        "bound",
        "predicted_expanded",
        "predicted_generated",
    ] {
        assert!(header.split(',').any(|c| c == col), "{col} in {header}");
    }
    // 2 heuristics x 2 trees x 5 bounds.
    assert_eq!(lines.count(), 20);
    let svg = std::fs::read_to_string(dir.path().join("predict_2x3.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
}

#[test]
fn cli_errors_name_the_flag() {
    let fail = |args: &[&str], needle: &str| {
        let out = Command::cargo_bin("bench")
            .unwrap()
            .arg("predict")
            .args(args)
            .assert()
            .failure();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    fail(&["--size", "9x9"], "at most 64 cells");
    fail(&["--size", "3x3", "--method", "ss"], "--instances");
    fail(
        &["--size", "3x3", "--heuristics", "walking"],
        "--heuristics",
    );
    fail(&["--size", "3x3", "--bounds", "9..3"], "bounds");
    fail(&[], "--size");
}
