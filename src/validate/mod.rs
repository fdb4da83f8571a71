//! The `validate` pipeline: one executor result against its step, and the write of what it
//! checked ([`apply`], [`Outcome::land`]).
//!
//! A whole run, as `patchgate validate` and `apply`, the Python and TypeScript APIs and
//! `review apply` carry it out, is a [`Run`]: [`Run::execute`] repairs (with `--repair`),
//! validates, judges, words the verdict once ([`crate::finding::Acceptance`]) and records a
//! rejection with its run; [`Run::apply`] writes an accepted result.
//!
//! Phases, in order: [`read_step`] (done by the caller) -> policy and globs -> `schema` ->
//! parse the patch -> the eight rules ([`crate::rule::evaluate`]) -> repository checks
//! (`check_repository`, skipped with a note when there is no repository) -> the optional judge
//! (only when nothing was rejected so far). A rejection is `Ok(Outcome)` with
//! `report.verdict.valid == false`; `Err` means the step or policy is refused, or the result
//! could not be evaluated.
//!
//! Every input is read once: the result JSON is decoded in one pass (its repeated keys found in
//! the same pass), `[rules]` is read once, the base revision is resolved once and serves the
//! rules, the repository check and the write, and the files the repository check patched in
//! memory are the ones [`Outcome::land`] writes: `apply` never parses or checks again.
//!
//! ```
//! use patchgate::config::Config;
//! use patchgate::validate::{self, Context, Options};
//!
//! let step = validate::read_step(br#"{"description": "Rename foo to bar in a.rs"}"#).unwrap();
//! let result = br#"{"mode": "apply", "success": false, "summary": "a.rs does not exist"}"#;
//! let config = Config::default();
//! let ctx = Context { step: &step, result, config: &config, repo: None };
//! let outcome = validate::validate(&ctx, &Options::default()).unwrap();
//! assert!(outcome.report.verdict.valid, "{}", outcome.report.verdict.reason);
//! ```

mod apply;
mod judge;
mod judgement;
mod limits;
mod overrule;
mod pipeline;
mod repository;
mod run;
#[cfg(test)]
mod tests;

pub use apply::{Applied, ApplyError, apply};
pub use judge::{JudgeError, JudgeOptions, JudgeVerdict, run_judge};
pub use limits::{check_parsed as check_patch_entries, check_text as check_patch_text};
pub use overrule::{OverrideError, OverrideOutcome, apply_override};
pub use pipeline::{validate, validate_owned};
pub use run::{At, JudgeChoice, Ran, Run};

use crate::config::{Config, ConfigError};
use crate::finding::ErrorCode;
use crate::rule::Report;
use crate::scratch::{BaseTree, FileChange, ScratchError};
use crate::step::Step;

/// The required inputs.
///
/// The repository has its own lifetime `'r`: what the validation checked against it (the
/// [`Outcome`]) may outlive the step and policy it was judged with.
#[derive(Clone, Copy)]
pub struct Context<'a, 'r> {
    /// The orchestrator's step (see [`read_step`]).
    pub step: &'a Step,
    /// The executor's result exactly as received: raw bytes, so a non-JSON answer is a `schema`
    /// verdict rather than an error.
    pub result: &'a [u8],
    /// The repository's `.patchgate.toml` (or the default policy).
    pub config: &'a Config,
    /// The repository the patch is meant for; `None` skips the repository checks.
    pub repo: Option<&'r git2::Repository>,
}

impl std::fmt::Debug for Context<'_, '_> {
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
    /// Ask this model when no rule rejects and its `[judge] when` says so (ignored when
    /// `judge` is set).
    pub model_judge: Option<crate::judge::ModelJudge>,
    /// How strictly to parse the patch (strict by default).
    pub parse: crate::patch::ParseOptions,
    /// The repository phase: `--base`, `--check-cmd`, `--check-timeout`.
    pub scratch: crate::scratch::Options,
    /// Read every changed file on its syntax tree for the report's change summary (a reader
    /// will see it: `--format text`, `--report`); otherwise the summary reads only what the
    /// rules ask of it.
    pub is_full_summary: bool,
}

/// Everything one validation produced: the report, the patch text it points into, and the
/// files as the patch leaves them (what [`Outcome::land`] writes).
#[derive(Debug)]
pub struct Outcome<'r> {
    /// The verdict, every violation and every note.
    pub report: Report,
    /// The result's `patch` text, when the result fit the schema: the renderers point
    /// diagnostics at its lines.
    pub patch: Option<String>,
    /// The base and the patched files, or why there are none.
    pub checked: Result<Checked<'r>, Unchecked>,
}

/// The repository check's product: the base the patch was checked against (resolved once) and
/// every touched path's state after the patch.
#[derive(Debug)]
pub struct Checked<'r> {
    /// The base revision's tree.
    pub base: BaseTree<'r>,
    /// Every touched path after the patch; empty when the result carries no patch.
    pub changes: Vec<FileChange>,
}

/// Why an [`Outcome`] holds no checked changes.
#[derive(Debug)]
#[non_exhaustive]
pub enum Unchecked {
    /// Validated without a repository.
    NoRepository,
    /// The base revision does not resolve (only an error when there was a patch to check).
    Base(ScratchError),
    /// The patch could not be checked, or the repository check refused it: the reason, as
    /// `rule: message`.
    Refused(String),
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
    /// The model judge could not be asked, or did not answer `{valid, reason}` alone.
    #[error("judge {0}")]
    ModelJudge(#[from] crate::judge::JudgeError),
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
        // A policy that cannot be read (a link, over 1 MiB) is no input mistake: exit 3.
        self.code().is_input_refused()
    }

    /// A stable code for machine-readable errors (which also says the exit code).
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidStep { .. } => ErrorCode::InvalidStep,
            Self::Config(ConfigError::Read { .. }) => ErrorCode::PolicyUnreadable,
            Self::Config(_) => ErrorCode::InvalidConfig,
            Self::Judge(_) | Self::ModelJudge(_) => ErrorCode::JudgeFailed,
            Self::Repository { .. } => ErrorCode::Repository,
        }
    }
}

impl From<&ScratchError> for ValidateError {
    /// A bad base or `expect` regex is the step's fault; the rest is the repository's.
    fn from(e: &ScratchError) -> Self {
        let message = e.to_string();
        match e {
            ScratchError::BadBase { .. } | ScratchError::BadExpect { .. } => {
                Self::InvalidStep { message }
            }
            _ => Self::Repository { message },
        }
    }
}

impl From<ScratchError> for ValidateError {
    fn from(e: ScratchError) -> Self {
        Self::from(&e)
    }
}

/// Findings collected by the phases after `schema`.
#[derive(Debug, Default)]
struct Findings {
    /// Violations, in the order found (sorted by rule at the end).
    violations: Vec<crate::rule::Violation>,
    /// Notes.
    notes: Vec<crate::rule::Note>,
}

fn invalid_step(message: impl Into<String>) -> ValidateError {
    ValidateError::InvalidStep { message: message.into() }
}

/// Decode the orchestrator's step JSON; unknown fields and wrong types are refused.
pub fn read_step(bytes: &[u8]) -> Result<Step, ValidateError> {
    let decoded = crate::json::decode(bytes);
    if let Some(key) = decoded.duplicate {
        return Err(invalid_step(format!("the step names '{key}' twice; give each field once")));
    }
    let step: Step = decoded
        .value
        .and_then(serde_json::from_value)
        // Only a refused step is read again: the reader's message then names line and column.
        .or_else(|_| serde_json::from_slice(bytes))
        .map_err(|e| invalid_step(format!("{e}; the step must fit `patchgate schema step`")))?;
    if step.description.trim().is_empty() {
        return Err(invalid_step("'description' is empty; say what the step changes"));
    }
    Ok(step)
}
