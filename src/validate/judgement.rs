//! A validation before its verdict is worded. The pipeline produces a [`Judgement`]; whoever
//! runs it adds what it did besides (a repair, the write) to the acceptance, then words the
//! verdict once ([`Judgement::into_outcome`]).

use super::{Checked, Outcome, Unchecked};
use crate::finding::{Acceptance, ChangeSummary, JudgeRun, Note, Report, Violation};
use crate::scratch::{self, FileChange, LandError, ScratchError};
use std::path::Path;

/// The findings of one validation, what its acceptance would say, the patch text and what was
/// checked against the base.
#[derive(Debug)]
pub(crate) struct Judgement<'r> {
    /// Every violation, in rule order.
    pub violations: Vec<Violation>,
    /// Every note.
    pub notes: Vec<Note>,
    /// What the judge was asked and answered, when one was asked.
    pub judge: Option<JudgeRun>,
    /// What the patch does to each file's structure, when the patch was read.
    pub summary: Option<ChangeSummary>,
    /// What an acceptance says.
    pub acceptance: Acceptance,
    /// The result's `patch` text, when the result fit the schema.
    pub patch: Option<String>,
    /// The base and the patched files, or why there are none.
    pub checked: Result<Checked<'r>, Unchecked>,
}

impl<'r> Judgement<'r> {
    /// Findings in rule order (stable), nothing checked yet.
    pub fn new(notes: Vec<Note>, mut violations: Vec<Violation>) -> Self {
        violations.sort_by_key(|v| v.rule);
        Self {
            violations,
            notes,
            judge: None,
            summary: None,
            acceptance: Acceptance::default(),
            patch: None,
            checked: Err(Unchecked::NoRepository),
        }
    }

    /// Whether no rule said no.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }

    /// The first violation's `rule: message`.
    pub fn first_reason(&self) -> Option<String> {
        self.violations.first().map(Violation::reason)
    }

    /// Word the verdict, once.
    pub fn into_outcome(self) -> Outcome<'r> {
        let mut report = Report::from_violations(self.violations, self.notes, &self.acceptance);
        report.judge = self.judge;
        report.summary = self.summary;
        Outcome { report, patch: self.patch, checked: self.checked }
    }

    /// Write the checked files (see [`Outcome::land`]).
    pub fn land(&self, root: &Path, with_index: bool) -> Result<&[FileChange], LandError> {
        land(&self.checked, root, with_index)
    }
}

/// Write the checked files into the worktree at `root` (and the index with `with_index`),
/// refused when the repository check did not pass; returns what was written.
pub(super) fn land<'c>(
    checked: &'c Result<Checked<'_>, Unchecked>,
    root: &Path,
    with_index: bool,
) -> Result<&'c [FileChange], LandError> {
    let reason = match checked {
        Ok(checked) => {
            scratch::land(&checked.base, root, &checked.changes, with_index)?;
            return Ok(&checked.changes);
        }
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
