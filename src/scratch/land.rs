//! Landing checked changes in the real worktree: the one path `patchgate apply` and `review
//! apply` share, so both refuse and write the same way.

use super::{BaseTree, FileChange, ScratchError, WorktreeError, apply_to_worktree, dirty_files};
use crate::step::Step;
use std::path::Path;

/// Why an accepted patch was not written. Nothing was changed in any case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LandError {
    /// Reading the base or the repository failed.
    #[error(transparent)]
    Scratch(#[from] ScratchError),
    /// The repository check refused the patch (or could not run), so there is nothing
    /// checked to write.
    #[error("{reason}")]
    DoesNotApply {
        /// The first violation's `rule: message`.
        reason: String,
    },
    /// The worktree has uncommitted edits where the patch writes.
    #[error(
        "uncommitted changes in {} would be overwritten; commit or stash them, then apply again",
        paths.join(", ")
    )]
    Dirty {
        /// The touched paths that differ from the base.
        paths: Vec<String>,
    },
    /// A path was refused, or a write failed and everything was restored.
    #[error(transparent)]
    Write(#[from] WorktreeError),
    /// The check ran for its verdict only and kept no content to write
    /// ([`Options::is_verdict_only`](super::Options::is_verdict_only)).
    #[error("the check kept no content for {path} (verdict only); validate again to write it")]
    NotKept {
        /// The first path without content.
        path: String,
    },
}

/// Write `changes`, as [`check`](super::check) produced them against `base`, into the worktree
/// at `root`: refused while an interrupted apply is pending and over uncommitted edits to the
/// touched files; then all or nothing (and staged with `with_index`).
pub fn land(
    base: &BaseTree<'_>,
    root: &Path,
    changes: &[FileChange],
    with_index: bool,
) -> Result<(), LandError> {
    if let Some(path) = super::pending_apply(base.repo().path()) {
        return Err(WorktreeError::from(super::JournalError::Pending { path }).into());
    }
    if let Some(change) = changes.iter().find(|c| c.content == Some(super::Content::Unkept)) {
        return Err(LandError::NotKept { path: change.path.clone() });
    }
    if !with_index {
        for change in changes {
            if super::submodule::is_submodule(base, change)? {
                let path = change.path.clone();
                return Err(WorktreeError::SubmoduleNeedsIndex { path }.into());
            }
        }
    }
    super::journal::clean_strays(base.repo().path());
    let paths = dirty_files(base, root, changes, with_index)?;
    if !paths.is_empty() {
        return Err(LandError::Dirty { paths });
    }
    apply_to_worktree(base, root, changes, with_index)?;
    Ok(())
}

/// The base revision: `--base`, else the step's `base`, else `HEAD`.
#[must_use]
pub fn base_rev<'a>(step: &'a Step, options: &'a super::Options) -> &'a str {
    rev_of(options.base.as_deref(), step)
}

/// The revision `base` names, else the step's `base`, else `HEAD`.
#[must_use]
pub fn rev_of<'a>(base: Option<&'a str>, step: &'a Step) -> &'a str {
    base.or(step.base.as_deref()).unwrap_or("HEAD")
}
