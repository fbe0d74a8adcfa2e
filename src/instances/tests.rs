//! Unit tests of the instance readers and writer.
//!
//! Expected values come from outside the code under test: breadth-first search over whole state
//! spaces (written here, using only `Board::moved`), the published census of small boards,
//! literal lines of Korf's files, and the chi-square distribution.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use super::*;

/// The published data committed with the repository (`data/`, sources in `data/README.md`).
fn data_dir() -> PathBuf {
    let near = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"));
    assert!(
        near.is_dir(),
        "benchmark data expected in {}",
        near.display()
    );
    near.to_path_buf()
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
fn parse(name: &str, text: &str, goal: Option<Goal>) -> Result<InstanceSet, InstanceError> {
    parse_instance_set(Path::new(name), text, goal)
}

fn err_text(name: &str, text: &str) -> String {
    parse(name, text, None)
        .expect_err("the text is invalid")
        .to_string()
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
    assert_eq!(
        (set.shape.rows, set.shape.cols, set.shape.goal),
        (4, 4, Goal::BlankFirst)
    );
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
    assert_eq!(over.shape.goal, Goal::BlankLast);
}

#[test]
fn korf24_tsv_is_50_blank_first_24_puzzles() {
    let set = read_instance_file(&data_dir().join("korf24.tsv"), None).unwrap();
    assert_eq!(
        (set.shape.rows, set.shape.cols, set.shape.goal),
        (5, 5, Goal::BlankFirst)
    );
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
        let (a, layout, ea) = read_detailed(&root.join("data").join(ours), None).unwrap();
        let (b, _, eb) = read_detailed(&data_dir().join(theirs), None).unwrap();
        assert_eq!(layout, Layout::Npuzzle);
        assert_eq!(a.shape.goal, Goal::BlankFirst);
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
    assert_eq!(
        (set.shape.rows, set.shape.cols, set.shape.goal),
        (3, 3, Goal::BlankLast)
    );
    assert_eq!(set.instances.len(), 2);
    assert_eq!(set.instances[1].line, 4);
    assert_eq!(set.instances[1].id, "2");
    assert_eq!(set.instances[1].board.tiles(), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(parse_instance_text(lines).is_none());

    let array = "[\n  [[1,2],[3,0]],\n  [[0,1],\n   [2,3]]\n]\n";
    let set = parse("a.json", array, Some(Goal::BlankFirst)).unwrap();
    assert_eq!(set.shape.goal, Goal::BlankFirst);
    assert_eq!(
        set.instances.iter().map(|i| i.line).collect::<Vec<_>>(),
        [2, 3]
    );

    let pretty = "[\n [1, 2, 3],\n [4, 0, 5]\n]\n[[1,2,3],[4,5,0]]\n";
    let set = parse("p.json", pretty, None).unwrap();
    assert_eq!((set.shape.rows, set.shape.cols), (2, 3));
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
    assert_eq!(set.shape.goal, Goal::BlankFirst);
    // With the first line the same header is read as written.
    let full = format!("{FORMAT_LINE}\n{text}");
    let set = parse_instance_set(Path::new("ok.txt"), &full, None).unwrap();
    assert_eq!(set.shape.goal, Goal::BlankLast);
}
