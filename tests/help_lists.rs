//! `bench run --help` and `bench solve --help` list every registered algorithm and heuristic
//! (both are generated from the registries, so the lists cannot drift).

use assert_cmd::Command;
use npuzzle::heuristic::HEURISTICS;
use npuzzle::search::ALGORITHMS;

fn help(subcommand: &str) -> String {
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args([subcommand, "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_registered_name_is_in_both_helps() {
    let run = help("run");
    let solve = help("solve");
    assert!(ALGORITHMS.len() >= 12 && HEURISTICS.len() >= 6);
    for (which, text) in [("run", &run), ("solve", &solve)] {
        for e in ALGORITHMS {
            let line = format!("{}: {}", e.usage(), e.summary);
            assert!(
                text.contains(&line),
                "bench {which} --help lacks \"{line}\""
            );
        }
        for e in HEURISTICS {
            let line = format!("{}: ", e.name);
            assert!(
                text.contains(&line),
                "bench {which} --help lacks \"{line}\""
            );
            assert!(text.contains(e.summary.split_whitespace().next().unwrap()));
        }
    }
}
