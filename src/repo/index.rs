//! A direct reader of git's index file (versions 2 to 4) and its cache-tree extension, for the
//! pre-commit hook's fast staged-changes path and the guard's file list. It skips what libgit2
//! does on every read and neither needs: the trailing checksum over the whole file and the
//! per-entry allocations.
//!
//! The cache tree records, for each directory whose index entries did not change since the tree
//! was last written, the tree id those entries make. Where that id equals `HEAD`'s subtree, the
//! whole directory is unchanged and is skipped: this is what makes `git diff --cached` fast on a
//! big repository, and libgit2 does not do it. Anything this reader does not fully understand
//! (split or sparse index, an unknown required extension, conflicts, non-SHA-1 ids) makes it
//! answer `None`, and the caller takes the general libgit2 path.

use git2::Oid;

/// One stage-0 index entry.
#[derive(Clone, Copy, Debug)]
pub struct IndexEntry {
    /// Byte range of the path in [`Index::paths`].
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// The object id.
    pub oid: Oid,
    /// git's mode (`0o100644`, `0o120000`, `0o160000`, ...).
    pub mode: u32,
}

/// A cache-tree node: a directory and, when still valid, the tree id of its index entries.
#[derive(Debug, Default)]
pub struct CacheNode {
    /// The directory's own name (empty for the root).
    pub name: Vec<u8>,
    /// The tree id, `None` when invalidated.
    pub oid: Option<Oid>,
    /// Subdirectories.
    pub children: Vec<CacheNode>,
}

/// The parsed index.
#[derive(Debug, Default)]
pub struct Index {
    /// Every entry's path, concatenated.
    pub paths: Vec<u8>,
    /// Entries in index order (sorted by path bytes).
    pub entries: Vec<IndexEntry>,
    /// The cache tree, when the index has one.
    pub cache: Option<CacheNode>,
}

impl Index {
    /// The path of entry `e`.
    #[must_use]
    pub fn path(&self, e: &IndexEntry) -> &[u8] {
        &self.paths[e.start..e.end]
    }
}

const HASH_LEN: usize = 20;
/// The smallest entry: 62 bytes of fixed fields and at least one NUL after the path.
const MIN_ENTRY_LEN: usize = 63;
/// A cache tree deeper than this is left to libgit2 (the caller's general path) rather than
/// walked recursively: a corrupt or planted index must not exhaust the stack.
const MAX_TREE_DEPTH: usize = 256;
const FLAG_EXTENDED: u16 = 0x4000;
const XFLAG_INTENT_TO_ADD: u16 = 0x2000;

/// Parse an index file; `None` when it uses a feature this reader leaves to libgit2.
#[must_use]
pub fn parse(data: &[u8]) -> Option<Index> {
    if data.len() < 12 + HASH_LEN || &data[..4] != b"DIRC" {
        return None;
    }
    let version = be32(data, 4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = be32(data, 8)? as usize;
    let body_end = data.len() - HASH_LEN;
    // The header's count is not trusted for the reservation: a corrupt or planted index
    // claiming 4 billion entries would otherwise abort the process on allocation.
    let reserve = count.min(data.len() / MIN_ENTRY_LEN);
    let mut index = Index { entries: Vec::with_capacity(reserve), ..Index::default() };
    let mut pos = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        pos = entry(data, pos, version, &mut previous, &mut index)?;
    }
    // git keeps the entries sorted by path, and the hook's walk relies on it (the paths below a
    // directory are contiguous). An index out of order is corrupt: left to libgit2 (found by the
    // index fuzz target, which made the walk slice past a path).
    if index.entries.windows(2).any(|w| index.path(&w[0]) >= index.path(&w[1])) {
        return None;
    }
    match extensions(data.get(pos..body_end)?) {
        Extensions::Understood(cache) => index.cache = cache,
        Extensions::Unsupported => return None,
    }
    Some(index)
}

/// Read the entry at `pos`; returns the next position.
fn entry(
    data: &[u8],
    pos: usize,
    version: u32,
    prev: &mut Vec<u8>,
    index: &mut Index,
) -> Option<usize> {
    let mode = be32(data, pos + 24)?;
    let oid = Oid::from_bytes(data.get(pos + 40..pos + 40 + HASH_LEN)?).ok()?;
    let flags = be16(data, pos + 60)?;
    let mut at = pos + 62;
    let mut extended = 0;
    if flags & FLAG_EXTENDED != 0 {
        extended = be16(data, at)?;
        at += 2;
    }
    if (flags >> 12) & 3 != 0 {
        return None; // A conflict: git refuses the commit; libgit2 reports it.
    }
    let start = index.paths.len();
    let next = if version == 4 {
        let (strip, after) = varint(data, at)?;
        let nul = memchr::memchr(0, data.get(after..)?)?;
        prev.truncate(prev.len().checked_sub(strip)?);
        prev.extend_from_slice(&data[after..after + nul]);
        index.paths.extend_from_slice(prev);
        after + nul + 1
    } else {
        let nul = memchr::memchr(0, data.get(at..)?)?;
        index.paths.extend_from_slice(&data[at..at + nul]);
        // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
        pos + ((at - pos + nul + 8) & !7)
    };
    if extended & XFLAG_INTENT_TO_ADD == 0 {
        index.entries.push(IndexEntry { start, end: index.paths.len(), oid, mode });
    } else {
        index.paths.truncate(start); // `git add -N`: not part of the next commit.
    }
    Some(next)
}

/// What the extensions say: the cache tree if any, or that the index needs libgit2.
enum Extensions {
    Understood(Option<CacheNode>),
    Unsupported,
}

/// Walk the extensions. A required extension we don't know makes the index unsupported.
fn extensions(mut data: &[u8]) -> Extensions {
    let mut cache = None;
    while data.len() >= 8 {
        let Some(size) = be32(data, 4) else { return Extensions::Unsupported };
        let Some(body) = data.get(8..8 + size as usize) else { return Extensions::Unsupported };
        match &data[..4] {
            b"TREE" => cache = tree_node(&mut &body[..], 0),
            // Optional extensions start with an uppercase letter; `link` (split index) and
            // `sdir` (sparse index) change what the entries mean.
            sig if sig[0].is_ascii_uppercase() => {}
            _ => return Extensions::Unsupported,
        }
        data = &data[8 + body.len()..];
    }
    Extensions::Understood(cache)
}

/// Parse one cache-tree node and its subtree, advancing `data`; `None` past
/// [`MAX_TREE_DEPTH`].
fn tree_node(data: &mut &[u8], depth: usize) -> Option<CacheNode> {
    if depth > MAX_TREE_DEPTH {
        return None;
    }
    let nul = memchr::memchr(0, data)?;
    let name = data[..nul].to_vec();
    let rest = &data[nul + 1..];
    let newline = memchr::memchr(b'\n', rest)?;
    let header = std::str::from_utf8(&rest[..newline]).ok()?;
    let (count, subtrees) = header.split_once(' ')?;
    let count: i64 = count.parse().ok()?;
    let subtrees: usize = subtrees.parse().ok()?;
    let mut rest = &rest[newline + 1..];
    let oid = if count >= 0 {
        let oid = Oid::from_bytes(rest.get(..HASH_LEN)?).ok()?;
        rest = &rest[HASH_LEN..];
        Some(oid)
    } else {
        None
    };
    // No reservation from the stated number of subtrees (untrusted, up to 2^64).
    let mut children = Vec::new();
    for _ in 0..subtrees {
        children.push(tree_node(&mut rest, depth + 1)?);
    }
    *data = rest;
    Some(CacheNode { name, oid, children })
}

/// git's offset varint (index v4 prefix lengths).
fn varint(data: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let mut byte = *data.get(at)?;
    let mut value = usize::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        at += 1;
        byte = *data.get(at)?;
        value = value.checked_add(1)?.checked_mul(128)? + usize::from(byte & 0x7f);
    }
    Some((value, at + 1))
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn be16(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real index of two entries (`a`, `d/b`) with a cache tree, as git writes it.
    fn real_index() -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        std::fs::write(dir.path().join("a"), "a\n").unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/b"), "b\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_all(["*"], git2::IndexAddOption::DEFAULT, None).unwrap();
        index.write_tree().unwrap();
        index.write().unwrap();
        std::fs::read(dir.path().join(".git/index")).unwrap()
    }

    #[test]
    fn a_real_index_reads() {
        let index = parse(&real_index()).unwrap();
        let paths: Vec<&[u8]> = index.entries.iter().map(|e| index.path(e)).collect();
        assert_eq!(paths, [&b"a"[..], b"d/b"]);
        assert!(index.cache.is_some());
    }

    #[test]
    fn entries_out_of_order_are_left_to_libgit2() {
        let mut data = real_index();
        let at = data.windows(4).position(|w| w == b"d/b\0").unwrap();
        data[at..at + 3].copy_from_slice(b"0/b"); // `0/b` sorts before `a`
        assert!(parse(&data).is_none());
        data[at..at + 3].copy_from_slice(b"e/b");
        assert!(parse(&data).is_some(), "still in order");
    }

    #[test]
    fn a_huge_entry_count_is_not_trusted() {
        let mut data = real_index();
        data[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(parse(&data).is_none());
    }

    /// Every entry's path range lies inside the path buffer, so using the answer cannot panic.
    fn paths_in_bounds(index: &Index) -> bool {
        index.entries.iter().all(|e| e.start <= e.end && e.end <= index.paths.len())
    }

    #[test]
    fn every_truncation_and_byte_flip_gives_a_usable_answer_or_none() {
        let data = real_index();
        let full = parse(&data).unwrap();
        for len in 0..data.len() {
            // The entries end before the cache tree: a cut leaves them whole or refuses.
            if let Some(index) = parse(&data[..len]) {
                assert_eq!(index.paths, full.paths, "cut at {len}");
            }
        }
        for at in 0..data.len() {
            for value in [0x00, 0xff, 0x7f, b'9'] {
                let mut bad = data.clone();
                bad[at] = value;
                assert!(parse(&bad).is_none_or(|index| paths_in_bounds(&index)), "{at}");
            }
        }
    }

    #[test]
    fn a_deep_or_wide_cache_tree_is_refused_without_recursing_or_reserving() {
        let mut wide = b"\x00-1 4294967295\n".to_vec();
        assert!(tree_node(&mut &wide[..], 0).is_none());
        wide.clear();
        for _ in 0..200_000 {
            wide.extend_from_slice(b"\x00-1 1\n");
        }
        assert!(tree_node(&mut &wide[..], 0).is_none());
    }
}
