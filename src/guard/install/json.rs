//! Hook groups merged into an agent's JSON settings, and taken out again: other keys, events,
//! groups and handlers are kept in their order; the file's indentation is kept.

use super::hooks::{Template, is_guard_command};
use serde_json::{Map, Value, json};

/// The text of `before` (or of a new file) with the template's groups, each running `command`,
/// appended to their events, after any earlier hook of patchgate's guard is removed.
pub(super) fn merge(
    before: Option<&str>,
    template: &Template,
    command: &str,
) -> Result<String, String> {
    let (mut root, style) = match before {
        Some(text) => parse(text)?,
        None => (Map::new(), Style::default()),
    };
    strip_guard(&mut root);
    if template.is_cursor {
        root.entry("version").or_insert(json!(1));
    }
    let hooks = root.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("has a \"hooks\" that is not an object; fix it, then run again".to_owned());
    };
    for (event, matcher) in template.events {
        let groups = hooks.entry(*event).or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            return Err(format!("has hooks.{event} that is not a list; fix it, then run again"));
        };
        groups.push(group(template, *matcher, command));
    }
    Ok(render(&root, &style))
}

/// `text` without any hook of patchgate's guard (`None`: it had none).
pub(super) fn strip(text: &str) -> Result<Option<String>, String> {
    let (mut root, style) = parse(text)?;
    Ok(strip_guard(&mut root).then(|| render(&root, &style)))
}

/// Whether `text` holds a hook of patchgate's guard.
pub(super) fn has_guard(text: &str) -> bool {
    parse(text).is_ok_and(|(mut root, _)| strip_guard(&mut root))
}

/// Whether settings left after stripping say nothing an agent would read (`{}`, or Cursor's
/// `{"version": 1}` alone).
pub(super) fn is_empty(text: &str, template: &Template) -> bool {
    let Ok((root, _)) = parse(text) else { return false };
    root.iter().all(|(key, value)| template.is_cursor && key == "version" && *value == json!(1))
}

/// One hook group (or Cursor handler) running `command`.
fn group(template: &Template, matcher: Option<&str>, command: &str) -> Value {
    if template.is_cursor {
        return json!({"command": command, "failClosed": true});
    }
    let mut handler = json!({"type": "command", "command": command});
    if let Some(timeout) = template.timeout {
        handler["timeout"] = json!(timeout);
    }
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".to_owned(), json!(matcher));
    }
    group.insert("hooks".to_owned(), json!([handler]));
    Value::Object(group)
}

/// Remove every handler of patchgate's guard from every event, and the groups, events and
/// `hooks` object that held nothing else before; whether anything was removed.
fn strip_guard(root: &mut Map<String, Value>) -> bool {
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else { return false };
    let mut removed = false;
    let mut emptied = Vec::new();
    for (event, entries) in hooks.iter_mut() {
        let Value::Array(list) = entries else { continue };
        let mut here = false;
        list.retain_mut(|entry| {
            // Cursor's entries are handlers; the others' are groups of handlers.
            if is_guard_handler(entry) {
                here = true;
                return false;
            }
            let Some(Value::Array(handlers)) = entry.get_mut("hooks") else { return true };
            let count = handlers.len();
            handlers.retain(|h| !is_guard_handler(h));
            here |= handlers.len() < count;
            handlers.len() == count || !handlers.is_empty()
        });
        removed |= here;
        if here && list.is_empty() {
            emptied.push(event.clone());
        }
    }
    for event in emptied {
        hooks.shift_remove(&event);
    }
    if removed && hooks.is_empty() {
        root.shift_remove("hooks");
    }
    removed
}

fn is_guard_handler(handler: &Value) -> bool {
    handler.get("command").and_then(Value::as_str).is_some_and(is_guard_command)
}

/// How a file is laid out: its indentation and whether it ends with a newline.
#[derive(Clone, Debug)]
struct Style {
    indent: String,
    has_newline: bool,
}

impl Default for Style {
    fn default() -> Self {
        Self { indent: "  ".to_owned(), has_newline: true }
    }
}

fn parse(text: &str) -> Result<(Map<String, Value>, Style), String> {
    if let Some(key) = crate::json::duplicate_key(text.as_bytes()) {
        return Err(format!("names \"{key}\" twice; keep one, then run again"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "is not plain JSON ({e}); patchgate cannot merge into it without losing something \
             (comments, say): add the hooks by hand, or fix it and run again"
        )
    })?;
    let Value::Object(root) = value else {
        return Err("is JSON but not an object; fix it, then run again".to_owned());
    };
    let indent = text
        .lines()
        .nth(1)
        .map(|line| line[..line.len() - line.trim_start().len()].to_owned())
        .filter(|indent| !indent.is_empty())
        .unwrap_or_else(|| "  ".to_owned());
    Ok((root, Style { indent, has_newline: text.ends_with('\n') }))
}

fn render(root: &Map<String, Value>, style: &Style) -> String {
    use serde::Serialize as _;
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(style.indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    root.serialize(&mut serializer).expect("a JSON map serializes into memory");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    if style.has_newline {
        text.push('\n');
    }
    text
}
