//! Pattern databases on boards of more than 64 cells, checked against oracles written here:
//! a plain IDA* with Manhattan distance (exact lengths), the grid distance (1-tile patterns),
//! a 0-1 breadth-first search over the abstract 2-tile space, and the CLI's exit status.

use std::collections::VecDeque;

use assert_cmd::Command;
use npuzzle::geometry::{Geometry, Large};
use npuzzle::heuristic::pdb::{self, TableKey, large};
use npuzzle::heuristic::{self, HeuristicKind};
use npuzzle::{Algorithm, Board, Goal, Limits, Outcome, SolveError, solve};
use predicates::prelude::*;

use crate::common;

use common::large::{goal_tiles, neighbours, random_walk};

fn goal_cells(cells: usize, goal: Goal) -> Vec<usize> {
    let mut out = vec![0; cells];
    for (c, &t) in goal_tiles(cells, goal).iter().enumerate() {
        out[t as usize] = c;
    }
    out
}

fn manhattan(tiles: &[u16], cols: usize, goal_cell: &[usize]) -> usize {
    tiles
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(c, &t)| {
            let g = goal_cell[t as usize];
            (c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols)
        })
        .sum()
}

/// The exact distance to the goal by a plain IDA* with Manhattan distance from scratch.
fn exact_distance(rows: usize, cols: usize, start: &[u16], goal: Goal) -> usize {
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        tiles: &mut Vec<u16>,
        blank: usize,
        parent: usize,
        g: usize,
        bound: usize,
        dims: (usize, usize),
        goal_cell: &[usize],
        next: &mut usize,
    ) -> bool {
        let h = manhattan(tiles, dims.1, goal_cell);
        if h == 0 {
            return true;
        }
        if g + h > bound {
            *next = (*next).min(g + h);
            return false;
        }
        for n in neighbours(blank, dims.0, dims.1) {
            if n == parent {
                continue;
            }
            tiles.swap(blank, n);
            let found = dfs(tiles, n, blank, g + 1, bound, dims, goal_cell, next);
            tiles.swap(blank, n);
            if found {
                return true;
            }
        }
        false
    }
    let goal_cell = goal_cells(rows * cols, goal);
    let mut tiles = start.to_vec();
    let blank = tiles.iter().position(|&t| t == 0).unwrap();
    let mut bound = manhattan(&tiles, cols, &goal_cell);
    loop {
        let mut next = usize::MAX;
        if dfs(
            &mut tiles,
            blank,
            usize::MAX,
            0,
            bound,
            (rows, cols),
            &goal_cell,
            &mut next,
        ) {
            return bound;
        }
        bound = next;
    }
}

fn board(rows: usize, cols: usize, tiles: &[u16]) -> Board {
    Board::new(rows, cols, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap()
}

fn pdb_auto() -> HeuristicKind {
    "pdb".parse().unwrap()
}

/// pdb:auto with IDA* and A* returns the exact length on 20- to 30-move walks of 9 x 9 and
/// 3 x 30 (both goals); along the solution, the estimate never exceeds the remaining exact
/// distance and never falls below Manhattan distance (each group's entry is at least its
/// tiles' grid distances).
#[test]
fn auto_pdb_is_exact_and_admissible_on_large_boards() {
    pdb::set_cache_dir(None);
    type C = Large<u8, 128>;
    for (rows, cols) in [(9, 9), (3, 30)] {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let geometry = Geometry::<C>::build(rows, cols, goal);
            let built = heuristic::build(&pdb_auto(), &geometry).unwrap();
            let goal_cell = goal_cells(rows * cols, goal);
            for (i, len) in [20, 25, 30].into_iter().enumerate() {
                let start = random_walk(rows, cols, goal, len, 7 + i as u64);
                let d = exact_distance(rows, cols, &start, goal);
                let b = board(rows, cols, &start);
                let mut path = None;
                for a in [Algorithm::Idastar, Algorithm::Astar] {
                    let report = solve(&b, goal, a, &pdb_auto(), &Limits::default())
                        .unwrap_or_else(|e| panic!("{a} on {rows} x {cols}: {e}"));
                    assert_eq!(report.status, Outcome::Solved);
                    let moves = report.moves.unwrap();
                    assert_eq!(
                        moves.len(),
                        d,
                        "{a} + pdb on {rows} x {cols} {goal} walk {len}"
                    );
                    assert!(report.initial_h.unwrap() as usize <= d);
                    path = Some(moves);
                }
                let mut pos = b.clone();
                for (k, m) in path.unwrap().iter().enumerate() {
                    let tiles: Vec<u16> = pos.tiles().iter().map(|&t| t as u16).collect();
                    let h = built.estimate(&geometry, &geometry.compact_tiles(&pos)) as usize;
                    assert!(h <= d - k, "pdb {h} > exact {} on {rows} x {cols}", d - k);
                    assert!(h >= manhattan(&tiles, cols, &goal_cell));
                    assert!(pos.apply(*m));
                }
                assert!(pos.is_goal(goal));
            }
        }
    }
}

/// User groups on a large board (tiles left out count 0) and on a board of more than 256
/// cells (tiles beyond 255) solve exactly too (short walks: these few groups are weak).
#[test]
fn user_groups_on_large_boards() {
    pdb::set_cache_dir(None);
    let h: HeuristicKind = "pdb:1,2,10/11,12:noreflect".parse().unwrap();
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let start = random_walk(9, 9, goal, 12, 3);
        let d = exact_distance(9, 9, &start, goal);
        let report = solve(
            &board(9, 9, &start),
            goal,
            Algorithm::Idastar,
            &h,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(report.moves.unwrap().len(), d);
    }
    let h: HeuristicKind = "pdb:280,281/1".parse().unwrap();
    let start = random_walk(17, 17, Goal::BlankLast, 10, 5);
    let d = exact_distance(17, 17, &start, Goal::BlankLast);
    let report = solve(
        &board(17, 17, &start),
        Goal::BlankLast,
        Algorithm::Idastar,
        &h,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(report.moves.unwrap().len(), d);
}

/// A database of one tile holds the tile's grid distance from its goal cell (the rank of a
/// single cell is the cell).
#[test]
fn one_tile_entries_are_grid_distances() {
    for (rows, cols, tile) in [
        (9, 9, 40u16),
        (9, 9, 1),
        (3, 30, 47),
        (30, 3, 89),
        (17, 17, 288),
    ] {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let n = rows * cols;
            let g = goal_cells(n, goal)[tile as usize];
            let data = pdb::build_data(&TableKey {
                rows,
                cols,
                goal,
                tiles: vec![tile],
            });
            assert_eq!(data.len(), n);
            for (c, &v) in data.iter().enumerate() {
                let expected = (c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols);
                assert_eq!(
                    v as usize, expected,
                    "tile {tile} on cell {c}, {rows} x {cols}"
                );
            }
        }
    }
}

/// A 2-tile database on 9 x 9 equals a 0-1 breadth-first search written here over (cell of
/// the first tile, cell of the second, blank cell): blank moves onto other cells cost 0, onto
/// a pattern tile 1; an entry is the minimum over the blank's cells.
#[test]
fn two_tile_entries_match_an_abstract_breadth_first_search() {
    let (rows, cols) = (9, 9);
    let n = rows * cols;
    for (goal, tiles) in [
        (Goal::BlankLast, [1u16, 2]),
        (Goal::BlankLast, [80, 72]),
        (Goal::BlankFirst, [10, 41]),
    ] {
        let gc = goal_cells(n, goal);
        let index = |a: usize, b: usize, blank: usize| (a * n + b) * n + blank;
        let mut dist = vec![u32::MAX; n * n * n];
        let start = index(gc[tiles[0] as usize], gc[tiles[1] as usize], gc[0]);
        dist[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let (a, b, blank) = (s / (n * n), (s / n) % n, s % n);
            for q in neighbours(blank, rows, cols) {
                let (next, cost) = if q == a {
                    (index(blank, b, q), 1)
                } else if q == b {
                    (index(a, blank, q), 1)
                } else {
                    (index(a, b, q), 0)
                };
                if dist[s] + cost < dist[next] {
                    dist[next] = dist[s] + cost;
                    if cost == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
        let data = pdb::build_data(&TableKey {
            rows,
            cols,
            goal,
            tiles: tiles.to_vec(),
        });
        assert_eq!(data.len(), n * (n - 1));
        for a in 0..n {
            for b in (0..n).filter(|&b| b != a) {
                let expected = (0..n)
                    .filter(|&x| x != a && x != b)
                    .map(|x| dist[index(a, b, x)])
                    .min()
                    .unwrap();
                // The k-permutation rank of (a, b).
                let r = a * (n - 1) + b - usize::from(a < b);
                assert_eq!(
                    u32::from(data[r]),
                    expected,
                    "tiles {tiles:?} on cells {a}, {b}"
                );
            }
        }
    }
}

/// The automatic partition on large boards: consecutive tiles, the documented group sizes.
#[test]
fn automatic_partition_on_large_boards() {
    for (rows, cols, k, groups) in [
        (9, 9, 3, 27),
        (10, 10, 3, 33),
        (3, 30, 3, 30),
        (16, 16, 2, 128),
    ] {
        let keys = pdb::table_keys_for(
            &"pdb".parse().unwrap(),
            npuzzle::board::Shape::new(rows, cols, Goal::BlankLast),
        )
        .unwrap();
        assert_eq!(keys.len(), groups, "{rows} x {cols}");
        assert_eq!(keys[0].tiles, (1..=k as u16).collect::<Vec<_>>());
        assert_eq!(large::auto_group_size(rows * cols), k);
    }
}

/// Groups too large for memory, the full database and the 4 x 4 standard partitions are
/// refused with a message naming the spec to change; the CLI exits non-zero without a panic.
#[test]
fn groups_too_large_are_refused_clearly() {
    pdb::set_cache_dir(None);
    let b = board(9, 9, &random_walk(9, 9, Goal::BlankLast, 6, 1));
    for (spec, expected) in [
        ("pdb:1,2,3,4,5,6", "use smaller groups"),
        ("pdb:full", "use pdb:auto"),
        ("pdb:6-6-3", "defined for 4 x 4"),
        ("pdb:1,2/2,3", "tile 2 is in two groups"),
        ("pdb:1,81", "tile 81 is not a tile"),
    ] {
        let h: HeuristicKind = spec.parse().unwrap();
        let e = solve(
            &b,
            Goal::BlankLast,
            Algorithm::Idastar,
            &h,
            &Limits::default(),
        )
        .unwrap_err();
        assert!(matches!(e, SolveError::Heuristic(_)), "{spec}: {e}");
        assert!(e.to_string().contains(expected), "{spec}: {e}");
    }
    let text: String = random_walk(9, 9, Goal::BlankLast, 6, 1)
        .chunks(9)
        .map(|row| row.iter().map(u16::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    Command::cargo_bin("bench")
        .unwrap()
        .args([
            "solve",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb:1,2,3,4,5,6",
        ])
        .env("NPUZZLE_PDB_DIR", "off")
        .write_stdin(text)
        .assert()
        .code(predicate::in_iter([1, 2]))
        .stderr(
            predicate::str::contains("use smaller groups")
                .and(predicate::str::contains("panicked").not()),
        );
    Command::cargo_bin("bench")
        .unwrap()
        .args(["pdb", "build", "pdb:1,2,3,4,5,6", "--size", "9x9"])
        .env("NPUZZLE_PDB_DIR", "off")
        .assert()
        .code(predicate::in_iter([1, 2]))
        .stderr(predicate::str::contains("use smaller groups"));
}

/// `bench pdb build` on a large board builds, stores and reloads the databases (the wide
/// header for a board of more than 256 cells), and says which groups the automatic
/// partition chose.
#[test]
fn cli_builds_and_reloads_large_databases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for (spec, size, file) in [
        ("pdb:1,2/79,80", "9x9", "9x9-blank-last-79-80.pdb"),
        ("pdb:280,281/3", "17x17", "17x17-blank-last-280-281.pdb"),
    ] {
        let args = [spec, "--size", size, "--pdb-dir", d];
        Command::cargo_bin("bench")
            .unwrap()
            .args(["pdb", "build"])
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("built, saved").count(2));
        assert!(dir.path().join(file).exists());
        Command::cargo_bin("bench")
            .unwrap()
            .args(["pdb", "verify", "--rebuild"])
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("2 of 2 databases valid"));
    }
    Command::cargo_bin("bench")
        .unwrap()
        .args(["pdb", "info", "--size", "9x9", "--pdb-dir", d])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("27 databases")
                .and(predicate::str::contains("groups of 3 tiles"))
                .and(predicate::str::contains("tiles 79,80:")),
        );
}
