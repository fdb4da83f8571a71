//! The JSON Schemas of `validate`'s inputs, generated from the Rust types so they cannot drift
//! (a test compares them with the committed `schemas/*.json`).

use crate::report::json_schema;
use crate::step::{ExecutorResult, Step};

/// `(file name under schemas/, pretty JSON)` for every input schema.
#[must_use]
pub fn json_schemas() -> Vec<(&'static str, String)> {
    vec![
        ("execute-step.schema.json", json_schema::<ExecutorResult>()),
        ("step.schema.json", json_schema::<Step>()),
    ]
}
