//! Pattern databases against independent oracles: exact BFS distances over the whole space of
//! 3 x 3 and 2 x 4 (computed here, not by the library), Manhattan distance for one-tile groups,
//! and the published optimal lengths of Korf's 100 instances.

use crate::common;

use common::data_dir;

use npuzzle::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};
use npuzzle::heuristic::pdb::{self, Partition, PdbSpec, StoreError, TableKey, store};
use npuzzle::heuristic::{Heuristic, Pdb, PdbLayout};
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, solve};

/// Every database of these tests is built in memory (the disk cache has its own tests).
fn no_disk_cache() {
    pdb::set_cache_dir(None);
}

/// Exact distances of every position reachable from the goal, from the shared BFS oracle in
/// `common` (independent of the library): (positions in BFS order, distance of each).
fn exact_distances(rows: usize, cols: usize, goal: Goal) -> (Vec<Vec<u8>>, Vec<u8>) {
    let map = common::exact_distances(rows, cols, goal == Goal::BlankFirst);
    let mut all: Vec<(u8, Vec<u8>)> = map.into_iter().map(|(s, d)| (d, s)).collect();
    all.sort_unstable();
    all.into_iter().map(|(d, s)| (s, d)).unzip()
}

fn compact(s: &[u8]) -> Tiles {
    let mut t = [0u8; MAX_EXACT_CELLS];
    t[..s.len()].copy_from_slice(s);
    t
}

/// A few seeded random partitions of tiles 1..n into groups of 1 to 4 tiles.
fn random_partitions(n: usize, count: usize, mut seed: u64) -> Vec<Vec<Vec<u8>>> {
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    (0..count)
        .map(|_| {
            let mut tiles: Vec<u8> = (1..n as u8).collect();
            for i in (1..tiles.len()).rev() {
                tiles.swap(i, next() % (i + 1));
            }
            let mut groups = Vec::new();
            let mut rest = &tiles[..];
            while !rest.is_empty() {
                let k = (1 + next() % 4).min(rest.len());
                groups.push(rest[..k].to_vec());
                rest = &rest[k..];
            }
            groups
        })
        .collect()
}

/// Exact distances, computed once per (size, goal) in this test process.
fn exact(rows: usize, cols: usize, goal: Goal) -> &'static (Vec<Vec<u8>>, Vec<u8>) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<(usize, usize, Goal), &'static (Vec<Vec<u8>>, Vec<u8>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap();
    map.entry((rows, cols, goal))
        .or_insert_with(|| Box::leak(Box::new(exact_distances(rows, cols, goal))))
}

/// Checks one partition on every position: each database alone, the plain and mirrored sums
/// and the heuristic are at most the exact distance, and the incremental update agrees with a
/// fresh evaluation. With `consistent`, also that h changes by at most 1 per move (true of
/// exact and one-tile databases; databases minimised over the blank's position are admissible
/// but not consistent in general: the minimum may sit in a blank region the move cannot use).
fn check_partition(rows: usize, cols: usize, goal: Goal, spec: &PdbSpec, consistent: bool) {
    for layout in [PdbLayout::Direct, PdbLayout::Compact] {
        check_partition_in(rows, cols, goal, spec, consistent, layout);
    }
}

fn check_partition_in(
    rows: usize,
    cols: usize,
    goal: Goal,
    spec: &PdbSpec,
    consistent: bool,
    layout: PdbLayout,
) {
    let (states, dist) = exact(rows, cols, goal);
    let next = neighbour_indices(rows, cols, goal);
    let g = Geometry::new(rows, cols, goal);
    let h = Pdb::with_layout(spec, &g, layout).unwrap();
    // Every position's fresh evaluation, once: a neighbour's is looked up by its index.
    let fresh_of: Vec<_> = states.iter().map(|s| h.init(&compact(s))).collect();
    for (i, (s, &d)) in states.iter().zip(dist).enumerate() {
        let tiles = compact(s);
        let (value, memo) = fresh_of[i];
        let (plain, mirrored) = h.values(&tiles);
        let d = u32::from(d);
        for (i, &v) in plain.iter().chain(&mirrored).enumerate() {
            assert!(v <= d, "{spec} database {i}: {v} > {d} on {s:?}");
        }
        let plain_sum: u32 = plain.iter().sum();
        let mirrored_sum: u32 = mirrored.iter().sum();
        assert!(plain_sum <= d && mirrored_sum <= d, "{spec} sum on {s:?}");
        assert_eq!(value, plain_sum.max(mirrored_sum));
        assert!(value <= d, "{spec}: h {value} > distance {d} on {s:?}");
        let b = s.iter().position(|&t| t == 0).unwrap();
        for k in 0..g.neighbour_count[b] as usize {
            let q = g.neighbours[b][k] as usize;
            let mut t2 = tiles;
            let tile = t2[q];
            t2[b] = tile;
            t2[q] = 0;
            let fresh = fresh_of[next[i][k] as usize].0;
            let (inc, _) = h.update(&t2, tile, q, b, value, memo);
            assert_eq!(inc, fresh, "{spec}: incremental update differs on {s:?}");
            // With a pruning limit: exact up to the limit, else some admissible value over it.
            for limit in [0, fresh.saturating_sub(1), fresh, fresh + 1] {
                let (lazy, _) = h.update_within(&t2, tile, q, b, value, memo, limit);
                if fresh <= limit {
                    assert_eq!(lazy, fresh, "{spec}: limit {limit} on {s:?}");
                } else {
                    assert!(
                        lazy > limit && lazy <= fresh,
                        "{spec}: limit {limit} on {s:?}"
                    );
                }
            }
            if consistent {
                assert!(fresh.abs_diff(value) <= 1, "{spec}: inconsistent on {s:?}");
            }
        }
    }
}

/// For each position of [`exact`]'s list, the list index of the position each blank move
/// leads to, in the library's neighbour order; computed once per (size, goal).
fn neighbour_indices(rows: usize, cols: usize, goal: Goal) -> &'static [[u32; 4]] {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<(usize, usize, Goal), &'static [[u32; 4]]>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let (states, _) = exact(rows, cols, goal);
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap();
    map.entry((rows, cols, goal)).or_insert_with(|| {
        let g = Geometry::new(rows, cols, goal);
        let index: HashMap<&[u8], u32> = states
            .iter()
            .enumerate()
            .map(|(i, s)| (&s[..], i as u32))
            .collect();
        let next = states.iter().map(|s| {
            let b = s.iter().position(|&t| t == 0).unwrap();
            let mut out = [u32::MAX; 4];
            for (k, o) in out
                .iter_mut()
                .enumerate()
                .take(g.neighbour_count[b] as usize)
            {
                let mut t = s.clone();
                t.swap(b, g.neighbours[b][k] as usize);
                *o = index[&t[..]];
            }
            out
        });
        Box::leak(next.collect::<Vec<_>>().into_boxed_slice())
    })
}

fn groups_spec(groups: Vec<Vec<u8>>) -> PdbSpec {
    PdbSpec::new(Partition::Groups(
        groups
            .into_iter()
            .map(|g| g.into_iter().map(u16::from).collect())
            .collect(),
    ))
}

#[test]
fn full_database_on_3x3_is_the_exact_distance() {
    no_disk_cache();
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let (states, dist) = exact(3, 3, goal);
        assert_eq!(states.len(), 181_440);
        assert_eq!(*dist.iter().max().unwrap(), 31);
        let g = Geometry::new(3, 3, goal);
        for name in ["pdb:full", "pdb"] {
            let spec: PdbSpec = name.parse().unwrap();
            let h = Pdb::new(&spec, &g).unwrap();
            for (s, &d) in states.iter().zip(dist) {
                assert_eq!(h.init(&compact(s)).0, u32::from(d), "{name} {goal} {s:?}");
            }
        }
    }
}

#[test]
fn every_partition_on_3x3_is_admissible() {
    no_disk_cache();
    let mut partitions = vec![
        vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]],
        vec![vec![1, 4, 7], vec![2, 5, 8], vec![3, 6]],
        vec![vec![1, 2], vec![3, 4], vec![5, 6], vec![7, 8]],
        vec![vec![8, 1, 5, 3, 2]],
    ];
    partitions.extend(random_partitions(9, 4, 3));
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        for p in &partitions {
            check_partition(3, 3, goal, &groups_spec(p.clone()), false);
        }
        for p in &partitions[..2] {
            let mut spec = groups_spec(p.clone());
            spec.reflect = false;
            check_partition(3, 3, goal, &spec, false);
        }
        check_partition(3, 3, goal, &"pdb:full".parse().unwrap(), true);
        let singles = (1..9).map(|t| vec![t]).collect();
        check_partition(3, 3, goal, &groups_spec(singles), true);
    }
}

#[test]
fn every_partition_on_2x4_is_admissible() {
    no_disk_cache();
    let mut partitions = vec![
        vec![vec![1, 2, 3, 4], vec![5, 6, 7]],
        vec![vec![1, 2, 5, 6], vec![3, 4, 7]],
        vec![vec![1, 2], vec![3, 4], vec![5, 6, 7]],
    ];
    partitions.extend(random_partitions(8, 4, 11));
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let (_, dist) = exact(2, 4, goal);
        assert_eq!(dist.len(), 20_160);
        for p in &partitions {
            check_partition(2, 4, goal, &groups_spec(p.clone()), false);
        }
        check_partition(2, 4, goal, &"pdb".parse().unwrap(), true);
    }
}

#[test]
fn one_tile_databases_are_manhattan_distances() {
    no_disk_cache();
    for (rows, cols) in [(3, 3), (2, 4), (4, 4)] {
        let goal = Goal::BlankFirst;
        let g = Geometry::new(rows, cols, goal);
        let n = rows * cols;
        let groups: Vec<Vec<u8>> = (1..n as u8).map(|t| vec![t]).collect();
        let mut spec = groups_spec(groups);
        spec.reflect = false;
        let h = Pdb::new(&spec, &g).unwrap();
        // A fixed scrambled position: tile t on cell (t * 5) mod n (a permutation for these n).
        let mut tiles = [0u8; MAX_EXACT_CELLS];
        let step = if n % 5 == 0 { 7 } else { 5 };
        for t in 0..n {
            tiles[(t * step) % n] = t as u8;
        }
        let (plain, _) = h.values(&tiles);
        for t in 1..n {
            let c = (t * step) % n;
            let md = (c / cols).abs_diff(t / cols) + (c % cols).abs_diff(t % cols);
            assert_eq!(plain[t - 1], md as u32, "{rows}x{cols} tile {t}");
        }
    }
}

fn korf_instances() -> Vec<(usize, u32, Board)> {
    let text = std::fs::read_to_string(data_dir().join("korf100.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let tiles = cols[4]
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            (
                cols[0].parse().unwrap(),
                cols[1].parse().unwrap(),
                Board::new(4, 4, tiles).unwrap(),
            )
        })
        .collect()
}

#[test]
fn korf_instances_heuristic_never_exceeds_the_optimal_length() {
    no_disk_cache();
    let g = Geometry::new(4, 4, Goal::BlankFirst);
    let instances = korf_instances();
    assert_eq!(instances.len(), 100);
    for name in ["pdb:5-5-5", "pdb:6-6-3"] {
        let h = Pdb::new(&name.parse().unwrap(), &g).unwrap();
        assert!(h.reflects());
        let mut better_than_manhattan = 0;
        for (id, optimal, board) in &instances {
            let tiles = g.compact_tiles(board);
            let (value, _) = h.init(&tiles);
            let (plain, mirrored) = h.values(&tiles);
            assert!(plain.iter().sum::<u32>() <= *optimal, "{name} #{id}");
            assert!(mirrored.iter().sum::<u32>() <= *optimal, "{name} #{id}");
            assert!(value <= *optimal, "{name} #{id}: {value} > {optimal}");
            // Pattern databases dominate Manhattan distance (each group's moves include the
            // Manhattan moves of its tiles).
            let md = board.manhattan(Goal::BlankFirst) as u32;
            assert!(value >= md, "{name} #{id}");
            better_than_manhattan += usize::from(value > md);
        }
        assert!(
            better_than_manhattan > 50,
            "{name}: {better_than_manhattan}"
        );
    }
}

#[test]
fn idastar_with_pdb_solves_korf_instances_at_their_optimal_length() {
    no_disk_cache();
    let instances = korf_instances();
    for (name, ids) in [
        ("pdb:6-6-3", &[2usize, 9, 4, 19][..]),
        ("pdb:5-5-5", &[9, 2][..]),
    ] {
        let kind: HeuristicKind = name.parse().unwrap();
        for &id in ids {
            let (_, optimal, board) = &instances[id - 1];
            let r = solve(
                board,
                Goal::BlankFirst,
                Algorithm::Idastar,
                &kind,
                &Limits::default(),
            )
            .unwrap();
            assert_eq!(r.status, Outcome::Solved);
            let moves = r.moves.unwrap();
            assert_eq!(moves.len() as u32, *optimal, "{name} #{id}");
            assert!(board.replay_reaches_goal(&moves, Goal::BlankFirst));
        }
    }
}

#[test]
fn searches_with_pdb_on_small_boards_match_bfs() {
    no_disk_cache();
    for (rows, cols, spec) in [
        (3, 3, "pdb"),
        (2, 4, "pdb"),
        (3, 4, "pdb:1,2,3,4/5,6,7,8/9,10,11"),
    ] {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            // A fixed, reachable scramble: the goal after a walk that does not step back.
            let mut board = Board::solved(rows, cols, goal);
            let walk = "LLURDLURRDLLUURRDDLLU";
            for (i, m) in walk.chars().enumerate() {
                let m = npuzzle::Move::from_letter(m).unwrap();
                if !board.apply(m) {
                    let alt =
                        npuzzle::Move::from_letter(if i % 2 == 0 { 'R' } else { 'D' }).unwrap();
                    board.apply(alt);
                }
            }
            let bfs = solve(
                &board,
                goal,
                Algorithm::Bfs,
                &HeuristicKind::None,
                &Limits::default(),
            )
            .unwrap();
            let d = bfs.moves.unwrap().len();
            // A* keeps no memo per node for pattern databases (it rebuilds it at expansion).
            for algo in [
                Algorithm::Idastar,
                Algorithm::ParallelIdastar,
                Algorithm::Astar,
            ] {
                let r = solve(
                    &board,
                    goal,
                    algo,
                    &spec.parse().unwrap(),
                    &Limits::default(),
                )
                .unwrap();
                assert_eq!(r.moves.unwrap().len(), d, "{algo} {rows}x{cols} {goal}");
            }
        }
    }
}

fn small_key() -> TableKey {
    TableKey {
        rows: 3,
        cols: 3,
        goal: Goal::BlankLast,
        tiles: vec![1, 2, 3, 4],
    }
}

#[test]
fn cache_round_trip_and_damage_is_detected_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let key = small_key();
    let entries = 9 * 8 * 7 * 6;
    let built = pdb::obtain(&key, Some(dir.path().to_path_buf()), false);
    assert!(matches!(built.origin, pdb::Origin::BuiltAndSaved(_)));
    assert_eq!(built.data.len(), entries);
    let path = dir.path().join(store::file_name(&key));
    // Round trip.
    assert_eq!(
        store::load(dir.path(), &key, entries as u64).unwrap(),
        built.data
    );
    let loaded = pdb::obtain(&key, Some(dir.path().to_path_buf()), false);
    assert!(matches!(loaded.origin, pdb::Origin::Loaded(_)));
    assert_eq!(loaded.data, built.data);
    let good = std::fs::read(&path).unwrap();

    // One flipped byte in the table.
    let mut bad = good.clone();
    let i = bad.len() - 100;
    bad[i] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(
        store::load(dir.path(), &key, entries as u64),
        Err(StoreError::Checksum { .. })
    ));
    let rebuilt = pdb::obtain(&key, Some(dir.path().to_path_buf()), false);
    assert!(rebuilt.rejected.as_deref().unwrap().contains("checksum"));
    assert!(matches!(rebuilt.origin, pdb::Origin::BuiltAndSaved(_)));
    assert_eq!(rebuilt.data, built.data);
    assert_eq!(std::fs::read(&path).unwrap(), good);

    // Truncated.
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    assert!(matches!(
        store::load(dir.path(), &key, entries as u64),
        Err(StoreError::Length { .. })
    ));
    std::fs::write(&path, &good[..10]).unwrap();
    assert!(store::load(dir.path(), &key, entries as u64).is_err());
    let rebuilt = pdb::obtain(&key, Some(dir.path().to_path_buf()), false);
    assert!(rebuilt.rejected.is_some());
    assert_eq!(std::fs::read(&path).unwrap(), good);

    // Another format version (stale).
    let mut stale = good.clone();
    stale[8] ^= 0xFF;
    std::fs::write(&path, &stale).unwrap();
    assert!(matches!(
        store::load(dir.path(), &key, entries as u64),
        Err(StoreError::Stale { .. })
    ));
    // A header byte (the goal) changed: stale, never used.
    let mut other = good.clone();
    other[14] ^= 1;
    std::fs::write(&path, &other).unwrap();
    assert!(matches!(
        store::load(dir.path(), &key, entries as u64),
        Err(StoreError::Stale { .. })
    ));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn walking_distance_is_admissible_and_consistent_on_whole_small_spaces() {
    use npuzzle::heuristic::WalkingDistance;
    for (rows, cols) in [(3, 3), (2, 4), (4, 2)] {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let (states, dist) = exact(rows, cols, goal);
            let g = Geometry::new(rows, cols, goal);
            let h = WalkingDistance::new(&g).unwrap();
            let mut exact_hits = 0;
            for (s, &d) in states.iter().zip(dist) {
                let tiles = compact(s);
                let (value, memo) = h.init(&tiles);
                assert!(value <= u32::from(d), "{rows}x{cols} {goal} {s:?}");
                exact_hits += usize::from(value == u32::from(d));
                let b = s.iter().position(|&t| t == 0).unwrap();
                for k in 0..g.neighbour_count[b] as usize {
                    let q = g.neighbours[b][k] as usize;
                    let mut t2 = tiles;
                    let tile = t2[q];
                    t2[b] = tile;
                    t2[q] = 0;
                    let fresh = h.init(&t2).0;
                    assert_eq!(h.update(&t2, tile, q, b, value, memo).0, fresh);
                    assert!(fresh.abs_diff(value) <= 1);
                }
            }
            assert!(exact_hits > 0);
        }
    }
}

#[test]
fn walking_distance_on_korf_instances() {
    use npuzzle::heuristic::WalkingDistance;
    let g = Geometry::new(4, 4, Goal::BlankFirst);
    let h = WalkingDistance::new(&g).unwrap();
    // Takahashi's table for the 15-puzzle has 24,964 states per direction.
    assert_eq!(h.state_counts(), (24_964, 24_964));
    let instances = korf_instances();
    for (id, optimal, board) in &instances {
        let (value, _) = h.init(&g.compact_tiles(board));
        assert!(value <= *optimal, "#{id}: {value} > {optimal}");
    }
    let kind: HeuristicKind = "walking-distance".parse().unwrap();
    for id in [9usize, 2] {
        let (_, optimal, board) = &instances[id - 1];
        let r = solve(
            board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            &kind,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(r.moves.unwrap().len() as u32, *optimal, "#{id}");
    }
    let err = solve(
        &Board::solved(5, 5, Goal::BlankLast),
        Goal::BlankLast,
        Algorithm::Idastar,
        &kind,
        &Limits::default(),
    );
    assert!(err.is_err());
}

#[test]
fn a_process_builds_each_database_once() {
    no_disk_cache();
    let g = Geometry::new(3, 3, Goal::BlankFirst);
    let spec: PdbSpec = "pdb:1,2,3/4,5,6,7,8".parse().unwrap();
    let a = Pdb::new(&spec, &g).unwrap();
    let b = Pdb::new(&spec, &g).unwrap();
    // A partition sharing one group with the first reuses that table too.
    let c = Pdb::new(&"pdb:1,2,3/4,5/6,7,8".parse().unwrap(), &g).unwrap();
    let ta: Vec<_> = a.tables().collect();
    let tb: Vec<_> = b.tables().collect();
    let tc: Vec<_> = c.tables().collect();
    assert!(std::sync::Arc::ptr_eq(ta[0], tb[0]));
    assert!(std::sync::Arc::ptr_eq(ta[1], tb[1]));
    assert!(std::sync::Arc::ptr_eq(ta[0], tc[0]));
    assert!(!std::sync::Arc::ptr_eq(ta[1], tc[1]));
}

#[test]
fn blank_last_partitions_solve_rotated_korf_instances_at_their_optimal_length() {
    no_disk_cache();
    // Turning a board by 180 degrees and renaming tile t to 16 - t maps the blank-first goal
    // onto the blank-last one, so the rotated instance has the published optimal length.
    let instances = korf_instances();
    let kind: HeuristicKind = "pdb:6-6-3".parse().unwrap();
    let g = Geometry::new(4, 4, Goal::BlankLast);
    let h = Pdb::new(&"pdb:6-6-3".parse().unwrap(), &g).unwrap();
    for (id, optimal, board) in &instances {
        let mut rotated = vec![0u32; 16];
        for (c, &t) in board.tiles().iter().enumerate() {
            rotated[15 - c] = if t == 0 { 0 } else { 16 - t };
        }
        let rotated = Board::new(4, 4, rotated).unwrap();
        let (value, _) = h.init(&g.compact_tiles(&rotated));
        assert!(value <= *optimal, "#{id}");
        if [9, 2].contains(id) {
            let r = solve(
                &rotated,
                Goal::BlankLast,
                Algorithm::Idastar,
                &kind,
                &Limits::default(),
            )
            .unwrap();
            assert_eq!(r.moves.unwrap().len() as u32, *optimal, "#{id}");
        }
    }
}

#[test]
fn layout_choice_follows_table_sizes() {
    let cases = [
        (4, "pdb:6-6-3", PdbLayout::Direct),
        (4, "pdb:5-5-5", PdbLayout::Direct),
        // 16^8 = 4 G entries for the 8-tile group: compact.
        (4, "pdb:7-8", PdbLayout::Compact),
        (5, "pdb:6-6-6-6", PdbLayout::Direct),
        // One 8-tile group on 9 cells: 9^8 is 237 times 9!.
        (3, "pdb:full", PdbLayout::Compact),
    ];
    for (n, name, expected) in cases {
        let g = Geometry::new(n, n, Goal::BlankFirst);
        let spec: PdbSpec = name.parse().unwrap();
        let groups = spec.groups(&g).unwrap();
        assert_eq!(PdbLayout::widest(&g, &groups), expected, "{name}");
    }
}

/// The direct layout gives the compact layout's values (which the whole-space tests tie to
/// BFS distances) on 4 x 4 along long random walks, for both goals, with and without limits.
#[test]
fn direct_and_compact_layouts_agree_on_4x4() {
    no_disk_cache();
    for goal in [Goal::BlankFirst, Goal::BlankLast] {
        let g = Geometry::new(4, 4, goal);
        for name in ["pdb:6-6-3", "pdb:5-5-5"] {
            let spec: PdbSpec = name.parse().unwrap();
            let direct = Pdb::with_layout(&spec, &g, PdbLayout::Direct).unwrap();
            let compact = Pdb::with_layout(&spec, &g, PdbLayout::Compact).unwrap();
            assert_eq!(direct.layout(), PdbLayout::Direct);
            assert_eq!(compact.layout(), PdbLayout::Compact);
            let mut tiles = g.goal_tiles();
            let (mut hd, mut md) = direct.init(&tiles);
            let (mut hc, mut mc) = compact.init(&tiles);
            let mut blank = g.goal_cell[0] as usize;
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for step in 0..50_000u32 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let k = (seed % u64::from(g.neighbour_count[blank])) as usize;
                let next = g.neighbours[blank][k] as usize;
                let tile = tiles[next];
                tiles[blank] = tile;
                tiles[next] = 0;
                // A pruning limit on some steps: both must agree exactly up to it.
                let limit = if step % 3 == 0 {
                    hc.saturating_sub(1)
                } else {
                    u32::MAX
                };
                let (d, dm) = direct.update_within(&tiles, tile, next, blank, hd, md, limit);
                let (c, cm) = compact.update_within(&tiles, tile, next, blank, hc, mc, limit);
                let fresh = compact.init(&tiles).0;
                if fresh <= limit {
                    assert_eq!((d, c), (fresh, fresh), "{name} {goal:?} step {step}");
                } else {
                    assert!(d > limit && c > limit, "{name} {goal:?} step {step}");
                }
                // Continue the walk from exact memos (a pruned child's memo is not usable).
                if fresh <= limit {
                    (hd, md, hc, mc) = (d, dm, c, cm);
                } else {
                    (hd, md) = direct.init(&tiles);
                    (hc, mc) = compact.init(&tiles);
                }
                assert_eq!(hd, hc);
                blank = next;
            }
        }
    }
}
