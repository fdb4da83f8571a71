//! The structural rules of the agent contract's envelope, by status; each finding carries its JSON
//! pointer. The data-type rules over every value are in `datatype`.

use super::agent::{AgentExpect, ENVELOPE_KEYS, ERROR_TYPES, WARNING_TYPES};
use super::{ArgPolicy, Finding, ReplyCode, describe, shown};
use serde_json::{Map, Value};

/// Violations and warnings of the envelope's structure.
#[derive(Debug, Default)]
pub(super) struct Checked {
    pub violations: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

impl Checked {
    fn fail(&mut self, code: ReplyCode, pointer: &str, message: impl Into<String>) {
        self.violations.push(Finding::new(code, message).pointer(pointer));
    }

    fn warn(&mut self, code: ReplyCode, pointer: &str, message: impl Into<String>) {
        self.warnings.push(Finding::new(code, message).pointer(pointer));
    }

    /// The field at `/key` when present and not null; a violation otherwise.
    fn required<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        key: &str,
        why: &str,
    ) -> Option<&'v Value> {
        match map.get(key) {
            None => {
                self.fail(
                    ReplyCode::MissingField,
                    &format!("/{key}"),
                    format!("'{key}' is missing; {why}"),
                );
            }
            Some(Value::Null) => {
                self.fail(
                    ReplyCode::NullValue,
                    &format!("/{key}"),
                    format!("'{key}' is null; {why}"),
                );
            }
            Some(v) => return Some(v),
        }
        None
    }

    /// A required non-empty string.
    fn text<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        key: &str,
        at: &str,
        why: &str,
    ) -> Option<&'v str> {
        let pointer = format!("{at}/{key}");
        let name = shown(&pointer);
        let message = match map.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => return Some(s),
            None => (ReplyCode::MissingField, format!("'{name}' is missing; {why}")),
            Some(Value::String(_)) => (ReplyCode::EmptyField, format!("'{name}' is empty; {why}")),
            Some(Value::Null) => (ReplyCode::NullValue, format!("'{name}' is null; {why}")),
            Some(other) => {
                (ReplyCode::WrongType, format!("'{name}' is {}; {why}", describe(other)))
            }
        };
        self.fail(message.0, &pointer, message.1);
        None
    }
}

/// Check the envelope `value` for the expected agent.
pub(super) fn check(value: &Value, expect: &AgentExpect, policy: &ArgPolicy) -> Checked {
    let mut c = Checked::default();
    let Some(map) = value.as_object() else {
        c.fail(
            ReplyCode::NotAnObject,
            "",
            format!("the reply is {}, not a JSON object", describe(value)),
        );
        return c;
    };
    let status = check_status(&mut c, map);
    check_agent(&mut c, map, expect);
    check_version(&mut c, map);
    match status {
        Some("success" | "partial") => {
            check_result(&mut c, map, status == Some("partial"), expect, policy);
        }
        Some("error") => check_error(&mut c, map),
        _ => {}
    }
    check_metadata(&mut c, map);
    for key in map.keys().filter(|k| !ENVELOPE_KEYS.contains(&k.as_str())) {
        let hint = super::suggest(key, &ENVELOPE_KEYS);
        let message =
            format!("'{key}' is not part of the envelope; agent data belongs in 'result'{hint}");
        c.warn(ReplyCode::UnknownField, &format!("/{}", super::escape_pointer(key)), message);
    }
    c
}

fn check_status<'v>(c: &mut Checked, map: &'v Map<String, Value>) -> Option<&'v str> {
    let why = "use \"success\", \"partial\" or \"error\"";
    match c.required(map, "status", why)? {
        Value::String(s) if matches!(s.as_str(), "success" | "partial" | "error") => Some(s),
        Value::String(s) => {
            c.fail(ReplyCode::InvalidStatus, "/status", format!("'status' is \"{s}\"; {why}"));
            None
        }
        other => {
            c.fail(
                ReplyCode::WrongType,
                "/status",
                format!("'status' is {}; {why}", describe(other)),
            );
            None
        }
    }
}

fn check_agent(c: &mut Checked, map: &Map<String, Value>, expect: &AgentExpect) {
    let why = format!("it must be \"{}\"", expect.agent);
    if let Some(agent) = c.text(map, "agent", "", &why)
        && agent != expect.agent
    {
        c.fail(
            ReplyCode::AgentMismatch,
            "/agent",
            format!("'agent' is \"{agent}\"; expected \"{}\"", expect.agent),
        );
    }
}

fn check_version(c: &mut Checked, map: &Map<String, Value>) {
    let why = "use the contract version as a string, e.g. \"1.0\"";
    match c.required(map, "version", why) {
        Some(Value::String(s)) if is_version(s) => {}
        Some(Value::String(s)) => {
            c.fail(ReplyCode::InvalidVersion, "/version", format!("'version' is \"{s}\"; {why}"));
        }
        Some(other) => {
            c.fail(
                ReplyCode::WrongType,
                "/version",
                format!("'version' is {}; {why}", describe(other)),
            );
        }
        None => {}
    }
}

fn is_version(s: &str) -> bool {
    s.split('.').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

fn check_result(
    c: &mut Checked,
    map: &Map<String, Value>,
    partial: bool,
    expect: &AgentExpect,
    policy: &ArgPolicy,
) {
    if let Some(op) = c.text(map, "operation", "", "name the operation performed") {
        check_operation(c, op, expect, policy);
    }
    match c.required(map, "result", "success and partial replies carry their results in 'result'") {
        Some(Value::Object(_)) | None => {}
        Some(other) => c.fail(
            ReplyCode::WrongType,
            "/result",
            format!("'result' is {}; use an object", describe(other)),
        ),
    }
    if partial {
        let why = "a partial reply says what is missing in at least one warning";
        match c.required(map, "warnings", why) {
            Some(Value::Array(items)) if items.is_empty() => {
                c.fail(
                    ReplyCode::EmptyWarnings,
                    "/warnings",
                    format!("'warnings' is empty; {why}"),
                );
            }
            _ => {}
        }
    }
    check_warnings(c, map);
}

fn check_operation(c: &mut Checked, op: &str, expect: &AgentExpect, policy: &ArgPolicy) {
    if let Some(want) = &expect.operation
        && op != want
    {
        c.fail(
            ReplyCode::OperationMismatch,
            "/operation",
            format!("'operation' is \"{op}\"; \"{want}\" was requested"),
        );
    }
    match policy.operations(&expect.agent) {
        Some(ops) if !ops.iter().any(|o| o == op) => {
            let message = format!(
                "'operation' \"{op}\" is not an operation of {} ({})",
                expect.agent,
                ops.join(", ")
            );
            c.fail(ReplyCode::UnknownOperation, "/operation", message);
        }
        Some(_) => {}
        None => c.warn(
            ReplyCode::UnknownAgent,
            "/agent",
            format!("'{}' is not in the operation registry; operations not checked", expect.agent),
        ),
    }
}

fn check_warnings(c: &mut Checked, map: &Map<String, Value>) {
    let items = match map.get("warnings") {
        None | Some(Value::Null) => return,
        Some(Value::Array(items)) => items,
        Some(other) => {
            return c.fail(
                ReplyCode::WrongType,
                "/warnings",
                format!("'warnings' is {}; use an array of warning objects", describe(other)),
            );
        }
    };
    for (i, item) in items.iter().enumerate() {
        let at = format!("/warnings/{i}");
        let Some(w) = item.as_object() else {
            c.fail(
                ReplyCode::WrongType,
                &at,
                format!(
                    "'{}' is {}; use an object with type, message, impact, recovery",
                    shown(&at),
                    describe(item)
                ),
            );
            continue;
        };
        let types = WARNING_TYPES.join(" | ");
        if let Some(kind) = c.text(w, "type", &at, &format!("use one of {types}"))
            && !WARNING_TYPES.contains(&kind)
        {
            c.fail(
                ReplyCode::InvalidWarningType,
                &format!("{at}/type"),
                format!("'{}/type' is \"{kind}\"; use one of {types}", shown(&at)),
            );
        }
        c.text(w, "message", &at, "describe the issue");
        c.text(w, "impact", &at, "say what functionality is affected");
        c.text(w, "recovery", &at, "say how to get complete results");
    }
}

fn check_error(c: &mut Checked, map: &Map<String, Value>) {
    let types = ERROR_TYPES.join(" | ");
    if let Some(kind) =
        c.text(map, "error_type", "", &format!("an error reply names its type: {types}"))
        && !ERROR_TYPES.contains(&kind)
    {
        c.fail(
            ReplyCode::InvalidErrorType,
            "/error_type",
            format!("'error_type' is \"{kind}\"; use one of {types}"),
        );
    }
    c.text(map, "message", "", "say clearly what went wrong");
    let why = "give at least one actionable recovery step";
    match c.required(map, "recovery_suggestions", why) {
        Some(Value::Array(items)) if items.is_empty() => {
            c.fail(
                ReplyCode::EmptyRecoverySuggestions,
                "/recovery_suggestions",
                format!("'recovery_suggestions' is empty; {why}"),
            );
        }
        Some(Value::Array(items)) => {
            for (i, item) in items
                .iter()
                .enumerate()
                .filter(|(_, v)| v.as_str().is_none_or(|s| s.trim().is_empty()))
            {
                let at = format!("/recovery_suggestions/{i}");
                c.fail(
                    ReplyCode::WrongType,
                    &at,
                    format!(
                        "'{}' is {}; each suggestion is a non-empty string",
                        shown(&at),
                        describe(item)
                    ),
                );
            }
        }
        Some(other) => c.fail(
            ReplyCode::WrongType,
            "/recovery_suggestions",
            format!("'recovery_suggestions' is {}; {why} in an array", describe(other)),
        ),
        None => {}
    }
    for key in ["context", "partial_results"] {
        if let Some(v) = map.get(key).filter(|v| !v.is_object() && !v.is_null()) {
            c.fail(
                ReplyCode::WrongType,
                &format!("/{key}"),
                format!("'{key}' is {}; use an object", describe(v)),
            );
        }
    }
}

fn check_metadata(c: &mut Checked, map: &Map<String, Value>) {
    let why = "report at least execution_time_ms";
    let meta = match c.required(map, "metadata", why) {
        Some(Value::Object(meta)) => meta,
        Some(other) => {
            return c.fail(
                ReplyCode::WrongType,
                "/metadata",
                format!("'metadata' is {}; use an object", describe(other)),
            );
        }
        None => return,
    };
    let at = "/metadata/execution_time_ms";
    match meta.get("execution_time_ms") {
        None => c.fail(
            ReplyCode::MissingField,
            at,
            format!("'{}' is missing; report the run time in milliseconds", shown(at)),
        ),
        // Strings, negative and fractional numbers are the data-type rules' findings.
        Some(Value::Number(_) | Value::Null) => {}
        Some(Value::String(s)) if super::datatype::is_numeric_text(s) => {}
        Some(other) => c.fail(
            ReplyCode::WrongType,
            at,
            format!("'{}' is {}; use a non-negative integer", shown(at), describe(other)),
        ),
    }
    if let Some(ts) = meta.get("error_timestamp").and_then(Value::as_str)
        && !is_rfc3339(ts)
    {
        let at = "/metadata/error_timestamp";
        c.fail(
            ReplyCode::InvalidTimestamp,
            at,
            format!("'{}' is \"{ts}\"; use RFC 3339, e.g. \"2025-10-08T15:30:00Z\"", shown(at)),
        );
    }
}

/// `YYYY-MM-DDTHH:MM:SS` with optional fraction, then `Z` or `±HH:MM`.
fn is_rfc3339(s: &str) -> bool {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})\z")
            .expect("a fixed pattern compiles")
    });
    RE.is_match(s)
}
