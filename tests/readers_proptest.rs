//! Property-based tests of every reader of user input (issue 31, item 4): arbitrary bytes and
//! mutations of a valid input give either `Ok` with a correct result or a typed error, never a
//! panic; a valid generated input read back gives the board it was written from.
//!
//! Expected boards come from the generator here (random walks from the goal with the public
//! board model), never from the reader under test. Case counts are bounded so the whole set
//! runs in a few seconds.

use std::path::Path;

use npuzzle::board::{Board, Goal};
use npuzzle::input;
use npuzzle::instances::{self, Layout};
use npuzzle::instances::{FileHeader, Generator, InstanceWriter};
use proptest::prelude::*;

/// A solvable board of `rows x cols` for `goal`: a random walk from the goal.
fn walk(rows: usize, cols: usize, goal: Goal, choices: &[u8]) -> Board {
    let mut b = Board::solved(rows, cols, goal);
    for &c in choices {
        let legal: Vec<_> = b.legal_moves().collect();
        let m = legal[c as usize % legal.len()];
        assert!(b.apply(m));
    }
    b
}

/// A random solvable board of 2..=5 rows and columns.
fn board(goal: Goal) -> impl Strategy<Value = Board> {
    (
        2usize..=5,
        2usize..=5,
        prop::collection::vec(any::<u8>(), 0..200),
    )
        .prop_map(move |(r, c, ch)| walk(r, c, goal, &ch))
}

fn rows_of(b: &Board) -> Vec<Vec<u32>> {
    b.tiles().chunks(b.cols()).map(|r| r.to_vec()).collect()
}

fn as_json(b: &Board) -> String {
    serde_json::to_string(&rows_of(b)).unwrap()
}

fn as_plain(b: &Board) -> String {
    rows_of(b)
        .iter()
        .map(|r| {
            let cells: Vec<String> = r.iter().map(u32::to_string).collect();
            cells.join(" ") + "\n"
        })
        .collect()
}

fn tiles_line(b: &Board) -> String {
    let t: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
    t.join(" ")
}

/// Boards in the project's instance format, written by the project's writer.
fn as_npuzzle(boards: &[Board], goal: Goal) -> String {
    let header = FileHeader {
        rows: boards[0].rows(),
        cols: boards[0].cols(),
        goal,
        generator: Generator::Uniform,
        seed: Some(1),
        count: boards.len(),
        optimal_column: false,
        reproduce: None,
    };
    let mut w = InstanceWriter::new(Vec::new(), header).unwrap();
    for (i, b) in boards.iter().enumerate() {
        w.write(&(i + 1).to_string(), None, None, b).unwrap();
    }
    String::from_utf8(w.finish().unwrap()).unwrap()
}

/// Boards in Korf's tab-separated layout (as in `data/korf100.tsv`).
fn as_korf(boards: &[Board]) -> String {
    let mut s = String::from("id\ttiles\n");
    for (i, b) in boards.iter().enumerate() {
        s += &format!("{}\t{}\n", i + 1, tiles_line(b));
    }
    s
}

/// Boards as JSON lines, one matrix per line.
fn as_json_lines(boards: &[Board]) -> String {
    boards.iter().map(|b| as_json(b) + "\n").collect()
}

/// One mutation of a text: what a damaged or hand-edited file looks like.
#[derive(Debug, Clone)]
enum Mutation {
    /// XOR one byte with a non-zero mask.
    Flip(usize, u8),
    /// Keep only a prefix.
    Truncate(usize),
    /// Insert a line of arbitrary text before line `n`.
    InsertLine(usize, String),
    /// Delete line `n`.
    DeleteLine(usize),
    /// Duplicate line `n`.
    DuplicateLine(usize),
    /// Replace the `n`th number with a huge or odd one.
    HugeNumber(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let huge = prop_oneof![
        Just("4294967296".to_string()),
        Just("18446744073709551616".to_string()),
        Just("99999999999999999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("1e400".to_string()),
        Just("0x10".to_string()),
        Just("3.0".to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
    ];
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, m)| Mutation::Flip(i, m)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), ".{0,40}").prop_map(|(i, s)| Mutation::InsertLine(i, s)),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), huge).prop_map(|(i, s)| Mutation::HugeNumber(i, s)),
    ]
}

/// Applies `m` to `text`; the result may be invalid UTF-8 (so it is bytes).
fn mutate(text: &[u8], m: &Mutation) -> Vec<u8> {
    let mut b = text.to_vec();
    let lines = |b: &[u8]| -> Vec<Vec<u8>> {
        b.split_inclusive(|&c| c == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    match m {
        Mutation::Flip(i, mask) if !b.is_empty() => {
            let n = b.len();
            b[i % n] ^= mask;
        }
        Mutation::Truncate(i) => b.truncate(i % (b.len() + 1)),
        Mutation::InsertLine(i, s) => {
            let mut ls = lines(&b);
            let at = i % (ls.len() + 1);
            ls.insert(at, format!("{s}\n").into_bytes());
            b = ls.concat();
        }
        Mutation::DeleteLine(i) | Mutation::DuplicateLine(i) => {
            let mut ls = lines(&b);
            if !ls.is_empty() {
                let at = i % ls.len();
                if matches!(m, Mutation::DeleteLine(_)) {
                    ls.remove(at);
                } else {
                    let l = ls[at].clone();
                    ls.insert(at, l);
                }
            }
            b = ls.concat();
        }
        Mutation::HugeNumber(i, s) => {
            let text = String::from_utf8_lossy(&b).into_owned();
            let spans: Vec<(usize, usize)> = number_spans(&text);
            if !spans.is_empty() {
                let (start, end) = spans[i % spans.len()];
                b = format!("{}{}{}", &text[..start], s, &text[end..]).into_bytes();
            }
        }
        Mutation::Flip(..) => {}
    }
    b
}

/// Byte ranges of the runs of ASCII digits in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// `bench solve`'s reading of a board from bytes (decode, then JSON or plain text).
fn read_board(bytes: &[u8]) -> Result<Board, input::InputError> {
    input::parse_board(input::decode(bytes)?)
}

/// An `Ok` board from a damaged input must still be a board: read back from its own JSON and
/// plain forms it is the same board (the reader's result is consistent, not half-built).
fn assert_board_consistent(b: &Board) {
    assert_eq!(b.tiles().len(), b.rows() * b.cols());
    assert_eq!(read_board(as_json(b).as_bytes()).unwrap(), *b);
    assert_eq!(read_board(as_plain(b).as_bytes()).unwrap(), *b);
}

/// Every instance of an `Ok` set has the set's size, and the set has at least one instance.
fn assert_set_consistent(set: &instances::InstanceSet) {
    for i in &set.instances {
        assert_eq!(
            (i.board.rows(), i.board.cols()),
            (set.shape.rows, set.shape.cols)
        );
        assert_eq!(i.board.tiles().len(), set.shape.rows * set.shape.cols);
    }
}

fn parse_set(text: &str) -> Result<instances::InstanceSet, instances::InstanceError> {
    instances::parse_instance_set(Path::new("prop.txt"), text, None)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(128)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn board_json_round_trips(b in board(Goal::BlankLast)) {
        prop_assert_eq!(read_board(as_json(&b).as_bytes()).unwrap(), b);
    }

    #[test]
    fn board_plain_round_trips(b in board(Goal::BlankLast)) {
        prop_assert_eq!(read_board(as_plain(&b).as_bytes()).unwrap(), b);
    }

    #[test]
    fn board_from_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(b) = read_board(&bytes) {
            assert_board_consistent(&b);
        }
    }

    #[test]
    fn board_from_arbitrary_text_never_panics(text in "[\\[\\]{}0-9 ,\\n\\t.e+-]{0,120}") {
        if let Ok(b) = read_board(text.as_bytes()) {
            assert_board_consistent(&b);
        }
    }

    #[test]
    fn board_mutated_gives_board_or_error(
        b in board(Goal::BlankLast),
        json in any::<bool>(),
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = if json { as_json(&b) } else { as_plain(&b) };
        let mut bytes = text.into_bytes();
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        if let Ok(got) = read_board(&bytes) {
            assert_board_consistent(&got);
        }
    }

    #[test]
    fn instances_npuzzle_round_trips(
        boards in (2usize..=5, 2usize..=5, prop::collection::vec(prop::collection::vec(any::<u8>(), 0..100), 1..6))
            .prop_map(|(r, c, ws)| ws.iter().map(|w| walk(r, c, Goal::BlankFirst, w)).collect::<Vec<_>>()),
    ) {
        let text = as_npuzzle(&boards, Goal::BlankFirst);
        prop_assert_eq!(instances::detect_layout(&text), Layout::Npuzzle);
        let set = parse_set(&text).unwrap();
        prop_assert_eq!(set.shape.goal, Goal::BlankFirst);
        let got: Vec<Board> = set.instances.into_iter().map(|i| i.board).collect();
        prop_assert_eq!(&got, &boards);
        if boards.len() == 1 {
            let (b, g) = instances::parse_instance_text(&text).unwrap().unwrap();
            prop_assert_eq!((b, g), (boards[0].clone(), Goal::BlankFirst));
        }
    }

    #[test]
    fn instances_korf_round_trips(
        boards in (2usize..=5, prop::collection::vec(prop::collection::vec(any::<u8>(), 0..100), 1..6))
            .prop_map(|(s, ws)| ws.iter().map(|w| walk(s, s, Goal::BlankFirst, w)).collect::<Vec<_>>()),
    ) {
        let text = as_korf(&boards);
        prop_assert_eq!(instances::detect_layout(&text), Layout::KorfTsv);
        let set = parse_set(&text).unwrap();
        prop_assert_eq!(set.shape.goal, Goal::BlankFirst);
        let got: Vec<Board> = set.instances.into_iter().map(|i| i.board).collect();
        prop_assert_eq!(&got, &boards);
    }

    #[test]
    fn instances_json_round_trips(
        boards in (2usize..=5, 2usize..=5, prop::collection::vec(prop::collection::vec(any::<u8>(), 0..100), 1..6))
            .prop_map(|(r, c, ws)| ws.iter().map(|w| walk(r, c, Goal::BlankLast, w)).collect::<Vec<_>>()),
        one_array in any::<bool>(),
    ) {
        let text = if one_array {
            let all: Vec<Vec<Vec<u32>>> = boards.iter().map(rows_of).collect();
            serde_json::to_string_pretty(&all).unwrap()
        } else {
            as_json_lines(&boards)
        };
        prop_assert_eq!(instances::detect_layout(&text), Layout::Json);
        let set = parse_set(&text).unwrap();
        prop_assert_eq!(set.shape.goal, Goal::BlankLast);
        let got: Vec<Board> = set.instances.into_iter().map(|i| i.board).collect();
        prop_assert_eq!(&got, &boards);
    }

    #[test]
    fn instances_from_arbitrary_text_never_panic(
        text in prop_oneof![
            ".{0,200}",
            "(# npuzzle-instances 1\n)?(# [a-z]{1,9}: [a-z0-9-]{0,12}\n){0,6}([a-z0-9\t ]{0,30}\n){0,6}",
            "[\\[\\]0-9 ,\\n#]{0,160}",
        ],
    ) {
        if let Ok(set) = parse_set(&text) {
            assert_set_consistent(&set);
        }
        let _ = instances::parse_instance_text(&text);
    }

    #[test]
    fn instances_mutated_give_set_or_error(
        boards in (2usize..=4, prop::collection::vec(prop::collection::vec(any::<u8>(), 0..60), 1..4))
            .prop_map(|(s, ws)| ws.iter().map(|w| walk(s, s, Goal::BlankFirst, w)).collect::<Vec<_>>()),
        format in 0u8..3,
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = match format {
            0 => as_npuzzle(&boards, Goal::BlankFirst),
            1 => as_korf(&boards),
            _ => as_json_lines(&boards),
        };
        let mut bytes = text.into_bytes();
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        // The file reader refuses bytes that are not UTF-8 (an I/O-level error); the text parser
        // gets the rest.
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(set) = parse_set(&text) {
            assert_set_consistent(&set);
        }
        let _ = instances::parse_instance_text(&text);
    }

    #[test]
    fn instance_file_reader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.tsv");
        std::fs::write(&path, &bytes).unwrap();
        if let Ok(set) = instances::read_instance_file(&path, Some(Goal::BlankLast)) {
            assert_set_consistent(&set);
        }
    }
}

/// A fixture of this module (`tests/fixtures/readers`, written by `bench run` on
/// `instances.txt`).
fn fixture(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/readers")
        .join(name);
    std::fs::read(p).unwrap()
}

fn parse_results(
    bytes: &[u8],
) -> Result<npuzzle::results::read::ResultsFile, npuzzle::results::ReadError> {
    npuzzle::results::read::parse(Path::new("prop.csv"), bytes)
}

/// The sidecar reader works on files: write `bytes` to a temporary one and read it.
fn read_meta(bytes: &[u8]) -> anyhow::Result<npuzzle::results::meta::Meta> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv.meta.json");
    std::fs::write(&path, bytes).unwrap();
    npuzzle::results::meta::Meta::read(&path)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn results_csv_line_deleted_keeps_the_other_rows(i in any::<usize>()) {
        let text = fixture("results.csv");
        let all = parse_results(&text).unwrap();
        prop_assert_eq!(all.rows.len(), 2);
        prop_assert!(all.torn.is_none());
        // Delete one data line (not the header): the other rows are read unchanged.
        let lines: Vec<&[u8]> = text.split_inclusive(|&c| c == b'\n').collect();
        let drop = 1 + i % (lines.len() - 1);
        let kept: Vec<u8> = lines
            .iter()
            .enumerate()
            .filter(|(n, _)| *n != drop)
            .flat_map(|(_, l)| l.iter().copied())
            .collect();
        let got = parse_results(&kept).unwrap();
        let want: Vec<_> = all.rows.iter().filter(|(l, _)| *l != drop as u64 + 1).map(|(_, r)| r).collect();
        let got: Vec<_> = got.rows.iter().map(|(_, r)| r).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn results_csv_from_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_results(&bytes);
    }

    #[test]
    fn results_csv_mutated_gives_rows_or_error(ms in prop::collection::vec(mutation(), 1..4)) {
        let mut bytes = fixture("results.csv");
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        if let Ok(f) = parse_results(&bytes) {
            // Never more rows than complete lines after the header.
            let lines = bytes.iter().filter(|&&b| b == b'\n').count();
            prop_assert!(f.rows.len() <= lines.saturating_sub(1) + 1);
        }
    }

    #[test]
    fn sidecar_round_trips_and_mutations_never_panic(ms in prop::collection::vec(mutation(), 0..4)) {
        let original = fixture("results.csv.meta.json");
        let want = read_meta(&original).unwrap();
        let mut bytes = original.clone();
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        let got = read_meta(&bytes);
        if ms.is_empty() {
            prop_assert_eq!(got.unwrap(), want);
        }
    }

    #[test]
    fn sidecar_from_arbitrary_bytes_never_panics(
        bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..300),
            "\\{(\"[a-z_]{1,14}\": ?(-?[0-9]{1,22}|\"[a-z]{0,5}\"|null|\\[\\]|\\{\\}),? ?){0,8}\\}"
                .prop_map(String::into_bytes),
        ],
    ) {
        let _ = read_meta(&bytes);
    }
}

/// A small database key: the 2 x 3 board, tiles `pattern` (non-empty subset of 1..=5).
fn pdb_key(pattern: &[u16], goal: Goal) -> npuzzle::heuristic::pdb::TableKey {
    npuzzle::heuristic::pdb::TableKey {
        rows: 2,
        cols: 3,
        goal,
        tiles: pattern.to_vec(),
    }
}

/// A random walk of the blank from `goal` and the moves (the walk undone) that solve it.
fn walk_and_solution(
    rows: usize,
    cols: usize,
    goal: Goal,
    choices: &[u8],
) -> (Board, Vec<npuzzle::board::Move>) {
    let mut b = Board::solved(rows, cols, goal);
    let mut walked = Vec::new();
    for &c in choices {
        let legal: Vec<_> = b.legal_moves().collect();
        let m = legal[c as usize % legal.len()];
        assert!(b.apply(m));
        walked.push(m);
    }
    let solution = walked.iter().rev().map(|m| m.inverse()).collect();
    (b, solution)
}

/// The boards from `start` along `moves`, as plain text separated by blank lines.
fn boards_answer(start: &Board, moves: &[npuzzle::board::Move]) -> String {
    let mut b = start.clone();
    let mut out = as_plain(&b);
    for &m in moves {
        assert!(b.apply(m));
        out += "\n";
        out += &as_plain(&b);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..config() })]

    #[test]
    fn pdb_file_damaged_is_refused_or_identical(
        tiles in prop::sample::subsequence(vec![1u16, 2, 3, 4, 5], 1..=3),
        ms in prop::collection::vec(mutation(), 0..3),
        appended in prop::collection::vec(any::<u8>(), 0..3),
    ) {
        use npuzzle::heuristic::pdb::store;
        let key = pdb_key(&tiles, Goal::BlankLast);
        let data = npuzzle::heuristic::pdb::build_data(&key);
        let dir = tempfile::tempdir().unwrap();
        let path = store::save(dir.path(), &key, &data).unwrap();
        prop_assert_eq!(&store::load(dir.path(), &key, data.len() as u64).unwrap(), &data);
        let mut bytes = std::fs::read(&path).unwrap();
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        bytes.extend(&appended);
        let changed = bytes != std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        match store::load(dir.path(), &key, data.len() as u64) {
            // A file read back is the table that was saved: a damaged one is never taken.
            Ok(got) => prop_assert_eq!(got, data),
            Err(_) => prop_assert!(changed, "the intact file was refused"),
        }
    }

    #[test]
    fn pdb_file_of_arbitrary_bytes_is_refused(
        tiles in prop::sample::subsequence(vec![1u16, 2, 3, 4, 5], 1..=2),
        bytes in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        use npuzzle::heuristic::pdb::store;
        let key = pdb_key(&tiles, Goal::BlankFirst);
        let entries = npuzzle::heuristic::pdb::build_data(&key).len() as u64;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(store::file_name(&key)), &bytes).unwrap();
        prop_assert!(store::load(dir.path(), &key, entries).is_err());
    }

    #[test]
    fn answer_round_trips_and_replays(
        (rows, cols, choices) in (2usize..=4, 2usize..=4, prop::collection::vec(any::<u8>(), 0..40)),
        boards_form in any::<bool>(),
    ) {
        use npuzzle::external::answer::{self, Answer};
        let (start, solution) = walk_and_solution(rows, cols, Goal::BlankLast, &choices);
        let text = if boards_form {
            boards_answer(&start, &solution)
        } else {
            npuzzle::board::moves_to_string(&solution)
        };
        if solution.is_empty() && !boards_form {
            // An empty move string is an empty answer.
            prop_assert!(answer::parse(&text, &start).is_err());
            return Ok(());
        }
        match answer::parse(&text, &start).unwrap() {
            Answer::Solution { moves, .. } => {
                prop_assert_eq!(&moves, &solution);
                prop_assert!(answer::check(&start, Goal::BlankLast, &moves).is_ok());
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn answer_mutated_is_checked_or_refused(
        (rows, cols, choices) in (2usize..=4, 2usize..=4, prop::collection::vec(any::<u8>(), 1..30)),
        boards_form in any::<bool>(),
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        use npuzzle::external::answer::{self, Answer};
        let (start, solution) = walk_and_solution(rows, cols, Goal::BlankLast, &choices);
        let text = if boards_form {
            boards_answer(&start, &solution)
        } else {
            npuzzle::board::moves_to_string(&solution)
        };
        let mut bytes = text.into_bytes();
        for m in &ms {
            bytes = mutate(&bytes, m);
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(Answer::Solution { moves, .. }) = answer::parse(&text, &start) {
            // `check` accepts exactly the answers that replay to the goal (replayed here
            // independently, move by move).
            let mut b = start.clone();
            let legal = moves.iter().all(|&m| b.apply(m));
            let reaches = legal && b.is_goal(Goal::BlankLast);
            prop_assert_eq!(answer::check(&start, Goal::BlankLast, &moves).is_ok(), reaches);
        }
    }

    #[test]
    fn answer_from_arbitrary_text_never_panics(
        text in prop_oneof![".{0,200}", "[UDLRudlr0-9, \\n{}\":a-z]{0,120}"],
        (rows, cols, choices) in (2usize..=4, 2usize..=4, prop::collection::vec(any::<u8>(), 0..30)),
    ) {
        let (start, _) = walk_and_solution(rows, cols, Goal::BlankLast, &choices);
        let _ = npuzzle::external::answer::parse(&text, &start);
    }
}
