//! `validate --repair` and `apply --repair`: the executor result's `patch` repaired first, then
//! the result judged as usual (`validate::Run`). An acceptance names the repairs
//! ([`Repaired::summary`]); a refused repair leaves the result as sent, so its defects are
//! judged with their usual codes.

use super::reply::{self, Unwrapped};
use super::{Context, Options, Outcome, RepairError, repair};
use crate::finding::{Code, Note, NoteKind, Violation};
use serde_json::Value;

/// An executor result after `repair`.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The result with its `patch` repaired (byte for byte the input when nothing was
    /// repaired or the repair was refused, the JSON alone when it was taken out of a reply).
    pub result: Vec<u8>,
    /// What the repair did to the patch.
    pub outcome: Outcome,
    /// The result JSON as found in a reply of prose and a ```` ```json ```` block, when it was
    /// taken out of one.
    pub unwrapped: Option<Unwrapped>,
}

impl Repaired {
    /// Whether the result was changed.
    #[must_use]
    pub fn is_changed(&self) -> bool {
        self.unwrapped.is_some() || self.is_patch_changed()
    }

    fn is_patch_changed(&self) -> bool {
        self.outcome.is_proven() && !self.outcome.repairs.is_empty()
    }
}

/// Repair an executor result: its JSON taken out of a reply of prose and a fence when it sits
/// in one ([`reply::unwrap`]), and its `patch` repaired. `None` when there is nothing a repair
/// could work on: not a JSON object (nor a reply holding one), or one without a `patch` string
/// or with an empty one (`validate` judges those as they are).
pub fn repair_result(
    result: &[u8],
    ctx: &Context<'_>,
    options: &Options,
) -> Result<Option<Repaired>, RepairError> {
    let unwrapped = reply::unwrap(result);
    let json = unwrapped.as_ref().map_or(result, |u| u.json.as_bytes());
    if crate::json::duplicate_key(json).is_some() {
        return Ok(None); // rewriting would silently drop one of the two values
    }
    let Ok(mut value) = serde_json::from_slice::<Value>(json) else { return Ok(None) };
    let patch = value.get("patch").and_then(Value::as_str).filter(|p| !p.trim().is_empty());
    let Some(patch) = patch else {
        return Ok(unwrapped.map(|u| Repaired {
            result: u.json.clone().into_bytes(),
            outcome: Outcome::default(),
            unwrapped: Some(u),
        }));
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
        None => json.to_vec(),
    };
    Ok(Some(Repaired { result, outcome, unwrapped }))
}

impl Repaired {
    /// What the acceptance says was repaired (`took the result JSON out of its ```json block,
    /// recounted 2 hunks of src/a.rs`), when the result was changed.
    #[must_use]
    pub fn summary(&self) -> Option<String> {
        let parts =
            [self.unwrapped_phrase(), self.is_patch_changed().then(|| self.outcome.summary())];
        let parts: Vec<String> = parts.into_iter().flatten().collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// A note for each repair, or for why there was none (a refusal the judged result's own
    /// `violations` do not already report).
    #[must_use]
    pub fn notes(&self, violations: &[Violation]) -> Vec<Note> {
        let outcome = &self.outcome;
        let mut notes = Vec::new();
        if let (Some(phrase), Some(unwrapped)) = (self.unwrapped_phrase(), &self.unwrapped) {
            notes.push(Note {
                code: NoteKind::RepairedResultJson.into(),
                message: format!("{phrase} (reply line {}); send the JSON alone", unwrapped.line),
                patch_line: None,
            });
        }
        if self.is_patch_changed() {
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

    /// `took the result JSON out of its ```json block`, when it was.
    fn unwrapped_phrase(&self) -> Option<String> {
        let unwrapped = self.unwrapped.as_ref()?;
        let around = if unwrapped.is_fenced { "its ```json block" } else { "the text around it" };
        Some(format!("took the result JSON out of {around}"))
    }
}
