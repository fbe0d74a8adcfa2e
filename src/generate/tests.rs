//! Unit tests of the generators: uniformity and walk properties checked against breadth-first
//! search over whole state spaces (written here, using only `Board::moved`), the published
//! census of small boards and the chi-square distribution; and generated files read back.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use super::*;
use crate::board::Move;
use crate::instances::{parse_instance_set, parse_instance_text};
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
    let set = parse_instance_set(Path::new("g.txt"), &text, None).unwrap();
    assert_eq!(
        (set.shape.rows, set.shape.cols, set.shape.goal),
        (3, 4, Goal::BlankFirst)
    );
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
        parse_instance_set(Path::new("g.txt"), &text, Some(Goal::BlankLast))
            .unwrap()
            .shape
            .goal,
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
