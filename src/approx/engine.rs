//! The working state of the polynomial solver and its manoeuvres.
//!
//! Everything here is for the blank-last goal (tile `p + 1` belongs in cell `p`, the blank in
//! the last cell); [`super::solve_approx`] maps blank-first boards through the half turn.
//!
//! The board is reduced line by line: the top row of the unsolved region when it has at least
//! as many rows as columns, its left column otherwise, until at most six cells remain, which
//! are solved exactly by breadth-first search. A line is filled tile by tile from both ends
//! (each time the end whose tile is nearer the blank), until two adjacent cells are left;
//! those two use the classic manoeuvre (the second tile parked in the first one's cell, the
//! first brought next to it), finished by an exact search over a 3 x 3 (or 3 x 2) window,
//! which also covers the awkward cases (a tile trapped in a pocket of the line).
//!
//! Work per move is constant: a tile steps towards its cell along a staircase, and the blank
//! is brought to the side the tile moves to around the 8-cell ring of the tile when it can be
//! (2 or 4 moves, the "5-move cycle" of a straight step), by a greedy straight walk when it is
//! far, and by Lee's wave (a breadth-first search over the free cells) only in a small window
//! around the blank, its target and the tile when those fail; the window grows only if it
//! holds no path.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::ApproxError;
use super::packed::PackedMoves;
use crate::board::Move;

/// No obstacle besides the fixed cells.
const NONE: usize = usize::MAX;

/// Whether lines are filled from both ends (else left to right).
const TWO_ENDED: bool = true;

/// The largest remainder solved exactly at the end.
pub(crate) const MAX_REMAINDER: usize = 6;

/// The 8 cells around a tile, clockwise from the one above it.
const RING: [(isize, isize); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The blank's move from ring cell `i` to ring cell `i + 1` (clockwise).
const RING_CW: [Move; 8] = [
    Move::Right,
    Move::Down,
    Move::Down,
    Move::Left,
    Move::Left,
    Move::Up,
    Move::Up,
    Move::Right,
];

/// The blank's move from ring cell `i` to ring cell `i - 1` (counter-clockwise).
const RING_CCW: [Move; 8] = [
    Move::Left,
    Move::Left,
    Move::Up,
    Move::Up,
    Move::Right,
    Move::Right,
    Move::Down,
    Move::Down,
];

/// An inclusive rectangle of cells.
#[derive(Debug, Clone, Copy)]
struct Rect {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

impl Rect {
    #[inline]
    fn contains(&self, r: usize, c: usize) -> bool {
        (self.r0..=self.r1).contains(&r) && (self.c0..=self.c1).contains(&c)
    }
}

pub(crate) struct Engine {
    rows: usize,
    cols: usize,
    /// `tiles[cell]`, 0 = blank. Tiles are relabelled in the order they are placed (see
    /// [`Engine::new`]), so that the tiles of one line have consecutive labels.
    tiles: Vec<u32>,
    /// `label[cell]`: the (relabelled) tile that belongs in `cell`.
    label: Vec<u32>,
    /// `pos[tile]`: the cell of `tile`, kept up to date only for the tiles of the line being
    /// placed (labels `line_lo..line_lo + line_len`): a small, cache-resident slice, where
    /// keeping every tile's position would cost a cache miss a move on big boards.
    pos: Vec<u32>,
    line_lo: usize,
    line_len: usize,
    blank: usize,
    br: usize,
    bc: usize,
    /// Cells holding tiles already placed for good (and, for a while, a parked tile).
    fixed: Vec<bool>,
    pub(crate) moves: PackedMoves,
    /// Moves made before cancelling move/undo pairs.
    pub(crate) generated: u64,
    // Scratch for the wave (Lee) routing, reused so that routing does not allocate.
    seen: Vec<u32>,
    stamp: u32,
    via: Vec<u8>,
    queue: Vec<u32>,
    path: Vec<Move>,
}

impl Engine {
    /// A solver for the blank-last goal on a board given row-major (`tiles`, 0 = blank).
    pub(crate) fn new(rows: usize, cols: usize, tiles: Vec<u32>) -> Engine {
        let cells = rows * cols;
        // Relabel: the tile of the k-th cell placed becomes k + 1 (the blank's cell, the
        // last of the final region, is placed last).
        let (lines, (r0, c0)) = plan(rows, cols);
        let mut label = vec![0u32; cells];
        let mut next = 1u32;
        let mut give = |cell: usize| {
            label[cell] = next;
            next += 1;
        };
        for (transposed, r0, c0) in lines {
            if transposed {
                (r0..rows).for_each(|r| give(r * cols + c0));
            } else {
                (c0..cols).for_each(|c| give(r0 * cols + c));
            }
        }
        for r in r0..rows {
            for c in c0..cols {
                give(r * cols + c);
            }
        }
        debug_assert_eq!(label[cells - 1] as usize, cells);
        label[cells - 1] = 0;
        let tiles: Vec<u32> = tiles
            .into_iter()
            .map(|t| if t == 0 { 0 } else { label[t as usize - 1] })
            .collect();
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        // A guess at the length (about (4/3) * cells * (rows + cols) for random boards), so
        // that the list rarely reallocates; the list grows past it if needed.
        let guess = (cells as f64 * (rows + cols) as f64 * 1.4) as u64 + 64;
        Engine {
            rows,
            cols,
            tiles,
            label,
            pos: vec![0; cells],
            line_lo: 0,
            line_len: 0,
            blank,
            br: blank / cols,
            bc: blank % cols,
            fixed: vec![false; cells],
            moves: PackedMoves::with_capacity(guess),
            generated: 0,
            seen: vec![0; cells],
            stamp: 0,
            via: vec![0; cells],
            queue: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Solves the whole board.
    pub(crate) fn run(&mut self) -> Result<(), ApproxError> {
        let (lines, (r0, c0)) = plan(self.rows, self.cols);
        for (transposed, r0, c0) in lines {
            self.solve_line(transposed, r0, c0)?;
        }
        self.solve_remainder(r0, c0)
    }

    /// Whether the board is solved (for tests).
    #[cfg(test)]
    pub(crate) fn is_solved(&self) -> bool {
        self.tiles == self.label
    }

    #[inline]
    fn rc(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// The cell at offset `(dr, dc)` from `(r, c)`, if on the board.
    #[inline]
    fn offset(&self, r: usize, c: usize, dr: isize, dc: isize) -> Option<usize> {
        let nr = r.checked_add_signed(dr).filter(|&x| x < self.rows)?;
        let nc = c.checked_add_signed(dc).filter(|&x| x < self.cols)?;
        Some(nr * self.cols + nc)
    }

    /// One move of the blank (which must be legal), recorded with move/undo cancellation.
    #[inline(always)]
    fn step(&mut self, m: Move) {
        let to = match m {
            Move::Up => {
                self.br -= 1;
                self.blank - self.cols
            }
            Move::Down => {
                self.br += 1;
                self.blank + self.cols
            }
            Move::Left => {
                self.bc -= 1;
                self.blank - 1
            }
            Move::Right => {
                self.bc += 1;
                self.blank + 1
            }
        };
        debug_assert!(self.br < self.rows && self.bc < self.cols);
        let t = self.tiles[to];
        self.tiles[self.blank] = t;
        if (t as usize).wrapping_sub(self.line_lo) < self.line_len {
            self.pos[t as usize] = self.blank as u32;
        }
        self.tiles[to] = 0;
        self.blank = to;
        self.generated += 1;
        self.moves.push_cancelling(m);
    }

    /// Moves the blank to the adjacent cell `to`.
    #[inline]
    fn step_to(&mut self, to: usize) {
        let m = if to + self.cols == self.blank {
            Move::Up
        } else if to == self.blank + self.cols {
            Move::Down
        } else if to + 1 == self.blank {
            Move::Left
        } else {
            debug_assert_eq!(to, self.blank + 1);
            Move::Right
        };
        self.step(m);
    }

    #[inline]
    fn adjacent(&self, a: usize, b: usize) -> bool {
        let ((ar, ac), (br, bc)) = (self.rc(a), self.rc(b));
        ar.abs_diff(br) + ac.abs_diff(bc) == 1
    }

    /// Brings the blank to `q` (at `(qr, qc)`) without entering `avoid` (at `(ar, ac)`, or
    /// [`NONE`]) or a fixed cell.
    fn route_blank(
        &mut self,
        q: usize,
        (qr, qc): (usize, usize),
        avoid: usize,
        (ar, ac): (usize, usize),
    ) -> Result<(), ApproxError> {
        if self.blank == q {
            return Ok(());
        }
        if avoid != NONE
            && self.br.abs_diff(ar) + self.bc.abs_diff(ac) == 1
            && qr.abs_diff(ar) + qc.abs_diff(ac) == 1
        {
            let from = ring_at(
                self.br as isize - ar as isize,
                self.bc as isize - ac as isize,
            );
            let to = ring_at(qr as isize - ar as isize, qc as isize - ac as isize);
            if self.ring_route(from, to, ar, ac) {
                return Ok(());
            }
        }
        // Greedy straight walk while it gets closer.
        while self.blank != q {
            let dr = qr as isize - self.br as isize;
            let dc = qc as isize - self.bc as isize;
            let vert = match dr.signum() {
                -1 => Some((Move::Up, self.blank.wrapping_sub(self.cols))),
                1 => Some((Move::Down, self.blank + self.cols)),
                _ => None,
            };
            let horiz = match dc.signum() {
                -1 => Some((Move::Left, self.blank.wrapping_sub(1))),
                1 => Some((Move::Right, self.blank + 1)),
                _ => None,
            };
            let order = if dr.abs() >= dc.abs() {
                [vert, horiz]
            } else {
                [horiz, vert]
            };
            let next = order
                .into_iter()
                .flatten()
                .find(|&(_, cell)| cell != avoid && !self.fixed[cell]);
            match next {
                Some((m, _)) => self.step(m),
                None => break,
            }
        }
        if self.blank != q {
            self.wave_route(q, avoid)?;
        }
        Ok(())
    }

    /// Around the ring of 8 cells of `(pr, pc)`, from ring position `from` (the blank) to
    /// `to`, the shorter way first. Returns false (and moves nothing) if both are blocked.
    fn ring_route(&mut self, from: usize, to: usize, pr: usize, pc: usize) -> bool {
        let cw = (to + 8 - from) % 8;
        let ways: [(usize, usize); 2] = if cw <= 4 {
            [(cw, 1), (8 - cw, 7)]
        } else {
            [(8 - cw, 7), (cw, 1)]
        };
        let p = pr * self.cols + pc;
        // Away from the border every ring cell exists: only the fixed marks need checking.
        let interior = pr > 0 && pc > 0 && pr + 1 < self.rows && pc + 1 < self.cols;
        let cols = self.cols as isize;
        'ways: for (len, stride) in ways {
            for k in 1..=len {
                let (dr, dc) = RING[(from + k * stride) % 8];
                let cell = if interior {
                    p.wrapping_add_signed(dr * cols + dc)
                } else {
                    match self.offset(pr, pc, dr, dc) {
                        Some(cell) => cell,
                        None => continue 'ways,
                    }
                };
                if self.fixed[cell] {
                    continue 'ways;
                }
            }
            let table = if stride == 1 { &RING_CW } else { &RING_CCW };
            for k in 0..len {
                self.step(table[(from + k * stride) % 8]);
            }
            return true;
        }
        false
    }

    /// Lee's wave from the blank to `q` over free cells, in a window around the blank, `q`
    /// and `avoid` that widens until it holds a path.
    fn wave_route(&mut self, q: usize, avoid: usize) -> Result<(), ApproxError> {
        let (qr, qc) = self.rc(q);
        let (mut rlo, mut rhi) = (self.br.min(qr), self.br.max(qr));
        let (mut clo, mut chi) = (self.bc.min(qc), self.bc.max(qc));
        if avoid != NONE {
            let (ar, ac) = self.rc(avoid);
            (rlo, rhi, clo, chi) = (rlo.min(ar), rhi.max(ar), clo.min(ac), chi.max(ac));
        }
        let mut margin = 1;
        loop {
            let win = Rect {
                r0: rlo.saturating_sub(margin),
                r1: (rhi + margin).min(self.rows - 1),
                c0: clo.saturating_sub(margin),
                c1: (chi + margin).min(self.cols - 1),
            };
            if self.wave(q, avoid, win) {
                return Ok(());
            }
            if win.r0 == 0 && win.c0 == 0 && win.r1 == self.rows - 1 && win.c1 == self.cols - 1 {
                return Err(ApproxError::Internal(format!(
                    "no path for the blank from cell {} to cell {q} around cell {avoid}",
                    self.blank
                )));
            }
            margin *= 4;
        }
    }

    /// One breadth-first wave in `win`; on success, walks the blank along the path found.
    fn wave(&mut self, q: usize, avoid: usize, win: Rect) -> bool {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push(self.blank as u32);
        self.seen[self.blank] = stamp;
        let mut head = 0;
        let mut found = false;
        'wave: while head < self.queue.len() {
            let cell = self.queue[head] as usize;
            head += 1;
            let (r, c) = self.rc(cell);
            for (k, (dr, dc)) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .enumerate()
            {
                let Some(next) = self.offset(r, c, dr, dc) else {
                    continue;
                };
                let (nr, nc) = (r.wrapping_add_signed(dr), c.wrapping_add_signed(dc));
                if !win.contains(nr, nc)
                    || next == avoid
                    || self.fixed[next]
                    || self.seen[next] == stamp
                {
                    continue;
                }
                self.seen[next] = stamp;
                self.via[next] = k as u8;
                self.queue.push(next as u32);
                if next == q {
                    found = true;
                    break 'wave;
                }
            }
        }
        if !found {
            return false;
        }
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut cell = q;
        while cell != self.blank {
            let m = [Move::Up, Move::Down, Move::Left, Move::Right][self.via[cell] as usize];
            path.push(m);
            cell = match m {
                Move::Up => cell + self.cols,
                Move::Down => cell - self.cols,
                Move::Left => cell + 1,
                Move::Right => cell - 1,
            };
        }
        for &m in path.iter().rev() {
            self.step(m);
        }
        self.path = path;
        true
    }

    /// Moves `tile` step by step to `target` (or until it enters `stop`), never through a
    /// fixed cell, bringing the blank round to the side it moves to each time.
    fn move_tile(
        &mut self,
        tile: usize,
        target: usize,
        stop: Option<Rect>,
    ) -> Result<(), ApproxError> {
        let (tr, tc) = self.rc(target);
        let (mut pr, mut pc) = self.rc(self.pos[tile] as usize);
        loop {
            let p = pr * self.cols + pc;
            if p == target || stop.is_some_and(|s| s.contains(pr, pc)) {
                return Ok(());
            }
            let dv: isize = if tr < pr { -1 } else { (tr > pr) as isize };
            let dh: isize = if tc < pc { -1 } else { (tc > pc) as isize };
            // Prefer the axis with more distance left when the costs tie.
            let order = if tr.abs_diff(pr) >= tc.abs_diff(pc) {
                [(dv, 0), (0, dh)]
            } else {
                [(0, dh), (dv, 0)]
            };
            let (er, ec) = (
                self.br as isize - pr as isize,
                self.bc as isize - pc as isize,
            );
            let mut best: Option<(usize, (isize, isize))> = None;
            for d in order {
                if d == (0, 0) {
                    continue;
                }
                let q = p.wrapping_add_signed(d.0 * self.cols as isize + d.1);
                if self.fixed[q] {
                    continue;
                }
                let cost = approach_cost((er, ec), d);
                if best.is_none_or(|(b, _)| cost < b) {
                    best = Some((cost, d));
                }
            }
            let Some((_, (dr, dc))) = best else {
                return Err(ApproxError::Internal(format!(
                    "tile {tile} at cell {p} is walled in on its way to cell {target}"
                )));
            };
            let (qr, qc) = (pr.wrapping_add_signed(dr), pc.wrapping_add_signed(dc));
            let q = qr * self.cols + qc;
            self.route_blank(q, (qr, qc), p, (pr, pc))?;
            // The blank steps back into the tile's cell: the tile moves to q.
            self.step(match (dr, dc) {
                (-1, _) => Move::Down,
                (1, _) => Move::Up,
                (_, -1) => Move::Right,
                _ => Move::Left,
            });
            (pr, pc) = (qr, qc);
        }
    }

    /// Fills one line of the unsolved region whose top-left cell is `(r0, c0)`: its top row,
    /// or with `transposed` its left column (then "rows" below are columns, and so on).
    fn solve_line(&mut self, transposed: bool, r0: usize, c0: usize) -> Result<(), ApproxError> {
        let cols = self.cols;
        // Logical (row, column) -> physical cell.
        let phys = |r: usize, c: usize| {
            if transposed {
                c * cols + r
            } else {
                r * cols + c
            }
        };
        let (lr0, lc0, lcols) = if transposed {
            (c0, r0, self.rows)
        } else {
            (r0, c0, self.cols)
        };
        // Positions of this line's tiles (the rest of the region is not tracked).
        self.line_lo = self.label[phys(lr0, lc0)] as usize;
        self.line_len = lcols - lc0;
        for r in r0..self.rows {
            for cell in r * cols + c0..(r + 1) * cols {
                let t = self.tiles[cell] as usize;
                if t.wrapping_sub(self.line_lo) < self.line_len {
                    self.pos[t] = cell as u32;
                }
            }
        }
        // Fill the line from both ends, each time the end whose tile the blank is nearer to,
        // until two adjacent cells `lo`, `lo + 1` are left.
        let (mut lo, mut hi) = (lc0, lcols - 1);
        while hi - lo > 1 {
            let (cl, ch) = (phys(lr0, lo), phys(lr0, hi));
            let (tl, th) = (self.label[cl] as usize, self.label[ch] as usize);
            let near = |e: &Engine, t: usize| {
                let (r, c) = e.rc(e.pos[t] as usize);
                r.abs_diff(e.br) + c.abs_diff(e.bc)
            };
            if TWO_ENDED && near(self, th) < near(self, tl) {
                self.move_tile(th, ch, None)?;
                self.fixed[ch] = true;
                hi -= 1;
            } else {
                self.move_tile(tl, cl, None)?;
                self.fixed[cl] = true;
                lo += 1;
            }
        }
        let (a, b) = (phys(lr0, lo), phys(lr0, lo + 1));
        let (ta, tb) = (self.label[a] as usize, self.label[b] as usize);
        if self.pos[ta] as usize == a && self.pos[tb] as usize == b {
            self.fixed[a] = true;
            self.fixed[b] = true;
            return Ok(());
        }
        // The finishing window: three lines deep, the two cells wide plus a third column
        // beside them where there is one (its fixed top cell left out).
        let (wc0, wc1) = if lo > lc0 {
            (lo - 1, lo + 1)
        } else if lo + 2 < lcols {
            (lo, lo + 2)
        } else {
            (lo, lo + 1)
        };
        let mut window = Vec::with_capacity(9);
        // The window's cells off the line: the blank can always reach them (the region below
        // the line is at least two deep, so one tile cannot cut it).
        let mut below = Vec::with_capacity(6);
        for r in lr0..lr0 + 3 {
            for c in wc0..=wc1 {
                let cell = phys(r, c);
                if !self.fixed[cell] {
                    window.push(cell);
                    if r > lr0 {
                        below.push(cell);
                    }
                }
            }
        }
        let (pr0, pc0) = self.rc(phys(lr0, wc0));
        let (pr1, pc1) = self.rc(phys(lr0 + 2, wc1));
        let rect = Rect {
            r0: pr0.min(pr1),
            r1: pr0.max(pr1),
            c0: pc0.min(pc1),
            c1: pc0.max(pc1),
        };
        // Park the far tile in the near tile's cell, bring the near tile into the window.
        self.move_tile(tb, a, None)?;
        self.fixed[a] = true;
        self.move_tile(ta, phys(lr0 + 1, lo), Some(rect))?;
        let (br, bc) = (self.br, self.bc);
        if !rect.contains(br, bc) {
            let pa = self.pos[ta] as usize;
            let target = below
                .iter()
                .copied()
                .filter(|&w| w != pa)
                .min_by_key(|&w| {
                    let (r, c) = self.rc(w);
                    r.abs_diff(br) + c.abs_diff(bc)
                })
                .expect("the window has free cells");
            self.route_blank(target, self.rc(target), pa, self.rc(pa))?;
        }
        self.fixed[a] = false;
        self.finish_pair(&window, ta, a, tb, b)?;
        self.fixed[a] = true;
        self.fixed[b] = true;
        Ok(())
    }

    /// Exact search over the positions of tiles `ta`, `tb` and the blank inside `window`
    /// (other tiles there are interchangeable) for one that puts `ta` at `a` and `tb` at `b`.
    fn finish_pair(
        &mut self,
        window: &[usize],
        ta: usize,
        a: usize,
        tb: usize,
        b: usize,
    ) -> Result<(), ApproxError> {
        let moves = pair_search(
            window,
            self.cols,
            (self.pos[ta] as usize, self.pos[tb] as usize, self.blank),
            (a, b),
        )
        .ok_or_else(|| {
            ApproxError::Internal(format!(
                "tiles {ta} and {tb} cannot be finished in their window"
            ))
        })?;
        for cell in moves {
            self.step_to(cell);
        }
        Ok(())
    }

    /// Solves the last region (at most [`MAX_REMAINDER`] cells, top-left `(r0, c0)`) exactly.
    fn solve_remainder(&mut self, r0: usize, c0: usize) -> Result<(), ApproxError> {
        let cells: Vec<usize> = (r0..self.rows)
            .flat_map(|r| (c0..self.cols).map(move |c| (r, c)))
            .map(|(r, c)| r * self.cols + c)
            .collect();
        // Each tile by the index (in `cells`) of its goal cell.
        let label = &self.label;
        let local = |t: u32| -> u64 {
            cells
                .iter()
                .position(|&c| label[c] == t)
                .expect("a tile of the region") as u64
        };
        let mut start = 0u64;
        for (i, &cell) in cells.iter().enumerate() {
            start |= local(self.tiles[cell]) << (4 * i);
        }
        let blank_local = local(0);
        let goal: u64 = (0..cells.len() as u64).map(|i| i << (4 * i)).sum();
        let k = cells.len();
        let nbrs: Vec<Vec<usize>> = (0..k)
            .map(|i| {
                (0..k)
                    .filter(|&j| self.adjacent(cells[i], cells[j]))
                    .collect()
            })
            .collect();
        let get = |s: u64, i: usize| (s >> (4 * i)) & 15;
        // BFS over the region's arrangements; parent links give the path.
        let mut parent: FxHashMap<u64, (u64, u8)> = FxHashMap::default();
        parent.insert(start, (start, 0));
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            if s == goal {
                break;
            }
            let e = (0..k).find(|&i| get(s, i) == blank_local).expect("a blank");
            for &j in &nbrs[e] {
                let t = get(s, j);
                let n = (s & !(15 << (4 * j)) & !(15 << (4 * e)))
                    | (t << (4 * e))
                    | (blank_local << (4 * j));
                if let std::collections::hash_map::Entry::Vacant(v) = parent.entry(n) {
                    v.insert((s, j as u8));
                    queue.push_back(n);
                }
            }
        }
        if !parent.contains_key(&goal) {
            return Err(ApproxError::Internal(
                "the final region cannot reach its goal".to_string(),
            ));
        }
        let mut path = Vec::new();
        let mut s = goal;
        while s != start {
            let (p, j) = parent[&s];
            path.push(cells[j as usize]);
            s = p;
        }
        for &cell in path.iter().rev() {
            self.step_to(cell);
        }
        Ok(())
    }
}

/// The lines the solver fills, in order, as `(transposed, r0, c0)` (the top row, or with
/// `transposed` the left column, of the region whose top-left cell is `(r0, c0)`), and the
/// top-left cell of the final region of at most [`MAX_REMAINDER`] cells.
#[allow(clippy::type_complexity)]
fn plan(rows: usize, cols: usize) -> (Vec<(bool, usize, usize)>, (usize, usize)) {
    let (mut r0, mut c0) = (0, 0);
    let mut lines = Vec::new();
    loop {
        let (h, w) = (rows - r0, cols - c0);
        if h * w <= MAX_REMAINDER {
            return (lines, (r0, c0));
        }
        // The longer side shrinks: a row when there are at least as many rows.
        if h >= w {
            lines.push((false, r0, c0));
            r0 += 1;
        } else {
            lines.push((true, r0, c0));
            c0 += 1;
        }
    }
}

/// Position in [`RING`] of the offset `(dr, dc)` (each in -1..=1, not both 0).
#[inline]
fn ring_at(dr: isize, dc: isize) -> usize {
    const AT: [usize; 9] = [7, 0, 1, 6, usize::MAX, 2, 5, 4, 3];
    AT[((dr + 1) * 3 + dc + 1) as usize]
}

/// An estimate of the moves the blank, at offset `e` from a tile, needs to reach the cell at
/// offset `d` (a neighbour) from it.
#[inline]
fn approach_cost(e: (isize, isize), d: (isize, isize)) -> usize {
    if e == d {
        return 0;
    }
    let dist = (e.0 - d.0).unsigned_abs() + (e.1 - d.1).unsigned_abs();
    // The tile stands in the straight way between them (this includes the blank right
    // behind the tile: 4 moves round, not 2).
    let behind = e.0 * d.1 == e.1 * d.0 && e.0 * d.0 + e.1 * d.1 < 0;
    if behind { dist + 2 } else { dist }
}

/// Shortest blank walk (as the cells it enters) inside `window` that takes tiles A and B
/// (starting positions in `start` = (A, B, blank)) to cells `goal` = (a, b). Other tiles in
/// the window count as interchangeable. `None` if unreachable.
pub(crate) fn pair_search(
    window: &[usize],
    cols: usize,
    start: (usize, usize, usize),
    goal: (usize, usize),
) -> Option<Vec<usize>> {
    let k = window.len();
    debug_assert!(k <= 9);
    let idx = |cell: usize| window.iter().position(|&w| w == cell);
    let (ia, ib, ie) = (idx(start.0)?, idx(start.1)?, idx(start.2)?);
    let (ga, gb) = (idx(goal.0)?, idx(goal.1)?);
    let adjacent = |x: usize, y: usize| {
        let (xr, xc, yr, yc) = (x / cols, x % cols, y / cols, y % cols);
        xr.abs_diff(yr) + xc.abs_diff(yc) == 1
    };
    let enc = |a: usize, b: usize, e: usize| (a * 9 + b) * 9 + e;
    const N: usize = 729;
    let mut prev = [u16::MAX; N];
    let s0 = enc(ia, ib, ie);
    prev[s0] = s0 as u16;
    let mut queue = VecDeque::from([(ia, ib, ie)]);
    let mut end = None;
    while let Some((a, b, e)) = queue.pop_front() {
        if a == ga && b == gb {
            end = Some((a, b, e));
            break;
        }
        for j in 0..k {
            if !adjacent(window[e], window[j]) {
                continue;
            }
            let (na, nb) = (if j == a { e } else { a }, if j == b { e } else { b });
            let n = enc(na, nb, j);
            if prev[n] == u16::MAX {
                prev[n] = enc(a, b, e) as u16;
                queue.push_back((na, nb, j));
            }
        }
    }
    let (a, b, e) = end?;
    let mut walk = Vec::new();
    let mut s = enc(a, b, e);
    while s != s0 {
        walk.push(window[s % 9]);
        s = prev[s] as usize;
    }
    walk.reverse();
    Some(walk)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of the two tiles and the blank in the finishing windows (3 x 2, 3 x 3
    /// with its corner fixed, both orientations) can be finished: the line manoeuvre relies
    /// on it.
    #[test]
    fn every_pair_position_in_a_window_can_be_finished() {
        // Windows on a 3-row (or 3-column) strip of a wide board, as solve_line builds them.
        let cols = 5;
        let shapes: Vec<Vec<usize>> = vec![
            // Row manoeuvre, 3 x 2 (width-2 region): rows 0..3, columns 3..5.
            (0..3)
                .flat_map(|r| (3..5).map(move |c| r * cols + c))
                .collect(),
            // Row manoeuvre, 3 x 3 minus the fixed top-left cell.
            (0..3)
                .flat_map(|r| (2..5).map(move |c| r * cols + c))
                .filter(|&x| x != 2)
                .collect(),
            // Two-ended lines: the pair between fixed cells, window 3 x 3 minus the fixed
            // top-right cell (the mirror image of the one above).
            (0..3)
                .flat_map(|r| (2..5).map(move |c| r * cols + c))
                .filter(|&x| x != 4)
                .collect(),
            // Column manoeuvre (transposed): columns 0..3, rows 3..5 and 2..5 minus (2, 0).
            (3..5)
                .flat_map(|r| (0..3).map(move |c| r * cols + c))
                .collect(),
            (2..5)
                .flat_map(|r| (0..3).map(move |c| r * cols + c))
                .filter(|&x| x != 2 * cols)
                .collect(),
        ];
        let goals = [
            (3, 4),
            (3, 4),
            (2, 3),
            (3 * cols, 4 * cols),
            (3 * cols, 4 * cols),
        ];
        for (window, goal) in shapes.iter().zip(goals) {
            let mut count = 0;
            for &a in window {
                for &b in window {
                    for &e in window {
                        if a == b || b == e || a == e {
                            continue;
                        }
                        let walk = pair_search(window, cols, (a, b, e), goal)
                            .unwrap_or_else(|| panic!("{window:?}: {a} {b} {e}"));
                        // Consecutive cells of the walk are neighbours in the window.
                        let mut at = e;
                        for &c in &walk {
                            assert!(window.contains(&c));
                            assert_eq!(
                                (at / cols).abs_diff(c / cols) + (at % cols).abs_diff(c % cols),
                                1
                            );
                            at = c;
                        }
                        count += 1;
                    }
                }
            }
            let k = window.len();
            assert_eq!(count, k * (k - 1) * (k - 2));
        }
    }

    #[test]
    fn ring_step_tables_match_the_ring() {
        let delta = |m: Move| match m {
            Move::Up => (-1, 0),
            Move::Down => (1, 0),
            Move::Left => (0, -1),
            Move::Right => (0, 1),
        };
        for i in 0..8 {
            let (a, b, c) = (RING[i], RING[(i + 1) % 8], RING[(i + 7) % 8]);
            assert_eq!(delta(RING_CW[i]), (b.0 - a.0, b.1 - a.1));
            assert_eq!(delta(RING_CCW[i]), (c.0 - a.0, c.1 - a.1));
        }
    }

    #[test]
    fn a_solved_board_takes_no_moves() {
        for (r, c) in [(2, 2), (3, 3), (4, 7), (9, 2)] {
            let tiles: Vec<u32> = (0..r * c).map(|i| ((i + 1) % (r * c)) as u32).collect();
            let mut e = Engine::new(r, c, tiles);
            assert!(e.is_solved());
            e.run().unwrap();
            assert_eq!(e.moves.len(), 0);
            assert_eq!(e.generated, 0);
            assert!(e.is_solved());
        }
    }
}
