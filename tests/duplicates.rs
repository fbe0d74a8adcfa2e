//! Duplicate-path pruning (`idastar-fsm`, `idastar-par-fsm`): the automaton's pairs checked by
//! replaying them on real boards, and the pruned searches against exact BFS distances and
//! Korf's published optimal lengths and node counts.

use crate::common;

use common::{exact_distances, read_tsv};
use npuzzle::search::duplicates::MoveAutomaton;
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Move, solve};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FSM: [Algorithm; 2] = [Algorithm::IdastarFsm, Algorithm::ParallelIdastarFsm];

/// The blank's cells along `moves` from (0, 0): (min row, max row, min col, max col).
fn bounding_box(moves: &[Move]) -> (i64, i64, i64, i64) {
    let (mut r, mut c) = (0i64, 0i64);
    let mut b = (0, 0, 0, 0);
    for m in moves {
        match m {
            Move::Up => r -= 1,
            Move::Down => r += 1,
            Move::Left => c -= 1,
            Move::Right => c += 1,
        }
        b = (b.0.min(r), b.1.max(r), b.2.min(c), b.3.max(c));
    }
    b
}

#[test]
fn the_two_move_automaton_prunes_exactly_the_move_back() {
    let a = MoveAutomaton::new(2);
    assert_eq!(a.duplicates().len(), 4);
    assert!(
        a.duplicates().iter().all(|d| d.kept.is_empty()
            && d.pruned.len() == 2
            && d.pruned[1] == d.pruned[0].inverse())
    );
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut state = MoveAutomaton::START;
    let mut last: Option<Move> = None;
    for _ in 0..10_000 {
        let m = Move::KORF_ORDER[rng.random_range(0..4)];
        let next = a.step(state, m);
        assert_eq!(next == MoveAutomaton::DEAD, last == Some(m.inverse()));
        if next != MoveAutomaton::DEAD {
            state = next;
            last = Some(m);
        }
    }
}

/// Every pair, replayed on a board just large enough for the pruned string (blank placed where
/// the string starts): both strings are legal there and leave the same position, and the kept
/// one is no longer. No rejected string contains another.
#[test]
fn every_pair_reaches_the_same_position_where_the_pruned_string_fits() {
    let a = MoveAutomaton::shared();
    let dups = a.duplicates();
    for d in dups {
        let (r0, r1, c0, c1) = bounding_box(&d.pruned);
        let (k0, k1, l0, l1) = bounding_box(&d.kept);
        assert!(
            r0 <= k0 && k1 <= r1 && c0 <= l0 && l1 <= c1,
            "kept leaves the box: {d:?}"
        );
        // Boards have at least 2 rows and 2 columns.
        let (rows, cols) = ((r1 - r0 + 1).max(2) as usize, (c1 - c0 + 1).max(2) as usize);
        let start = (-r0) as usize * cols + (-c0) as usize;
        let mut tiles: Vec<u32> = (1..(rows * cols) as u32).collect();
        tiles.insert(start, 0);
        let board = Board::new(rows, cols, tiles).unwrap();
        let (mut p, mut k) = (board.clone(), board.clone());
        assert!(d.pruned.iter().all(|&m| p.apply(m)), "{d:?}");
        assert!(d.kept.iter().all(|&m| k.apply(m)), "{d:?}");
        assert_eq!(p.tiles(), k.tiles(), "{d:?}");
        assert!(
            d.kept.len() <= d.pruned.len() && d.kept != d.pruned,
            "{d:?}"
        );
    }
    let letters: Vec<String> = dups
        .iter()
        .map(|d| d.pruned.iter().map(|m| m.letter()).collect())
        .collect();
    for (i, s) in letters.iter().enumerate() {
        for (j, t) in letters.iter().enumerate() {
            assert!(i == j || !s.contains(t.as_str()), "{s} contains {t}");
        }
    }
    // Taylor & Korf's smallest example: one and a half turns round a 2 x 2 block either way.
    let has_pair = |x: &str, y: &str| {
        dups.iter().any(|d| {
            let p: String = d.pruned.iter().map(|m| m.letter()).collect();
            let k: String = d.kept.iter().map(|m| m.letter()).collect();
            (p == x && k == y) || (p == y && k == x)
        })
    };
    let (u, d, l, r) = (
        Move::Up.letter(),
        Move::Down.letter(),
        Move::Left.letter(),
        Move::Right.letter(),
    );
    let clockwise: String = [r, d, l, u, r, d].iter().collect();
    let counter: String = [d, r, u, l, d, r].iter().collect();
    assert!(
        has_pair(&clockwise, &counter),
        "{clockwise} / {counter} missing"
    );
    assert!(a.max_len() >= 10 && dups.len() > 100);
}

fn random_solvable(rows: usize, cols: usize, goal: Goal, rng: &mut ChaCha8Rng) -> Board {
    loop {
        let mut tiles: Vec<u32> = (0..(rows * cols) as u32).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, rng.random_range(0..=i));
        }
        let b = Board::new(rows, cols, tiles).unwrap();
        if b.is_solvable(goal) {
            return b;
        }
    }
}

#[test]
fn pruned_searches_return_exact_distances_on_3x3_and_2x4() {
    for (rows, cols, count) in [(3, 3, 120), (2, 4, 60)] {
        for blank_first in [false, true] {
            let goal = if blank_first {
                Goal::BlankFirst
            } else {
                Goal::BlankLast
            };
            let dist = exact_distances(rows, cols, blank_first);
            let mut rng = ChaCha8Rng::seed_from_u64(11 + u64::from(blank_first));
            for _ in 0..count {
                let board = random_solvable(rows, cols, goal, &mut rng);
                let key: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
                let want = usize::from(dist[&key]);
                for algo in FSM {
                    for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                        let r = solve(&board, goal, algo, &h, &Limits::default()).unwrap();
                        let moves = r.moves.unwrap();
                        assert_eq!(moves.len(), want, "{algo} {h} {rows}x{cols} {key:?}");
                        assert!(board.replay_reaches_goal(&moves, goal));
                    }
                }
            }
        }
    }
}

/// Korf's 100 (blank-first): the instances under 20 M published nodes at their published
/// optimal lengths, with far fewer generated nodes in total than Korf's IDA* + Manhattan.
#[test]
fn idastar_fsm_solves_korfs_instances_optimally_with_fewer_nodes() {
    let (mut ours, mut published, mut checked) = (0u64, 0u64, 0);
    for r in read_tsv("korf100.tsv") {
        let generated: u64 = r[2].parse().unwrap();
        if generated >= 20_000_000 {
            continue;
        }
        let optimal: usize = r[1].parse().unwrap();
        let tiles = r[4].split(' ').map(|t| t.parse().unwrap()).collect();
        let board = Board::new(4, 4, tiles).unwrap();
        let rep = solve(
            &board,
            Goal::BlankFirst,
            Algorithm::IdastarFsm,
            &HeuristicKind::Manhattan,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(rep.moves.unwrap().len(), optimal, "instance {}", r[0]);
        ours += rep.stats.generated;
        published += generated;
        checked += 1;
    }
    assert!(checked >= 20);
    assert!(
        ours * 10 < published * 8,
        "{ours} generated vs {published} published"
    );
}
