//! The base tree: the revision a patch applies to, read through git2 (no process per file).

use super::ScratchError;
use git2::{Oid, Repository, Tree};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Git's file modes, as they appear in trees and patch headers.
pub mod mode {
    /// A regular file.
    pub const FILE: u32 = 0o100_644;
    /// An executable file.
    pub const EXECUTABLE: u32 = 0o100_755;
    /// A symbolic link; its blob holds the target.
    pub const SYMLINK: u32 = 0o120_000;
    /// A submodule commit.
    pub const GITLINK: u32 = 0o160_000;
    /// A directory.
    pub const TREE: u32 = 0o040_000;
}

/// One entry of the base tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseEntry {
    /// The tree entry's mode (`0o100644`, `0o120000`, `0o040000`, ...).
    pub mode: u32,
    /// The object id (blob, tree, or the submodule's commit).
    pub oid: Oid,
}

impl BaseEntry {
    /// Whether the entry is a directory.
    #[must_use]
    pub fn is_tree(self) -> bool {
        self.mode == mode::TREE
    }
}

/// The resolved base revision, and every directory tree read so far.
///
/// Lookups go through the directory trees, each read once and kept: libgit2 caches only small
/// trees, so a path lookup from the root would inflate every large directory on its way again.
/// A clone shares what was read (the directories and the file list): `validate --batch` keeps
/// one base per repository and revision and hands each result a clone.
#[derive(Clone)]
pub struct BaseTree<'r> {
    repo: &'r Repository,
    tree: Tree<'r>,
    /// The revision as given (`HEAD`, `main~2`, an id).
    pub rev: String,
    /// The commit it resolves to, when it is a commit.
    pub commit: Option<Oid>,
    read: Rc<Read>,
}

/// What was read of the tree, shared by clones.
#[derive(Default)]
struct Read {
    dirs: RefCell<Dirs>,
    /// Every file's path, walked once on first use ([`TreeIndex`]).
    files: OnceCell<Vec<String>>,
}

/// Directories by path (`a/b`, without a trailing slash; `""` is the root): an index into
/// `entries`, or `None` when the path is no directory of the base.
#[derive(Default)]
struct Dirs {
    by_path: HashMap<Vec<u8>, Option<usize>>,
    /// Each directory's entries (copied out of the tree: what borrows nothing keeps the base
    /// tree covariant in its repository's lifetime).
    entries: Vec<DirEntries>,
}

impl Dirs {
    /// Remember the entries of `tree` under `path`; returns their index.
    fn add(&mut self, path: &[u8], tree: &Tree<'_>) -> usize {
        self.entries.push(DirEntries::of(tree));
        self.by_path.insert(path.to_vec(), Some(self.entries.len() - 1));
        self.entries.len() - 1
    }
}

/// One directory's entries: their names end to end, and each entry's name span, sorted by name
/// (one allocation per directory, not one per entry).
struct DirEntries {
    names: Vec<u8>,
    entries: Vec<(u32, u32, BaseEntry)>,
}

impl DirEntries {
    fn of(tree: &Tree<'_>) -> Self {
        let mut names = Vec::new();
        let mut entries = Vec::with_capacity(tree.len());
        for e in tree {
            let start = names.len() as u32;
            names.extend_from_slice(e.name_bytes());
            let entry = BaseEntry { mode: u32::try_from(e.filemode()).unwrap_or(0), oid: e.id() };
            entries.push((start, names.len() as u32, entry));
        }
        // Git orders a directory `a` as `a/`; lookups compare plain names.
        entries.sort_unstable_by(|a, b| {
            names[a.0 as usize..a.1 as usize].cmp(&names[b.0 as usize..b.1 as usize])
        });
        Self { names, entries }
    }

    fn get(&self, name: &[u8]) -> Option<BaseEntry> {
        let name_of =
            |&(start, end, _): &(u32, u32, BaseEntry)| &self.names[start as usize..end as usize];
        let at = self.entries.binary_search_by(|e| name_of(e).cmp(name)).ok()?;
        Some(self.entries[at].2)
    }
}

impl std::fmt::Debug for BaseTree<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BaseTree").field("rev", &self.rev).field("tree", &self.tree.id()).finish()
    }
}

impl<'r> BaseTree<'r> {
    /// Resolve `rev` to a tree in `repo`.
    pub fn resolve(repo: &'r Repository, rev: &str) -> Result<Self, ScratchError> {
        // Objects are read as git reads them, without re-hashing each one (a third of the time
        // on large patches); the repository is the user's own, not untrusted input.
        git2::opts::strict_hash_verification(false);
        let bad = |e: git2::Error| ScratchError::BadBase {
            rev: rev.to_owned(),
            reason: e.message().to_owned(),
        };
        let object = repo.revparse_single(rev).map_err(bad)?;
        let commit = object.peel_to_commit().ok().map(|c| c.id());
        let tree = object.peel_to_tree().map_err(bad)?;
        let mut dirs = Dirs::default();
        dirs.add(b"", &tree);
        let read = Rc::new(Read { dirs: RefCell::new(dirs), files: OnceCell::new() });
        Ok(Self { repo, tree, rev: rev.to_owned(), commit, read })
    }

    /// The repository the tree lives in.
    #[must_use]
    pub fn repo(&self) -> &'r Repository {
        self.repo
    }

    /// The tree itself.
    #[must_use]
    pub fn tree(&self) -> &Tree<'r> {
        &self.tree
    }

    /// The entry at `path` (`/`-separated, repo-relative), or `None` when there is none.
    pub fn entry(&self, path: &[u8]) -> Result<Option<BaseEntry>, ScratchError> {
        let (dir, name) = match memchr::memrchr(b'/', path) {
            Some(slash) => (&path[..slash], &path[slash + 1..]),
            None => (&b""[..], path),
        };
        if name.is_empty() {
            return Ok(None);
        }
        let Some(at) = self.dir(dir)? else { return Ok(None) };
        Ok(self.read.dirs.borrow().entries[at].get(name))
    }

    /// The directory at `dir` (`""` for the root), read once: its index in `dirs.entries`,
    /// or `None` when `dir` is no directory of the base.
    fn dir(&self, dir: &[u8]) -> Result<Option<usize>, ScratchError> {
        if let Some(&known) = self.read.dirs.borrow().by_path.get(dir) {
            return Ok(known);
        }
        // Not read yet: each level from the root down, every one read once.
        let mut parent = 0;
        let ends = memchr::memchr_iter(b'/', dir).chain([dir.len()]);
        for (start, end) in std::iter::once(0).chain(ends.clone().map(|e| e + 1)).zip(ends) {
            let prefix = &dir[..end];
            let known = self.read.dirs.borrow().by_path.get(prefix).copied();
            let found = match known {
                Some(found) => found,
                None => self.read_dir(parent, prefix, &dir[start..end])?,
            };
            let Some(found) = found else { return Ok(None) };
            parent = found;
        }
        Ok(Some(parent))
    }

    /// Read directory `name` of the directory at index `parent` (whose path is `path` less
    /// `name`) and remember it under `path`.
    fn read_dir(
        &self,
        parent: usize,
        path: &[u8],
        name: &[u8],
    ) -> Result<Option<usize>, ScratchError> {
        let id = self.read.dirs.borrow().entries[parent]
            .get(name)
            .filter(|e| e.is_tree())
            .map(|e| e.oid);
        let Some(id) = id else {
            self.read.dirs.borrow_mut().by_path.insert(path.to_vec(), None);
            return Ok(None);
        };
        let tree = self
            .repo
            .find_tree(id)
            .map_err(|e| ScratchError::git("read a directory of the base tree", &e))?;
        Ok(Some(self.read.dirs.borrow_mut().add(path, &tree)))
    }

    /// The content of the blob `oid`.
    pub fn blob(&self, oid: Oid) -> Result<Vec<u8>, ScratchError> {
        Ok(self.find_blob(oid)?.content().to_vec())
    }

    /// The blob `oid`, its content borrowed rather than copied.
    pub fn find_blob(&self, oid: Oid) -> Result<git2::Blob<'r>, ScratchError> {
        self.repo.find_blob(oid).map_err(|e| ScratchError::git("read a blob of the base tree", &e))
    }

    /// The content of the base's regular file `path`, whose blob is `oid`.
    ///
    /// As `git apply` reads the worktree rather than inflating objects, the file is read from
    /// the worktree when that file provably holds the blob's bytes: a regular file (not a
    /// link) whose git blob id is `oid`. The id is a hash of the bytes, so whatever the
    /// worktree holds (edits, line-ending conversions, a directory that is a link) the content
    /// is the blob's either way; only the cost differs (a read and a hash instead of inflating
    /// a compressed object, and no pack pages or delta cache in memory).
    pub fn file_content(&self, path: &[u8], oid: Oid) -> Result<FileContent<'r>, ScratchError> {
        match self.worktree_copy(path, oid) {
            Some(bytes) => Ok(FileContent::Worktree(bytes)),
            None => self.find_blob(oid).map(FileContent::Blob),
        }
    }

    /// The worktree's copy of `path` when it holds exactly blob `oid` (see [`Self::file_content`]).
    fn worktree_copy(&self, path: &[u8], oid: Oid) -> Option<Vec<u8>> {
        // Only a path that stays in the worktree and out of `.git` (the checks every path gets).
        let path = crate::path::check_bytes(path).ok()?;
        let file = self.repo.workdir()?.join(path.as_str());
        let size = std::fs::symlink_metadata(&file).ok().filter(std::fs::Metadata::is_file)?.len();
        // Even a small file: measured on two large diffs, 4 KiB and up saved the same CPU time as
        // every size, and reading none from the packs keeps their pages and delta cache out of
        // memory. The blob's size is not looked up first: in a pack that alone brings in a page
        // per object (4 MB on a 6,000-file diff); a file that is not the blob costs a read and
        // a hash before the blob is read. An empty blob costs nothing to read; a worktree file
        // over 256 MiB is not read on the chance that it is the blob.
        if size == 0 || size > 256 << 20 {
            return None;
        }
        let bytes = std::fs::read(&file).ok()?;
        (blob_id(&bytes)? == oid).then_some(bytes)
    }
}

/// Git's SHA-1 blob id of `bytes` (the hash of `blob <len>\0` and the bytes). With the
/// `sha1` crate, not libgit2's collision-detecting hash (ten times the instructions here): a
/// worktree file crafted to collide with a base blob gets no further than `git apply`, which
/// reads the worktree file whatever the blob holds. A repository of SHA-256 ids never matches,
/// and its blobs are read from the object database.
fn blob_id(bytes: &[u8]) -> Option<Oid> {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", bytes.len()));
    hasher.update(bytes);
    Oid::from_bytes(&hasher.finalize()).ok()
}

/// A base file's bytes: its blob, or the worktree file that holds exactly those bytes.
#[derive(Debug)]
pub enum FileContent<'r> {
    /// The blob, borrowed from libgit2.
    Blob(git2::Blob<'r>),
    /// The worktree file, which hashes to the blob's id.
    Worktree(Vec<u8>),
}

impl FileContent<'_> {
    /// The bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        match self {
            Self::Blob(blob) => blob.content(),
            Self::Worktree(bytes) => bytes,
        }
    }
}

/// The base tree for the rules ([`crate::rule::Base`]): single lookups go to the tree (and its
/// cache, shared with the repository check); the full file list (for names given by basename)
/// is walked once per base tree (and its clones), on first use.
#[derive(Debug)]
pub struct TreeIndex<'b, 'r> {
    base: &'b BaseTree<'r>,
}

impl<'b, 'r> TreeIndex<'b, 'r> {
    /// Index `base`.
    #[must_use]
    pub fn new(base: &'b BaseTree<'r>) -> Self {
        Self { base }
    }

    fn walk(&self) -> Vec<String> {
        let mut out = Vec::new();
        // A tree that cannot be walked in full leaves a partial list: names then resolve less
        // often, which only ever accepts more.
        let _ = self.base.tree().walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
            if entry.kind() != Some(git2::ObjectType::Tree)
                && let Ok(name) = entry.name()
            {
                out.push(format!("{parent}{name}"));
            }
            git2::TreeWalkResult::Ok
        });
        out
    }
}

impl crate::rule::Base for TreeIndex<'_, '_> {
    fn contains(&self, path: &str) -> bool {
        matches!(self.base.entry(path.as_bytes()), Ok(Some(_)))
    }

    fn files(&self) -> &[String] {
        self.base.read.files.get_or_init(|| self.walk())
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        let entry = self.base.entry(path.as_bytes()).ok().flatten()?;
        let is_file = matches!(entry.mode, mode::FILE | mode::EXECUTABLE);
        is_file.then(|| self.base.blob(entry.oid).ok()).flatten()
    }
}
