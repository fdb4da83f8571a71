//! `validate --repair` and `apply --repair`: the executor result's `patch` repaired first, then
//! the result judged as usual. An acceptance names the repairs (`accepted after repair:
//! recounted 2 hunks of src/a.rs; 1 file, +3 -1`); a refused repair leaves the result as sent,
//! so its defects are judged with their usual codes.

use super::{Context, Options, Outcome, RepairError, repair};
use crate::finding::{Note, Report};
use crate::scratch::ScratchError;
use crate::validate::{self, ValidateError};
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

/// A validation of a repaired result.
#[derive(Clone, Debug)]
pub struct Validated {
    /// The verdict on the result as judged.
    pub report: Report,
    /// The result as judged: repaired, or as sent.
    pub result: Vec<u8>,
    /// What the repair did, when the result had a patch to repair.
    pub repair: Option<Outcome>,
}

/// Repair the result's patch against the validation's repository and base, then validate the
/// repaired result.
pub fn validate(
    ctx: &validate::Context<'_>,
    options: &validate::Options,
) -> Result<Validated, ValidateError> {
    let base = crate::scratch::base_rev(ctx.step, &options.scratch);
    let repair_ctx = Context { repo: ctx.repo, base };
    let repair_options = Options { parse: options.parse.clone() };
    let repaired =
        repair_result(ctx.result, &repair_ctx, &repair_options).map_err(|e| match e.0 {
            e @ ScratchError::BadBase { .. } => {
                ValidateError::InvalidStep { message: e.to_string() }
            }
            e => ValidateError::Repository { message: e.to_string() },
        })?;
    let Some(repaired) = repaired else {
        let report = validate::validate(ctx, options)?;
        return Ok(Validated { report, result: ctx.result.to_vec(), repair: None });
    };
    let judged = validate::Context { result: &repaired.result, ..*ctx };
    let mut report = validate::validate(&judged, options)?;
    explain(&mut report, &repaired);
    Ok(Validated { report, result: repaired.result, repair: Some(repaired.outcome) })
}

/// Name the repairs in an acceptance, and note each repair (or the refusal) in the report.
fn explain(report: &mut Report, repaired: &Repaired) {
    let outcome = &repaired.outcome;
    if repaired.is_changed() && report.verdict.valid {
        let rest =
            report.verdict.reason.strip_prefix("accepted: ").unwrap_or(&report.verdict.reason);
        report.verdict.reason = format!("accepted after repair: {}; {rest}", outcome.summary());
    }
    if repaired.is_changed() {
        // Lines of the patch as sent; the report's other lines are the repaired patch's.
        report.notes.extend(outcome.repairs.iter().map(|r| Note {
            code: format!("repaired_{}", r.kind.as_str()),
            message: format!("line {} of the patch as sent: {}", r.line, r.message),
            patch_line: None,
        }));
    }
    let is_new = |code: &str| !report.violations.iter().any(|v| v.code == code);
    let refused: Vec<Note> = outcome
        .refusals
        .iter()
        .filter(|r| is_new(&r.code))
        .map(|r| Note {
            code: "repair_refused".to_owned(),
            message: format!("not repaired ({}): {}", r.code, r.message),
            patch_line: r.line,
        })
        .collect();
    report.notes.extend(refused);
}
