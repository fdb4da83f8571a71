//! How a suggestion [`Index`] keeps its paths: the basenames bucketed by length, each bucket one
//! run of fixed-width records (every name in it has the bucket's length: no separator), apart
//! from their directories. A query scans only the names within reach of its length; the
//! directories are read only for the few names that match it.
//!
//! The layout (the blob), in this order: the names, bucket after bucket by ascending length;
//! per entry, in the same order, the id of its directory (`u32`, little-endian); per directory
//! the offset of its path in the text that follows (`u32`; one more than there are
//! directories, the last being the text's end); the directories' paths, one after the other.
//! A cache file (`guard::cache`) keeps the blob after its header and the layout's description
//! ([`Index::layout`]); an index read from it reads nothing until a query, and then only the
//! names in its window and the directories of the names that match, in pieces of at most
//! [`CHUNK`] bytes through one reused buffer (a fresh buffer the size of the window cost a page
//! fault every 4 KB, a third of a warm miss).

use std::ops::{Range, RangeInclusive};
use std::os::unix::fs::FileExt as _;

/// Bytes of names read from a cache at a time.
const CHUNK: usize = 64 * 1024;
/// Candidates up to which each one's directory is read on its own; past it, the ids and the
/// directories are read in one piece each.
const FEW: usize = 16;

/// Repository paths of one kind (files, or directories) bucketed by basename length.
///
/// Built by a counting sort, linear in the paths: the index is rebuilt on the guard's first
/// miss after git's index changed, where a comparison sort of 100,000 names was most of the
/// call.
pub struct Index {
    /// `(length, number of names)` per name length present, ascending.
    buckets: Vec<(usize, usize)>,
    /// How many directories the blob holds.
    dirs: usize,
    /// The length of their paths' text.
    text: usize,
    store: Store,
    /// Entries whose directory this names are left out (a delta's changed directories).
    hide: Option<Hide>,
}

/// Which entries of a cached index to leave out, by their directory's path.
pub(crate) type Hide = Box<dyn Fn(&[u8]) -> bool>;

enum Store {
    /// Built here.
    Memory(Vec<u8>),
    /// In a cache file, the blob starting at `at`.
    File { file: std::fs::File, at: u64 },
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("buckets", &self.buckets)
            .field("dirs", &self.dirs)
            .field("text", &self.text)
            .field("on_disk", &matches!(self.store, Store::File { .. }))
            .field("hides", &self.hide.is_some())
            .finish_non_exhaustive()
    }
}

impl Default for Index {
    fn default() -> Self {
        Self::new(std::iter::empty())
    }
}

/// Where the parts of a blob start, from its buckets and number of directories.
struct Parts {
    /// The first entry of each bucket, and where its names start.
    starts: Vec<(usize, usize)>,
    ids: usize,
    offsets: usize,
    text: usize,
}

impl Parts {
    fn of(buckets: &[(usize, usize)], dirs: usize) -> Option<Self> {
        let (mut entries, mut names) = (0usize, 0usize);
        let mut starts = Vec::with_capacity(buckets.len());
        for &(len, count) in buckets {
            starts.push((entries, names));
            entries = entries.checked_add(count)?;
            names = names.checked_add(len.checked_mul(count)?)?;
        }
        let offsets = names.checked_add(entries.checked_mul(4)?)?;
        let text = offsets.checked_add(dirs.checked_add(1)?.checked_mul(4)?)?;
        Some(Self { starts, ids: names, offsets, text })
    }
}

impl Index {
    /// Index repository-relative `paths` (paths holding a newline or NUL, or ending in `/`, are
    /// left out; a path repeated right after itself counts once).
    pub fn new<'a>(paths: impl Iterator<Item = &'a str>) -> Self {
        let (entries, dirs) = split(paths);
        let longest = entries.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        let mut counts = vec![0usize; longest + 1];
        for (name, _) in &entries {
            counts[name.len()] += 1;
        }
        let buckets: Vec<(usize, usize)> =
            counts.iter().enumerate().filter(|(_, n)| **n > 0).map(|(l, n)| (l, *n)).collect();
        let parts = Parts::of(&buckets, dirs.len()).expect("sizes of paths held in memory");
        let text_len: usize = dirs.iter().map(|d| d.len()).sum();
        let mut blob = vec![0u8; parts.text + text_len];
        // Per length, the next entry's number.
        let mut next = vec![0usize; longest + 1];
        for (&(len, _), &(first, _)) in buckets.iter().zip(&parts.starts) {
            next[len] = first;
        }
        let bucket_of = |len: usize| buckets.binary_search_by_key(&len, |b| b.0).unwrap_or(0);
        for (name, dir) in &entries {
            let entry = next[name.len()];
            next[name.len()] += 1;
            let (first, names_at) = parts.starts[bucket_of(name.len())];
            let at = names_at + (entry - first) * name.len();
            blob[at..at + name.len()].copy_from_slice(name.as_bytes());
            let id = parts.ids + 4 * entry;
            blob[id..id + 4].copy_from_slice(&dir.to_le_bytes());
        }
        let mut end = 0u32;
        for (i, dir) in dirs.iter().enumerate() {
            let at = parts.text + end as usize;
            blob[at..at + dir.len()].copy_from_slice(dir.as_bytes());
            blob[parts.offsets + 4 * i..][..4].copy_from_slice(&end.to_le_bytes());
            end += u32::try_from(dir.len()).expect("split keeps the text under 4 GiB");
        }
        blob[parts.offsets + 4 * dirs.len()..][..4].copy_from_slice(&end.to_le_bytes());
        Self { buckets, dirs: dirs.len(), text: text_len, store: Store::Memory(blob), hide: None }
    }

    /// An index kept in the cache `file`, its blob (`len` bytes) at `at`, laid out as
    /// `layout` ([`Index::layout`]) says; `None` when the two disagree. Nothing is read yet.
    pub(crate) fn on_disk(
        file: std::fs::File,
        (at, len): (u64, usize),
        layout: &str,
        hide: Option<Hide>,
    ) -> Option<Self> {
        let (dirs, lengths) = layout.split_once(';')?;
        let (dirs, text) = dirs.split_once(',')?;
        let (dirs, text): (usize, usize) = (dirs.parse().ok()?, text.parse().ok()?);
        let mut buckets: Vec<(usize, usize)> = Vec::new();
        for item in lengths.split(',').filter(|l| !l.is_empty()) {
            let (length, count) = item.split_once(':')?;
            let bucket: (usize, usize) = (length.parse().ok()?, count.parse().ok()?);
            let ascending = buckets.last().is_none_or(|last| last.0 < bucket.0);
            if bucket.0 == 0 || bucket.1 == 0 || !ascending {
                return None;
            }
            buckets.push(bucket);
        }
        let parts = Parts::of(&buckets, dirs)?;
        // A file cut short is rebuilt, not read as a list with holes.
        let whole = file.metadata().ok()?.len() >= at.checked_add(len as u64)?;
        if parts.text.checked_add(text)? != len || !whole || u32::try_from(text).is_err() {
            return None;
        }
        Some(Self { buckets, dirs, text, store: Store::File { file, at }, hide })
    }

    /// The layout as one word (`<directories>,<bytes of their paths>;<length>:<names>,...`),
    /// for the cache header.
    pub(crate) fn layout(&self) -> String {
        let items: Vec<String> = self.buckets.iter().map(|(l, n)| format!("{l}:{n}")).collect();
        format!("{},{};{}", self.dirs, self.text, items.join(","))
    }

    /// The whole blob, for writing the cache; `None` for an index read from one.
    pub(crate) fn blob(&self) -> Option<&[u8]> {
        match &self.store {
            Store::Memory(blob) => Some(blob),
            Store::File { .. } => None,
        }
    }

    /// Number of paths indexed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.buckets.iter().map(|b| b.1).sum()
    }

    /// Whether nothing is indexed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// `each(entry, name)` for the names whose length is in `lengths`, in the index's order, as
    /// bytes (UTF-8 when written here; a damaged cache may hold anything). The rest of a
    /// bucket that cannot be read is skipped.
    pub(crate) fn scan(&self, lengths: RangeInclusive<usize>, mut each: impl FnMut(usize, &[u8])) {
        let parts = Parts::of(&self.buckets, self.dirs).expect("checked when made");
        let mut buf = Vec::new();
        for (&(len, count), &(first, at)) in self.buckets.iter().zip(&parts.starts) {
            if !lengths.contains(&len) {
                continue;
            }
            // Whole records a piece: at least one.
            let per_piece = (CHUNK / len).max(1);
            let mut done = 0;
            while done < count {
                let records = per_piece.min(count - done);
                let range = at + done * len..at + (done + records) * len;
                let Some(bytes) = self.store.bytes(range, &mut buf) else { break };
                for (i, name) in bytes.chunks_exact(len).enumerate() {
                    each(first + done + i, name);
                }
                done += records;
            }
        }
    }

    /// The directory of each of `entries` (ascending numbers from [`Index::scan`]), `None` for
    /// one this index hides or cannot read.
    pub(crate) fn dirs_of(&self, entries: &[usize]) -> Vec<Option<String>> {
        let parts = Parts::of(&self.buckets, self.dirs).expect("checked when made");
        let ids = self.ids(&parts, entries);
        let paths = self.paths(&parts, &ids);
        let hidden = |dir: &[u8]| self.hide.as_ref().is_some_and(|hide| hide(dir));
        paths
            .into_iter()
            .map(|dir| dir.filter(|d| !hidden(d)).and_then(|d| String::from_utf8(d).ok()))
            .collect()
    }

    /// The directory ids of `entries`: each read on its own when they are few, else the span
    /// from the first to the last at once.
    fn ids(&self, parts: &Parts, entries: &[usize]) -> Vec<Option<usize>> {
        let mut buf = Vec::new();
        let (Some(&first), Some(&last)) = (entries.first(), entries.last()) else {
            return Vec::new();
        };
        let span = (entries.len() > FEW).then(|| {
            let range = parts.ids + 4 * first..parts.ids + 4 * (last + 1);
            self.store.bytes(range, &mut buf).map(<[u8]>::to_vec)
        });
        let mut one = Vec::new();
        entries
            .iter()
            .map(|&entry| {
                let word = match &span {
                    Some(span) => span.as_ref()?.get(4 * (entry - first)..)?.get(..4)?,
                    None => self
                        .store
                        .bytes(parts.ids + 4 * entry..parts.ids + 4 * entry + 4, &mut one)?,
                };
                let id = u32::from_le_bytes(word.try_into().ok()?) as usize;
                (id < self.dirs).then_some(id)
            })
            .collect()
    }

    /// The paths of the directories `ids`: each read on its own when they are few, else the
    /// whole table and text at once.
    fn paths(&self, parts: &Parts, ids: &[Option<usize>]) -> Vec<Option<Vec<u8>>> {
        let mut buf = Vec::new();
        if ids.len() <= FEW {
            return ids
                .iter()
                .map(|id| {
                    let at = parts.offsets + 4 * (*id)?;
                    let bounds = self.store.bytes(at..at + 8, &mut buf)?;
                    let range = text_range(bounds, parts.text)?;
                    self.store.bytes(range, &mut buf).map(<[u8]>::to_vec)
                })
                .collect();
        }
        let Some(offsets) =
            self.store.bytes(parts.offsets..parts.text, &mut buf).map(<[u8]>::to_vec)
        else {
            return vec![None; ids.len()];
        };
        let end = offsets.len().checked_sub(4).and_then(|at| offsets.get(at..));
        let end = end.and_then(|word| Some(u32::from_le_bytes(word.try_into().ok()?) as usize));
        let Some(text) =
            end.and_then(|end| self.store.bytes(parts.text..parts.text + end, &mut buf))
        else {
            return vec![None; ids.len()];
        };
        ids.iter()
            .map(|id| {
                let range = text_range(offsets.get(4 * (*id)?..)?.get(..8)?, 0)?;
                text.get(range).map(<[u8]>::to_vec)
            })
            .collect()
    }
}

/// The range of a directory's path from its two offsets (`bounds`: eight bytes), in a text
/// starting at `text`.
fn text_range(bounds: &[u8], text: usize) -> Option<Range<usize>> {
    let word = |at: usize| Some(u32::from_le_bytes(bounds.get(at..at + 4)?.try_into().ok()?));
    let (start, end) = (word(0)? as usize, word(4)? as usize);
    (start <= end).then(|| text + start..text + end)
}

impl Store {
    /// The bytes at `range` of the blob: borrowed from memory, or read into `buf`.
    fn bytes<'a>(&'a self, range: Range<usize>, buf: &'a mut Vec<u8>) -> Option<&'a [u8]> {
        match self {
            Self::Memory(blob) => blob.get(range),
            Self::File { file, at } => {
                buf.clear();
                buf.resize(range.len(), 0);
                file.read_exact_at(buf, at + range.start as u64).ok()?;
                Some(buf)
            }
        }
    }
}

/// `(name, directory id)` of each usable path, and the directories' paths (a directory whose
/// paths come apart, split by its subdirectories', is kept once per run: only space). Paths past
/// what `u32` offsets reach are left out.
fn split<'a>(paths: impl Iterator<Item = &'a str>) -> (Vec<(&'a str, u32)>, Vec<&'a str>) {
    let mut entries: Vec<(&str, u32)> = Vec::new();
    let mut dirs: Vec<&str> = Vec::new();
    let mut text = 0usize;
    let mut previous = None;
    // Byte searches: a `char` pattern costs a tenth of a rebuild over 100,000 paths.
    let usable = |p: &&str| !p.is_empty() && memchr::memchr2(b'\n', b'\0', p.as_bytes()).is_none();
    for path in paths.filter(usable) {
        if previous == Some(path) {
            continue;
        }
        previous = Some(path);
        let (name, dir) = match memchr::memrchr(b'/', path.as_bytes()) {
            // The `/` is one byte: both sides are whole strings.
            Some(at) => (&path[at + 1..], &path[..at]),
            None => (path, ""),
        };
        if name.is_empty() {
            continue;
        }
        if dirs.last() != Some(&dir) {
            text += dir.len();
            if text > u32::MAX as usize || dirs.len() >= u32::MAX as usize {
                break;
            }
            dirs.push(dir);
        }
        #[allow(clippy::cast_possible_truncation, reason = "checked against u32::MAX above")]
        entries.push((name, (dirs.len() - 1) as u32));
    }
    (entries, dirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry's name and directory, through `scan` and `dirs_of`.
    fn all(index: &Index) -> Vec<String> {
        let mut found = Vec::new();
        index.scan(0..=usize::MAX, |entry, name| {
            found.push((entry, String::from_utf8(name.to_vec()).unwrap()));
        });
        let entries: Vec<usize> = found.iter().map(|f| f.0).collect();
        let dirs = index.dirs_of(&entries);
        found
            .into_iter()
            .zip(dirs)
            .map(|((_, name), dir)| format!("{}/{name}", dir.unwrap_or_else(|| "?".to_owned())))
            .collect()
    }

    fn cached(index: &Index, hide: Option<Hide>) -> Index {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, b"head").unwrap();
        let blob = index.blob().unwrap();
        std::io::Write::write_all(&mut file, blob).unwrap();
        Index::on_disk(file, (4, blob.len()), &index.layout(), hide).unwrap()
    }

    #[test]
    fn names_come_by_length_with_their_directories_from_memory_and_from_a_file() {
        // More than FEW candidates and fewer; a directory split by a subdirectory's paths.
        let mut paths: Vec<String> = vec!["top.rs".to_owned(), "a/b.py".to_owned()];
        paths.extend((0..40).map(|i| format!("a/c/f{i}.rs")));
        paths.extend(["a/zz.py".to_owned(), "a/zz.py".to_owned(), "a/".to_owned()]);
        let index = Index::new(paths.iter().map(String::as_str));
        assert_eq!(index.len(), 43, "a repeat and a name-less path left out");
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        let expected = sorted(
            paths[..43]
                .iter()
                .map(|p| if p.contains('/') { p.clone() } else { format!("/{p}") })
                .collect(),
        );
        assert_eq!(sorted(all(&index)), expected);
        assert_eq!(sorted(all(&cached(&index, None))), expected);
        // A few entries: each directory read on its own.
        let few = cached(&index, None);
        let mut one = Vec::new();
        few.scan(4..=4, |entry, name| one.push((entry, String::from_utf8(name.to_vec()).unwrap())));
        assert_eq!(one.iter().map(|o| o.1.as_str()).collect::<Vec<_>>(), ["b.py"]);
        assert_eq!(few.dirs_of(&[one[0].0]), [Some("a".to_owned())]);
    }

    #[test]
    fn a_hidden_directory_s_entries_have_none() {
        let paths = ["a/x.rs", "b/y.rs", "b/z.rs"];
        let index = cached(&Index::new(paths.into_iter()), Some(Box::new(|dir| dir == b"b")));
        assert_eq!(all(&index), ["a/x.rs", "?/y.rs", "?/z.rs"]);
    }

    #[test]
    fn a_layout_that_does_not_fit_the_blob_is_refused() {
        let index = Index::new(["a/x.rs"].into_iter());
        let blob = index.blob().unwrap().to_vec();
        let file = || {
            let mut file = tempfile::tempfile().unwrap();
            std::io::Write::write_all(&mut file, &blob).unwrap();
            file
        };
        assert!(Index::on_disk(file(), (0, blob.len()), &index.layout(), None).is_some());
        assert_eq!(index.layout(), "1,1;4:1");
        for layout in [
            "1,1;4:2,3:1",
            "1,1;0:1",
            "1,1;4:0",
            "9,1;4:1",
            "1,2;4:1",
            "1,0;4:1",
            "1;4:1",
            "x,1;4:1",
            "1,1",
            "1,1;4:99999999999",
            "1,1;",
        ] {
            assert!(Index::on_disk(file(), (0, blob.len()), layout, None).is_none(), "{layout}");
        }
        // Damaged ids or offsets give no directory, never a panic.
        let mut bad = blob.clone();
        let ids = 4;
        bad[ids..ids + 4].copy_from_slice(&7u32.to_le_bytes());
        let mut f = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut f, &bad).unwrap();
        let index = Index::on_disk(f, (0, bad.len()), &index.layout(), None).unwrap();
        assert_eq!(all(&index), ["?/x.rs"]);
    }
}
