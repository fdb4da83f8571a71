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
use std::ops::Range;

/// One stage-0 index entry.
#[derive(Clone, Copy, Debug)]
pub struct IndexEntry {
    /// Byte range of the path in [`Index::paths`].
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// The object id's bytes ([`IndexEntry::oid`]).
    pub id: [u8; 20],
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
    /// The `git add -N` entries, which [`Index::entries`] leaves out (their paths are in
    /// [`Index::paths`] too).
    pub intent_to_add: Vec<IndexEntry>,
    /// Whether some path is one libgit2 refuses to read (a `.` or `..` component, `.git` or
    /// its NTFS aliases, or a byte past ASCII, which `core.protectHFS` may refuse): libgit2's
    /// whole read of the index fails then, and a caller that must answer as libgit2 does
    /// takes that path ([`may_libgit2_refuse`]).
    pub has_path_libgit2_may_refuse: bool,
}

impl IndexEntry {
    /// The object id.
    #[must_use]
    pub fn oid(&self) -> Oid {
        Oid::from_bytes(&self.id).expect("an id of 20 bytes")
    }
}

impl Index {
    /// The path of entry `e`.
    #[must_use]
    pub fn path(&self, e: &IndexEntry) -> &[u8] {
        &self.paths[e.start..e.end]
    }

    /// The stage-0 entry at `path` (not a `git add -N` one), by binary search.
    #[must_use]
    pub fn find(&self, path: &[u8]) -> Option<&IndexEntry> {
        let at = self.entries.binary_search_by(|e| self.path(e).cmp(path)).ok()?;
        Some(&self.entries[at])
    }
}

/// Whether libgit2 might refuse `path` in an index (its `GIT_PATH_REJECT_INDEX_DEFAULTS` with
/// `core.protectNTFS` on, as by default, and `core.protectHFS` possibly on): a traversal
/// component, `.git` or `git~1` (any case) followed by nothing, dots and spaces only, a backslash
/// or `:`, and anything not ASCII (HFS ignores some invisible characters inside `.git`). A
/// superset: a `true` only means libgit2 must be asked.
#[must_use]
pub fn may_libgit2_refuse(path: &[u8]) -> bool {
    if !path.is_ascii() {
        return true;
    }
    let mut start = 0;
    for (i, &b) in path.iter().enumerate() {
        if b == b'/' {
            if may_refuse_component(&path[start..i]) {
                return true;
            }
            start = i + 1;
        }
    }
    may_refuse_component(&path[start..])
}

fn may_refuse_component(c: &[u8]) -> bool {
    // What may follow a reserved name: NTFS drops trailing dots and spaces, a backslash separates
    // and `:` opens an alternate stream.
    let aliases_it = |rest: &[u8]| {
        matches!(rest.first(), Some(b'\\' | b':')) || rest.iter().all(|&b| b == b' ' || b == b'.')
    };
    match c.first() {
        Some(b'.') => {
            c.len() <= 2 && c.iter().all(|&b| b == b'.')
                || c.len() >= 4 && c[1..4].eq_ignore_ascii_case(b"git") && aliases_it(&c[4..])
        }
        Some(b'g' | b'G') => {
            c.len() >= 5 && c[..5].eq_ignore_ascii_case(b"git~1") && aliases_it(&c[5..])
        }
        _ => false,
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
    parse_with(data, true)
}

/// [`parse`] without the cache tree ([`Index::cache`] stays `None`): for a caller that needs
/// only the paths (the guard's file list), to which building it cost a fifth of the read.
#[must_use]
pub fn parse_entries(data: &[u8]) -> Option<Index> {
    parse_with(data, false)
}

fn parse_with(data: &[u8], cache_tree: bool) -> Option<Index> {
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
    // Both filled in one pass: reserved at once (on huge pages when large), where growing them
    // copied each several times and faulted in every page of every copy.
    let mut index = Index {
        entries: crate::bigbuf::vec_with_capacity(reserve),
        paths: crate::bigbuf::vec_with_capacity(data.len()),
        ..Index::default()
    };
    let mut reader = Reader { data, version, previous: Vec::new(), last: 0..0, last_dir: 0 };
    let mut pos = 12;
    for _ in 0..count {
        pos = reader.entry(pos, &mut index)?;
    }
    match extensions(data.get(pos..body_end)?, cache_tree) {
        Extensions::Understood(cache) => index.cache = cache,
        Extensions::Unsupported => return None,
    }
    Some(index)
}

/// The entry loop's state.
struct Reader<'d> {
    data: &'d [u8],
    version: u32,
    /// The previous path, for index v4's prefix compression.
    previous: Vec<u8>,
    /// The previous entry's path in [`Index::paths`].
    last: Range<usize>,
    /// The length of its directory part.
    last_dir: usize,
}

impl Reader<'_> {
    /// Read the entry at `pos`; returns the next position.
    fn entry(&mut self, pos: usize, index: &mut Index) -> Option<usize> {
        let data = self.data;
        let mode = be32(data, pos + 24)?;
        let id: [u8; HASH_LEN] = data.get(pos + 40..pos + 40 + HASH_LEN)?.try_into().ok()?;
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
        let next = if self.version == 4 {
            let (strip, after) = varint(data, at)?;
            let nul = memchr::memchr(0, data.get(after..)?)?;
            let prev = &mut self.previous;
            prev.truncate(prev.len().checked_sub(strip)?);
            prev.extend_from_slice(&data[after..after + nul]);
            index.paths.extend_from_slice(prev);
            after + nul + 1
        } else {
            // libgit2 steps over the length the flags give (below 0xfff) and reads the path up
            // to its NUL: a NUL elsewhere is left to it (checked by `is_next_path`).
            let len = match usize::from(flags & 0xfff) {
                0xfff => memchr::memchr(0, data.get(at..)?)?,
                len if *data.get(at + len)? == 0 => len,
                _ => return None,
            };
            index.paths.extend_from_slice(&data[at..at + len]);
            // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
            pos + ((at - pos + len + 8) & !7)
        };
        let end = index.paths.len();
        let (previous, path) = index.paths.split_at(start);
        let (refused, dir) = is_next_path(&previous[self.last.clone()], self.last_dir, path)?;
        self.last_dir = dir;
        index.has_path_libgit2_may_refuse |= refused;
        self.last = start..end;
        let entry = IndexEntry { start, end, id, mode };
        if extended & XFLAG_INTENT_TO_ADD == 0 {
            index.entries.push(entry);
        } else {
            index.intent_to_add.push(entry); // `git add -N`: not part of the next commit.
        }
        Some(next)
    }
}

/// Whether `path` may be refused by libgit2 ([`may_libgit2_refuse`]) and the length of its
/// directory part (up to its last `/`), or `None` when it does not sort after `previous` or
/// holds a NUL. git keeps the entries sorted by path, and the hook's walk relies on it (the
/// paths below a directory are contiguous): an index out of order is corrupt and left to
/// libgit2 (found by the index fuzz target, which made the walk slice past a path). Only the
/// components after the directories shared with `previous` (whose directory part is
/// `previous_dir` bytes) are screened: those were screened with it.
fn is_next_path(previous: &[u8], previous_dir: usize, path: &[u8]) -> Option<(bool, usize)> {
    let common = common_prefix(previous, path);
    if common == path.len() || (common < previous.len() && previous[common] > path[common]) {
        return None;
    }
    let mut from = previous_dir;
    if common < previous_dir {
        from = common;
        while from > 0 && path[from - 1] != b'/' {
            from -= 1;
        }
    }
    let new = &path[from..];
    let (mut has_nul, mut has_slash, mut bits) = (false, false, 0u8);
    for &b in new {
        has_nul |= b == 0;
        has_slash |= b == b'/';
        bits |= b;
    }
    if has_nul {
        return None;
    }
    if bits < 0x80 && !has_slash {
        return Some((may_refuse_component(new), from));
    }
    let dir = path.iter().rposition(|&b| b == b'/').map_or(0, |slash| slash + 1);
    Some((may_libgit2_refuse(new), dir))
}

/// The length of the common prefix of `a` and `b`, eight bytes at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + 8 <= len {
        let word = |s: &[u8]| u64::from_le_bytes(s[at..at + 8].try_into().expect("eight bytes"));
        let differ = word(a) ^ word(b);
        if differ != 0 {
            return at + (differ.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < len && a[at] == b[at] {
        at += 1;
    }
    at
}

/// What the extensions say: the cache tree if any, or that the index needs libgit2.
enum Extensions {
    Understood(Option<CacheNode>),
    Unsupported,
}

/// Walk the extensions (the cache tree read only when `cache_tree`). A required extension we
/// don't know makes the index unsupported.
fn extensions(mut data: &[u8], cache_tree: bool) -> Extensions {
    let mut cache = None;
    while data.len() >= 8 {
        let Some(size) = be32(data, 4) else { return Extensions::Unsupported };
        let Some(body) = data.get(8..8 + size as usize) else { return Extensions::Unsupported };
        match &data[..4] {
            b"TREE" if cache_tree => cache = tree_node(&mut &body[..], 0),
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
    fn the_entries_alone_are_those_of_the_whole_read() {
        let data = real_index();
        let (whole, entries) = (parse(&data).unwrap(), parse_entries(&data).unwrap());
        assert!(whole.cache.is_some() && entries.cache.is_none());
        assert_eq!(whole.paths, entries.paths);
        let ids = |index: &Index| {
            index.entries.iter().map(|e| (e.start, e.end, e.id, e.mode)).collect::<Vec<_>>()
        };
        assert_eq!(ids(&whole), ids(&entries));
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

    /// An index of one file whose path is `path`, with a zero checksum (libgit2 skips it).
    fn one_path_index(dir: &std::path::Path, path: &[u8]) -> Vec<u8> {
        let name = "a".repeat(path.len());
        std::fs::write(dir.join(&name), "x\n").unwrap();
        let repo = git2::Repository::init(dir).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(std::path::Path::new(&name)).unwrap();
        index.write().unwrap();
        let mut data = std::fs::read(dir.join(".git/index")).unwrap();
        // The one entry's path follows the 12-byte header and the entry's 62 fixed bytes; searching
        // for the name instead could hit a timestamp or inode byte that happens to spell it.
        let at = 12 + 62;
        assert_eq!(&data[at..at + name.len()], name.as_bytes());
        data[at..at + path.len()].copy_from_slice(path);
        let len = data.len();
        data[len - HASH_LEN..].fill(0);
        data
    }

    /// The screen flags every path libgit2 refuses to read, and for ASCII paths exactly those.
    #[test]
    fn the_screen_flags_what_libgit2_refuses() {
        let paths: [&[u8]; 26] = [
            b".git",
            b".GIT",
            b".gIt.",
            b".git ",
            b".git. .",
            b".git:x",
            b".git\\x",
            b"git~1",
            b"GIT~1.",
            b"git~1:s",
            b".gitignore",
            b".github/x",
            b"a/.git/b",
            b"a/./b",
            b"a/../b",
            b".",
            b"..",
            b"...",
            b"x/.x",
            b"gitx",
            b"git~2",
            b"a/.git",
            b"a/GIT~1/b",
            b"plain/path.txt",
            b"caf\xc3\xa9",
            b"a/.gitx/.git-",
        ];
        for path in paths {
            let dir = tempfile::tempdir().unwrap();
            let data = one_path_index(dir.path(), path);
            std::fs::write(dir.path().join(".git/index"), &data).unwrap();
            let is_refused = git2::Repository::open(dir.path()).unwrap().index().is_err();
            let flagged = parse(&data).unwrap().has_path_libgit2_may_refuse;
            let shown = String::from_utf8_lossy(path);
            assert!(flagged || !is_refused, "{shown}: refused by libgit2, not flagged");
            if path.is_ascii() {
                assert_eq!(flagged, is_refused, "{shown}");
            }
            assert_eq!(may_libgit2_refuse(path), flagged, "{shown}");
        }
    }

    #[test]
    fn a_nul_inside_a_path_or_a_wrong_length_is_left_to_libgit2() {
        let dir = tempfile::tempdir().unwrap();
        let data = one_path_index(dir.path(), b"abc");
        assert!(parse(&data).is_some());
        let at = data.windows(4).position(|w| w == b"abc\0").unwrap();
        let mut nul = data.clone();
        nul[at + 1] = 0;
        assert!(parse(&nul).is_none());
        let mut long = data.clone();
        long[at - 1] = 4; // the flags' name length
        assert!(parse(&long).is_none());
    }

    #[test]
    fn find_looks_up_stage_0_entries() {
        let index = parse(&real_index()).unwrap();
        assert_eq!(index.find(b"d/b").map(|e| index.path(e)), Some(&b"d/b"[..]));
        assert!(index.find(b"d").is_none());
        assert!(index.find(b"zz").is_none());
    }
}
