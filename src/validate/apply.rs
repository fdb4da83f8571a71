//! Writing what `validate` checked: the patched files of an [`Outcome`] go into the worktree
//! (and index) all or nothing, against the base they were checked on. Nothing is parsed or
//! checked again; the one question left for the write is whether the worktree still holds the
//! base where the patch writes.

use super::{Checked, Context, Options, Outcome, Unchecked, ValidateError, validate};
use crate::rule::Report;
use crate::scratch::{self, FileChange, LandError, ScratchError};
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
    ctx: &Context<'r>,
    options: &Options,
    root: &Path,
    with_index: bool,
) -> Result<Applied<'r>, ApplyError> {
    let mut outcome = validate(ctx, options)?;
    if !outcome.report.verdict.valid {
        return Ok(Applied { outcome, is_written: false });
    }
    outcome.land(root, with_index)?;
    let staged = if with_index { " and the index" } else { "" };
    let reason = format!("{}; applied to the worktree{staged}", outcome.report.verdict.reason);
    let notes = std::mem::take(&mut outcome.report.notes);
    outcome.report = Report::from_violations(Vec::new(), notes, &reason);
    Ok(Applied { outcome, is_written: true })
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
        let checked = self.checked()?;
        scratch::land(&checked.base, root, &checked.changes, with_index)?;
        Ok(&checked.changes)
    }

    /// The checked changes, or why there are none, as the write reports it.
    fn checked(&self) -> Result<&Checked<'_>, LandError> {
        let reason = match &self.checked {
            Ok(checked) => return Ok(checked),
            Err(Unchecked::Base(ScratchError::BadBase { rev, reason })) => {
                let (rev, reason) = (rev.clone(), reason.clone());
                return Err(ScratchError::BadBase { rev, reason }.into());
            }
            Err(Unchecked::Base(other)) => other.to_string(),
            Err(Unchecked::NoRepository) => "validated without a repository".to_owned(),
            Err(Unchecked::Refused(reason)) => reason.clone(),
        };
        Err(LandError::DoesNotApply { reason })
    }
}
