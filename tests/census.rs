//! `bench census` against an independent breadth-first search written here (a hash map over
//! `Board::moved`) and the published counts in data/ (census.tsv, 8puzzle_depths.tsv).

use crate::common;

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use assert_cmd::Command;
use common::read_tsv;
use npuzzle::board::Shape;
use npuzzle::census::{self, Census, Request};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::{Board, Goal, Move};

/// Optimal distance of every position reachable from the goal, by plain BFS.
fn simple_bfs(rows: usize, cols: usize, goal: Goal) -> HashMap<Vec<u32>, u32> {
    bounded_bfs(rows, cols, goal, u32::MAX)
}

/// [`simple_bfs`] up to distance `limit`.
fn bounded_bfs(rows: usize, cols: usize, goal: Goal, limit: u32) -> HashMap<Vec<u32>, u32> {
    let start = Board::solved(rows, cols, goal);
    let mut dist = HashMap::new();
    dist.insert(start.tiles().to_vec(), 0u32);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        if d == limit {
            continue;
        }
        for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
            if let Some(n) = b.moved(m)
                && !dist.contains_key(n.tiles())
            {
                dist.insert(n.tiles().to_vec(), d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

fn histogram(dist: &HashMap<Vec<u32>, u32>) -> Vec<u64> {
    let max = *dist.values().max().unwrap() as usize;
    let mut h = vec![0u64; max + 1];
    for &d in dist.values() {
        h[d as usize] += 1;
    }
    h
}

fn census_of(rows: usize, cols: usize, goal: Goal, heuristics: Vec<HeuristicKind>) -> Census {
    let req = Request {
        shape: Shape::new(rows, cols, goal),
        heuristics,
        max_memory: None,
    };
    census::run(&req, &AtomicBool::new(false), &|_| {}).unwrap()
}

#[test]
fn small_boards_match_an_independent_bfs_for_both_goals() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let mut per_goal = Vec::new();
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let dist = simple_bfs(r, c, goal);
            let want = histogram(&dist);
            let got = census_of(r, c, goal, Vec::new());
            assert!(got.complete);
            assert_eq!(got.counts, want, "{r} x {c} {goal}");
            assert_eq!(got.positions as usize, dist.len());
            // The antipodes are exactly the positions at the largest distance.
            let diameter = want.len() as u32 - 1;
            assert_eq!(got.diameter(), Some(diameter));
            let mut expected: Vec<Vec<u32>> = dist
                .iter()
                .filter(|(_, d)| **d == diameter)
                .map(|(t, _)| t.clone())
                .collect();
            let mut found: Vec<Vec<u32>> =
                got.antipodes.iter().map(|b| b.tiles().to_vec()).collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{r} x {c} {goal} antipodes");
            per_goal.push(got.counts);
        }
        assert_eq!(per_goal[0], per_goal[1], "{r} x {c}: goals differ");
    }
}

#[test]
fn published_counts() {
    // 8-puzzle: Reinefeld's table, depth by depth.
    let want: Vec<u64> = read_tsv("8puzzle_depths.tsv")
        .iter()
        .map(|r| r[1].parse().unwrap())
        .collect();
    assert_eq!(census_of(3, 3, Goal::BlankLast, Vec::new()).counts, want);
    // census.tsv: states, diameter and positions at it, for the boards that take well under
    // a second here (the larger ones are benchmarks, see results/census.md).
    let mut checked = 0;
    for row in read_tsv("census.tsv") {
        let (r, c): (usize, usize) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        let states: u64 = row[2].parse().unwrap();
        if states > 2_000_000 {
            continue;
        }
        for (rows, cols) in [(r, c), (c, r)] {
            let got = census_of(rows, cols, Goal::BlankFirst, Vec::new());
            assert_eq!(got.positions, states, "{rows} x {cols}");
            assert_eq!(got.counts.iter().sum::<u64>(), states);
            assert_eq!(
                got.diameter(),
                Some(row[3].parse().unwrap()),
                "{rows} x {cols}"
            );
            assert_eq!(
                *got.counts.last().unwrap(),
                row[4].parse::<u64>().unwrap(),
                "{rows} x {cols}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// Manhattan distance, written here from the definition.
fn manhattan(tiles: &[u32], rows: usize, cols: usize, goal: Goal) -> u32 {
    let cells = rows * cols;
    let mut sum = 0;
    for (cell, &t) in tiles.iter().enumerate() {
        if t == 0 {
            continue;
        }
        let g = goal.cell_of(t as usize, cells);
        sum += (cell / cols).abs_diff(g / cols) + (cell % cols).abs_diff(g % cols);
    }
    sum as u32
}

#[test]
fn heuristic_table_is_the_joint_distribution() {
    for (r, c, goal) in [(3, 3, Goal::BlankLast), (2, 4, Goal::BlankFirst)] {
        let dist = simple_bfs(r, c, goal);
        let got = census_of(r, c, goal, vec![HeuristicKind::Manhattan]);
        let (name, table) = &got.heuristic_tables[0];
        assert_eq!(name, "manhattan");
        // Keyed by (distance, blank cell, estimate), from the test's own BFS and Manhattan.
        let mut want: HashMap<(usize, usize, usize), u64> = HashMap::new();
        for (t, &d) in &dist {
            let blank = t.iter().position(|&x| x == 0).unwrap();
            *want
                .entry((d as usize, blank, manhattan(t, r, c, goal) as usize))
                .or_default() += 1;
        }
        let mut seen = 0;
        for (d, by_cell) in table.iter().enumerate() {
            for (cell, row) in by_cell.iter().enumerate() {
                for (h, &n) in row.iter().enumerate() {
                    let expected = want.get(&(d, cell, h)).copied().unwrap_or(0);
                    assert_eq!(n, expected, "d {d} blank {cell} h {h}");
                    if n > 0 {
                        assert!(h <= d, "Manhattan is admissible");
                        seen += 1;
                    }
                }
            }
        }
        assert_eq!(seen, want.len());
        // Summed over the blank's cells: the depth x h table.
        let summed = got.depth_by_estimate(0);
        for (d, row) in summed.iter().enumerate() {
            for (h, &n) in row.iter().enumerate() {
                let expected: u64 = want
                    .iter()
                    .filter(|((dd, _, hh), _)| *dd == d && *hh == h)
                    .map(|(_, &k)| k)
                    .sum();
                assert_eq!(n, expected, "d {d} h {h}");
            }
        }
    }
}

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// The `optimal` and tiles columns of an instance file in the project's format.
fn optimal_and_tiles(path: &Path) -> Vec<(u32, Vec<u32>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(lines.next(), Some("id\toptimal\ttiles"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let tiles = f[2].split(' ').map(|t| t.parse().unwrap()).collect();
            (f[1].parse().unwrap(), tiles)
        })
        .collect()
}

#[test]
fn cli_writes_csv_sidecar_antipodes_and_heuristic_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.csv");
    let anti = dir.path().join("a.txt");
    let assert = bench()
        .args([
            "census",
            "--rows",
            "3",
            "--cols",
            "3",
            "--goal",
            "blank-first",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--antipodes")
        .arg(&anti)
        .args(["--heuristic", "manhattan,misplaced", "--threads", "2"])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("diameter 31, 2 positions at distance 31"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("rows,cols,goal,depth,count"));
    let want: Vec<String> = read_tsv("8puzzle_depths.tsv")
        .iter()
        .map(|r| format!("3,3,blank-first,{},{}", r[0], r[1]))
        .collect();
    assert_eq!(lines.map(str::to_string).collect::<Vec<_>>(), want);
    assert!(!dir.path().join("c.csv.partial").exists());
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["status"], "complete");
    assert_eq!(meta["diameter"], 31);
    assert!(meta["peak_rss_bytes"].as_u64().unwrap() > 0);
    // The antipodes re-read as instances, each at distance 31 by the independent search.
    let set = npuzzle::instances::read_instance_file(&anti, None).unwrap();
    assert_eq!(set.shape.goal, Goal::BlankFirst);
    assert_eq!(set.instances.len(), 2);
    let dist = simple_bfs(3, 3, Goal::BlankFirst);
    let rows = optimal_and_tiles(&anti);
    assert_eq!(rows.len(), 2);
    for ((optimal, tiles), inst) in rows.iter().zip(&set.instances) {
        assert_eq!(*optimal, 31);
        assert_eq!(inst.board.tiles(), &tiles[..]);
        assert_eq!(dist[tiles], 31);
    }
    // The depth x blank x h tables: one row per non-empty cell, summing to every position,
    // 20,160 (8! / 2) with the blank on each of the 9 cells.
    let h = std::fs::read_to_string(dir.path().join("c.heuristics.csv")).unwrap();
    let mut lines = h.lines();
    assert_eq!(
        lines.next(),
        Some("rows,cols,goal,heuristic,depth,blank,h,count")
    );
    let mut total = [0u64; 2];
    let mut per_cell = [[0u64; 9]; 2];
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        let k = usize::from(f[3] == "misplaced");
        let (d, blank, est): (u32, usize, u32) = (
            f[4].parse().unwrap(),
            f[5].parse().unwrap(),
            f[6].parse().unwrap(),
        );
        assert!(est <= d, "{l}");
        let n = f[7].parse::<u64>().unwrap();
        total[k] += n;
        per_cell[k][blank] += n;
    }
    assert_eq!(total, [181_440, 181_440]);
    assert_eq!(per_cell, [[20_160; 9]; 2]);
}

#[test]
fn memory_limit_is_refused_up_front_naming_what_fits() {
    let assert = bench()
        .args(["census", "--size", "3x4", "--max-memory", "40MiB"])
        .assert()
        .code(1);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.contains("--max-memory"), "{err}");
    assert!(
        err.contains("the largest board that fits is 2 x 5"),
        "{err}"
    );
    // The library check agrees and names both 12-cell boards when they fit.
    assert_eq!(census::largest_fitting(100 << 20), vec![(2, 6), (3, 4)]);
}

#[test]
fn bad_sizes_are_errors_not_panics() {
    for args in [
        &["--size", "1x1"][..],
        &["--rows", "0", "--cols", "3"],
        &["--size", "5x5"],
        &["--n", "4"],
        &["--size", "3x"],
        &[],
    ] {
        let assert = bench().arg("census").args(args).assert().failure();
        let out = assert.get_output();
        let err = String::from_utf8(out.stderr.clone()).unwrap();
        assert!(
            out.status.code() == Some(1) || out.status.code() == Some(2),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    let err = census::check(4, 4, Some(1 << 40)).unwrap_err().to_string();
    assert!(
        err.contains("needs") && err.contains("--max-memory"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_interrupted_census_keeps_finished_depths_and_claims_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.csv");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["census", "--size", "3x4", "--threads", "1", "--quiet"])
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a few depths are written, then send SIGTERM. Each look is taken with the
    // census paused (SIGSTOP), so it cannot finish between the look and the signal however
    // the machine's load schedules the two; the SIGTERM is handled as it continues.
    let partial = dir.path().join("c.csv.partial");
    let t0 = std::time::Instant::now();
    // SAFETY: signalling our own child.
    let signal = |sig| assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    loop {
        signal(libc::SIGSTOP);
        if std::fs::read_to_string(&partial).map_or(0, |s| s.lines().count()) >= 6 {
            break;
        }
        signal(libc::SIGCONT);
        assert!(t0.elapsed().as_secs() < 120, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    signal(libc::SIGTERM);
    signal(libc::SIGCONT);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143));
    assert!(!out.exists(), "no complete-looking CSV");
    let rows: Vec<String> = std::fs::read_to_string(&partial)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    assert!(rows.len() >= 5);
    // The depths kept are the true ones.
    let want = histogram(&bounded_bfs(3, 4, Goal::BlankLast, rows.len() as u32 - 1));
    for (d, r) in rows.iter().enumerate() {
        assert_eq!(r, &format!("3,4,blank-last,{d},{}", want[d]));
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["status"], "interrupted");
    assert_eq!(meta["diameter"], serde_json::Value::Null);
}

#[test]
fn predict_takes_exact_distributions_from_a_census_table() {
    // 2 x 4 is small enough for bench predict to enumerate every position itself, so the KRE
    // predictions from the census table must equal those from its own exact profile.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.csv");
    bench()
        .args(["census", "--size", "2x4", "--goal", "blank-first"])
        .args([
            "--heuristic",
            "manhattan,linear-conflict",
            "--heuristic-out",
        ])
        .arg(&table)
        .assert()
        .success();
    let predict = |extra: &[&std::ffi::OsStr], out: &Path| {
        bench()
            .args([
                "predict",
                "--seed",
                "1",
                "--size",
                "2x4",
                "--goal",
                "blank-first",
            ])
            .args([
                "--heuristics",
                "manhattan,linear-conflict",
                "--method",
                "kre",
            ])
            .args(["--pruning", "plain", "--bounds", "10..30", "--out"])
            .arg(out)
            .args(extra)
            .assert()
            .success();
        let text = std::fs::read_to_string(out).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (g, d) = (col("predicted_generated"), col("distribution"));
        lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[g].to_string(), f[d].to_string())
            })
            .collect::<Vec<_>>()
    };
    let own = predict(&[], &dir.path().join("own.csv"));
    let from_table = predict(
        &["--census-table".as_ref(), table.as_os_str()],
        &dir.path().join("table.csv"),
    );
    assert_eq!(own.len(), 2 * 21);
    assert_eq!(own, from_table);
    assert!(own.iter().all(|(_, d)| d == "exact"));

    // A heuristic the table lacks, and a table of another board, are refused by name.
    let err = bench()
        .args([
            "predict",
            "--seed",
            "1",
            "--size",
            "2x4",
            "--goal",
            "blank-first",
        ])
        .args(["--heuristics", "misplaced", "--census-table"])
        .arg(&table)
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("no distribution of misplaced"), "{err}");
    let err = bench()
        .args([
            "predict",
            "--seed",
            "1",
            "--size",
            "2x4",
            "--heuristics",
            "manhattan",
            "--census-table",
        ])
        .arg(&table)
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    assert!(
        err.contains("the table is for 2 x 4 (blank-first)"),
        "{err}"
    );
}
