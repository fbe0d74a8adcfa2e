//! `bench predict` and IDA*'s per-iteration counts, checked against oracles written here: a
//! plain depth-first count of the nodes of one IDA* iteration, with a Manhattan distance and a
//! misplaced-tiles count of its own, over whole small state spaces.

use crate::common;

use assert_cmd::Command;
use npuzzle::board::{Board, Goal};
use npuzzle::geometry::Geometry;
use npuzzle::heuristic::{HeuristicKind, build};
use npuzzle::predict::{MoveShares, Profile, Pruning, TreeCounts, cdp::cdp, kre::kre};
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
/// letter index as the automaton numbers them (up 0, down 1, left 2, right 3); a fixed array
/// and its length, so that the oracle allocates nothing per node.
fn moves(cell: usize, rows: usize, cols: usize) -> ([(usize, npuzzle::Move); 4], usize) {
    use npuzzle::Move::*;
    let (r, c) = (cell / cols, cell % cols);
    let mut v = [(0, Up); 4];
    let mut n = 0;
    let mut push = |x| {
        v[n] = x;
        n += 1;
    };
    if r > 0 {
        push((cell - cols, Up));
    }
    if c > 0 {
        push((cell - 1, Left));
    }
    if c + 1 < cols {
        push((cell + 1, Right));
    }
    if r + 1 < rows {
        push((cell + cols, Down));
    }
    (v, n)
}

/// Linear conflict written here: Manhattan plus 2 per tile that must leave its line, the
/// tiles to leave being the fewest whose removal leaves the line's tiles (those whose goal
/// lies in that line) in goal order, i.e. the line's tiles minus the longest increasing
/// subsequence of their goal positions.
fn linear_conflict(tiles: &[u8], cols: usize) -> u32 {
    let n = tiles.len();
    let rows = n / cols;
    fn removals(goals: &[usize]) -> u32 {
        // Longest increasing subsequence by the quadratic recurrence (lines are short).
        let mut best = vec![1usize; goals.len()];
        for i in 0..goals.len() {
            for j in 0..i {
                if goals[j] < goals[i] {
                    best[i] = best[i].max(best[j] + 1);
                }
            }
        }
        (goals.len() - best.iter().copied().max().unwrap_or(0)) as u32
    }
    let mut extra = 0;
    for r in 0..rows {
        let goals: Vec<usize> = (0..cols)
            .map(|c| r * cols + c)
            .filter(|&cell| tiles[cell] != 0 && goal_cell(tiles[cell], n) / cols == r)
            .map(|cell| goal_cell(tiles[cell], n) % cols)
            .collect();
        extra += removals(&goals);
    }
    for c in 0..cols {
        let goals: Vec<usize> = (0..rows)
            .map(|r| r * cols + c)
            .filter(|&cell| tiles[cell] != 0 && goal_cell(tiles[cell], n) % cols == c)
            .map(|cell| goal_cell(tiles[cell], n) / cols)
            .collect();
        extra += removals(&goals);
    }
    manhattan(tiles, cols) + 2 * extra
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
        let (list, len) = moves(blank, self.rows, self.cols);
        for &(next, m) in &list[..len] {
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

/// CDP on both trees, checked where it is exact. (1) With the exact conditional
/// distributions of 2 x 4 and a consistent heuristic, its mean over all 20,160 start states
/// equals the mean of the oracle's whole iterations (a random state moved along a fixed path
/// stays uniformly random, so CDP's type counts per depth are the tree's node counts times the
/// equilibrium distribution, and with f never decreasing along a path its cut drops none of
/// the iteration's nodes). (2) When the exact prefix reaches the bound, CDP walks the real
/// tree, so it equals the oracle for each single start.
#[test]
fn cdp_is_exact_over_all_start_states_on_both_trees() {
    let distances = common::exact_distances(2, 4, false);
    let g = Geometry::new(2, 4, Goal::BlankLast);
    let bounds = [8u32, 11];
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
            let mut want = [(0u64, 0u64); 2];
            for tiles in distances.keys() {
                for (k, &bound) in bounds.iter().enumerate() {
                    let c = oracle.iteration(&mut tiles.clone(), bound);
                    want[k].0 += c.0;
                    want[k].1 += c.1;
                }
            }
            let shares: Vec<MoveShares> = (0..8)
                .map(|c| MoveShares::new(&g, pruning, c, 12))
                .collect();
            // The identity holds for every exact depth, each over all start states (not for
            // a mixture of depths: one start's error cancels only against the others').
            for exact_depth in [0, 2] {
                let mut got = [(0f64, 0f64); 2];
                for tiles in distances.keys() {
                    let mut t = [0u8; 64];
                    t[..8].copy_from_slice(tiles);
                    let cell = g.blank_of(&t);
                    let p = cdp(
                        &g,
                        &built,
                        &profile,
                        &t,
                        &shares[cell],
                        &bounds,
                        exact_depth,
                    );
                    for (k, &bound) in bounds.iter().enumerate() {
                        assert_eq!(p[k].bound, bound);
                        got[k].0 += p[k].expanded;
                        got[k].1 += p[k].generated;
                    }
                }
                for (k, &bound) in bounds.iter().enumerate() {
                    let (we, wg) = (want[k].0 as f64, want[k].1 as f64);
                    assert!(
                        (got[k].0 - we).abs() < 1e-9 * we && (got[k].1 - wg).abs() < 1e-9 * wg,
                        "{kind} {pruning:?} bound {bound} exact depth {exact_depth}: CDP {:?} vs oracle {:?}",
                        got[k],
                        want[k]
                    );
                }
            }
        }
    }
    // (2) Single 3 x 3 starts, the exact prefix as deep as the bound.
    let g = Geometry::new(3, 3, Goal::BlankLast);
    let built = build(&HeuristicKind::Manhattan, &g).unwrap();
    let profile = Profile::new(&g, &built, 0, 1);
    let eight = common::exact_distances(3, 3, false);
    let mut starts: Vec<&Vec<u8>> = eight
        .iter()
        .filter(|(_, d)| **d >= 20)
        .map(|(t, _)| t)
        .collect();
    starts.sort();
    for pruning in [Pruning::Parent, Pruning::Automaton] {
        let oracle = Oracle {
            rows: 3,
            cols: 3,
            h: manhattan,
            automaton: (pruning == Pruning::Automaton).then(MoveAutomaton::shared),
        };
        for tiles in starts.iter().step_by(starts.len() / 8) {
            let mut t = [0u8; 64];
            t[..9].copy_from_slice(tiles);
            let h0 = manhattan(tiles, 3);
            let bounds = [h0, h0 + 2, h0 + 4];
            let shares = MoveShares::new(&g, pruning, g.blank_of(&t), h0 as usize + 4);
            let p = cdp(&g, &built, &profile, &t, &shares, &bounds, h0 + 4);
            for (k, &bound) in bounds.iter().enumerate() {
                let (e, gen_) = oracle.iteration(&mut tiles.to_vec(), bound);
                assert_eq!(
                    (p[k].expanded, p[k].generated),
                    (e as f64, gen_ as f64),
                    "{tiles:?} {pruning:?} bound {bound}"
                );
            }
        }
    }
}

/// The oracle's mean whole iteration (expanded, generated) over `states`, on two threads.
fn mean_iteration(oracle: &Oracle, states: &[Vec<u8>], bound: u32) -> (f64, f64) {
    let halves: Vec<&[Vec<u8>]> = states.chunks(states.len().div_ceil(2)).collect();
    let sums: Vec<(u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = halves
            .iter()
            .map(|part| {
                scope.spawn(move || {
                    part.iter().fold((0u64, 0u64), |acc, t| {
                        let c = oracle.iteration(&mut t.clone(), bound);
                        (acc.0 + c.0, acc.1 + c.1)
                    })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let n = states.len() as f64;
    let (e, g) = sums
        .iter()
        .fold((0u64, 0u64), |a, b| (a.0 + b.0, a.1 + b.1));
    (e as f64 / n, g as f64 / n)
}

type HeuristicFn = fn(&[u8], usize) -> u32;

/// The three heuristics of the 3 x 3 comparison, with the oracle's own implementations.
const EIGHT_PUZZLE_HEURISTICS: [(HeuristicKind, HeuristicFn); 3] = [
    (HeuristicKind::Misplaced, misplaced),
    (HeuristicKind::Manhattan, manhattan),
    (HeuristicKind::LinearConflict, linear_conflict),
];

/// KRE with the exact distribution of a 3 x 3 board equals the mean over all 181,440 start
/// states of whole IDA* iterations counted by the oracle, for misplaced tiles, Manhattan
/// and linear conflict (all consistent, so KRE's "g + h <= d" is the iteration's rule).
/// One bound per heuristic, chosen so that the oracle's work stays near 1.5e7 nodes.
#[test]
fn kre_is_exact_over_all_eight_puzzle_start_states() {
    let distances = common::exact_distances(3, 3, false);
    assert_eq!(distances.len(), 181_440);
    let states: Vec<Vec<u8>> = distances.into_keys().collect();
    let g = Geometry::new(3, 3, Goal::BlankLast);
    let tree = TreeCounts::uniform(&g, Pruning::Parent, 24);
    for ((kind, h), bound) in EIGHT_PUZZLE_HEURISTICS.into_iter().zip([9u32, 14, 16]) {
        let built = build(&kind, &g).unwrap();
        let profile = Profile::new(&g, &built, 0, 1);
        assert!(profile.exact);
        let oracle = Oracle {
            rows: 3,
            cols: 3,
            h,
            automaton: None,
        };
        let (e, generated) = mean_iteration(&oracle, &states, bound);
        let p = kre(&tree, &profile, &[bound])[0];
        assert!(
            (p.expanded - e).abs() < 1e-9 * e && (p.generated - generated).abs() < 1e-9 * generated,
            "{kind} bound {bound}: KRE {} / {} vs oracle {e} / {generated}",
            p.expanded,
            p.generated
        );
    }
}

/// The 3 x 3 table of results/predict.md: KRE against the oracle's mean over all start
/// states, every bound up to 16 (misplaced), 22 (Manhattan), 24 (linear conflict) or
/// `PREDICT_3X3_LAST_BOUND`, both trees. Minutes of CPU, so run by hand:
/// `cargo test --profile test-opt --test predict -- --ignored --nocapture eight_puzzle_table`.
#[test]
#[ignore]
fn eight_puzzle_table() {
    let distances = common::exact_distances(3, 3, false);
    let states: Vec<Vec<u8>> = distances.into_keys().collect();
    let g = Geometry::new(3, 3, Goal::BlankLast);
    let cap: Option<u32> = std::env::var("PREDICT_3X3_LAST_BOUND")
        .ok()
        .and_then(|v| v.parse().ok());
    println!("heuristic,tree,bound,kre_generated,oracle_generated,ratio");
    for pruning in [Pruning::Parent, Pruning::Automaton] {
        let tree = TreeCounts::uniform(&g, pruning, 40);
        for ((kind, h), last) in EIGHT_PUZZLE_HEURISTICS.into_iter().zip([16u32, 22, 24]) {
            let last = cap.unwrap_or(last);
            let built = build(&kind, &g).unwrap();
            let profile = Profile::new(&g, &built, 0, 1);
            let oracle = Oracle {
                rows: 3,
                cols: 3,
                h,
                automaton: (pruning == Pruning::Automaton).then(MoveAutomaton::shared),
            };
            for bound in 0..=last {
                let (_, measured) = mean_iteration(&oracle, &states, bound);
                let p = kre(&tree, &profile, &[bound])[0].generated;
                println!(
                    "{kind},{},{bound},{p:.6},{measured:.6},{:.9}",
                    pruning.name(),
                    p / measured
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
            "--seed",
            "1",
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
            .args(["predict", "--seed", "1"])
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

/// `--measure`: IDA*'s counts beside the predictions equal the oracle's whole iterations,
/// and the `set` row sums the instances (iterations before the last, the last times
/// `--last-fraction`) next to the measured run totals.
#[test]
fn cli_measures_iterations_and_the_set_total() {
    let distances = common::exact_distances(3, 3, false);
    let mut states: Vec<(Vec<u8>, u8)> = distances.into_iter().filter(|(_, d)| *d >= 14).collect();
    states.sort();
    let picked: Vec<(Vec<u8>, u8)> = states.into_iter().step_by(20_000).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eight.tsv");
    let mut text = String::from("id\toptimal\ttiles\n");
    for (i, (tiles, d)) in picked.iter().enumerate() {
        let t: Vec<String> = tiles.iter().map(u8::to_string).collect();
        text.push_str(&format!("{}\t{d}\t{}\n", i + 1, t.join(" ")));
    }
    std::fs::write(&file, text).unwrap();
    let csv_path = dir.path().join("p.csv");
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args([
            "predict",
            "--seed",
            "1",
            "--goal",
            "blank-last",
            "--heuristics",
            "manhattan",
        ])
        .args([
            "--method",
            "kre,ss",
            "--pruning",
            "plain",
            "--measure",
            "1000000",
        ])
        .args(["--last-fraction", "0.25", "--instances"])
        .arg(&file)
        .arg("--out")
        .arg(&csv_path)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("Set total"), "{stdout}");
    assert!(stdout.contains("median"), "{stdout}");
    let oracle = Oracle {
        rows: 3,
        cols: 3,
        h: manhattan,
        automaton: None,
    };
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (id, scope, bound, method, measured, predicted) = (
        col("instance_id"),
        col("scope"),
        col("bound"),
        col("method"),
        col("measured_generated"),
        col("predicted_generated"),
    );
    let (mut checked, mut sets) = (0, 0);
    // Per instance and method: predicted iterations by bound.
    let mut per: std::collections::HashMap<(String, String), Vec<(u32, f64)>> =
        std::collections::HashMap::new();
    let mut set_rows = Vec::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        let b: u32 = rec[bound].parse().unwrap();
        match &rec[scope] {
            "iteration" if !rec[id].is_empty() => {
                let k: usize = rec[id].parse().unwrap();
                per.entry((rec[method].to_string(), rec[id].to_string()))
                    .or_default()
                    .push((b, rec[predicted].parse().unwrap()));
                if !rec[measured].is_empty() {
                    let mut t = picked[k - 1].0.clone();
                    let want = oracle.iteration(&mut t, b).1;
                    assert_eq!(rec[measured].parse::<u64>().unwrap(), want, "{rec:?}");
                    checked += 1;
                }
            }
            "set" => {
                sets += 1;
                assert_eq!(b, u32::from(picked.iter().map(|p| p.1).max().unwrap()));
                set_rows.push((
                    rec[method].to_string(),
                    rec[predicted].parse::<f64>().unwrap(),
                    rec[measured].parse::<f64>().unwrap(),
                ));
            }
            _ => {}
        }
    }
    assert!(
        checked > picked.len(),
        "{checked} measured iterations checked"
    );
    assert_eq!(sets, 2, "a set row per method");
    for (m, predicted, measured) in set_rows {
        // The set prediction from the iteration rows, written out here.
        let mut want = 0.0;
        for (k, (_, d)) in picked.iter().enumerate() {
            want += 1.0;
            for &(b, g) in &per[&(m.clone(), (k + 1).to_string())] {
                let w = if b == u32::from(*d) { 0.25 } else { 1.0 };
                want += w * (g - 1.0);
            }
        }
        assert!(
            (predicted - want).abs() < 1e-6 * want,
            "{m}: {predicted} vs {want}"
        );
        // The measured set total: IDA*'s runs, each its root once.
        let mut runs = 0.0;
        for (tiles, _) in &picked {
            let board = Board::new(3, 3, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap();
            let r = solve(
                &board,
                Goal::BlankLast,
                Algorithm::Idastar,
                &HeuristicKind::Manhattan,
                &Limits::default(),
            )
            .unwrap();
            runs += r.stats.generated as f64;
        }
        assert_eq!(measured, runs, "{m}");
    }
}

/// `--method cdp --pruning fsm` through the CLI: with the exact prefix deeper than every
/// bound CDP walks the real duplicate-pruned tree, so each complete iteration's prediction
/// must equal what `idastar-fsm` measured (`--measure`), node for node.
#[test]
fn cli_cdp_on_the_fsm_tree_walks_idastar_fsm_tree() {
    let distances = common::exact_distances(3, 3, false);
    let mut states: Vec<(Vec<u8>, u8)> = distances.into_iter().filter(|(_, d)| *d >= 18).collect();
    states.sort();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eight.tsv");
    let mut text = String::from("id\toptimal\ttiles\n");
    for (i, (tiles, d)) in states.iter().step_by(5_000).enumerate() {
        let t: Vec<String> = tiles.iter().map(u8::to_string).collect();
        text.push_str(&format!("{}\t{d}\t{}\n", i + 1, t.join(" ")));
    }
    std::fs::write(&file, text).unwrap();
    let csv_path = dir.path().join("p.csv");
    Command::cargo_bin("bench")
        .unwrap()
        .args([
            "predict",
            "--seed",
            "1",
            "--goal",
            "blank-last",
            "--heuristics",
            "manhattan",
        ])
        .args([
            "--method",
            "cdp",
            "--pruning",
            "fsm",
            "--cdp-exact-depth",
            "40",
        ])
        .args(["--measure", "1000000", "--instances"])
        .arg(&file)
        .arg("--out")
        .arg(&csv_path)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (scope, tree, measured, predicted) = (
        col("scope"),
        col("tree"),
        col("measured_generated"),
        col("predicted_generated"),
    );
    let mut checked = 0;
    for rec in reader.records() {
        let rec = rec.unwrap();
        assert_eq!(&rec[tree], "fsm");
        if &rec[scope] == "iteration" && !rec[measured].is_empty() {
            let p: f64 = rec[predicted].parse().unwrap();
            let m: f64 = rec[measured].parse().unwrap();
            assert_eq!(p, m, "{rec:?}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} complete iterations checked");
}

/// The exact distribution of a single pattern database from its own table equals the one
/// counted over every solvable position through the heuristic's lookup (Profile::new's
/// enumeration of 3 x 3 and 2 x 4), position for position: small groups (each entry weighs
/// (free tiles)! / 2 positions), groups leaving one tile free (solvability per blank cell), the
/// full database (its unreached entries are the unsolvable placements), both goals. Sums of
/// several databases and reflected lookups are not the table's distribution: none.
#[test]
fn single_pdb_distribution_from_its_table_equals_enumeration() {
    use npuzzle::predict::pdb_table::exact_hist;
    npuzzle::heuristic::pdb::set_cache_dir(None);
    let cases = [
        (3, 3, Goal::BlankLast, "pdb:1,2,3:noreflect"),
        (3, 3, Goal::BlankFirst, "pdb:2,5,7,8:noreflect"),
        (3, 3, Goal::BlankLast, "pdb:1,2,3,4,5,6,7:noreflect"),
        (3, 3, Goal::BlankLast, "pdb:full:noreflect"),
        (2, 4, Goal::BlankLast, "pdb:1,2,3,4"),
        (2, 4, Goal::BlankFirst, "pdb:3,6"),
        (2, 4, Goal::BlankLast, "pdb:2,3,4,5,6,7"),
    ];
    for (rows, cols, goal, spec) in cases {
        let g = Geometry::new(rows, cols, goal);
        let kind: HeuristicKind = spec.parse().unwrap();
        let built = build(&kind, &g).unwrap();
        let enumerated = Profile::new(&g, &built, 0, 1);
        assert!(enumerated.exact);
        let table = exact_hist(&g, &built).unwrap_or_else(|| panic!("{spec}: no table histogram"));
        assert_eq!(table.len(), g.cells);
        let per_cell: f64 = (1..g.cells).map(|i| i as f64).product::<f64>() / 2.0;
        for (c, got) in table.iter().enumerate() {
            let mut want = enumerated.hist[c].clone();
            let mut got = got.clone();
            let len = want.len().max(got.len());
            want.resize(len, 0.0);
            got.resize(len, 0.0);
            assert_eq!(got, want, "{rows} x {cols} {goal} {spec}, blank on {c}");
            assert_eq!(got.iter().sum::<f64>(), per_cell);
        }
    }
    for (rows, cols, spec) in [(3, 3, "pdb:1,2,3"), (2, 4, "pdb:1,2,3/4,5,6,7")] {
        let g = Geometry::new(rows, cols, Goal::BlankLast);
        let built = build(&spec.parse().unwrap(), &g).unwrap();
        assert!(exact_hist(&g, &built).is_none(), "{spec}");
    }
    let g = Geometry::new(2, 4, Goal::BlankLast);
    let built = build(&HeuristicKind::Manhattan, &g).unwrap();
    assert!(exact_hist(&g, &built).is_none());
}

/// On 4 x 4 (above the enumeration's reach) with one 5-tile database, KRE from the
/// table-exact distribution agrees with KRE from a large sample of random positions within
/// the sample's error (loosely: 5% plus four standard errors), and its mean h too.
#[test]
fn single_pdb_table_distribution_agrees_with_sampling_on_4x4() {
    use npuzzle::predict::pdb_table::exact_hist;
    npuzzle::heuristic::pdb::set_cache_dir(None);
    let g = Geometry::new(4, 4, Goal::BlankLast);
    let built = build(&"pdb:1,2,3,4,5:noreflect".parse().unwrap(), &g).unwrap();
    let sampled = Profile::new(&g, &built, 20_000, 7);
    assert!(!sampled.exact);
    let mut exact = sampled.clone();
    exact.use_exact(exact_hist(&g, &built).expect("single table"));
    assert!(exact.exact);
    let per_cell: f64 = (1..16).map(|i| i as f64).product::<f64>() / 2.0;
    assert!(exact.states.iter().all(|&s| s == per_cell));
    assert!(
        (exact.mean() - sampled.mean()).abs() < 0.02 * exact.mean(),
        "mean h {} vs {}",
        exact.mean(),
        sampled.mean()
    );
    let tree = TreeCounts::uniform(&g, Pruning::Parent, 41);
    let bounds = [20u32, 30, 40];
    let (e, s) = (kre(&tree, &exact, &bounds), kre(&tree, &sampled, &bounds));
    for (a, b) in e.iter().zip(&s) {
        assert_eq!(a.generated_se, 0.0);
        let tol = 0.05 * a.generated + 4.0 * b.generated_se;
        assert!(
            (a.generated - b.generated).abs() < tol,
            "bound {}: exact {} vs sampled {} (se {})",
            a.bound,
            a.generated,
            b.generated,
            b.generated_se
        );
    }
}
