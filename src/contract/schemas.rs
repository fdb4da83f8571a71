//! The JSON Schemas of the two reply contracts, generated from the Rust types so they cannot
//! drift (a test compares them with the committed `schemas/*.json`; `PATCHGATE_BLESS=1`
//! rewrites them).

use super::{AgentEnvelope, ExecutorOutput};
use crate::report::json_schema;

/// `(file name under schemas/, pretty JSON)` for the executor reply and the agent envelope.
#[must_use]
pub fn json_schemas() -> Vec<(&'static str, String)> {
    vec![
        ("executor-output.schema.json", json_schema::<ExecutorOutput>()),
        ("agent-envelope.schema.json", json_schema::<AgentEnvelope>()),
    ]
}
