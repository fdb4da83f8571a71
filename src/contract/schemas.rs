//! The JSON Schemas of the two reply contracts, generated from the Rust types so they cannot
//! drift (a test compares them with the committed `schemas/*.json`; `PATCHGATE_BLESS=1`
//! rewrites them).

use super::{AgentEnvelope, ExecutorOutput};

/// `(file name under schemas/, pretty JSON)` for the executor reply and the agent envelope.
#[must_use]
pub fn json_schemas() -> Vec<(&'static str, String)> {
    let pretty = |schema: schemars::Schema| {
        let mut text = crate::report::to_json_pretty(&schema);
        text.push('\n');
        text
    };
    vec![
        ("executor-output.schema.json", pretty(schemars::schema_for!(ExecutorOutput))),
        ("agent-envelope.schema.json", pretty(schemars::schema_for!(AgentEnvelope))),
    ]
}
