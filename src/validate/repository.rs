//! The repository phase of `validate`: checks that need the base tree (applies and rolls back,
//! symlinks in the base tree, `expect` post-conditions, `--check-cmd`), run by
//! [`crate::scratch::check`] against the base the pipeline resolved.

use super::{Context, Findings, Options, ValidateError};
use crate::config::Config;
use crate::finding::NoteKind;
use crate::rule::{Input, Note, RulePolicy, Violation};
use crate::scratch::{self, BaseTree, FileChange, ScratchError, ScratchPolicy};

/// What the repository phase left for `apply`.
#[derive(Debug)]
pub(super) enum RepoCheck {
    /// Not run: no repository, or no usable patch.
    NotRun,
    /// The patch applies and rolls back cleanly: every touched path after it.
    Checked(Vec<FileChange>),
    /// The repository check refused the patch: its first reason, `rule: message`.
    Refused(String),
}

/// Run the repository-aware checks. Without a repository they are skipped, and a
/// `repository_checks_skipped` note says so; without a usable patch there is nothing to check.
/// `--check-cmd` runs only when nothing was rejected so far. Returns `Err` when the repository
/// cannot be read, or the base or an `expect` regex is unusable (refused input).
pub(super) fn check_repository(
    ctx: &Context<'_, '_>,
    options: &Options,
    rules: &RulePolicy,
    base: Option<&Result<BaseTree<'_>, ScratchError>>,
    input: &Input<'_>,
    findings: &mut Findings,
) -> Result<RepoCheck, ValidateError> {
    let Some(base) = base else {
        findings.notes.push(Note {
            code: NoteKind::RepositoryChecksSkipped.into(),
            message: "no repository: applying, rolling back and `expect` were not checked".into(),
            patch_line: None,
        });
        return Ok(RepoCheck::NotRun);
    };
    let Some(patch) = input.usable_patch() else { return Ok(RepoCheck::NotRun) };
    let base = base.as_ref().map_err(ValidateError::from)?;
    let policy = scratch_policy(rules, ctx.config)?;
    let mut options = options.scratch.clone();
    if !findings.violations.is_empty() {
        options.check_cmd = None;
    }
    let ctx =
        scratch::Context { base, patch, paths: input.paths(), step: ctx.step, policy: &policy };
    let outcome = scratch::check(&ctx, &options)?;
    let check = match outcome.violations.first() {
        Some(first) => RepoCheck::Refused(first.reason()),
        None => RepoCheck::Checked(outcome.changes),
    };
    let fresh: Vec<_> =
        outcome.violations.into_iter().filter(|v| !is_reported(&findings.violations, v)).collect();
    findings.violations.extend(fresh);
    findings.notes.extend(outcome.notes);
    Ok(check)
}

/// Whether the rules already reported this finding: the repository check reads modes and
/// binary entries from the base too, and names what it shares with the rules by the same code.
fn is_reported(found: &[Violation], v: &Violation) -> bool {
    found.iter().any(|f| f.rule == v.rule && f.code == v.code && f.file == v.file)
}

/// `[scratch]`, plus the `[rules]` switches for links and binary entries (`rules` as the
/// pipeline read it).
fn scratch_policy(rules: &RulePolicy, config: &Config) -> Result<ScratchPolicy, ValidateError> {
    let scratch: ScratchPolicy = config.section("scratch")?;
    Ok(ScratchPolicy {
        allow_symlinks: rules.allow_symlinks,
        allow_binary: rules.allow_binary,
        ..scratch
    })
}
