//! Recording a rejection from `validate`: one call that never fails the validation.

use super::{Entry, NewEntry, ReviewPolicy, SHORT_ID, Store};
use crate::config::Config;
use crate::finding::NoteKind;
use crate::rule::{Note, Report};
use crate::step::Step;
use serde_json::Value;
use std::time::SystemTime;

/// What became of a rejection's record. Recording is a side job of `validate`: whatever goes
/// wrong here is reported, never turned into a validation error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recording {
    /// The run does not keep rejections (`--no-record`, `apply`).
    Off,
    /// The verdict was an acceptance: nothing to keep.
    NotRejected,
    /// Kept under this short id; `pruned` older entries were removed to stay in bounds.
    Recorded {
        /// The short id to give `patchgate review show`.
        id: String,
        /// How many entries the policy removed.
        pruned: usize,
    },
    /// Not recorded, on purpose (no repository): the reason.
    Skipped(String),
    /// Not recorded because something failed: the message.
    Failed(String),
}

impl Recording {
    /// The note for the report or stderr; `None` when nothing was to be recorded.
    #[must_use]
    pub fn note(&self) -> Option<Note> {
        let (code, message) = match self {
            Self::Off | Self::NotRejected => return None,
            Self::Recorded { id, .. } => (
                NoteKind::RejectionRecorded,
                format!("rejected result recorded as {id}; see `patchgate review show {id}`"),
            ),
            Self::Skipped(reason) => (NoteKind::RejectionNotRecorded, reason.clone()),
            Self::Failed(message) => (
                NoteKind::RejectionNotRecorded,
                format!("could not record the rejection: {message}"),
            ),
        };
        Some(Note { code: code.into(), message, patch_line: None })
    }
}

/// What was judged: the inputs of `validate` a rejection is kept with.
#[derive(Clone)]
pub struct Judged<'a> {
    /// The repository (`None`: nothing is recorded).
    pub repo: Option<&'a git2::Repository>,
    /// Its policy (`[review]` bounds the store).
    pub config: &'a Config,
    /// The step.
    pub step: &'a Step,
    /// The executor result, as received.
    pub result: &'a [u8],
    /// The commit the result was validated against, as validation resolved it
    /// (`validate::Outcome::base_commit`); `None` resolves the step's `base` (or
    /// `HEAD`), for a result validation stopped before it read the base.
    pub base: Option<git2::Oid>,
    /// How it was judged (a `validate::Run`), for `review apply` to judge it the same way.
    pub run: Value,
}

impl std::fmt::Debug for Judged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Judged")
            .field("repo", &self.repo.map(git2::Repository::path))
            .field("step", &self.step.description)
            .finish_non_exhaustive()
    }
}

/// Keep a rejected result (its inputs and report) in the store of its repository, then prune
/// the store by the `[review]` policy.
#[must_use]
pub fn record_rejection(ctx: &Judged<'_>, report: &Report) -> Recording {
    if report.verdict.valid {
        return Recording::NotRejected;
    }
    let Some(repository) = ctx.repo else {
        return Recording::Skipped(
            "not recorded for `patchgate review`: no git repository here".to_owned(),
        );
    };
    let policy = match ctx.config.section::<ReviewPolicy>("review") {
        Ok(policy) => policy,
        Err(e) => return Recording::Failed(e.to_string()),
    };
    let step = serde_json::to_value(ctx.step).expect("steps serialize: string keys only");
    let new = NewEntry {
        base: ctx.base.map(|id| id.to_string()).or_else(|| resolve_base(repository, &step)),
        step,
        result: String::from_utf8_lossy(ctx.result).into_owned(),
        report: report.clone(),
        run: Some(ctx.run.clone()),
    };
    let now = SystemTime::now();
    let entry = Entry::new(new, now);
    let size = super::store::encoded(&entry).len() as u64;
    if size > policy.max_bytes {
        return Recording::Failed(format!(
            "the rejected result is {size} bytes, more than the whole store may hold \
             ([review] max_bytes = {} in .patchgate.toml)",
            policy.max_bytes
        ));
    }
    let store = Store::for_repo(repository);
    let outcome = store.write(&entry).and_then(|_| store.prune(&policy, now));
    match outcome {
        Ok(pruned) => Recording::Recorded { id: entry.id[..SHORT_ID].to_owned(), pruned },
        Err(e) => Recording::Failed(e.to_string()),
    }
}

/// The commit the step's `base` (default `HEAD`) names, when it resolves.
pub(crate) fn resolve_base(repository: &git2::Repository, step: &Value) -> Option<String> {
    let spec = step.get("base").and_then(Value::as_str).unwrap_or("HEAD");
    let object = repository.revparse_single(spec).ok()?;
    object.peel_to_commit().ok().map(|c| c.id().to_string())
}
