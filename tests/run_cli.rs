//! `bench run` and `bench merge`, driven through the real binary.
//!
//! Instance files are written here in Korf's tsv layout (`id<TAB>tiles`, blank-first goal),
//! boards made by random walks from the goal with a fixed-seed generator of this file (not the
//! project's generator). Expected moves come from BFS (exact) and from the algorithms agreeing
//! with each other; expected job sets from counting by hand.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use npuzzle::{Board, Goal, Move};
use predicates::prelude::*;

/// The results header as documented in docs/results-schema.md (copied, not computed).
const DOCUMENTED_HEADER: &str = "run_id,instance_file,instance_id,rows,cols,goal,scramble_moves,\
algorithm,heuristic,repetition,status,moves,lower_bound,optimal,known_optimal,suboptimal,\
nodes_expanded,nodes_generated,iterations,peak_stored_nodes,peak_heap_bytes,peak_rss_bytes,\
wall_ms,search_ms,cpu_ms,user_ms,sys_ms,setup_ms,initial_h,measured_by,message,solution";

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// A random walk of `moves` blank moves from the blank-first goal, never undoing the previous
/// move (xorshift generator, so the file is the same everywhere).
fn walk(n: usize, moves: usize, seed: u64) -> Board {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut board = Board::solved(n, n, Goal::BlankFirst);
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let options: Vec<Move> = board
            .legal_moves()
            .filter(|m| Some(m.inverse()) != last)
            .collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = options[(state % options.len() as u64) as usize];
        assert!(board.apply(m));
        last = Some(m);
    }
    board
}

fn tsv(boards: &[Board]) -> String {
    let mut s = String::from("id\ttiles\n");
    for (i, b) in boards.iter().enumerate() {
        let tiles: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
        s += &format!("{}\t{}\n", i + 1, tiles.join(" "));
    }
    s
}

fn write_walks(dir: &Path, name: &str, n: usize, moves: usize, count: usize, seed: u64) -> PathBuf {
    let boards: Vec<Board> = (0..count)
        .map(|i| walk(n, moves, seed * 1000 + i as u64))
        .collect();
    let p = dir.join(name);
    std::fs::write(&p, tsv(&boards)).unwrap();
    p
}

type Record = HashMap<String, String>;

fn read_csv(path: &Path) -> (String, Vec<Record>) {
    let text = std::fs::read_to_string(path).unwrap();
    parse_csv(&text)
}

fn parse_csv(text: &str) -> (String, Vec<Record>) {
    let header = text.lines().next().unwrap_or("").to_string();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            names
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

fn key(r: &Record) -> (String, String, String, String, String) {
    (
        r["instance_file"].clone(),
        r["instance_id"].clone(),
        r["algorithm"].clone(),
        r["heuristic"].clone(),
        r["repetition"].clone(),
    )
}

fn run_in(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    bench().current_dir(dir).arg("run").args(args).assert()
}

#[test]
fn every_job_has_one_row_with_the_documented_header_and_algorithms_agree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 30, 12, 1);
    write_walks(d, "p4.tsv", 4, 14, 8, 2);
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "p4.tsv",
            "--algos",
            "astar,idastar,bfs",
            "--heuristics",
            "manhattan,misplaced",
            "--repeat",
            "2",
            "--solutions",
            "--out",
            "out.csv",
            "--threads",
            "2",
        ],
    )
    .success();
    let (header, rows) = read_csv(&d.join("out.csv"));
    assert_eq!(header, DOCUMENTED_HEADER);
    // (12 + 8) instances x (astar x 2 heuristics + idastar x 2 + bfs x none) x 2 repetitions.
    assert_eq!(rows.len(), 20 * 5 * 2);
    let keys: BTreeSet<_> = rows.iter().map(key).collect();
    assert_eq!(keys.len(), rows.len(), "duplicate job keys");
    let run_ids: BTreeSet<_> = rows.iter().map(|r| r["run_id"].clone()).collect();
    assert_eq!(run_ids.len(), 1);

    let mut moves: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        assert_eq!(r["status"], "solved", "{r:?}");
        assert_eq!(r["optimal"], "true");
        assert_eq!(r["message"], "");
        assert_eq!(r["scramble_moves"], "", "Korf layout has no walk length");
        let blind = r["algorithm"] == "bfs";
        assert_eq!(r["heuristic"] == "none", blind);
        assert_eq!(r["initial_h"].is_empty(), blind);
        for col in [
            "nodes_expanded",
            "nodes_generated",
            "peak_stored_nodes",
            "peak_heap_bytes",
        ] {
            assert!(r[col].parse::<u64>().is_ok(), "{col}: {r:?}");
        }
        for col in ["wall_ms", "cpu_ms", "setup_ms"] {
            assert!(r[col].parse::<f64>().is_ok(), "{col}: {r:?}");
        }
        let walk_len = if r["rows"] == "3" { 30 } else { 14 };
        let m: usize = r["moves"].parse().unwrap();
        assert!(m <= walk_len);
        assert_eq!(r["solution"].len(), m);
        // The solution replays to the goal (checked here, independently of the harness).
        let file = std::fs::read_to_string(d.join(&r["instance_file"])).unwrap();
        let line = file
            .lines()
            .find(|l| l.split('\t').next() == Some(r["instance_id"].as_str()))
            .unwrap();
        let tiles: Vec<u32> = line
            .split('\t')
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        let n = r["rows"].parse().unwrap();
        let mut b = Board::new(n, n, tiles).unwrap();
        for c in r["solution"].chars() {
            assert!(b.apply(Move::from_letter(c).unwrap()));
        }
        assert!(b.is_goal(Goal::BlankFirst));
        moves
            .entry((r["instance_file"].clone(), r["instance_id"].clone()))
            .or_default()
            .insert(r["moves"].clone());
    }
    assert_eq!(moves.len(), 20);
    for (k, m) in &moves {
        assert_eq!(m.len(), 1, "A*, IDA* and BFS disagree on {k:?}: {m:?}");
    }
}

#[test]
fn limits_become_statuses_and_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "hard.tsv", 4, 60, 1, 7);
    // BFS at 60 moves needs far more than 64 MiB: memory-limit, and the process survives.
    run_in(
        d,
        &[
            "--instances",
            "hard.tsv",
            "--algos",
            "bfs",
            "--max-memory",
            "64MiB",
            "--out",
            "m.csv",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("m.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "memory-limit");
    assert_eq!(rows[0]["moves"], "");
    let peak: u64 = rows[0]["peak_heap_bytes"].parse().unwrap();
    assert!(peak > 8 << 20 && peak <= 64 << 20, "peak heap {peak}");

    run_in(
        d,
        &[
            "--instances",
            "hard.tsv",
            "--algos",
            "idastar",
            "--max-nodes",
            "5000",
            "--out",
            "n.csv",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("n.csv"));
    assert_eq!(rows[0]["status"], "node-limit");
    let generated: u64 = rows[0]["nodes_generated"].parse().unwrap();
    assert!(generated <= 5000, "{generated}");

    run_in(
        d,
        &[
            "--instances",
            "hard.tsv",
            "--algos",
            "bfs",
            "--timeout",
            "50ms",
            "--out",
            "t.csv",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("t.csv"));
    assert_eq!(rows[0]["status"], "timeout");
}

#[test]
fn bad_names_and_bad_instances_stop_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 10, 2, 3);
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "--algos",
            "astar,quantum",
            "--out",
            "a.csv",
        ],
    )
    .code(2)
    .stderr(predicates::str::contains("--algos").and(predicates::str::contains("quantum")));
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "--heuristics",
            "magic",
            "--out",
            "a.csv",
        ],
    )
    .code(2)
    .stderr(predicates::str::contains("--heuristics"));
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "--max-memory",
            "lots",
            "--out",
            "a.csv",
        ],
    )
    .code(2)
    .stderr(predicates::str::contains("--max-memory"));
    run_in(
        d,
        &["--instances", "p3.tsv", "--shard", "4/3", "--out", "a.csv"],
    )
    .code(2);
    assert!(!d.join("a.csv").exists());

    // Swapping two tiles makes a board unsolvable: stop, naming file:line.
    let mut text = std::fs::read_to_string(d.join("p3.tsv")).unwrap();
    text += "3\t0 2 1 3 4 5 6 7 8\n";
    std::fs::write(d.join("bad.tsv"), &text).unwrap();
    run_in(d, &["--instances", "bad.tsv", "--out", "b.csv"])
        .code(1)
        .stderr(
            predicates::str::contains("bad.tsv:4").and(predicates::str::contains("unsolvable")),
        );
    assert!(!d.join("b.csv").exists());
    run_in(
        d,
        &["--instances", "bad.tsv", "--skip-invalid", "--out", "b.csv"],
    )
    .success()
    .stderr(predicates::str::contains("left out 1 unsolvable"));
    let (_, rows) = read_csv(&d.join("b.csv"));
    assert_eq!(rows.len(), 2);

    // A board beyond the exact searches' 4096 cells: refused up front, naming the flag.
    let big: Vec<String> = (0..65 * 65).map(|t| t.to_string()).collect();
    std::fs::write(
        d.join("big.tsv"),
        format!("id\ttiles\n1\t{}\n", big.join(" ")),
    )
    .unwrap();
    run_in(d, &["--instances", "big.tsv", "--out", "c.csv"])
        .code(1)
        .stderr(predicates::str::contains("--algos"));
    // ... while the polynomial-time solver takes it: a row without search counters.
    write_walks(d, "big9.tsv", 9, 300, 2, 12);
    run_in(
        d,
        &[
            "--instances",
            "big9.tsv",
            "--algos",
            "approx",
            "--solutions",
            "--out",
            "c.csv",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("c.csv"));
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(
            (r["status"].as_str(), r["optimal"].as_str()),
            ("solved", "false")
        );
        assert_eq!(r["heuristic"], "none");
        assert_eq!(r["nodes_expanded"], "");
        assert_eq!(r["solution"].len(), r["moves"].parse::<usize>().unwrap());
    }

    // A heuristic that does not exist for the board size: named before anything runs.
    write_walks(d, "p5.tsv", 5, 10, 1, 13);
    run_in(
        d,
        &[
            "--instances",
            "p5.tsv",
            "--heuristics",
            "walking-distance",
            "--out",
            "w.csv",
        ],
    )
    .code(1)
    .stderr(predicates::str::contains("--heuristics").and(predicates::str::contains("5 x 5")));
    assert!(!d.join("w.csv").exists());

    // An existing output is not overwritten.
    run_in(d, &["--instances", "p3.tsv", "--out", "b.csv"])
        .code(1)
        .stderr(predicates::str::contains("--resume"));
}

#[test]
fn defaults_take_the_newest_instance_file_and_write_under_results() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("instances")).unwrap();
    write_walks(&d.join("instances"), "old.tsv", 3, 10, 2, 4);
    write_walks(&d.join("instances"), "new.tsv", 3, 12, 3, 5);
    // "Newest" by modification time: set, not left to the clock's granularity.
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(d.join("instances/old.tsv"))
        .unwrap()
        .set_modified(an_hour_ago)
        .unwrap();
    let out = run_in(d, &[]).success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("instances/new.tsv"), "{stderr}");
    let csvs: Vec<PathBuf> = std::fs::read_dir(d.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    assert_eq!(csvs.len(), 1);
    assert!(stderr.contains(&csvs[0].file_name().unwrap().to_string_lossy().to_string()));
    let (_, rows) = read_csv(&csvs[0]);
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .all(|r| r["algorithm"] == "idastar" && r["heuristic"] == "manhattan")
    );
    let meta: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(csvs[0].with_extension("csv.meta.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["run_id"].as_str().unwrap(), rows[0]["run_id"]);
    assert_eq!(meta["limits"]["timeout_ms"], 60000);
    assert!(meta["limits"]["max_memory_bytes"].as_u64().unwrap() > 0);
    assert_eq!(meta["instance_files"][0]["path"], "instances/new.tsv");
    assert_eq!(
        meta["instance_files"][0]["sha256"].as_str().unwrap().len(),
        64
    );
    assert!(meta["job_order_seed"].is_u64());
    assert_eq!(meta["sessions"][0]["status"], "complete");
}

#[test]
fn one_and_two_threads_give_the_same_moves_and_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 24, 10, 6);
    let cols = [
        "status",
        "moves",
        "nodes_expanded",
        "nodes_generated",
        "peak_stored_nodes",
    ];
    let mut results = Vec::new();
    for t in ["1", "2"] {
        let out = format!("t{t}.csv");
        run_in(
            d,
            &[
                "--instances",
                "p4.tsv",
                "--algos",
                "astar,idastar",
                "--threads",
                t,
                "--out",
                &out,
            ],
        )
        .success();
        let (_, rows) = read_csv(&d.join(&out));
        let m: BTreeMap<_, Vec<String>> = rows
            .iter()
            .map(|r| (key(r), cols.iter().map(|c| r[*c].clone()).collect()))
            .collect();
        assert_eq!(m.len(), 20);
        results.push(m);
    }
    assert_eq!(results[0], results[1]);
}

#[test]
fn shards_partition_the_run_and_merge_joins_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 20, 7, 8);
    let common = [
        "--instances",
        "p3.tsv",
        "--algos",
        "astar,bfs",
        "--repeat",
        "2",
    ];
    let run = |extra: &[&str]| {
        let mut a: Vec<&str> = common.to_vec();
        a.extend_from_slice(extra);
        run_in(d, &a).success();
    };
    run(&["--out", "full.csv"]);
    for k in 1..=3 {
        run(&[
            "--shard",
            &format!("{k}/3"),
            "--out",
            &format!("s{k}.csv"),
            "--seed",
            &k.to_string(),
        ]);
    }
    let moves_by_key = |p: &str| -> BTreeMap<_, String> {
        read_csv(&d.join(p))
            .1
            .iter()
            .map(|r| (key(r), r["moves"].clone()))
            .collect()
    };
    let full = moves_by_key("full.csv");
    assert_eq!(full.len(), 7 * 2 * 2);
    let mut union = BTreeMap::new();
    for k in 1..=3 {
        let s = moves_by_key(&format!("s{k}.csv"));
        assert!(!s.is_empty());
        for (key, m) in s {
            assert!(union.insert(key, m).is_none(), "shards overlap");
        }
    }
    assert_eq!(union, full);

    bench()
        .current_dir(d)
        .args(["merge", "s1.csv", "s2.csv", "s3.csv", "--out", "merged.csv"])
        .assert()
        .success();
    assert_eq!(moves_by_key("merged.csv"), full);
    assert!(d.join("merged.csv.meta.json").exists());

    // The same shard twice: duplicate job keys.
    std::fs::copy(d.join("s1.csv"), d.join("again.csv")).unwrap();
    bench()
        .current_dir(d)
        .args(["merge", "s1.csv", "s2.csv", "again.csv", "--out", "dup.csv"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("again.csv:2").and(predicates::str::contains("s1.csv")));
    assert!(!d.join("dup.csv").exists());

    // An interrupted shard: two rows fewer than planned, the sidecar saying so. Refused,
    // naming it and the count; accepted with --allow-incomplete, loudly.
    let text = std::fs::read_to_string(d.join("s1.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut: String = lines[..lines.len() - 2]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(d.join("cut.csv"), cut).unwrap();
    let sidecar = std::fs::read_to_string(d.join("s1.csv.meta.json")).unwrap();
    let planned = lines.len() - 1;
    assert!(
        sidecar.contains(&format!("\"jobs_planned\": {planned}")),
        "{sidecar}"
    );
    let sidecar = sidecar.replace("\"status\": \"complete\"", "\"status\": \"interrupted\"");
    std::fs::write(d.join("cut.csv.meta.json"), sidecar).unwrap();
    let missing = format!("2 of {planned} planned jobs missing");
    bench()
        .current_dir(d)
        .args(["merge", "cut.csv", "s2.csv", "s3.csv", "--out", "cut-m.csv"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "cut.csv: its run is not finished",
        ))
        .stderr(predicates::str::contains(&missing))
        .stderr(predicates::str::contains("interrupted"));
    assert!(!d.join("cut-m.csv").exists());
    bench()
        .current_dir(d)
        .args(["merge", "cut.csv", "s2.csv", "s3.csv", "--out", "cut-m.csv"])
        .arg("--allow-incomplete")
        .assert()
        .success()
        .stderr(predicates::str::contains("warning: cut.csv"))
        .stderr(predicates::str::contains(&missing));
    assert_eq!(moves_by_key("cut-m.csv").len(), full.len() - 2);

    // `report` counts no job twice either.
    bench()
        .current_dir(d)
        .args(["report", "s1.csv", "s1.csv"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("s1.csv:2"));

    // A file with another header.
    let text = std::fs::read_to_string(d.join("s2.csv")).unwrap();
    std::fs::write(d.join("other.csv"), text.replacen("run_id,", "id,", 1)).unwrap();
    bench()
        .current_dir(d)
        .args(["merge", "s1.csv", "other.csv", "--out", "hdr.csv"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("header"));
}

/// Starts `bench run` in the background, waits until its output has at least `rows` rows, and
/// returns the child paused (SIGSTOP): it cannot finish the run before the caller signals it,
/// however the machine's load schedules the two. The poll pauses the child before it counts,
/// so a count that is enough is a count of a paused run. [`resume_with`] sends a signal and
/// continues it; SIGKILL needs no continuing.
fn start_and_wait(d: &Path, args: &[&str], rows: usize) -> std::process::Child {
    let exe = assert_cmd::cargo::cargo_bin("bench");
    let mut child = std::process::Command::new(exe)
        .current_dir(d)
        .arg("run")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = d.join("r.csv");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        signal(&child, libc::SIGSTOP);
        let n = std::fs::read_to_string(&out).map_or(0, |t| t.lines().count().saturating_sub(1));
        if n >= rows {
            return child;
        }
        signal(&child, libc::SIGCONT);
        assert!(Instant::now() < deadline, "no rows appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Sends `sig` to a child paused by [`start_and_wait`], then lets it continue (the signal is
/// handled as it resumes).
fn resume_with(child: &std::process::Child, sig: libc::c_int) {
    signal(child, sig);
    signal(child, libc::SIGCONT);
}

fn resume_args() -> Vec<&'static str> {
    // 60 BFS jobs of a few tens of milliseconds each, one thread: seconds in all.
    vec![
        "--instances",
        "p4.tsv",
        "--algos",
        "bfs",
        "--threads",
        "1",
        "--out",
        "r.csv",
        "--quiet",
    ]
}

fn assert_complete(d: &Path) {
    let (_, rows) = read_csv(&d.join("r.csv"));
    let keys: BTreeSet<_> = rows.iter().map(key).collect();
    assert_eq!(keys.len(), rows.len(), "duplicate rows after resume");
    assert_eq!(rows.len(), 60);
    assert!(rows.iter().all(|r| r["status"] == "solved"));
    let ids: BTreeSet<_> = rows.iter().map(|r| r["run_id"].clone()).collect();
    assert_eq!(ids.len(), 1, "a resumed run keeps its run id");
}

#[test]
fn resume_after_sigkill_gives_one_row_per_job() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 16, 60, 9);
    let mut child = start_and_wait(d, &resume_args(), 3);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let (_, partial) = read_csv(&d.join("r.csv"));
    assert!(partial.len() < 60, "the run finished before the kill");
    // Whatever the kill left, also simulate a row torn mid-write.
    let mut text = std::fs::read_to_string(d.join("r.csv")).unwrap();
    if text.ends_with('\n') {
        text += "20261201T000000Z-abcdef,p4.tsv,4";
        std::fs::write(d.join("r.csv"), text).unwrap();
    }
    let mut args = resume_args();
    args.push("--resume");
    run_in(d, &args).success();
    assert_complete(d);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.csv.meta.json")).unwrap()).unwrap();
    let sessions = meta["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(
        sessions[0]["status"], "running",
        "the killed session never finished"
    );
    assert_eq!(sessions[1]["status"], "complete");
}

#[test]
fn ctrl_c_stops_cleanly_with_130_and_resume_completes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 16, 60, 9);
    let child = start_and_wait(d, &resume_args(), 2);
    resume_with(&child, libc::SIGINT);
    let status = child.wait_with_output().unwrap().status;
    assert_eq!(status.code(), Some(130));
    let text = std::fs::read_to_string(d.join("r.csv")).unwrap();
    assert!(text.ends_with('\n'), "the writer flushed whole rows");
    let (_, partial) = parse_csv(&text);
    assert!(partial.len() < 60);
    assert!(
        partial.iter().all(|r| r["status"] == "solved"),
        "no row for the cancelled job"
    );
    let mut args = resume_args();
    args.push("--resume");
    run_in(d, &args).success();
    assert_complete(d);
}

use crate::common::data_dir;

#[test]
fn korf_instances_through_the_harness_match_the_published_counts() {
    // The 12 Korf instances with the fewest IDA* + Manhattan nodes, in Korf's own file layout
    // (extra columns included); moves and node counts must equal the published ones.
    let text = std::fs::read_to_string(data_dir().join("korf100.tsv")).unwrap();
    let mut lines: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
    let generated = |l: &str| l.split('\t').nth(2).unwrap().parse::<u64>().unwrap();
    lines.sort_by_key(|l| generated(l));
    lines.truncate(12);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let header = text.lines().next().unwrap();
    std::fs::write(
        d.join("korf12.tsv"),
        format!("{header}\n{}\n", lines.join("\n")),
    )
    .unwrap();
    run_in(d, &["--instances", "korf12.tsv", "--out", "k.csv"]).success();
    let (_, rows) = read_csv(&d.join("k.csv"));
    assert_eq!(rows.len(), 12);
    for r in rows {
        let published = lines
            .iter()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|f| f[0] == r["instance_id"])
            .unwrap();
        assert_eq!(r["goal"], "blank-first");
        assert_eq!(r["moves"], published[1], "instance {}", published[0]);
        assert_eq!(
            r["nodes_generated"], published[2],
            "instance {}",
            published[0]
        );
        assert_eq!(
            r["nodes_expanded"], published[3],
            "instance {}",
            published[0]
        );
    }
}

#[test]
fn gen_then_run_with_defaults_just_works() {
    // The two commands, smaller: `bench gen` into instances/, then `bench run`
    // picking that file up by default.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    bench()
        .current_dir(d)
        .args([
            "gen", "--n", "3", "--moves", "15", "--count", "25", "--seed", "3",
        ])
        .assert()
        .success();
    let out = run_in(d, &["--algos", "astar,idastar,bfs", "--solutions"]).success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let csv = std::fs::read_dir(d.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "csv"))
        .unwrap();
    assert!(
        stderr.contains(&*csv.file_name().unwrap().to_string_lossy()),
        "{stderr}"
    );
    let (header, rows) = read_csv(&csv);
    assert_eq!(header, DOCUMENTED_HEADER);
    assert_eq!(rows.len(), 25 * 3);
    let mut by_instance: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        assert_eq!(r["status"], "solved");
        assert_eq!(r["scramble_moves"], "15");
        assert_eq!(r["goal"], "blank-last");
        let m: u32 = r["moves"].parse().unwrap();
        // A walk of 15 moves ends at odd distance at most 15 (each move flips the parity).
        assert!(m <= 15 && m % 2 == 1, "{m}");
        by_instance
            .entry(r["instance_id"].clone())
            .or_default()
            .insert(r["moves"].clone());
    }
    assert_eq!(by_instance.len(), 25);
    assert!(
        by_instance.values().all(|m| m.len() == 1),
        "algorithms disagree"
    );
}

#[test]
fn goal_override_applies_to_every_file() {
    // 3 x 3 boards from walks to the blank-first goal; for an odd width the tile order alone
    // decides solvability, so they are solvable for blank-last as well.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = write_walks(d, "p3.tsv", 3, 20, 5, 11);
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "--goal",
            "blank-last",
            "--solutions",
            "--out",
            "g.csv",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("g.csv"));
    assert_eq!(rows.len(), 5);
    let text = std::fs::read_to_string(p).unwrap();
    for r in &rows {
        assert_eq!(r["goal"], "blank-last");
        let line = text
            .lines()
            .find(|l| l.split('\t').next() == Some(r["instance_id"].as_str()))
            .unwrap();
        let tiles: Vec<u32> = line
            .split('\t')
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        let mut b = Board::new(3, 3, tiles).unwrap();
        for c in r["solution"].chars() {
            assert!(b.apply(Move::from_letter(c).unwrap()));
        }
        assert!(b.is_goal(Goal::BlankLast));
    }
}

fn sidecar(d: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(d.join("r.csv.meta.json")).unwrap()).unwrap()
}

fn signal(child: &std::process::Child, sig: libc::c_int) {
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
}

#[test]
fn sigterm_is_handled_like_ctrl_c_with_143_and_the_session_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 16, 60, 9);
    let child = start_and_wait(d, &resume_args(), 2);
    resume_with(&child, libc::SIGTERM);
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(143));
    let text = std::fs::read_to_string(d.join("r.csv")).unwrap();
    assert!(text.ends_with('\n'), "the writer flushed whole rows");
    let (_, partial) = parse_csv(&text);
    assert!(partial.len() < 60 && partial.iter().all(|r| r["status"] == "solved"));
    let meta = sidecar(d);
    assert_eq!(meta["sessions"][0]["status"], "interrupted");
    assert_eq!(
        meta["sessions"][0]["rows_written"].as_u64(),
        Some(partial.len() as u64)
    );
    let mut args = resume_args();
    args.push("--resume");
    run_in(d, &args).success();
    assert_complete(d);
}

#[test]
fn a_second_signal_exits_at_once_and_still_marks_the_session_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 16, 60, 9);
    let child = start_and_wait(d, &resume_args(), 2);
    // Two SIGINTs sent while paused would merge into one pending signal: the second is sent
    // after the child continues (handled while the first is, or after: either way at once).
    resume_with(&child, libc::SIGINT);
    signal(&child, libc::SIGINT);
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(130));
    assert_eq!(sidecar(d)["sessions"][0]["status"], "interrupted");
}

#[test]
fn a_second_run_on_an_output_in_use_is_refused_naming_the_other_process() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 16, 60, 9);
    // Paused, so it cannot finish (and free the output) before the second runs are refused,
    // however the machine's load schedules them.
    let mut child = start_and_wait(d, &resume_args(), 1);
    let pid = format!("pid {}", child.id());
    for extra in [&[][..], &["--resume"][..]] {
        let mut args = resume_args();
        args.extend(extra);
        run_in(d, &args).code(1).stderr(
            predicate::str::contains("in use by another bench run")
                .and(predicate::str::contains(pid.as_str())),
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The refused runs changed nothing: resuming completes the file.
    let mut args = resume_args();
    args.push("--resume");
    run_in(d, &args).success();
    assert_complete(d);
}

#[test]
fn resume_refuses_duplicate_keys_unknown_statuses_and_a_different_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 8, 5, 3);
    let args = [
        "--instances",
        "p4.tsv",
        "--algos",
        "idastar",
        "--threads",
        "1",
        "--out",
        "r.csv",
        "-q",
    ];
    run_in(d, &args).success();
    let good = std::fs::read_to_string(d.join("r.csv")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let mut resume = args.to_vec();
    resume.push("--resume");

    // A duplicated row (line 2 again as line 7): both lines named.
    std::fs::write(d.join("r.csv"), format!("{good}{}\n", lines[1])).unwrap();
    run_in(d, &resume).code(1).stderr(
        predicate::str::contains("r.csv:7: a second row for job")
            .and(predicate::str::contains("the first is r.csv:2")),
    );

    // An unknown status.
    let bad = good.replacen(",solved,", ",bogus,", 1);
    std::fs::write(d.join("r.csv"), bad).unwrap();
    run_in(d, &resume)
        .code(1)
        .stderr(predicate::str::contains("r.csv:2").and(predicate::str::contains("bogus")));

    // A different experiment: other algorithms, other limits.
    std::fs::write(d.join("r.csv"), &good).unwrap();
    let mut other = resume.clone();
    other[3] = "astar";
    run_in(d, &other).code(1).stderr(predicate::str::contains(
        "algorithms: idastar then, astar now",
    ));
    let mut limits = resume.clone();
    limits.extend(["--timeout", "5s"]);
    run_in(d, &limits)
        .code(1)
        .stderr(predicate::str::contains("--timeout"));
    assert_eq!(std::fs::read_to_string(d.join("r.csv")).unwrap(), good);
    // --force continues anyway.
    other.push("--force");
    run_in(d, &other).success();
    let (_, rows) = read_csv(&d.join("r.csv"));
    assert_eq!(rows.len(), 10);
}

/// Runs `bench` with a file-size limit, so that writes past `bytes` fail (EFBIG) as on a full disk.
fn bench_with_file_limit(d: &Path, bytes: u64, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench"));
    cmd.current_dir(d).args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[test]
fn a_failed_write_is_reported_at_once_with_status_74_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 8, 60, 5);
    let mut args = vec!["run"];
    args.extend(resume_args());
    args[4] = "idastar";
    let out = bench_with_file_limit(d, 4000, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{stderr}");
    assert!(stderr.contains("cannot write r.csv"), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(sidecar(d)["sessions"][0]["status"], "failed");

    // Stdout that cannot be written: the same status.
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut run = vec!["run", "--instances", "p4.tsv", "--out", "-", "-q"];
    run.extend(["--threads", "1"]);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench"))
        .current_dir(d)
        .args(&run)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(74),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn resume_refuses_a_changed_instance_file_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p4.tsv", 4, 8, 3, 3);
    let args = [
        "--instances",
        "p4.tsv",
        "--threads",
        "1",
        "--out",
        "r.csv",
        "-q",
    ];
    run_in(d, &args).success();
    let before = std::fs::read_to_string(d.join("r.csv")).unwrap();
    // Same name, other boards.
    write_walks(d, "p4.tsv", 4, 8, 3, 4);
    let mut resume = args.to_vec();
    resume.extend(["--resume", "--force"]);
    run_in(d, &resume).code(1).stderr(
        predicate::str::contains("instance file p4.tsv (sha256")
            .and(predicate::str::contains("not even with --force")),
    );
    assert_eq!(std::fs::read_to_string(d.join("r.csv")).unwrap(), before);
}

/// A file of an older results schema is never resumed: the refusal is one sentence (single
/// spaces) that names the file, both versions and what to do instead.
#[test]
fn resume_refuses_an_older_schema_version_in_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/v1-run");
    std::fs::copy(fixture.join("w.txt"), d.join("w.txt")).unwrap();
    std::fs::copy(fixture.join("results.csv"), d.join("v1.csv")).unwrap();
    let out = bench()
        .current_dir(d)
        .args(["run", "--instances", "w.txt", "--algos", "astar,idastar"])
        .args(["--heuristics", "manhattan,misplaced", "--threads", "1"])
        .args(["--out", "v1.csv", "--resume", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "--resume: v1.csv holds rows of results schema version 1; this program writes \
             version 3, and one file never mixes two. Start a new --out"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("  "), "a run of spaces: {stderr}");
    assert_eq!(
        std::fs::read(d.join("v1.csv")).unwrap(),
        std::fs::read(fixture.join("results.csv")).unwrap()
    );
}

#[test]
fn a_pattern_database_with_tile_groups_is_one_heuristic_of_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 20, 4, 5);
    run_in(
        d,
        &[
            "--instances",
            "p3.tsv",
            "--algos",
            "astar",
            "--heuristics",
            "manhattan,pdb:1,2,3,4/5,6,7,8",
            "--threads",
            "1",
            "--out",
            "g.csv",
            "-q",
        ],
    )
    .success();
    let (_, rows) = read_csv(&d.join("g.csv"));
    assert_eq!(rows.len(), 8);
    let heuristics: BTreeSet<_> = rows.iter().map(|r| r["heuristic"].clone()).collect();
    assert_eq!(heuristics.len(), 2, "{heuristics:?}");
    assert!(heuristics.contains("manhattan"));
    assert!(
        heuristics
            .iter()
            .any(|h| h.starts_with("pdb:1,2,3,4/5,6,7,8")),
        "{heuristics:?}"
    );
    // Both heuristics are admissible: A* finds the same (optimal) length with each.
    let mut moves: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        assert_eq!(r["status"], "solved", "{r:?}");
        moves
            .entry(r["instance_id"].clone())
            .or_default()
            .insert(r["moves"].clone());
    }
    assert!(moves.values().all(|m| m.len() == 1), "{moves:?}");
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn run_and_census_refuse_an_out_that_is_not_a_regular_file_and_leave_it_alone() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "w.tsv", 3, 10, 1, 1);
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    std::fs::create_dir(d.join("sub")).unwrap();
    for (out, kind) in [("fifo", "a FIFO"), ("sub", "a directory")] {
        for resume in [false, true] {
            let mut args = vec!["--quiet", "--instances", "w.tsv", "--out", out];
            if resume {
                args.push("--resume");
            }
            // A FIFO without a reader would block an open: the timeout catches a hang.
            bench()
                .current_dir(d)
                .arg("run")
                .args(&args)
                .timeout(Duration::from_secs(120))
                .assert()
                .failure()
                .code(1)
                .stderr(predicate::str::contains(format!("--out {out}")))
                .stderr(predicate::str::contains(kind));
        }
        bench()
            .current_dir(d)
            .args(["census", "--size", "2x2", "--quiet", "--out", out])
            .timeout(Duration::from_secs(120))
            .assert()
            .failure()
            .code(1)
            .stderr(predicate::str::contains(format!("--out {out}")))
            .stderr(predicate::str::contains(kind));
    }
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::metadata(d.join("sub")).unwrap().is_dir());
    assert!(!d.join("fifo.partial").exists() && !d.join("fifo.meta.json").exists());
}

/// The sidecar records the command line the caller gives the engine, not the process's own
/// arguments (an embedding program, such as the Python package, is not the run's command):
/// the run's `command_line` and its session's.
#[test]
fn the_sidecar_records_the_command_line_the_caller_gives() {
    let d = tempfile::tempdir().unwrap();
    let inst = write_walks(d.path(), "i.txt", 3, 10, 2, 5);
    let out = d.path().join("r.csv");
    let command_line: Vec<String> = ["npuzzle.run", "instances=i.txt", "algorithms=idastar"]
        .map(String::from)
        .to_vec();
    let options = npuzzle::run::RunOptions {
        instances: vec![inst],
        goal: None,
        skip_invalid: false,
        algorithms: vec![npuzzle::search::Algorithm::Idastar],
        heuristics: vec![npuzzle::heuristic::HeuristicKind::Manhattan],
        solvers: Vec::new(),
        isolate: false,
        cpu_limit: None,
        repeat: 1,
        warmup: 0,
        shard: None,
        seed: Some(1),
        threads: Some(1),
        timeout: None,
        max_nodes: None,
        max_memory: Some(None),
        out: Some(out.clone()),
        resume: false,
        force: false,
        solutions: false,
        quiet: true,
        progress: false,
        command_line: command_line.clone(),
    };
    let interrupt = std::sync::Arc::new(npuzzle::run::runner::Interrupt::new());
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let status = npuzzle::run::prepare(options)
        .unwrap()
        .execute_embedded(interrupt, finished)
        .unwrap();
    assert_eq!(status, 0);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("r.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["command_line"], serde_json::json!(command_line));
    assert_eq!(
        meta["sessions"][0]["command_line"],
        serde_json::json!(command_line)
    );
}
