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
