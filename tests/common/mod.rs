//! Test oracles written independently of the library's search code: a plain breadth-first
//! enumeration of a whole state space on `Vec<u8>` positions, and helpers to find the data.
#![allow(dead_code)]

use std::collections::HashMap;
use std::collections::VecDeque;
use std::path::PathBuf;

/// The folder of published benchmark data committed with the repository (`data/`, sources in
/// `data/README.md`): a plain clone needs nothing beside it.
pub fn data_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data"));
    assert!(
        dir.is_dir(),
        "the benchmark data is expected in {} (committed with the repository)",
        dir.display()
    );
    dir
}

/// Reads a tab-separated data file into rows of fields (header skipped).
pub fn read_tsv(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("data file");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The solved position as a tile list: blank last (`1..n, 0`) or blank first (`0..n`).
pub fn goal_tiles(cells: usize, blank_first: bool) -> Vec<u8> {
    if blank_first {
        (0..cells as u8).collect()
    } else {
        (1..cells as u8).chain([0]).collect()
    }
}

/// Exact distances to the goal of every reachable position of a `rows` x `cols` board, by BFS
/// backwards from the goal (moves are reversible, so distances to and from the goal agree).
pub fn exact_distances(rows: usize, cols: usize, blank_first: bool) -> HashMap<Vec<u8>, u8> {
    let goal = goal_tiles(rows * cols, blank_first);
    let mut dist = HashMap::new();
    dist.insert(goal.clone(), 0u8);
    let mut queue = VecDeque::from([goal]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / cols, b % cols);
        let mut next = Vec::with_capacity(4);
        if r > 0 {
            next.push(b - cols);
        }
        if r + 1 < rows {
            next.push(b + cols);
        }
        if c > 0 {
            next.push(b - 1);
        }
        if c + 1 < cols {
            next.push(b + 1);
        }
        for n in next {
            let mut t = s.clone();
            t.swap(b, n);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    dist
}

/// Calls `f` on every permutation of `0..n` (Heap's algorithm).
pub fn for_each_permutation(n: usize, mut f: impl FnMut(&[u8])) {
    let mut a: Vec<u8> = (0..n as u8).collect();
    let mut c = vec![0usize; n];
    f(&a);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            f(&a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// Positions as `Vec<u16>` tile lists, for boards of any size (more than 255 cells included).
pub mod large {
    /// The goal position as a tile list.
    use npuzzle::Goal;

    pub fn goal_tiles(cells: usize, goal: Goal) -> Vec<u16> {
        match goal {
            Goal::BlankFirst => (0..cells as u16).collect(),
            Goal::BlankLast => (1..cells as u16).chain([0]).collect(),
        }
    }

    /// The blank's neighbours in Korf's order (up, left, right, down).
    pub fn neighbours(cell: usize, rows: usize, cols: usize) -> Vec<usize> {
        let (r, c) = (cell / cols, cell % cols);
        let mut out = Vec::new();
        if r > 0 {
            out.push(cell - cols);
        }
        if c > 0 {
            out.push(cell - 1);
        }
        if c + 1 < cols {
            out.push(cell + 1);
        }
        if r + 1 < rows {
            out.push(cell + cols);
        }
        out
    }

    /// A random walk of `len` blank moves from the goal (no move straight back), from a
    /// SplitMix64 stream seeded with `seed`.
    pub fn random_walk(rows: usize, cols: usize, goal: Goal, len: usize, seed: u64) -> Vec<u16> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut tiles = goal_tiles(rows * cols, goal);
        let mut blank = tiles.iter().position(|&t| t == 0).unwrap();
        let mut previous = usize::MAX;
        for _ in 0..len {
            let options: Vec<usize> = neighbours(blank, rows, cols)
                .into_iter()
                .filter(|&n| n != previous)
                .collect();
            let to = options[(next() % options.len() as u64) as usize];
            tiles.swap(blank, to);
            previous = blank;
            blank = to;
        }
        tiles
    }
}
