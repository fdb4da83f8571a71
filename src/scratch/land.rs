//! Landing an accepted patch in the real worktree: the one path `patchgate apply` and
//! `review apply` share, so both refuse and write the same way.

use super::{
    BaseTree, Context, FileChange, Options, ScratchError, WorktreeError, apply_to_worktree, check,
    dirty_files,
};
use crate::step::Step;
use std::path::Path;

/// Why an accepted patch was not written. Nothing was changed in any case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LandError {
    /// Reading the base or the repository failed.
    #[error(transparent)]
    Scratch(#[from] ScratchError),
    /// The second check found a violation (the base moved, or the caller skipped validation).
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
}

/// Check the patch against its base once more without the check command (it already passed
/// in validation, and the check is deterministic over the same inputs) to get the patched
/// files; refuse over uncommitted edits; then write them all or nothing (and stage them with
/// `with_index`). Returns what was written.
pub fn land(
    ctx: &Context<'_>,
    options: &Options,
    root: &Path,
    with_index: bool,
) -> Result<Vec<FileChange>, LandError> {
    if let Some(path) = super::pending_apply(ctx.repo.path()) {
        return Err(WorktreeError::from(super::JournalError::Pending { path }).into());
    }
    super::journal::clean_strays(ctx.repo.path());
    let options = Options { check_cmd: None, ..options.clone() };
    let outcome = check(ctx, &options)?;
    if let Some(v) = outcome.violations.first() {
        return Err(LandError::DoesNotApply { reason: v.reason() });
    }
    let base = BaseTree::resolve(ctx.repo, base_rev(ctx.step, &options))?;
    let paths = dirty_files(&base, root, &outcome.changes, with_index)?;
    if !paths.is_empty() {
        return Err(LandError::Dirty { paths });
    }
    apply_to_worktree(&base, root, &outcome.changes, with_index)?;
    Ok(outcome.changes)
}

/// The base revision: `--base`, else the step's `base`, else `HEAD`.
#[must_use]
pub fn base_rev<'a>(step: &'a Step, options: &'a Options) -> &'a str {
    options.base.as_deref().or(step.base.as_deref()).unwrap_or("HEAD")
}
