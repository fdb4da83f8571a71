//! The `schema` rule: the result must be one JSON object fitting
//! `schemas/execute-step.schema.json`. Fields are checked one by one on the raw JSON value so
//! the message names the exact field and what it holds instead of serde's first complaint.

use super::{RuleId, Violation};
use crate::finding::CheckCode;
use crate::json::Decoded;
use crate::step::ExecutorResult;
use serde_json::{Map, Value};

/// Field names of the executor result and the JSON type each must have.
const FIELDS: &[(&str, Kind)] = &[
    ("mode", Kind::String),
    ("success", Kind::Bool),
    ("patch", Kind::String),
    ("filesWritten", Kind::StringArray),
    ("filesTouched", Kind::StringArray),
    ("summary", Kind::String),
];

/// Fields the schema requires.
const REQUIRED: &[&str] = &["mode", "success"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    String,
    Bool,
    StringArray,
}

/// Decode the raw result, or say every way it does not fit the schema.
pub fn check(raw: &[u8]) -> Result<ExecutorResult, Vec<Violation>> {
    check_decoded(crate::json::decode(raw)).map_err(|(violations, _)| violations)
}

/// [`check`] over a result already read once by [`crate::json::decode`]; with the violations
/// comes the value the result was read as, when it was one (so that a caller can keep what was
/// sent without having copied it first).
pub fn check_decoded(decoded: Decoded) -> Result<ExecutorResult, (Vec<Violation>, Option<Value>)> {
    if let Some(key) = decoded.duplicate {
        let message = format!("result names '{key}' twice; send each field once");
        return Err((vec![violation(CheckCode::DuplicateKey, message)], decoded.value.ok()));
    }
    let value = decoded.value.map_err(|e| {
        let message = format!(
            "result is not JSON ({e}); answer with one JSON object per execute-step.schema.json"
        );
        (vec![violation(CheckCode::NotJson, message)], None)
    })?;
    let Value::Object(object) = &value else {
        let found = json_type(&value);
        let message = format!("result is a JSON {found}, not an object with 'mode' and 'success'");
        return Err((vec![violation(CheckCode::NotAnObject, message)], Some(value)));
    };
    let names: Vec<&str> = FIELDS.iter().map(|(name, _)| *name).collect();
    if let Some((key, field)) = crate::json::case_variant(object.keys().map(String::as_str), &names)
    {
        let message = format!(
            "result names '{key}', which readers that ignore case (Go's encoding/json, .NET) take \
             for '{field}'; spell every field exactly and send it once"
        );
        return Err((vec![violation(CheckCode::CaseVariantKey, message)], Some(value)));
    }
    let violations = check_object(object);
    if !violations.is_empty() {
        return Err((violations, Some(value)));
    }
    // Every field's type was checked above; a value this still refuses is not given back.
    serde_json::from_value(value).map_err(|e| {
        let message = format!("result does not fit the schema: {e}");
        (vec![violation(CheckCode::InvalidShape, message)], None)
    })
}

/// Field names the schema does not know, in first-seen order, for a note (extra fields are
/// tolerated).
#[must_use]
pub fn unknown_fields(decoded: &Decoded) -> Vec<String> {
    let Ok(Value::Object(object)) = &decoded.value else { return Vec::new() };
    object.keys().filter(|k| !FIELDS.iter().any(|(name, _)| name == k)).cloned().collect()
}

fn check_object(object: &Map<String, Value>) -> Vec<Violation> {
    let mut out: Vec<Violation> = REQUIRED
        .iter()
        .filter(|name| object.get(**name).is_none_or(Value::is_null))
        .map(|name| violation(CheckCode::MissingField, format!("result has no '{name}'")))
        .collect();
    for (name, kind) in FIELDS {
        match object.get(*name) {
            None | Some(Value::Null) => {}
            Some(value) => out.extend(check_field(name, *kind, value)),
        }
    }
    out
}

fn check_field(name: &str, kind: Kind, value: &Value) -> Option<Violation> {
    let wrong = |expected: &str, found: String| {
        Some(violation(CheckCode::WrongType, format!("'{name}' is {found}, expected {expected}")))
    };
    match (kind, value) {
        (Kind::String, Value::String(_))
        | (Kind::Bool, Value::Bool(_))
        | (Kind::StringArray, Value::Array(_)) => check_items(name, value),
        (Kind::String, v) => wrong("a string", describe(v)),
        (Kind::Bool, v) => wrong("true or false", describe(v)),
        (Kind::StringArray, v) => wrong("an array of strings", describe(v)),
    }
}

fn check_items(name: &str, value: &Value) -> Option<Violation> {
    let Value::Array(items) = value else { return None };
    let (index, item) = items.iter().enumerate().find(|(_, item)| !item.is_string())?;
    Some(violation(
        CheckCode::WrongType,
        format!("'{name}[{index}]' is {}, expected a string path", describe(item)),
    ))
}

/// `a number (3)`, `the string "yes"`: the type and a short quote of the value.
fn describe(value: &Value) -> String {
    let mut quoted = value.to_string();
    if quoted.len() > 40 {
        let cut = (0..=40).rev().find(|&i| quoted.is_char_boundary(i)).unwrap_or(0);
        quoted.truncate(cut);
        quoted.push_str("...");
    }
    format!("{} {quoted}", article(json_type(value)))
}

fn article(kind: &str) -> String {
    if kind.starts_with(['a', 'o']) { format!("an {kind}") } else { format!("a {kind}") }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn violation(code: CheckCode, message: String) -> Violation {
    Violation::new(RuleId::Schema, code, message)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unknown_fields_are_listed_once_in_input_order() {
        let names = |raw: &[u8]| super::unknown_fields(&crate::json::decode(raw));
        let raw = br#"{"zeta": {"a": [1, "x"]}, "mode": "apply", "alpha": "\u00e9", "zeta": 2}"#;
        assert_eq!(names(raw), ["zeta", "alpha"]);
        assert!(names(b"[1, 2]").is_empty());
        assert!(names(br#"{"a": "\x"}"#).is_empty());
        assert!(names(br#"{"a": 1} trailing"#).is_empty());
    }
}
