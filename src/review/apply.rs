//! `review apply`: a stored rejection validated again against the current HEAD, and written
//! only when a person named the rule of every violation that remains. An override decides
//! whether a rule may be ignored; it cannot make a patch apply that does not (the write takes
//! the files the re-validation checked against HEAD, and is refused when that check failed).

use super::{Entry, Override, OverrideDecision, ReviewError, Store, decide_override};
use crate::config::{Config, ConfigError};
use crate::rule::RuleId;
use crate::scratch::LandError;
use crate::step::Step;
use crate::validate::{self, Context, Options, ValidateError};

/// Why `review apply` could not run. Nothing was written in any case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OverrideError {
    /// The repository has no worktree to write to.
    #[error(transparent)]
    Repo(#[from] crate::repo::RepoError),
    /// The repository's `.patchgate.toml` is unusable.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The stored step no longer reads as a step (the step format changed).
    #[error("the stored step is no longer usable: {0}")]
    Step(ValidateError),
    /// The re-validation could not be evaluated.
    #[error(transparent)]
    Validate(#[from] ValidateError),
    /// The result could not be written.
    #[error(transparent)]
    Land(#[from] LandError),
}

/// What `review apply` did.
#[derive(Debug)]
pub struct OverrideOutcome {
    /// The violations re-validation left, and whether the overrides cover them.
    pub decision: OverrideDecision,
    /// The files written; `None` when the overrides did not cover every violation.
    pub written: Option<Vec<String>>,
    /// The files are written but the override could not be kept in the entry.
    pub unrecorded: Option<ReviewError>,
}

/// Validate `entry`'s result again on HEAD under `HEAD`'s policy; when
/// `overrides` name the rule of every remaining violation, write it (and stage it with
/// `with_index`) and keep who decided it in the entry.
pub fn apply_override(
    repository: &git2::Repository,
    store: &Store,
    mut entry: Entry,
    overrides: Vec<RuleId>,
    with_index: bool,
) -> Result<OverrideOutcome, OverrideError> {
    let root = crate::repo::workdir(repository)?;
    let step = current_step(&entry)?;
    // The policy of the base the result is judged on, never the worktree's.
    let config = Config::at_base(repository, "HEAD")?;
    let ctx = Context {
        step: &step,
        result: entry.result.as_bytes(),
        config: &config,
        repo: Some(repository),
    };
    let outcome = validate::validate(&ctx, &Options::default())?;
    let decision = decide_override(&outcome.report, &overrides);
    if !decision.is_allowed() {
        return Ok(OverrideOutcome { decision, written: None, unrecorded: None });
    }
    let written: Vec<String> =
        outcome.land(root, with_index)?.iter().map(|c| c.path.clone()).collect();
    let overridden = decision.remaining.iter().map(|(v, _)| v.reason()).collect();
    entry.overrides.push(Override::now(repository, overrides, overridden, with_index));
    let unrecorded = store.write(&entry).err();
    Ok(OverrideOutcome { decision, written: Some(written), unrecorded })
}

/// The stored step, re-read as `validate` reads steps, without its `base`: HEAD it is.
fn current_step(entry: &Entry) -> Result<Step, OverrideError> {
    let bytes = serde_json::to_vec(&entry.step).expect("JSON values serialize");
    let mut step = validate::read_step(&bytes).map_err(OverrideError::Step)?;
    step.base = None;
    Ok(step)
}
