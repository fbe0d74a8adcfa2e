//! What `bench run` measures, through the real binary: the peak heap of a job is its search's
//! own structures (A* grows with the depth, IDA* stays flat, a tiny search is tiny), and with
//! `--repeat` / `--warmup` the summary and `bench report` show the spread, the comparisons and
//! the run's own time apart from the summed job time.
//!
//! The boards are chosen by hand (blank-last goal): a 2-move board, and 8 6 7 / 2 5 4 / 3 0 1,
//! one of the two 8-puzzle positions 31 moves from the goal (the diameter of the 3 x 3 graph).
//! No assertion depends on timing.

use std::collections::HashMap;
use std::path::Path;

use assert_cmd::Command;

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// Korf's tsv layout; `--goal blank-last` overrides the layout's blank-first goal.
const BOARDS: &str = "id\ttiles\n1\t1 2 3 4 5 6 0 7 8\n2\t8 6 7 2 5 4 3 0 1\n";

type Record = HashMap<String, String>;

fn read_csv(path: &Path) -> Vec<Record> {
    let mut r = csv::Reader::from_path(path).unwrap();
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

fn num(r: &Record, col: &str) -> u64 {
    r[col]
        .parse()
        .unwrap_or_else(|_| panic!("{col} = {:?}", r[col]))
}

#[test]
fn peak_heap_is_the_search_own_astar_grows_idastar_stays_flat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("b.tsv"), BOARDS).unwrap();
    bench()
        .current_dir(d)
        .args([
            "run",
            "--instances",
            "b.tsv",
            "--goal",
            "blank-last",
            "--algos",
            "astar,idastar,bibfs",
            "--heuristics",
            "manhattan",
            "--threads",
            "1",
            "--quiet",
            "--out",
            "m.csv",
        ])
        .assert()
        .success();
    let rows = read_csv(&d.join("m.csv"));
    let get = |id: &str, alg: &str| {
        rows.iter()
            .find(|r| r["instance_id"] == id && r["algorithm"] == alg)
            .unwrap_or_else(|| panic!("no row {id} {alg}"))
    };
    for alg in ["astar", "idastar", "bibfs"] {
        assert_eq!(get("1", alg)["moves"], "2", "{alg}");
        assert_eq!(get("2", alg)["moves"], "31", "{alg}");
    }
    const TINY: u64 = 64 * 1024;
    // A 2-move search holds a handful of nodes: no reservation floor under its peak.
    for alg in ["astar", "idastar", "bibfs"] {
        let heap = num(get("1", alg), "peak_heap_bytes");
        assert!(
            heap < TINY,
            "{alg} on a 2-move board: peak heap {heap} bytes"
        );
    }
    // A* at depth 31 stores about 10^4 nodes (of the 181,440 positions): its peak is far above
    // the shallow one (a few KiB).
    let (shallow, deep) = (
        num(get("1", "astar"), "peak_heap_bytes"),
        num(get("2", "astar"), "peak_heap_bytes"),
    );
    assert!(deep > 256 * 1024, "A* at depth 31: {deep} bytes");
    assert!(deep > 30 * shallow, "A*: deep {deep} vs shallow {shallow}");
    let stored = num(get("2", "astar"), "peak_stored_nodes");
    assert!(stored > 5_000, "A* at depth 31 stored {stored} nodes");
    // IDA* keeps only its path: flat.
    let ida = num(get("2", "idastar"), "peak_heap_bytes");
    assert!(ida < TINY, "IDA* at depth 31: {ida} bytes");
}

#[test]
fn repeat_and_warmup_give_spread_comparisons_and_honest_totals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("b.tsv"), BOARDS).unwrap();
    let out = bench()
        .current_dir(d)
        .args([
            "run",
            "--instances",
            "b.tsv",
            "--goal",
            "blank-last",
            "--algos",
            "astar,idastar",
            "--heuristics",
            "manhattan,linear-conflict",
            "--repeat",
            "3",
            "--warmup",
            "2",
            "--threads",
            "2",
            "--out",
            "r.csv",
        ])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    // Warm-ups are not recorded: 2 instances x 4 pairs x 3 repetitions.
    let rows = read_csv(&d.join("r.csv"));
    assert_eq!(rows.len(), 24, "{stderr}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.csv.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["warmup"], 2);
    assert!(
        stderr.contains("time per pair in ms: each instance's solved repetitions averaged first"),
        "{stderr}"
    );
    for pair in [
        "astar/manhattan",
        "astar/linear-conflict",
        "idastar/manhattan",
        "idastar/linear-conflict",
    ] {
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with(pair) && l.split_whitespace().nth(1) == Some("2")),
            "{pair}: {stderr}"
        );
    }
    // Three comparisons against one reference pair, on the 2 instances all solved.
    let against: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("times") && l.contains("on the 2 instance(s) both solved"))
        .collect();
    assert_eq!(against.len(), 3, "{stderr}");
    assert!(stderr.contains("run wall time "), "{stderr}");
    assert!(stderr.contains("summed job time "), "{stderr}");

    // The report says the same, and the run's own time from the sidecar.
    let out = bench()
        .current_dir(d)
        .args(["report", "r.csv", "--baseline", "idastar/manhattan"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stdout.contains("against idastar/manhattan (the baseline)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("r.csv: run wall time ")
            && stderr.contains("1 session(s) per the sidecar")
            && stderr.contains("summed job time ")
            && stderr.contains("over 24 row(s)"),
        "{stderr}"
    );
    // CSV output stays one table.
    let out = bench()
        .current_dir(d)
        .args(["report", "r.csv", "--format", "csv"])
        .assert()
        .success();
    let csv_text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(csv_text.lines().count(), 5, "{csv_text}");
}

#[test]
fn a_bad_warmup_is_refused_naming_the_flag() {
    bench()
        .args(["run", "--warmup", "many"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--warmup"));
}
