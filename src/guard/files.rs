//! The repository's file list for suggestions: the git index (cached under the state
//! directory, keyed by the index file's identity), beside the files on disk it does not list
//! (`tree`).
//!
//! Each kind (files, directories) is one [`Index`] and one cache file (`guard::cache`): a header
//! line, then the index's blob. A miss reads the header, the names within reach of its query's
//! length and the directories of those that match. After the index changes, the first miss
//! rebuilds only the kind it needs (a linear pass, no sort), from the index file read directly
//! ([`crate::repo::index`]: libgit2 would checksum the whole file and allocate per entry first).

use super::cache::{read_cache, write_cache_with};
use super::signature::{Prehashed, Run, name_hash, runs};
use super::suggest::Index;
use std::collections::HashMap;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

/// v7: each directory's signature after the text; v8: the names apart from their directories
/// (`guard::names`).
const FILES_CACHE: &str = "files-v8.cache";
const DIRS_CACHE: &str = "dirs-v7.cache";
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

/// The index's entries of `kind`: the lists to match a miss against. From the cache when the
/// index has not changed since it was written; else, for the files, the cached list with the
/// directories whose names changed since read from the index ([`super::delta`]), or rebuilt
/// (and cached) for `kind` alone. One guard rebuilds at a time: the others, right after a `git
/// add` when an agent's calls arrive together, read the list as it was (one file out of date at
/// worst) instead of each reading the whole index again, or wait for the new one when there is
/// none.
pub(super) fn from_git(
    tracked: &TrackedFiles<'_>,
    cache_dir: Option<&Path>,
    kind: Kind,
) -> Result<Vec<Index>, String> {
    let Some(key) = index_key(tracked.repo) else { return Ok(Vec::new()) };
    let Some(dir) = cache_dir else { return with_paths(tracked.index(), |p| vec![kind.index(p)]) };
    if let Some(lists) = cached(dir, kind, Some(&key)) {
        return Ok(lists);
    }
    let lock = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::File::create(dir.join(format!("{}.lock", kind.cache_file()))));
    if let Ok(lock) = &lock {
        if lock.try_lock().is_err() {
            if let Some(old) = cached(dir, kind, None) {
                return Ok(old);
            }
            // Nothing to read meanwhile: wait for the one being built.
            let _ = lock.lock();
        }
        if let Some(lists) = cached(dir, kind, Some(&key)) {
            return Ok(lists);
        }
    }
    let cache = dir.join(kind.cache_file());
    with_paths(tracked.index(), |paths| {
        let runs = (kind == Kind::Files).then(|| runs(paths.iter().map(|p| p.as_bytes())));
        if let Some(runs) = &runs {
            tracked.share_signatures(runs, paths.len());
            if super::delta::write(dir, &cache, &key, (paths, runs))
                && let Some(lists) = cached(dir, kind, Some(&key))
            {
                return lists;
            }
        }
        let index = kind.index(paths);
        // The files' list keeps each directory's signature after it, for the deltas.
        let signatures = runs.as_deref().map_or_else(Vec::new, super::delta::signatures_bytes);
        // A cache that cannot be written only costs time on the next miss.
        let _ = write_cache_with(&cache, &key, &index, &signatures);
        vec![index]
    })
}

/// The cached lists of `kind` for the index `key` (any: `None`).
fn cached(dir: &Path, kind: Kind, key: Option<&str>) -> Option<Vec<Index>> {
    let cache = dir.join(kind.cache_file());
    if kind == Kind::Files
        && let Some(lists) = super::delta::read(dir, &cache, key)
    {
        return Some(lists);
    }
    read_cache(&cache, key).map(|index| vec![index])
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

/// `each` of the index's files, without gitlinks or names that are not UTF-8, each once in
/// order: from the file read directly, or through libgit2 when the reader leaves the file to it
/// (a split or sparse index, conflicts, an unknown required extension).
fn with_paths<R>(tracked: &Tracked, each: impl FnOnce(&[&str]) -> R) -> Result<R, String> {
    match tracked {
        Tracked::Read(index) => {
            // Stage 0 only (the reader refuses conflicts), so each path comes once, in order.
            let entries = index.entries.iter().filter(|e| e.mode != GITLINK);
            // The paths checked as UTF-8 at once: each is a slice of the whole then, valid when
            // it starts and ends on a character's boundary (a path cut in the middle of one is
            // one that is not UTF-8 on its own). Else each on its own.
            let paths: Vec<&str> = match std::str::from_utf8(&index.paths) {
                Ok(all) => entries.filter_map(|e| all.get(e.start..e.end)).collect(),
                Err(_) => entries.filter_map(|e| std::str::from_utf8(index.path(e)).ok()).collect(),
            };
            Ok(each(&paths))
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
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            Ok(each(&paths))
        }
    }
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
        self.signature_of(dir.as_bytes())
    }

    /// Take the signatures from `runs` of the list's `count` paths when they are the index's
    /// every path (no `git add -N` entry, gitlink or name that is not UTF-8 left out): one hash
    /// of each path for both lists.
    pub(super) fn share_signatures(&self, runs: &[Run], count: usize) {
        if let Tracked::Read(index) = self.index()
            && index.intent_to_add.is_empty()
            && index.entries.len() == count
        {
            let mut signatures = Signatures::default();
            for run in runs {
                *signatures.entry(run.key).or_insert(0) ^= run.signature;
            }
            let _ = self.signatures.set(signatures);
        }
    }

    /// [`TrackedFiles::signature`] of a directory's path as bytes.
    pub(super) fn signature_of(&self, dir: &[u8]) -> u64 {
        let signatures = self.signatures.get_or_init(|| self.index().signatures());
        signatures.get(&name_hash(dir)).copied().unwrap_or(0)
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
        // On huge pages: a 10 MB index read into a fresh buffer faulted in 2,600 pages.
        let data = crate::bigbuf::read_file(&repo.path().join("index")).unwrap_or_default();
        // The cache tree is the hook's; the lists need the paths alone.
        match crate::repo::index::parse_entries(&data) {
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

/// XOR the hash of each path's name into its directory's signature.
fn add_signatures<'p>(signatures: &mut Signatures, paths: impl Iterator<Item = &'p [u8]>) {
    for run in runs(paths) {
        *signatures.entry(run.key).or_insert(0) ^= run.signature;
    }
}
