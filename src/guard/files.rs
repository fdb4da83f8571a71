//! The repository's file list for suggestions: the git index (cached under the state
//! directory, keyed by the index file's identity), beside the files on disk it does not list
//! (`tree`).
//!
//! Each kind (files, directories) is one [`Index`] and one cache file: a header line
//! (`<key> <length of the text> <length table>`), then the index's text. A miss reads the header
//! and the lines within reach of its query's length. After the index changes, the first miss
//! rebuilds only the kind it needs (a linear pass, no sort), from the index file read directly
//! ([`crate::repo::index`]: libgit2 would checksum the whole file and allocate per entry first).

use super::suggest::Index;
use std::collections::HashMap;
use std::io::{BufRead as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

const FILES_CACHE: &str = "files-v6.cache";
const DIRS_CACHE: &str = "dirs-v6.cache";
/// git's mode of a gitlink (a submodule: a directory of another repository).
const GITLINK: u32 = 0o160_000;

/// Which entries a suggestion needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Files,
    Dirs,
}

impl Kind {
    pub(super) fn cache_file(self) -> &'static str {
        match self {
            Self::Files => FILES_CACHE,
            Self::Dirs => DIRS_CACHE,
        }
    }

    /// The index of this kind over the files `paths`.
    pub(super) fn index<S: AsRef<str>>(self, paths: &[S]) -> Index {
        match self {
            Self::Files => Index::new(paths.iter().map(AsRef::as_ref)),
            Self::Dirs => Index::new(dirs_of(paths).into_iter()),
        }
    }
}

/// The directories holding `paths`, each once.
///
/// In the index's sorted order the paths below a directory are contiguous, so a directory is
/// new unless it is an ancestor of the previous path: no hash set (a seventh of a rebuild).
/// Any other order only yields repeats, which the ranking counts once.
fn dirs_of<S: AsRef<str>>(paths: &[S]) -> Vec<&str> {
    let mut dirs: Vec<&str> = Vec::new();
    let mut previous = "";
    for path in paths {
        let path = path.as_ref();
        let mut rest = path;
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if is_ancestor(parent, previous) {
                break;
            }
            dirs.push(parent);
            rest = parent;
        }
        previous = path;
    }
    dirs
}

fn is_ancestor(dir: &str, path: &str) -> bool {
    path.len() > dir.len() && path.as_bytes()[dir.len()] == b'/' && path.starts_with(dir)
}

/// The index's entries of `kind`, from the cache when the index has not changed since it was
/// written, else rebuilt (and cached) for `kind` alone. One guard rebuilds at a time: the
/// others, right after a `git add` when an agent's calls arrive together, read the list as it
/// was (one file out of date at worst) instead of each reading the whole index again, or wait
/// for the new one when there is none.
pub(super) fn from_git(
    tracked: &TrackedFiles<'_>,
    cache_dir: Option<&Path>,
    kind: Kind,
    query_len: usize,
) -> Result<Index, String> {
    let Some(key) = index_key(tracked.repo) else { return Ok(Index::default()) };
    let Some(dir) = cache_dir else { return build(tracked.index(), kind) };
    let cache = dir.join(kind.cache_file());
    if let Some(index) = read_cache(&cache, Some(&key), query_len) {
        return Ok(index);
    }
    let lock = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::File::create(dir.join(format!("{}.lock", kind.cache_file()))));
    if let Ok(lock) = &lock {
        if lock.try_lock().is_err() {
            if let Some(old) = read_cache(&cache, None, query_len) {
                return Ok(old);
            }
            // Nothing to read meanwhile: wait for the one being built.
            let _ = lock.lock();
        }
        if let Some(index) = read_cache(&cache, Some(&key), query_len) {
            return Ok(index);
        }
    }
    let index = build(tracked.index(), kind)?;
    // A cache that cannot be written only costs time on the next miss.
    let _ = write_cache(&cache, &key, &index);
    Ok(index)
}

/// The identity of the git index file as it is now (path, size, modification time, inode):
/// what the caches built from it are keyed by. `None` without an index.
pub(super) fn index_key(repo: &git2::Repository) -> Option<String> {
    let index_path = repo.path().join("index");
    let meta = std::fs::metadata(&index_path).ok()?;
    Some(format!(
        "{} {} {} {}",
        index_path.display(),
        meta.len(),
        meta.mtime_nsec() + meta.mtime() * 1_000_000_000,
        meta.ino()
    ))
}

/// The index of `kind` over the index's files, without gitlinks or names that are not UTF-8:
/// from the file read directly, or through libgit2 when the reader leaves the file to it (a
/// split or sparse index, conflicts, an unknown required extension).
fn build(tracked: &Tracked, kind: Kind) -> Result<Index, String> {
    match tracked {
        Tracked::Read(index) => {
            // Stage 0 only (the reader refuses conflicts), so each path comes once, in order.
            let paths: Vec<&str> = index
                .entries
                .iter()
                .filter(|e| e.mode != GITLINK)
                .filter_map(|e| std::str::from_utf8(index.path(e)).ok())
                .collect();
            Ok(kind.index(&paths))
        }
        Tracked::Libgit2(None) => Err("cannot read the git index".to_owned()),
        Tracked::Libgit2(Some(index)) => {
            let mut paths: Vec<String> = Vec::with_capacity(index.len());
            for entry in index.iter().filter(|e| e.mode != GITLINK) {
                // A conflicted path is listed once per stage.
                if let Ok(path) = String::from_utf8(entry.path)
                    && paths.last() != Some(&path)
                {
                    paths.push(path);
                }
            }
            Ok(kind.index(&paths))
        }
    }
}

/// The index cached in `path` when it was written under `key` (any key: `None`).
pub(super) fn read_cache(path: &Path, key: Option<&str>, query_len: usize) -> Option<Index> {
    let file = std::fs::File::open(path).ok()?;
    let mut reader = std::io::BufReader::new(&file);
    let mut header = String::new();
    reader.read_line(&mut header).ok()?;
    // Not trimmed: an index of nothing (no untracked file) has an empty length table.
    let (rest, lengths) = header.strip_suffix('\n')?.rsplit_once(' ')?;
    let (cached_key, total) = rest.rsplit_once(' ')?;
    if key.is_some_and(|key| cached_key != key) {
        return None;
    }
    let total: usize = total.parse().ok()?;
    drop(reader);
    Index::on_disk(&file, (header.len() as u64, total), lengths, query_len)
}

pub(super) fn write_cache(path: &Path, key: &str, index: &Index) -> std::io::Result<()> {
    let Some(text) = index.text() else { return Ok(()) };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    writeln!(file, "{key} {} {}", text.len(), index.lengths_text())?;
    file.write_all(text.as_bytes())?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// What the index lists, for the walk of the files on disk: whether it lists a path, and per
/// directory a signature of the names it lists there. The index is read once, at first use.
pub(super) struct TrackedFiles<'r> {
    repo: &'r git2::Repository,
    loaded: std::cell::OnceCell<Tracked>,
    signatures: std::cell::OnceCell<Signatures>,
}

/// Per directory (keyed by [`name_hash`] of its path: no copy of each, no second hash), the
/// signature of the names the index lists in it. Two directories whose keys collide share one
/// signature: a change in either reads both again, never neither.
type Signatures = HashMap<u64, u64, std::hash::BuildHasherDefault<Prehashed>>;

/// The hasher of keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

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

/// The index's paths of `repo`, read at their first use.
pub(super) fn tracked(repo: &git2::Repository) -> TrackedFiles<'_> {
    TrackedFiles {
        repo,
        loaded: std::cell::OnceCell::new(),
        signatures: std::cell::OnceCell::new(),
    }
}

impl TrackedFiles<'_> {
    /// Whether the index lists `path` (any stage, `git add -N` ones too).
    pub(super) fn contains(&self, path: &str) -> bool {
        self.index().contains(path)
    }

    /// The index file's identity now ([`index_key`]); empty without one.
    pub(super) fn key(&self) -> String {
        index_key(self.repo).unwrap_or_default()
    }

    /// The signature of the names the index lists directly in `dir` (relative, `""` the root):
    /// the XOR of a hash of each, so that it changes when a name comes or goes, whatever the
    /// order. 0 for a directory the index lists nothing in.
    pub(super) fn signature(&self, dir: &str) -> u64 {
        let signatures = self.signatures.get_or_init(|| self.index().signatures());
        signatures.get(&name_hash(dir.as_bytes())).copied().unwrap_or(0)
    }

    fn index(&self) -> &Tracked {
        self.loaded.get_or_init(|| Tracked::load(self.repo))
    }
}

enum Tracked {
    /// The index read directly.
    Read(crate::repo::index::Index),
    /// An index the direct reader leaves to libgit2 (split, sparse, conflicts).
    Libgit2(Option<git2::Index>),
}

impl Tracked {
    fn load(repo: &git2::Repository) -> Self {
        let data = std::fs::read(repo.path().join("index")).unwrap_or_default();
        match crate::repo::index::parse(&data) {
            Some(index) => Self::Read(index),
            None => Self::Libgit2(repo.index().ok()),
        }
    }

    /// [`TrackedFiles::signature`] of every directory the index lists a name in.
    fn signatures(&self) -> Signatures {
        let mut signatures = Signatures::default();
        match self {
            Self::Read(index) => {
                let entries = index.entries.iter().chain(&index.intent_to_add);
                add_signatures(&mut signatures, entries.map(|e| index.path(e)));
            }
            Self::Libgit2(index) => {
                let mut paths: Vec<Vec<u8>> =
                    index.iter().flat_map(git2::Index::iter).map(|e| e.path).collect();
                // A conflicted path is listed once per stage.
                paths.dedup();
                add_signatures(&mut signatures, paths.iter().map(Vec::as_slice));
            }
        }
        signatures
    }

    fn contains(&self, path: &str) -> bool {
        match self {
            Self::Read(index) => {
                index.find(path.as_bytes()).is_some()
                    || index.intent_to_add.iter().any(|e| index.path(e) == path.as_bytes())
            }
            Self::Libgit2(index) => index.as_ref().is_some_and(|index| {
                (0..=3).any(|stage| index.get_path(Path::new(path), stage).is_some())
            }),
        }
    }
}

/// XOR the hash of each path's name into its directory's signature. The index is sorted, so
/// the names of a directory mostly come together: one map update per run of them.
fn add_signatures<'p>(signatures: &mut Signatures, paths: impl Iterator<Item = &'p [u8]>) {
    let mut run: (&[u8], u64) = (b"", 0);
    for path in paths {
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(at) => (&path[..at], &path[at + 1..]),
            None => (&path[..0], path),
        };
        if dir != run.0 {
            *signatures.entry(name_hash(run.0)).or_insert(0) ^= run.1;
            run = (dir, 0);
        }
        run.1 ^= name_hash(name);
    }
    *signatures.entry(name_hash(run.0)).or_insert(0) ^= run.1;
}

/// FNV-1a: the same in every process (signatures are kept on disk).
fn name_hash(name: &[u8]) -> u64 {
    name.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
