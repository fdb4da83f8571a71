//! The `validate` pipeline: one executor result against its step, as the CLI, `patchgate apply`
//! and `review apply` run it.
//!
//! Phases, in order: [`read_step`] (done by the caller) -> policy and globs -> `schema` ->
//! parse the patch -> the eight rules ([`crate::rule::evaluate`]) -> repository checks
//! (`check_repository`, skipped with a note when there is no repository) -> the optional judge
//! (only when nothing was rejected so far). A rejection is `Ok(Report)` with `verdict.valid ==
//! false`; `Err` means the step or policy is refused, or the result could not be evaluated.
//!
//! ```
//! use patchgate::config::Config;
//! use patchgate::validate::{self, Context, Options};
//!
//! let step = validate::read_step(br#"{"description": "Rename foo to bar in a.rs"}"#).unwrap();
//! let result = br#"{"mode": "apply", "success": false, "summary": "a.rs does not exist"}"#;
//! let config = Config::default();
//! let ctx = Context { step: &step, result, config: &config, repo: None };
//! let report = validate::validate(&ctx, &Options::default()).unwrap();
//! assert!(report.verdict.valid, "{}", report.verdict.reason);
//! ```

mod judge;
mod limits;
mod repository;
#[cfg(test)]
mod tests;

pub use judge::{JudgeError, JudgeOptions, JudgeVerdict, run_judge};
pub use repository::scratch_policy;

use crate::config::{Config, ConfigError};
use crate::patch::{ParseOptions, Parsed, Patch, parse};
use crate::path::PathSet;
use crate::rule::{self, Input, Note, Report, RulePolicy, Scope, Violation};
use crate::step::{ExecutorResult, Step};

/// The required inputs.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The orchestrator's step (see [`read_step`]).
    pub step: &'a Step,
    /// The executor's result exactly as received: raw bytes, so a non-JSON answer is a `schema`
    /// verdict rather than an error.
    pub result: &'a [u8],
    /// The repository's `.patchgate.toml` (or the default policy).
    pub config: &'a Config,
    /// The repository the patch is meant for; `None` skips the repository checks.
    pub repo: Option<&'a git2::Repository>,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("step", &self.step)
            .field("result_len", &self.result.len())
            .field("config", &self.config)
            .field("repo", &self.repo.map(git2::Repository::path))
            .finish()
    }
}

/// What has defaults.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run this judge when no rule rejects (rule 8's open part).
    pub judge: Option<JudgeOptions>,
    /// How strictly to parse the patch (strict by default).
    pub parse: ParseOptions,
    /// The repository phase: `--base`, `--check-cmd`, `--check-timeout`.
    pub scratch: crate::scratch::Options,
}

/// Why a result could not be evaluated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ValidateError {
    /// The step is not usable: not JSON, wrong shape, bad globs, a defective `applyPatch`.
    #[error("invalid step: {message}")]
    InvalidStep {
        /// What is wrong and what to do.
        message: String,
    },
    /// `.patchgate.toml` (its `excluded` list or `[rules]` table) is not usable.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The judge failed, timed out or answered something else than `{valid, reason}`.
    #[error(transparent)]
    Judge(#[from] JudgeError),
    /// Reading the repository failed.
    #[error("repository: {message}")]
    Repository {
        /// What failed and what to do.
        message: String,
    },
}

impl ValidateError {
    /// Whether the caller's input is refused (exit 2) rather than evaluation failing (exit 3).
    #[must_use]
    pub fn is_input_refused(&self) -> bool {
        matches!(self, Self::InvalidStep { .. } | Self::Config(_))
    }

    /// A stable code for machine-readable errors.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidStep { .. } => "invalid_step",
            Self::Config(_) => "invalid_config",
            Self::Judge(_) => "judge_failed",
            Self::Repository { .. } => "repository",
        }
    }
}

fn invalid_step(message: impl Into<String>) -> ValidateError {
    ValidateError::InvalidStep { message: message.into() }
}

/// Decode the orchestrator's step JSON; unknown fields and wrong types are refused.
pub fn read_step(bytes: &[u8]) -> Result<Step, ValidateError> {
    if let Some(key) = crate::json::duplicate_key(bytes) {
        return Err(invalid_step(format!("the step names '{key}' twice; give each field once")));
    }
    let step: Step = serde_json::from_slice(bytes)
        .map_err(|e| invalid_step(format!("{e}; the step must fit schemas/step.schema.json")))?;
    if step.description.trim().is_empty() {
        return Err(invalid_step("'description' is empty; say what the step changes"));
    }
    Ok(step)
}

/// Findings collected by the phases after `schema`.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// Violations, in the order found (sorted by rule at the end).
    pub violations: Vec<Violation>,
    /// Notes.
    pub notes: Vec<Note>,
}

/// Judge one executor result against its step.
pub fn validate(ctx: &Context<'_>, options: &Options) -> Result<Report, ValidateError> {
    let policy: RulePolicy = ctx.config.section("rules")?;
    let limits = ctx.config.limits()?;
    let scope = compile_scope(ctx, &limits)?;
    let apply_text = ctx.step.apply_patch.as_deref().unwrap_or_default();
    let apply_parsed = parse_apply_patch(apply_text, &options.parse, &limits)?;
    let mut findings = Findings::default();
    note_unknown_fields(ctx.result, &mut findings);
    let result = match rule::schema::check(ctx.result) {
        Ok(result) => result,
        Err(violations) => return Ok(finish(findings.notes, violations, None)),
    };
    let patch_text = result.patch.as_deref().unwrap_or_default();
    if let Err(e) = limits::check_text(&limits, patch_text.as_bytes(), "the patch") {
        return Ok(finish(findings.notes, vec![limits::violation(&e)], None));
    }
    let parsed =
        (!patch_text.trim().is_empty()).then(|| parse(patch_text.as_bytes(), &options.parse));
    if let Some(Err(e)) = parsed.as_ref().map(|p| limits::check_parsed(&limits, &p.patch)) {
        return Ok(finish(findings.notes, vec![limits::violation(&e)], None));
    }
    let apply_patch = apply_parsed.as_ref().map(|p| &p.patch);
    let index = ctx.repo.and_then(|repo| {
        let rev = crate::scratch::base_rev(ctx.step, &options.scratch);
        crate::scratch::TreeIndex::resolve(repo, rev).ok() // a bad base is refused later, with its reason
    });
    let mut input = Input::new(ctx.step, &result, parsed.as_ref(), apply_patch, &scope);
    if let Some(index) = &index {
        input = input.with_base(index);
    }
    note_unknown_apply_run(&input, &mut findings);
    let found = rule::evaluate(&input, &policy);
    findings.violations = found.violations;
    findings.notes.extend(found.notes);
    note_warnings(parsed.as_ref(), &mut findings);
    repository::check_repository(ctx, &input, options, &mut findings)?;
    if findings.violations.is_empty()
        && let Some(judge) = &options.judge
    {
        findings.violations.extend(judge_phase(ctx, &result, judge)?);
    }
    let mut report = finish(findings.notes, findings.violations, input.usable_patch());
    if ctx.repo.is_none() && report.verdict.valid && input.usable_patch().is_some() {
        report.verdict.reason.push_str(" (not checked against a repository)");
    }
    Ok(report)
}

/// The step's globs plus the repository's `excluded` list, compiled.
fn compile_scope(
    ctx: &Context<'_>,
    limits: &crate::config::Limits,
) -> Result<Scope, ValidateError> {
    limits::check_step(limits, ctx.step).map_err(|e| invalid_step(e.to_string()))?;
    if let Err(e) = PathSet::new(&ctx.config.excluded) {
        return Err(ConfigError::Invalid {
            path: ctx.config.source.clone().unwrap_or_else(|| crate::config::FILE_NAME.into()),
            message: format!("'excluded': {e}"),
        }
        .into());
    }
    Scope::new(ctx.step, &ctx.config.excluded)
        .map_err(|e| invalid_step(format!("{e} in allowedFiles, excludedPaths or applyFiles")))
}

/// The step's `applyPatch`, which must itself be a clean unified diff.
fn parse_apply_patch<'t>(
    text: &'t str,
    options: &ParseOptions,
    limits: &crate::config::Limits,
) -> Result<Option<Parsed<'t>>, ValidateError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let refused = |e: crate::config::LimitExceeded| invalid_step(e.to_string());
    limits::check_text(limits, text.as_bytes(), "'applyPatch'").map_err(refused)?;
    let parsed = parse(text.as_bytes(), options);
    limits::check_parsed(limits, &parsed.patch).map_err(refused)?;
    if let Some(d) = parsed.defects.first() {
        return Err(invalid_step(format!(
            "'applyPatch' is not a clean unified diff: {d} ({}); pass the apply run's patch as produced",
            d.code
        )));
    }
    Ok(Some(parsed))
}

fn note_unknown_fields(raw: &[u8], findings: &mut Findings) {
    for name in rule::schema::unknown_fields(raw) {
        findings.notes.push(Note {
            code: "unknown_field".into(),
            message: format!("result field '{name}' is not part of the schema and was ignored"),
            patch_line: None,
        });
    }
}

/// A `fix_regression` result against a step without `applyPatch` cannot be compared with the
/// apply run; say so rather than imply the reversal checks ran in full.
fn note_unknown_apply_run(input: &Input<'_>, findings: &mut Findings) {
    if input.mode() == Some(crate::step::Mode::FixRegression) && input.apply_patch.is_none() {
        findings.notes.push(Note {
            code: "apply_run_unknown".into(),
            message: "the step has no applyPatch: only no-op bodies were checked for reversal"
                .into(),
            patch_line: None,
        });
    }
}

fn note_warnings(parsed: Option<&Parsed<'_>>, findings: &mut Findings) {
    for w in parsed.map(|p| p.warnings.as_slice()).unwrap_or_default() {
        findings.notes.push(Note {
            code: w.code.as_str().to_owned(),
            message: w.message.clone(),
            patch_line: Some(w.span.line),
        });
    }
}

fn judge_phase(
    ctx: &Context<'_>,
    result: &ExecutorResult,
    judge: &JudgeOptions,
) -> Result<Option<Violation>, ValidateError> {
    let verdict = run_judge(judge, ctx.step, result)?;
    Ok((!verdict.valid).then(|| {
        Violation::new(
            rule::RuleId::NotImplemented,
            "judge_rejected",
            format!("the judge says: {}", verdict.reason),
        )
    }))
}

/// Sort violations into rule order (stable) and build the report.
fn finish(notes: Vec<Note>, mut violations: Vec<Violation>, patch: Option<&Patch<'_>>) -> Report {
    violations.sort_by_key(|v| v.rule);
    Report::from_violations(violations, notes, &accepted_reason(patch))
}

/// `accepted: 2 files, +3 -1`, or for a clean failure report `accepted: failure reported, no
/// patch`.
#[must_use]
pub fn accepted_reason(patch: Option<&Patch<'_>>) -> String {
    let Some(patch) = patch else { return "accepted: failure reported, no patch".to_owned() };
    let n = patch.files.len();
    format!(
        "accepted: {n} file{}, +{} -{}",
        if n == 1 { "" } else { "s" },
        patch.added(),
        patch.removed()
    )
}
