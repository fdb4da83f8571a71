//! Writing what `validate` checked: the patched files of an [`Outcome`] go into the worktree
//! (and index) all or nothing, against the base they were checked on. Nothing is parsed or
//! checked again; the one question left for the write is whether the worktree still holds the
//! base where the patch writes.

use super::judgement::{Judgement, land};
use super::{Context, Options, Outcome, ValidateError, pipeline};
use crate::scratch::{FileChange, LandError};
use std::path::Path;

/// Why `apply` did not write. Nothing was changed in any case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// The result could not be validated.
    #[error(transparent)]
    Validate(#[from] ValidateError),
    /// The accepted result could not be written.
    #[error(transparent)]
    Land(#[from] LandError),
}

/// What [`apply`] did.
#[derive(Debug)]
pub struct Applied<'r> {
    /// The validation; on success its verdict's reason says where the patch was written.
    pub outcome: Outcome<'r>,
    /// Whether the patch was written (the result was accepted).
    pub is_written: bool,
}

/// `patchgate apply`: validate, and only if the result is accepted write its checked files into
/// the worktree at `root` (and the index with `with_index`), all or nothing.
pub fn apply<'r>(
    ctx: &Context<'_, 'r>,
    options: &Options,
    root: &Path,
    with_index: bool,
) -> Result<Applied<'r>, ApplyError> {
    let mut judgement = pipeline::judge(ctx, options)?;
    let is_written = write_if_valid(&mut judgement, root, with_index)?;
    Ok(Applied { outcome: judgement.into_outcome(), is_written })
}

/// Land an accepted judgement and say so in its acceptance; a rejection is left alone.
pub(super) fn write_if_valid(
    judgement: &mut Judgement<'_>,
    root: &Path,
    with_index: bool,
) -> Result<bool, LandError> {
    if !judgement.is_valid() {
        return Ok(false);
    }
    judgement.land(root, with_index)?;
    judgement.acceptance.written = Some(with_index);
    Ok(true)
}

impl Outcome<'_> {
    /// The commit the patch was checked against (resolved once, by the pipeline), when the
    /// base is a commit and was read.
    #[must_use]
    pub fn base_commit(&self) -> Option<git2::Oid> {
        self.checked.as_ref().ok().and_then(|c| c.base.commit)
    }

    /// Write the checked files into the worktree at `root` (and the index with `with_index`),
    /// whatever the verdict: the caller decides whether a rejection may be overridden. Refused
    /// when the repository check did not pass (the patch does not apply to the base), and over
    /// uncommitted edits to the touched files. Returns what was written.
    pub fn land(&self, root: &Path, with_index: bool) -> Result<&[FileChange], LandError> {
        land(&self.checked, root, with_index)
    }
}
