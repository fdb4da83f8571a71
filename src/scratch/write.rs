//! `apply`'s write into the real worktree (and index), all or nothing, through
//! [`Worktree`](super::worktree::Worktree) only: no component of any path is followed if it is a
//! symbolic link, so nothing is written outside the repository.
//!
//! Four phases: *set aside* moves every path the patch removes to a backup beside it first, as
//! git removes before it creates (so a link the patch deletes gives way to a real directory of
//! the same name instead of being written through); *prepare* writes every new file to a
//! temporary file beside its target (making missing directories); *commit* moves each existing
//! target to a backup beside it and renames the temporary file into place; *finish* drops the
//! backups. A failure in any phase (or in the
//! index update that follows the commit) undoes what was done, in reverse order, so the worktree
//! is byte for byte as before.

use super::base::{BaseEntry, BaseTree, mode};
use super::command::SignalGuard;
use super::journal::{Journal, JournalError, Phase, Plan, Step};
use super::proof::new_run_id;
use super::undo::{self, Record, Undone};
use super::worktree::{
    Entry, Parent, PathRefused, Worktree, link_stays_inside, random_name, write_new,
};
use super::{Content, FileChange, ScratchError, submodule};
use std::collections::HashSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Why `apply` did not write.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorktreeError {
    /// Reading the base or the repository failed.
    #[error(transparent)]
    Scratch(#[from] ScratchError),
    /// A path the patch writes is not safe to write in this worktree.
    #[error("{0}; nothing was changed")]
    Refused(#[from] PathRefused),
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
    /// A touched path changed after the check for uncommitted edits; everything was restored.
    #[error(
        "'{path}' changed while apply was writing; nothing was changed; check it and apply again"
    )]
    Changed {
        /// The path.
        path: String,
    },
    /// The journal could not be written, or one is already there.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// SIGINT or SIGTERM arrived during the write; everything was restored.
    #[error("interrupted by a signal; nothing was changed")]
    Interrupted,
    /// A rollback (or a recovery) could not undo every step; the journal is kept.
    #[error(
        "{what}; the journal is kept: run `patchgate apply --recover` once nothing else is \
         writing the worktree"
    )]
    Incomplete {
        /// What was left, and where it stopped.
        what: String,
    },
    /// A submodule added, removed or updated without `--index`: its commit lives only in the
    /// index (git never writes a submodule's checkout when it applies a patch), so the worktree
    /// alone cannot hold the change.
    #[error(
        "{path} is a submodule: its commit (added, removed or moved) is recorded in the index \
         only; apply with --index, then run 'git submodule update -- {path}' to check it out; \
         nothing was changed"
    )]
    SubmoduleNeedsIndex {
        /// The submodule's path.
        path: String,
    },
}

impl WorktreeError {
    /// [`WorktreeError::Incomplete`]: `doing` (what was undoing) stopped at a step or left
    /// entries as found.
    pub(super) fn incomplete(doing: &str, undone: &Undone) -> Self {
        let mut what = match &undone.failed {
            Some((path, e)) => format!("{doing} cannot undo '{path}': {e}"),
            None => format!("{doing} left {} entr(ies) as found", undone.kept.len()),
        };
        for kept in undone.kept.iter().take(5) {
            what.extend(["; '", &kept.path, "': ", kept.reason]);
        }
        Self::Incomplete { what }
    }
}

/// Touched paths whose worktree (and, with `with_index`, index) state differs from the base:
/// uncommitted edits `apply` would overwrite, or untracked files where the patch creates one.
/// A path beyond a symbolic link of the worktree is refused here already.
pub fn dirty_files(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    with_index: bool,
) -> Result<Vec<String>, WorktreeError> {
    let worktree = open(root)?;
    let index = if with_index {
        Some(base.repo().index().map_err(|e| ScratchError::git("read the index", &e))?)
    } else {
        None
    };
    // Below a submodule the patch removes is its checkout, which stays: a path there is judged
    // as the worktree has it, never as gone.
    let submodules_removed = submodule::removed(base, changes)?;
    let mut removed = removed_paths(changes);
    removed.retain(|path| !submodules_removed.contains(path));
    let mut dirty = Vec::new();
    for change in changes {
        let entry = base.entry(change.path.as_bytes())?;
        let expected = expected_entry(base, entry)?;
        // A base directory the patch empties (to put a file there): the files below it are
        // touched paths of their own; the directory itself must still be one.
        let is_base_dir = entry.is_some_and(BaseEntry::is_tree);
        let in_index = index.as_ref().map(|i| i.get_path(Path::new(&change.path), 0));
        let index_differs = !is_base_dir
            && in_index.is_some_and(|found| {
                found.map(|e| (e.mode, e.id)) != entry.map(|e| (e.mode, e.oid))
            });
        let matches = if is_base_dir {
            // Untracked files below it would be deleted with it: git refuses too.
            worktree.metadata(&change.path)?.is_some_and(|m| m.is_dir())
                && worktree.holds_only(&change.path, &removed)?
        } else if submodule::is_submodule(base, change)? {
            // A submodule's checkout is another repository, which apply never writes (nor does
            // git): an update goes on whatever is there; one added or removed needs nothing or
            // a directory at its path, as git does.
            let is_update = is_gitlink(change) && entry.is_some();
            is_update || submodule::worktree_allows(&worktree, &change.path)?
        } else {
            // Below a path removed first there is nothing once it is gone (the removed path
            // itself is checked to be the base's file or link, so no directory hides there).
            is_below(&change.path, &removed)
                || worktree_matches(&worktree, &change.path, expected.as_ref())?
        };
        if index_differs || !matches {
            dirty.push(change.path.clone());
        }
    }
    Ok(dirty)
}

/// The base's file or link (mode and content) for an entry; `None` for none, a directory or a
/// submodule.
fn expected_entry(
    base: &BaseTree<'_>,
    entry: Option<BaseEntry>,
) -> Result<Option<(u32, Vec<u8>)>, ScratchError> {
    Ok(match entry {
        Some(e) if !e.is_tree() && e.mode != mode::GITLINK => Some((e.mode, base.blob(e.oid)?)),
        _ => None,
    })
}

/// Whether `change` moves a submodule: recorded in the index, never written to the worktree.
pub(super) fn is_gitlink(change: &FileChange) -> bool {
    change.mode == Some(mode::GITLINK)
}

/// The paths the patch removes (deletions, rename sources).
fn removed_paths(changes: &[FileChange]) -> HashSet<&str> {
    changes.iter().filter(|c| c.content.is_none()).map(|c| c.path.as_str()).collect()
}

/// Whether a proper parent of `path` is in `removed`.
fn is_below(path: &str, removed: &HashSet<&str>) -> bool {
    path.match_indices('/').any(|(i, _)| removed.contains(&path[..i]))
}

pub(super) fn open(root: &Path) -> Result<Worktree, WorktreeError> {
    Worktree::open(root).map_err(io_error("open the worktree", &root.display().to_string()))
}

fn worktree_matches(
    worktree: &Worktree,
    path: &str,
    expected: Option<&(u32, Vec<u8>)>,
) -> Result<bool, PathRefused> {
    let meta = worktree.metadata(path)?;
    Ok(match (meta, expected) {
        (None, None) => true,
        (Some(_), None) | (None, Some(_)) => false,
        (Some(meta), Some((mode, bytes))) if *mode == mode::SYMLINK => {
            meta.file_type().is_symlink()
                && worktree
                    .read_link(path)
                    .is_ok_and(|t| t.as_os_str().as_bytes() == bytes.as_slice())
        }
        (Some(meta), Some((_, bytes))) => {
            meta.file_type().is_file() && worktree.read(path).is_ok_and(|b| &b == bytes)
        }
    })
}

/// What a transaction did so far, undone in reverse on failure; the same steps, planned in
/// advance, are the journal's.
#[derive(Debug, Default)]
struct Transaction {
    done: Vec<Step>,
    /// Raised by SIGINT/SIGTERM: the write stops at the next step and rolls back.
    interrupted: Option<Arc<AtomicBool>>,
    /// Debug builds: `PATCHGATE_TEST_STEP_DELAY_MS` sleeps before each step, so the kill tests
    /// can land a SIGKILL anywhere inside the write. Ignored by release builds.
    delay: Option<Duration>,
}

/// The random names one change uses, fixed before anything is written.
#[derive(Debug)]
struct Names {
    backup: String,
    temp: Option<String>,
}

#[cfg(test)]
thread_local! {
    /// Tests: fail the commit phase at this step (0-based), to prove the rollback.
    pub(super) static FAIL_COMMIT_AT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    /// Tests: run between the check for uncommitted edits and the write, as a concurrent editor.
    pub(super) static BEFORE_WRITE: std::cell::RefCell<Option<Box<dyn Fn()>>> = const { std::cell::RefCell::new(None) };
}

/// Write `changes` into the worktree at `root` (and the index when `with_index`), all or
/// nothing, even across a crash: the plan is journaled first (see [`super::journal`]), SIGINT
/// and SIGTERM roll back before the process ends, and a SIGKILL leaves the journal for
/// [`recover`]. The caller has checked that the touched paths are clean ([`dirty_files`]).
pub fn apply_to_worktree(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    with_index: bool,
) -> Result<(), WorktreeError> {
    let worktree = open(root)?;
    let git_dir = base.repo().path();
    let signals = SignalGuard::install()?;
    let staged = changes;
    let submodule_dirs = submodule::added_dirs(base, &worktree, staged)?;
    let submodules_removed = submodule::removed(base, staged)?;
    let changes: Vec<FileChange> = changes
        .iter()
        .filter(|c| !is_gitlink(c) && !submodules_removed.contains(&c.path.as_str()))
        .cloned()
        .collect();
    let changes = changes.as_slice();
    // The run's id is in every temporary and backup name, fixed before the journal lists them.
    let run = new_run_id();
    let names = plan_names(changes, &run);
    let steps = planned_steps(&worktree, changes, &names, &submodule_dirs)?;
    let plan = Plan { run, phase: Phase::Prepare, with_index, steps };
    let mut journal = Journal::begin(git_dir, plan)?;
    #[cfg(test)]
    BEFORE_WRITE.with(|hook| hook.borrow().as_ref().map(|f| f()));
    let mut tx = Transaction::new(signals.flag());
    let write = Write { base, worktree: &worktree, changes, staged, submodule_dirs, names: &names };
    let result = write_all(&write, &mut tx, &mut journal);
    match result {
        Ok(()) => {
            // Backups that cannot be dropped now keep the journal: `apply --recover` drops them.
            if undo::finish(&worktree, journal.run(), &tx.done, Record::Own).is_whole() {
                journal.remove();
            }
            submodule::remove_empty_checkouts(&worktree, &submodules_removed);
            Ok(())
        }
        Err(e) => {
            let undone = undo::rollback(&worktree, journal.run(), &tx.done, Record::Own);
            if !undone.is_whole() {
                // A step could not be undone (a concurrent swap, a full disk): the journal
                // stays, so `apply --recover` can finish the job; nothing is claimed unchanged.
                return Err(WorktreeError::incomplete(
                    "the write stopped and its rollback",
                    &undone,
                ));
            }
            if with_index {
                journal.restore_index(git_dir)?;
            }
            journal.remove();
            Err(e)
        }
    }
}

/// The phases, each made durable in the journal before it starts.
fn write_all(
    w: &Write<'_>,
    tx: &mut Transaction,
    journal: &mut Journal,
) -> Result<(), WorktreeError> {
    w.set_aside_removals(tx)?;
    w.prepare(tx)?;
    w.make_submodule_dirs(tx)?;
    tx.step()?;
    journal.advance(Phase::Commit)?;
    w.commit(tx)?;
    if journal.plan().with_index {
        tx.step()?;
        update_index(w.base.repo(), w.staged)?;
    }
    journal.advance(Phase::Finish)?;
    Ok(())
}

fn plan_names(changes: &[FileChange], run: &str) -> Vec<Names> {
    let name = |path: &str, what| beside(path, &random_name(file_name(path), run, what));
    changes
        .iter()
        .map(|c| Names {
            backup: name(&c.path, "bak"),
            temp: c.content.is_some().then(|| name(&c.path, "tmp")),
        })
        .collect()
}

/// Every step the write will do, in order: what the journal lists. A directory is planned when
/// the worktree lacks it, or holds a path there the patch removes first.
fn planned_steps(
    worktree: &Worktree,
    changes: &[FileChange],
    names: &[Names],
    submodule_dirs: &[&str],
) -> Result<Vec<Step>, WorktreeError> {
    let removed = removed_paths(changes);
    let mut steps = Vec::new();
    for (change, n) in changes.iter().zip(names).filter(|(c, _)| c.content.is_none()) {
        steps.push(Step::MoveAside { target: change.path.clone(), backup: n.backup.clone() });
    }
    let mut dirs = HashSet::new();
    for (change, n) in changes.iter().zip(names) {
        let Some(temp) = &n.temp else { continue };
        for (i, _) in change.path.match_indices('/') {
            let dir = &change.path[..i];
            if dirs.insert(dir) && (removed.contains(dir) || worktree.metadata(dir)?.is_none()) {
                steps.push(Step::MakeDir { path: dir.to_owned() });
            }
        }
        steps.push(Step::WriteTemp { temp: temp.clone() });
    }
    steps.extend(planned_submodule_dirs(worktree, submodule_dirs)?);
    for (change, n) in changes.iter().zip(names) {
        let Some(temp) = &n.temp else { continue };
        let target = change.path.clone();
        steps.push(Step::MoveAside { target: target.clone(), backup: n.backup.clone() });
        steps.push(Step::Place { temp: temp.clone(), target });
    }
    Ok(steps)
}

/// The directories [`Write::make_submodule_dirs`] will make: each missing component of each
/// added submodule's path, outermost first.
fn planned_submodule_dirs(worktree: &Worktree, paths: &[&str]) -> Result<Vec<Step>, WorktreeError> {
    let mut steps = Vec::new();
    let mut seen = HashSet::new();
    for path in paths {
        let ends = path.match_indices('/').map(|(i, _)| i).chain([path.len()]);
        for end in ends {
            let dir = &path[..end];
            if seen.insert(dir) && worktree.metadata(dir)?.is_none() {
                steps.push(Step::MakeDir { path: dir.to_owned() });
            }
        }
    }
    Ok(steps)
}

fn io_error(action: &'static str, path: &str) -> impl FnOnce(std::io::Error) -> WorktreeError {
    let path = path.to_owned();
    move |source| WorktreeError::Write { action, path, source }
}

/// `name` in the directory of `path`.
fn beside(path: &str, name: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_owned(),
    }
}

/// The last component of `path`.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// One write's inputs, which every phase reads.
struct Write<'a> {
    base: &'a BaseTree<'a>,
    worktree: &'a Worktree,
    /// What the worktree phases write: every change but the submodules'.
    changes: &'a [FileChange],
    /// What the index gets: every change.
    staged: &'a [FileChange],
    /// The added submodules' paths the worktree lacks: made empty directories.
    submodule_dirs: Vec<&'a str>,
    names: &'a [Names],
}

impl Write<'_> {
    /// Phase 1: every path the patch removes moved to its backup beside it.
    fn set_aside_removals(&self, tx: &mut Transaction) -> Result<(), WorktreeError> {
        for (change, n) in self.changes.iter().zip(self.names).filter(|(c, _)| c.content.is_none())
        {
            tx.step()?;
            let parent = self.worktree.parent(&change.path, None)?;
            self.move_aside(&parent, (&change.path, &n.backup), tx)?;
        }
        Ok(())
    }

    /// Move the entry at `path` (if any) to its planned backup beside it, recorded in `tx`, and
    /// check that what was moved is still the base's: an edit made since [`dirty_files`] looked
    /// would otherwise be dropped with the backup.
    fn move_aside(
        &self,
        parent: &Parent<'_>,
        (path, backup): (&str, &str),
        tx: &mut Transaction,
    ) -> Result<(), WorktreeError> {
        let (dir, name) = (&parent.dir, parent.name);
        if dir.symlink_metadata(name).is_err() {
            return Ok(());
        }
        dir.rename(name, dir, file_name(backup)).map_err(io_error("move aside", path))?;
        tx.done.push(Step::MoveAside { target: path.to_owned(), backup: backup.to_owned() });
        let entry = self.base.entry(path.as_bytes())?;
        // A base directory the patch turns into a file was checked to hold only removed paths.
        if entry.is_some_and(BaseEntry::is_tree) {
            return Ok(());
        }
        if worktree_matches(self.worktree, backup, expected_entry(self.base, entry)?.as_ref())? {
            Ok(())
        } else {
            Err(WorktreeError::Changed { path: path.to_owned() })
        }
    }

    /// Phase 2: every new file written to its planned temporary name beside its target.
    fn prepare(&self, tx: &mut Transaction) -> Result<(), WorktreeError> {
        for (change, n) in self.changes.iter().zip(self.names) {
            let (Some(mode), Some(content), Some(temp)) = (change.mode, &change.content, &n.temp)
            else {
                continue;
            };
            tx.step()?;
            let bytes = content.read(self.base, &change.path)?;
            let entry = if mode == mode::SYMLINK {
                if !link_stays_inside(&change.path, &bytes) {
                    let target = String::from_utf8_lossy(&bytes).into_owned();
                    return Err(
                        PathRefused::LinkOutside { path: change.path.clone(), target }.into()
                    );
                }
                Entry::Link { target: Path::new(OsStr::from_bytes(&bytes)) }
            } else {
                Entry::File { bytes: &bytes, executable: mode == mode::EXECUTABLE }
            };
            let mut new_dirs = Vec::new();
            let parent = self.worktree.parent(&change.path, Some(&mut new_dirs));
            tx.done.extend(new_dirs.into_iter().map(|path| Step::MakeDir { path }));
            let parent = parent?;
            write_new(&parent.dir, file_name(temp), &entry)
                .map_err(io_error("write", &change.path))?;
            tx.done.push(Step::WriteTemp { temp: temp.clone() });
        }
        Ok(())
    }

    /// Phase 2, last: an empty directory for each submodule added where the worktree has
    /// nothing (as `git apply` makes it); rolled back with the rest.
    fn make_submodule_dirs(&self, tx: &mut Transaction) -> Result<(), WorktreeError> {
        for path in &self.submodule_dirs {
            tx.step()?;
            let mut new_dirs = Vec::new();
            // The parent of `path/` is `path` itself: every missing component is made.
            let inside = format!("{path}/");
            let made = self.worktree.parent(&inside, Some(&mut new_dirs));
            tx.done.extend(new_dirs.into_iter().map(|path| Step::MakeDir { path }));
            made?;
        }
        Ok(())
    }

    /// Phase 3: move each existing target aside, put each new file in place.
    fn commit(&self, tx: &mut Transaction) -> Result<(), WorktreeError> {
        for (step, (change, n)) in self.changes.iter().zip(self.names).enumerate() {
            #[cfg(test)]
            if FAIL_COMMIT_AT.with(std::cell::Cell::get) == Some(step) {
                return Err(io_error("commit", &change.path)(std::io::Error::other("injected")));
            }
            let _ = step;
            // Removals were set aside in phase 1.
            let Some(temp) = &n.temp else { continue };
            tx.step()?;
            let parent = self.worktree.parent(&change.path, None)?;
            self.move_aside(&parent, (&change.path, &n.backup), tx)?;
            let (dir, name) = (&parent.dir, parent.name);
            dir.rename(file_name(temp), dir, name).map_err(io_error("write", &change.path))?;
            tx.done.push(Step::Place { temp: temp.clone(), target: change.path.clone() });
        }
        Ok(())
    }
}

pub(super) fn update_index(
    repo: &git2::Repository,
    changes: &[FileChange],
) -> Result<(), WorktreeError> {
    let fail = |e: git2::Error| WorktreeError::Index { reason: e.message().to_owned() };
    let mut index = repo.index().map_err(fail)?;
    for change in changes {
        let path = Path::new(&change.path);
        match &change.content {
            Some(content) if is_gitlink(change) => submodule::stage(&mut index, change, content)?,
            Some(content) => {
                index.add_path(path).map_err(fail)?;
                check_staged(&index, change, content)?;
            }
            None => index.remove_path(path).map_err(fail)?,
        }
    }
    index.write().map_err(fail)
}

/// libgit2 stages a file by reading it again by path: make sure what it read is what was
/// written (a directory swapped for a link in between would stage another file's content).
fn check_staged(
    index: &git2::Index,
    change: &FileChange,
    content: &Content,
) -> Result<(), WorktreeError> {
    let written = match content {
        Content::Bytes(bytes) => git2::Oid::hash_object(git2::ObjectType::Blob, bytes),
        Content::Blob(oid) => Ok(*oid),
        Content::Unkept => Err(git2::Error::from_str("content not kept")),
    };
    let staged = index.get_path(Path::new(&change.path), 0);
    if written.ok().zip(staged).is_some_and(|(oid, entry)| entry.id == oid) {
        return Ok(());
    }
    let reason = format!("'{}' changed in the worktree while it was being staged", change.path);
    Err(WorktreeError::Index { reason })
}

impl Transaction {
    fn new(interrupted: Arc<AtomicBool>) -> Self {
        #[cfg(debug_assertions)]
        let delay = std::env::var("PATCHGATE_TEST_STEP_DELAY_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(Duration::from_millis);
        #[cfg(not(debug_assertions))]
        let delay = None;
        Self { done: Vec::new(), interrupted: Some(interrupted), delay }
    }

    /// Before each step: stop when a signal arrived (the caller rolls back).
    fn step(&self) -> Result<(), WorktreeError> {
        if let Some(delay) = self.delay {
            std::thread::sleep(delay);
        }
        match &self.interrupted {
            Some(flag) if flag.load(Ordering::SeqCst) => Err(WorktreeError::Interrupted),
            _ => Ok(()),
        }
    }
}
