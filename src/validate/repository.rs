//! The repository phase of `validate`: checks that need the base tree (applies and rolls back,
//! symlinks in the base tree, `expect` post-conditions). The scratch work adds them here.

use super::{Context, Findings, ValidateError};
use crate::rule::{Input, Note};

/// Run the repository-aware checks. Without a repository they are skipped, and a
/// `repository_checks_skipped` note says so. Returns `Err` when the repository cannot be read.
#[allow(clippy::unnecessary_wraps, reason = "the scratch checks read git objects and can fail")]
pub(super) fn check_repository(
    ctx: &Context<'_>,
    input: &Input<'_>,
    findings: &mut Findings,
) -> Result<(), ValidateError> {
    let _ = input;
    if ctx.repo.is_none() {
        findings.notes.push(Note {
            code: "repository_checks_skipped".into(),
            message: "no repository: applying, rolling back and `expect` were not checked".into(),
            patch_line: None,
        });
    }
    Ok(())
}
