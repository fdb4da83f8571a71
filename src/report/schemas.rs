//! The JSON Schemas patchgate publishes, generated from the Rust types so they cannot drift (a
//! test compares them with the committed `schemas/*.json`; `PATCHGATE_BLESS=1` rewrites them):
//! `validate`'s inputs, its verdict and full report, the two reply contracts, the envelope
//! of every other command's JSON, `validate --batch`'s input and answer lines, and the input
//! schemas of `patchgate mcp`'s tools (`schemas/mcp/`, each self-contained).

use super::batch::BatchAnswer;
use super::guard::GenericAnswer;
use super::mcp::{CheckPathsArgs, ParsePatchArgs, RepairPatchArgs, ValidateResultArgs};
use super::{Envelope, json_output_schema, json_schema};
use crate::batch::ItemSchema;
use crate::contract::{AgentEnvelope, ExecutorOutput};
use crate::rule::{Report, Verdict};
use crate::step::{ExecutorResult, Step};

/// `(file name under schemas/, pretty JSON)` for every published schema.
#[must_use]
pub fn json_schemas() -> Vec<(&'static str, String)> {
    vec![
        ("execute-step.schema.json", json_schema::<ExecutorResult>()),
        ("step.schema.json", json_schema::<Step>()),
        ("executor-output.schema.json", json_schema::<ExecutorOutput>()),
        ("agent-envelope.schema.json", json_schema::<AgentEnvelope>()),
        ("verdict.schema.json", json_output_schema::<Verdict>()),
        ("report.schema.json", json_output_schema::<Report>()),
        ("guard-answer.schema.json", json_output_schema::<GenericAnswer>()),
        ("envelope.schema.json", json_output_schema::<Envelope>()),
        ("batch-item.schema.json", json_schema::<ItemSchema>()),
        ("batch-answer.schema.json", json_output_schema::<BatchAnswer<'_>>()),
        ("mcp/validate_result.schema.json", tool_input_schema::<ValidateResultArgs>()),
        ("mcp/repair_patch.schema.json", tool_input_schema::<RepairPatchArgs>()),
        ("mcp/parse_patch.schema.json", tool_input_schema::<ParsePatchArgs>()),
        ("mcp/check_paths.schema.json", tool_input_schema::<CheckPathsArgs>()),
    ]
}

/// The input schema of an MCP tool: one self-contained object schema, every definition
/// written where it is used (agents' tool-schema readers differ in how far they follow
/// `$ref`).
fn tool_input_schema<T: schemars::JsonSchema>() -> String {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
    });
    let mut text = super::to_json_pretty(&settings.into_generator().into_root_schema_for::<T>());
    text.push('\n');
    text
}
