//! Pattern databases on boards of more than 64 cells.
//!
//! The same databases as on small boards (additive, the blank outside the pattern, entries
//! ranked as k-permutations of the cells, one byte each, built by a backward breadth-first
//! search over (placement, blank region), shared process-wide and cached on disk), with what
//! changes when a board no longer fits a 64-bit mask:
//!
//! - **Build** ([`build`]): a frontier list per level instead of a scan of 2-bit codes. The
//!   blank's region in a placement is named by the pattern tiles it touches: slot `4 j + d` is
//!   the cell next to pattern tile `j` in direction `d` (up, left, right, down). Every region
//!   touches a pattern tile (the board is connected), so a region is a set of slots, and the
//!   build keeps two slot masks per placement (queued, expanded) instead of one bit per cell.
//!   Groups have at most [`MAX_LARGE_GROUP`] tiles (32 slots).
//! - **Automatic partition** ([`groups`]): groups of `k` consecutive tiles in goal order
//!   (row by row), `k` the largest (at most [`MAX_AUTO_K`]) for which one table stays within
//!   [`super::spec::AUTO_BUDGET_BYTES`] to build and all tables together within
//!   [`AUTO_TOTAL_BYTES`]: 3 tiles on 9 x 9 to 12 x 12 and 3 x 30, 2 on 16 x 16, 1 (Manhattan
//!   distance) from about 22 x 22 on. No limit on the number of groups.
//! - **Lookup** ([`LargePdb`]): the memo carries the cell of every tile (a position of the
//!   capacity) and the plain and mirrored sums; a move re-ranks the moved tile's group
//!   (and its mirrored group) before and after the move, so no per-group values are stored.
//!   Monomorphised for the capacity like the other heuristics.

use std::sync::Arc;

use rayon::prelude::*;

use super::spec::{AUTO_BUDGET_BYTES, MAX_BUILD_BYTES, MAX_ENTRIES, Partition, PdbSpec};
use super::table::{UNREACHED, entries, rank_of_cells};
use super::{Table, TableKey, table as shared_table};
use crate::board::Goal;
use crate::geometry::{Capacity, Geometry, TileInt};
use crate::heuristic::{Heuristic, HeuristicError};

/// The most tiles in one group on a large board (4 slots per tile in a 32-bit mask).
pub const MAX_LARGE_GROUP: usize = 8;

/// The largest group the automatic partition uses on a large board.
pub const MAX_AUTO_K: usize = 4;

/// The automatic partition keeps all its tables together within this many bytes (one byte
/// per entry): 256 MiB.
pub const AUTO_TOTAL_BYTES: u64 = 256 << 20;

/// Bytes the build of a `k`-tile database with `entries` entries needs: the table, two
/// 32-bit slot masks per entry and the frontier lists (8 bytes per queued state; a level
/// holds at most about one state per entry).
pub fn build_bytes(entries: u64) -> u64 {
    entries.saturating_mul(1 + 8 + 16)
}

/// The tile groups of `spec` on a `rows` x `cols` board of more than 64 cells, each group's
/// tiles in ranking order.
pub fn groups(
    spec: &PdbSpec,
    rows: usize,
    cols: usize,
    goal: Goal,
) -> Result<Vec<Vec<u16>>, HeuristicError> {
    let n = rows * cols;
    let not_for = |why: String| HeuristicError::NotForSize {
        name: spec.to_string(),
        rows,
        cols,
        why,
    };
    let groups = match &spec.partition {
        Partition::Auto => return Ok(auto_groups(rows, cols, goal)),
        Partition::Full => {
            return Err(not_for(format!(
                "the full database would have {n}!/1 entries; use pdb:auto or groups of at \
                 most {MAX_LARGE_GROUP} tiles"
            )));
        }
        Partition::Standard(s) => {
            return Err(not_for(format!(
                "the standard {} partition is defined for {} x {} boards; use pdb:auto or \
                 tile groups",
                s.name(),
                s.side(),
                s.side()
            )));
        }
        Partition::Groups(groups) => groups.clone(),
    };
    let mut seen = vec![false; n];
    for gr in &groups {
        for &t in gr {
            if t == 0 || usize::from(t) >= n {
                return Err(not_for(format!(
                    "tile {t} is not a tile of this board (expected 1..={})",
                    n - 1
                )));
            }
            if seen[usize::from(t)] {
                return Err(not_for(format!("tile {t} is in two groups")));
            }
            seen[usize::from(t)] = true;
        }
    }
    for (i, gr) in groups.iter().enumerate() {
        let e = entries(n, gr.len()).unwrap_or(u64::MAX);
        if gr.len() > MAX_LARGE_GROUP || e > MAX_ENTRIES || build_bytes(e) > MAX_BUILD_BYTES {
            return Err(not_for(format!(
                "group {} has {} tiles: its database needs {e} entries ({} MB to build) on \
                 {n} cells, at most {} MB and {MAX_LARGE_GROUP} tiles per group are allowed; \
                 use smaller groups in the pdb:... spec (or pdb:auto)",
                i + 1,
                gr.len(),
                build_bytes(e) >> 20,
                MAX_BUILD_BYTES >> 20
            )));
        }
    }
    Ok(groups)
}

/// The group size of the automatic partition on `n` cells (see the module documentation).
pub fn auto_group_size(n: usize) -> usize {
    let fits = |k: usize| {
        entries(n, k).is_some_and(|e| {
            build_bytes(e) <= AUTO_BUDGET_BYTES
                && ((n - 1).div_ceil(k) as u64).saturating_mul(e) <= AUTO_TOTAL_BYTES
        })
    };
    let mut k = 1;
    while k < MAX_AUTO_K && k + 1 < n && fits(k + 1) {
        k += 1;
    }
    k
}

fn auto_groups(rows: usize, cols: usize, goal: Goal) -> Vec<Vec<u16>> {
    let n = rows * cols;
    let k = auto_group_size(n);
    let tiles: Vec<u16> = (0..n)
        .map(|c| goal.tile_at(c, n) as u16)
        .filter(|&t| t != 0)
        .collect();
    tiles.chunks(k).map(<[u16]>::to_vec).collect()
}

/// The inverse of [`rank_of_cells`]: the cells of the placement of rank `r` of `k` tiles.
pub fn unrank(n: usize, k: usize, mut r: usize, cells: &mut [u16; MAX_LARGE_GROUP]) {
    let mut digits = [0usize; MAX_LARGE_GROUP];
    for i in (0..k).rev() {
        let radix = n - i;
        digits[i] = r % radix;
        r /= radix;
    }
    // The earlier cells in increasing order: digit i counts the free cells below cell i.
    let mut used = [0u16; MAX_LARGE_GROUP];
    for i in 0..k {
        let mut p = digits[i];
        let mut at = 0;
        while at < i && usize::from(used[at]) <= p {
            p += 1;
            at += 1;
        }
        used.copy_within(at..i, at + 1);
        used[at] = p as u16;
        cells[i] = p as u16;
    }
}

/// No neighbour in this direction.
const NO: u32 = u32::MAX;

/// Every cell's neighbours in the slot directions: up, left, right, down (the opposite of
/// direction `d` is `3 - d`), [`NO`] off the board.
fn slot_neighbours(rows: usize, cols: usize) -> Vec<[u32; 4]> {
    (0..rows * cols)
        .map(|c| {
            let (r, col) = (c / cols, c % cols);
            [
                if r > 0 { (c - cols) as u32 } else { NO },
                if col > 0 { (c - 1) as u32 } else { NO },
                if col + 1 < cols { (c + 1) as u32 } else { NO },
                if r + 1 < rows { (c + cols) as u32 } else { NO },
            ]
        })
        .collect()
}

/// Whether no two of `cells` (on a `rows` x `cols` board) touch, diagonally included. On a
/// board of at least 2 x 2 the other cells are then one region: a removed cell whose eight
/// neighbours are all free can be walked around through them (a ring, cut to a path at the
/// border), so no path between free cells needs it.
fn isolated(cells: &[u16], rows: usize, cols: usize) -> bool {
    rows >= 2
        && cols >= 2
        && cells.iter().enumerate().all(|(i, &a)| {
            let (ra, ca) = (usize::from(a) / cols, usize::from(a) % cols);
            cells[i + 1..].iter().all(|&b| {
                let (rb, cb) = (usize::from(b) / cols, usize::from(b) % cols);
                ra.abs_diff(rb) > 1 || ca.abs_diff(cb) > 1
            })
        })
}

/// Builds the database of the pattern `tiles` (each `1..cells`, distinct, at most
/// [`MAX_LARGE_GROUP`]) on a `rows` x `cols` board (any size): entry `i` is the fewest moves
/// of pattern tiles that bring the placement of rank `i` to the goal, the blank moving freely
/// through the other cells.
pub fn build(rows: usize, cols: usize, goal: Goal, tiles: &[u16]) -> Vec<u8> {
    let n = rows * cols;
    let k = tiles.len();
    assert!((1..=MAX_LARGE_GROUP).contains(&k), "checked by groups()");
    let size = entries(n, k).expect("database size checked by groups()") as usize;
    let nb = slot_neighbours(rows, cols);
    let mut table = vec![UNREACHED; size];
    let mut queued = vec![0u32; size];
    let mut expanded = vec![0u32; size];
    // owner[c]: 1 + the pattern tile on cell c, 0 if none (set per expanded placement).
    let mut owner = vec![0u8; n];
    let mut stamp = vec![0u32; n];
    let mut generation = 0u32;
    let mut stack: Vec<u32> = Vec::with_capacity(n);

    let goal_cells: Vec<u16> = tiles
        .iter()
        .map(|&t| goal.cell_of(usize::from(t), n) as u16)
        .collect();
    let r0 = rank_of_cells(n, &goal_cells);
    table[r0] = 0;
    // A queued state: its rank, the slot it was reached through (NO_SLOT for the start) and
    // the blank's cell.
    const NO_SLOT: u64 = 0xFF;
    let pack = |r: usize, slot: u64, cell: usize| ((r as u64) << 24) | (slot << 16) | cell as u64;
    let mut frontier = vec![pack(r0, NO_SLOT, goal.cell_of(0, n))];
    let mut cells = [0u16; MAX_LARGE_GROUP];
    let mut level = 0u32;
    while !frontier.is_empty() {
        let value = (level + 1).min(u32::from(UNREACHED - 1)) as u8;
        let mut next = Vec::new();
        for &e in &frontier {
            let (r, slot, blank) = ((e >> 24) as usize, (e >> 16) & 0xFF, (e & 0xFFFF) as usize);
            // The region was expanded already (reached through another of its slots).
            if slot != NO_SLOT && expanded[r] & (1 << slot) != 0 {
                continue;
            }
            unrank(n, k, r, &mut cells);
            for (j, &c) in cells[..k].iter().enumerate() {
                owner[usize::from(c)] = j as u8 + 1;
            }
            // The free slots of the placement: the flood stops once it has seen them all.
            let mut free = 0u32;
            for (j, &c) in cells[..k].iter().enumerate() {
                for (d, &q) in nb[usize::from(c)].iter().enumerate() {
                    if q != NO && owner[q as usize] == 0 {
                        free |= 1 << (4 * j + d);
                    }
                }
            }
            // The blank's region and the slots it touches: every free slot when no two
            // pattern tiles touch (the free cells are then one region), else a flood fill.
            let slots = if isolated(&cells[..k], rows, cols) {
                free
            } else {
                generation = generation.wrapping_add(1);
                if generation == 0 {
                    stamp.fill(0);
                    generation = 1;
                }
                let mut slots = 0u32;
                stamp[blank] = generation;
                stack.clear();
                stack.push(blank as u32);
                while let Some(c) = stack.pop() {
                    for (d, &q) in nb[c as usize].iter().enumerate() {
                        if q == NO {
                            continue;
                        }
                        let o = owner[q as usize];
                        if o != 0 {
                            slots |= 1 << (4 * u32::from(o - 1) + (3 - d as u32));
                        } else if stamp[q as usize] != generation {
                            stamp[q as usize] = generation;
                            stack.push(q);
                        }
                    }
                    if slots == free {
                        break;
                    }
                }
                slots
            };
            if expanded[r] & slots == 0 {
                expanded[r] |= slots;
                queued[r] |= slots;
                let mut m = slots;
                while m != 0 {
                    let s = m.trailing_zeros();
                    m &= m - 1;
                    let (j, d) = ((s / 4) as usize, (s % 4) as usize);
                    let from = cells[j];
                    let to = nb[usize::from(from)][d];
                    let mut moved = cells;
                    moved[j] = to as u16;
                    let r2 = rank_of_cells(n, &moved[..k]);
                    // In the new placement the blank is on `from`, next to tile j in the
                    // opposite direction.
                    let s2 = 4 * j + 3 - d;
                    if queued[r2] & (1 << s2) == 0 {
                        queued[r2] |= 1 << s2;
                        if table[r2] == UNREACHED {
                            table[r2] = value;
                        }
                        next.push(pack(r2, s2 as u64, usize::from(from)));
                    }
                }
            }
            for &c in &cells[..k] {
                owner[usize::from(c)] = 0;
            }
        }
        frontier = next;
        level += 1;
    }
    table
}

/// Sentinel in the per-tile group tables: the tile is in no group.
const NONE: u32 = u32::MAX;

/// The per-node memo of [`LargePdb`]: the cell of every tile and the two sums.
pub struct LargeMemo<C: Capacity> {
    cells: C::Tiles,
    sum: u32,
    mirrored_sum: u32,
}

impl<C: Capacity> Clone for LargeMemo<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Capacity> Copy for LargeMemo<C> {}

/// Additive pattern databases on a board of more than 64 cells, capacity `C`.
#[derive(Debug, Clone)]
pub struct LargePdb<C: Capacity> {
    cells: usize,
    groups: Vec<Vec<u16>>,
    tables: Vec<Arc<Table>>,
    /// Group `i`'s tiles are `tiles[start[i]..start[i + 1]]`; its mirrored lookup reads the
    /// cells of `mirror_tiles[start[i]..start[i + 1]]`, mirrored.
    start: Vec<usize>,
    tiles: Vec<C::Tile>,
    mirror_tiles: Vec<C::Tile>,
    group_of: C::Table<u32>,
    mirror_group_of: C::Table<u32>,
    mirror_cell: C::Table<C::Tile>,
    reflect: bool,
}

impl<C: Capacity> LargePdb<C> {
    /// Builds (or loads, or takes from this process) the databases of `spec` for `g`; the
    /// groups' tables are obtained in parallel.
    pub fn new(spec: &PdbSpec, g: &Geometry<C>) -> Result<LargePdb<C>, HeuristicError> {
        let groups = groups(spec, g.rows, g.cols, g.goal)?;
        let n = g.cells;
        let reflect = spec.reflect && g.rows == g.cols;
        let tables: Vec<Arc<Table>> = groups
            .par_iter()
            .map(|gr| {
                shared_table(&TableKey {
                    rows: g.rows,
                    cols: g.cols,
                    goal: g.goal,
                    tiles: gr.clone(),
                })
            })
            .collect();
        let mut mirror_cell = C::table(n, C::Tile::default());
        for c in 0..n {
            mirror_cell[c] = C::Tile::from_index(if reflect {
                g.col(c) * g.cols + g.row(c)
            } else {
                c
            });
        }
        // Mirroring maps the goal onto itself once tile t is renamed to the tile whose goal
        // cell is the mirror of t's goal cell (an involution).
        let relabel = |t: usize| g.goal.tile_at(mirror_cell[g.goal.cell_of(t, n)].into(), n);
        let mut start = vec![0];
        let mut tiles = Vec::new();
        let mut mirror_tiles = Vec::new();
        let mut group_of = C::table(n, NONE);
        let mut mirror_group_of = C::table(n, NONE);
        for (i, gr) in groups.iter().enumerate() {
            for &t in gr {
                let t = usize::from(t);
                tiles.push(C::Tile::from_index(t));
                group_of[t] = i as u32;
                let src = relabel(t);
                mirror_tiles.push(C::Tile::from_index(src));
                mirror_group_of[src] = i as u32;
            }
            start.push(tiles.len());
        }
        Ok(LargePdb {
            cells: n,
            groups,
            tables,
            start,
            tiles,
            mirror_tiles,
            group_of,
            mirror_group_of,
            mirror_cell,
            reflect,
        })
    }

    /// The tile groups in use.
    pub fn groups(&self) -> &[Vec<u16>] {
        &self.groups
    }

    /// Whether the mirrored lookups are used.
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    /// The tables (one per group).
    pub fn tables(&self) -> &[Arc<Table>] {
        &self.tables
    }

    /// The values of each database for a position: plain and (if reflecting) mirrored.
    pub fn values(&self, tiles: &C::Tiles) -> (Vec<u32>, Vec<u32>) {
        let pos = self.positions(tiles);
        let plain = (0..self.groups.len())
            .map(|i| u32::from(self.value(i, &pos, false)))
            .collect();
        let mirrored = if self.reflect {
            (0..self.groups.len())
                .map(|i| u32::from(self.value(i, &pos, true)))
                .collect()
        } else {
            Vec::new()
        };
        (plain, mirrored)
    }

    fn positions(&self, tiles: &C::Tiles) -> C::Tiles {
        let mut pos = C::zero_tiles();
        for c in 0..self.cells {
            pos[tiles[c].into()] = C::Tile::from_index(c);
        }
        pos
    }

    /// The entry of group `i` (mirrored or not) when tile `t` is on `pos[t]`.
    #[inline(always)]
    fn value(&self, i: usize, pos: &C::Tiles, mirrored: bool) -> u8 {
        let (s, e) = (self.start[i], self.start[i + 1]);
        let mut cells = [0u16; MAX_LARGE_GROUP];
        if mirrored {
            for (c, &t) in cells.iter_mut().zip(&self.mirror_tiles[s..e]) {
                *c = self.mirror_cell[pos[t.into()].into()].into() as u16;
            }
        } else {
            for (c, &t) in cells.iter_mut().zip(&self.tiles[s..e]) {
                *c = pos[t.into()].into() as u16;
            }
        }
        self.tables[i].data[rank_of_cells(self.cells, &cells[..e - s])]
    }
}

impl<C: Capacity> Heuristic<C> for LargePdb<C> {
    type Memo = LargeMemo<C>;

    fn init(&self, tiles: &C::Tiles) -> (u32, LargeMemo<C>) {
        let cells = self.positions(tiles);
        let (plain, mirrored) = self.values(tiles);
        let memo = LargeMemo {
            cells,
            sum: plain.iter().sum(),
            mirrored_sum: mirrored.iter().sum(),
        };
        (memo.sum.max(memo.mirrored_sum), memo)
    }

    #[inline(always)]
    fn update(
        &self,
        tiles: &C::Tiles,
        tile: C::Tile,
        from: usize,
        to: usize,
        h: u32,
        memo: LargeMemo<C>,
    ) -> (u32, LargeMemo<C>) {
        self.update_within(tiles, tile, from, to, h, memo, u32::MAX)
    }

    #[inline(always)]
    fn update_within(
        &self,
        _tiles: &C::Tiles,
        tile: C::Tile,
        _from: usize,
        to: usize,
        _h: u32,
        mut memo: LargeMemo<C>,
        limit: u32,
    ) -> (u32, LargeMemo<C>) {
        let t = tile.into();
        let gi = self.group_of[t];
        let mi = if self.reflect {
            self.mirror_group_of[t]
        } else {
            NONE
        };
        let old = (gi != NONE).then(|| self.value(gi as usize, &memo.cells, false));
        let old_mirrored = (mi != NONE).then(|| self.value(mi as usize, &memo.cells, true));
        memo.cells[t] = C::Tile::from_index(to);
        if let Some(old) = old {
            let v = self.value(gi as usize, &memo.cells, false);
            memo.sum = memo.sum + u32::from(v) - u32::from(old);
        }
        // The plain sum alone already prunes: the mirrored sum stays stale, which is allowed
        // because this memo is not used.
        if memo.sum > limit {
            return (memo.sum, memo);
        }
        if let Some(old) = old_mirrored {
            let v = self.value(mi as usize, &memo.cells, true);
            memo.mirrored_sum = memo.mirrored_sum + u32::from(v) - u32::from(old);
        }
        (memo.sum.max(memo.mirrored_sum), memo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrank_inverts_rank_on_a_large_board() {
        let n = 90;
        let k = 3;
        let mut seen = vec![false; entries(n, k).unwrap() as usize];
        for a in 0..n as u16 {
            for b in (0..n as u16).filter(|&b| b != a) {
                for c in [0u16, 1, 45, 88, 89]
                    .into_iter()
                    .filter(|&c| c != a && c != b)
                {
                    let r = rank_of_cells(n, &[a, b, c]);
                    assert!(!seen[r]);
                    seen[r] = true;
                    let mut cells = [0u16; MAX_LARGE_GROUP];
                    unrank(n, k, r, &mut cells);
                    assert_eq!(&cells[..3], &[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn the_frontier_build_matches_the_bit_parallel_one_on_small_boards() {
        for (rows, cols, goal, tiles) in [
            (4, 4, Goal::BlankLast, vec![1u16, 2, 3]),
            (4, 4, Goal::BlankFirst, vec![5u16, 9, 6, 10]),
            (3, 5, Goal::BlankLast, vec![7u16, 1]),
            (2, 6, Goal::BlankFirst, vec![11u16, 3, 4]),
            (8, 8, Goal::BlankLast, vec![1u16, 9, 10]),
            (1, 12, Goal::BlankLast, vec![3u16, 7]),
        ] {
            let g = Geometry::new(rows, cols, goal);
            let small: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
            let (expected, _) = super::super::table::build(&g, &small);
            assert_eq!(
                build(rows, cols, goal, &tiles),
                expected,
                "{rows} x {cols} {goal} {tiles:?}"
            );
        }
    }

    #[test]
    fn auto_group_sizes_follow_the_memory_rule() {
        assert_eq!(auto_group_size(81), 3);
        assert_eq!(auto_group_size(100), 3);
        assert_eq!(auto_group_size(90), 3);
        assert_eq!(auto_group_size(144), 3);
        assert_eq!(auto_group_size(256), 2);
        assert_eq!(auto_group_size(900), 1);
    }
}
