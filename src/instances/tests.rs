//! Unit tests of the instance readers, writer and generators.
//!
//! Expected values come from outside the code under test: breadth-first search over whole state
//! spaces (written here, using only `Board::moved`), the published census of small boards,
//! literal lines of Korf's files, and the chi-square distribution.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use super::*;

fn data_dir() -> PathBuf {
    let near = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"));
    if near.join("korf100.tsv").exists() {
        near.to_path_buf()
    } else {
        PathBuf::from("/work/shared/data")
    }
}

/// Exact distances to the goal of every reachable position, by breadth-first search.
fn bfs_distances(rows: usize, cols: usize, goal: Goal) -> HashMap<Vec<u32>, u32> {
    let start = Board::solved(rows, cols, goal);
    let mut dist = HashMap::new();
    dist.insert(start.tiles().to_vec(), 0u32);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
            if let Some(n) = b.moved(m)
                && !dist.contains_key(n.tiles())
            {
                dist.insert(n.tiles().to_vec(), d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

use crate::board::Move;

/// The chi-square value above which a uniform sample is rejected at p = 1e-4, by the
/// Wilson-Hilferty approximation (z = 3.719 is the standard normal's 1 - 1e-4 quantile).
fn chi2_critical_1e4(df: usize) -> f64 {
    let k = df as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + 3.719 * a.sqrt()).powi(3)
}

fn chi2(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn chi2_critical_values_match_tables() {
    // Upper 1e-4 quantiles of chi-square, from the regularized incomplete gamma function
    // (series expansion, computed outside this crate): df 15 -> 44.26, 100 -> 161.32,
    // 239 -> 328.98, 359 -> 467.30.
    for (df, q) in [(15, 44.26), (100, 161.32), (239, 328.98), (359, 467.30)] {
        let x = chi2_critical_1e4(df);
        assert!((x - q).abs() < 0.01 * q, "df {df}: {x} vs {q}");
    }
}

// ---------------------------------------------------------------- generators

#[test]
fn below_stays_in_range_and_hits_every_value() {
    let mut rng = instance_rng(1, 1);
    for n in [1u64, 2, 3, 7, 10, 1 << 33, u64::MAX] {
        for _ in 0..200 {
            assert!(below(&mut rng, n) < n);
        }
    }
    let mut seen = [0u32; 6];
    for _ in 0..6000 {
        seen[below(&mut rng, 6) as usize] += 1;
    }
    assert!(
        chi2(&seen.map(u64::from)) < chi2_critical_1e4(5),
        "{seen:?}"
    );
}

#[test]
fn streams_differ_by_seed_and_id() {
    use rand::Rng;
    let a = instance_rng(42, 1).next_u64();
    assert_eq!(a, instance_rng(42, 1).next_u64());
    assert_ne!(a, instance_rng(42, 2).next_u64());
    assert_ne!(a, instance_rng(43, 1).next_u64());
}

#[test]
fn random_walks_are_solvable_and_within_m_with_m_parity() {
    let dist = bfs_distances(3, 3, Goal::BlankLast);
    for m in [0u32, 1, 5, 10, 20, 31, 40] {
        let spec =
            GenSpec::new(3, 3, Goal::BlankLast, GenKind::RandomWalk { moves: m }, 9).unwrap();
        for id in 1..=50 {
            let b = spec.board(id);
            let d = *dist
                .get(b.tiles())
                .unwrap_or_else(|| panic!("walk {m} gave an unreachable board:\n{b}"));
            assert!(d <= m, "distance {d} > {m}");
            assert_eq!(d % 2, m % 2, "a walk of {m} moves must keep its parity");
            assert!(b.manhattan(Goal::BlankLast) <= u64::from(m));
            assert!(b.is_solvable(Goal::BlankLast));
        }
    }
}

#[test]
fn two_step_walks_never_undo_their_first_move() {
    // Without the no-undo rule, about a third of 2-move walks would return to the goal.
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let dist = bfs_distances(3, 3, goal);
        let spec = GenSpec::new(3, 3, goal, GenKind::RandomWalk { moves: 2 }, 5).unwrap();
        for id in 1..=200 {
            assert_eq!(dist[spec.board(id).tiles()], 2);
        }
    }
}

#[test]
fn walks_on_2x2_circle_the_only_cycle() {
    // On 2 x 2 the 12 positions form one cycle (census: 12 states, one at depth 6), and a walk
    // that never backtracks goes around it: 6 moves reach the unique farthest position, 12 the goal.
    let dist = bfs_distances(2, 2, Goal::BlankLast);
    assert_eq!(dist.len(), 12);
    for id in 1..=20 {
        let six = GenSpec::new(2, 2, Goal::BlankLast, GenKind::RandomWalk { moves: 6 }, id)
            .unwrap()
            .board(id);
        assert_eq!(dist[six.tiles()], 6);
        let twelve = GenSpec::new(2, 2, Goal::BlankLast, GenKind::RandomWalk { moves: 12 }, id)
            .unwrap()
            .board(id);
        assert!(twelve.is_goal(Goal::BlankLast));
    }
}

#[test]
fn uniform_boards_cover_all_2x3_positions_evenly() {
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let dist = bfs_distances(2, 3, goal);
        assert_eq!(dist.len(), 360, "census: 2 x 3 has 360 reachable positions");
        let index: HashMap<&Vec<u32>, usize> =
            dist.keys().enumerate().map(|(i, k)| (k, i)).collect();
        let spec = GenSpec::new(2, 3, goal, GenKind::Uniform, 2024).unwrap();
        let mut counts = vec![0u64; 360];
        for id in 1..=36_000 {
            let b = spec.board(id);
            let i = index
                .get(&b.tiles().to_vec())
                .unwrap_or_else(|| panic!("uniform gave an unsolvable board:\n{b}"));
            counts[*i] += 1;
        }
        let x = chi2(&counts);
        assert!(
            x < chi2_critical_1e4(359),
            "chi-square {x} over 360 positions"
        );
        assert!(counts.iter().all(|&c| c > 0));
    }
}

#[test]
fn uniform_4x4_blank_and_tile_positions_are_even() {
    // Over the solvable 4 x 4 boards, the blank and any one tile are uniform over the 16 cells:
    // for a fixed cell, swapping two other tiles pairs solvable and unsolvable boards.
    let spec = GenSpec::new(4, 4, Goal::BlankLast, GenKind::Uniform, 77).unwrap();
    let mut blank = [0u64; 16];
    let mut tile1 = [0u64; 16];
    let mut pair = vec![0u64; 16 * 15];
    for id in 1..=24_000 {
        let b = spec.board(id);
        assert!(b.is_solvable(Goal::BlankLast));
        let t1 = b.tiles().iter().position(|&t| t == 1).unwrap();
        blank[b.blank()] += 1;
        tile1[t1] += 1;
        // The joint position of (blank, tile 1): 240 equally likely pairs.
        let second = if t1 > b.blank() { t1 - 1 } else { t1 };
        pair[b.blank() * 15 + second] += 1;
    }
    assert!(chi2(&blank) < chi2_critical_1e4(15), "blank {blank:?}");
    assert!(chi2(&tile1) < chi2_critical_1e4(15), "tile 1 {tile1:?}");
    assert!(chi2(&pair) < chi2_critical_1e4(239), "pairs");
}

#[test]
fn uniform_handles_rectangles_and_big_tiles() {
    let b = uniform_solvable(3, 7, Goal::BlankFirst, &mut instance_rng(3, 1)).unwrap();
    assert!(b.is_solvable(Goal::BlankFirst));
    let big = uniform_solvable(40, 40, Goal::BlankLast, &mut instance_rng(3, 1)).unwrap();
    assert!(big.is_solvable(Goal::BlankLast));
    assert!(big.tiles().iter().any(|&t| t > 255));
    assert!(matches!(
        uniform_solvable(1, 5, Goal::BlankLast, &mut instance_rng(3, 1)),
        Err(BoardError::TooSmall { .. })
    ));
    assert!(GenSpec::new(0, 0, Goal::BlankLast, GenKind::Uniform, 1).is_err());
}

// ---------------------------------------------------------------- writing and reading our format

fn parse(name: &str, text: &str, goal: Option<Goal>) -> Result<InstanceSet, InstanceError> {
    parse_instance_set(Path::new(name), text, goal)
}

fn err_text(name: &str, text: &str) -> String {
    parse(name, text, None)
        .expect_err("the text is invalid")
        .to_string()
}

#[test]
fn generated_files_read_back() {
    let spec = GenSpec::new(
        3,
        4,
        Goal::BlankFirst,
        GenKind::RandomWalk { moves: 15 },
        11,
    )
    .unwrap();
    let bytes = spec.write(Vec::new(), 30).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let set = parse("g.txt", &text, None).unwrap();
    assert_eq!((set.rows, set.cols, set.goal), (3, 4, Goal::BlankFirst));
    assert_eq!(set.instances.len(), 30);
    for (k, inst) in set.instances.iter().enumerate() {
        assert_eq!(inst.id, (k + 1).to_string());
        assert_eq!(inst.scramble_moves, Some(15));
        assert_eq!(
            inst.line,
            13 + k,
            "12 header lines, then one line per instance"
        );
        assert_eq!(inst.board, spec.board(k as u64 + 1));
    }
    // The override wins over the file's goal.
    assert_eq!(
        parse("g.txt", &text, Some(Goal::BlankLast)).unwrap().goal,
        Goal::BlankLast
    );
    // A one-instance file is what bench solve accepts from a pipe.
    let one = String::from_utf8(spec.write(Vec::new(), 1).unwrap()).unwrap();
    let (board, goal) = parse_instance_text(&one).unwrap().unwrap();
    assert_eq!((board, goal), (spec.board(1), Goal::BlankFirst));
    let many = parse_instance_text(&text).unwrap().unwrap_err().to_string();
    assert!(
        many.starts_with("<stdin>:14: expected exactly one instance, found 30"),
        "{many}"
    );
}

#[test]
fn hand_written_file_with_spreadsheet_quirks() {
    // CRLF line ends, a quoted tiles cell, comments and blank lines between instances.
    let text = "# npuzzle-instances 1\r\n# rows: 2\r\n# cols: 3\r\n# goal: blank-last\r\n\
                id\tscramble_moves\ttiles\r\n\r\n# a comment\r\na\t\t\"1 2 3 4 0 5\"\r\nb\t1\t1 2 3 4 5 0\r\n";
    let set = parse("h.txt", text, None).unwrap();
    assert_eq!(set.instances.len(), 2);
    assert_eq!(set.instances[0].id, "a");
    assert_eq!(set.instances[0].line, 8);
    assert_eq!(set.instances[0].scramble_moves, None);
    assert_eq!(set.instances[0].board.tiles(), &[1, 2, 3, 4, 0, 5]);
    assert_eq!(set.instances[1].scramble_moves, Some(1));
    assert!(parse_instance_text(text).is_some());
}

const HEAD: &str = "# npuzzle-instances 1\n# rows: 3\n# cols: 3\n# goal: blank-last\nid\ttiles\n";

#[test]
fn bad_lines_name_file_line_and_problem() {
    let cases: &[(&str, &str)] = &[
        (
            "1\t1 2 3 4 5 6 7 8\n",
            "f.txt:6: expected 9 tiles for a 3 x 3 board, found 8",
        ),
        ("1\t1 2 3 4 5 6 7 8 8\n", "f.txt:6: 8 appears twice"),
        (
            "1\t1 2 3 4 5 6 7 8 x\n",
            "f.txt:6: tile 9: expected a non-negative integer, found \"x\"",
        ),
        (
            "1\t1 2 3 4 5 6 7 8 -1\n",
            "f.txt:6: tile 9: expected a non-negative integer, found \"-1\"",
        ),
        (
            "1\t1 2 3 4 5 6 7 8 9\n",
            "f.txt:6: 9 is out of range: tiles must be 0..=8",
        ),
        (
            "1 1 2 3 4 5 6 7 8 0\n",
            "f.txt:6: expected 2 tab-separated fields (id, tiles), found 1 (are the fields separated by tabs?)",
        ),
        (
            "1\t1 2 3 4 5 6 7 8 0\n1\t1 2 3 4 5 6 7 0 8\n",
            "f.txt:7: instance id \"1\" appears twice (first on line 6)",
        ),
        ("\t1 2 3 4 5 6 7 8 0\n", "f.txt:6: the id field is empty"),
        ("", "f.txt:5: the file contains no instances"),
    ];
    for (body, want) in cases {
        let got = err_text("f.txt", &format!("{HEAD}{body}"));
        assert_eq!(&got, want, "for body {body:?}");
    }
}

#[test]
fn bad_headers_are_reported_on_their_line() {
    let e = err_text("f.txt", "# npuzzle-instances 2\n");
    assert!(
        e.starts_with("f.txt:1: unsupported instance format version \"2\""),
        "{e}"
    );
    let e = err_text(
        "f.txt",
        "# npuzzle-instances 1\n# rows: 3\n# goal: blank-last\nid\ttiles\n",
    );
    assert!(
        e.starts_with("f.txt:4: the header has no \"# cols: ...\" line"),
        "{e}"
    );
    let e = err_text(
        "f.txt",
        "# npuzzle-instances 1\n# rows: 3\n# cols: 3\n# goal: sideways\nid\ttiles\n",
    );
    assert!(
        e.starts_with("f.txt:4: header \"goal\": unknown goal \"sideways\""),
        "{e}"
    );
    let e = err_text(
        "f.txt",
        "# npuzzle-instances 1\n# rows: 1\n# cols: 3\n# goal: blank-last\nid\ttiles\n",
    );
    assert!(
        e.contains("f.txt:2: the board is 1 x 3; both sides must be at least 2"),
        "{e}"
    );
    let e = err_text("f.txt", "# npuzzle-instances 1\n# rows: 3\n# rows: 3\n");
    assert!(
        e.starts_with("f.txt:3: header \"rows\" appears twice (first on line 2)"),
        "{e}"
    );
    let e = err_text("f.txt", &HEAD.replace("id\ttiles", "tiles\tid"));
    assert!(e.starts_with("f.txt:5: bad column header"), "{e}");
    let text = HEAD.replace("id\t", "# count: 2\nid\t") + "1\t1 2 3 4 5 6 7 8 0\n";
    let e = err_text("f.txt", &text);
    assert_eq!(
        e,
        "f.txt:7: the header (line 5) declares 2 instances but the file has 1; is it truncated?"
    );
    assert_eq!(
        err_text("e.txt", ""),
        "e.txt:1: the file contains no instances"
    );
    assert_eq!(
        err_text("e.txt", "# nothing here\n\n"),
        "e.txt:2: the file contains no instances"
    );
    let e = err_text("f.txt", "hello world\n");
    assert!(e.starts_with("f.txt:1: not an instance file"), "{e}");
}

#[test]
fn unsolvable_instances_are_found_not_rejected() {
    let text = format!("{HEAD}1\t1 2 3 4 5 6 7 8 0\n2\t2 1 3 4 5 6 7 8 0\n3\t1 2 3 4 5 6 7 0 8\n");
    let set = parse("u.txt", &text, None).unwrap();
    let bad: Vec<_> = set.unsolvable().map(|(i, _)| i.id.as_str()).collect();
    assert_eq!(bad, ["2"]);
    let e = set.check_solvable().unwrap_err().to_string();
    assert!(
        e.starts_with("u.txt:7: instance 2: the board is unsolvable for goal blank-last"),
        "{e}"
    );
    // With a goal override the same boards are judged against the other goal; the expected
    // answer comes from BFS reachability, not from the parity rule.
    let dist = bfs_distances(3, 3, Goal::BlankFirst);
    let set = parse("u.txt", &text, Some(Goal::BlankFirst)).unwrap();
    let want: Vec<&str> = set
        .instances
        .iter()
        .filter(|i| !dist.contains_key(i.board.tiles()))
        .map(|i| i.id.as_str())
        .collect();
    let got: Vec<&str> = set.unsolvable().map(|(i, _)| i.id.as_str()).collect();
    assert_eq!(got, want);
}

// ---------------------------------------------------------------- Korf's layout

#[test]
fn korf100_tsv_is_100_blank_first_15_puzzles() {
    let path = data_dir().join("korf100.tsv");
    let set = read_instance_file(&path, None).unwrap();
    assert_eq!((set.rows, set.cols, set.goal), (4, 4, Goal::BlankFirst));
    assert_eq!(set.instances.len(), 100);
    // Line 2 of the file: "1  57  276361933  140036828  14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".
    let first = &set.instances[0];
    assert_eq!((first.id.as_str(), first.line), ("1", 2));
    assert_eq!(
        first.board.tiles(),
        &[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]
    );
    assert_eq!(set.instances[99].id, "100");
    assert_eq!(set.unsolvable().count(), 0);
    let (_, layout, extras) = read_detailed(&path, None).unwrap();
    assert_eq!(layout, Layout::KorfTsv);
    assert_eq!(extras.optimal[0], Some(57));
    assert_eq!(extras.optimal[1], Some(55));
    let over = read_instance_file(&path, Some(Goal::BlankLast)).unwrap();
    assert_eq!(over.goal, Goal::BlankLast);
}

#[test]
fn korf24_tsv_is_50_blank_first_24_puzzles() {
    let set = read_instance_file(&data_dir().join("korf24.tsv"), None).unwrap();
    assert_eq!((set.rows, set.cols, set.goal), (5, 5, Goal::BlankFirst));
    assert_eq!(set.instances.len(), 50);
    assert_eq!(set.unsolvable().count(), 0);
}

#[test]
fn shipped_korf_files_hold_the_same_boards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (ours, theirs, n) in [
        ("korf100.txt", "korf100.tsv", 100),
        ("korf24.txt", "korf24.tsv", 50),
    ] {
        let (a, layout, ea) = read_detailed(&root.join("instances").join(ours), None).unwrap();
        let (b, _, eb) = read_detailed(&data_dir().join(theirs), None).unwrap();
        assert_eq!(layout, Layout::Npuzzle);
        assert_eq!(a.goal, Goal::BlankFirst);
        assert_eq!(a.instances.len(), n);
        assert_eq!(ea, eb, "optimal lengths kept");
        for (x, y) in a.instances.iter().zip(&b.instances) {
            assert_eq!((&x.id, &x.board), (&y.id, &y.board));
        }
    }
}

#[test]
fn korf_layout_errors() {
    let e = err_text("k.tsv", "id\ttiles\n1\t1 2 3 4 5 6 7 8\n");
    assert!(
        e.starts_with("k.tsv:2: found 8 tiles; Korf's layout holds square boards"),
        "{e}"
    );
    let e = err_text("k.tsv", "id\ttiles\n1\t1 2 3 0\n2\t1 2 3 4 5 6 7 8 0\n");
    assert_eq!(
        e,
        "k.tsv:3: the board is 3 x 3, but the instance on line 2 is 2 x 2; every board in a file must have the same size"
    );
    let e = err_text("k.tsv", "id\toptimal\ttiles\n1\tfifty\t1 2 3 0\n");
    assert_eq!(
        e,
        "k.tsv:2: column optimal: expected a non-negative integer, found \"fifty\""
    );
}

// ---------------------------------------------------------------- JSON

#[test]
fn json_lines_arrays_and_multiline_matrices() {
    let lines = "[[1,2,3],[4,5,6],[7,8,0]]\n\n# comment\n[[0,1,2],[3,4,5],[6,7,8]]\n";
    let set = parse("j.jsonl", lines, None).unwrap();
    assert_eq!((set.rows, set.cols, set.goal), (3, 3, Goal::BlankLast));
    assert_eq!(set.instances.len(), 2);
    assert_eq!(set.instances[1].line, 4);
    assert_eq!(set.instances[1].id, "2");
    assert_eq!(set.instances[1].board.tiles(), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(parse_instance_text(lines).is_none());

    let array = "[\n  [[1,2],[3,0]],\n  [[0,1],\n   [2,3]]\n]\n";
    let set = parse("a.json", array, Some(Goal::BlankFirst)).unwrap();
    assert_eq!(set.goal, Goal::BlankFirst);
    assert_eq!(
        set.instances.iter().map(|i| i.line).collect::<Vec<_>>(),
        [2, 3]
    );

    let pretty = "[\n [1, 2, 3],\n [4, 0, 5]\n]\n[[1,2,3],[4,5,0]]\n";
    let set = parse("p.json", pretty, None).unwrap();
    assert_eq!((set.rows, set.cols), (2, 3));
    assert_eq!(
        set.instances.iter().map(|i| i.line).collect::<Vec<_>>(),
        [1, 5]
    );
}

#[test]
fn json_errors() {
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[[1,2],[3,0],[4,5]]\n");
    assert_eq!(
        e,
        "j.jsonl:2: the board is 3 x 2, but the instance on line 1 is 2 x 2; every board in a file must have the same size"
    );
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[[1,2,3],[0,4]]\n");
    assert_eq!(e, "j.jsonl:2: row 2 has 2 entries but row 1 has 3");
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[[1,2],[3,\"x\"]]\n");
    assert_eq!(
        e,
        "j.jsonl:2: row 2, column 2: expected a non-negative integer, found \"x\""
    );
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[[1,2],[3,0.5]]\n");
    assert_eq!(
        e,
        "j.jsonl:2: row 2, column 2: expected a non-negative integer, found \"0.5\""
    );
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[[1,2],[2,0]]\n");
    assert_eq!(e, "j.jsonl:2: 2 appears twice");
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n\n[[1,2],[3,0]\n");
    assert!(e.starts_with("j.jsonl:4: invalid JSON"), "{e}");
    let e = err_text("j.jsonl", "[[1,2],[3,0]]\n[1,2,3,0]\n");
    assert!(
        e.starts_with("j.jsonl:2: invalid JSON: expected a matrix"),
        "{e}"
    );
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let e = read_instance_file(Path::new("/nonexistent/x.txt"), None).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.txt: cannot read the instance file")
    );
    assert_eq!(e.line(), None);
}

#[test]
fn a_header_without_the_format_line_is_refused_not_read_as_korfs_layout() {
    // Issue 16: the first line was lost; `# goal: blank-last` must not be ignored in favour of
    // Korf's blank-first goal.
    let text = "# rows: 3\n# cols: 3\n# goal: blank-last\nid\ttiles\n1\t1 2 3 4 5 6 7 0 8\n";
    let e = parse_instance_set(Path::new("lost.txt"), text, None).unwrap_err();
    assert_eq!(e.line(), Some(1), "{e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with("lost.txt:1:") && msg.contains("# npuzzle-instances 1"),
        "{msg}"
    );
    // The same in front of JSON matrices.
    let json = "# goal: blank-last\n[[1,2,3],[4,5,6],[7,0,8]]\n";
    let e = parse_instance_set(Path::new("m.json"), json, None).unwrap_err();
    assert!(e.to_string().contains("\"# goal: ...\""), "{e}");
    // Ordinary comments in Korf's layout stay comments.
    let korf = "# Korf 1985, table 1\nid\ttiles\n1\t1 2 3 4 5 6 7 8 0\n";
    let set = parse_instance_set(Path::new("k.tsv"), korf, None).unwrap();
    assert_eq!(set.goal, Goal::BlankFirst);
    // With the first line the same header is read as written.
    let full = format!("{FORMAT_LINE}\n{text}");
    let set = parse_instance_set(Path::new("ok.txt"), &full, None).unwrap();
    assert_eq!(set.goal, Goal::BlankLast);
}
