//! Implicit states for A*, its variants and bidirectional BFS on boards of more than 25 cells
//! (beyond the `u128` packing; see [`super::storage::IMPLICIT_ABOVE`]).
//!
//! A 6 x 6 position takes 36 bytes at a byte a cell (18 as a permutation rank), a 12 x 12 one
//! 144 (more than 100), so storing it would make every stored node cost two to several times
//! the 48 bytes a size-scaling experiment can afford. A stored node keeps instead its parent's index,
//! the move that reached it (2 bits) and 32 bits of a hash of its position; the position itself is
//! recomputed by replaying the moves from the search's root when it is needed:
//! - to expand a node ([`Replay::seek`]): a cursor keeps the last replayed path, so nodes met in
//!   the order they were created (a BFS layer) cost a few steps each, and any other node at most
//!   its depth in steps;
//! - to decide whether a generated position is a stored one ([`Replay::holds`]): the candidate's
//!   position is walked back along the stored node's moves, undoing each; it is the stored
//!   position exactly when that walk is legal and ends on the root. Duplicate detection stays
//!   exact: the hash only chooses which stored nodes are worth that walk.
//!
//! The hash is Zobrist's (Zobrist 1970): the exclusive or of one pseudo-random key per (cell,
//! tile) pair, the blank's keys zero, so a move updates it with two keys. The keys are computed
//! from the pair on demand (a mixing function) rather than tabled, which would take
//! cells x cells words.

use rustc_hash::FxHashMap;

use crate::board::Move;
use crate::geometry::{Capacity, Geometry};

/// The move with index `k` in Korf's order (up, left, right, down), the order the searches
/// store an arriving move in.
const KORF: [Move; 4] = Move::KORF_ORDER;

/// Where a node's parent and arriving move are read from: the search's node array.
pub(crate) trait Links {
    /// The parent of node `i` (`u32::MAX` at the root) and the index in Korf's order of the
    /// move that reached it (anything at the root).
    fn link(&self, i: u32) -> (u32, usize);
}

/// The moves from the root to node `i`, read from the arriving moves along its parent links.
pub(crate) fn moves_to(links: &(impl Links + ?Sized), mut i: u32) -> Vec<Move> {
    let mut moves = Vec::new();
    loop {
        let (parent, k) = links.link(i);
        if parent == u32::MAX {
            break;
        }
        moves.push(KORF[k]);
        i = parent;
    }
    moves.reverse();
    moves
}

/// The index of `m` in Korf's order (up, left, right, down).
#[inline]
pub(crate) fn korf_index(m: Move) -> usize {
    match m {
        Move::Up => 0,
        Move::Left => 1,
        Move::Right => 2,
        Move::Down => 3,
    }
}

/// The key of `tile` (not the blank) on `cell`: SplitMix64's finaliser of the pair.
#[inline]
fn key(cell: usize, tile: usize) -> u64 {
    let mut z = ((cell as u64) << 32 | tile as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash of a whole position.
pub(crate) fn hash_of<C: Capacity>(tiles: &C::Tiles, cells: usize) -> u64 {
    tiles.as_ref()[..cells]
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != C::Tile::default())
        .fold(0, |h, (c, &t)| h ^ key(c, t.into()))
}

/// The key a hash table files a node under, from the 32 bits of its hash a node keeps (the
/// low half of [`hash_of`], which moves update as well: the keys combine bit by bit). The
/// multiplication spreads them over the 64 bits the table reads its bucket and tag from.
#[inline]
pub(crate) fn table_hash(kept: u32) -> u64 {
    u64::from(kept).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The hash after `tile` moved from cell `from` to cell `to` (the blank's).
#[inline]
pub(crate) fn hash_after(hash: u64, from: usize, to: usize, tile: usize) -> u64 {
    hash ^ key(from, tile) ^ key(to, tile)
}

/// Replays stored paths from one root (see the module documentation).
pub(crate) struct Replay<C: Capacity> {
    rows: usize,
    cols: usize,
    root: C::Tiles,
    /// The nodes of the cursor's path, the root first, each with the index in Korf's order of
    /// the move it was reached by.
    path: Vec<(u32, u8)>,
    /// Where each node of `path` stands in it (kept by [`Replay::seek_any`] only).
    on_path: FxHashMap<u32, usize>,
    /// The cursor's position (the last node of `path`) and its blank.
    tiles: C::Tiles,
    blank: usize,
    /// Scratch: the nodes and moves of a path being replayed, from its end upwards.
    climb: Vec<(u32, u8)>,
}

impl<C: Capacity> Replay<C> {
    /// A replay from `root`, stored as node 0, its cursor on the root.
    pub(crate) fn new(geometry: &Geometry<C>, root: &C::Tiles) -> Replay<C> {
        Replay {
            rows: geometry.rows,
            cols: geometry.cols,
            root: *root,
            path: vec![(0, 0)],
            on_path: FxHashMap::from_iter([(0, 0)]),
            tiles: *root,
            blank: geometry.blank_of(root),
            climb: Vec::new(),
        }
    }

    /// The cell the blank reaches from `blank` by `m`; `m` is legal there.
    #[inline]
    pub(crate) fn step(&self, blank: usize, m: Move) -> usize {
        match m {
            Move::Up => blank - self.cols,
            Move::Down => blank + self.cols,
            Move::Left => blank - 1,
            Move::Right => blank + 1,
        }
    }

    /// Moves the cursor's blank by `m` (legal).
    #[inline]
    fn apply(&mut self, m: Move) {
        let next = self.step(self.blank, m);
        self.tiles[self.blank] = self.tiles[next];
        self.tiles[next] = C::Tile::default();
        self.blank = next;
    }

    /// Puts the cursor on node `i`, `depth` moves from the root, and returns its position and
    /// blank: the climb from `i` stops at the cursor's path, recognised by depth. For a search
    /// that never re-parents a node (BFS); see [`Replay::seek_any`] otherwise.
    pub(crate) fn seek(
        &mut self,
        links: &(impl Links + ?Sized),
        i: u32,
        depth: usize,
    ) -> (&C::Tiles, usize) {
        self.climb.clear();
        let (mut j, mut d) = (i, depth);
        while self.path.get(d).map(|p| p.0) != Some(j) {
            let (parent, k) = links.link(j);
            debug_assert!(parent != u32::MAX, "node {i} is not {depth} moves deep");
            self.climb.push((j, k as u8));
            j = parent;
            d -= 1;
        }
        self.descend(d)
    }

    /// [`Replay::seek`] for a search that may re-parent nodes (A*): the climb from `i` stops
    /// at the first node on the cursor's path, whatever its depth. The cursor's path keeps the
    /// moves it was replayed with, so a node re-parented since is still undone correctly (a
    /// node's position never changes, only the path recorded to it).
    pub(crate) fn seek_any(&mut self, links: &(impl Links + ?Sized), i: u32) -> (&C::Tiles, usize) {
        self.climb.clear();
        let mut j = i;
        let d = loop {
            if let Some(&d) = self.on_path.get(&j) {
                break d;
            }
            let (parent, k) = links.link(j);
            self.climb.push((j, k as u8));
            j = parent;
        };
        for &(node, _) in &self.path[d + 1..] {
            self.on_path.remove(&node);
        }
        self.descend(d);
        for (n, &(node, _)) in self.path.iter().enumerate().skip(d + 1) {
            self.on_path.insert(node, n);
        }
        (&self.tiles, self.blank)
    }

    /// Undoes the cursor's path below its entry `d`, then replays `climb` (collected from the
    /// target upwards) down from there.
    fn descend(&mut self, d: usize) -> (&C::Tiles, usize) {
        while self.path.len() > d + 1 {
            let (_, k) = self.path.pop().expect("the path holds the root");
            self.apply(KORF[usize::from(k)].inverse());
        }
        for n in (0..self.climb.len()).rev() {
            let (node, k) = self.climb[n];
            self.apply(KORF[usize::from(k)]);
            self.path.push((node, k));
        }
        (&self.tiles, self.blank)
    }

    /// The cursor's position (see [`Replay::seek`]).
    pub(crate) fn tiles(&self) -> &C::Tiles {
        &self.tiles
    }

    /// Whether node `i` holds the child of position `at` where the tile on `from` slid to the
    /// blank's cell `to`.
    #[inline]
    pub(crate) fn holds_child(
        &self,
        links: &(impl Links + ?Sized),
        i: u32,
        at: &C::Tiles,
        from: usize,
        to: usize,
    ) -> bool {
        let mut t = *at;
        t[to] = t[from];
        t[from] = C::Tile::default();
        self.holds(links, i, t, from)
    }

    /// Whether node `i` holds `tiles` (blank on `blank`): `tiles` walked back along node
    /// `i`'s moves, each undone, must stay on the board and end on the root.
    pub(crate) fn holds(
        &self,
        links: &(impl Links + ?Sized),
        i: u32,
        mut t: C::Tiles,
        blank: usize,
    ) -> bool {
        let (mut r, mut c) = (blank / self.cols, blank % self.cols);
        let mut j = i;
        loop {
            let (parent, k) = links.link(j);
            if parent == u32::MAX {
                break;
            }
            // Undo the arriving move: the blank goes back the opposite way.
            let (nr, nc) = match KORF[k].inverse() {
                Move::Up if r > 0 => (r - 1, c),
                Move::Down if r + 1 < self.rows => (r + 1, c),
                Move::Left if c > 0 => (r, c - 1),
                Move::Right if c + 1 < self.cols => (r, c + 1),
                _ => return false,
            };
            let (from, to) = (r * self.cols + c, nr * self.cols + nc);
            t[from] = t[to];
            t[to] = C::Tile::default();
            (r, c) = (nr, nc);
            j = parent;
        }
        t == self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::geometry::Large;

    type C = Large<u8, 128>;

    /// A tree of random walks from the goal of a 9 x 9 board, each node's position kept
    /// beside its link (the oracle), in BFS order.
    struct Tree {
        links: Vec<(u32, usize)>,
        tiles: Vec<[u8; 128]>,
        depth: Vec<usize>,
    }

    impl Links for Tree {
        fn link(&self, i: u32) -> (u32, usize) {
            self.links[i as usize]
        }
    }

    fn tree(geometry: &Geometry<C>, layers: usize) -> Tree {
        let root = geometry.goal_tiles();
        let mut t = Tree {
            links: vec![(u32::MAX, 0)],
            tiles: vec![root],
            depth: vec![0],
        };
        let mut seed = 11u64;
        let (mut first, mut end) = (0, 1);
        for d in 1..=layers {
            for p in first..end {
                let tiles = t.tiles[p];
                let blank = geometry.blank_of(&tiles);
                for k in 0..usize::from(geometry.neighbour_count[blank]) {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    if (seed >> 60) < 6 {
                        continue; // keep the tree small
                    }
                    let next: usize = geometry.neighbours[blank][k].into();
                    let mut child = tiles;
                    child[blank] = child[next];
                    child[next] = 0;
                    t.links
                        .push((p as u32, korf_index(geometry.neighbour_move[blank][k])));
                    t.tiles.push(child);
                    t.depth.push(d);
                }
            }
            (first, end) = (end, t.tiles.len());
        }
        t
    }

    #[test]
    fn replays_reach_every_node_and_holds_is_exact() {
        let geometry = Geometry::<C>::build(9, 9, Goal::BlankLast);
        let t = tree(&geometry, 9);
        assert!(t.tiles.len() > 200);
        let root = geometry.goal_tiles();
        let mut bfs = Replay::new(&geometry, &root);
        for i in 0..t.tiles.len() {
            let (tiles, blank) = bfs.seek(&t, i as u32, t.depth[i]);
            assert_eq!(*tiles, t.tiles[i]);
            assert_eq!(blank, geometry.blank_of(&t.tiles[i]));
        }
        let mut any = Replay::new(&geometry, &root);
        let n = t.tiles.len();
        for step in 0..3 * n {
            let i = (step * 7919) % n;
            let (tiles, _) = any.seek_any(&t, i as u32);
            assert_eq!(*tiles, t.tiles[i]);
        }
        for i in (0..n).step_by(3) {
            for j in (0..n).step_by(5) {
                let b = geometry.blank_of(&t.tiles[j]);
                assert_eq!(
                    any.holds(&t, i as u32, t.tiles[j], b),
                    t.tiles[i] == t.tiles[j]
                );
            }
            assert_eq!(moves_to(&t, i as u32).len(), t.depth[i]);
        }
    }

    #[test]
    fn the_hash_follows_moves() {
        let geometry = Geometry::<C>::build(9, 9, Goal::BlankFirst);
        let t = tree(&geometry, 5);
        for i in 1..t.tiles.len() {
            let (p, _) = t.links[i];
            let before = &t.tiles[p as usize];
            let from = geometry.blank_of(&t.tiles[i]);
            let to = geometry.blank_of(before);
            let tile = usize::from(before[from]);
            assert_eq!(
                hash_after(hash_of::<C>(before, 81), from, to, tile),
                hash_of::<C>(&t.tiles[i], 81)
            );
        }
    }
}
