//! Whole state spaces, enumerated by the independent BFS in `common`, against published
//! tables; and solvability and heuristics checked on every state of them.

use crate::common;

use common::{exact_distances, for_each_permutation, read_tsv};
use npuzzle::geometry::{Geometry, MAX_EXACT_CELLS, Small, Tiles};
use npuzzle::heuristic::{self, Heuristic, HeuristicKind};
use npuzzle::{Board, Goal, with_heuristic};

fn goal_of(blank_first: bool) -> Goal {
    if blank_first {
        Goal::BlankFirst
    } else {
        Goal::BlankLast
    }
}

fn compact(s: &[u8]) -> Tiles {
    let mut t = [0u8; MAX_EXACT_CELLS];
    t[..s.len()].copy_from_slice(s);
    t
}

#[test]
fn eight_puzzle_depth_distribution_matches_the_published_table() {
    let expected: Vec<(usize, usize)> = read_tsv("8puzzle_depths.tsv")
        .iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    for blank_first in [false, true] {
        let dist = exact_distances(3, 3, blank_first);
        assert_eq!(dist.len(), 181_440);
        let mut counts = vec![0usize; 32];
        for &d in dist.values() {
            counts[d as usize] += 1;
        }
        assert_eq!(*dist.values().max().unwrap(), 31);
        assert_eq!(counts[31], 2);
        for (d, n) in &expected {
            assert_eq!(counts[*d], *n, "depth {d}");
        }
    }
}

/// For each small census size: the reachable count and radius match `census.tsv`, and the
/// parity rule agrees with reachability on every permutation, for both goals.
#[test]
fn solvability_agrees_with_reachability_on_every_permutation() {
    let census = read_tsv("census.tsv");
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
        let row = census
            .iter()
            .find(|r| {
                let (a, b): (usize, usize) = (r[0].parse().unwrap(), r[1].parse().unwrap());
                (a, b) == (rows.min(cols), rows.max(cols))
            })
            .expect("census row");
        let states: usize = row[2].parse().unwrap();
        let max_depth: u8 = row[3].parse().unwrap();
        let at_max: usize = row[4].parse().unwrap();
        for blank_first in [false, true] {
            let goal = goal_of(blank_first);
            let dist = exact_distances(rows, cols, blank_first);
            assert_eq!(dist.len(), states, "{rows}x{cols}");
            let radius = *dist.values().max().unwrap();
            assert_eq!(radius, max_depth, "{rows}x{cols}");
            assert_eq!(dist.values().filter(|&&d| d == radius).count(), at_max);
            let mut solvable = 0;
            for_each_permutation(rows * cols, |p| {
                let board =
                    Board::new(rows, cols, p.iter().map(|&t| u32::from(t)).collect()).unwrap();
                let reachable = dist.contains_key(p);
                assert_eq!(board.is_solvable(goal), reachable, "{rows}x{cols} {p:?}");
                assert_eq!(board.check_solvable(goal).is_ok(), reachable);
                solvable += usize::from(reachable);
            });
            assert_eq!(solvable, states);
        }
    }
}

/// On every 3 x 3 (and 2 x 4) state: each heuristic is admissible and consistent, the
/// incremental update equals a recount, and linear conflict >= Manhattan >= misplaced.
#[test]
fn heuristics_are_admissible_consistent_and_ordered_on_whole_spaces() {
    for (rows, cols) in [(3, 3), (2, 4)] {
        for blank_first in [false, true] {
            let goal = goal_of(blank_first);
            let geometry = Geometry::new(rows, cols, goal);
            let dist = exact_distances(rows, cols, blank_first);
            let kinds = [
                HeuristicKind::Misplaced,
                HeuristicKind::Manhattan,
                HeuristicKind::LinearConflict,
            ];
            let built: Vec<_> = kinds
                .iter()
                .map(|k| heuristic::build(k, &geometry).unwrap())
                .collect();
            for (state, &d) in &dist {
                let tiles = compact(state);
                let values: Vec<u32> = built
                    .iter()
                    .map(|b| b.estimate(&geometry, &tiles))
                    .collect();
                assert!(
                    values[0] <= values[1] && values[1] <= values[2],
                    "{state:?}"
                );
                assert!(
                    values[2] <= u32::from(d),
                    "linear conflict {state:?}: {values:?} > {d}"
                );
                if d == 0 {
                    assert_eq!(values, vec![0, 0, 0]);
                }
                let blank = geometry.blank_of(&tiles);
                for k in 0..geometry.neighbour_count[blank] as usize {
                    let next = geometry.neighbours[blank][k] as usize;
                    let mut after = tiles;
                    let tile = after[next];
                    after[blank] = tile;
                    after[next] = 0;
                    for (b, &before) in built.iter().zip(&values) {
                        let now = b.estimate(&geometry, &after);
                        assert!(now.abs_diff(before) <= 1, "inconsistent on {state:?}");
                        let updated = with_heuristic!(Small, b, h => {
                            let (h0, m0) = Heuristic::<Small>::init(h, &tiles);
                            Heuristic::<Small>::update(h, &after, tile, next, blank, h0, m0).0
                        });
                        assert_eq!(updated, now, "incremental update on {state:?}");
                    }
                }
            }
        }
    }
}
