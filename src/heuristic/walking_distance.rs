//! Walking distance (Ken'ichiro Takahashi): vertical and horizontal moves counted separately on
//! abstractions that forget which tile is which within a row (column).
//!
//! The vertical abstraction of a position is the table `m[r][g]` = how many tiles of row `r`
//! belong in row `g`, plus the blank's row. A vertical move takes one tile from a row next to
//! the blank's row into it; every such move moves one tile across a row boundary, and
//! horizontal moves leave the table alone, so the breadth-first distance of the table to the
//! goal's table is a lower bound on the vertical moves. The same holds for columns; the sum of
//! the two is admissible (and consistent: a move changes one of them by at most 1).
//!
//! Both tables are enumerated once (24,964 states for 4 x 4) with a transition table, so the
//! search updates the estimate with one indexed load per move and no hashing.

use std::collections::HashMap;

use crate::geometry::{Geometry, MAX_EXACT_CELLS, Tiles};

use super::{Heuristic, HeuristicError};

/// The largest board (in cells) walking distance is offered for.
pub const MAX_CELLS: usize = 16;

const NO: u32 = u32::MAX;

/// One direction's abstraction: `groups` lines (rows or columns) of `cap` cells.
#[derive(Debug, Clone)]
struct Axis {
    groups: usize,
    /// `dist[s]`: moves along this axis from state `s` to the goal state.
    dist: Vec<u8>,
    /// `next[s * 2 * groups + dir * groups + g]`: the state after a tile of class `g` moves
    /// into the blank's line from the line before (`dir` 0) or after (`dir` 1) it.
    next: Vec<u32>,
    /// State key -> index (used only to evaluate whole positions).
    index: HashMap<Vec<u8>, u32>,
}

impl Axis {
    /// Enumerates the states reachable from the goal table by breadth-first search.
    fn new(groups: usize, cap: usize, goal_blank_line: usize) -> Axis {
        // A state key: groups x groups counts, then the blank's line.
        let mut goal = vec![0u8; groups * groups + 1];
        for r in 0..groups {
            goal[r * groups + r] = (cap - usize::from(r == goal_blank_line)) as u8;
        }
        goal[groups * groups] = goal_blank_line as u8;
        let mut index = HashMap::new();
        let mut states = vec![goal.clone()];
        let mut dist = vec![0u8];
        index.insert(goal, 0u32);
        let mut next = Vec::new();
        let mut head = 0;
        while head < states.len() {
            let s = states[head].clone();
            let d = dist[head];
            let b = s[groups * groups] as usize;
            for dir in 0..2 {
                for g in 0..groups {
                    let from = match dir {
                        0 if b > 0 => b - 1,
                        1 if b + 1 < groups => b + 1,
                        _ => {
                            next.push(NO);
                            continue;
                        }
                    };
                    if s[from * groups + g] == 0 {
                        next.push(NO);
                        continue;
                    }
                    let mut t = s.clone();
                    t[from * groups + g] -= 1;
                    t[b * groups + g] += 1;
                    t[groups * groups] = from as u8;
                    let id = match index.get(&t) {
                        Some(&id) => id,
                        None => {
                            let id = states.len() as u32;
                            index.insert(t.clone(), id);
                            states.push(t);
                            dist.push(d + 1);
                            id
                        }
                    };
                    next.push(id);
                }
            }
            head += 1;
        }
        Axis {
            groups,
            dist,
            next,
            index,
        }
    }

    #[inline(always)]
    fn step(&self, s: u32, dir: usize, class: usize) -> u32 {
        self.next[s as usize * 2 * self.groups + dir * self.groups + class]
    }
}

/// Walking distance for one geometry.
#[derive(Debug, Clone)]
pub struct WalkingDistance {
    cells: usize,
    cols: usize,
    vertical: Axis,
    horizontal: Axis,
    /// Goal row and column of each tile.
    goal_row: [u8; MAX_EXACT_CELLS],
    goal_col: [u8; MAX_EXACT_CELLS],
}

impl WalkingDistance {
    /// Tables for `g` (at most [`MAX_CELLS`] cells).
    pub fn new(g: &Geometry) -> Result<WalkingDistance, HeuristicError> {
        if g.cells > MAX_CELLS {
            return Err(HeuristicError::NotForSize {
                name: "walking-distance".into(),
                rows: g.rows,
                cols: g.cols,
                why: format!("its tables are built for boards of at most {MAX_CELLS} cells"),
            });
        }
        let blank = g.goal_cell[0] as usize;
        let mut goal_row = [0u8; MAX_EXACT_CELLS];
        let mut goal_col = [0u8; MAX_EXACT_CELLS];
        for t in 0..g.cells {
            goal_row[t] = g.row(g.goal_cell[t] as usize) as u8;
            goal_col[t] = g.col(g.goal_cell[t] as usize) as u8;
        }
        Ok(WalkingDistance {
            cells: g.cells,
            cols: g.cols,
            vertical: Axis::new(g.rows, g.cols, g.row(blank)),
            horizontal: Axis::new(g.cols, g.rows, g.col(blank)),
            goal_row,
            goal_col,
        })
    }

    /// The number of abstract states (vertical, horizontal).
    pub fn state_counts(&self) -> (usize, usize) {
        (self.vertical.dist.len(), self.horizontal.dist.len())
    }

    fn key(&self, tiles: &Tiles, vertical: bool) -> Vec<u8> {
        let groups = if vertical {
            self.vertical.groups
        } else {
            self.horizontal.groups
        };
        let mut key = vec![0u8; groups * groups + 1];
        for (c, &t) in tiles.iter().enumerate().take(self.cells) {
            let line = if vertical {
                c / self.cols
            } else {
                c % self.cols
            };
            if t == 0 {
                key[groups * groups] = line as u8;
            } else {
                let class = if vertical {
                    self.goal_row[t as usize]
                } else {
                    self.goal_col[t as usize]
                };
                key[line * groups + class as usize] += 1;
            }
        }
        key
    }
}

impl Heuristic for WalkingDistance {
    /// The vertical and horizontal state indices.
    type Memo = (u32, u32);

    fn init(&self, tiles: &Tiles) -> (u32, (u32, u32)) {
        // Every position of the board maps to a reachable table (the tables are connected
        // under the abstract moves, which include the images of all real moves).
        let v = self.vertical.index[&self.key(tiles, true)];
        let h = self.horizontal.index[&self.key(tiles, false)];
        (
            u32::from(self.vertical.dist[v as usize]) + u32::from(self.horizontal.dist[h as usize]),
            (v, h),
        )
    }

    #[inline(always)]
    fn update(
        &self,
        _tiles: &Tiles,
        tile: u8,
        from: usize,
        to: usize,
        _h: u32,
        (mut v, mut h): (u32, u32),
    ) -> (u32, (u32, u32)) {
        // The tile went from `from` to `to`; the blank went the other way and is now on `from`.
        let t = tile as usize & 63;
        if from / self.cols != to / self.cols {
            // The blank moved from `to`'s row to `from`'s: up if `from` is above.
            let dir = usize::from(from > to);
            v = self.vertical.step(v, dir, self.goal_row[t] as usize);
        } else {
            let dir = usize::from(from > to);
            h = self.horizontal.step(h, dir, self.goal_col[t] as usize);
        }
        (
            u32::from(self.vertical.dist[v as usize]) + u32::from(self.horizontal.dist[h as usize]),
            (v, h),
        )
    }
}
