//! `validate --repair` and `apply --repair`: the executor result's `patch` repaired first, then
//! the result judged as usual (`validate::Run`). An acceptance names the repairs
//! ([`Repaired::summary`]); a refused repair leaves the result as sent, so its defects are
//! judged with their usual codes.

use super::{Context, Options, Outcome, RepairError, repair};
use crate::finding::{Code, Note, NoteKind, Violation};
use serde_json::Value;

/// An executor result after `repair`.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The result with its `patch` repaired (byte for byte the input when nothing was
    /// repaired or the repair was refused).
    pub result: Vec<u8>,
    /// What the repair did.
    pub outcome: Outcome,
}

impl Repaired {
    /// Whether the result was changed.
    #[must_use]
    pub fn is_changed(&self) -> bool {
        self.outcome.is_proven() && !self.outcome.repairs.is_empty()
    }
}

/// Repair the `patch` of an executor result. `None` when there is nothing a repair could work
/// on: not a JSON object with one `patch` string, or an empty patch (`validate` judges those as
/// they are).
pub fn repair_result(
    result: &[u8],
    ctx: &Context<'_>,
    options: &Options,
) -> Result<Option<Repaired>, RepairError> {
    if crate::json::duplicate_key(result).is_some() {
        return Ok(None); // rewriting would silently drop one of the two values
    }
    let Ok(mut value) = serde_json::from_slice::<Value>(result) else { return Ok(None) };
    let Some(patch) = value.get("patch").and_then(Value::as_str).filter(|p| !p.trim().is_empty())
    else {
        return Ok(None);
    };
    let outcome = repair(patch.as_bytes(), ctx, options)?;
    let repaired = outcome
        .patch
        .as_ref()
        .filter(|_| !outcome.repairs.is_empty())
        .and_then(|bytes| String::from_utf8(bytes.clone()).ok());
    let result = match repaired {
        Some(text) => {
            value["patch"] = Value::String(text);
            serde_json::to_vec(&value).expect("a JSON value serializes")
        }
        None => result.to_vec(),
    };
    Ok(Some(Repaired { result, outcome }))
}

impl Repaired {
    /// What the acceptance says was repaired (`recounted 2 hunks of src/a.rs`), when the result
    /// was changed.
    #[must_use]
    pub fn summary(&self) -> Option<String> {
        self.is_changed().then(|| self.outcome.summary())
    }

    /// A note for each repair, or for why there was none (a refusal the judged result's own
    /// `violations` do not already report).
    #[must_use]
    pub fn notes(&self, violations: &[Violation]) -> Vec<Note> {
        let outcome = &self.outcome;
        let mut notes = Vec::new();
        if self.is_changed() {
            // Lines of the patch as sent; the report's other lines are the repaired patch's.
            notes.extend(outcome.repairs.iter().map(|r| Note {
                code: r.kind.note().into(),
                message: format!("line {} of the patch as sent: {}", r.line, r.message),
                patch_line: None,
            }));
        }
        let is_new = |code: &Code| !violations.iter().any(|v| v.code == *code);
        notes.extend(outcome.refusals.iter().filter(|r| is_new(&r.code)).map(|r| Note {
            code: NoteKind::RepairRefused.into(),
            message: format!("not repaired ({}): {}", r.code, r.message),
            patch_line: r.line,
        }));
        notes
    }
}
