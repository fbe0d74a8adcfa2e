//! A growable array stored in fixed-size chunks, for the node stores of the searches that keep
//! millions of states.
//!
//! A `Vec` that doubles holds its old and new blocks at once while it copies, and up to twice
//! its length afterwards: at the peak a stored node costs up to three nodes of heap. Here the
//! first chunk grows like a `Vec` (so a small search costs what it did) up to [`CHUNK`]
//! elements, and every later chunk is allocated once at that size and never moved: a stored
//! node costs one node plus at most one chunk of slack over the whole array. Index `i` lives in
//! chunk `i / CHUNK` at `i % CHUNK` (a shift and a mask, one more load than a `Vec` once there
//! are two chunks; a search that fits one chunk allocates no list of chunks).

use std::ops::{Index, IndexMut};

/// log2 of the elements of a chunk.
const SHIFT: u32 = 14;
/// Elements of a full chunk (16 Ki: 192 KiB of 12-byte nodes).
pub(crate) const CHUNK: usize = 1 << SHIFT;

/// A growable array in chunks of [`CHUNK`] elements (see the module documentation).
pub(crate) struct Chunked<T> {
    /// The elements while they fit one chunk (then no list of chunks is allocated: a small
    /// search costs exactly what a `Vec` did); empty afterwards.
    first: Vec<T>,
    /// Every chunk, once there are two or more.
    chunks: Vec<Vec<T>>,
}

impl<T> Chunked<T> {
    /// An empty array whose first chunk has room for `capacity` elements (at most a chunk).
    pub(crate) fn with_capacity(capacity: usize) -> Chunked<T> {
        Chunked {
            first: Vec::with_capacity(capacity.min(CHUNK)),
            chunks: Vec::new(),
        }
    }

    /// The number of elements.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        (self.chunks.len().max(1) - 1) * CHUNK + self.last().len()
    }

    /// The elements the chunks have room for.
    pub(crate) fn capacity(&self) -> usize {
        (self.chunks.len().max(1) - 1) * CHUNK + self.last().capacity()
    }

    /// The bytes of the block the next [`Chunked::push`] allocates: none while the last chunk
    /// has room; the first chunk doubles (its old block freed after the copy), later ones are
    /// whole chunks.
    #[inline]
    pub(crate) fn growth_bytes(&self) -> usize {
        let last = self.last();
        if last.len() < last.capacity() {
            0
        } else if last.len() < CHUNK {
            (2 * last.capacity()).max(4) * size_of::<T>()
        } else {
            CHUNK * size_of::<T>()
        }
    }

    /// Appends `x`.
    #[inline]
    pub(crate) fn push(&mut self, x: T) {
        if self.last().len() >= CHUNK {
            self.add_chunk();
        }
        match self.chunks.last_mut() {
            Some(last) => last.push(x),
            None => self.first.push(x),
        }
    }

    /// Starts a new chunk (moving the first one into the list of chunks if it is alone).
    #[cold]
    fn add_chunk(&mut self) {
        if self.chunks.is_empty() {
            self.chunks.push(std::mem::take(&mut self.first));
        }
        self.chunks.push(Vec::with_capacity(CHUNK));
    }

    #[inline]
    fn last(&self) -> &Vec<T> {
        self.chunks.last().unwrap_or(&self.first)
    }
}

impl<T> Index<usize> for Chunked<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        if self.chunks.is_empty() {
            &self.first[i]
        } else {
            &self.chunks[i >> SHIFT][i & (CHUNK - 1)]
        }
    }
}

impl<T> IndexMut<usize> for Chunked<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        if self.chunks.is_empty() {
            &mut self.first[i]
        } else {
            &mut self.chunks[i >> SHIFT][i & (CHUNK - 1)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a `Vec` (the oracle), across chunk boundaries: every element where it was put,
    /// overwrites kept, the capacity never short of the length.
    #[test]
    fn agrees_with_a_vec_across_chunk_boundaries() {
        let mut c = Chunked::with_capacity(256);
        let mut v = Vec::new();
        for i in 0..3 * CHUNK + 17 {
            let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let before = c.capacity();
            let grows = c.growth_bytes();
            c.push(x);
            v.push(x);
            assert_eq!(c.len(), v.len());
            assert!(c.capacity() >= c.len());
            // growth_bytes announced the block allocated: nothing when the room sufficed.
            let added = (c.capacity() - before) * 8;
            assert_eq!(added == 0, grows == 0, "at {i}");
            assert!(grows >= added && grows <= 2 * added.max(8), "at {i}");
            if i % 1000 == 7 {
                c[i / 2] ^= 1;
                v[i / 2] ^= 1;
            }
        }
        for (i, &x) in v.iter().enumerate() {
            assert_eq!(c[i], x);
        }
        // Whole chunks past the first: the slack is less than one chunk.
        assert!(c.capacity() - c.len() < CHUNK);
    }
}
