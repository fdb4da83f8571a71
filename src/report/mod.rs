//! The only module that formats output: exit codes, the seed-003 error envelope, JSON and text
//! renderings of reports.

mod contract;
pub mod declare;
pub mod diagnostic;
pub mod guard;
pub mod hook;
pub mod hook_install;
pub mod message;
mod patch;
mod repair;
pub mod review;
mod schemas;
mod verdict;

pub use contract::{
    INVALID_AGENT_INPUT, PathsReport, arg_envelope, executor_text, findings_text, paths_text,
};
pub use patch::{FileSummary, HunkSummary, ParseSummary, parse_text};
pub use repair::{RepairReport, repair_text};
pub use schemas::json_schemas;
pub use verdict::{report_json, verdict_json, verdict_text};

use serde::Serialize;
use serde_json::{Map, Value};

/// patchgate's exit codes, the same for every command (design.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// 0: accepted, nothing wrong.
    Accepted,
    /// 1: a rule said no.
    Rejected,
    /// 2: the input itself is refused (usage, unreadable step, `INVALID_AGENT_INPUT`).
    InputRefused,
    /// 3: patchgate could not do its job (I/O, repository).
    Failure,
}

impl Exit {
    /// The process exit code.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Self::Accepted => 0,
            Self::Rejected => 1,
            Self::InputRefused => 2,
            Self::Failure => 3,
        }
    }
}

/// The seed-003 response envelope: `{"ok", "data", "error", "warnings", "meta"}`.
#[derive(Clone, Debug, Serialize)]
pub struct Envelope {
    /// Whether the call succeeded.
    pub ok: bool,
    /// The payload on success.
    pub data: Value,
    /// The error on failure.
    pub error: Option<Map<String, Value>>,
    /// Non-fatal findings.
    pub warnings: Vec<Value>,
    /// Free-form metadata.
    pub meta: Map<String, Value>,
}

impl Envelope {
    /// A success carrying `data`.
    #[must_use]
    pub fn success(data: Value) -> Self {
        Self { ok: true, data, error: None, warnings: Vec::new(), meta: Map::new() }
    }

    /// A failure with `code`, `message` and extra error fields (`input_value`, ...).
    #[must_use]
    pub fn failure(code: &str, message: &str, extra: Map<String, Value>) -> Self {
        let mut error = Map::new();
        error.insert("code".into(), Value::from(code));
        error.insert("message".into(), Value::from(message));
        error.extend(extra);
        Self {
            ok: false,
            data: Value::Null,
            error: Some(error),
            warnings: Vec::new(),
            meta: Map::new(),
        }
    }
}

/// Serialize `value` as one line of JSON.
#[must_use]
pub fn to_json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("report types serialize: string keys, no floats NaN")
}

/// The JSON Schema of `T` as committed under `schemas/`, for what patchgate reads: indented,
/// with a final newline.
#[must_use]
pub fn json_schema<T: schemars::JsonSchema>() -> String {
    let mut text = to_json_pretty(&schemars::schema_for!(T));
    text.push('\n');
    text
}

/// The JSON Schema of `T` for what patchgate writes: a field that is always written is
/// required (even when it may be `null`), so typed clients need no check for a missing one.
#[must_use]
pub fn json_output_schema<T: schemars::JsonSchema>() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    let mut text = to_json_pretty(&generator.into_generator().into_root_schema_for::<T>());
    text.push('\n');
    text
}

/// Serialize `value` as indented JSON.
#[must_use]
pub fn to_json_pretty<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("report types serialize: string keys, no floats NaN")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_envelope_has_the_seed_shape() {
        let mut extra = Map::new();
        extra.insert("input_value".into(), Value::from("../etc/passwd"));
        extra.insert("rejected_pattern".into(), Value::from("path_traversal"));
        let env =
            Envelope::failure("INVALID_AGENT_INPUT", "argument contains a rejected pattern", extra);
        let v: Value = serde_json::from_str(&to_json_line(&env)).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["data"], Value::Null);
        assert_eq!(v["error"]["code"], "INVALID_AGENT_INPUT");
        assert_eq!(v["error"]["rejected_pattern"], "path_traversal");
        assert_eq!(v["warnings"], serde_json::json!([]));
        assert_eq!(v["meta"], serde_json::json!({}));
    }

    #[test]
    fn exit_codes_match_design() {
        let codes: Vec<u8> = [Exit::Accepted, Exit::Rejected, Exit::InputRefused, Exit::Failure]
            .map(Exit::code)
            .into();
        assert_eq!(codes, [0, 1, 2, 3]);
    }
}
