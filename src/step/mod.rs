//! The two inputs of `validate`: the orchestrator's [`Step`] and the executor's
//! [`ExecutorResult`]. The JSON Schemas in `schemas/` are generated from these types.
//!
//! Both are deserialised leniently into `serde_json::Value` first by callers that must report
//! schema violations precisely; these types are the contract those checks enforce.

use crate::finding::codes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

codes! {
    /// The executor's mode for one step.
    Mode {
        /// Carry out the step.
        Apply => "apply",
        /// Fix a regression introduced by the step's earlier `apply` run.
        FixRegression => "fix_regression",
    }
}

/// One plan step, written by the orchestrator. Only `description` is required.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Step {
    /// The step's id, for reports and the rejection store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What to change and where.
    pub description: String,
    /// The intended mode; the result's mode must match it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Globs (`**` allowed) on repo-relative paths the patch may touch; absent means any path
    /// not excluded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_files: Option<Vec<String>>,
    /// Globs the patch may never touch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_paths: Vec<String>,
    /// In `fix_regression`: the files the earlier `apply` run changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_files: Option<Vec<String>>,
    /// In `fix_regression`: the patch of the earlier `apply` run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_patch: Option<String>,
    /// Post-conditions checked on the patched tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expect>,
    /// The revision the patch applies to (default `HEAD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

/// A post-condition on one file of the patched tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Repo-relative path of the file.
    pub file: String,
    /// A regex (Rust `regex` syntax) that must match the patched content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub present: Option<String>,
    /// A regex that must not match the patched content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<String>,
}

/// One executor call's result (`execute-step.schema.json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExecutorResult {
    /// `apply` or `fix_regression`; any other text is a `mode` violation, not a schema one.
    pub mode: String,
    /// Whether the executor says it carried out the step.
    pub success: bool,
    /// The unified diff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// Files the patch writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files_written: Option<Vec<String>>,
    /// Files the executor read or wrote; a superset of `filesWritten`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files_touched: Option<Vec<String>>,
    /// One sentence on what was done or why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}
