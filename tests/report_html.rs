//! `bench report --html`: the page's content without a browser (scripts/test-html.sh drives a
//! real one): self-contained, the data block parses and holds every row, hostile text cannot
//! end a script block, the sidecar's metadata and the instance file's boards are in it, and an
//! unwritable output is a clear error with the output exit status (74).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn bench() -> Command {
    Command::cargo_bin("bench").expect("bench binary")
}

const DATA_OPEN: &str = r#"<script type="application/json" id="report-data">"#;

/// The JSON of the page's data block.
fn data_of(html: &str) -> Value {
    let start = html.find(DATA_OPEN).expect("a data block") + DATA_OPEN.len();
    let len = html[start..]
        .find("</script>")
        .expect("the data block ends");
    serde_json::from_str(&html[start..start + len]).expect("the data block is JSON")
}

/// Writes the page of `args` (results files, then flags) to `dir/report.html`; returns it and
/// stderr.
fn report(dir: &Path, args: &[&str]) -> (String, String) {
    let out = dir.join("report.html");
    let a = bench()
        .current_dir(dir)
        .arg("report")
        .args(args)
        .arg("--html")
        .arg(&out)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    (std::fs::read_to_string(&out).unwrap(), stderr)
}

#[test]
fn page_is_self_contained_and_escapes_hostile_text() {
    let dir = tempfile::tempdir().unwrap();
    // A third shard whose instance file and algorithm names try to close the script block.
    let evil_file = "x</script><script>alert(1)</script>.txt";
    let evil_algo = "astar</SCRIPT><!--";
    let text = std::fs::read_to_string(fixture("shard_a.csv"))
        .unwrap()
        .replace("fix.txt", evil_file)
        .replace(",astar,", &format!(",{evil_algo},"));
    let evil = dir.path().join("evil.csv");
    std::fs::write(&evil, text).unwrap();
    let a = fixture("shard_a.csv");
    let b = fixture("shard_b.csv");
    let (html, stderr) = report(
        dir.path(),
        &[
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            evil.to_str().unwrap(),
        ],
    );
    assert!(stderr.contains("wrote "), "{stderr}");
    assert!(stderr.contains("no metadata sidecar"), "{stderr}");

    // Exactly the page's two script elements: nothing in the data opened or closed one.
    let lower = html.to_ascii_lowercase();
    assert_eq!(lower.matches("<script").count(), 2);
    assert_eq!(lower.matches("</script").count(), 2);
    assert!(!lower.contains("<!--"), "no comment opened by the data");
    // Nothing fetched: no src attributes, no stylesheet or import, links only within the page
    // (and the empty data: icon); the only URLs are the SVG namespace names.
    assert!(!lower.contains("src="), "a src attribute");
    assert!(!lower.contains("@import") && !lower.contains("url("));
    for (i, _) in lower.match_indices("href=") {
        let v = &lower[i + 5..i + 12];
        assert!(v.starts_with("\"#") || v.starts_with("\"data:"), "href={v}");
    }
    let rest = lower
        .replace("http://www.w3.org/2000/svg", "")
        .replace("http://www.w3.org/1999/xlink", "");
    assert!(!rest.contains("http:") && !rest.contains("https:"));
    assert!(lower.contains("content-security-policy") && lower.contains("default-src 'none'"));

    // The data: every row, the hostile names intact.
    let d = data_of(&html);
    let rows = d["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        10 + 5,
        "5 + 5 fixture rows, 5 in the copy of shard_a"
    );
    let files: Vec<&str> = d["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["file"].as_str().unwrap())
        .collect();
    assert!(files.contains(&evil_file) && files.contains(&"fix.txt"));
    let pairs: Vec<&str> = d["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(pairs.contains(&format!("{evil_algo}/manhattan").as_str()));
    // The summary: one row per pair (the 3 fixture pairs + the renamed astar/manhattan of
    // shard_a's copy), unrounded.
    let summary = d["summary"]["rows"].as_array().unwrap();
    assert_eq!(summary.len(), 4);
    let keys: Vec<&str> = d["summary"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let titles = d["summary"]["titles"].as_array().unwrap();
    assert_eq!(titles.len(), keys.len());
    assert_eq!(
        titles[keys.iter().position(|k| *k == "expanded_mean").unwrap()],
        "expanded mean"
    );
    // astar/manhattan of the fixture (shards a and b, by hand): 3 solved, expanded 4, 10, 16.
    let row = summary
        .iter()
        .find(|r| r[0] == "astar" && r[1] == "manhattan")
        .unwrap();
    let at = |k: &str| &row[keys.iter().position(|x| *x == k).unwrap()];
    assert_eq!(at("solved").as_f64(), Some(3.0));
    assert_eq!(at("expanded_mean").as_f64(), Some(10.0));
    // The hostile algorithm reaches the figures' legends escaped, as text.
    assert!(html.contains("astar&lt;/SCRIPT&gt;&lt;!--/manhattan"));
    // The four figures, inline, captioned.
    assert_eq!(html.matches("<figure class=\"plot\"").count(), 4);
    assert_eq!(html.matches("<figcaption>").count(), 4);
    assert!(html.contains("<svg"));
}

/// `bench gen` + `bench run --solutions` in `dir`.
fn small_run(dir: &Path) {
    bench()
        .current_dir(dir)
        .args([
            "gen", "--size", "3x3", "--moves", "16", "--count", "4", "--seed", "7", "--out",
            "w.txt",
        ])
        .assert()
        .success();
    bench()
        .current_dir(dir)
        .args([
            "run",
            "--instances",
            "w.txt",
            "--algos",
            "astar",
            "--heuristics",
            "manhattan",
            "--solutions",
            "--threads",
            "1",
            "--quiet",
            "--out",
            "r.csv",
        ])
        .assert()
        .success();
}

/// id -> tiles of the instance file (its table's last column).
fn boards(path: &Path) -> Vec<(String, Vec<u64>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t") && !l.is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            let tiles = cells[cells.len() - 1]
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            (cells[0].to_string(), tiles)
        })
        .collect()
}

#[test]
fn page_carries_the_sidecar_and_the_start_boards() {
    let dir = tempfile::tempdir().unwrap();
    small_run(dir.path());
    let (html, stderr) = report(dir.path(), &["r.csv"]);
    assert!(!stderr.contains("note:"), "{stderr}");
    let d = data_of(&html);
    let file = &d["files"][0];
    assert_eq!(file["sidecar"], "run");
    assert_eq!(file["rows"], 4);
    let run = &file["runs"][0];
    assert_eq!(run["program"]["name"], "npuzzle");
    assert_eq!(run["algorithms"][0], "astar");
    assert!(run["host"]["cores"].as_u64().unwrap() >= 1);
    let cmd = run["sessions"][0]["command_line"].as_str().unwrap();
    assert!(
        cmd.contains("--solutions") && cmd.contains("r.csv"),
        "{cmd}"
    );
    // The instance file's header: its seed.
    let header = run["instance_files"][0]["header"].as_array().unwrap();
    assert!(
        header.iter().any(|kv| kv[0] == "seed" && kv[1] == "7"),
        "{header:?}"
    );
    // Every instance's start board is the file's, and every row keeps its solution.
    let want = boards(&dir.path().join("w.txt"));
    assert_eq!(want.len(), 4);
    for inst in d["instances"].as_array().unwrap() {
        let id = inst["id"].as_str().unwrap();
        let tiles: Vec<u64> = inst["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .collect();
        let (_, w) = want.iter().find(|(i, _)| i == id).unwrap();
        assert_eq!(&tiles, w, "instance {id}");
        assert_eq!(inst["start"], "file");
    }
    let csv = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    for r in d["rows"].as_array().unwrap() {
        let sol = r[9].as_str().expect("a kept solution");
        assert!(csv.contains(&format!(",{sol}\n")), "{sol}");
    }

    // Without the instance file the start boards are reconstructed, and the page says so.
    std::fs::rename(dir.path().join("w.txt"), dir.path().join("gone.txt")).unwrap();
    let (html, stderr) = report(dir.path(), &["r.csv"]);
    assert!(stderr.contains("instance file w.txt not found"), "{stderr}");
    let d = data_of(&html);
    for inst in d["instances"].as_array().unwrap() {
        assert_eq!(inst["start"], "reconstructed");
        let id = inst["id"].as_str().unwrap();
        let (_, w) = want.iter().find(|(i, _)| i == id).unwrap();
        let tiles: Vec<u64> = inst["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .collect();
        assert_eq!(
            &tiles, w,
            "undoing the solution from the goal gives the start"
        );
    }
    assert!(d["notes"][0].as_str().unwrap().contains("not found"));
}

#[test]
fn unwritable_html_path_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no/such/dir/r.html");
    let out = bench()
        .arg("report")
        .arg(fixture("shard_a.csv"))
        .arg("--html")
        .arg(&bad)
        .assert()
        .failure()
        .code(74)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write") && err.contains("no/such/dir/r.html"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn merged_file_shows_the_runs_of_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    small_run(dir.path());
    for k in ["1/2", "2/2"] {
        let out = format!("s{}.csv", &k[..1]);
        bench()
            .current_dir(dir.path())
            .args([
                "run",
                "--instances",
                "w.txt",
                "--algos",
                "idastar",
                "--heuristics",
                "manhattan",
                "--threads",
                "1",
                "--quiet",
                "--shard",
                k,
                "--out",
                &out,
            ])
            .assert()
            .success();
    }
    bench()
        .current_dir(dir.path())
        .args(["merge", "s1.csv", "s2.csv", "--out", "m.csv"])
        .assert()
        .success();
    let (html, _) = report(dir.path(), &["m.csv", "r.csv"]);
    let d = data_of(&html);
    let merged = &d["files"][0];
    assert_eq!(merged["sidecar"], "merged");
    let shards: Vec<&str> = merged["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["shard"].as_str().unwrap())
        .collect();
    assert_eq!(shards, ["1/2", "2/2"]);
    assert_eq!(merged["rows"], 4, "the two shards' 4 rows");
    assert_eq!(d["files"][1]["sidecar"], "run");
    assert_eq!(d["rows"].as_array().unwrap().len(), 8);
}
