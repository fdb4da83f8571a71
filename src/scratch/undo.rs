//! Undoing a write (or finishing one) step by step: in the process that wrote, when a step
//! fails or a signal arrives, and in `apply --recover` from the journal a killed run left.
//!
//! Both go through [`Worktree`] (nothing followed through a link) and take nothing on trust: a
//! step that would remove or move away an entry does so only when the run provably made it (born
//! since the run began, see [`super::proof`]); a backup is dropped or put back only when the run
//! provably moved it aside (moved since the run began; the writing process, which moved it
//! itself, needs no proof, so a file system without birth or change times still rolls back),
//! and put back only where nothing is now
//! (never over an entry); a directory goes only when empty. Whatever cannot be undone that way
//! is left as found and reported as [`Kept`]; an error stops the undo and keeps the journal,
//! so `apply --recover` can finish it later.

use super::journal::Step;
use super::proof::Run;
use super::worktree::Worktree;
use cap_fs_ext::DirExt;
use std::io;

/// A path left as found, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Kept {
    /// The repository-relative path.
    pub path: String,
    /// Why it was left, in a few words.
    pub reason: &'static str,
}

/// What undoing (or finishing) found.
#[derive(Debug, Default)]
pub(super) struct Undone {
    /// Entries left as found.
    pub kept: Vec<Kept>,
    /// The step that failed, if one did (the rest was not tried).
    pub failed: Option<(String, io::Error)>,
}

impl Undone {
    /// Whether everything was undone (or finished).
    pub fn is_whole(&self) -> bool {
        self.kept.is_empty() && self.failed.is_none()
    }

    fn keep(&mut self, path: &str, reason: &'static str) {
        self.kept.push(Kept { path: path.to_owned(), reason });
    }
}

/// Whose record the steps are: the writing process's own (it moved each backup aside itself,
/// so a backup needs no proof), or a journal read back (a claim, see [`super::proof`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Record {
    /// What this process did, as it did it.
    Own,
    /// A journal left by a killed run.
    Journal,
}

/// Undo `done` (steps in the order they were done) in reverse.
pub(super) fn rollback(worktree: &Worktree, run: &Run, done: &[Step], record: Record) -> Undone {
    let mut undone = Undone::default();
    for step in done.iter().rev() {
        let result = match step {
            Step::MakeDir { path } => remove_made_dir(worktree, path, &mut undone),
            Step::WriteTemp { temp } => remove_made(worktree, run, temp, &mut undone),
            Step::MoveAside { target, backup } => {
                put_back(worktree, (run, record), backup, target, &mut undone)
            }
            Step::Place { temp, target } => take_back(worktree, run, target, temp, &mut undone),
        };
        if let Err((path, e)) = result {
            undone.failed = Some((path, e));
            break;
        }
    }
    undone
}

/// Drop the backups of a complete write (and any temporary file left), and the directories its
/// removals emptied.
pub(super) fn finish(worktree: &Worktree, run: &Run, done: &[Step], record: Record) -> Undone {
    let mut undone = Undone::default();
    for step in done {
        let result = match step {
            Step::MoveAside { target, backup } => {
                drop_backup(worktree, (run, record), target, backup, &mut undone)
            }
            Step::WriteTemp { temp } => remove_made(worktree, run, temp, &mut undone),
            Step::MakeDir { .. } | Step::Place { .. } => Ok(()),
        };
        if let Err((path, e)) = result {
            undone.failed = Some((path, e));
            break;
        }
    }
    undone
}

type StepResult = Result<(), (String, io::Error)>;

/// A backup the run moved aside, removed (a directory with what it holds), and the directories
/// its removal emptied; an entry not moved there since the run began is kept.
fn drop_backup(
    worktree: &Worktree,
    (run, record): (&Run, Record),
    target: &str,
    backup: &str,
    undone: &mut Undone,
) -> StepResult {
    let mut reason = None;
    let removed = in_parent(worktree, backup, |d, n| match d.symlink_metadata(n) {
        Ok(meta) if record == Record::Journal && !run.moved_since(&meta) => {
            reason = Some("unchanged since before the apply, so not a backup it made");
            Ok(false)
        }
        Ok(meta) if meta.is_dir() => d.remove_dir_all(n).map(|()| true),
        Ok(_) => d.remove_file_or_symlink(n).map(|()| true),
        Err(e) => Err(e),
    });
    if let Some(reason) = reason {
        undone.keep(backup, reason);
    }
    match removed {
        Ok(true) => {
            prune_empty_parents(worktree, target);
            Ok(())
        }
        Ok(false) => Ok(()),
        Err(e) => gone_is_done(Err(e)).map_err(|e| (backup.to_owned(), e)),
    }
}
/// A directory the run made, removed when empty; one holding something else now is kept.
fn remove_made_dir(worktree: &Worktree, path: &str, undone: &mut Undone) -> StepResult {
    match in_parent(worktree, path, |d, n| d.remove_dir(n)) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty => {
            undone.keep(path, "a directory the apply made holds other entries now");
            Ok(())
        }
        Err(e) => Err((path.to_owned(), e)),
    }
}

/// A temporary file the run wrote, removed; anything else under its name is kept.
fn remove_made(worktree: &Worktree, run: &Run, temp: &str, undone: &mut Undone) -> StepResult {
    let mut reason = None;
    let removed = in_parent(worktree, temp, |d, n| match d.symlink_metadata(n) {
        Ok(meta) if meta.is_dir() => {
            reason = Some("a directory, never a file the apply wrote");
            Ok(())
        }
        Ok(meta) if !run.made_since(meta.created().map(cap_std::time::SystemTime::into_std)) => {
            reason = Some("older than the apply, so not its file");
            Ok(())
        }
        Ok(_) => d.remove_file_or_symlink(n),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    });
    if let Some(reason) = reason {
        undone.keep(temp, reason);
    }
    gone_is_done(removed).map_err(|e| (temp.to_owned(), e))
}

/// A backup moved back to its target, only where nothing is now and only when the run moved
/// it aside (an entry unchanged since before the run is kept where it is).
fn put_back(
    worktree: &Worktree,
    (run, record): (&Run, Record),
    backup: &str,
    target: &str,
    undone: &mut Undone,
) -> StepResult {
    let moved = in_parent(worktree, backup, |d, n| {
        if record == Record::Journal && !run.moved_since(&d.symlink_metadata(n)?) {
            return Ok(Some("unchanged since before the apply, so not a backup it made"));
        }
        match rename_noreplace(d, n, file_name(target)) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                Ok(Some("the old version, kept: something new is at its place"))
            }
            other => other.map(|()| None),
        }
    });
    match moved {
        Ok(Some(reason)) => {
            undone.keep(backup, reason);
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(e) => gone_is_done(Err(e)).map_err(|e| (backup.to_owned(), e)),
    }
}

/// A placed file moved back to its temporary name (removed with it), only when the run made it.
fn take_back(
    worktree: &Worktree,
    run: &Run,
    target: &str,
    temp: &str,
    undone: &mut Undone,
) -> StepResult {
    let mut reason = None;
    let moved = in_parent(worktree, target, |d, n| match d.symlink_metadata(n) {
        Ok(meta)
            if meta.is_dir()
                || !run.made_since(meta.created().map(cap_std::time::SystemTime::into_std)) =>
        {
            reason = Some("not made by the apply (older than it, or a directory)");
            Ok(())
        }
        Ok(_) => rename_noreplace(d, n, file_name(temp)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    });
    if let Some(reason) = reason {
        undone.keep(target, reason);
    }
    gone_is_done(moved).map_err(|e| (target.to_owned(), e))
}

/// An entry (or its directory) that is not there needs no undoing.
fn gone_is_done(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Rename `from` to `to` in `dir` unless `to` exists (`AlreadyExists` then).
fn rename_noreplace(dir: &cap_std::fs::Dir, from: &str, to: &str) -> io::Result<()> {
    use rustix::fs::{RenameFlags, renameat_with};
    match renameat_with(dir, from, dir, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        // A file system without RENAME_NOREPLACE: look first (the window is the run's own).
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
            match dir.symlink_metadata(to) {
                Ok(_) => Err(io::ErrorKind::AlreadyExists.into()),
                Err(_) => dir.rename(from, dir, to),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Run `op` on the directory holding `path` and its name (reached without following links).
pub(super) fn in_parent<T>(
    worktree: &Worktree,
    path: &str,
    op: impl FnOnce(&cap_std::fs::Dir, &str) -> io::Result<T>,
) -> io::Result<T> {
    let parent = worktree.parent(path, None).map_err(|e| match e {
        super::PathRefused::Io { source, .. } => source,
        // Below a file (a directory the write turned into one) there is nothing.
        super::PathRefused::NotADirectory { .. } => io::ErrorKind::NotFound.into(),
        other => io::Error::other(other),
    })?;
    op(&parent.dir, parent.name)
}

/// git removes directories a deletion empties; so does `apply`.
fn prune_empty_parents(worktree: &Worktree, target: &str) {
    let mut dir = target;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if in_parent(worktree, parent, |d, n| d.remove_dir(n)).is_err() {
            break;
        }
        dir = parent;
    }
}

/// The last component of `path`.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
