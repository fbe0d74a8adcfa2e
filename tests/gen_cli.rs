//! `bench gen` driven through the real binary: determinism, the prefix property, stdout output,
//! default file names, large boards, conversion, and clear errors.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use npuzzle::Goal;
use npuzzle::instances::read_instance_file;
use predicates::prelude::*;

fn bench() -> Command {
    Command::cargo_bin("bench").expect("the bench binary")
}

use crate::common::data_dir;

/// Runs `bench gen ARGS --out -` and returns stdout.
fn gen_stdout(args: &[&str]) -> String {
    let out = bench()
        .arg("gen")
        .args(args)
        .args(["--out", "-"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8")
}

/// The instance lines (after the column header) of a file in our format.
fn instance_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("id\t"))
        .expect("a column header");
    lines[header + 1..].to_vec()
}

#[test]
fn same_command_gives_identical_bytes_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (k, threads) in ["1", "2", "2"].iter().enumerate() {
        let f = dir.path().join(format!("{k}.txt"));
        bench()
            .args([
                "gen", "--n", "4", "--moves", "30", "--count", "300", "--seed", "7",
            ])
            .args(["--threads", threads, "--out"])
            .arg(&f)
            .assert()
            .success();
        files.push(fs::read(&f).unwrap());
    }
    assert_eq!(files[0], files[1]);
    assert_eq!(files[1], files[2]);
    // A different seed gives different boards.
    let other = gen_stdout(&["--n", "4", "--moves", "30", "--count", "300", "--seed", "8"]);
    assert_ne!(other.as_bytes(), &files[0][..]);
}

#[test]
fn smaller_counts_are_prefixes() {
    for generator in [&["--moves", "25"][..], &[][..]] {
        let mut base = vec!["--rows", "3", "--cols", "4", "--seed", "42"];
        base.extend_from_slice(generator);
        let small = gen_stdout(&[&base[..], &["--count", "10"]].concat());
        let large = gen_stdout(&[&base[..], &["--count", "1000"]].concat());
        let (s, l) = (instance_lines(&small), instance_lines(&large));
        assert_eq!((s.len(), l.len()), (10, 1000));
        assert_eq!(
            s[..],
            l[..10],
            "the instance lines of --count 10 start --count 1000"
        );
        // The headers differ only in the count they record.
        let strip = |t: &str| -> Vec<String> {
            t.lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| l.replace("1000", "K").replace("10", "K"))
                .collect()
        };
        assert_eq!(strip(&small), strip(&large));
    }
}

#[test]
fn stdout_and_file_output_are_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.txt");
    bench()
        .args(["gen", "--n", "3", "--count", "20", "--seed", "5", "--out"])
        .arg(&f)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 20 instances"));
    let stdout = gen_stdout(&["--n", "3", "--count", "20", "--seed", "5"]);
    assert_eq!(fs::read_to_string(&f).unwrap(), stdout);
    assert!(
        stdout.starts_with("# npuzzle-instances 1\n# rows: 3\n# cols: 3\n# goal: blank-last\n")
    );
}

#[test]
fn default_name_under_instances_and_fresh_seed_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench()
        .current_dir(dir.path())
        .args(["gen", "--n", "4", "--moves", "20", "--count", "1000"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let seed: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed on stderr: {stderr}"));
    let name = format!("instances/4x4-walk20-seed{seed}-n1000.txt");
    assert!(stderr.contains(&name), "{stderr}");
    let text = fs::read_to_string(dir.path().join(&name)).unwrap();
    assert!(text.contains(&format!("\n# seed: {seed}\n")));
    // The recorded seed regenerates the file exactly.
    let again = gen_stdout(&[
        "--n",
        "4",
        "--moves",
        "20",
        "--count",
        "1000",
        "--seed",
        &seed.to_string(),
    ]);
    assert_eq!(again, text);
}

#[test]
fn walk_files_record_m_and_boards_are_within_m() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("w.txt");
    bench()
        .args(["gen", "--rows", "3", "--cols", "5", "--goal", "blank-first"])
        .args(["--moves", "17", "--count", "200", "--seed", "3", "--out"])
        .arg(&f)
        .assert()
        .success();
    let set = read_instance_file(&f, None).unwrap();
    assert_eq!(
        (set.shape.rows, set.shape.cols, set.shape.goal),
        (3, 5, Goal::BlankFirst)
    );
    assert_eq!(set.instances.len(), 200);
    for inst in &set.instances {
        assert_eq!(inst.scramble_moves, Some(17));
        let md = inst.board.manhattan(Goal::BlankFirst);
        // Manhattan ignores the blank; 17 blank moves move tiles 17 steps in total, so the
        // sum of tile displacements is at most 17 and has the parity of 17.
        assert!(md <= 17 && md % 2 == 1, "manhattan {md}");
        assert!(inst.board.is_solvable(Goal::BlankFirst));
    }
    assert!(fs::read_to_string(&f).unwrap().contains("# moves: 17\n"));
}

#[test]
fn uniform_files_are_solvable() {
    let text = gen_stdout(&[
        "--n",
        "5",
        "--count",
        "500",
        "--seed",
        "99",
        "--goal",
        "blank-first",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("u.txt");
    fs::write(&f, &text).unwrap();
    let set = read_instance_file(&f, None).unwrap();
    assert_eq!(set.instances.len(), 500);
    assert_eq!(set.unsolvable().count(), 0);
    assert!(set.instances.iter().all(|i| i.scramble_moves.is_none()));
    assert!(text.contains("\n# generator: uniform\n"));
}

#[test]
fn a_million_tile_board() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big.txt");
    bench()
        .args(["gen", "--n", "1000", "--count", "1", "--seed", "1", "--out"])
        .arg(&f)
        .assert()
        .success();
    let set = read_instance_file(&f, None).unwrap();
    assert_eq!((set.shape.rows, set.shape.cols), (1000, 1000));
    let b = &set.instances[0].board;
    assert!(b.is_solvable(Goal::BlankLast));
    assert_eq!(b.tiles().iter().max(), Some(&999_999));
}

#[test]
fn bad_sizes_and_counts_are_clear_errors() {
    for n in ["0", "1"] {
        bench()
            .args(["gen", "--n", n, "--out", "-"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "cannot generate {n} x {n} boards (--size / --n / --rows / --cols): the board is {n} x {n}; both sides must be at least 2"
            )));
    }
    bench()
        .args(["gen", "--rows", "1", "--cols", "9", "--out", "-"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("both sides must be at least 2"));
    bench()
        .args(["gen", "--n", "4", "--count", "0", "--out", "-"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--count must be at least 1"));
    bench()
        .args(["gen", "--count", "3", "--out", "-"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--n N or --rows R --cols C"));
    bench()
        .args(["gen", "--n", "4", "--goal", "middle", "--out", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown goal \"middle\""));
}

#[test]
fn convert_reproduces_the_shipped_korf_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["korf100", "korf24"] {
        let shipped = fs::read_to_string(root.join("data").join(format!("{name}.txt"))).unwrap();
        let source = shipped
            .lines()
            .find_map(|l| l.strip_prefix("# source: "))
            .expect("a source line");
        let out = bench()
            .arg("gen")
            .arg("--convert")
            .arg(data_dir().join(format!("{name}.tsv")))
            .args(["--source", source, "--out", "-"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        // Everything but the recorded command line (which names the path given) must agree.
        let keep = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with("# reproduce:"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            keep(&String::from_utf8(out).unwrap()),
            keep(&shipped),
            "{name}"
        );
    }
}

#[test]
fn converting_a_bad_file_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.jsonl");
    fs::write(&f, "[[1,2],[3,0]]\n[[1,2],[3,3]]\n").unwrap();
    bench()
        .arg("gen")
        .arg("--convert")
        .arg(&f)
        .args(["--out", "-"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "{}:2: 3 appears twice",
            f.display()
        )));
}

#[cfg(unix)]
#[test]
fn out_through_a_symlink_writes_the_target_in_place() {
    // Non-regular outputs (devices like /dev/null, pipes, links) must be written in place,
    // never replaced by renaming a temporary file over them.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    bench()
        .args(["gen", "--n", "3", "--count", "2", "--seed", "1", "--out"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = fs::read_to_string(&target).unwrap();
    assert_eq!(
        text,
        gen_stdout(&["--n", "3", "--count", "2", "--seed", "1"])
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn size_n_and_rows_cols_are_one_vocabulary() {
    let out = |args: &[&str]| {
        bench()
            .args(["gen", "--count", "3", "--seed", "5", "--out", "-"])
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let by_size = out(&["--size", "3x3"]);
    assert!(!by_size.is_empty());
    assert_eq!(by_size, out(&["--n", "3"]));
    assert_eq!(by_size, out(&["--rows", "3", "--cols", "3"]));
    bench()
        .args(["gen", "--size", "3x3", "--n", "3", "--out", "-"])
        .assert()
        .code(2);
}

#[test]
fn a_converted_file_with_any_printable_source_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("two.jsonl");
    fs::write(&f, "[[1,2,3],[4,5,6],[7,0,8]]\n[[1,2,3],[4,5,6],[0,7,8]]\n").unwrap();
    let out = dir.path().join("two.txt");
    let source = "Korf (1985), \"Depth-first iterative-deepening\" # p. 97: tiles; ü";
    bench()
        .arg("gen")
        .arg("--convert")
        .arg(&f)
        .args(["--source", source, "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = fs::read_to_string(&out).unwrap();
    assert!(text.contains(&format!("# source: {source}\n")), "{text}");
    let set = read_instance_file(&out, None).expect("the converted file reads back");
    assert_eq!(set.instances.len(), 2);
    assert_eq!(set.instances[1].board.tiles(), &[1, 2, 3, 4, 5, 6, 0, 7, 8]);
}
