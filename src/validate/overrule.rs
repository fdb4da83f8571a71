//! `review apply`: a stored rejection judged again against the current HEAD, under the run it
//! was rejected in (its strip, repair, judge and `--check-cmd`), and written only when a person
//! named the rule of every violation that remains. An override decides whether a rule may be
//! ignored; it cannot make a patch apply that does not (the write takes the files the new
//! judgement checked against HEAD, and is refused when that check failed).

use super::run::Run;
use super::{ValidateError, read_step};
use crate::config::ConfigError;
use crate::review::{Entry, Override, OverrideDecision, ReviewError, Store, decide_override};
use crate::rule::RuleId;
use crate::scratch::LandError;
use crate::step::Step;
use serde::Deserialize;

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
    /// The stored run no longer reads as a run (written by another patchgate version).
    #[error(
        "the stored run is no longer usable: {0}; drop the entry and validate the result again"
    )]
    Run(serde_json::Error),
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

/// Judge `entry`'s result again on HEAD, under its run and `HEAD`'s policy;
/// when `overrides` name the rule of every remaining violation, write it (and stage it with
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
    let run = stored_run(&entry)?;
    let config = run.policy(&step, Some(repository)).map_err(|e| match e {
        ValidateError::Config(e) => OverrideError::Config(e),
        other => OverrideError::Validate(other),
    })?;
    let result = entry.result.as_bytes().to_vec();
    let pending = run.judge(&step, result, Some(repository), &config, false, None)?;
    let outcome = pending.judgement.into_outcome();
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
    let mut step = read_step(&bytes).map_err(OverrideError::Step)?;
    step.base = None;
    Ok(step)
}

/// The run the entry was judged in, against HEAD (its `--base` dropped as the step's is), and
/// not recorded again; an entry older than stored runs was judged by the default run.
fn stored_run(entry: &Entry) -> Result<Run, OverrideError> {
    let mut run = match &entry.run {
        Some(value) => Run::deserialize(value).map_err(OverrideError::Run)?,
        None => Run::default(),
    };
    run.base = None;
    run.record = false;
    Ok(run)
}
