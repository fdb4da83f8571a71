//! The base tree: the revision a patch applies to, read through git2 (no process per file).

use super::ScratchError;
use git2::{Oid, Repository, Tree};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

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

/// The resolved base revision and a cache of the entries looked up so far.
pub struct BaseTree<'r> {
    repo: &'r Repository,
    tree: Tree<'r>,
    /// The revision as given (`HEAD`, `main~2`, an id).
    pub rev: String,
    /// The commit it resolves to, when it is a commit.
    pub commit: Option<Oid>,
    cache: RefCell<HashMap<Vec<u8>, Option<BaseEntry>>>,
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
        Ok(Self { repo, tree, rev: rev.to_owned(), commit, cache: RefCell::default() })
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
        if let Some(hit) = self.cache.borrow().get(path) {
            return Ok(*hit);
        }
        let found = match self.tree.get_path(Path::new(OsStr::from_bytes(path))) {
            Ok(entry) => Some(BaseEntry {
                mode: u32::try_from(entry.filemode()).unwrap_or(0),
                oid: entry.id(),
            }),
            Err(e) if e.code() == git2::ErrorCode::NotFound => None,
            Err(e) => return Err(ScratchError::git("read the base tree", &e)),
        };
        self.cache.borrow_mut().insert(path.to_vec(), found);
        Ok(found)
    }

    /// The content of the blob `oid`.
    pub fn blob(&self, oid: Oid) -> Result<Vec<u8>, ScratchError> {
        let blob = self
            .repo
            .find_blob(oid)
            .map_err(|e| ScratchError::git("read a blob of the base tree", &e))?;
        Ok(blob.content().to_vec())
    }
}

/// The base tree for the rules ([`crate::rule::Base`]): single lookups go to the tree (and its
/// cache, shared with the repository check); the full file list (for names given by basename)
/// is walked once, on first use.
#[derive(Debug)]
pub struct TreeIndex<'b, 'r> {
    base: &'b BaseTree<'r>,
    files: std::cell::OnceCell<Vec<String>>,
}

impl<'b, 'r> TreeIndex<'b, 'r> {
    /// Index `base`.
    #[must_use]
    pub fn new(base: &'b BaseTree<'r>) -> Self {
        Self { base, files: std::cell::OnceCell::new() }
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
        self.files.get_or_init(|| self.walk())
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        let entry = self.base.entry(path.as_bytes()).ok().flatten()?;
        let is_file = matches!(entry.mode, mode::FILE | mode::EXECUTABLE);
        is_file.then(|| self.base.blob(entry.oid).ok()).flatten()
    }
}
