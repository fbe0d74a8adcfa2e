//! `bench pdb build|info|verify` driven through the real binary.

use assert_cmd::Command;
use predicates::prelude::*;

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

#[test]
fn build_load_verify_and_detect_corruption() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = ["pdb:1,2,3,4/5,6,7,8", "--size", "3x3", "--pdb-dir", d];
    bench()
        .args(["pdb", "build"])
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains("built, saved").count(2));
    let file = dir.path().join("3x3-blank-last-1-2-3-4.pdb");
    assert!(file.exists());
    bench()
        .args(["pdb", "build"])
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains("loaded").count(2));
    bench()
        .args(["pdb", "verify", "--rebuild"])
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains("2 of 2 databases valid"));
    bench()
        .args(["pdb", "info"])
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains("3024 entries").and(predicate::str::contains("valid")));

    // Flip one byte of the table: verify fails, build rejects the file and rebuilds it.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    bench()
        .args(["pdb", "verify"])
        .args(args)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("checksum mismatch"));
    bench()
        .args(["pdb", "build"])
        .args(args)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("rejected cached file")
                .and(predicate::str::contains("built, saved")),
        );
    // Truncate it.
    let good = std::fs::read(&file).unwrap();
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    bench()
        .args(["pdb", "verify"])
        .args(args)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("truncated"));
}

#[test]
fn environment_variable_sets_the_cache_directory() {
    let dir = tempfile::tempdir().unwrap();
    bench()
        .args([
            "pdb",
            "build",
            "pdb:full",
            "--size",
            "2x3",
            "--goal",
            "blank-first",
        ])
        .env("NPUZZLE_PDB_DIR", dir.path())
        .assert()
        .success();
    assert!(dir.path().join("2x3-blank-first-1-2-3-4-5.pdb").exists());
}

#[test]
fn bad_arguments_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    bench()
        .args(["pdb", "build", "pdb:7-8", "--size", "3x3", "--pdb-dir", d])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("defined for 4 x 4"));
    bench()
        .args(["pdb", "build", "pdb:1,2/2", "--size", "3x3", "--pdb-dir", d])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("tile 2 is in two groups"));
    bench()
        .args(["pdb", "info", "pdb:1,x", "--size", "3x3", "--pdb-dir", d])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "\"x\" where a tile number was expected",
        ));
    bench()
        .args(["pdb", "info", "pdb", "--size", "3y3", "--pdb-dir", d])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("expected ROWSxCOLS"));
}

/// `bench solve` with a pattern database from the cache directory `dir`.
fn solve_with_pdb(dir: &std::path::Path) -> assert_cmd::assert::Assert {
    bench()
        .args([
            "solve",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb:1,2,3,4/5,6,7,8",
        ])
        .args(["--goal", "blank-last", "--pdb-dir"])
        .arg(dir)
        .write_stdin("1 2 3\n4 5 6\n0 7 8\n")
        .assert()
}

#[test]
fn solve_says_when_it_rebuilds_a_corrupt_cache_file_or_cannot_save_and_clears_stale_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("3x3-blank-last-1-2-3-4.pdb");
    solve_with_pdb(dir.path())
        .success()
        .stderr(predicate::str::contains("warning").not());
    assert!(file.exists());
    // A corrupt cache file is rebuilt, with a message.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    solve_with_pdb(dir.path()).success().stderr(
        predicate::str::contains("checksum mismatch").and(predicate::str::contains("rebuilt")),
    );
    // A temporary file of a writer that died (no process has this pid) is removed by the next save.
    let stale = dir
        .path()
        .join(".3x3-blank-last-1-2-3-4.pdb.tmp-999999999-ThreadId(1)");
    std::fs::write(&stale, b"partial").unwrap();
    std::fs::remove_file(&file).unwrap();
    solve_with_pdb(dir.path()).success();
    assert!(!stale.exists(), "stale temporary file left");
    // A cache directory that cannot be written: solved anyway, with a warning.
    let blocked = dir.path().join("not-a-dir");
    std::fs::write(&blocked, b"").unwrap();
    solve_with_pdb(&blocked)
        .success()
        .stderr(predicate::str::contains("could not be saved"));
}

/// The cache directory's files with their sizes and modification times.
fn snapshot(dir: &std::path::Path) -> Vec<(String, u64, std::time::SystemTime)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                m.len(),
                m.modified().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn build_with_instances_prepares_exactly_what_a_run_loads() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let last = dir.path().join("last.txt");
    let first = dir.path().join("first.txt");
    for (file, goal) in [(&last, "blank-last"), (&first, "blank-first")] {
        bench()
            .args(["gen", "--size", "3x3", "--moves", "12", "--count", "4"])
            .args(["--seed", "1", "--goal", goal, "--out"])
            .arg(file)
            .assert()
            .success();
    }
    let heuristics = "manhattan,pdb:1,2,3,4/5,6,7,8";
    let with_instances = |cmd: &mut Command| {
        cmd.arg("--pdb-dir")
            .arg(&cache)
            .arg("--instances")
            .arg(&last)
            .arg(&first)
            .args(["--heuristics", heuristics]);
    };
    let mut build = bench();
    build.args(["pdb", "build"]);
    with_instances(&mut build);
    build
        .assert()
        .success()
        .stdout(predicate::str::contains("built, saved").count(4));
    // One database per group and goal (the files' own goals), nothing else.
    let names: Vec<String> = snapshot(&cache).into_iter().map(|e| e.0).collect();
    assert_eq!(
        names,
        [
            "3x3-blank-first-1-2-3-4.pdb",
            "3x3-blank-first-5-6-7-8.pdb",
            "3x3-blank-last-1-2-3-4.pdb",
            "3x3-blank-last-5-6-7-8.pdb",
        ]
    );
    let mut verify = bench();
    verify.args(["pdb", "verify"]);
    with_instances(&mut verify);
    verify
        .assert()
        .success()
        .stdout(predicate::str::contains("in all: 4 of 4 databases valid"));

    // A run of the same instances and heuristics only loads: the cache is left as it was.
    let before = snapshot(&cache);
    let mut run = bench();
    run.arg("run");
    with_instances(&mut run);
    run.args(["--quiet", "--threads", "1", "--out", "-"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    assert_eq!(snapshot(&cache), before, "the run changed the cache");
    // The check above can fail: a partition that was not prepared is built and saved by the run.
    bench()
        .arg("--pdb-dir")
        .arg(&cache)
        .args(["run", "--instances"])
        .arg(&last)
        .args([
            "--heuristics",
            "pdb:1,2,3/4,5,6,7,8",
            "--quiet",
            "--out",
            "-",
        ])
        .assert()
        .success();
    assert_ne!(snapshot(&cache), before);

    // A missing database fails verify, naming it.
    std::fs::remove_file(cache.join("3x3-blank-first-5-6-7-8.pdb")).unwrap();
    let mut verify = bench();
    verify.args(["pdb", "verify"]);
    with_instances(&mut verify);
    verify.assert().code(1).stdout(
        predicate::str::contains("3x3-blank-first-5-6-7-8.pdb")
            .and(predicate::str::contains("in all: 3 of 4 databases valid")),
    );

    // Without a pattern database among the heuristics there is nothing to do.
    bench()
        .arg("--pdb-dir")
        .arg(&cache)
        .args(["pdb", "build", "--instances"])
        .arg(&last)
        .args(["--heuristics", "manhattan"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing to do"));
    // The files give the size.
    bench()
        .args(["pdb", "build", "--size", "3x3", "--instances"])
        .arg(&last)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}
