//! The layered BFS against two references written here on `Board` (independent of the
//! library's search code): a plain FIFO breadth-first search over a `HashMap` for exact
//! distances, and a textbook layered BFS that follows the documented order and counting rules
//! (`src/search/bfs/`) for expanded, generated and stored counts.

use std::collections::{HashMap, HashSet, VecDeque};

use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Move, Outcome, solve};

/// A random walk of `len` blank moves from the goal (no move straight back), from a
/// SplitMix64 stream seeded with `seed`.
fn random_walk(rows: usize, cols: usize, goal: Goal, len: usize, seed: u64) -> Board {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut board = Board::solved(rows, cols, goal);
    let mut previous: Option<Move> = None;
    for _ in 0..len {
        let options: Vec<Move> = Move::KORF_ORDER
            .into_iter()
            .filter(|&m| Some(m.inverse()) != previous && board.moved(m).is_some())
            .collect();
        let m = options[(next() % options.len() as u64) as usize];
        board = board.moved(m).unwrap();
        previous = Some(m);
    }
    board
}

/// The exact distance from `start` to the goal: FIFO BFS with a map of every state seen.
fn fifo_distance(start: &Board, goal: Goal) -> usize {
    let mut dist: HashMap<Board, usize> = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        if b.is_goal(goal) {
            return d;
        }
        for m in Move::KORF_ORDER {
            if let Some(c) = b.moved(m)
                && !dist.contains_key(&c)
            {
                dist.insert(c.clone(), d + 1);
                queue.push_back(c);
            }
        }
    }
    unreachable!("a random walk's start reaches the goal")
}

/// What the textbook layered BFS reports.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    moves: usize,
    expanded: u64,
    generated: u64,
    stored_peak: u64,
}

/// A layered BFS as documented: a layer is expanded ordered by the blank's cell, then by the
/// tiles from the last cell down; each state produces its successors in Korf's order except
/// the move back to the blank's cell in its first discoverer; the goal test happens on
/// generation. Stored = states in the layers so far plus the successors produced by the
/// current layer (duplicates included), except in the layer that produces the goal.
fn textbook(start: &Board, goal: Goal) -> Counts {
    if start.is_goal(goal) {
        return Counts {
            moves: 0,
            expanded: 0,
            generated: 1,
            stored_peak: 1,
        };
    }
    let mut seen: HashSet<Board> = HashSet::from([start.clone()]);
    let mut layer: Vec<(Board, usize)> = vec![(start.clone(), start.blank())];
    let (mut expanded, mut generated, mut kept, mut peak) = (0u64, 1u64, 1u64, 0u64);
    for depth in 1.. {
        layer.sort_by(|(a, _), (b, _)| {
            a.blank()
                .cmp(&b.blank())
                .then_with(|| a.tiles().iter().rev().cmp(b.tiles().iter().rev()))
        });
        let mut next = Vec::new();
        let mut produced = 0u64;
        for (board, came_from) in &layer {
            expanded += 1;
            for m in Move::KORF_ORDER {
                let Some(child) = board.moved(m) else {
                    continue;
                };
                if child.blank() == *came_from {
                    continue;
                }
                generated += 1;
                if child.is_goal(goal) {
                    return Counts {
                        moves: depth,
                        expanded,
                        generated,
                        // The last layer's successors are counted, not stored.
                        stored_peak: peak.max(kept),
                    };
                }
                produced += 1;
                if seen.insert(child.clone()) {
                    next.push((child, board.blank()));
                }
            }
        }
        peak = peak.max(kept + produced);
        kept += next.len() as u64;
        layer = next;
    }
    unreachable!()
}

fn bfs(board: &Board, goal: Goal, limits: &Limits) -> npuzzle::SolveReport {
    solve(board, goal, Algorithm::Bfs, &HeuristicKind::None, limits).unwrap()
}

/// Boards of every packing: nibbles (<= 16 cells), u128 (<= 25), the two byte packings
/// (<= 40, <= 64), and large boards (u8 and u16 tiles), each with a walk length short
/// enough for a blind search.
const BOARDS: [(usize, usize, usize); 14] = [
    (2, 2, 8),
    (2, 3, 25),
    (3, 2, 25),
    (3, 3, 40),
    (2, 4, 40),
    (4, 2, 40),
    (4, 4, 14),
    (3, 5, 14),
    (5, 5, 12),
    (6, 6, 10),
    (8, 8, 8),
    (9, 9, 8),
    (3, 30, 8),
    (17, 17, 6),
];

#[test]
fn distances_equal_a_fifo_bfs() {
    for (rows, cols, len) in BOARDS {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            for seed in 0..4 {
                let board = random_walk(rows, cols, goal, len, seed);
                let r = bfs(&board, goal, &Limits::default());
                assert_eq!(r.status, Outcome::Solved);
                assert_eq!(
                    r.moves.unwrap().len(),
                    fifo_distance(&board, goal),
                    "{rows}x{cols} {goal:?} seed {seed}"
                );
            }
        }
    }
}

#[test]
fn whole_small_spaces_match_the_fifo_bfs() {
    // 3 x 3 random walks of every length up to beyond the radius (31).
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        for len in 0..=40 {
            for seed in 0..3 {
                let board = random_walk(3, 3, goal, len, 100 + seed);
                let r = bfs(&board, goal, &Limits::default());
                assert_eq!(r.moves.unwrap().len(), fifo_distance(&board, goal));
            }
        }
    }
}

#[test]
fn counts_equal_a_textbook_layered_bfs() {
    for (rows, cols, len) in BOARDS {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            for seed in 0..3 {
                let board = random_walk(rows, cols, goal, len, 50 + seed);
                let r = bfs(&board, goal, &Limits::default());
                let got = Counts {
                    moves: r.moves.unwrap().len(),
                    expanded: r.stats.expanded,
                    generated: r.stats.generated,
                    stored_peak: r.stats.stored_peak,
                };
                assert_eq!(
                    got,
                    textbook(&board, goal),
                    "{rows}x{cols} {goal:?} seed {seed}"
                );
            }
        }
    }
}

#[test]
fn the_goal_itself_and_one_move() {
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        for (rows, cols) in [(3, 3), (4, 4), (5, 5), (9, 9)] {
            let solved = Board::solved(rows, cols, goal);
            let r = bfs(&solved, goal, &Limits::default());
            assert_eq!((r.moves.unwrap().len(), r.stats.generated), (0, 1));
            let one = random_walk(rows, cols, goal, 1, 1);
            let r = bfs(&one, goal, &Limits::default());
            assert_eq!(r.moves.unwrap().len(), 1);
            assert_eq!(r.stats.expanded, 1);
        }
    }
}

#[test]
fn a_node_limit_stops_at_exactly_that_many_generated_nodes() {
    for (rows, cols, len) in [(4, 4, 16), (5, 5, 12), (9, 9, 8)] {
        let board = random_walk(rows, cols, Goal::BlankLast, len, 9);
        let full = textbook(&board, Goal::BlankLast);
        let limit = full.generated - 1;
        let r = bfs(
            &board,
            Goal::BlankLast,
            &Limits {
                max_nodes: Some(limit),
                ..Limits::default()
            },
        );
        assert_eq!(r.status, Outcome::NodeLimit, "{rows}x{cols}");
        assert_eq!(r.stats.generated, limit);
    }
}
