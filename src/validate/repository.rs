//! The repository phase of `validate`: checks that need the base tree (applies and rolls back,
//! symlinks in the base tree, `expect` post-conditions, `--check-cmd`), run by
//! [`crate::scratch::check`].

use super::{Context, Findings, Options, ValidateError};
use crate::rule::{Input, Note, Violation};
use crate::scratch::{self, ScratchError, ScratchPolicy};

/// Run the repository-aware checks. Without a repository they are skipped, and a
/// `repository_checks_skipped` note says so; without a usable patch there is nothing to check.
/// `--check-cmd` runs only when nothing was rejected so far. Returns `Err` when the repository
/// cannot be read, or the base or an `expect` regex is unusable (refused input).
pub(super) fn check_repository(
    ctx: &Context<'_>,
    input: &Input<'_>,
    options: &Options,
    findings: &mut Findings,
) -> Result<(), ValidateError> {
    let Some(repo) = ctx.repo else {
        findings.notes.push(Note {
            code: "repository_checks_skipped".into(),
            message: "no repository: applying, rolling back and `expect` were not checked".into(),
            patch_line: None,
        });
        return Ok(());
    };
    let Some(patch) = input.usable_patch() else { return Ok(()) };
    let policy = scratch_policy(ctx.config)?;
    let mut scratch_options = options.scratch.clone();
    if !findings.violations.is_empty() {
        scratch_options.check_cmd = None;
    }
    let scratch_ctx = scratch::Context { repo, patch, step: ctx.step, policy: &policy };
    let outcome = scratch::check(&scratch_ctx, &scratch_options).map_err(into_validate_error)?;
    let fresh: Vec<_> =
        outcome.violations.into_iter().filter(|v| !is_reported(&findings.violations, v)).collect();
    findings.violations.extend(fresh);
    findings.notes.extend(outcome.notes);
    Ok(())
}

/// Whether the rules already reported this finding: the repository check reads modes and
/// binary entries from the base too, and names what it shares with the rules by the same code.
fn is_reported(found: &[Violation], v: &Violation) -> bool {
    found.iter().any(|f| f.rule == v.rule && f.code == v.code && f.file == v.file)
}

/// `[scratch]`, plus the `[rules]` switches for links and binary entries.
pub fn scratch_policy(config: &crate::config::Config) -> Result<ScratchPolicy, ValidateError> {
    let rules: crate::rule::RulePolicy = config.section("rules")?;
    let scratch: ScratchPolicy = config.section("scratch")?;
    Ok(ScratchPolicy {
        allow_symlinks: rules.allow_symlinks,
        allow_binary: rules.allow_binary,
        ..scratch
    })
}

fn into_validate_error(e: ScratchError) -> ValidateError {
    match e {
        ScratchError::BadBase { .. } | ScratchError::BadExpect { .. } => {
            ValidateError::InvalidStep { message: e.to_string() }
        }
        other => ValidateError::Repository { message: other.to_string() },
    }
}
