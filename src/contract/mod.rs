//! Agent contracts and argument checks (the executor output contract, the argument-rejection
//! requirement, the agent contract).
//!
//! - Argument checks: declare an argument's type ([`ArgType`]), get the checks. [`check_arg`]
//!   runs the argument-rejection requirement's hallucination patterns (traversal, encodings, query
//!   strings, fragments) with the default policy; [`ArgPolicy`] adds the agent contract's
//!   configurable types (`ticket_id`, `branch`, `operation`) and allowed directories for paths. A
//!   rejection is data ([`ArgOutcome::Rejected`]) carrying the stable [`RejectedPattern`] name that
//!   goes into the `INVALID_AGENT_INPUT` envelope.
//!
//! ```
//! use patchgate::contract::{check_arg, ArgType, RejectedPattern};
//! let outcome = check_arg(ArgType::ResourceId, "../etc/passwd");
//! let rejection = outcome.rejection().expect("traversal is refused");
//! assert_eq!(rejection.pattern, RejectedPattern::PathTraversal);
//! assert_eq!(rejection.pattern.as_str(), "path_traversal");
//! ```

mod agent;
mod agent_reply;
mod arg;
mod branch;
mod datatype;
mod envelope;
mod executor;
mod hallucination;
mod json_lenient;
mod lists;
mod message;
mod paths;
mod patterns;
pub mod reply;
mod sanitize;
#[cfg(test)]
mod tests;

pub use arg::{
    ArgAccepted, ArgOptions, ArgOutcome, ArgPolicy, ArgRejection, ArgType, DEFAULT_BRANCH_PATTERNS,
    DEFAULT_OPERATIONS, DEFAULT_TICKET_PATTERNS, RejectedPattern, check_allowed_dir, check_arg,
};

pub use agent::{
    AgentEnvelope, AgentError, AgentErrorType, AgentExpect, AgentMetadata, AgentPartial,
    AgentSuccess, AgentWarning, AgentWarningType, ENVELOPE_KEYS, ERROR_TYPES, WARNING_TYPES,
};
pub use agent_reply::{AgentOutcome, check_agent_reply};
pub use executor::{
    EXECUTOR_KEYS, ExecutorOptions, ExecutorOutcome, ExecutorOutput, ExecutorStatus, PATH_KEYS,
    PerList, check_executor_output,
};
pub use paths::{FilterCode, FilterReason, FilteredPath, PathFilter, filter_paths};
pub use sanitize::{DEFAULT_MAX_LENGTH, MARKDOWN_SPECIAL, TooLong, escape_markdown, sanitize};

use crate::finding::codes;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

codes! {
    /// The stable codes of the reply contracts' findings (the executor output contract's and the
    /// agent contract's violations and warnings).
    ReplyCode {
        /// The reply is not UTF-8.
        NotUtf8 => "not_utf8",
        /// No ```` ```json ```` block.
        NoJsonBlock => "no_json_block",
        /// The JSON is not inside a fence.
        MissingFence => "missing_fence",
        /// A fence that is not ```` ```json ````.
        FenceLanguage => "fence_language",
        /// A fence that is never closed.
        UnclosedFence => "unclosed_fence",
        /// More than one JSON block.
        MultipleJsonBlocks => "multiple_json_blocks",
        /// Text before the JSON block.
        Preamble => "preamble",
        /// Text after the JSON block.
        TextAfterBlock => "text_after_block",
        /// The block is not JSON.
        InvalidJson => "invalid_json",
        /// A comment inside the JSON.
        JsonComment => "json_comment",
        /// A trailing comma.
        TrailingComma => "trailing_comma",
        /// `undefined` as a value.
        UndefinedValue => "undefined_value",
        /// The reply is not a JSON object.
        NotAnObject => "not_an_object",
        /// A required key is missing.
        MissingKey => "missing_key",
        /// A key the contract does not have.
        UnknownKey => "unknown_key",
        /// A value of the wrong JSON type.
        WrongType => "wrong_type",
        /// A `status` the contract does not have.
        InvalidStatus => "invalid_status",
        /// An empty `summary`.
        EmptySummary => "empty_summary",
        /// A `summary` over several lines.
        SummaryNotOneSentence => "summary_not_one_sentence",
        /// A reported path that fails the path checks (with `--strict-paths`).
        FilteredPath => "filtered_path",
        /// An executor reply's path list over `[limits] files`.
        LimitExceeded => "limit_exceeded",
        /// Warning: CRLF line ends.
        CrlfLineEndings => "crlf_line_endings",
        /// Warning: a byte order mark.
        ByteOrderMark => "byte_order_mark",
        /// Warning: several sentences on one line.
        SummaryMultipleSentences => "summary_multiple_sentences",
        /// Warning: `neededChanges` disagrees with the lists.
        NeededChangesInconsistent => "needed_changes_inconsistent",
        /// The agent reply is not JSON.
        NotJson => "not_json",
        /// Prose around the JSON of an agent reply.
        TextOutsideJson => "text_outside_json",
        /// A required field of the envelope is missing.
        MissingField => "missing_field",
        /// A required field is empty.
        EmptyField => "empty_field",
        /// `null` where a value is required.
        NullValue => "null_value",
        /// `agent` is not the agent asked.
        AgentMismatch => "agent_mismatch",
        /// `version` is not like `"1.0"`.
        InvalidVersion => "invalid_version",
        /// No operations are registered for the agent.
        UnknownAgent => "unknown_agent",
        /// `operation` is not in the agent's registry.
        UnknownOperation => "unknown_operation",
        /// `operation` is not the operation asked.
        OperationMismatch => "operation_mismatch",
        /// A partial reply without warnings.
        EmptyWarnings => "empty_warnings",
        /// A warning `type` outside the contract's three.
        InvalidWarningType => "invalid_warning_type",
        /// An `error_type` outside the contract's six.
        InvalidErrorType => "invalid_error_type",
        /// An error reply without recovery suggestions.
        EmptyRecoverySuggestions => "empty_recovery_suggestions",
        /// `metadata.error_timestamp` is not RFC 3339.
        InvalidTimestamp => "invalid_timestamp",
        /// A score, percentage or count sent as a string.
        NumberAsString => "number_as_string",
        /// `"true"` or `"false"` sent as a string.
        BooleanAsString => "boolean_as_string",
        /// A negative count or total.
        NegativeCount => "negative_count",
        /// A fractional count or total.
        NotAnInteger => "not_an_integer",
        /// Warning: the agent reply is one fenced block.
        FencedReply => "fenced_reply",
        /// Warning: a field the envelope does not have.
        UnknownField => "unknown_field",
    }
}

/// One contract violation or warning: a stable code, a message, and where (reply line, JSON
/// pointer) when known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code (`missing_key`, `trailing_comma`, `number_as_string`, ...).
    pub code: ReplyCode,
    /// One lowercase line: what is wrong and what to write instead.
    pub message: String,
    /// 1-based line of the reply, when known.
    pub line: Option<usize>,
    /// RFC 6901 JSON pointer into the reply object (`/result/score`), when it concerns a value.
    pub pointer: Option<String>,
}

impl Finding {
    /// A finding without a location.
    #[must_use]
    pub fn new(code: ReplyCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), line: None, pointer: None }
    }

    /// A finding on reply line `line`.
    #[must_use]
    pub fn at_line(code: ReplyCode, message: impl Into<String>, line: usize) -> Self {
        Self::new(code, message).line(Some(line))
    }

    /// Set the line.
    #[must_use]
    pub fn line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }

    /// Set the JSON pointer.
    #[must_use]
    pub fn pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }
}

/// Where keys are written in a block of JSON text, for messages. A key's line is the first
/// line holding `"key":`; good enough for the flat objects of the contracts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyLines<'a> {
    pub content: &'a str,
    pub first_line: usize,
}

impl KeyLines<'_> {
    pub fn of(&self, key: &str) -> Option<usize> {
        let quoted = serde_json::to_string(key).ok()?;
        self.content
            .split('\n')
            .position(|line| {
                line.find(&quoted)
                    .is_some_and(|at| line[at + quoted.len()..].trim_start().starts_with(':'))
            })
            .map(|i| self.first_line + i)
    }
}

/// A pointer as messages show it: `warnings/0/type`, `agent`.
pub(crate) fn shown(pointer: &str) -> &str {
    pointer.strip_prefix('/').unwrap_or(pointer)
}

/// A JSON value's type in words, quoting short strings (`the string "true"`).
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() <= 40 => {
            format!("the string {}", Value::from(s.as_str()))
        }
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// `"; did you mean 'x'?"` for a near miss among `known`, else nothing.
pub(crate) fn suggest(key: &str, known: &[&str]) -> String {
    let fold = |s: &str| s.to_ascii_lowercase().replace(['_', '-'], "");
    known
        .iter()
        .map(|k| (strsim::normalized_levenshtein(&fold(key), &fold(k)), k))
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| format!("; did you mean '{k}'?"))
        .unwrap_or_default()
}

/// Escape one reference token for a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(crate) fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The `[contract]` table of `.patchgate.toml`. A key left out keeps the specification's default.
///
/// ```toml
/// [contract]
/// allowed_dirs = ["docs/tickets", "tests", "src", ".claude"]
/// branch_patterns = ['^[a-z]+/[a-z0-9-]+$', '^main$']
///
/// [contract.ticket_patterns]
/// story = '^STORY-\d{4}\.\d+\.\d+$'
///
/// [contract.operations]
/// ticket-analyzer = ["story-deep", "ticket-completeness"]
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContractConfig {
    /// Ticket kind -> regex matching the whole id; replaces the agent contract's
    /// `TICKET_ID_PATTERNS`.
    pub ticket_patterns: Option<BTreeMap<String, String>>,
    /// Regexes a branch name must match one of (on top of git's rules); replaces the agent
    /// contract's three shapes. `[]` means git's rules only.
    pub branch_patterns: Option<Vec<String>>,
    /// Agent -> operations; replaces the agent contract's `AGENT_OPERATIONS`.
    pub operations: Option<BTreeMap<String, Vec<String>>>,
    /// Directories every `path` argument must lie in (the agent contract's `ALLOWED_DIRECTORIES`);
    /// empty (the default) means no restriction.
    pub allowed_dirs: Vec<String>,
    /// `escape-md --sanitize`'s default limit in characters (the agent contract: 10000).
    pub max_length: Option<usize>,
}

/// The contract checks could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContractError {
    /// A configured pattern is not a valid regex.
    #[error("[contract] {key}: '{pattern}' is not a valid regex ({message}); fix the pattern")]
    InvalidPattern {
        /// The key holding it.
        key: String,
        /// The pattern as written.
        pattern: String,
        /// The regex compiler's message.
        message: String,
    },
}
