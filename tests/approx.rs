//! The polynomial-time solver: every board solved and replay-checked, lengths against exact
//! distances on 3 x 3, unsolvable boards rejected.

use std::collections::{HashMap, VecDeque};

use npuzzle::approx::{ApproxError, replay_reaches_goal, solve_approx};
use npuzzle::board::{Board, Goal, Move};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GOALS: [Goal; 2] = [Goal::BlankLast, Goal::BlankFirst];

/// A uniformly random solvable board: a uniform permutation, fixed up by swapping two
/// non-blank tiles when it has the wrong parity (the swap is a bijection between the
/// solvable and unsolvable halves, so the result stays uniform over the solvable ones).
fn random_board(rows: usize, cols: usize, goal: Goal, rng: &mut ChaCha8Rng) -> Board {
    let n = rows * cols;
    let mut tiles: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..=i);
        tiles.swap(i, j);
    }
    let b = Board::new(rows, cols, tiles.clone()).unwrap();
    if b.is_solvable(goal) {
        return b;
    }
    let nonblank: Vec<usize> = (0..n).filter(|&i| tiles[i] != 0).take(2).collect();
    tiles.swap(nonblank[0], nonblank[1]);
    let b = Board::new(rows, cols, tiles).unwrap();
    assert!(b.is_solvable(goal));
    b
}

/// Solves and checks with the crate's own (independent, one-byte-a-move) replay as well.
fn solve_checked(board: &Board, goal: Goal) -> u64 {
    let sol = solve_approx(board, goal)
        .unwrap_or_else(|e| panic!("{}x{} {goal}: {e}\n{board}", board.rows(), board.cols()));
    assert_eq!(sol.stats.moves, sol.moves.len());
    assert!(sol.stats.generated_moves >= sol.stats.moves);
    assert!(replay_reaches_goal(board, &sol.moves, goal));
    if sol.moves.len() <= 2_000_000 {
        let moves = sol.moves.to_vec();
        assert!(
            board.replay_reaches_goal(&moves, goal),
            "{}x{} {goal}: the solution fails Board's replay",
            board.rows(),
            board.cols()
        );
        // No move is directly undone by the next one.
        assert!(moves.windows(2).all(|w| w[1] != w[0].inverse()));
    }
    assert!(sol.moves.len() >= board.manhattan(goal));
    sol.moves.len()
}

#[test]
fn every_small_shape_is_solved_for_both_goals() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for rows in 2..=8 {
        for cols in 2..=8 {
            for goal in GOALS {
                for _ in 0..6 {
                    let b = random_board(rows, cols, goal, &mut rng);
                    solve_checked(&b, goal);
                }
            }
        }
    }
}

/// Many boards of random shapes up to 16 x 16: the rare positions of the line manoeuvres
/// (a tile or the blank in a pocket of a half-filled line) come up only over many boards.
#[test]
fn many_random_shapes_are_solved() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for i in 0..600 {
        let (rows, cols) = (rng.random_range(2..=16), rng.random_range(2..=16));
        let goal = GOALS[i % 2];
        let b = random_board(rows, cols, goal, &mut rng);
        solve_checked(&b, goal);
    }
}

#[test]
fn long_thin_and_larger_boards_are_solved() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let shapes = [
        (2, 7),
        (7, 2),
        (5, 3),
        (3, 10),
        (10, 3),
        (2, 40),
        (40, 2),
        (3, 31),
        (17, 23),
        (23, 17),
        (20, 20),
        (31, 40),
        (40, 40),
    ];
    for (rows, cols) in shapes {
        for goal in GOALS {
            for _ in 0..2 {
                let b = random_board(rows, cols, goal, &mut rng);
                solve_checked(&b, goal);
            }
        }
    }
}

#[test]
fn solved_and_one_move_boards_take_zero_and_one_moves() {
    for (rows, cols) in [(2, 2), (3, 3), (2, 9), (6, 4), (12, 12)] {
        for goal in GOALS {
            let solved = Board::solved(rows, cols, goal);
            assert_eq!(solve_checked(&solved, goal), 0);
            for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
                if let Some(b) = solved.moved(m) {
                    assert_eq!(solve_checked(&b, goal), 1, "{rows}x{cols} {goal} {m:?}");
                }
            }
        }
    }
}

/// Exact distances to the goal of every 3 x 3 position, by BFS from the goal (moves are
/// reversible, so the distance from the goal equals the distance to it).
fn exact_3x3(goal: Goal) -> HashMap<Vec<u32>, u32> {
    let start = Board::solved(3, 3, goal);
    let mut dist = HashMap::new();
    dist.insert(start.tiles().to_vec(), 0);
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

#[test]
fn lengths_on_3x3_are_never_below_the_exact_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for goal in GOALS {
        let dist = exact_3x3(goal);
        assert_eq!(dist.len(), 181_440);
        let (mut total_exact, mut total_approx) = (0u64, 0u64);
        for _ in 0..3000 {
            let b = random_board(3, 3, goal, &mut rng);
            let exact = u64::from(dist[b.tiles()]);
            let len = solve_checked(&b, goal);
            assert!(len >= exact, "{goal}: {len} < optimal {exact}\n{b}");
            // Same parity as the optimum: both reach the same position.
            assert_eq!(len % 2, exact % 2);
            total_exact += exact;
            total_approx += len;
        }
        // Hand bound: a line-by-line solver is within a small factor of optimal here.
        assert!(
            total_approx < 3 * total_exact,
            "{total_approx} vs {total_exact}"
        );
    }
}

#[test]
fn boards_whose_solution_cannot_be_stored_are_refused_up_front() {
    // 2 x 4,000,000: a long strip needs about (4/3) 8e6 * 4e6 = 4e13 moves, far beyond
    // MAX_MOVES; it must be refused with a clear error, not attempted.
    let (rows, cols) = (2, 4_000_000);
    let b = Board::solved(rows, cols, Goal::BlankLast)
        .moved(Move::Left)
        .unwrap();
    match solve_approx(&b, Goal::BlankLast) {
        Err(e @ ApproxError::TooLong { .. }) => {
            assert!(e.to_string().contains("2 x 4000000"), "{e}")
        }
        other => panic!("expected TooLong, got {other:?}"),
    }
}

#[test]
fn unsolvable_boards_are_rejected() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for (rows, cols) in [(2, 2), (3, 3), (4, 4), (3, 8), (9, 5)] {
        for goal in GOALS {
            let b = random_board(rows, cols, goal, &mut rng);
            let mut tiles = b.tiles().to_vec();
            let two: Vec<usize> = (0..tiles.len())
                .filter(|&i| tiles[i] != 0)
                .take(2)
                .collect();
            tiles.swap(two[0], two[1]);
            let bad = Board::new(rows, cols, tiles).unwrap();
            match solve_approx(&bad, goal) {
                Err(ApproxError::Unsolvable(e)) => {
                    assert!(e.to_string().contains("unsolvable"), "{e}")
                }
                other => panic!("{rows}x{cols} {goal}: expected Unsolvable, got {other:?}"),
            }
        }
    }
}
