//! One validate run as a value. A [`Run`] says how a result is judged: the flags of `validate`
//! and `apply`, the options of the Python and TypeScript APIs. [`Run::execute`] is the one
//! place that carries a run out: it repairs (with `repair`), validates, judges, words the
//! verdict once and records a rejection. Each recorded rejection keeps its run, so `review
//! apply` judges the result again under the same options ([`super::apply_override`]).

use super::apply::write_if_valid;
use super::judgement::Judgement;
use super::{ApplyError, Context, JudgeOptions, Options, Outcome, ValidateError, pipeline};
use crate::config::Config;
use crate::json::Kept;
use crate::judge::{Cache, JudgeSettings, Model, ModelJudge, When};
use crate::repair::{self, Repaired};
use crate::review::{Judged, Recording, record_rejection};
use crate::scratch::BaseTree;
use crate::step::Step;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::time::Duration;

/// How one result is judged, besides the step, the result and the repository's policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Run {
    /// Leading path components stripped from the patch's names, as `git apply -pN` (1 drops
    /// git's `a/`/`b/`; 0 reads bare paths as written).
    pub strip: usize,
    /// The revision the patch applies to (default: the step's `base`, else `HEAD`).
    pub base: Option<String>,
    /// Run `sh -c` with this in a temporary copy of the patched tree; non-zero exit rejects.
    pub check_cmd: Option<String>,
    /// Seconds before `check_cmd` is killed (default: `[scratch] check_timeout_secs`).
    pub check_timeout: Option<u64>,
    /// Repair the patch first where the fix is provable, then judge the repaired result.
    pub repair: bool,
    /// Who is asked what no rule can decide.
    pub judge: JudgeChoice,
    /// Keep a rejected result for `patchgate review`.
    pub record: bool,
    /// Read every changed file on its syntax tree for the report's change summary (a reader
    /// will see it: `--format text`, `--report`); otherwise the summary reads only what the
    /// rules ask of it.
    pub is_full_summary: bool,
}

impl Default for Run {
    fn default() -> Self {
        Self {
            strip: 1,
            base: None,
            check_cmd: None,
            check_timeout: None,
            repair: false,
            judge: JudgeChoice::None,
            record: false,
            is_full_summary: false,
        }
    }
}

/// Who is asked when no rule rejects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum JudgeChoice {
    /// Nobody.
    #[default]
    None,
    /// A command (`--judge CMD`), reading `{step, result}` and printing `{valid, reason}`.
    Command {
        /// Run with `sh -c`.
        command: String,
        /// Seconds it may take (default 60).
        timeout: Option<u64>,
    },
    /// The built-in model judge of the policy's `[judge]` table, with these overrides
    /// (`--judge-model`, `--judge-when`, `--judge-timeout`); no model anywhere: nobody.
    Model {
        /// `PROVIDER:MODEL`, over `[judge] model`.
        model: Option<String>,
        /// Over `[judge] when`.
        when: Option<When>,
        /// Seconds per attempt, over `[judge] timeout`.
        timeout: Option<u64>,
    },
}

/// Where a run judges a result: the repository (`None`: the patch alone, nothing recorded),
/// its policy, and the base tree when the caller resolved it (the tree of
/// [`crate::scratch::base_rev`] for the step and this run's `base`).
pub struct At<'c, 'r> {
    /// The repository.
    pub repo: Option<&'r git2::Repository>,
    /// Its `.patchgate.toml` (the default policy without a worktree).
    pub config: &'c Config,
    /// The base tree, already resolved; `None` resolves it for this result.
    pub base: Option<BaseTree<'r>>,
}

impl std::fmt::Debug for At<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("At")
            .field("repo", &self.repo.map(git2::Repository::path))
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// What a run did.
#[derive(Debug)]
pub struct Ran<'r> {
    /// The verdict, the report, the patch text and what was checked against the base.
    pub outcome: Outcome<'r>,
    /// Whether the patch was written ([`Run::apply`] of an accepted result).
    pub is_written: bool,
    /// What became of a rejection's record.
    pub recording: Recording,
    /// What the repair did, with `repair`.
    pub repaired: Option<repair::Outcome>,
    /// The result as judged (repaired, or as sent), held once.
    kept: Kept,
}

impl Ran<'_> {
    /// The result as judged: repaired, or as sent (`--repaired-out`).
    #[must_use]
    pub fn judged_result(&self) -> Cow<'_, [u8]> {
        self.kept.text(self.outcome.patch.as_deref())
    }
}

impl Run {
    /// Repair, validate, judge and record: `result` (the executor's answer, as received)
    /// against `step`, in `repo` (`None`: the patch alone, nothing recorded).
    pub fn execute<'r>(
        &self,
        step: &Step,
        result: Vec<u8>,
        repo: Option<&'r git2::Repository>,
    ) -> Result<Ran<'r>, ValidateError> {
        let config = self.policy(step, repo)?;
        self.execute_at(step, result, At { repo, config: &config, base: None })
    }

    /// [`Run::execute`] with the repository's policy already read, and its base tree already
    /// resolved when `at.base` holds it: `validate --batch` keeps both per repository and
    /// revision for the results it judges there.
    pub fn execute_at<'r>(
        &self,
        step: &Step,
        result: Vec<u8>,
        at: At<'_, 'r>,
    ) -> Result<Ran<'r>, ValidateError> {
        let At { repo, config, base } = at;
        let mut judged = self.judge(step, result, repo, config, true, base)?;
        let outcome = judged.judgement.into_outcome();
        let recording = if self.record {
            let result = judged.kept.text(outcome.patch.as_deref());
            let base = outcome.base_commit();
            let run = serde_json::to_value(self).expect("a run serializes");
            let rejected = Judged { repo, config, step, result: &result, base, run };
            record_rejection(&rejected, &outcome.report)
        } else {
            Recording::Off
        };
        let repaired = judged.repaired.take().map(|r| r.outcome);
        Ok(Ran { outcome, is_written: false, recording, repaired, kept: judged.kept })
    }

    /// [`Run::execute`], and only if the result is accepted, its checked files written into
    /// `repo`'s worktree (and the index with `with_index`), all or nothing.
    pub fn apply<'r>(
        &self,
        step: &Step,
        result: Vec<u8>,
        repo: &'r git2::Repository,
        with_index: bool,
    ) -> Result<Ran<'r>, ApplyError> {
        let root = crate::repo::workdir(repo)
            .map_err(|e| ValidateError::Repository { message: e.message })?;
        let config = self.policy(step, Some(repo))?;
        let mut judged = self.judge(step, result, Some(repo), &config, false, None)?;
        let is_written = write_if_valid(&mut judged.judgement, root, with_index)?;
        let repaired = judged.repaired.take().map(|r| r.outcome);
        let outcome = judged.judgement.into_outcome();
        let recording = Recording::Off;
        Ok(Ran { outcome, is_written, recording, repaired, kept: judged.kept })
    }

    /// The repair and the pipeline, the verdict not yet worded. `is_verdict_only`: nothing is
    /// written afterwards, so the patched files need not be kept. `base`: the base tree, when
    /// the caller resolved it.
    pub(super) fn judge<'r>(
        &self,
        step: &Step,
        result: Vec<u8>,
        repo: Option<&'r git2::Repository>,
        config: &Config,
        is_verdict_only: bool,
        base: Option<BaseTree<'r>>,
    ) -> Result<Pending<'r>, ValidateError> {
        let mut options = self.options(config, repo)?;
        options.scratch.is_verdict_only = is_verdict_only;
        let ctx = Context { step, result: &[], config, repo };
        let repaired = if self.repair { self.repaired(step, &result, repo)? } else { None };
        let result = match &repaired {
            Some(repaired) => repaired.result.clone(),
            None => result,
        };
        // Handed over whole: a patch of megabytes is decoded where it lies (one copy, not three).
        let (mut judgement, kept) = pipeline::judge_owned(&ctx, result, &options, base)?;
        if let Some(repaired) = &repaired {
            let notes = repaired.notes(&judgement.violations);
            judgement.notes.extend(notes);
            judgement.acceptance.repairs = repaired.summary();
        }
        Ok(Pending { judgement, kept, repaired })
    }

    /// The result with its patch repaired against the run's repository and base; `None` when
    /// there is nothing to repair (no patch).
    fn repaired(
        &self,
        step: &Step,
        result: &[u8],
        repo: Option<&git2::Repository>,
    ) -> Result<Option<Repaired>, ValidateError> {
        let scratch = self.scratch();
        let base = crate::scratch::base_rev(step, &scratch);
        let ctx = repair::Context { repo, base };
        let options = repair::Options { parse: self.parse() };
        repair::repair_result(result, &ctx, &options).map_err(|e| ValidateError::from(e.0))
    }

    /// The pipeline's options: how to parse, the repository phase, the judge.
    pub(super) fn options(
        &self,
        config: &Config,
        repo: Option<&git2::Repository>,
    ) -> Result<Options, ValidateError> {
        let (judge, model_judge) = match &self.judge {
            JudgeChoice::None => (None, None),
            JudgeChoice::Command { command, timeout } => {
                let timeout = timeout.map_or(JudgeOptions::DEFAULT_TIMEOUT, Duration::from_secs);
                (Some(JudgeOptions { command: command.clone(), timeout }), None)
            }
            JudgeChoice::Model { model, when, timeout } => {
                (None, model_judge(config, repo, model.as_deref(), *when, *timeout)?)
            }
        };
        let (parse, scratch) = (self.parse(), self.scratch());
        Ok(Options { judge, model_judge, parse, scratch, is_full_summary: self.is_full_summary })
    }

    fn parse(&self) -> crate::patch::ParseOptions {
        crate::patch::ParseOptions { strip: self.strip, ..Default::default() }
    }

    /// The policy in force for `step`: `.patchgate.toml` in the base tree (the run's `base`,
    /// else the step's, else `HEAD`), never the worktree's, which the agent can write; without
    /// a repository, the default policy.
    pub fn policy(
        &self,
        step: &Step,
        repo: Option<&git2::Repository>,
    ) -> Result<Config, ValidateError> {
        let Some(repo) = repo else { return Ok(Config::default()) };
        let scratch = self.scratch();
        Ok(Config::at_base(repo, crate::scratch::base_rev(step, &scratch))?)
    }

    fn scratch(&self) -> crate::scratch::Options {
        crate::scratch::Options {
            base: self.base.clone(),
            check_cmd: self.check_cmd.clone(),
            check_timeout: self.check_timeout.map(Duration::from_secs),
            is_verdict_only: false,
        }
    }
}

/// A run's judgement before its verdict is worded, with what the repair did.
pub(super) struct Pending<'r> {
    pub judgement: Judgement<'r>,
    pub kept: Kept,
    pub repaired: Option<Repaired>,
}

/// The model judge a run names, or the policy's `[judge] model`, with its answers cached under
/// the repository's git directory; `None` when neither names a model.
fn model_judge(
    config: &Config,
    repo: Option<&git2::Repository>,
    model: Option<&str>,
    when: Option<When>,
    timeout: Option<u64>,
) -> Result<Option<ModelJudge>, ValidateError> {
    let mut settings: JudgeSettings = config.section("judge")?;
    let (name, setting) = match (model, &settings.model) {
        (Some(name), _) => (name.to_owned(), "--judge-model"),
        (None, Some(name)) => (name.clone(), "[judge] model"),
        (None, None) => return Ok(None),
    };
    let model: Model =
        name.parse().map_err(|e: String| config.invalid(&format!("{setting}: {e}")))?;
    if let Some(seconds) = timeout {
        settings.timeout = seconds;
    }
    if let Some(when) = when {
        settings.when = when;
    }
    let judge = ModelJudge::from_env(model, settings)?;
    Ok(Some(match repo {
        Some(repo) => judge.with_cache(Cache::in_git_dir(repo.commondir())),
        None => judge,
    }))
}
