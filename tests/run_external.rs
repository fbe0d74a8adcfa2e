//! `bench run --solver` and `--isolate`, driven through the real binary: external solvers that
//! are right, wrong, crash, print garbage, refuse, ignore stdin, fork, spin, sleep, ignore
//! SIGTERM or eat memory each get the row their behaviour deserves; isolated built-ins count
//! the same nodes as in-process ones; a run with solvers resumes.
//!
//! Instances are 3 x 3 and 4 x 4 random walks written here in Korf's tsv layout (blank-first
//! goal, xorshift walks of this file). The "right" solver is `bench solve`, which speaks the
//! protocol; the others are shell or Python one-liners. Expected values come from the boards
//! (walk lengths bound the solution lengths), from the in-process built-ins of the same run,
//! and from what each solver is written to do, never from the rows under test alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use npuzzle::{Board, Goal, Move};

const BENCH: &str = env!("CARGO_BIN_EXE_bench");

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// A random walk of `moves` blank moves from the blank-first goal, never undoing the previous
/// move (xorshift generator).
fn walk(rows: usize, cols: usize, moves: usize, seed: u64) -> Board {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut board = Board::solved(rows, cols, Goal::BlankFirst);
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

/// Writes `count` walks of `n` x `n` in Korf's layout, with an `optimal` column if given.
fn write_walks(dir: &Path, name: &str, n: usize, moves: usize, count: usize, seed: u64) -> PathBuf {
    let mut s = String::from("id\ttiles\n");
    for i in 0..count {
        let b = walk(n, n, moves, seed * 1000 + i as u64);
        let tiles: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
        s += &format!("{}\t{}\n", i + 1, tiles.join(" "));
    }
    let p = dir.join(name);
    std::fs::write(&p, s).unwrap();
    p
}

type Record = HashMap<String, String>;

fn read_csv(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            names
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn rows_of<'a>(rows: &'a [Record], algorithm: &str) -> Vec<&'a Record> {
    let mut v: Vec<&Record> = rows
        .iter()
        .filter(|r| r["algorithm"] == algorithm)
        .collect();
    v.sort_by_key(|r| r["instance_id"].parse::<u32>().unwrap());
    v
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    bench()
        .current_dir(dir)
        .arg("run")
        .args(["--quiet", "--seed", "1"])
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "status {:?}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes a Python solver to `dir/name` and returns its command line.
fn python(dir: &Path, name: &str, code: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, code).unwrap();
    format!("python3 {}", p.display())
}

/// Answers `bench solve`'s optimal solution with a detour of two moves in front (one step of
/// the blank and back): legal, solving, and exactly two moves longer than optimal.
const DETOUR: &str = r#"
import json, subprocess, sys
text = sys.stdin.read()
board = json.loads(text)
cols = len(board[0])
blank = [v for row in board for v in row].index(0)
out = subprocess.run([sys.argv[1], "solve", "--goal", "blank-first", "--format", "json"],
                     input=text, capture_output=True, text=True, check=True).stdout
moves = json.loads(out)["moves"]
detour = "UD" if blank >= cols else "DU"
print(detour + moves)
"#;

#[test]
fn every_kind_of_answer_gets_its_own_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 16, 4, 1);
    let detour = format!("{} {BENCH}", python(d, "detour.py", DETOUR));
    let solvers = [
        format!("right={BENCH} solve --goal {{goal}} --short"),
        format!("json={BENCH} solve --goal {{goal}} --format json"),
        // Never reads stdin: the board comes from {file}.
        format!("nostdin={BENCH} solve --goal {{goal}} --short {{file}} < /dev/null"),
        format!("detour={detour}"),
        "wrong=cat > /dev/null; echo L".to_string(),
        "garbage=cat > /dev/null; echo hello world".to_string(),
        "crash=cat > /dev/null; echo boom >&2; exit 3".to_string(),
        "segv=cat > /dev/null; kill -SEGV $$".to_string(),
        // Braces are doubled: `{name}` is a placeholder.
        r#"refuse=cat > /dev/null; echo '{{"message": "no boards today"}}'; exit 1"#.to_string(),
    ];
    let mut args = vec![
        "--instances",
        "p3.tsv",
        "--algos",
        "idastar",
        "--heuristics",
        "linear-conflict",
        "--out",
        "out.csv",
        "--solutions",
        "--timeout",
        "60s",
    ];
    for s in &solvers {
        args.push("--solver");
        args.push(s);
    }
    let out = run(d, &args);
    ok(&out);
    let rows = read_csv(&d.join("out.csv"));
    assert_eq!(rows.len(), 4 * 10, "4 instances x (idastar + 9 solvers)");
    let ida = rows_of(&rows, "idastar");
    for r in &ida {
        assert_eq!(
            (r["status"].as_str(), r["measured_by"].as_str()),
            ("solved", "in-process")
        );
        assert!(
            r["moves"].parse::<u32>().unwrap() <= 16,
            "a walk of 16: {r:?}"
        );
    }
    for name in ["right", "json", "nostdin", "detour"] {
        let ext = rows_of(&rows, name);
        for (r, i) in ext.iter().zip(&ida) {
            assert_eq!(r["status"], "solved", "{name}: {r:?}");
            assert_eq!(r["heuristic"], "-");
            assert_eq!(r["measured_by"], "process");
            assert_eq!(
                r["optimal"], "",
                "we cannot know whether a solver is optimal"
            );
            for col in ["user_ms", "sys_ms", "cpu_ms", "wall_ms"] {
                assert!(r[col].parse::<f64>().is_ok(), "{name} {col}: {r:?}");
            }
            assert!(
                r["peak_rss_bytes"].parse::<u64>().unwrap() > 100_000,
                "{r:?}"
            );
            // The optimal built-in of the same run gives the known optimal length.
            assert_eq!(r["known_optimal"], i["moves"], "{name}");
            let extra = if name == "detour" { 2 } else { 0 };
            let moves: u32 = r["moves"].parse().unwrap();
            assert_eq!(moves, i["moves"].parse::<u32>().unwrap() + extra, "{name}");
            assert_eq!(r["suboptimal"], (extra > 0).to_string(), "{name}");
            assert_eq!(r["solution"].len() as u32, moves);
        }
    }
    // The JSON answer's counters are bench solve's: IDA* + linear conflict, the in-process
    // pair of this run.
    for (r, i) in rows_of(&rows, "json").iter().zip(&ida) {
        for col in ["nodes_expanded", "nodes_generated", "peak_stored_nodes"] {
            assert_eq!(r[col], i[col], "{col}");
        }
    }
    for r in rows_of(&rows, "right") {
        assert_eq!(r["nodes_generated"], "", "a --short answer has no counters");
    }
    let expect = [
        (
            "wrong",
            "wrong-answer",
            "end on a board that is not the blank-first goal",
        ),
        ("garbage", "wrong-answer", "unreadable answer"),
        ("crash", "crashed", "exit status 3; stderr: boom"),
        ("segv", "crashed", "signal 11 (SIGSEGV)"),
        ("refuse", "rejected", "no boards today"),
    ];
    for (name, status, message) in expect {
        for r in rows_of(&rows, name) {
            assert_eq!(r["status"], status, "{name}: {r:?}");
            assert!(r["message"].contains(message), "{name}: {r:?}");
            assert_eq!(r["moves"], "", "never a solution: {r:?}");
        }
    }

    // bench report reads the rows: every solver is a pair of its own, and the outcomes only
    // processes have get their columns.
    let rep = bench()
        .current_dir(d)
        .args(["report", "out.csv", "--format", "csv"])
        .output()
        .unwrap();
    ok(&rep);
    let text = String::from_utf8(rep.stdout).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    for col in ["wrong_answer", "rejected", "crashed", "cpu_limit"] {
        assert!(head.contains(&col.to_string()), "{head:?}");
    }
    let table: Vec<Record> = r
        .records()
        .map(|rec| {
            head.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect();
    assert_eq!(table.len(), 10, "{text}");
    let pair = |a: &str| table.iter().find(|t| t["algorithm"] == a).unwrap();
    assert_eq!(pair("right")["heuristic"], "-");
    assert_eq!(pair("right")["solved"], "4");
    assert_eq!(pair("wrong")["wrong_answer"], "4");
    assert_eq!(pair("garbage")["wrong_answer"], "4");
    assert_eq!(pair("crash")["crashed"], "4");
    assert_eq!(pair("segv")["crashed"], "4");
    assert_eq!(pair("refuse")["rejected"], "4");
}

/// The process group of a process, from /proc (field 5 of stat), for the no-orphan check.
fn alive_in_group(pgid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let rest = stat.rsplit_once(')').unwrap().1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f[2].parse::<i32>() == Ok(pgid) && f[0] != "Z" {
            out.push(pid);
        }
    }
    out
}

/// The processes of group `pgid` still alive once they had time to die: killed processes are
/// gone in milliseconds, but a loaded machine may take a while to schedule their exit (a
/// generous bound, a quick poll).
fn alive_in_group_after_a_while(pgid: i32) -> Vec<i32> {
    let start = std::time::Instant::now();
    loop {
        let left = alive_in_group(pgid);
        if left.is_empty() || start.elapsed().as_secs() >= 60 {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn limits_stop_solvers_and_say_which() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "one.tsv", 3, 10, 1, 3);
    let pgids = d.join("pgids");
    let eat = python(
        d,
        "eat.py",
        "import sys\nsys.stdin.read()\nx = []\nwhile True:\n    x.append(bytearray(1 << 20))\n",
    );
    // Two runs, so no verdict depends on which of a timer and a process wins: the solvers the
    // timeout must stop get 2 s; the ones the memory limit or their own end must stop get a
    // timeout no loaded machine reaches.
    let timed = [
        "slow=sleep 30",
        "deaf=trap '' TERM; while :; do sleep 0.05; done",
    ];
    let untimed = [
        format!("eat={eat}"),
        // Forks a child that would outlive it, records its process group (field 5 of its
        // stat), and answers garbage at once.
        format!(
            "fork=cat > /dev/null; sleep 60 & cut -d' ' -f5 /proc/self/stat >> {}; echo forked",
            pgids.display()
        ),
    ];
    let mut rows = Vec::new();
    for (solvers, timeout, out) in [
        (timed.map(String::from).to_vec(), "2s", "timed.csv"),
        (untimed.to_vec(), "300s", "untimed.csv"),
    ] {
        let mut args = vec![
            "--instances",
            "one.tsv",
            "--out",
            out,
            "--timeout",
            timeout,
            "--max-memory",
            "64MiB",
            "--threads",
            "2",
        ];
        for s in &solvers {
            args.push("--solver");
            args.push(s);
        }
        let run_out = run(d, &args);
        ok(&run_out);
        rows.extend(read_csv(&d.join(out)));
    }
    assert_eq!(rows.len(), 4, "only the solvers: no --algos given");
    let row = |a: &str| rows.iter().find(|r| r["algorithm"] == a).unwrap();
    let wall = |a: &str| row(a)["wall_ms"].parse::<f64>().unwrap();

    assert_eq!(row("slow")["status"], "timeout");
    assert!(
        row("slow")["message"].contains("--timeout 2s"),
        "{:?}",
        row("slow")
    );
    // sleep does not use CPU: the CPU limit is not what stopped it.
    // Upper bounds far above the limit (a loaded machine) and below the commands' own ends
    // (30 s of sleep; the deaf one never ends by itself).
    assert!(
        wall("slow") >= 2000.0 && wall("slow") < 25_000.0,
        "{}",
        wall("slow")
    );

    // Ignores SIGTERM: SIGKILL after the grace period (0.5 s).
    assert_eq!(row("deaf")["status"], "timeout");
    assert!(
        row("deaf")["message"].starts_with("killed"),
        "{:?}",
        row("deaf")
    );
    assert!(
        wall("deaf") >= 2000.0 && wall("deaf") < 25_000.0,
        "{}",
        wall("deaf")
    );

    let eat = row("eat");
    assert_eq!(eat["status"], "memory-limit", "{eat:?}");
    assert!(eat["message"].contains("--max-memory 64.0 MiB"), "{eat:?}");
    let peak: u64 = eat["peak_rss_bytes"].parse().unwrap();
    assert!(peak > 32 << 20, "{eat:?}");

    let fork = row("fork");
    assert_eq!(fork["status"], "wrong-answer", "{fork:?}");
    assert!(
        fork["message"].contains("left running were killed"),
        "{fork:?}"
    );
    let pgid: i32 = std::fs::read_to_string(&pgids)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The sleep it left behind went with its group (reaped by init; give it a moment).
    let left = alive_in_group_after_a_while(pgid);
    assert!(
        left.is_empty(),
        "processes of group {pgid} still alive: {left:?}"
    );
}

#[test]
fn a_spinning_solver_is_stopped_at_the_cpu_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "one.tsv", 3, 10, 1, 3);
    // A generous timeout: on a busy machine the CPU limit must still be what stops it.
    let out = run(
        d,
        &[
            "--instances",
            "one.tsv",
            "--out",
            "out.csv",
            "--timeout",
            "120s",
            "--cpu-limit",
            "500ms",
            "--solver",
            "spin=while :; do :; done",
        ],
    );
    ok(&out);
    let rows = read_csv(&d.join("out.csv"));
    let spin = &rows[0];
    assert_eq!(spin["status"], "cpu-limit", "{spin:?}");
    assert!(spin["message"].contains("--cpu-limit 500ms"), "{spin:?}");
    let cpu: f64 = spin["cpu_ms"].parse().unwrap();
    let (user, sys): (f64, f64) = (
        spin["user_ms"].parse().unwrap(),
        spin["sys_ms"].parse().unwrap(),
    );
    assert!(cpu >= 500.0 && (cpu - user - sys).abs() < 0.01, "{spin:?}");
    assert!(
        spin["wall_ms"].parse::<f64>().unwrap() < 120_000.0,
        "{spin:?}"
    );
}

#[test]
fn isolated_builtins_count_the_same_nodes_as_in_process_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 24, 4, 5);
    write_walks(d, "p4.tsv", 4, 30, 3, 6);
    let common = [
        "--instances",
        "p3.tsv",
        "p4.tsv",
        "--algos",
        "astar,idastar,bibfs,greedy",
        "--heuristics",
        "manhattan,linear-conflict",
        "--timeout",
        "60s",
    ];
    let plain = run(d, &[&common[..], &["--out", "in.csv"]].concat());
    ok(&plain);
    let isolated = run(
        d,
        &[
            &common[..],
            &["--out", "iso.csv", "--isolate", "--cpu-limit", "60s"],
        ]
        .concat(),
    );
    ok(&isolated);
    let key = |r: &Record| {
        format!(
            "{} {} {} {}",
            r["instance_file"], r["instance_id"], r["algorithm"], r["heuristic"]
        )
    };
    let a: HashMap<String, Record> = read_csv(&d.join("in.csv"))
        .into_iter()
        .map(|r| (key(&r), r))
        .collect();
    let b: HashMap<String, Record> = read_csv(&d.join("iso.csv"))
        .into_iter()
        .map(|r| (key(&r), r))
        .collect();
    // 7 instances x (3 informed algorithms x 2 heuristics + bibfs).
    assert_eq!(a.len(), 7 * 7);
    assert_eq!(b.len(), a.len());
    for (k, x) in &a {
        let y = &b[k];
        assert_eq!(x["status"], "solved", "{k}");
        assert_eq!(y["status"], "solved", "{k}: {y:?}");
        for col in [
            "moves",
            "optimal",
            "nodes_expanded",
            "nodes_generated",
            "iterations",
            "peak_stored_nodes",
            "initial_h",
        ] {
            assert_eq!(x[col], y[col], "{k} {col}");
        }
        assert_eq!(x["measured_by"], "in-process");
        assert_eq!(y["measured_by"], "process");
        assert_eq!(x["peak_rss_bytes"], "");
        assert!(
            y["peak_rss_bytes"].parse::<u64>().unwrap() > 100_000,
            "{y:?}"
        );
        assert!(y["peak_heap_bytes"].parse::<u64>().is_ok(), "{y:?}");
        assert!(y["user_ms"].parse::<f64>().is_ok() && x["user_ms"].is_empty());
        // greedy is inexact: compared with the optimal algorithms of the same run.
        if x["algorithm"] == "greedy" {
            let opt = &a[&format!(
                "{} {} astar manhattan",
                x["instance_file"], x["instance_id"]
            )]["moves"];
            for r in [x, y] {
                assert_eq!(&r["known_optimal"], opt, "{k}");
                let longer = r["moves"].parse::<u32>().unwrap() > opt.parse::<u32>().unwrap();
                assert_eq!(r["suboptimal"], longer.to_string(), "{k}");
            }
        } else {
            assert_eq!(
                (x["known_optimal"].as_str(), y["suboptimal"].as_str()),
                ("", "")
            );
        }
    }
}

#[test]
fn a_run_with_solvers_resumes_and_refuses_another_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 14, 5, 7);
    let right = format!("right={BENCH} solve --goal {{goal}} --short");
    let args = [
        "--instances",
        "p3.tsv",
        "--algos",
        "idastar",
        "--solver",
        &right,
        "--solver",
        "wrong=cat > /dev/null; echo L",
        "--out",
        "out.csv",
    ];
    ok(&run(d, &args));
    let full = std::fs::read_to_string(d.join("out.csv")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 1 + 15);
    // As if killed after six rows: the rest is run by --resume, nothing twice.
    std::fs::write(d.join("out.csv"), lines[..7].join("\n") + "\n").unwrap();
    ok(&run(d, &[&args[..], &["--resume"]].concat()));
    let rows = read_csv(&d.join("out.csv"));
    assert_eq!(rows.len(), 15);
    let mut keys: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {}", r["instance_id"], r["algorithm"]))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 15);
    for r in &rows {
        let want = if r["algorithm"] == "wrong" {
            "wrong-answer"
        } else {
            "solved"
        };
        assert_eq!(r["status"], want, "{r:?}");
    }
    // Another command for a solver of the same name is another experiment.
    let mut changed = args.to_vec();
    changed[7] = "wrong=cat > /dev/null; echo R";
    let out = run(d, &[&changed[..], &["--resume"]].concat());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--solver: ") && err.contains("echo R"),
        "{err}"
    );
}

#[test]
fn bad_solver_flags_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 10, 2, 9);
    let cases: [(&[&str], &str); 5] = [
        (
            &["--solver", "astar=./mine"],
            "--solver astar: that is the name of a built-in algorithm",
        ),
        (
            &["--solver", "a=x", "--solver", "a=y"],
            "--solver a: the name is given twice",
        ),
        (&["--solver", "./mine --fast"], "expected NAME=COMMAND"),
        (
            &["--solver", "m=solve {size}"],
            "unknown placeholder {size}",
        ),
        (
            &[
                "--algos",
                "idastar",
                "--solver",
                "m=true",
                "--cpu-limit",
                "1s",
            ],
            "--cpu-limit holds jobs run as processes",
        ),
    ];
    for (extra, want) in cases {
        let out = run(
            d,
            &[&["--instances", "p3.tsv", "--out", "o.csv"][..], extra].concat(),
        );
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{extra:?}: {err}");
        assert!(!d.join("o.csv").exists(), "{extra:?} wrote rows");
    }
}

#[test]
fn ctrl_c_stops_running_solvers_with_their_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "p3.tsv", 3, 10, 2, 11);
    let pgids = d.join("pgids");
    let solver = format!(
        "nap=cut -d' ' -f5 /proc/self/stat >> {}; sleep 60",
        pgids.display()
    );
    let mut child = std::process::Command::new(BENCH)
        .current_dir(d)
        .args([
            "run",
            "--quiet",
            "--instances",
            "p3.tsv",
            "--out",
            "out.csv",
        ])
        .args(["--threads", "2", "--timeout", "120s", "--solver", &solver])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Both jobs started (each wrote its process group).
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&pgids).map_or(0, |t| t.lines().count()) < 2 {
        assert!(start.elapsed().as_secs() < 60, "the solvers never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(start.elapsed().as_secs() < 30, "not stopped at once");
    // No row for an interrupted job, and nothing of either group left.
    assert_eq!(read_csv(&d.join("out.csv")).len(), 0);
    for line in std::fs::read_to_string(&pgids).unwrap().lines() {
        let pgid: i32 = line.trim().parse().unwrap();
        let left = alive_in_group_after_a_while(pgid);
        assert!(left.is_empty(), "group {pgid} still alive: {left:?}");
    }
}

#[test]
fn the_instance_files_optimal_column_is_the_known_optimal_length() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Non-backtracking walks of two moves: every one is exactly 2 moves from the goal (moves
    // change the blank's parity, so not 0, and the walk itself is a 2-move path).
    let tiles = |seed: u64| -> String {
        let b = walk(3, 3, 2, seed);
        b.tiles()
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Instance 1's column is right, instance 2's claims 4 (the solver's 2 is then "shorter than
    // the known optimal length": a wrong column is reported, not believed), instance 3 has none.
    let text = format!(
        "id\toptimal\ttiles\n1\t2\t{}\n2\t4\t{}\n3\t\t{}\n",
        tiles(1),
        tiles(2),
        tiles(3)
    );
    std::fs::write(d.join("opt.tsv"), text).unwrap();
    let detour = format!("detour={} {BENCH}", python(d, "detour.py", DETOUR));
    let right = format!("right={BENCH} solve --goal {{goal}} --short");
    let out = run(
        d,
        &[
            "--instances",
            "opt.tsv",
            "--out",
            "out.csv",
            "--solver",
            &right,
            "--solver",
            &detour,
        ],
    );
    ok(&out);
    let rows = read_csv(&d.join("out.csv"));
    let cell = |a: &str, id: &str, col: &str| {
        rows.iter()
            .find(|r| r["algorithm"] == a && r["instance_id"] == id)
            .unwrap()[col]
            .clone()
    };
    for id in ["1", "2", "3"] {
        assert_eq!(cell("right", id, "moves"), "2");
        assert_eq!(cell("detour", id, "moves"), "4");
    }
    assert_eq!(cell("right", "1", "known_optimal"), "2");
    assert_eq!(cell("right", "1", "suboptimal"), "false");
    assert_eq!(cell("detour", "1", "suboptimal"), "true");
    assert_eq!(cell("right", "2", "known_optimal"), "4");
    assert_eq!(cell("right", "2", "suboptimal"), "false");
    assert!(
        cell("right", "2", "message").contains("shorter than the known optimal length 4"),
        "{rows:?}"
    );
    assert_eq!(cell("detour", "2", "suboptimal"), "false");
    assert_eq!(cell("right", "3", "known_optimal"), "");
    assert_eq!(cell("detour", "3", "suboptimal"), "");
}

/// The live (not zombie) children of `parent`, from /proc (field 4 of stat).
fn children_of(parent: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 1 && f[1].parse::<i32>() == Ok(parent) && f[0] != "Z" {
            out.push(pid);
        }
    }
    out
}

/// Whether `pid` is still running (gone or a zombie count as ended).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(')').map(|(_, r)| r.trim_start().to_string()))
        .is_some_and(|r| !r.starts_with('Z'))
}

/// Kills the child when dropped, so a failing test leaves no run behind.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_killed_run_leaves_no_solver_or_isolated_child_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two 5 x 5 boards: isolated IDA* with misplaced tiles, or a sleeping solver, runs for
    // far longer than this test; two threads run both boards at once.
    write_walks(d, "p5.tsv", 5, 300, 2, 13);
    let isolated: &[&str] = &[
        "--algos",
        "idastar",
        "--heuristics",
        "misplaced",
        "--isolate",
    ];
    let solver: &[&str] = &["--solver", "nap=exec sleep 300"];
    for (pairs, out) in [(isolated, "iso.csv"), (solver, "nap.csv")] {
        let child = std::process::Command::new(BENCH)
            .current_dir(d)
            .args(["run", "--quiet", "--instances", "p5.tsv", "--out", out])
            .args(["--threads", "2", "--timeout", "600s"])
            .args(pairs)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut child = KillOnDrop(child);
        let bench_pid = child.0.id() as i32;
        let start = std::time::Instant::now();
        let mut kids = children_of(bench_pid);
        while kids.len() < 2 {
            assert!(
                start.elapsed().as_secs() < 120,
                "{pairs:?}: the jobs never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
            kids = children_of(bench_pid);
        }
        // SAFETY: kill(2) on our own child.
        unsafe {
            libc::kill(bench_pid, libc::SIGKILL);
        }
        child.0.wait().unwrap();
        for pid in kids {
            let waited = std::time::Instant::now();
            while running(pid) {
                assert!(
                    waited.elapsed().as_secs() < 30,
                    "{pairs:?}: child {pid} of the killed run still runs"
                );
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }
}

/// The running processes of program `marker` (a path of this test's own) as their argv[0]
/// (shells whose command line merely names it do not count).
fn running_with(marker: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let argv0 = cmdline.split(|&b| b == 0).next().unwrap_or_default();
        if argv0 == marker.as_bytes() && running(pid) {
            out.push(pid);
        }
    }
    out
}

#[test]
fn a_killed_run_leaves_nothing_of_any_solver_tree_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_walks(d, "one.tsv", 3, 10, 1, 5);
    // Our own name for sleep, so that every process of the solvers' trees can be found in
    // /proc by its command line after the run that started them is gone.
    let nap = d.join("npuzzle-test-nap");
    std::os::unix::fs::symlink("/bin/sleep", &nap).unwrap();
    let nap = nap.to_str().unwrap().to_string();
    // Each escapes the process group or the parent-death signal in its own way: exec, a
    // pipeline, setsid (a new session and group), a double fork (an orphan of init).
    let solvers = [
        format!("exec=cat > /dev/null; exec {nap} 300"),
        format!("pipeline=cat > /dev/null; {nap} 301 | {nap} 302"),
        format!(
            "setsid=cat > /dev/null; setsid {nap} 303 < /dev/null > /dev/null 2>&1 & {nap} 304"
        ),
        format!("doublefork=cat > /dev/null; ( {nap} 305 & ) ; {nap} 306"),
    ];
    let mut cmd = std::process::Command::new(BENCH);
    cmd.current_dir(d)
        .args(["run", "--quiet", "--instances", "one.tsv", "--out", "k.csv"])
        .args(["--threads", "4", "--timeout", "600s"]);
    for s in &solvers {
        cmd.args(["--solver", s]);
    }
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let start = std::time::Instant::now();
    while running_with(&nap).len() < 7 {
        assert!(
            start.elapsed().as_secs() < 120,
            "the solvers never all started: {:?}",
            running_with(&nap)
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // All seven naps run (one, two, two and two): now the run dies.
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.0.id() as i32, libc::SIGKILL);
    }
    child.0.wait().unwrap();
    let waited = std::time::Instant::now();
    loop {
        let left = running_with(&nap);
        if left.is_empty() {
            break;
        }
        assert!(
            waited.elapsed().as_secs() < 60,
            "processes of the killed run's solvers still run: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
