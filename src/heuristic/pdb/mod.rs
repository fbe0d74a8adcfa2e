//! Additive disjoint pattern databases (Korf & Felner 2002).
//!
//! The tiles are split into disjoint groups; the database of a group holds, for every placement
//! of its tiles, the fewest moves *of those tiles* needed to bring them home (other tiles move
//! for free). Since no move is counted twice, the sum over the groups is admissible. On square
//! boards the position is also looked up mirrored about the main diagonal (with the tiles
//! relabelled so that the goal maps onto itself) and the larger sum is used.
//!
//! Inside IDA* a move changes one tile, so [`Pdb::update`](super::Heuristic::update) looks up
//! only that tile's database (and its mirrored one); the memo carries the per-database values.
//!
//! Tables are shared process-wide ([`table`]): a batch of jobs builds or loads each database
//! once. Building goes through the disk cache of [`store`].

pub mod large;
mod spec;
pub mod store;
pub mod table;

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub use spec::{MAX_GROUPS, Partition, PdbSpec, Standard};
pub use store::{StoreError, cache_dir, set_cache_dir};

use super::{Heuristic, HeuristicError};
use crate::board::{Goal, Shape};
use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};

/// What identifies one database: board size, goal and the group's tiles (in ranking order).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The goal layout.
    pub goal: Goal,
    /// The pattern tiles (`u16`: boards of more than 256 cells have tiles beyond 255).
    pub tiles: Vec<u16>,
}

/// Where a table came from when it was first needed in this process.
#[derive(Debug, Clone)]
pub enum Origin {
    /// Read from this cache file.
    Loaded(PathBuf),
    /// Built, and stored in this cache file.
    BuiltAndSaved(PathBuf),
    /// Built; not stored (no cache directory, or the write failed: the reason).
    BuiltOnly(String),
}

/// One database in memory.
pub struct Table {
    /// What it is.
    pub key: TableKey,
    /// One byte per entry (see [`table`] for the index).
    pub data: Vec<u8>,
    /// How it was obtained.
    pub origin: Origin,
    /// Wall time to build or load it.
    pub elapsed: Duration,
    /// Why an existing cache file was rejected, if one was.
    pub rejected: Option<String>,
    /// The same entries in the direct layout ([`table::spread_direct`]), made when a search first
    /// asks for it.
    direct: OnceLock<Arc<Vec<u8>>>,
}

impl Table {
    /// The entries in the direct layout of [`table::direct_index`] (made once, in parallel).
    pub fn direct(&self) -> Arc<Vec<u8>> {
        self.direct
            .get_or_init(|| {
                let n = self.key.rows * self.key.cols;
                Arc::new(table::spread_direct(n, self.key.tiles.len(), &self.data))
            })
            .clone()
    }
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("key", &self.key)
            .field("entries", &self.data.len())
            .field("origin", &self.origin)
            .finish()
    }
}

type Slot = Arc<OnceLock<Arc<Table>>>;

fn registry() -> &'static Mutex<HashMap<TableKey, Slot>> {
    static REG: OnceLock<Mutex<HashMap<TableKey, Slot>>> = OnceLock::new();
    REG.get_or_init(Default::default)
}

/// The databases [`Pdb::new`] uses for `spec` on `g`, one per group in group order: what
/// `bench pdb build` prepares so that a later run only loads them.
pub fn table_keys(spec: &PdbSpec, g: &Geometry) -> Result<Vec<TableKey>, HeuristicError> {
    Ok(spec
        .groups(g)?
        .into_iter()
        .map(|tiles| TableKey {
            rows: g.rows,
            cols: g.cols,
            goal: g.goal,
            tiles: tiles.into_iter().map(u16::from).collect(),
        })
        .collect())
}

/// [`table_keys`] for a board of any size: the databases [`Pdb::new`] (at most 64 cells) or
/// [`large::LargePdb::new`] (more) uses for `spec` on boards of `shape`.
pub fn table_keys_for(spec: &PdbSpec, shape: Shape) -> Result<Vec<TableKey>, HeuristicError> {
    let Shape { rows, cols, goal } = shape;
    if shape.cells() <= MAX_EXACT_CELLS {
        return table_keys(spec, &Geometry::new(rows, cols, goal));
    }
    Ok(large::groups(spec, rows, cols, goal)?
        .into_iter()
        .map(|tiles| TableKey {
            rows,
            cols,
            goal,
            tiles,
        })
        .collect())
}

/// Builds the entries of the database `key` (no cache): the bit-parallel build of
/// [`table::build`] on boards of at most 64 cells, [`large::build`] beyond.
pub fn build_data(key: &TableKey) -> Vec<u8> {
    if key.rows * key.cols <= MAX_EXACT_CELLS {
        let g = Geometry::new(key.rows, key.cols, key.goal);
        let tiles: Vec<u8> = key.tiles.iter().map(|&t| t as u8).collect();
        table::build(&g, &tiles).0
    } else {
        large::build(key.rows, key.cols, key.goal, &key.tiles)
    }
}

/// The database `key`, from this process's tables, else the disk cache, else built (and then
/// stored). Concurrent callers asking for the same database wait for one build.
pub fn table(key: &TableKey) -> Arc<Table> {
    let slot = {
        let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
        reg.entry(key.clone()).or_default().clone()
    };
    slot.get_or_init(|| {
        let dir = cache_dir();
        let t = obtain(key, dir.clone(), false);
        // Said once per database and process: a rebuilt cache file, or one that cannot be kept.
        if let Some(reason) = &t.rejected {
            eprintln!("warning: pattern database cache: {reason}; rebuilt it");
        }
        if let (Some(dir), Origin::BuiltOnly(reason)) = (&dir, &t.origin) {
            eprintln!(
                "warning: pattern database {} could not be saved in {} ({reason}); it will be \
                 built again next time (--pdb-dir or $NPUZZLE_PDB_DIR choose another directory)",
                store::file_name(key),
                dir.display()
            );
        }
        Arc::new(t)
    })
    .clone()
}

/// Loads `key` from `dir` (if any) or builds it; with `force`, always builds (and stores).
pub fn obtain(key: &TableKey, dir: Option<PathBuf>, force: bool) -> Table {
    let start = Instant::now();
    let entries =
        table::entries(key.rows * key.cols, key.tiles.len()).expect("checked by PdbSpec::groups");
    let mut rejected = None;
    if let Some(dir) = &dir
        && !force
    {
        match store::load(dir, key, entries) {
            Ok(data) => {
                return Table {
                    key: key.clone(),
                    data,
                    origin: Origin::Loaded(dir.join(store::file_name(key))),
                    elapsed: start.elapsed(),
                    rejected: None,
                    direct: OnceLock::new(),
                };
            }
            Err(StoreError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            }
            Err(e) => rejected = Some(e.to_string()),
        }
    }
    let data = build_data(key);
    store::advise_huge_pages(&data);
    let origin = match &dir {
        Some(dir) => match store::save(dir, key, &data) {
            Ok(path) => Origin::BuiltAndSaved(path),
            Err(e) => Origin::BuiltOnly(e.to_string()),
        },
        None => Origin::BuiltOnly("no cache directory".into()),
    };
    Table {
        key: key.clone(),
        data,
        origin,
        elapsed: start.elapsed(),
        rejected,
        direct: OnceLock::new(),
    }
}

/// Sentinel in `group_of` for tiles in no group.
const NONE: u8 = u8::MAX;

/// One lookup: a database and which tiles' cells (optionally mirrored) index it.
#[derive(Debug, Clone)]
struct Lookup {
    /// `tiles[..k]`: the tiles of the current position whose cells form the index.
    tiles: [u8; MAX_EXACT_CELLS],
    k: usize,
    table: Arc<Table>,
    /// The table in the direct layout; empty unless the heuristic uses that layout.
    direct: Arc<Vec<u8>>,
}

/// The most groups the direct layout supports: the memo's 64 bytes hold one 4-byte index per
/// plain and per mirrored lookup.
pub const MAX_DIRECT_GROUPS: usize = 8;

/// How far the direct layout may exceed the compact one (`n^k` against `n!/(n-k)!` entries)
/// before it is not worth its memory: 6 of 25 cells is 1.9 times, 6 of 16 is 2.9 times; the
/// 8 tiles of 4 x 4's 7-8 (4 G entries) and the full 3 x 3 database (237 times) stay compact.
const MAX_DIRECT_RATIO: u64 = 8;

/// How the lookups find their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layout {
    /// Rank the pattern tiles' cells per lookup and read the compact table (`n!/(n-k)!`
    /// entries, as stored on disk).
    Compact,
    /// Keep each lookup's direct index ([`table::direct_index`]) in the memo, update it with
    /// one multiply-add per move and read a spread copy of the table (`n^k` entries): no
    /// ranking per node, at up to [`MAX_DIRECT_RATIO`] times the memory.
    Direct,
}

/// The per-node memo: where the lookups stand, the value of every database, plain and
/// mirrored, and their sums. `slots` holds, in the compact layout, the cell of every tile (a
/// lookup then reads only its own tiles' cells instead of scanning the board); in the direct
/// layout, the direct index of every lookup as 4 bytes (plain lookup `i` at slot `i`, mirrored
/// lookup `i` at slot `MAX_DIRECT_GROUPS + i`).
#[derive(Debug, Clone, Copy)]
pub struct PdbMemo {
    slots: [u8; MAX_EXACT_CELLS],
    values: [u8; MAX_GROUPS],
    mirrored: [u8; MAX_GROUPS],
    sum: u32,
    mirrored_sum: u32,
}

/// The additive pattern-database heuristic for one board size and goal.
#[derive(Debug, Clone)]
pub struct Pdb {
    cells: usize,
    groups: Vec<Vec<u8>>,
    plain: Vec<Lookup>,
    /// Empty unless reflection is on.
    mirror_lookups: Vec<Lookup>,
    /// `group_of[t]`: the lookup tile `t` belongs to, or [`NONE`].
    group_of: [u8; MAX_EXACT_CELLS],
    mirror_group_of: [u8; MAX_EXACT_CELLS],
    /// The cell mirrored about the main diagonal.
    mirror_cell: [u8; MAX_EXACT_CELLS],
    reflect: bool,
    layout: Layout,
    /// Direct layout: `coef[t]`, the weight `n^(k-1-j)` of tile `t` (slot `j` of its plain
    /// lookup) in that lookup's index; `mirror_coef[t]` the same in its mirrored lookup.
    coef: [u32; MAX_EXACT_CELLS],
    mirror_coef: [u32; MAX_EXACT_CELLS],
}

impl Layout {
    /// The layout [`Pdb::new`] uses for these groups on `g`: direct if there are at most
    /// [`MAX_DIRECT_GROUPS`] and every direct table is within [`table::MAX_DIRECT_ENTRIES`]
    /// and [`MAX_DIRECT_RATIO`] times its compact size, else compact.
    pub fn widest(g: &Geometry, groups: &[Vec<u8>]) -> Layout {
        let fits = groups.len() <= MAX_DIRECT_GROUPS
            && groups
                .iter()
                .all(|gr| table::direct_entries(g.cells, gr.len(), MAX_DIRECT_RATIO).is_some());
        if fits {
            Layout::Direct
        } else {
            Layout::Compact
        }
    }
}

impl PdbMemo {
    #[inline(always)]
    fn index(&self, slot: usize) -> usize {
        let at = 4 * (slot & 15);
        u32::from_le_bytes([
            self.slots[at],
            self.slots[at + 1],
            self.slots[at + 2],
            self.slots[at + 3],
        ]) as usize
    }

    #[inline(always)]
    fn set_index(&mut self, slot: usize, index: usize) {
        let at = 4 * (slot & 15);
        self.slots[at..at + 4].copy_from_slice(&(index as u32).to_le_bytes());
    }
}

impl Pdb {
    /// Builds (or loads, or takes from this process) the databases of `spec` for `g`, in the
    /// direct layout where every group's table allows it ([`Layout`]) unless the spec asks
    /// for the compact one.
    pub fn new(spec: &PdbSpec, g: &Geometry) -> Result<Pdb, HeuristicError> {
        let layout = if spec.compact {
            Layout::Compact
        } else {
            Layout::Direct
        };
        Self::with_layout(spec, g, layout)
    }

    /// [`Pdb::new`] preferring `layout` (tests compare the two). The direct layout is used
    /// only with at most [`MAX_DIRECT_GROUPS`] groups whose direct tables are within
    /// [`table::MAX_DIRECT_ENTRIES`] and [`MAX_DIRECT_RATIO`]; otherwise the compact one.
    pub fn with_layout(
        spec: &PdbSpec,
        g: &Geometry,
        layout: Layout,
    ) -> Result<Pdb, HeuristicError> {
        let groups = spec.groups(g)?;
        let layout = layout.min(Layout::widest(g, &groups));
        let n = g.cells;
        let reflect = spec.reflect && g.rows == g.cols;
        let mut mirror_cell = [0u8; MAX_EXACT_CELLS];
        for (c, m) in mirror_cell.iter_mut().enumerate().take(n) {
            *m = if reflect {
                (g.col(c) * g.cols + g.row(c)) as u8
            } else {
                c as u8
            };
        }
        // Mirroring maps the goal onto itself once tile t is renamed to the tile whose goal
        // cell is the mirror of t's goal cell (an involution).
        let relabel = |t: u8| {
            g.goal
                .tile_at(mirror_cell[g.goal_cell[t as usize] as usize] as usize, n)
                as u8
        };
        let mut group_of = [NONE; MAX_EXACT_CELLS];
        let mut mirror_group_of = [NONE; MAX_EXACT_CELLS];
        let mut plain = Vec::new();
        let mut mirror_lookups = Vec::new();
        let mut coef = [0u32; MAX_EXACT_CELLS];
        let mut mirror_coef = [0u32; MAX_EXACT_CELLS];
        for (i, gr) in groups.iter().enumerate() {
            let table = table(&TableKey {
                rows: g.rows,
                cols: g.cols,
                goal: g.goal,
                tiles: gr.iter().map(|&t| u16::from(t)).collect(),
            });
            let direct = match layout {
                Layout::Direct => table.direct(),
                Layout::Compact => Arc::new(Vec::new()),
            };
            let mut tiles = [0u8; MAX_EXACT_CELLS];
            let mut mtiles = [0u8; MAX_EXACT_CELLS];
            for (j, &t) in gr.iter().enumerate() {
                let weight = (n as u32).pow((gr.len() - 1 - j) as u32);
                tiles[j] = t;
                group_of[t as usize] = i as u8;
                coef[t as usize] = weight;
                // In the mirrored position tile t sits on the mirror of the cell of tile
                // relabel(t) in the actual position.
                if reflect {
                    let src = relabel(t);
                    mtiles[j] = src;
                    mirror_group_of[src as usize] = i as u8;
                    mirror_coef[src as usize] = weight;
                }
            }
            plain.push(Lookup {
                tiles,
                k: gr.len(),
                table: table.clone(),
                direct: direct.clone(),
            });
            if reflect {
                mirror_lookups.push(Lookup {
                    tiles: mtiles,
                    k: gr.len(),
                    table,
                    direct,
                });
            }
        }
        Ok(Pdb {
            cells: n,
            groups,
            plain,
            mirror_lookups,
            group_of,
            mirror_group_of,
            mirror_cell,
            reflect,
            layout,
            coef,
            mirror_coef,
        })
    }

    /// The layout in use.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The tile groups in use.
    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }

    /// Whether the mirrored lookups are used.
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    /// The tables (one per group).
    pub fn tables(&self) -> impl Iterator<Item = &Arc<Table>> {
        self.plain.iter().map(|l| &l.table)
    }

    /// The values of each database for a position: plain and (if reflecting) mirrored.
    pub fn values(&self, tiles: &Tiles) -> (Vec<u32>, Vec<u32>) {
        let pos = self.positions(tiles);
        (
            self.plain
                .iter()
                .map(|l| u32::from(self.plain_value(l, &pos)))
                .collect(),
            self.mirror_lookups
                .iter()
                .map(|l| u32::from(self.mirror_value(l, &pos)))
                .collect(),
        )
    }

    #[inline(always)]
    fn positions(&self, tiles: &Tiles) -> [u8; MAX_EXACT_CELLS] {
        let mut pos = [0u8; MAX_EXACT_CELLS];
        for c in 0..self.cells {
            pos[tiles[c] as usize & 63] = c as u8;
        }
        pos
    }

    /// Compact layout: the entry of lookup `l` for the tile cells `pos`.
    #[inline(always)]
    fn plain_value(&self, l: &Lookup, pos: &[u8; MAX_EXACT_CELLS]) -> u8 {
        let cells = self.cells_of(l, pos, false);
        l.table.data[table::rank_of_cells(self.cells, &cells[..l.k])]
    }

    /// Compact layout: the entry of mirrored lookup `l` for the tile cells `pos`.
    #[inline(always)]
    fn mirror_value(&self, l: &Lookup, pos: &[u8; MAX_EXACT_CELLS]) -> u8 {
        let cells = self.cells_of(l, pos, true);
        l.table.data[table::rank_of_cells(self.cells, &cells[..l.k])]
    }

    /// The cells of lookup `l`'s tiles, mirrored or not.
    #[inline(always)]
    fn cells_of(
        &self,
        l: &Lookup,
        pos: &[u8; MAX_EXACT_CELLS],
        mirrored: bool,
    ) -> [u8; MAX_EXACT_CELLS] {
        let mut cells = [0u8; MAX_EXACT_CELLS];
        for (c, &t) in cells.iter_mut().zip(&l.tiles[..l.k]) {
            let p = pos[t as usize & 63];
            *c = if mirrored {
                self.mirror_cell[p as usize & 63]
            } else {
                p
            };
        }
        cells
    }
}

impl Heuristic for Pdb {
    type Memo = PdbMemo;

    fn init(&self, tiles: &Tiles) -> (u32, PdbMemo) {
        let pos = self.positions(tiles);
        let mut memo = PdbMemo {
            slots: pos,
            values: [0; MAX_GROUPS],
            mirrored: [0; MAX_GROUPS],
            sum: 0,
            mirrored_sum: 0,
        };
        if self.layout == Layout::Direct {
            for (i, l) in self.plain.iter().enumerate() {
                let idx = table::direct_index(self.cells, &self.cells_of(l, &pos, false)[..l.k]);
                memo.set_index(i, idx);
                memo.values[i] = l.direct[idx];
                memo.sum += u32::from(memo.values[i]);
            }
            for (i, l) in self.mirror_lookups.iter().enumerate() {
                let idx = table::direct_index(self.cells, &self.cells_of(l, &pos, true)[..l.k]);
                memo.set_index(MAX_DIRECT_GROUPS + i, idx);
                memo.mirrored[i] = l.direct[idx];
                memo.mirrored_sum += u32::from(memo.mirrored[i]);
            }
            return (memo.sum.max(memo.mirrored_sum), memo);
        }
        for (i, l) in self.plain.iter().enumerate() {
            memo.values[i] = self.plain_value(l, &pos);
            memo.sum += u32::from(memo.values[i]);
        }
        for (i, l) in self.mirror_lookups.iter().enumerate() {
            memo.mirrored[i] = self.mirror_value(l, &pos);
            memo.mirrored_sum += u32::from(memo.mirrored[i]);
        }
        (memo.sum.max(memo.mirrored_sum), memo)
    }

    #[inline(always)]
    fn update(
        &self,
        tiles: &Tiles,
        tile: u8,
        from: usize,
        to: usize,
        h: u32,
        memo: PdbMemo,
    ) -> (u32, PdbMemo) {
        self.update_within(tiles, tile, from, to, h, memo, u32::MAX)
    }

    #[inline(always)]
    fn update_within(
        &self,
        _tiles: &Tiles,
        tile: u8,
        from: usize,
        to: usize,
        _h: u32,
        mut memo: PdbMemo,
        limit: u32,
    ) -> (u32, PdbMemo) {
        if self.layout == Layout::Direct {
            return self.update_direct(tile, from, to, memo, limit);
        }
        memo.slots[tile as usize & 63] = to as u8;
        let gi = self.group_of[tile as usize & 63];
        if gi != NONE {
            let gi = gi as usize & (MAX_GROUPS - 1);
            let v = self.plain_value(&self.plain[gi], &memo.slots);
            memo.sum = memo.sum + u32::from(v) - u32::from(memo.values[gi]);
            memo.values[gi] = v;
        }
        // The plain sum alone already prunes: the mirrored values stay stale, which is
        // allowed because this memo is not used.
        if memo.sum > limit {
            return (memo.sum, memo);
        }
        let mi = self.mirror_group_of[tile as usize & 63];
        if self.reflect && mi != NONE {
            let mi = mi as usize & (MAX_GROUPS - 1);
            let v = self.mirror_value(&self.mirror_lookups[mi], &memo.slots);
            memo.mirrored_sum = memo.mirrored_sum + u32::from(v) - u32::from(memo.mirrored[mi]);
            memo.mirrored[mi] = v;
        }
        (memo.sum.max(memo.mirrored_sum), memo)
    }
}

impl Pdb {
    /// [`Heuristic::update_within`] in the direct layout: the moved tile's lookups shift
    /// their index by (cell difference) x (the tile's weight); no ranking.
    #[inline(always)]
    fn update_direct(
        &self,
        tile: u8,
        from: usize,
        to: usize,
        mut memo: PdbMemo,
        limit: u32,
    ) -> (u32, PdbMemo) {
        let t = tile as usize & 63;
        let gi = self.group_of[t];
        if gi != NONE {
            let gi = gi as usize & (MAX_DIRECT_GROUPS - 1);
            let shift = (to as isize - from as isize) * self.coef[t] as isize;
            let idx = memo.index(gi).wrapping_add_signed(shift);
            memo.set_index(gi, idx);
            let v = self.plain[gi].direct[idx];
            memo.sum = memo.sum + u32::from(v) - u32::from(memo.values[gi]);
            memo.values[gi] = v;
        }
        // As in the compact layout: the plain sum alone prunes, the mirrored index stays
        // stale, which is allowed because this memo is not used.
        if memo.sum > limit {
            return (memo.sum, memo);
        }
        let mi = self.mirror_group_of[t];
        if self.reflect && mi != NONE {
            let mi = mi as usize & (MAX_DIRECT_GROUPS - 1);
            let slot = MAX_DIRECT_GROUPS + mi;
            let shift = (isize::from(self.mirror_cell[to & 63])
                - isize::from(self.mirror_cell[from & 63]))
                * self.mirror_coef[t] as isize;
            let idx = memo.index(slot).wrapping_add_signed(shift);
            memo.set_index(slot, idx);
            let v = self.mirror_lookups[mi].direct[idx];
            memo.mirrored_sum = memo.mirrored_sum + u32::from(v) - u32::from(memo.mirrored[mi]);
            memo.mirrored[mi] = v;
        }
        (memo.sum.max(memo.mirrored_sum), memo)
    }
}
