//! `bench report`: aggregates of a hand-made fixture against values worked out by hand, b*,
//! schema checks and errors, output formats, and the SVG figures.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use npuzzle::report::aggregate::{GroupValue, LastNone};
use npuzzle::report::{GroupBy, aggregate, load_files};
use npuzzle::results::{Outcome, Pair, ReadError};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn shards() -> Vec<PathBuf> {
    vec![fixture("shard_a.csv"), fixture("shard_b.csv")]
}

fn bench() -> Command {
    Command::cargo_bin("bench").expect("bench binary")
}

/// b with 1 + b + ... + b^d = n + 1, by Newton's method from b = 2 (independent of the
/// bisection under test).
fn newton_bstar(n: f64, d: i32) -> f64 {
    let mut b = 2.0f64;
    for _ in 0..100 {
        let f: f64 = (0..=d).map(|i| b.powi(i)).sum::<f64>() - (n + 1.0);
        let df: f64 = (1..=d).map(|i| f64::from(i) * b.powi(i - 1)).sum();
        b -= f / df;
    }
    b
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn aggregates_match_hand_computation() {
    let records = load_files(&shards()).unwrap().rows;
    assert_eq!(records.len(), 10);
    let s = aggregate(&records, &[], Some(&Pair::new("idastar", "manhattan")));
    let names: Vec<(&str, &str)> = s
        .iter()
        .map(|x| (x.pair.algorithm.as_str(), x.pair.heuristic.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("astar", "manhattan"),
            ("astar", "misplaced"),
            ("idastar", "manhattan")
        ]
    );

    // astar/manhattan: three solved rows, moves 4 6 6, expanded 4 10 16, generated 10 20 30,
    // wall 1 2 4 ms, heap 2048 4096 8192.
    let a = &s[0];
    assert_eq!((a.runs, a.solved), (3, 3));
    let m = a.moves.unwrap();
    assert!(close(m.mean, 16.0 / 3.0) && m.median == 6.0);
    let e = a.expanded.unwrap();
    assert_eq!((e.mean, e.median, e.max), (10.0, 10.0, 16.0));
    let g = a.generated.unwrap();
    assert_eq!((g.mean, g.median, g.max), (20.0, 20.0, 30.0));
    let t = a.time_ms.unwrap();
    assert!(close(t.mean, 7.0 / 3.0) && t.median == 2.0);
    assert!(close(a.nodes_per_sec.unwrap(), 60.0 / 0.007));
    let h = a.heap.unwrap();
    assert!(close(h.mean, 14336.0 / 3.0) && h.max == 8192.0);
    // b*: depth 4 with N = 10 (one run), depth 6 with mean N = (20 + 30) / 2 = 25 (two runs).
    let want = (newton_bstar(10.0, 4) + 2.0 * newton_bstar(25.0, 6)) / 3.0;
    assert!(
        (a.bstar.unwrap() - want).abs() < 1e-9,
        "{:?} vs {want}",
        a.bstar
    );
    assert_eq!(
        (a.timeouts, a.node_limits, a.memory_limits, a.errors),
        (0, 0, 0, 0)
    );
    // Against idastar/manhattan on instances both solved (1 and 2; idastar timed out on 3):
    // idastar's instance 1 is the mean of two repetitions (5 nodes, 0.5 and 1.5 ms).
    let r = a.baseline.unwrap();
    assert_eq!(r.instances, 2);
    assert!(close(r.nodes.unwrap(), (4.0 + 10.0) / (5.0 + 20.0)));
    assert!(close(r.time.unwrap(), (1.0 + 2.0) / (1.0 + 1.0)));

    // astar/misplaced: one solved, one memory limit, one error; only instance 1 in common.
    let b = &s[1];
    assert_eq!(
        (b.runs, b.solved, b.memory_limits, b.errors, b.timeouts),
        (3, 1, 1, 1, 0)
    );
    assert_eq!(b.expanded.unwrap().max, 8.0);
    assert!((b.bstar.unwrap() - newton_bstar(14.0, 4)).abs() < 1e-9);
    let r = b.baseline.unwrap();
    assert_eq!(r.instances, 1);
    assert!(close(r.nodes.unwrap(), 8.0 / 5.0) && close(r.time.unwrap(), 1.5 / 1.0));

    // idastar/manhattan: four rows (two repetitions of instance 1), three solved, one timeout;
    // the timeout's node counts are not in the statistics.
    let c = &s[2];
    assert_eq!((c.runs, c.solved, c.timeouts), (4, 3, 1));
    let e = c.expanded.unwrap();
    assert_eq!((e.mean, e.median, e.max), (10.0, 5.0, 20.0));
    let g = c.generated.unwrap();
    assert!(close(g.mean, 64.0 / 3.0) && g.median == 12.0 && g.max == 40.0);
    let want = (2.0 * newton_bstar(12.0, 4) + newton_bstar(40.0, 6)) / 3.0;
    assert!((c.bstar.unwrap() - want).abs() < 1e-9);
    let r = c.baseline.unwrap();
    assert_eq!(r.instances, 2);
    assert!(close(r.nodes.unwrap(), 1.0) && close(r.time.unwrap(), 1.0));
}

#[test]
fn grouping_by_solution_length_uses_the_instances_optimal_length() {
    let records = load_files(&shards()).unwrap().rows;
    let s = aggregate(&records, &[GroupBy::Moves], None);
    let six = GroupValue::Moves(LastNone((false, 6)));
    // idastar's timeout on instance 3 belongs to depth 6 (astar/manhattan solved it in 6).
    let c = s
        .iter()
        .find(|x| x.group == [six.clone()] && x.pair.algorithm == "idastar")
        .unwrap();
    assert_eq!((c.runs, c.solved, c.timeouts), (2, 1, 1));
    assert!((c.bstar.unwrap() - newton_bstar(40.0, 6)).abs() < 1e-9);
    let b = s
        .iter()
        .find(|x| x.group == [six.clone()] && x.pair.heuristic == "misplaced")
        .unwrap();
    assert_eq!((b.runs, b.solved, b.memory_limits, b.errors), (2, 0, 1, 1));
    assert_eq!(b.expanded, None);
    assert_eq!(b.bstar, None);
    assert_eq!(s.len(), 6);
    // scramble_moves equals the solution length in this fixture, so the groups coincide.
    let t = aggregate(&records, &[GroupBy::Scramble], None);
    assert_eq!(
        t.iter().map(|x| x.runs).collect::<Vec<_>>(),
        s.iter().map(|x| x.runs).collect::<Vec<_>>()
    );
}

#[test]
fn shards_report_equals_report_of_their_concatenation() {
    let dir = tempfile::tempdir().unwrap();
    let a = std::fs::read_to_string(fixture("shard_a.csv")).unwrap();
    let b = std::fs::read_to_string(fixture("shard_b.csv")).unwrap();
    let merged = dir.path().join("merged.csv");
    let body: String = b.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&merged, format!("{a}{body}")).unwrap();
    for format in ["csv", "markdown"] {
        let run = |files: &[PathBuf]| {
            let out = bench()
                .arg("report")
                .args(files)
                .args([
                    "--by",
                    "size,moves",
                    "--baseline",
                    "astar/manhattan",
                    "--format",
                    format,
                ])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        };
        let from_shards = run(&shards());
        assert_eq!(from_shards, run(std::slice::from_ref(&merged)));
        // Order of the shards does not matter either.
        assert_eq!(
            from_shards,
            run(&[fixture("shard_b.csv"), fixture("shard_a.csv")])
        );
    }
}

#[test]
fn a_foreign_header_is_rejected_naming_the_file() {
    let err = load_files(&[fixture("shard_a.csv"), fixture("swapped_header.csv")]).unwrap_err();
    assert!(matches!(err, ReadError::Header { .. }), "{err}");
    bench()
        .args(["report"])
        .arg(fixture("shard_a.csv"))
        .arg(fixture("swapped_header.csv"))
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "swapped_header.csv:1: not a results CSV header: the columns are in another order",
        ))
        .stdout("");
}

#[test]
fn missing_columns_are_rejected() {
    bench()
        .arg("report")
        .arg(fixture("missing_column.csv"))
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "missing_column.csv:1: not a results CSV header: missing column(s) peak_heap_bytes",
        ));
}

#[test]
fn malformed_numbers_give_file_and_line() {
    bench()
        .arg("report")
        .arg(fixture("bad_number.csv"))
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "bad_number.csv:3: column nodes_generated: expected a node count or an empty cell, found \"2o\"",
        ));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad_status.csv");
    let text = std::fs::read_to_string(fixture("shard_b.csv"))
        .unwrap()
        .replace(",timeout,", ",timed-out,");
    std::fs::write(&bad, text).unwrap();
    bench()
        .arg("report")
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "bad_status.csv:3: column status: expected solved, timeout",
        ));
}

#[test]
fn other_bad_input_is_rejected() {
    bench()
        .args(["report", "/nonexistent/results.csv"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "/nonexistent/results.csv: cannot read",
        ));
    bench()
        .arg("report")
        .arg(fixture("shard_a.csv"))
        .args(["--baseline", "bfs/none"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("--baseline bfs/none: no rows of that pair; the results have astar/manhattan, idastar/manhattan"));
    bench()
        .arg("report")
        .arg(fixture("shard_a.csv"))
        .args(["--by", "depth"])
        .assert()
        .failure();
    let dir = tempfile::tempdir().unwrap();
    let header_only = dir.path().join("empty.csv");
    let head = std::fs::read_to_string(fixture("shard_a.csv")).unwrap();
    std::fs::write(&header_only, format!("{}\n", head.lines().next().unwrap())).unwrap();
    bench()
        .arg("report")
        .arg(&header_only)
        .assert()
        .failure()
        .stderr(predicates::str::contains("no result rows"));
}

#[test]
fn table_and_markdown_output() {
    let out = bench().arg("report").args(shards()).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The table, then the time spread (the fixture repeats idastar's jobs) and comparisons.
    assert!(lines.len() > 5, "{text}");
    assert!(lines[5].starts_with("time per pair in ms"), "{text}");
    assert!(lines[0].starts_with("algorithm  heuristic  solved"));
    assert!(lines[2].starts_with("astar      manhattan     3/3"));
    assert!(lines[4].starts_with("idastar    manhattan     3/4"));
    let out = bench()
        .arg("report")
        .args(shards())
        .args(["--format", "markdown", "--by", "moves"])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = md.lines().collect();
    // The table's 8 lines, then the spread and comparisons in a text block.
    assert_eq!(lines[8..10], ["", "```text"], "{md}");
    assert_eq!(lines.last(), Some(&"```"), "{md}");
    assert!(lines[1].starts_with("| :---- | :-------- |"));
    // The group with nothing solved shows dashes, not zeros.
    let row = lines
        .iter()
        .find(|l| l.contains("| 6     | astar     | misplaced |"))
        .unwrap();
    assert!(
        row.contains("|    0/2 |") && row.contains("|     - |"),
        "{row}"
    );
}

#[test]
fn csv_output_is_unrounded_with_empty_cells() {
    let out = bench()
        .arg("report")
        .args(shards())
        .args(["--format", "csv", "--by", "moves"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let misplaced6 = rows
        .iter()
        .find(|x| &x[0] == "6" && &x[2] == "misplaced")
        .unwrap();
    assert_eq!(&misplaced6[col("expanded_mean")], "");
    assert_eq!(&misplaced6[col("memory_limit")], "1");
    let astar6 = rows
        .iter()
        .find(|x| &x[0] == "6" && &x[2] == "manhattan" && &x[1] == "astar")
        .unwrap();
    let b: f64 = astar6[col("bstar")].parse().unwrap();
    assert!((b - newton_bstar(25.0, 6)).abs() < 1e-9);
    assert_eq!(&astar6[col("expanded_mean")], "13");
}

#[test]
fn svg_figures_parse_and_name_their_series() {
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("figs");
    let out = bench()
        .arg("report")
        .args(shards())
        .arg("--plots")
        .arg(&plots)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let files = [
        "nodes_vs_length.svg",
        "time_cdf.svg",
        "memory_vs_length.svg",
        "bstar_by_depth.svg",
    ];
    for f in files {
        let path = plots.join(f);
        assert!(
            stderr.contains(&format!("wrote {}", path.display())),
            "{stderr}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let texts: Vec<&str> = doc
            .descendants()
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for series in ["astar/manhattan", "astar/misplaced", "idastar/manhattan"] {
            assert!(texts.contains(&series), "{f} lacks the series {series}");
        }
        // Axis descriptions carry units.
        assert!(
            texts
                .iter()
                .any(|t| t.contains("(moves)") || t.contains("(ms")),
            "{f}: {texts:?}"
        );
        // One polyline per series at least.
        assert!(
            doc.descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .count()
                >= 3,
            "{f}"
        );
    }
}

#[test]
fn grouping_by_size_separates_boards() {
    // shard_b's rows relabelled as 2 x 4 boards (other instances): size groups split the pairs.
    let dir = tempfile::tempdir().unwrap();
    let b = std::fs::read_to_string(fixture("shard_b.csv"))
        .unwrap()
        .replace(",fix.txt,", ",fix24.txt,")
        .replace(",3,3,blank-last,", ",2,4,blank-last,");
    let b_path = dir.path().join("b24.csv");
    std::fs::write(&b_path, b).unwrap();
    let records = load_files(&[fixture("shard_a.csv"), b_path]).unwrap().rows;
    let s = aggregate(&records, &[GroupBy::Size], None);
    let rows: Vec<(String, &str, &str, usize, usize)> = s
        .iter()
        .map(|x| {
            (
                x.group[0].to_string(),
                x.pair.algorithm.as_str(),
                x.pair.heuristic.as_str(),
                x.runs,
                x.solved,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("2x4".to_string(), "astar", "misplaced", 3, 1),
            ("2x4".to_string(), "idastar", "manhattan", 2, 1),
            ("3x3".to_string(), "astar", "manhattan", 3, 3),
            ("3x3".to_string(), "idastar", "manhattan", 2, 2),
        ]
    );
}

#[test]
fn gen_run_report_end_to_end() {
    // Five 10-move random walks on the 8-puzzle, solved by A* and IDA* with Manhattan distance.
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("walks.txt");
    let csv_path = dir.path().join("r.csv");
    bench()
        .args([
            "gen", "--n", "3", "--moves", "10", "--count", "5", "--seed", "7", "--out",
        ])
        .arg(&inst)
        .assert()
        .success();
    bench()
        .args([
            "run",
            "--algos",
            "astar,idastar",
            "--heuristics",
            "manhattan",
            "--threads",
            "1",
            "--quiet",
        ])
        .arg("--instances")
        .arg(&inst)
        .arg("--out")
        .arg(&csv_path)
        .assert()
        .success();
    let records = load_files(std::slice::from_ref(&csv_path)).unwrap().rows;
    assert_eq!(records.len(), 10);
    let out = bench()
        .arg("report")
        .arg(&csv_path)
        .args(["--format", "csv", "--by", "scramble"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in &rows {
        // Both pairs: one scramble group of 10 moves, all five solved, optimal lengths at most 10.
        assert_eq!((&row[0], &row[3], &row[4]), ("10", "5", "5"), "{text}");
        let mean: f64 = row[5].parse().unwrap();
        assert!(mean <= 10.0);
    }
    // Both optimal algorithms find the same mean length.
    assert_eq!(&rows[0][5], &rows[1][5]);
}

#[test]
fn a_missing_file_is_reported_once() {
    let out = bench()
        .args(["report", "/nonexistent/r.csv"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
}

/// The version-2 header, typed from docs/results-schema.md.
const HEADER_V2: &str = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,\
algorithm,heuristic,repetition,status,moves,lower_bound,optimal,nodes_expanded,nodes_generated,\
iterations,peak_stored_nodes,peak_heap_bytes,wall_ms,search_ms,cpu_ms,setup_ms,initial_h,message,\
solution";

/// The version-3 header (what this program writes), typed from docs/results-schema.md.
const HEADER_V3: &str = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,\
algorithm,heuristic,repetition,status,moves,lower_bound,optimal,known_optimal,suboptimal,\
nodes_expanded,nodes_generated,iterations,peak_stored_nodes,peak_heap_bytes,peak_rss_bytes,\
wall_ms,search_ms,cpu_ms,user_ms,sys_ms,setup_ms,initial_h,measured_by,message,solution";

/// A version-1 file rewritten with the version-2 header, the new columns empty.
fn as_version_2(v1: &Path, out: &Path) {
    let mut r = csv::Reader::from_path(v1).unwrap();
    let head = r.headers().unwrap().clone();
    let mut w = csv::Writer::from_path(out).unwrap();
    w.write_record(HEADER_V2.split(',')).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let cells: Vec<&str> = HEADER_V2
            .split(',')
            .map(|name| head.iter().position(|h| h == name).map_or("", |i| &rec[i]))
            .collect();
        w.write_record(cells).unwrap();
    }
    w.flush().unwrap();
}

#[test]
fn version_1_and_version_2_files_report_alike() {
    let dir = tempfile::tempdir().unwrap();
    let b2 = dir.path().join("shard_b_v2.csv");
    as_version_2(&fixture("shard_b.csv"), &b2);
    assert!(std::fs::read_to_string(&b2).unwrap().starts_with(HEADER_V2));
    let report = |files: &[PathBuf]| {
        let out = bench()
            .arg("report")
            .args(files)
            .args(["--by", "moves", "--format", "csv"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        report(&[fixture("shard_a.csv"), b2.clone()]),
        report(&shards())
    );
    // Merged, the two versions become one file of this version with the same rows.
    let merged = dir.path().join("merged.csv");
    bench()
        .arg("merge")
        .arg(fixture("shard_a.csv"))
        .arg(&b2)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&merged)
            .unwrap()
            .starts_with(HEADER_V3)
    );
    assert_eq!(report(&[merged]), report(&shards()));
}

#[test]
fn a_results_file_of_the_previous_version_reads_and_agrees_with_a_new_run() {
    let old_dir = fixture("v1-run");
    let old = load_files(&[old_dir.join("results.csv")]).unwrap().rows;
    assert_eq!(old.len(), 24);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(old_dir.join("w.txt"), dir.path().join("w.txt")).unwrap();
    bench()
        .current_dir(dir.path())
        .args([
            "run",
            "--instances",
            "w.txt",
            "--algos",
            "astar,idastar",
            "--heuristics",
            "manhattan,misplaced",
            "--threads",
            "1",
            "--seed",
            "1",
            "--max-nodes",
            "1500",
            "-q",
            "--out",
            "v2.csv",
        ])
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.path().join("v2.csv")).unwrap();
    assert!(text.starts_with(HEADER_V3), "{text}");
    let new = load_files(&[dir.path().join("v2.csv")]).unwrap().rows;
    assert_eq!(new.len(), old.len());
    let mut limited = 0;
    for o in &old {
        let n = new.iter().find(|n| n.key() == o.key()).unwrap();
        assert_eq!(
            (n.status, n.moves, n.nodes_expanded, n.nodes_generated),
            (o.status, o.moves, o.nodes_expanded, o.nodes_generated),
            "{}",
            o.key()
        );
        assert_eq!(
            (o.lower_bound, o.iterations, o.search_ms),
            (None, None, None)
        );
        // Version 1 kept IDA*'s lower bound in the message; version 2 has a column for it.
        let from_message = o.message.as_deref().map(|m| {
            m.strip_prefix("every solution has at least ")
                .and_then(|m| m.split(' ').next())
                .and_then(|m| m.parse::<u32>().ok())
                .unwrap_or_else(|| panic!("{m}"))
        });
        assert_eq!(n.lower_bound, from_message, "{}", o.key());
        assert_eq!(n.message, None);
        if n.status == Outcome::NodeLimit && n.algorithm == "idastar" {
            limited += 1;
        }
        assert_eq!(
            n.iterations.is_some(),
            n.algorithm == "idastar",
            "{}",
            o.key()
        );
        let search = n.search_ms.unwrap();
        assert!(search <= n.wall_ms, "{search} > {}", n.wall_ms);
    }
    assert_eq!(limited, 8);
    bench()
        .arg("report")
        .arg(old_dir.join("results.csv"))
        .assert()
        .success();
}

#[test]
fn a_torn_last_line_is_left_out_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let torn = dir.path().join("torn.csv");
    let text = std::fs::read_to_string(fixture("shard_b.csv")).unwrap();
    std::fs::write(&torn, format!("{text}r1,fix.txt,4,3,3,bla")).unwrap();
    let out = bench()
        .arg("report")
        .arg(fixture("shard_a.csv"))
        .arg(&torn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("torn.csv:7: left out an incomplete last line"),
        "{stderr}"
    );
    let whole = bench().arg("report").args(shards()).output().unwrap();
    assert_eq!(out.stdout, whole.stdout);
    // The same piece in the middle of the file is an error naming its line.
    let lines: Vec<&str> = text.lines().collect();
    let middle = format!(
        "{}\n{}\nr1,fix.txt,4,3,3,bla\n{}\n",
        lines[0],
        lines[1],
        lines[2..].join("\n")
    );
    std::fs::write(&torn, middle).unwrap();
    bench()
        .arg("report")
        .arg(&torn)
        .assert()
        .failure()
        .stderr(predicates::str::contains("torn.csv:3: malformed CSV"));
}

#[test]
fn impossible_boards_and_solution_lengths_are_rejected_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let head = std::fs::read_to_string(fixture("shard_a.csv")).unwrap();
    let head = head.lines().next().unwrap().to_string();
    let row = |size: &str, moves: &str, solution: &str| {
        format!(
            "r1,fix.txt,1,{size},blank-last,,astar,manhattan,1,solved,{moves},true,4,10,8,2048,\
             1.0,1.0,0.01,4,,{solution}"
        )
    };
    let cases = [
        (
            row("0,3", "2", ""),
            "column rows: expected at least 2, found \"0\"",
        ),
        (
            row("1,1", "2", ""),
            "column rows: expected at least 2, found \"1\"",
        ),
        (
            row("3,0", "2", ""),
            "column cols: expected at least 2, found \"0\"",
        ),
        (
            row("3,3", "1000000000", "LR"),
            "column moves: expected the length of the solution column, 2 moves, found \"1000000000\"",
        ),
    ];
    let f = dir.path().join("x.csv");
    for (line, want) in cases {
        std::fs::write(&f, format!("{head}\n{}\n{line}\n", row("3,3", "2", "LR"))).unwrap();
        bench()
            .arg("report")
            .arg(&f)
            .assert()
            .failure()
            .stderr(predicates::str::contains(format!("x.csv:3: {want}")));
    }
    // A genuinely long solution (10^6 moves, blank left and back) is read and replayed.
    let long = "LR".repeat(500_000);
    std::fs::write(&f, format!("{head}\n{}\n", row("3,3", "1000000", &long))).unwrap();
    bench()
        .arg("report")
        .arg(&f)
        .arg("--html")
        .arg(dir.path().join("r.html"))
        .assert()
        .success();
}
