//! Codex's `config.toml`: `[features] hooks = true` (hooks are off by default), and the trust
//! of the guard's handlers, as Codex's `/hooks` stores it when a user trusts them (Codex skips
//! untrusted hooks without a word, project and user hooks alike).
//!
//! Trust is one table per handler, `[hooks.state."<hooks file>:<event>:<group>:<handler>"]`
//! with `trusted_hash = "sha256:<hex>"`: the event in snake case, the positions of the group
//! in the event's list and of the handler in the group, and the SHA-256 of the handler's
//! identity as compact JSON with sorted keys: the event, the group's matcher, and the handler
//! with its timeout (default 600 s) and `async` (default false). Edited with `toml_edit`, so
//! the rest of the file keeps its bytes.

use serde_json::Value;
use sha2::{Digest as _, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use toml_edit::{DocumentMut, Item, Table, value};

/// `before` (or a new file) with the hooks feature on and the guard's handlers of `hooks_json`
/// (the content of `hooks_file`) trusted.
pub(super) fn merge(
    before: Option<&str>,
    hooks_file: &Path,
    hooks_json: &str,
) -> Result<String, String> {
    let mut doc = parse(before.unwrap_or(""))?;
    let features = table(doc.as_table_mut(), "features")?;
    if features.get("hooks").and_then(Item::as_bool) != Some(true) {
        features.insert("hooks", value(true));
    }
    let entries = trust(hooks_file, hooks_json);
    if !entries.is_empty() {
        let state = table(table(doc.as_table_mut(), "hooks")?, "state")?;
        for (key, hash) in entries {
            let mut entry = Table::new();
            entry.insert("trusted_hash", value(hash));
            state.insert(&key, Item::Table(entry));
        }
    }
    Ok(doc.to_string())
}

/// `text` without the trust of the guard's handlers of `hooks_json` (`None`: it had none). The
/// hooks feature stays on: other hooks may need it.
pub(super) fn strip(
    text: &str,
    hooks_file: &Path,
    hooks_json: &str,
) -> Result<Option<String>, String> {
    let mut doc = parse(text)?;
    let Some(state) = doc
        .get_mut("hooks")
        .and_then(Item::as_table_mut)
        .and_then(|hooks| hooks.get_mut("state"))
        .and_then(Item::as_table_mut)
    else {
        return Ok(None);
    };
    let mut removed = false;
    for (key, _) in trust(hooks_file, hooks_json) {
        removed |= state.remove(&key).is_some();
    }
    if !removed {
        return Ok(None);
    }
    let is_state_empty = state.is_empty();
    if is_state_empty {
        let hooks = doc["hooks"].as_table_mut().expect("checked above");
        hooks.remove("state");
        if hooks.is_empty() {
            doc.remove("hooks");
        }
    }
    Ok(Some(doc.to_string()))
}

/// Whether `text` trusts any handler of `hooks_file` (install's record must not: restoring it
/// could trust hooks nobody installed).
pub(super) fn trusts_file(text: &str, hooks_file: &Path) -> bool {
    let prefix = format!("{}:", hooks_file.display());
    parse(text).is_ok_and(|doc| {
        doc.get("hooks")
            .and_then(Item::as_table)
            .and_then(|hooks| hooks.get("state"))
            .and_then(Item::as_table)
            .is_some_and(|state| state.iter().any(|(key, _)| key.starts_with(&prefix)))
    })
}

fn parse(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|e| format!("is not valid TOML ({}); fix it, then run again", e.message()))
}

/// The table `key` of `parent`, made (implicit, so only its sub-tables get headers) when
/// missing.
fn table<'t>(parent: &'t mut Table, key: &str) -> Result<&'t mut Table, String> {
    let item = parent.entry(key).or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    item.as_table_mut().ok_or_else(|| {
        format!("has a \"{key}\" that is not a table; make it one ([{key}]), then run again")
    })
}

/// `(key, "sha256:<hex>")` of each handler of patchgate's guard in the hooks file.
fn trust(hooks_file: &Path, hooks_json: &str) -> Vec<(String, String)> {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(hooks_json) else {
        return Vec::new();
    };
    let Some(Value::Object(events)) = root.get("hooks") else { return Vec::new() };
    let mut entries = Vec::new();
    for (event, groups) in events {
        let label = snake_case(event);
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            let handlers = group.get("hooks").and_then(Value::as_array);
            for (h, handler) in handlers.into_iter().flatten().enumerate() {
                let command = handler.get("command").and_then(Value::as_str).unwrap_or("");
                if !super::hooks::is_guard_command(command) {
                    continue;
                }
                let key = format!("{}:{label}:{g}:{h}", hooks_file.display());
                entries.push((key, fingerprint(&label, group.get("matcher"), handler)));
            }
        }
    }
    entries
}

/// The hash Codex compares, of the handler's identity (keys sorted at every level).
fn fingerprint(label: &str, matcher: Option<&Value>, handler: &Value) -> String {
    let field = |key: &str| handler.get(key).cloned();
    let timeout = field("timeout").and_then(|t| t.as_u64()).unwrap_or(600).max(1);
    let mut normalized: BTreeMap<&str, Value> = BTreeMap::new();
    normalized.insert("async", field("async").unwrap_or(Value::Bool(false)));
    normalized.insert("command", field("command").unwrap_or(Value::Null));
    normalized.insert("timeout", Value::from(timeout));
    normalized.insert("type", Value::from("command"));
    if let Some(message) = field("statusMessage") {
        normalized.insert("statusMessage", message);
    }
    let mut identity: BTreeMap<&str, serde_json::Value> = BTreeMap::new();
    identity.insert("event_name", Value::from(label));
    identity.insert("hooks", Value::Array(vec![sorted(&normalized)]));
    if let Some(matcher) = matcher.filter(|m| !m.is_null()) {
        identity.insert("matcher", matcher.clone());
    }
    let text = serde_json::to_string(&identity).expect("a JSON map serializes");
    format!("sha256:{}", super::record::hex(&Sha256::digest(text.as_bytes())))
}

/// A JSON object with its keys in sorted order (`serde_json` keeps insertion order here).
fn sorted(map: &BTreeMap<&str, Value>) -> Value {
    Value::Object(map.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
}

/// `PreToolUse` -> `pre_tool_use`.
fn snake_case(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
