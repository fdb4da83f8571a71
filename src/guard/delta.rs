//! The git index's file list after the index changed, without building and writing the whole
//! list again: the cached list (the base, which keeps after its text the signature of the names
//! it lists in each directory) with the directories whose names changed since left out, and the
//! names the index lists in those directories now beside it.
//!
//! Staging and committing mostly leave the index's names as they were (a commit, `git add` of a
//! changed file) or change a few directories' (`git add` of a new file, `git rm`): the first miss
//! after such a change reads the index and compares each directory's signature with the base's,
//! and writes only the changed directories (`files-v8.delta`). Past [`MAX_PATHS`] names or
//! [`MAX_DIRS`] directories the whole list is built again.
//!
//! The delta lives where code the agent runs can write, as the cache does: what is read back
//! only shapes suggestions, and is bounded.

use super::cache::{Header, read_cache_hiding};
use super::names::Hide;
use super::signature::{Prehashed, Run, name_hash};
use super::suggest::Index;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::hash::BuildHasherDefault;
use std::io::Read as _;
use std::io::Seek as _;
use std::path::Path;

const DELTA: &str = "files-v8.delta";
/// Names of changed directories kept in a delta at most.
const MAX_PATHS: usize = 4096;
/// Changed directories kept in a delta at most.
const MAX_DIRS: usize = 1024;
/// Bytes of one directory's record after the base's text: key, signature (both `u64`) and the
/// directory's length (`u32`), little-endian.
const RECORD: usize = 20;

/// Per directory, keyed by [`name_hash`] of its path: the signature of the names listed in it
/// (XOR of their hashes) and the length of its path.
type Signatures = HashMap<u64, (u64, u32), BuildHasherDefault<Prehashed>>;
/// Directories by [`name_hash`] of their path.
type Keys = HashSet<u64, BuildHasherDefault<Prehashed>>;

/// The lists for the index `key` (any: `None`) from the delta and the base `cache` it was made
/// against: the base without the changed directories, and their names now. `None` without a
/// delta for that index and that base.
pub(super) fn read(dir: &Path, cache: &Path, key: Option<&str>) -> Option<Vec<Index>> {
    let text = std::fs::read_to_string(dir.join(DELTA)).ok()?;
    let delta = Delta::parse(&text)?;
    if key.is_some_and(|key| key != delta.index_key) {
        return None;
    }
    let changed = delta.changed;
    let hide: Option<Hide> = (!changed.keys.is_empty()).then(|| {
        let hide: Hide = Box::new(move |dir: &[u8]| changed.contains(dir));
        hide
    });
    let base = read_cache_hiding(cache, Some(delta.base_key), hide)?;
    Some(vec![base, Index::new(delta.paths.iter().copied())])
}

/// Write the delta of `paths` (the index's files now, sorted, in their [`Run`]s) for the index
/// `key` against the base `cache`; `false` when there is no base to compare with or the changes
/// are too many.
pub(super) fn write(dir: &Path, cache: &Path, key: &str, (paths, runs): (&[&str], &[Run])) -> bool {
    let Some((base_key, base)) = read_base(cache) else { return false };
    let now = signatures(runs);
    let mut changed: Vec<(u64, u32)> = Vec::new();
    for (dir_key, &(signature, len)) in &now {
        if base.get(dir_key).is_none_or(|&(old, _)| old != signature) {
            changed.push((*dir_key, len));
        }
    }
    for (dir_key, &(_, len)) in &base {
        if !now.contains_key(dir_key) {
            changed.push((*dir_key, len));
        }
    }
    if changed.len() > MAX_DIRS {
        return false;
    }
    let keys: Keys = changed.iter().map(|&(dir_key, _)| dir_key).collect();
    let mut listed: Vec<&str> = Vec::new();
    let mut start = 0;
    for run in runs {
        if keys.contains(&run.key) {
            listed.extend_from_slice(&paths[start..run.end]);
            if listed.len() > MAX_PATHS {
                return false;
            }
        }
        start = run.end;
    }
    let mut text = format!("{key}\n{base_key}\n");
    for (dir_key, len) in &changed {
        let _ = write!(text, "{dir_key:x}:{len},");
    }
    text.push('\n');
    for path in listed.iter().filter(|p| !p.contains(['\n', '\0'])) {
        text.push_str(path);
        text.push('\n');
    }
    let written = tempfile::NamedTempFile::new_in(dir).and_then(|mut file| {
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.persist(dir.join(DELTA)).map_err(|e| e.error)
    });
    written.is_ok()
}

/// The signatures of the directories of `runs`, as records to keep after the base's text.
pub(super) fn signatures_bytes(runs: &[Run]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (key, (signature, len)) in signatures(runs) {
        bytes.extend_from_slice(&key.to_le_bytes());
        bytes.extend_from_slice(&signature.to_le_bytes());
        bytes.extend_from_slice(&len.to_le_bytes());
    }
    bytes
}

fn signatures(runs: &[Run]) -> Signatures {
    let mut signatures = Signatures::default();
    for run in runs {
        signatures.entry(run.key).or_insert((0, run.dir_len)).0 ^= run.signature;
    }
    signatures
}

/// The base's key and the signatures kept after its text.
fn read_base(cache: &Path) -> Option<(String, Signatures)> {
    let mut file = std::fs::File::open(cache).ok()?;
    let header = Header::read(&file)?;
    file.seek(std::io::SeekFrom::Start(header.len + header.total as u64)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    if bytes.is_empty() || bytes.len() % RECORD != 0 {
        return None;
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
    let signatures = bytes
        .chunks_exact(RECORD)
        .map(|r| {
            let len = u32::from_le_bytes(r[16..].try_into().expect("four bytes"));
            (word(&r[..8]), (word(&r[8..16]), len))
        })
        .collect();
    Some((header.key, signatures))
}

/// A delta as written: the index it is of, the base it is against, the changed directories
/// and the names listed in them now.
struct Delta<'t> {
    index_key: &'t str,
    base_key: &'t str,
    changed: Changed,
    paths: Vec<&'t str>,
}

/// The directories whose names changed since the base.
struct Changed {
    keys: Keys,
    /// Which lengths of directory paths a changed one has (the last slot: that length or more).
    lengths: [bool; 256],
}

impl Changed {
    /// Whether `dir` is one of them.
    fn contains(&self, dir: &[u8]) -> bool {
        self.lengths[dir.len().min(255)] && self.keys.contains(&name_hash(dir))
    }
}

impl<'t> Delta<'t> {
    fn parse(text: &'t str) -> Option<Self> {
        let mut lines = text.split_terminator('\n');
        let (index_key, base_key) = (lines.next()?, lines.next()?);
        let mut changed = Changed { keys: Keys::default(), lengths: [false; 256] };
        for item in lines.next()?.split_terminator(',').take(MAX_DIRS) {
            let (key, len) = item.split_once(':')?;
            changed.keys.insert(u64::from_str_radix(key, 16).ok()?);
            changed.lengths[len.parse::<usize>().ok()?.min(255)] = true;
        }
        Some(Delta { index_key, base_key, changed, paths: lines.take(MAX_PATHS).collect() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::suggest::suggest_all;

    fn runs(paths: &[&str]) -> Vec<Run> {
        crate::guard::signature::runs(paths.iter().map(|p| p.as_bytes()))
    }

    /// The paths of `lists` named `name`, in any directory.
    fn named(lists: &[Index], name: &str) -> Vec<String> {
        let lists: Vec<&Index> = lists.iter().collect();
        let found = suggest_all(&lists, &format!("nowhere/{name}"), 10);
        found.into_iter().filter(|p| p.rsplit('/').next() == Some(name)).collect()
    }

    /// A base of `paths` with their signatures, for the index `i1`.
    fn write_base(cache: &Path, paths: &[&str]) {
        let index = Index::new(paths.iter().copied());
        let signatures = signatures_bytes(&runs(paths));
        crate::guard::cache::write_cache_with(cache, "i1", &index, &signatures).unwrap();
    }

    #[test]
    fn a_delta_lists_the_changed_directories_names_and_hides_their_old_ones() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("files.cache");
        let base = ["docs/x.md", "lib/gone.py", "src/a.py", "src/b.py", "top.py"];
        write_base(&cache, &base);
        // `src/b.py` removed, `src/c.py` added, `lib` gone, `tools` new; `docs` and the root
        // unchanged.
        let now = ["docs/x.md", "src/a.py", "src/c.py", "tools/new.py", "top.py"];
        assert!(write(dir.path(), &cache, "i2", (&now, &runs(&now))));
        let text = std::fs::read_to_string(dir.path().join(DELTA)).unwrap();
        let listed: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(listed, ["src/a.py", "src/c.py", "tools/new.py"]);
        let lists = read(dir.path(), &cache, Some("i2")).unwrap();
        for (name, paths) in [
            ("b.py", vec![]),
            ("gone.py", vec![]),
            ("a.py", vec!["src/a.py"]),
            ("c.py", vec!["src/c.py"]),
            ("new.py", vec!["tools/new.py"]),
            ("x.md", vec!["docs/x.md"]),
            ("top.py", vec!["top.py"]),
        ] {
            assert_eq!(named(&lists, name), paths, "{name}");
        }
        // Another index: not this delta's, unless any will do (another guard is updating).
        assert!(read(dir.path(), &cache, Some("i3")).is_none());
        assert!(read(dir.path(), &cache, None).is_some());
    }

    #[test]
    fn too_many_changes_or_no_signatures_mean_a_new_list() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("files.cache");
        let base = ["a/x.py"];
        crate::guard::cache::write_cache(&cache, "i1", &Index::new(base.iter().copied())).unwrap();
        let two = ["a/x.py", "a/y.py"];
        assert!(!write(dir.path(), &cache, "i2", (&two, &runs(&two))), "no signatures kept");
        write_base(&cache, &base);
        let many: Vec<String> = (0..=MAX_DIRS).map(|i| format!("d{i}/f.py")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(!write(dir.path(), &cache, "i2", (&many, &runs(&many))), "more directories");
        let many: Vec<String> = (0..=MAX_PATHS).map(|i| format!("a/f{i}.py")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(!write(dir.path(), &cache, "i2", (&many, &runs(&many))), "more names");
        assert!(write(dir.path(), &cache, "i2", (&two, &runs(&two))));
    }
}
