//! The agent contract's agent envelope as types: `status` success | partial | error, `agent`,
//! `version`, `operation` or `error_type`, `result`, `warnings`, `metadata`; the wire names the
//! checks share ([`ERROR_TYPES`], [`WARNING_TYPES`], [`ENVELOPE_KEYS`]) and what the caller
//! expects. The check of a reply against them is [`super::agent_reply`].

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
    /// One of the specification's standard error types.
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

/// The specification's standard error types.
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

/// The wire names of [`AgentErrorType`], in the specification's order.
pub const ERROR_TYPES: [&str; 6] =
    ["missing_file", "invalid_input", "parse_error", "access_denied", "timeout", "internal_error"];

/// The wire names of [`AgentWarningType`].
pub const WARNING_TYPES: [&str; 3] = ["missing_data", "degraded_analysis", "incomplete_context"];

/// The top-level keys the specification's envelopes use.
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
    /// The most items one list of the reply may hold (`[limits] files`, as for the file
    /// entries of a patch); `None`: no bound.
    pub max_list: Option<usize>,
}
