//! `apply --recover`: finish what a killed `apply` left, from its journal, once the journal
//! proves to be patchgate's own for a run ([`super::proof`]); the undoing itself is
//! [`super::undo`]'s, which never removes or moves an entry the run did not make.

use super::journal::{Journal, Phase, Step};
use super::undo::{Kept, Record, finish, rollback};
use super::write::{WorktreeError, open};
use std::path::{Path, PathBuf};

/// What [`recover`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Recovery {
    /// No journal: no apply was interrupted.
    NothingToDo,
    /// The interrupted apply was undone: every file it wrote is as before it, the index too.
    RolledBack,
    /// The interrupted apply had written everything; its backups were dropped.
    Completed,
}

/// What [`recover`] did, and what it left as found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recovered {
    /// What was done.
    pub recovery: Recovery,
    /// Entries left as found: recovery could not show the apply made them (or where they go
    /// is taken). Empty when every file is as the recovery says.
    pub kept: Vec<Kept>,
    /// Where the index that recovery replaced with the one from before the apply was kept.
    pub replaced_index: Option<PathBuf>,
}

/// Finish what an interrupted `apply` left (a journal in the git directory): roll the worktree
/// and index back to the state before it, or, if it was killed while dropping its backups,
/// complete that. A journal that is not patchgate's for a run (see [`super::proof`]) is refused
/// with nothing done, and one whose run is still writing too.
pub fn recover(repo: &git2::Repository, root: &Path) -> Result<Recovered, WorktreeError> {
    let git_dir = repo.path();
    super::journal::clean_strays(git_dir);
    let Some(journal) = Journal::load(git_dir)? else {
        return Ok(Recovered {
            recovery: Recovery::NothingToDo,
            kept: Vec::new(),
            replaced_index: None,
        });
    };
    let worktree = open(root)?;
    let plan = journal.plan();
    let (recovery, undone, replaced_index) = if plan.phase == Phase::Finish {
        (Recovery::Completed, finish(&worktree, journal.run(), &plan.steps, Record::Journal), None)
    } else {
        // A target was placed only once every temporary file existed (phase commit), and then
        // its temporary name is gone.
        let mut done = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            let is_done = match step {
                Step::Place { temp, .. } => {
                    plan.phase == Phase::Commit && worktree.metadata(temp)?.is_none()
                }
                _ => true,
            };
            if is_done {
                done.push(step.clone());
            }
        }
        let undone = rollback(&worktree, journal.run(), &done, Record::Journal);
        let replaced = if plan.with_index && undone.failed.is_none() {
            journal.restore_index(git_dir)?
        } else {
            None
        };
        (Recovery::RolledBack, undone, replaced)
    };
    if undone.failed.is_some() {
        // The journal stays: the next `apply --recover` carries on from here.
        return Err(WorktreeError::incomplete("recovery", &undone));
    }
    journal.remove();
    Ok(Recovered { recovery, kept: undone.kept, replaced_index })
}
