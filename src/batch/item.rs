//! One input line of `validate --batch`: `{"id", "step", "result", "repo"?, "base"?}`.

use super::{LineCode, LineError};
use crate::step::{ExecutorResult, Step};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::PathBuf;

/// One result to judge, as a line of the batch input gives it.
#[derive(Debug)]
pub struct Item {
    /// The caller's id, echoed in the answer.
    pub id: ItemId,
    /// The orchestrator's step, read as `validate --step` reads one.
    pub step: Step,
    /// The executor's result exactly as the line holds it: an object's own bytes (a key named
    /// twice stays named twice, for the `schema` rule to see), or the text of a string.
    pub result: Vec<u8>,
    /// The repository to judge against (default: the run's).
    pub repo: Option<PathBuf>,
    /// The base revision (default: the run's `--base`, else the step's `base`, else `HEAD`).
    pub base: Option<String>,
}

/// The line as written: `step` and `result` kept as the bytes they are.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    step: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    repo: Option<PathBuf>,
    base: Option<String>,
}

/// One input line of `validate --batch`.
// The schema (`schemas/batch-item.schema.json`, the packages' types); `read_item` reads a line.
#[derive(Debug, schemars::JsonSchema)]
#[schemars(title = "BatchItem", deny_unknown_fields)]
#[allow(dead_code, reason = "a schema, never built")]
pub struct ItemSchema {
    /// Echoed in the answer line, so answers can be matched to results (they also come in
    /// input order).
    id: ItemId,
    /// The orchestrator's step (`schemas/step.schema.json`), or its JSON text.
    step: StepInput,
    /// The executor's result (`schemas/execute-step.schema.json`), or its raw text, judged as
    /// received (text that is not JSON is a `schema` rejection, not an error).
    result: ResultInput,
    /// The repository to judge against (default: `--repo`, else the one around the current
    /// directory).
    repo: Option<String>,
    /// The revision the patch applies to (default: `--base`, else the step's `base`, else
    /// `HEAD`).
    base: Option<String>,
}

/// An item's id, as the line gives it: a string or an integer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ItemId {
    /// A string id.
    Text(String),
    /// An integer id.
    Number(i64),
}

/// A step, or its JSON text (a schema: read by [`read_item`]).
#[derive(Debug, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code, reason = "a schema, never built")]
pub enum StepInput {
    Step(Box<Step>),
    Text(String),
}

/// A result, or its raw text (a schema: read by [`read_item`]).
#[derive(Debug, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code, reason = "a schema, never built")]
pub enum ResultInput {
    Result(Box<ExecutorResult>),
    Text(String),
}

/// Read one input line. A line that is not an item is a [`LineError`] carrying the id when
/// one could be read, so its answer can still be matched.
pub fn read_item(line: &[u8]) -> Result<Item, LineError> {
    let raw: Raw<'_> = serde_json::from_slice(line).map_err(|e| {
        let code = if e.is_syntax() || e.is_eof() { LineCode::NotJson } else { LineCode::BadItem };
        LineError::new(
            code,
            format!(
                "{e}; each line must be one JSON object {{\"id\", \"step\", \"result\", \
                 \"repo\"?, \"base\"?}} (schemas/batch-item.schema.json)"
            ),
        )
    })?;
    let id = read_id(raw.id)?;
    let with_id = |e: LineError| e.with_id(id.clone());
    let step = raw.step.ok_or_else(|| missing("step")).and_then(read_step).map_err(with_id)?;
    let result = raw.result.ok_or_else(|| missing("result")).map_err(with_id)?;
    let result = string_or_raw(result).into_owned().into_bytes();
    Ok(Item { id, step, result, repo: raw.repo, base: raw.base })
}

fn missing(field: &str) -> LineError {
    LineError::new(LineCode::BadItem, format!("the line has no '{field}'; give every item one"))
}

fn read_id(raw: Option<&RawValue>) -> Result<ItemId, LineError> {
    let raw = raw.ok_or_else(|| missing("id"))?;
    serde_json::from_str(raw.get()).map_err(|_| {
        let shown: String = raw.get().chars().take(40).collect();
        LineError::new(LineCode::BadItem, format!("'id' is {shown}; give a string or an integer"))
    })
}

/// A step object, or a string holding one, read as `validate --step` reads a step file.
fn read_step(raw: &RawValue) -> Result<Step, LineError> {
    let text = string_or_raw(raw);
    crate::validate::read_step(text.as_bytes()).map_err(|e| LineError::new(e.code(), e.to_string()))
}

/// A string's text (a step's JSON text, an executor's raw answer), or an object's own bytes.
fn string_or_raw(raw: &RawValue) -> std::borrow::Cow<'_, str> {
    let text = raw.get();
    if text.starts_with('"') {
        let decoded: String = serde_json::from_str(text).expect("a raw string is a JSON string");
        return decoded.into();
    }
    text.into()
}
