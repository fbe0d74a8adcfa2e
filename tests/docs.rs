//! The documentation names everything the command line accepts: every algorithm (with its
//! other spellings) and every heuristic, in the README's tables and in docs/algorithms.md.
//! The names come from the code's registries, so a new algorithm without docs fails here.

use npuzzle::heuristic::HEURISTICS;
use npuzzle::heuristic::pdb::Standard;
use npuzzle::search::ALGORITHMS;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every standard partition; the match fails to compile when a new one is added.
fn standard_partitions() -> Vec<&'static str> {
    let all = [
        Standard::P555,
        Standard::P663,
        Standard::P78,
        Standard::P6666,
    ];
    for s in all {
        match s {
            Standard::P555 | Standard::P663 | Standard::P78 | Standard::P6666 => {}
        }
    }
    all.iter().map(|s| s.name()).collect()
}

/// The names the CLI accepts, as they are to appear in the docs (in backticks).
fn accepted_names() -> Vec<String> {
    let mut names = Vec::new();
    for e in ALGORITHMS {
        names.push(e.usage());
        names.extend(e.aliases.iter().map(|a| a.to_string()));
    }
    names.extend(HEURISTICS.iter().map(|h| h.name.to_string()));
    names.push("pdb:full".into());
    names.extend(standard_partitions().iter().map(|p| format!("pdb:{p}")));
    names
}

#[test]
fn every_algorithm_and_heuristic_name_is_documented() {
    let names = accepted_names();
    assert!(names.len() >= 20, "{names:?}");
    for doc in ["README.md", "docs/algorithms.md"] {
        let text = read(doc);
        let missing: Vec<_> = names
            .iter()
            .filter(|n| !text.contains(&format!("`{n}`")))
            .collect();
        assert!(missing.is_empty(), "{doc} does not name {missing:?}");
    }
    let pdb = read("docs/pattern-databases.md");
    for option in [":noreflect", ":compact"] {
        assert!(
            pdb.contains(option),
            "docs/pattern-databases.md lacks {option}"
        );
    }
}

#[test]
fn the_readme_stays_a_short_guide_and_its_links_resolve() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines (at most 300)");
    // Every relative link of the README and the docs points at an existing file.
    for doc in [
        "README.md",
        "docs/cli.md",
        "docs/algorithms.md",
        "docs/pattern-databases.md",
        "docs/instance-format.md",
        "docs/results-schema.md",
        "docs/cluster.md",
    ] {
        let text = read(doc);
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(doc)
            .parent()
            .unwrap()
            .to_path_buf();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')').unwrap()];
            let file = target.split('#').next().unwrap();
            if file.is_empty() || file.contains("://") {
                continue;
            }
            assert!(base.join(file).exists(), "{doc}: broken link {target}");
        }
    }
}
