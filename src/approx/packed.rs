//! Move lists stored two bits a move, so that a 1000 x 1000 solution (about 2.5e9 moves) takes
//! about 600 MB rather than 2.5 GB.

use std::fmt;
use std::io::{self, Write};

use crate::board::Move;

/// Moves in a row per `u64` word.
const PER_WORD: u64 = 32;

#[inline]
fn code(m: Move) -> u64 {
    match m {
        Move::Up => 0,
        Move::Down => 1,
        Move::Left => 2,
        Move::Right => 3,
    }
}

#[inline]
fn decode(c: u64) -> Move {
    match c & 3 {
        0 => Move::Up,
        1 => Move::Down,
        2 => Move::Left,
        _ => Move::Right,
    }
}

/// A list of moves, two bits each.
///
/// The encoding makes a move's inverse its code with the low bit flipped, so mapping a whole
/// solution through the half-turn symmetry (up <-> down, left <-> right) is one XOR a word.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PackedMoves {
    /// Invariant: `words.len() == len.div_ceil(32)`; bits past `len` are ignored.
    words: Vec<u64>,
    len: u64,
}

impl PackedMoves {
    /// An empty list.
    pub fn new() -> PackedMoves {
        PackedMoves::default()
    }

    /// An empty list with room for `moves` moves.
    pub fn with_capacity(moves: u64) -> PackedMoves {
        let words = usize::try_from(moves.div_ceil(PER_WORD)).unwrap_or(usize::MAX);
        PackedMoves {
            words: Vec::with_capacity(words),
            len: 0,
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move at `index`, if any.
    #[inline]
    pub fn get(&self, index: u64) -> Option<Move> {
        (index < self.len)
            .then(|| decode(self.words[(index / PER_WORD) as usize] >> ((index % PER_WORD) * 2)))
    }

    /// The last move, if any.
    #[inline]
    pub fn last(&self) -> Option<Move> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        let shift = (self.len % PER_WORD) * 2;
        if shift == 0 {
            self.words.push(code(m));
        } else {
            let w = self.words.last_mut().expect("a partly filled word");
            *w = (*w & !(3 << shift)) | (code(m) << shift);
        }
        self.len += 1;
    }

    /// Appends `m`, or, if the last move is its inverse, removes that one instead (a move and
    /// its undo cancel). Returns whether it cancelled.
    #[inline]
    pub fn push_cancelling(&mut self, m: Move) -> bool {
        let c = code(m);
        if let Some(&w) = self.words.last() {
            // The last move is always in the last word.
            let shift = ((self.len - 1) % PER_WORD) * 2;
            if (w >> shift) & 3 == c ^ 1 {
                self.len -= 1;
                if self.len.is_multiple_of(PER_WORD) {
                    self.words.pop();
                }
                return true;
            }
        }
        self.push(m);
        false
    }

    /// Removes and returns the last move.
    #[inline]
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.last()?;
        self.len -= 1;
        if self.len.is_multiple_of(PER_WORD) {
            self.words.pop();
        }
        Some(m)
    }

    /// The moves in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            list: self,
            index: 0,
        }
    }

    /// The moves as a plain vector (one byte a move: only for short solutions).
    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().collect()
    }

    /// Bytes of heap the list holds.
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * std::mem::size_of::<u64>()
    }

    /// Replaces every move by its inverse direction (up <-> down, left <-> right): the
    /// solution of the board turned by a half turn.
    pub fn invert_directions(&mut self) {
        for w in &mut self.words {
            *w ^= 0x5555_5555_5555_5555;
        }
    }

    /// Writes the moves as `U`/`D`/`L`/`R` letters, streaming (no string of the whole
    /// solution is built).
    pub fn write_letters<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let mut buf = [0u8; 4096];
        let mut n = 0;
        for m in self.iter() {
            buf[n] = m.letter() as u8;
            n += 1;
            if n == buf.len() {
                out.write_all(&buf)?;
                n = 0;
            }
        }
        out.write_all(&buf[..n])
    }

    /// The packed words: move `i` is bits `2 (i % 32)..` of word `i / 32`, coded
    /// up 0, down 1, left 2, right 3 (the fast path of replay).
    #[inline]
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }
}

impl fmt::Debug for PackedMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PackedMoves({} moves", self.len)?;
        if self.len <= 64 {
            f.write_str(": ")?;
            for m in self.iter() {
                write!(f, "{}", m.letter())?;
            }
        }
        f.write_str(")")
    }
}

impl FromIterator<Move> for PackedMoves {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> PackedMoves {
        let mut p = PackedMoves::new();
        for m in iter {
            p.push(m);
        }
        p
    }
}

/// Iterator over a [`PackedMoves`].
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    list: &'a PackedMoves,
    index: u64,
}

impl Iterator for Iter<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.index)?;
        self.index += 1;
        Some(m)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.list.len - self.index).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl<'a> IntoIterator for &'a PackedMoves {
    type Item = Move;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    #[test]
    fn push_pop_and_get_agree_with_a_vector() {
        let mut p = PackedMoves::new();
        let mut v = Vec::new();
        // A deterministic pattern that crosses word boundaries in both directions.
        for i in 0..1000usize {
            if i % 7 == 3 || i % 11 == 5 {
                assert_eq!(p.pop(), v.pop());
            } else {
                let m = ALL[(i * 7 + i / 3) % 4];
                p.push(m);
                v.push(m);
            }
            assert_eq!(p.len(), v.len() as u64);
            assert_eq!(p.last(), v.last().copied());
        }
        assert_eq!(p.to_vec(), v);
        // push_cancelling is push unless the last move is the inverse, then pop.
        let mut q = p.clone();
        let mut w = v.clone();
        for i in 0..300usize {
            let m = ALL[(i * 5 + i / 7) % 4];
            let cancelled = q.push_cancelling(m);
            if w.last() == Some(&m.inverse()) {
                assert!(cancelled);
                w.pop();
            } else {
                assert!(!cancelled);
                w.push(m);
            }
            assert_eq!(q.len(), w.len() as u64);
        }
        assert_eq!(q.to_vec(), w);
        for (i, m) in v.iter().enumerate() {
            assert_eq!(p.get(i as u64), Some(*m));
        }
        assert_eq!(p.get(v.len() as u64), None);
        let codes: Vec<Move> = (0..v.len())
            .map(|i| decode(p.words()[i / 32] >> (2 * (i % 32))))
            .collect();
        assert_eq!(codes, v);
    }

    #[test]
    fn invert_directions_inverts_every_move() {
        let v: Vec<Move> = (0..77).map(|i| ALL[(i * 3 + 1) % 4]).collect();
        let mut p: PackedMoves = v.iter().copied().collect();
        p.invert_directions();
        let inv: Vec<Move> = v.iter().map(|m| m.inverse()).collect();
        assert_eq!(p.to_vec(), inv);
    }

    #[test]
    fn letters_stream_in_order() {
        let p: PackedMoves = [Move::Up, Move::Left, Move::Right, Move::Down]
            .into_iter()
            .cycle()
            .take(5000)
            .collect();
        let mut out = Vec::new();
        p.write_letters(&mut out).unwrap();
        let expect: String = "ULRD".repeat(1250);
        assert_eq!(String::from_utf8(out).unwrap(), expect);
    }
}
