//! Output that cannot be written (a full disk as `/dev/full`, a closed pipe, a file-size
//! limit) ends every command with the documented write-error status 74 and a message, never a
//! panic (101) nor a signal; `bench run` keeps its rows and never leaves its session `running`.

use std::path::Path;
use std::process::{Command, Stdio};

const BENCH: &str = env!("CARGO_BIN_EXE_bench");

/// Runs `bench args` in `dir` with stdout and stderr as given; returns the status code and
/// what stderr said when it was captured.
fn bench(dir: &Path, args: &[&str], stdout: Stdio, stderr: Stdio) -> (Option<i32>, String) {
    let out = Command::new(BENCH)
        .current_dir(dir)
        .args(args)
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

/// Five 3 x 3 boards a few moves from the goal, in Korf's layout.
fn instances(dir: &Path) {
    let boards = [
        "1 2 3 4 5 6 7 0 8",
        "1 2 3 4 5 6 0 7 8",
        "1 2 3 4 0 6 7 5 8",
        "1 2 3 0 5 6 4 7 8",
        "1 0 3 4 2 6 7 5 8",
    ];
    let mut s = String::from("id\ttiles\n");
    for (i, b) in boards.iter().enumerate() {
        s += &format!("{}\t{b}\n", i + 1);
    }
    std::fs::write(dir.join("w.tsv"), s).unwrap();
}

#[test]
fn a_full_stdout_or_output_file_is_exit_74_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    instances(d);
    let run = ["run", "--quiet", "--instances", "w.tsv", "--out", "r.csv"];
    assert_eq!(bench(d, &run, Stdio::null(), Stdio::piped()).0, Some(0));
    let cases: [&[&str]; 6] = [
        &["predict", "--size", "3x3", "--seed", "1"],
        &["census", "--size", "2x3", "--quiet"],
        &["report", "r.csv"],
        &[
            "gen",
            "--size",
            "3x3",
            "--count",
            "5",
            "--seed",
            "1",
            "--out",
            "/dev/full",
        ],
        &[
            "predict",
            "--size",
            "3x3",
            "--seed",
            "1",
            "--out",
            "/dev/full",
        ],
        &[
            "predict",
            "--size",
            "3x3",
            "--seed",
            "1",
            "--tree",
            "/dev/full",
        ],
    ];
    for args in cases {
        let (code, err) = bench(d, args, full(), Stdio::piped());
        assert_eq!(code, Some(74), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_stdout_pipe_ends_quietly_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(BENCH)
        .current_dir(dir.path())
        .args([
            "gen", "--size", "4x4", "--count", "20000", "--seed", "1", "--out", "-",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once: every write of the child fails with EPIPE.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 74)),
        "{:?}: {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_run_with_a_full_stderr_keeps_every_row_and_says_74() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    instances(d);
    let args = [
        "run",
        "--instances",
        "w.tsv",
        "--out",
        "r.csv",
        "--repeat",
        "3",
    ];
    let (code, _) = bench(d, &args, Stdio::null(), full());
    assert_eq!(code, Some(74));
    let rows = std::fs::read_to_string(d.join("r.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1 + 5 * 3, "{rows}");
    let meta = std::fs::read_to_string(d.join("r.csv.meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"complete\""), "{meta}");
}

#[test]
fn a_run_past_the_file_size_limit_is_a_failed_session_and_exit_74() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    instances(d);
    // 5 boards x 200 repetitions: ~300 kB of rows, far past 40 blocks.
    let command = format!(
        "ulimit -f 40; exec {BENCH} run --quiet --instances w.tsv --out r.csv --repeat 200"
    );
    let out = Command::new("/bin/sh")
        .current_dir(d)
        .args(["-c", &command])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{:?}: {err}", out.status);
    assert!(
        err.contains("r.csv") && err.contains("File too large"),
        "{err}"
    );
    let meta = std::fs::read_to_string(d.join("r.csv.meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"failed\""), "{meta}");
}

#[test]
fn limits_that_cannot_be_honoured_are_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    instances(d);
    let run = ["run", "--quiet", "--instances", "w.tsv", "--out", "r.csv"];
    let cases: [(&[&str], &str); 5] = [
        (&["--timeout", "0"], "--timeout"),
        (&["--max-memory", "1B"], "--max-memory"),
        (&["--cpu-limit", "0s", "--isolate"], "--cpu-limit"),
        (&["predict", "--size", "3x3", "--probes", "0"], "--probes 0"),
        (
            &["predict", "--size", "3x3", "--bounds", "0..2000"],
            "--bounds",
        ),
    ];
    for (args, flag) in cases {
        let full: Vec<&str> = if args[0] == "predict" {
            args.to_vec()
        } else {
            [&run[..], args].concat()
        };
        let (code, err) = bench(d, &full, Stdio::piped(), Stdio::piped());
        assert!(matches!(code, Some(1 | 2)), "{full:?}: {code:?} {err}");
        assert!(err.contains(flag), "{full:?}: {err}");
        assert!(!d.join("r.csv").exists(), "{full:?}");
    }
}

#[test]
fn values_census_and_gen_cannot_honour_are_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    instances(d);
    let cases: [(&[&str], &[&str], &str); 4] = [
        (
            &[
                "census",
                "--size",
                "2x3",
                "--quiet",
                "--heuristic-out",
                "x.csv",
            ],
            &["--heuristic-out", "--heuristics"],
            "x.csv",
        ),
        (
            &["gen", "--n", "8", "--count", "3", "--seed", "1"],
            &["--threads"],
            "x.txt",
        ),
        (
            &["gen", "--convert", "w.tsv", "--source", "Korf\n1985"],
            &["--source", "control character"],
            "x.txt",
        ),
        (
            &["gen", "--convert", "w.tsv", "--source", " "],
            &["--source"],
            "x.txt",
        ),
    ];
    for (args, flags, out) in cases {
        let mut full = args.to_vec();
        if args[0] == "gen" {
            full.extend(["--out", out]);
        }
        if full.contains(&"--seed") {
            full.extend(["--threads", "5000"]);
        }
        let (code, err) = bench(d, &full, Stdio::piped(), Stdio::piped());
        assert!(matches!(code, Some(1 | 2)), "{full:?}: {code:?} {err}");
        for flag in flags {
            assert!(err.contains(flag), "{full:?}: {err}");
        }
        assert!(!d.join(out).exists(), "{full:?}");
        assert!(!d.join(format!("{out}.partial")).exists(), "{full:?}");
    }
}
