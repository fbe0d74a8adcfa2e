//! The repository stands alone: nothing it runs or documents reads the team's shared folder
//! beside the checkout (a user's clone has none), and the published data it carries instead
//! (`data/`) is what its README says it is.

use std::path::{Path, PathBuf};

use crate::common::{data_dir, read_tsv};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (recursively), skipping build output and git's own folder.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "target" && name != ".git" && name != "__pycache__" {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_in_tests_scripts_ci_or_docs_reads_the_shared_folder() {
    // Spelt in pieces so that this file does not match itself.
    let needles = [
        format!("../{}", "shared"),
        format!("/work/{}", "shared"),
        format!("'{}', 'data'", "shared"),
    ];
    let mut files = Vec::new();
    for dir in [
        "tests", "scripts", ".ci", "docs", "src", "benches", "examples", "python",
    ] {
        files_under(&root().join(dir), &mut files);
    }
    files.push(root().join("README.md"));
    files.push(root().join("build.rs"));
    let mut hits = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // binary files (fixtures, images) cannot name a path to read
        };
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n.as_str())) {
                hits.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "these lines point outside the repository (use data/ instead):\n{}",
        hits.join("\n")
    );
}

#[test]
fn every_data_file_is_named_with_its_source_in_the_data_readme() {
    let readme = std::fs::read_to_string(data_dir().join("README.md")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    assert!(names.len() >= 5, "data/ holds {names:?}");
    for name in names {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}`")))
            .unwrap_or_else(|| panic!("data/README.md has no table row for {name}"));
        assert!(
            row.matches('|').count() >= 4 && row.rsplit('|').nth(1).unwrap().trim().len() > 10,
            "the row for {name} names no source: {row}"
        );
    }
}

/// Manhattan distance to the blank-first goal (tile t belongs at cell t), written here.
fn manhattan_blank_first(tiles: &[u32], cols: u32) -> u32 {
    let mut sum = 0;
    for (cell, &t) in tiles.iter().enumerate() {
        if t != 0 {
            let (r, c) = (cell as u32 / cols, cell as u32 % cols);
            sum += r.abs_diff(t / cols) + c.abs_diff(t % cols);
        }
    }
    sum
}

#[test]
fn the_published_24_puzzle_lengths_belong_to_korfs_50_boards() {
    let plain = read_tsv("korf24.tsv");
    let with_lengths = read_tsv("korf24-optimal.tsv");
    assert_eq!(plain.len(), 50);
    assert_eq!(with_lengths.len(), 50);
    let mut total = 0;
    for (p, w) in plain.iter().zip(&with_lengths) {
        assert_eq!((&p[0], &p[1]), (&w[0], &w[2]), "instance {}", p[0]);
        let tiles: Vec<u32> = p[1].split(' ').map(|t| t.parse().unwrap()).collect();
        let optimal: u32 = w[1].parse().unwrap();
        let h = manhattan_blank_first(&tiles, 5);
        // An optimal length is at least Manhattan and has its parity (each move changes it by 1).
        assert!(
            optimal >= h && (optimal - h).is_multiple_of(2),
            "instance {}",
            p[0]
        );
        assert!((81..=114).contains(&optimal), "instance {}", p[0]);
        total += optimal;
    }
    // Korf & Felner's mean optimal length over the 50: 100.78.
    assert_eq!(total, 5039);
}

#[test]
fn a_fresh_clone_has_no_instance_file_so_the_first_run_uses_the_default_set() {
    // What a clone holds is what git tracks (the working folder may hold a user's files).
    let Ok(out) = std::process::Command::new("git")
        .current_dir(root())
        .args(["ls-files", "instances"])
        .output()
    else {
        return; // no git: a tarball, which holds what the repository holds
    };
    if !out.status.success() {
        return; // not a git checkout
    }
    let tracked: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.ends_with("README.md"))
        .map(str::to_string)
        .collect();
    assert!(
        tracked.is_empty(),
        "instance files committed in instances/ would be the first run's set instead of the \
         default one: {tracked:?} (put published sets in data/)"
    );
}
