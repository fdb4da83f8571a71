//! Signatures of the names listed in each directory, kept on disk to see which directories'
//! names changed: the XOR of a hash of each name, so that it changes when a name comes or goes,
//! whatever the order.

/// The hasher of keys that are hashes already.
#[derive(Default)]
pub(super) struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; any other key is folded in all the same.
        self.0 = bytes.iter().fold(self.0, |hash, &b| hash.rotate_left(8) ^ u64::from(b));
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Paths in one directory, one after the other in a list.
pub(super) struct Run {
    /// [`name_hash`] of the directory's path.
    pub key: u64,
    /// The XOR of the hashes of the names.
    pub signature: u64,
    /// The length of the directory's path.
    pub dir_len: u32,
    /// Where the run ends in the list (it starts where the one before ends).
    pub end: usize,
}

/// The runs of `paths` in one directory. The index is sorted, so the names of a directory
/// mostly come together: one run for each (a directory split by its subdirectories' paths has
/// several).
pub(super) fn runs<'p>(paths: impl Iterator<Item = &'p [u8]>) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut dir: Option<&[u8]> = None;
    let mut signature = 0;
    let mut count = 0;
    let close = |dir: &[u8], signature: u64, end: usize| Run {
        key: name_hash(dir),
        signature,
        dir_len: u32::try_from(dir.len()).unwrap_or(u32::MAX),
        end,
    };
    for path in paths {
        // A byte loop: paths are short, and memrchr's setup costs more than the search.
        let (parent, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(at) => (&path[..at], &path[at + 1..]),
            None => (&path[..0], path),
        };
        if dir != Some(parent) {
            if let Some(dir) = dir {
                runs.push(close(dir, signature, count));
            }
            (dir, signature) = (Some(parent), 0);
        }
        signature ^= name_hash(name);
        count += 1;
    }
    if let Some(dir) = dir {
        runs.push(close(dir, signature, count));
    }
    runs
}

/// A hash of `name`, the same in every process (signatures are kept on disk), eight bytes a
/// step: the index's every path goes through it at the first miss after the index changed,
/// where FNV's byte a step was a sixth of the call. Finished with a mix of all its bits, since
/// signatures XOR these.
pub(super) fn name_hash(name: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |hash: u64, word: u64| (hash ^ word).wrapping_mul(K).rotate_left(29);
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
    let mut words = name.chunks_exact(8);
    let mut hash = (name.len() as u64).wrapping_mul(K);
    for bytes in &mut words {
        hash = step(hash, word(bytes));
    }
    let rest = words.remainder();
    if name.len() >= 8 && !rest.is_empty() {
        // The last eight bytes, overlapping the words before: no copy of the rest.
        hash = step(hash, word(&name[name.len() - 8..]));
    } else if !rest.is_empty() {
        hash = step(hash, rest.iter().fold(0, |w, &b| (w << 8) | u64::from(b)));
    }
    hash ^= hash >> 32;
    hash = hash.wrapping_mul(0xd6e8_feb8_6659_fd93);
    hash ^ (hash >> 32)
}
