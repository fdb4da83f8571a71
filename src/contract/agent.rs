//! Seed 004's agent envelope: `status` success | partial | error, `agent`, `version`,
//! `operation` or `error_type`, `result`, `warnings`, `metadata`, and the data-type rules over
//! the whole reply.
//!
//! The seed's parser is `json.loads(output)`: the reply is raw JSON. A reply that is one fenced
//! `` ```json `` block and nothing else is read too, with a `fenced_reply` warning, because models
//! fence by habit and every orchestrator strips it; prose around the JSON is a violation.

use super::reply::{self, Block, ReplyOutcome as _};
use super::{ArgPolicy, Finding, KeyLines, datatype};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The envelope, by `status` (what `schemas/agent-envelope.schema.json` is generated from).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AgentEnvelope {
    /// The operation completed.
    Success(AgentSuccess),
    /// The operation completed with non-critical issues.
    Partial(AgentPartial),
    /// The agent could not complete the operation.
    Error(AgentError),
}

/// `status: success`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentSuccess {
    /// The agent's name.
    pub agent: String,
    /// The contract version (`"1.0"`).
    #[schemars(regex(pattern = r"^[0-9]+(\.[0-9]+)*$"))]
    pub version: String,
    /// The operation performed.
    pub operation: String,
    /// Agent-specific results.
    pub result: Map<String, Value>,
    /// Non-critical issues, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AgentWarning>,
    /// Execution facts.
    pub metadata: AgentMetadata,
}

/// `status: partial`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentPartial {
    /// The agent's name.
    pub agent: String,
    /// The contract version (`"1.0"`).
    #[schemars(regex(pattern = r"^[0-9]+(\.[0-9]+)*$"))]
    pub version: String,
    /// The operation performed.
    pub operation: String,
    /// The partial results.
    pub result: Map<String, Value>,
    /// What is missing and how to get it; at least one.
    #[schemars(length(min = 1))]
    pub warnings: Vec<AgentWarning>,
    /// Execution facts.
    pub metadata: AgentMetadata,
}

/// `status: error`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// The contract version (`"1.0"`).
    #[schemars(regex(pattern = r"^[0-9]+(\.[0-9]+)*$"))]
    pub version: String,
    /// One of the seed's standard error types.
    pub error_type: AgentErrorType,
    /// A clear, user-facing description.
    #[schemars(length(min = 1))]
    pub message: String,
    /// What was being attempted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Map<String, Value>>,
    /// Data collected before the failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_results: Option<Map<String, Value>>,
    /// Actionable steps; at least one.
    #[schemars(length(min = 1))]
    pub recovery_suggestions: Vec<String>,
    /// Execution facts.
    pub metadata: AgentMetadata,
}

/// One entry of `warnings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AgentWarning {
    /// What kind of degradation.
    #[serde(rename = "type")]
    pub kind: AgentWarningType,
    /// Clear description of the issue.
    pub message: String,
    /// What functionality is affected.
    pub impact: String,
    /// How to get complete results.
    pub recovery: String,
}

/// `warnings[].type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AgentWarningType {
    /// Data the analysis needed is missing.
    MissingData,
    /// The analysis ran with reduced functionality.
    DegradedAnalysis,
    /// Context was partly unavailable.
    IncompleteContext,
}

/// The seed's standard error types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AgentErrorType {
    /// A required file does not exist.
    MissingFile,
    /// Input parameters are malformed or incomplete.
    InvalidInput,
    /// A file exists but its content is malformed.
    ParseError,
    /// Permissions prevent reading or writing.
    AccessDenied,
    /// The operation exceeded its time limit.
    Timeout,
    /// An unexpected agent failure.
    InternalError,
}

/// `metadata`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentMetadata {
    /// Wall time in milliseconds.
    pub execution_time_ms: u64,
    /// Everything else the agent reports (`files_read`, `completeness`, `error_timestamp`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The wire names of [`AgentErrorType`], in the seed's order.
pub const ERROR_TYPES: [&str; 6] =
    ["missing_file", "invalid_input", "parse_error", "access_denied", "timeout", "internal_error"];

/// The wire names of [`AgentWarningType`].
pub const WARNING_TYPES: [&str; 3] = ["missing_data", "degraded_analysis", "incomplete_context"];

/// The top-level keys the seed's envelopes use.
pub const ENVELOPE_KEYS: [&str; 12] = [
    "status",
    "agent",
    "version",
    "operation",
    "result",
    "warnings",
    "metadata",
    "error_type",
    "message",
    "context",
    "partial_results",
    "recovery_suggestions",
];

/// What the caller asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentExpect {
    /// The agent that must have answered.
    pub agent: String,
    /// The operation that was requested, if the caller knows it.
    pub operation: Option<String>,
}

/// The verdict on one agent reply.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentOutcome {
    /// Whether the reply keeps the envelope contract.
    pub ok: bool,
    /// The reply's `status`, when it is one of the three.
    pub status: Option<String>,
    /// What breaks the contract, each with its JSON pointer.
    pub violations: Vec<Finding>,
    /// What is odd but allowed.
    pub warnings: Vec<Finding>,
}

/// Check a whole agent reply against seed 004's envelope; `policy` holds the operation registry.
#[must_use]
pub fn check_agent_reply(bytes: &[u8], expect: &AgentExpect, policy: &ArgPolicy) -> AgentOutcome {
    reply::check_reply(bytes, |text| check_text(text, expect, policy))
}

fn check_text(text: &str, expect: &AgentExpect, policy: &ArgPolicy) -> AgentOutcome {
    let mut out = AgentOutcome::default();
    let mut violations = Vec::new();
    let Some(block) = locate(text, &mut violations, &mut out.warnings) else {
        return out.finish_with(violations);
    };
    let read = reply::read_json(&block.content, block.content_line());
    violations.extend(read.findings);
    let Some(value) = read.value else {
        return out.finish_with(violations);
    };
    let lines = KeyLines { content: &block.content, first_line: block.content_line() };
    let mut envelope = super::envelope::check(&value, expect, policy);
    datatype::walk(&value, "", "", &mut envelope.violations);
    dedupe(&mut envelope.violations);
    for f in envelope.violations.iter_mut().chain(&mut envelope.warnings) {
        f.line = f.line.or_else(|| last_token(f.pointer.as_deref()).and_then(|k| lines.of(&k)));
    }
    // An `undefined` was read as null: one finding for it is enough.
    let undefined: Vec<Option<usize>> =
        violations.iter().filter(|f| f.code == "undefined_value").map(|f| f.line).collect();
    envelope.violations.retain(|f| f.code != "null_value" || !undefined.contains(&f.line));
    violations.extend(envelope.violations);
    out.warnings.extend(envelope.warnings);
    out.status = value
        .get("status")
        .and_then(Value::as_str)
        .filter(|s| matches!(*s, "success" | "partial" | "error"))
        .map(str::to_string);
    out.finish_with(violations)
}

impl reply::ReplyOutcome for AgentOutcome {
    fn findings_mut(&mut self) -> (&mut Vec<Finding>, &mut Vec<Finding>) {
        (&mut self.violations, &mut self.warnings)
    }

    fn set_ok(&mut self, ok: bool) {
        self.ok = ok;
    }
}

/// Raw JSON, or one fenced block with nothing around it.
fn locate(text: &str, violations: &mut Vec<Finding>, warnings: &mut Vec<Finding>) -> Option<Block> {
    if text.trim_start().starts_with(['{', '[']) {
        return Some(Block {
            info: String::new(),
            open_line: 0,
            close_line: None,
            content: text.to_string(),
        });
    }
    let blocks = reply::blocks(text);
    let json: Vec<&Block> = blocks.iter().filter(|b| b.is_json()).collect();
    let Some(&block) = json.first() else {
        let message = "the reply is not JSON; answer with the JSON envelope only";
        violations.push(Finding::at_line("not_json", message, 1));
        return None;
    };
    if json.len() > 1 {
        let lines: Vec<String> = json.iter().map(|b| b.open_line.to_string()).collect();
        let message = format!(
            "the reply has {} JSON blocks (lines {}); answer with one envelope",
            json.len(),
            lines.join(", ")
        );
        violations.push(Finding::at_line("multiple_json_blocks", message, json[1].open_line));
    }
    let outside = text.split('\n').enumerate().find(|(i, line)| {
        let n = i + 1;
        let inside = json.iter().any(|b| n >= b.open_line && b.close_line.is_none_or(|c| n <= c));
        !inside && !line.trim().is_empty()
    });
    if let Some((i, _)) = outside {
        let message = "text outside the JSON; the reply must be the JSON envelope only";
        violations.push(Finding::at_line("text_outside_json", message, i + 1));
    } else {
        let message = "the JSON is fenced in a code block; the contract asks for raw JSON";
        warnings.push(Finding::at_line("fenced_reply", message, block.open_line));
    }
    Some(block.clone())
}

/// Keep the first finding per (pointer, code): the envelope and data-type checks overlap on
/// `null` values.
fn dedupe(findings: &mut Vec<Finding>) {
    let mut seen = std::collections::BTreeSet::new();
    findings.retain(|f| seen.insert((f.pointer.clone(), f.code)));
}

fn last_token(pointer: Option<&str>) -> Option<String> {
    let token =
        pointer?.rsplit('/').find(|t| !t.is_empty() && !t.bytes().all(|b| b.is_ascii_digit()))?;
    Some(token.replace("~1", "/").replace("~0", "~"))
}
