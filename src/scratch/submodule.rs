//! Submodules in `apply`: a gitlink (mode 160000) added, removed or moved to another commit is
//! recorded in the index exactly as `git apply --index` records it, and the submodule's
//! checkout (another repository) is never written: an added one gets its empty directory when
//! the worktree has nothing there (as git makes it), a removed one loses its directory only
//! when that is empty (git's `rmdir`; a populated checkout stays, as git leaves it).

use super::base::{BaseTree, mode};
use super::worktree::Worktree;
use super::{Content, FileChange, ScratchError, WorktreeError};
use std::path::Path;

/// Whether `change` adds, removes or moves a submodule: its path is a gitlink before or after.
pub(super) fn is_submodule(base: &BaseTree<'_>, change: &FileChange) -> Result<bool, ScratchError> {
    if change.mode == Some(mode::GITLINK) {
        return Ok(true);
    }
    let before = base.entry(change.path.as_bytes())?;
    Ok(change.content.is_none() && before.is_some_and(|e| e.mode == mode::GITLINK))
}

/// What the worktree may hold at a submodule's path for `apply` to go on, as `git apply
/// --index` judges it: nothing, or a directory (populated or empty, which apply never writes
/// into); a file or a link where a submodule is added or removed is in the way.
pub(super) fn worktree_allows(
    worktree: &Worktree,
    path: &str,
) -> Result<bool, super::worktree::PathRefused> {
    Ok(worktree.metadata(path)?.is_none_or(|m| m.is_dir()))
}

/// The paths of the submodules the patch adds where the worktree has nothing yet: apply makes
/// each an empty directory (with any missing parent), as `git apply` does.
pub(super) fn added_dirs<'c>(
    base: &BaseTree<'_>,
    worktree: &Worktree,
    changes: &'c [FileChange],
) -> Result<Vec<&'c str>, WorktreeError> {
    let mut dirs = Vec::new();
    for change in changes.iter().filter(|c| c.mode == Some(mode::GITLINK)) {
        let is_added = base.entry(change.path.as_bytes())?.is_none();
        if is_added && worktree.metadata(&change.path)?.is_none() {
            dirs.push(change.path.as_str());
        }
    }
    Ok(dirs)
}

/// The submodules the patch removes (base gitlinks with no content after).
pub(super) fn removed<'c>(
    base: &BaseTree<'_>,
    changes: &'c [FileChange],
) -> Result<Vec<&'c str>, ScratchError> {
    let mut out = Vec::new();
    for change in changes.iter().filter(|c| c.content.is_none()) {
        if is_submodule(base, change)? {
            out.push(change.path.as_str());
        }
    }
    Ok(out)
}

/// After the write is complete: each removed submodule's directory removed when it is empty
/// (`git apply` does the same and warns otherwise); a populated checkout, a link or a file is
/// left as it is. Nothing depends on it, so a failure is not an error.
pub(super) fn remove_empty_checkouts(worktree: &Worktree, paths: &[&str]) {
    for path in paths {
        if let Ok(parent) = worktree.parent(path, None) {
            let is_dir = parent.dir.symlink_metadata(parent.name).is_ok_and(|m| m.is_dir());
            if is_dir {
                let _ = parent.dir.remove_dir(parent.name);
            }
        }
    }
}

/// Record a submodule's commit in the index as `git apply --index` does: an update keeps the
/// base's entry (checked clean) with the new id, an addition is a new 160000 entry.
pub(super) fn stage(
    index: &mut git2::Index,
    change: &FileChange,
    content: &Content,
) -> Result<(), WorktreeError> {
    let fail = |reason: String| WorktreeError::Index { reason };
    let Content::Bytes(bytes) = content else {
        return Err(fail(format!("no submodule commit was kept for '{}'", change.path)));
    };
    let text = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let id = crate::patch::subproject_commit(text)
        .and_then(|id| git2::Oid::from_str(&String::from_utf8_lossy(id)).ok())
        .ok_or_else(|| fail(format!("'{}' is not a submodule commit", change.path)))?;
    let mut entry =
        index.get_path(Path::new(&change.path), 0).unwrap_or_else(|| new_entry(&change.path));
    entry.id = id;
    index.add(&entry).map_err(|e| fail(e.message().to_owned()))
}

/// A fresh gitlink entry for `path`, as git writes one for a submodule not checked out: no
/// stat data, stage 0.
fn new_entry(path: &str) -> git2::IndexEntry {
    // The low 12 bits of the flags hold the path's length (0xfff when longer).
    let name_length = u16::try_from(path.len().min(0xfff)).unwrap_or(0xfff);
    git2::IndexEntry {
        ctime: git2::IndexTime::new(0, 0),
        mtime: git2::IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode: mode::GITLINK,
        uid: 0,
        gid: 0,
        file_size: 0,
        id: git2::Oid::ZERO_SHA1,
        flags: name_length,
        flags_extended: 0,
        path: path.as_bytes().to_vec(),
    }
}
