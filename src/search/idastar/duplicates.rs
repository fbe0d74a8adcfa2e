//! Duplicate-path pruning for depth-first search (Taylor & Korf 1993): a finite automaton over
//! the blank's moves that rejects every path containing a move string known to reach the same
//! position as another string that is no longer and comes first in shortlex order.
//!
//! IDA* explores a tree of paths, not a graph of positions, so every position is reached by
//! many paths; refusing the move straight back to the parent removes only the shortest such
//! cycle. Longer ones start at six moves: the blank going one and a half times round a 2 x 2
//! block clockwise ends in the same position as going round it the other way. The automaton
//! knows every such pair up to a length, found once by breadth-first search over move strings
//! on an unbounded grid, and IDA* walks it beside the search (one table read per move), which
//! removes about 4% of the branching factor per level on 5 x 5 (2.368 to 2.272, see
//! `examples/branching_factor.rs`) and so a large share of a deep search's nodes.
//!
//! Why no optimal solution is lost: among the shortest solutions take the first in shortlex
//! order. If it contained a rejected string, replacing that string by its kept partner would
//! give a solution that is no longer and comes earlier, a contradiction; so it contains none
//! and is searched (all its nodes have f <= the optimal length under an admissible
//! heuristic). The replacement must also be a legal path on the real board: a pair is kept only
//! if the kept string's cells lie inside the bounding box of the rejected string's cells, so
//! wherever the rejected string fits on the board, so does its partner.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::Move;

/// The moves in the order of the automaton's table columns (`Move as usize`).
const LETTERS: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

/// The longest duplicate string the shared automaton knows.
pub const DEFAULT_MAX_LEN: usize = 12;

/// A pair of move strings with the same effect from any position where both fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The string the automaton rejects.
    pub pruned: Vec<Move>,
    /// The string with the same effect that stays allowed (no longer, earlier in shortlex).
    pub kept: Vec<Move>,
}

/// The automaton: a state per relevant suffix of the path so far.
#[derive(Debug, Clone)]
pub struct MoveAutomaton {
    /// `next[4 * state + move as usize]`, or [`MoveAutomaton::DEAD`] where the move completes
    /// a rejected string.
    next: Vec<u32>,
    duplicates: Vec<Duplicate>,
    max_len: usize,
}

impl MoveAutomaton {
    /// The state of an empty path.
    pub const START: u32 = 0;
    /// What [`MoveAutomaton::step`] returns for a rejected move.
    pub const DEAD: u32 = u32::MAX;

    /// The automaton for every duplicate string of at most `max_len` moves.
    pub fn new(max_len: usize) -> MoveAutomaton {
        let duplicates = find_duplicates(max_len);
        let next = build_table(&duplicates);
        MoveAutomaton {
            next,
            duplicates,
            max_len,
        }
    }

    /// The automaton of [`DEFAULT_MAX_LEN`], built once per process (a fraction of a second).
    pub fn shared() -> &'static MoveAutomaton {
        static SHARED: OnceLock<MoveAutomaton> = OnceLock::new();
        SHARED.get_or_init(|| MoveAutomaton::new(DEFAULT_MAX_LEN))
    }

    /// The state after `m` from `state`, or [`MoveAutomaton::DEAD`] if the path would then end
    /// in a rejected string.
    #[inline(always)]
    pub fn step(&self, state: u32, m: Move) -> u32 {
        self.next[4 * state as usize + m as usize]
    }

    /// The pairs the automaton knows (the rejected strings are minimal: none contains another).
    pub fn duplicates(&self) -> &[Duplicate] {
        &self.duplicates
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The longest string considered.
    pub fn max_len(&self) -> usize {
        self.max_len
    }
}

/// The longest string [`MoveAutomaton::new`] takes (strings are packed 2 bits per move).
pub const MAX_LEN: usize = 15;

/// A move string of at most [`MAX_LEN`] moves: 2 bits per move, the first move highest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Packed {
    code: u32,
    len: u8,
}

impl Packed {
    const EMPTY: Packed = Packed { code: 0, len: 0 };

    fn push(self, l: u8) -> Packed {
        Packed {
            code: self.code << 2 | u32::from(l),
            len: self.len + 1,
        }
    }

    /// The last `len` moves.
    fn suffix(self, len: u8) -> Packed {
        Packed {
            code: self.code & ((1u32 << (2 * len)) - 1),
            len,
        }
    }

    fn letters(self) -> impl Iterator<Item = u8> {
        (0..self.len)
            .rev()
            .map(move |i| (self.code >> (2 * i)) as u8 & 3)
    }

    fn moves(self) -> Vec<Move> {
        self.letters().map(|l| LETTERS[l as usize]).collect()
    }
}

/// What a string does, from the origin of an unbounded grid: for every cell whose content
/// changed, (cell, the cell its content came from), sorted, the blank included (it came from
/// the origin); unused entries are `u16::MAX`. At most `MAX_LEN + 1` cells change.
type Effect = [(u16, u16); MAX_LEN + 1];

/// Cells of the unbounded grid, as offsets from the start within `max_len` moves.
struct Grid {
    radius: i32,
    width: i32,
}

impl Grid {
    fn cell(&self, r: i32, c: i32) -> u16 {
        ((r + self.radius) * self.width + c + self.radius) as u16
    }

    /// The effect of `moves` and the bounding box of the blank's cells (min row, max row,
    /// min col, max col).
    fn effect(&self, moves: Packed) -> (Effect, [i32; 4]) {
        let start = self.cell(0, 0);
        let (mut r, mut c) = (0i32, 0i32);
        let mut bbox = [0i32; 4];
        let mut changed: Effect = [(u16::MAX, u16::MAX); MAX_LEN + 1];
        let mut n = 0usize;
        // The entry of `cell`, added (as unchanged) if it has none yet.
        let mut entry = |changed: &mut Effect, cell: u16| match changed[..n]
            .iter()
            .position(|&(c, _)| c == cell)
        {
            Some(i) => i,
            None => {
                changed[n] = (cell, cell);
                n += 1;
                n - 1
            }
        };
        entry(&mut changed, start);
        for l in moves.letters() {
            let (dr, dc) = delta(l);
            let (nr, nc) = (r + dr, c + dc);
            let (from, to) = (self.cell(r, c), self.cell(nr, nc));
            // The tile on `to` slides onto `from`, the blank onto `to`.
            let f = entry(&mut changed, from);
            let t = entry(&mut changed, to);
            changed[f].1 = changed[t].1;
            changed[t].1 = start;
            (r, c) = (nr, nc);
            bbox = [
                bbox[0].min(r),
                bbox[1].max(r),
                bbox[2].min(c),
                bbox[3].max(c),
            ];
        }
        for e in &mut changed {
            if e.0 == e.1 {
                *e = (u16::MAX, u16::MAX);
            }
        }
        changed.sort_unstable();
        (changed, bbox)
    }

    /// Whether every cell the blank visits along `moves` lies inside `bbox`.
    fn stays_inside(moves: Packed, bbox: [i32; 4]) -> bool {
        let (mut r, mut c) = (0i32, 0i32);
        moves.letters().all(|l| {
            let (dr, dc) = delta(l);
            (r, c) = (r + dr, c + dc);
            (bbox[0]..=bbox[1]).contains(&r) && (bbox[2]..=bbox[3]).contains(&c)
        })
    }
}

/// The row and column step of letter `l` (an index into [`LETTERS`]).
fn delta(l: u8) -> (i32, i32) {
    match LETTERS[l as usize & 3] {
        Move::Up => (-1, 0),
        Move::Down => (1, 0),
        Move::Left => (0, -1),
        Move::Right => (0, 1),
    }
}

/// Breadth-first over move strings in shortlex order: a string whose effect was already
/// reached by an earlier string is a duplicate (kept only if the bounding-box condition holds,
/// see the module docs), and is not extended; nor is a string ending in a duplicate.
fn find_duplicates(max_len: usize) -> Vec<Duplicate> {
    assert!(
        max_len <= MAX_LEN,
        "duplicate strings of at most {MAX_LEN} moves"
    );
    let grid = Grid {
        radius: max_len as i32 + 1,
        width: 2 * max_len as i32 + 3,
    };
    let mut first: FxHashMap<Effect, Packed> = FxHashMap::default();
    first.insert(grid.effect(Packed::EMPTY).0, Packed::EMPTY);
    let mut rejected: FxHashSet<Packed> = FxHashSet::default();
    let mut found = Vec::new();
    let mut frontier = vec![Packed::EMPTY];
    for _ in 0..max_len {
        let mut next = Vec::with_capacity(frontier.len() * 3);
        for &s in &frontier {
            for l in 0..4u8 {
                let t = s.push(l);
                // A rejected proper suffix already prunes t (prefixes were never extended).
                if (2..t.len).any(|len| rejected.contains(&t.suffix(len))) {
                    continue;
                }
                let (key, bbox) = grid.effect(t);
                match first.get(&key) {
                    None => {
                        first.insert(key, t);
                        next.push(t);
                    }
                    Some(&kept) if Grid::stays_inside(kept, bbox) => {
                        found.push(Duplicate {
                            pruned: t.moves(),
                            kept: kept.moves(),
                        });
                        rejected.insert(t);
                    }
                    Some(_) => next.push(t),
                }
            }
        }
        frontier = next;
    }
    found
}

/// The Aho-Corasick automaton of the rejected strings, as a complete transition table.
fn build_table(duplicates: &[Duplicate]) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let mut children: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut dead = vec![false];
    for d in duplicates {
        let mut s = 0usize;
        for &m in &d.pruned {
            let a = m as usize;
            if children[s][a] == NONE {
                children[s][a] = children.len() as u32;
                children.push([NONE; 4]);
                dead.push(false);
            }
            s = children[s][a] as usize;
        }
        dead[s] = true;
    }
    // Breadth-first: a state's failure link (its longest proper suffix that is a trie state)
    // is shallower, so its transitions are complete before the state's own are filled in.
    let mut goto = vec![[0u32; 4]; children.len()];
    let mut fail = vec![0u32; children.len()];
    let mut queue = std::collections::VecDeque::new();
    for a in 0..4 {
        let c = children[0][a];
        if c != NONE {
            goto[0][a] = c;
            queue.push_back(c as usize);
        }
    }
    while let Some(s) = queue.pop_front() {
        let f = fail[s] as usize;
        dead[s] |= dead[f];
        for a in 0..4 {
            let c = children[s][a];
            if c == NONE {
                goto[s][a] = goto[f][a];
            } else {
                fail[c as usize] = goto[f][a];
                goto[s][a] = c;
                queue.push_back(c as usize);
            }
        }
    }
    goto.iter()
        .flat_map(|row| {
            row.map(|t| {
                if dead[t as usize] {
                    MoveAutomaton::DEAD
                } else {
                    t
                }
            })
        })
        .collect()
}
