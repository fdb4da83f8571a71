//! The executor output contract's JSON-only executor reply: the reply ends with exactly one ``
//! ```json `` block holding exactly `status`, `files_created`, `files_updated`, `changes`,
//! `neededChanges`, `summary`, with nothing after it; every path is filtered as `validateFilePaths`
//! does.

use super::ReplyCode;
use super::paths::{FilteredPath, filter_paths};
use super::reply::{self, ReplyOutcome as _};
use super::{Finding, KeyLines, describe};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// The reply object (the executor output contract's "Output Requirements"). `neededChanges` is
/// camelCase among `snake_case` keys because the specification says so: "Use the exact keys
/// provided".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecutorOutput {
    /// `completed`, or `failed` when unsure or unable to complete.
    pub status: ExecutorStatus,
    /// Files created, relative to the sandbox root.
    pub files_created: Vec<String>,
    /// Files updated, relative to the sandbox root.
    pub files_updated: Vec<String>,
    /// Files changed, relative to the sandbox root.
    pub changes: Vec<String>,
    /// Whether the task needed file changes.
    #[serde(rename = "neededChanges")]
    pub needed_changes: bool,
    /// One sentence describing what was done or why it failed.
    #[schemars(length(min = 1))]
    pub summary: String,
}

/// `status` of [`ExecutorOutput`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExecutorStatus {
    /// The task was carried out.
    Completed,
    /// The executor could not complete, or is unsure.
    Failed,
}

/// The reply's path lists, in the specification's order.
pub const PATH_KEYS: [&str; 3] = ["files_created", "files_updated", "changes"];

/// The keys of the reply object, in the specification's order.
pub const EXECUTOR_KEYS: [&str; 6] =
    ["status", "files_created", "files_updated", "changes", "neededChanges", "summary"];

/// What [`check_executor_output`] may tolerate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExecutorOptions {
    /// Accept prose before the JSON block (the specification forbids it).
    pub allow_preamble: bool,
    /// Make every filtered path a violation (the specification only filters them out).
    pub strict_paths: bool,
    /// The most paths one list may hold (the CLI passes `[limits] files`); a longer list is a
    /// `limit_exceeded` violation and is not filtered. `None`: no bound.
    pub max_paths: Option<usize>,
}

/// The paths filtered from each list, or how many (the specification's `filtered_count`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PerList<T> {
    /// From `files_created`.
    pub files_created: T,
    /// From `files_updated`.
    pub files_updated: T,
    /// From `changes`.
    pub changes: T,
}

/// The verdict on one executor reply.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ExecutorOutcome {
    /// Whether the reply keeps the contract (filtered paths do not break it, unless strict).
    pub ok: bool,
    /// The reply object with filtered paths removed and the rest normalised; `null` when the
    /// object does not have the contract's shape.
    pub reply: Option<ExecutorOutput>,
    /// Every filtered path, per list, with its reason.
    pub filtered: PerList<Vec<FilteredPath>>,
    /// How many paths each list lost.
    pub filtered_count: PerList<usize>,
    /// What breaks the contract.
    pub violations: Vec<Finding>,
    /// What is odd but allowed (CRLF, a multi-sentence summary, inconsistent `neededChanges`).
    pub warnings: Vec<Finding>,
}

/// Check a whole executor reply against the executor output contract; paths are resolved under
/// `root`.
#[must_use]
pub fn check_executor_output(
    bytes: &[u8],
    root: &Path,
    options: ExecutorOptions,
) -> ExecutorOutcome {
    reply::check_reply(bytes, |text| check_text(text, root, options))
}

fn check_text(text: &str, root: &Path, options: ExecutorOptions) -> ExecutorOutcome {
    let mut out = ExecutorOutcome::default();
    let mut violations = Vec::new();
    let rules = reply::JsonOnly {
        allow_preamble: options.allow_preamble,
        allow_bare: false,
        preamble_hint: " (or pass --allow-preamble)",
    };
    let Some(block) = reply::json_block(text, rules, &mut violations) else {
        return out.finish_with(violations);
    };
    let Some((value, lines)) = reply::block_json(&block, &mut violations) else {
        return out.finish_with(violations);
    };
    let (object, shape_violations) = check_shape(&value, &lines);
    violations.extend(shape_violations);
    let kept = out.filter_lists(&value, root, options, &lines, &mut violations);
    out.reply = object.map(|mut o| {
        o.files_created = kept.files_created;
        o.files_updated = kept.files_updated;
        o.changes = kept.changes;
        o
    });
    out.warnings.extend(object_warnings(&value, &lines));
    out.finish_with(violations)
}

impl<T> PerList<T> {
    fn slot_mut(&mut self, key: &str) -> &mut T {
        match key {
            "files_created" => &mut self.files_created,
            "files_updated" => &mut self.files_updated,
            _ => &mut self.changes,
        }
    }
}

impl reply::ReplyOutcome for ExecutorOutcome {
    fn findings_mut(&mut self) -> (&mut Vec<Finding>, &mut Vec<Finding>) {
        (&mut self.violations, &mut self.warnings)
    }

    fn set_ok(&mut self, ok: bool) {
        self.ok = ok;
    }
}

impl ExecutorOutcome {
    /// Filter each list that is a list of strings; the kept paths per list.
    fn filter_lists(
        &mut self,
        value: &Value,
        root: &Path,
        options: ExecutorOptions,
        lines: &KeyLines<'_>,
        violations: &mut Vec<Finding>,
    ) -> PerList<Vec<String>> {
        let mut kept = PerList::default();
        for key in PATH_KEYS {
            let len = value.get(key).and_then(Value::as_array).map_or(0, Vec::len);
            if let Some(max) = options.max_paths.filter(|&max| len > max) {
                let message = format!(
                    "'{key}' lists {len} paths, over the limit of {max} ([limits] files in \
                     .patchgate.toml; raise it if this reply is intended)"
                );
                let finding = Finding::new(ReplyCode::LimitExceeded, message);
                violations.push(finding.line(lines.of(key)).pointer(format!("/{key}")));
                continue;
            }
            let Some(paths) = string_list(value.get(key)) else { continue };
            let filter = filter_paths(&paths, root);
            if options.strict_paths {
                violations.extend(filter.filtered.iter().map(|f| {
                    let message = format!("'{key}' lists '{}': {}", f.path, f.reason);
                    Finding::new(ReplyCode::FilteredPath, message)
                        .line(lines.of(key))
                        .pointer(format!("/{key}"))
                }));
            }
            *self.filtered_count.slot_mut(key) = filter.filtered.len();
            *self.filtered.slot_mut(key) = filter.filtered;
            *kept.slot_mut(key) = filter.kept;
        }
        kept
    }
}

/// The keys, their types and values; the typed object when everything holds.
fn check_shape(value: &Value, lines: &KeyLines<'_>) -> (Option<ExecutorOutput>, Vec<Finding>) {
    let Some(map) = value.as_object() else {
        let message = format!("the JSON block holds {}, not an object", describe(value));
        return (
            None,
            vec![Finding::new(ReplyCode::NotAnObject, message).line(Some(lines.first_line))],
        );
    };
    let mut v = Vec::new();
    for key in EXECUTOR_KEYS.iter().filter(|k| !map.contains_key(**k)) {
        let message = format!(
            "the key '{key}' is missing; the object needs exactly {}",
            EXECUTOR_KEYS.join(", ")
        );
        v.push(
            Finding::new(ReplyCode::MissingKey, message)
                .line(Some(lines.first_line))
                .pointer(format!("/{key}")),
        );
    }
    for key in map.keys().filter(|k| !EXECUTOR_KEYS.contains(&k.as_str())) {
        let message =
            format!("the key '{key}' is not allowed{}", super::suggest(key, &EXECUTOR_KEYS));
        v.push(
            Finding::new(ReplyCode::UnknownKey, message)
                .line(lines.of(key))
                .pointer(format!("/{}", super::escape_pointer(key))),
        );
    }
    check_values(map, lines, &mut v);
    let object = if v.is_empty() { serde_json::from_value(value.clone()).ok() } else { None };
    (object, v)
}

fn check_values(map: &Map<String, Value>, lines: &KeyLines<'_>, v: &mut Vec<Finding>) {
    let at = |code: ReplyCode, key: &str, message: String| {
        Finding::new(code, message).line(lines.of(key)).pointer(format!("/{key}"))
    };
    match map.get("status") {
        Some(Value::String(s)) if s == "completed" || s == "failed" => {}
        Some(Value::String(s)) => v.push(at(
            ReplyCode::InvalidStatus,
            "status",
            format!("'status' is \"{s}\"; use \"completed\" or \"failed\""),
        )),
        Some(other) => v.push(at(
            ReplyCode::WrongType,
            "status",
            format!("'status' is {}; use \"completed\" or \"failed\"", describe(other)),
        )),
        None => {}
    }
    for key in PATH_KEYS {
        check_list(map, key, lines, v);
    }
    match map.get("neededChanges") {
        Some(Value::Bool(_)) | None => {}
        Some(Value::String(s)) if s == "true" || s == "false" => v.push(at(
            ReplyCode::WrongType,
            "neededChanges",
            format!("'neededChanges' is the string \"{s}\"; use the boolean {s}"),
        )),
        Some(other) => v.push(at(
            ReplyCode::WrongType,
            "neededChanges",
            format!("'neededChanges' is {}; use true or false", describe(other)),
        )),
    }
    check_summary(map, lines, v);
}

fn check_list(map: &Map<String, Value>, key: &str, lines: &KeyLines<'_>, v: &mut Vec<Finding>) {
    let at = |pointer: String, message: String| {
        Finding::new(ReplyCode::WrongType, message).line(lines.of(key)).pointer(pointer)
    };
    match map.get(key) {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate().filter(|(_, item)| !item.is_string()) {
                let message = format!("'{key}'[{i}] is {}; list paths as strings", describe(item));
                v.push(at(format!("/{key}/{i}"), message));
            }
        }
        Some(Value::Null) => {
            v.push(at(format!("/{key}"), format!("'{key}' is null; use [] when there are none")));
        }
        Some(other) => {
            let message = format!(
                "'{key}' is {}; use an array of strings, e.g. [\"src/a.rs\"]",
                describe(other)
            );
            v.push(at(format!("/{key}"), message));
        }
    }
}

fn check_summary(map: &Map<String, Value>, lines: &KeyLines<'_>, v: &mut Vec<Finding>) {
    let at = |code: ReplyCode, message: String| {
        Finding::new(code, message).line(lines.of("summary")).pointer("/summary".to_string())
    };
    let failed = map.get("status").and_then(Value::as_str) == Some("failed");
    match map.get("summary") {
        Some(Value::String(s)) if s.trim().is_empty() => {
            let what = if failed { "why it failed" } else { "what was done" };
            v.push(at(
                ReplyCode::EmptySummary,
                format!("'summary' is empty; say in one sentence {what}"),
            ));
        }
        Some(Value::String(s)) if s.contains('\n') => {
            v.push(at(
                ReplyCode::SummaryNotOneSentence,
                "'summary' spans several lines; write one sentence".to_string(),
            ));
        }
        None | Some(Value::String(_)) => {}
        Some(other) => v.push(at(
            ReplyCode::WrongType,
            format!("'summary' is {}; use one sentence as a string", describe(other)),
        )),
    }
}

fn string_list(value: Option<&Value>) -> Option<Vec<String>> {
    value?.as_array()?.iter().map(|v| v.as_str().map(str::to_string)).collect()
}

/// Allowed but odd: several sentences, `neededChanges` contradicting the lists.
fn object_warnings(value: &Value, lines: &KeyLines<'_>) -> Vec<Finding> {
    let mut w = Vec::new();
    if let Some(summary) = value.get("summary").and_then(Value::as_str)
        && !summary.contains('\n')
        && sentence_count(summary) > 1
    {
        let message = "'summary' holds several sentences; the contract asks for one";
        w.push(
            Finding::new(ReplyCode::SummaryMultipleSentences, message)
                .line(lines.of("summary"))
                .pointer("/summary".to_string()),
        );
    }
    let listed = PATH_KEYS
        .iter()
        .any(|k| value.get(k).and_then(Value::as_array).is_some_and(|a| !a.is_empty()));
    let needed = value.get("neededChanges").and_then(Value::as_bool);
    let completed = value.get("status").and_then(Value::as_str) == Some("completed");
    if needed == Some(false) && listed {
        let message = "'neededChanges' is false but files are listed";
        w.push(
            Finding::new(ReplyCode::NeededChangesInconsistent, message)
                .line(lines.of("neededChanges"))
                .pointer("/neededChanges".to_string()),
        );
    }
    if needed == Some(true) && completed && !listed {
        let message = "'neededChanges' is true and the status completed, but no file is listed";
        w.push(
            Finding::new(ReplyCode::NeededChangesInconsistent, message)
                .line(lines.of("neededChanges"))
                .pointer("/neededChanges".to_string()),
        );
    }
    w
}

/// Sentences by their ends: `.`, `!` or `?` followed by whitespace and a capital letter, plus
/// the last one. Abbreviations (`e.g. Foo`) can overcount; that is why this only warns.
fn sentence_count(text: &str) -> usize {
    let chars: Vec<char> = text.trim().chars().collect();
    let breaks = chars
        .windows(3)
        .filter(|w| matches!(w[0], '.' | '!' | '?') && w[1].is_whitespace() && w[2].is_uppercase())
        .count();
    breaks + usize::from(!chars.is_empty())
}
