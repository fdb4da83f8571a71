//! The only module that formats output: exit codes, the JSON envelope, JSON and text
//! renderings of reports.

mod batch;
mod contract;
pub mod declare;
pub mod diagnostic;
pub mod guard;
pub mod guard_install;
pub mod hook;
pub mod hook_install;
mod indented;
pub mod mcp;
pub mod message;
mod parse_json;
mod patch;
mod repair;
pub mod review;
mod schemas;
mod verdict;

pub use batch::{BatchAnswer, ErrorLine, LineFailure, VerdictLine, batch_error, batch_verdict};
pub use contract::{PathsReport, arg_envelope, executor_text, findings_text, paths_text};
pub use parse_json::write_parse_envelope;
pub use patch::{FileSummaries, FileSummary, HunkSummary, ParseSummary, parse_text};
pub use repair::{RepairReport, repair_text};
pub use schemas::json_schemas;
pub use verdict::{report_json, verdict_json, verdict_text};

pub use diagnostic::Palette;

use crate::finding::{ErrorCode, codes};
use serde::Serialize;
use serde_json::{Map, Value};

/// How a command's text output looks.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// The colours: plain unless the text goes to a terminal (or `--color always`).
    pub palette: Palette,
    /// `-q`: only what a script needs (each command's text renderer says what that is).
    pub is_quiet: bool,
}

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

/// The response envelope of the argument-rejection requirement every command's `--format json`
/// answer is wrapped in (except `validate`'s and `apply`'s verdict line and `guard`'s protocol
/// answers): `{"ok", "data", "error", "warnings", "meta"}`. `ok` is false exactly when `error` is
/// set (exit 2 or 3); a rejection (exit 1) is data, as the command documents it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Envelope {
    /// Whether the command did its job: false exactly when `error` is set.
    pub ok: bool,
    /// The command's answer (its shape is the command's, see docs/commands/); `null` on error,
    /// except the report of a `hook install` or `hook uninstall` that was not done.
    pub data: Value,
    /// Why the command could not answer; `null` on success.
    pub error: Option<EnvelopeError>,
    /// Non-fatal findings a person would see on standard error (`patchgate: warning: ...`).
    pub warnings: Vec<Notice>,
    /// Which command and patchgate version answered.
    pub meta: Meta,
}

/// The error of a failed command: a stable `code` and a human `message`, plus what the code
/// documents (`input_value` and `rejected_pattern` for `INVALID_AGENT_INPUT`).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct EnvelopeError {
    /// Stable code (`usage`, `io`, `repository`, `INVALID_AGENT_INPUT`, ...).
    pub code: ErrorCode,
    /// One human line: what is wrong and what to do.
    pub message: String,
    /// Fields the code documents.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

codes! {
    /// The codes of an envelope's warnings (what standard error says as `patchgate: warning:`).
    NoticeCode {
        /// `review list`: a corrupted entry was skipped.
        SkippedEntry => "skipped_entry",
        /// `review apply`: applied, but the override could not be recorded in the entry.
        OverrideUnrecorded => "override_unrecorded",
        /// `hook install`: git tracks the hooks directory, so the shims change tracked files.
        TrackedHooksDir => "tracked_hooks_dir",
    }
}

/// A non-fatal finding in an envelope.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Notice {
    /// Stable code (`skipped_entry`, `override_unrecorded`, ...).
    pub code: NoticeCode,
    /// The line standard error shows, without the `patchgate: warning: ` prefix.
    pub message: String,
}

/// Where an envelope comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Meta {
    /// The command, its subcommands joined by spaces (`parse`, `review show`, `hook status`).
    pub command: String,
    /// The patchgate version that answered.
    pub version: String,
}

impl Meta {
    /// `command` answered by this patchgate.
    #[must_use]
    pub fn new(command: &str) -> Self {
        Self { command: command.to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() }
    }
}

impl Envelope {
    /// A success carrying `data`.
    #[must_use]
    pub fn success(data: Value, meta: Meta) -> Self {
        Self { ok: true, data, error: None, warnings: Vec::new(), meta }
    }

    /// A success carrying `data` serialized.
    #[must_use]
    pub fn of<T: Serialize>(data: &T, meta: Meta) -> Self {
        let data = serde_json::to_value(data).expect("report types serialize: string keys");
        Self::success(data, meta)
    }

    /// A failure with `code`, `message` and extra error fields (`input_value`, ...).
    #[must_use]
    pub fn failure(code: ErrorCode, message: &str, extra: Map<String, Value>, meta: Meta) -> Self {
        let error = EnvelopeError { code, message: message.to_owned(), extra };
        Self { ok: false, data: Value::Null, error: Some(error), warnings: Vec::new(), meta }
    }

    /// The same envelope as a failure with `code` and `message`, its data kept: what a
    /// refusal that is also advice (`hook install` deferring to husky) says to do.
    #[must_use]
    pub fn refused(self, code: ErrorCode, message: &str) -> Self {
        let error = EnvelopeError { code, message: message.to_owned(), extra: Map::new() };
        Self { ok: false, error: Some(error), ..self }
    }

    /// The same envelope with `warnings`.
    #[must_use]
    pub fn with_warnings(self, warnings: Vec<Notice>) -> Self {
        Self { warnings, ..self }
    }
}

/// A success envelope whose `data` is serialized straight from the command's own type, never
/// first made a tree of JSON values: a large answer (`parse --format json` of a 30 MB diff)
/// streams out as it is written. The same bytes as [`to_json_pretty`] of [`Envelope::of`].
#[derive(Debug, Serialize)]
struct Streamed<'a, T: Serialize> {
    ok: bool,
    data: &'a T,
    error: Option<&'a EnvelopeError>,
    warnings: &'a [Notice],
    meta: &'a Meta,
}

/// Write the success envelope of `data`, indented, to `out` (a buffered writer: nothing is
/// held in memory but the writer's buffer).
pub fn write_envelope<W: std::io::Write, T: Serialize>(
    out: W,
    data: &T,
    warnings: &[Notice],
    meta: &Meta,
) -> std::io::Result<()> {
    let envelope = Streamed { ok: true, data, error: None, warnings, meta };
    indented::write(out, &envelope)
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
    let mut text = Vec::new();
    indented::write(&mut text, value).expect("report types serialize: string keys, no floats NaN");
    String::from_utf8(text).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_envelope_has_the_seed_shape() {
        let mut extra = Map::new();
        extra.insert("input_value".into(), Value::from("../etc/passwd"));
        extra.insert("rejected_pattern".into(), Value::from("path_traversal"));
        let message = "argument contains a rejected pattern";
        let code = ErrorCode::InvalidAgentInput;
        let env = Envelope::failure(code, message, extra, Meta::new("check-arg"));
        let v: Value = serde_json::from_str(&to_json_line(&env)).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["data"], Value::Null);
        assert_eq!(v["error"]["code"], "INVALID_AGENT_INPUT");
        assert_eq!(v["error"]["rejected_pattern"], "path_traversal");
        assert_eq!(v["warnings"], serde_json::json!([]));
        assert_eq!(v["meta"]["command"], "check-arg");
        assert_eq!(v["meta"]["version"], env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn a_streamed_envelope_is_the_envelope_of_the_same_data_byte_for_byte() {
        // Renames, a binary entry, non-UTF-8 and quoted names, defects and warnings: every
        // optional field of a parse summary both present and absent.
        let text = b"diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n-x\r\n+y\n+z\n\
diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n\
diff --git \"a/caf\\303\\251\" \"b/caf\\377\"\n--- \"a/caf\\303\\251\"\n+++ \"b/caf\\377\"\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\ntrailing chat\n";
        let parsed = crate::patch::parse(text, &crate::patch::ParseOptions::default());
        assert!(!parsed.defects.is_empty() && !parsed.warnings.is_empty());
        let summary = ParseSummary::new(&parsed);
        let warnings = vec![Notice { code: NoticeCode::TrackedHooksDir, message: "m".into() }];
        let meta = Meta::new("parse");
        let whole =
            to_json_pretty(&Envelope::of(&summary, meta.clone()).with_warnings(warnings.clone()));
        let mut streamed = Vec::new();
        write_envelope(&mut streamed, &summary, &warnings, &meta).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        assert_eq!(summary.files.len(), 4, "{whole}");
    }

    #[test]
    fn exit_codes_match_design() {
        let codes: Vec<u8> = [Exit::Accepted, Exit::Rejected, Exit::InputRefused, Exit::Failure]
            .map(Exit::code)
            .into();
        assert_eq!(codes, [0, 1, 2, 3]);
    }
}
