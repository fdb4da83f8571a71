//! The JSON Schemas of `validate`'s inputs, generated from the Rust types so they cannot drift
//! (a test compares them with the committed `schemas/*.json`).

use crate::step::{ExecutorResult, Step};

/// `(file name under schemas/, pretty JSON)` for every input schema.
#[must_use]
pub fn json_schemas() -> Vec<(&'static str, String)> {
    let pretty = |schema: schemars::Schema| {
        let mut text = crate::report::to_json_pretty(&schema);
        text.push('\n');
        text
    };
    vec![
        ("execute-step.schema.json", pretty(schemars::schema_for!(ExecutorResult))),
        ("step.schema.json", pretty(schemars::schema_for!(Step))),
    ]
}
