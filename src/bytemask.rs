//! Byte masks: which bytes of a 64-byte block pass a test, as the bits of a `u64`, so that a
//! scan for rare bytes (newlines, a JSON string's quotes and escapes) costs a bit scan per hit
//! instead of a search call per hit. The comparisons vectorize; each 8 flags (bytes 0 or 1)
//! become 8 bits with one multiply.

/// Bytes per block: the width of a mask.
pub const BLOCK: usize = 64;

/// Bit `i` set when `block[i]` passes `test`.
#[inline]
pub fn of(block: &[u8; BLOCK], test: impl Fn(u8) -> bool) -> u64 {
    // Moves flag `j` of a little-endian word to bit `56 + j`.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let flags = block.map(|b| u8::from(test(b)));
    let mut mask = 0;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(eight.try_into().expect("chunks of 8"));
        mask |= (word.wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    mask
}

/// The mask of the block of `bytes` at `base`; past the end, nothing is marked.
#[inline]
pub fn at(bytes: &[u8], base: usize, test: impl Fn(u8) -> bool) -> u64 {
    if let Some(block) = bytes.get(base..base + BLOCK) {
        return of(block.try_into().expect("the range is BLOCK bytes"), test);
    }
    let tail = bytes.get(base..).unwrap_or_default();
    if tail.is_empty() {
        return 0;
    }
    let mut padded = [0; BLOCK];
    padded[..tail.len()].copy_from_slice(tail);
    of(&padded, test) & (u64::MAX >> (BLOCK - tail.len()))
}

/// The offsets whose byte passes `test`, in order, a block at a time. The bytes are passed to
/// each call rather than held, so that a caller may write behind the offsets it asks for (an
/// in-place rewrite) between calls; every call must pass the same bytes at and after `from`.
#[derive(Debug, Clone, Copy)]
pub struct Marks<F> {
    /// Offset of the block `mask` covers.
    base: usize,
    /// The block's marks at or after the last offset asked for.
    mask: u64,
    test: F,
}

impl<F: Fn(u8) -> bool + Copy> Marks<F> {
    /// Marks of `bytes` from offset `from` on.
    pub fn new(bytes: &[u8], from: usize, test: F) -> Self {
        Self { base: from, mask: at(bytes, from, test), test }
    }

    /// The first mark of `bytes` at or after `from` (never before an offset asked for earlier).
    #[inline]
    pub fn next_from(&mut self, bytes: &[u8], from: usize) -> Option<usize> {
        if from >= self.base + BLOCK {
            self.base = from;
            self.mask = at(bytes, from, self.test);
        } else if from > self.base {
            self.mask &= u64::MAX << (from - self.base);
        }
        while self.mask == 0 {
            self.base += BLOCK;
            if self.base >= bytes.len() {
                return None;
            }
            self.mask = at(bytes, self.base, self.test);
        }
        Some(self.base + self.mask.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks found, asking from one past each hit or (every third hit) six past it, are
    /// those a byte-by-byte search finds with the same jumps.
    #[test]
    fn marks_are_every_matching_offset_from_any_start() {
        let bytes: Vec<u8> =
            (0..1000u32).map(|i| if i % 7 == 0 || i % 64 == 63 { b'x' } else { b'.' }).collect();
        let jump = |hit: usize| hit + if hit.is_multiple_of(3) { 6 } else { 1 };
        for len in [0, 1, 63, 64, 65, 127, 128, 500, 1000] {
            let bytes = &bytes[..len];
            for from in [0, 1, 7, 63, 64, 100].into_iter().filter(|f| *f <= len) {
                let (mut expected, mut at) = (Vec::new(), from);
                while let Some(hit) = (at..len).find(|&i| bytes[i] == b'x') {
                    expected.push(hit);
                    at = jump(hit);
                }
                let mut marks = Marks::new(bytes, from, |b| b == b'x');
                let (mut found, mut at) = (Vec::new(), from);
                while let Some(hit) = marks.next_from(bytes, at) {
                    found.push(hit);
                    at = jump(hit);
                }
                assert_eq!(found, expected, "length {len} from {from}");
            }
        }
    }

    #[test]
    fn past_the_end_nothing_is_marked() {
        assert_eq!(at(b"xxx", 0, |b| b == b'x'), 0b111);
        assert_eq!(at(b"xxx", 3, |b| b == b'x'), 0);
        assert_eq!(at(b"", 0, |_| true), 0);
        assert_eq!(at(&[b'x'; 70], 64, |b| b == b'x'), 0b11_1111);
        assert_eq!(at(&[b'x'; 128], 64, |b| b == b'x'), u64::MAX);
    }
}
