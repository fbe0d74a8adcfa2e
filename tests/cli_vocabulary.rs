//! One vocabulary: a flag that means the same in several subcommands is spelled, typed,
//! defaulted and explained the same in each (`bench SUB --help` shows one text), the old
//! spellings still work, and a bad value fails while the arguments are read, before any work.

use assert_cmd::Command;

fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// `bench ARGS --help` (the long help).
fn help(args: &[&str]) -> String {
    let out = bench().args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "{args:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The block of `flag` in a long help: its usage line and the text under it, up to the next
/// option.
fn block(help: &str, flag: &str) -> Option<String> {
    let mut lines = help.lines().skip_while(|l| {
        // An option's line: `--flag <V>` or `-q, --quiet`, indented.
        let t = l.trim_start();
        let names: Vec<&str> = t
            .split([' ', ','])
            .filter(|w| !w.is_empty())
            .take(2)
            .collect();
        !(t.starts_with('-') && names.contains(&flag))
    });
    let first = lines.next()?;
    let mut out = vec![first.trim().to_string()];
    for l in lines {
        let t = l.trim_start();
        if t.starts_with('-') && l.starts_with("  ") && l.len() - t.len() <= 6 {
            break;
        }
        out.push(t.to_string());
    }
    // Short and long help wrap differently: compare the words.
    Some(
        out.join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[test]
fn shared_flags_read_the_same_in_every_subcommand() {
    let table: &[(&str, &[&[&str]])] = &[
        (
            "--goal",
            &[
                &["solve"],
                &["gen"],
                &["run"],
                &["predict"],
                &["pdb", "build"],
                &["census"],
                &["split", "plan"],
            ],
        ),
        ("--threads", &[&["run"], &["gen"], &["census"]]),
        ("--seed", &[&["run"], &["gen"], &["predict"]]),
        (
            "--quiet",
            &[&["run"], &["gen"], &["census"], &["predict"], &["solve"]],
        ),
        ("--timeout", &[&["run"], &["solve"], &["split", "piece"]]),
        (
            "--max-memory",
            &[&["run"], &["solve"], &["census"], &["split", "piece"]],
        ),
        ("--out", &[&["run"], &["gen"], &["census"], &["predict"]]),
        (
            "--instances",
            &[
                &["run"],
                &["predict"],
                &["pdb", "build"],
                &["split", "plan"],
            ],
        ),
        (
            "--heuristics",
            &[
                &["run"],
                &["predict"],
                &["census"],
                &["pdb", "build"],
                &["split", "plan"],
            ],
        ),
    ];
    for (flag, subcommands) in table {
        let mut first: Option<(String, String)> = None;
        for sub in *subcommands {
            let text = help(sub);
            let b = block(&text, flag)
                .unwrap_or_else(|| panic!("bench {} --help has no {flag}:\n{text}", sub.join(" ")));
            match &first {
                None => first = Some((sub.join(" "), b)),
                Some((name, want)) => assert_eq!(
                    &b,
                    want,
                    "{flag} reads differently in bench {} and bench {name}",
                    sub.join(" ")
                ),
            }
        }
    }
}

#[test]
fn closed_value_sets_are_listed_in_the_help() {
    let report = help(&["report"]);
    for values in [
        "[possible values: table, markdown, csv, latex]",
        "[possible values: size, moves, scramble, file]",
        "[possible values: svg, png, pdf]",
        "[possible values: expanded, generated, ms, bstar]",
        "[possible values: compact, all]",
    ] {
        assert!(
            report.contains(values),
            "bench report --help lacks {values}"
        );
    }
    let predict = help(&["predict"]);
    assert!(predict.contains("[possible values: kre, cdp, ss]"));
    assert!(predict.contains("[possible values: plain, fsm]"));
    for sub in [&["run"][..], &["census"], &["gen"], &["solve"]] {
        assert!(
            help(sub).contains("[possible values: blank-last, blank-first]"),
            "{sub:?}"
        );
    }
}

#[test]
fn bad_values_fail_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.csv");
    let out_s = out.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["report", "--format", "xml", "missing.csv"],
        &["report", "--by", "colour", "missing.csv"],
        &["predict", "--size", "3x3", "--method", "guess"],
        &["predict", "--size", "3x3", "--pruning", "none"],
        &["census", "--size", "2x2", "--threads", "0", "--out", out_s],
        &["gen", "--n", "3", "--threads", "0", "--out", out_s],
        &["gen", "--n", "3", "--goal", "sideways", "--out", out_s],
        &["run", "--goal", "sideways", "--out", out_s],
        &["run", "--threads", "2000", "--out", out_s],
        &["run", "--max-memory", "lots", "--out", out_s],
        &["solve", "--timeout", "soon"],
        &["census", "--size", "2x2", "--heuristics", "magic"],
    ];
    for args in cases {
        let run = bench().args(*args).write_stdin("").output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {out_s}");
    }
    // The message names the flag and the values it takes.
    let run = bench()
        .args(["report", "--format", "xml", "missing.csv"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("--format") && err.contains("table, markdown, csv, latex"),
        "{err}"
    );
    assert!(!err.contains("missing.csv"), "no file was read: {err}");
}

#[test]
fn old_spellings_still_work() {
    let dir = tempfile::tempdir().unwrap();
    // solve --force (now --long-output).
    bench()
        .args(["solve", "--force"])
        .write_stdin("1 2\n3 0\n")
        .assert()
        .success();
    // census --heuristic (now --heuristics), with `;` as in every other list.
    let table = dir.path().join("h.csv");
    bench()
        .args([
            "census",
            "--size",
            "2x3",
            "--quiet",
            "--heuristic",
            "manhattan;misplaced",
        ])
        .arg("--heuristic-out")
        .arg(&table)
        .assert()
        .success();
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(text.contains("manhattan") && text.contains("misplaced"));
    // run --resume --force (now --resume-anyway).
    let set = dir.path().join("set.txt");
    bench()
        .args([
            "gen", "--n", "2", "--count", "2", "--seed", "1", "--quiet", "--out",
        ])
        .arg(&set)
        .assert()
        .success();
    let out = dir.path().join("r.csv");
    let run = |extra: &[&str], timeout: &str| {
        bench()
            .args([
                "run",
                "--quiet",
                "--seed",
                "1",
                "--timeout",
                timeout,
                "--instances",
            ])
            .arg(&set)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(run(&[], "10s").status.success());
    // A different timeout is a different run: refused without the override.
    assert!(!run(&["--resume"], "20s").status.success());
    assert!(run(&["--resume", "--force"], "20s").status.success());
    assert!(
        run(&["--resume", "--resume-anyway"], "20s")
            .status
            .success()
    );
    // pdb --force (now --rebuild).
    bench()
        .arg("--pdb-dir")
        .arg(dir.path().join("pdb"))
        .args(["pdb", "build", "--n", "3", "--force"])
        .assert()
        .success();
}

#[test]
fn one_seed_rule_fresh_seeds_are_printed() {
    let run = bench()
        .args(["gen", "--n", "3", "--count", "1", "--out", "-"])
        .output()
        .unwrap();
    assert!(run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("pass --seed"), "{err}");
    let run = bench()
        .args(["predict", "--size", "2x3", "--bounds", "4..5"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("pass --seed"), "{err}");
}
