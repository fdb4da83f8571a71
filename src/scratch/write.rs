//! `apply`'s write into the real worktree (and index), all or nothing.
//!
//! Three phases: *prepare* writes every new file to a temporary file beside its target (making
//! missing directories); *commit* moves each existing target to a backup beside it and renames
//! the temporary file into place; *finish* drops the backups. A failure in any phase (or in the
//! index update that follows the commit) undoes what was done, in reverse order, so the worktree
//! is byte for byte as before.

use super::base::{BaseTree, mode};
use super::tree::write_entry;
use super::{Content, FileChange, ScratchError};
use std::fs;
use std::path::{Path, PathBuf};

/// Why `apply` did not write.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorktreeError {
    /// Reading the base or the repository failed.
    #[error(transparent)]
    Scratch(#[from] ScratchError),
    /// A write failed; everything was restored.
    #[error("cannot {action} '{path}': {source}; nothing was changed")]
    Write {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The index could not be updated; the worktree was restored.
    #[error("cannot update the index: {reason}; nothing was changed")]
    Index {
        /// git's message.
        reason: String,
    },
    /// Something `apply` does not write (a submodule commit).
    #[error("{path}: {what} cannot be applied to the worktree by patchgate; apply it with git")]
    Unsupported {
        /// The path.
        path: String,
        /// What it is.
        what: &'static str,
    },
}

/// Touched paths whose worktree (and, with `with_index`, index) state differs from the base:
/// uncommitted edits `apply` would overwrite, or untracked files where the patch creates one.
pub fn dirty_files(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    with_index: bool,
) -> Result<Vec<String>, ScratchError> {
    let index = if with_index {
        Some(base.repo().index().map_err(|e| ScratchError::git("read the index", &e))?)
    } else {
        None
    };
    let mut dirty = Vec::new();
    for change in changes {
        let entry = base.entry(change.path.as_bytes())?;
        let expected = match entry {
            Some(e) if !e.is_tree() && e.mode != mode::GITLINK => Some((e.mode, base.blob(e.oid)?)),
            _ => None,
        };
        let in_index = index.as_ref().map(|i| i.get_path(Path::new(&change.path), 0));
        let index_differs = in_index
            .is_some_and(|found| found.map(|e| (e.mode, e.id)) != entry.map(|e| (e.mode, e.oid)));
        if index_differs || !worktree_matches(&root.join(&change.path), expected.as_ref()) {
            dirty.push(change.path.clone());
        }
    }
    Ok(dirty)
}

fn worktree_matches(target: &Path, expected: Option<&(u32, Vec<u8>)>) -> bool {
    let meta = fs::symlink_metadata(target);
    match (meta, expected) {
        (Err(_), None) => true,
        (Ok(_), None) | (Err(_), Some(_)) => false,
        (Ok(meta), Some((mode, bytes))) if *mode == mode::SYMLINK => {
            use std::os::unix::ffi::OsStrExt;
            meta.file_type().is_symlink()
                && fs::read_link(target).is_ok_and(|t| t.as_os_str().as_bytes() == bytes.as_slice())
        }
        (Ok(meta), Some((_, bytes))) => {
            meta.file_type().is_file() && fs::read(target).is_ok_and(|b| &b == bytes)
        }
    }
}

/// One step done in the worktree, undone in reverse on failure.
#[derive(Debug)]
enum Done {
    MadeDir(PathBuf),
    WroteTemp(PathBuf),
    MovedAside { target: PathBuf, backup: PathBuf },
    Placed { temp: PathBuf, target: PathBuf },
}

#[derive(Debug, Default)]
struct Transaction {
    done: Vec<Done>,
}

#[cfg(test)]
thread_local! {
    /// Tests: fail the commit phase at this step (0-based), to prove the rollback.
    pub(super) static FAIL_COMMIT_AT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Write `changes` into the worktree at `root` (and the index when `with_index`), all or
/// nothing. The caller has checked that the touched paths are clean ([`dirty_files`]).
pub fn apply_to_worktree(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    with_index: bool,
) -> Result<(), WorktreeError> {
    let mut tx = Transaction::default();
    let result = prepare(base, root, changes, &mut tx)
        .and_then(|temps| commit(root, changes, &temps, &mut tx))
        .and_then(|()| if with_index { update_index(base.repo(), changes) } else { Ok(()) });
    match result {
        Ok(()) => {
            tx.finish(root);
            Ok(())
        }
        Err(e) => {
            tx.rollback();
            Err(e)
        }
    }
}

fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    target.with_file_name(format!(".{name}.patchgate-{}.{what}", std::process::id()))
}

fn io_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> WorktreeError {
    let path = path.display().to_string();
    move |source| WorktreeError::Write { action, path, source }
}

/// Phase 1: every new file written beside its target. Returns the temporary paths.
fn prepare(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    tx: &mut Transaction,
) -> Result<Vec<Option<PathBuf>>, WorktreeError> {
    let mut temps = Vec::with_capacity(changes.len());
    for change in changes {
        let (Some(mode), Some(content)) = (change.mode, &change.content) else {
            temps.push(None);
            continue;
        };
        if mode == mode::GITLINK {
            return Err(WorktreeError::Unsupported {
                path: change.path.clone(),
                what: "a submodule commit",
            });
        }
        let bytes = match content {
            Content::Bytes(bytes) => bytes.clone(),
            Content::Blob(oid) => base.blob(*oid)?,
        };
        let target = root.join(&change.path);
        make_parents(root, &target, tx)?;
        let temp = sibling(&target, "tmp");
        write_entry(&temp, mode, &bytes).map_err(|e| match e {
            ScratchError::Io { source, .. } => io_error("write", &temp)(source),
            other => WorktreeError::Scratch(other),
        })?;
        tx.done.push(Done::WroteTemp(temp.clone()));
        temps.push(Some(temp));
    }
    Ok(temps)
}

fn make_parents(root: &Path, target: &Path, tx: &mut Transaction) -> Result<(), WorktreeError> {
    let Some(parent) = target.parent() else { return Ok(()) };
    let missing: Vec<&Path> =
        parent.ancestors().take_while(|p| *p != root && fs::symlink_metadata(p).is_err()).collect();
    for dir in missing.into_iter().rev() {
        fs::create_dir(dir).map_err(io_error("create the directory", dir))?;
        tx.done.push(Done::MadeDir(dir.to_owned()));
    }
    Ok(())
}

/// Phase 2: move each existing target aside, put each new file in place.
fn commit(
    root: &Path,
    changes: &[FileChange],
    temps: &[Option<PathBuf>],
    tx: &mut Transaction,
) -> Result<(), WorktreeError> {
    for (step, (change, temp)) in changes.iter().zip(temps).enumerate() {
        #[cfg(test)]
        if FAIL_COMMIT_AT.with(std::cell::Cell::get) == Some(step) {
            return Err(io_error("commit", Path::new(&change.path))(std::io::Error::other(
                "injected",
            )));
        }
        let _ = step;
        let target = root.join(&change.path);
        if fs::symlink_metadata(&target).is_ok() {
            let backup = sibling(&target, "bak");
            fs::rename(&target, &backup).map_err(io_error("move aside", &target))?;
            tx.done.push(Done::MovedAside { target: target.clone(), backup });
        }
        if let Some(temp) = temp {
            fs::rename(temp, &target).map_err(io_error("write", &target))?;
            tx.done.push(Done::Placed { temp: temp.clone(), target });
        }
    }
    Ok(())
}

fn update_index(repo: &git2::Repository, changes: &[FileChange]) -> Result<(), WorktreeError> {
    let fail = |e: git2::Error| WorktreeError::Index { reason: e.message().to_owned() };
    let mut index = repo.index().map_err(fail)?;
    for change in changes {
        let path = Path::new(&change.path);
        match change.content {
            Some(_) => index.add_path(path).map_err(fail)?,
            None => index.remove_path(path).map_err(fail)?,
        }
    }
    index.write().map_err(fail)
}

impl Transaction {
    /// Undo in reverse order. Best effort: every step is tried even if one fails.
    fn rollback(self) {
        for done in self.done.into_iter().rev() {
            let _ = match done {
                Done::MadeDir(dir) => fs::remove_dir(dir),
                Done::WroteTemp(temp) => match fs::symlink_metadata(&temp) {
                    Ok(_) => fs::remove_file(temp),
                    Err(_) => Ok(()),
                },
                Done::MovedAside { target, backup } => fs::rename(backup, target),
                Done::Placed { temp, target } => fs::rename(target, temp),
            };
        }
    }

    /// Drop the backups and the directories emptied by removals.
    fn finish(self, root: &Path) {
        for done in self.done {
            if let Done::MovedAside { target, backup } = done {
                let _ = remove_any(&backup);
                prune_empty_parents(root, &target);
            }
        }
    }
}

fn remove_any(path: &Path) -> std::io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(_) => Ok(()),
    }
}

/// git removes directories a deletion empties; so does `apply`.
fn prune_empty_parents(root: &Path, target: &Path) {
    for dir in target.ancestors().skip(1).take_while(|p| *p != root) {
        if fs::remove_dir(dir).is_err() {
            break;
        }
    }
}
