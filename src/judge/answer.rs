//! Reading the model's answer with the executor replies' JSON-only contract
//! ([`crate::contract::reply`]), less its ban on prose before the block: models explain
//! themselves first however they are told, and the verdict is still one unambiguous object.
//! The answer is one bare JSON object, or one `` ```json `` block that ends it (prose may come
//! before it, nothing after), strict JSON (no comments, no trailing commas), holding exactly
//! `valid` (a boolean) and `reason` (a string; it may be left out on acceptance). Anything else
//! (prose without a block, two JSON blocks) is an unreadable answer, which the caller turns
//! into a failure. The executor's own contract stays strict.

use crate::contract::reply::{self, JsonOnly};
use serde_json::Value;

/// The answer's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Whether the step is carried out.
    pub valid: bool,
    /// Why (trimmed); "rejected without a reason" when a rejection gives none.
    pub reason: String,
}

/// Read `text`, the model's whole answer; `Err` says what is wrong with it.
pub fn read_answer(text: &str) -> Result<Ruling, String> {
    let rules = JsonOnly { allow_preamble: true, allow_bare: true, preamble_hint: "" };
    let text = text.replace("\r\n", "\n");
    let mut violations = Vec::new();
    let block = reply::json_block(text.trim(), rules, &mut violations);
    let value = block.and_then(|block| {
        let read = reply::read_json(&block.content, block.content_line());
        violations.extend(read.findings);
        read.value
    });
    if let Some(first) = violations.first() {
        return Err(first.message.clone());
    }
    let value = value.ok_or("no JSON object")?;
    ruling(&value)
}

fn ruling(value: &Value) -> Result<Ruling, String> {
    let Some(map) = value.as_object() else {
        return Err("the JSON is not an object".into());
    };
    if let Some(key) = map.keys().find(|k| !matches!(k.as_str(), "valid" | "reason")) {
        return Err(format!("the key '{key}' is not allowed; only 'valid' and 'reason' are"));
    }
    let Some(valid) = map.get("valid").and_then(Value::as_bool) else {
        return Err("'valid' must be true or false".into());
    };
    let reason = match map.get("reason") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(_) => return Err("'reason' must be a string".into()),
    };
    let reason =
        if !valid && reason.is_empty() { "rejected without a reason".into() } else { reason };
    Ok(Ruling { valid, reason })
}
