//! Output of the contract commands: the seed-003 envelope for argument checks, and the reports
//! of `contract executor-output`, `contract agent` and `paths`.

use super::Envelope;
use crate::contract::ArgOutcome;
use serde_json::{Map, Value};

/// The wire code of a rejected argument (seed 003).
pub const INVALID_AGENT_INPUT: &str = "INVALID_AGENT_INPUT";

/// The seed-003 envelope for one argument check: `{"ok": true, "data": {"value": ...}}`, or
/// `{"ok": false, "error": {"code": "INVALID_AGENT_INPUT", "message", "input_value",
/// "rejected_pattern"}}`.
#[must_use]
pub fn arg_envelope(outcome: &ArgOutcome) -> Envelope {
    match outcome {
        ArgOutcome::Accepted(accepted) => Envelope::success(
            serde_json::to_value(accepted).expect("a string and an optional string serialize"),
        ),
        ArgOutcome::Rejected(r) => {
            let mut extra = Map::new();
            extra.insert("input_value".into(), Value::from(r.input_value.as_str()));
            extra.insert("rejected_pattern".into(), Value::from(r.pattern.as_str()));
            Envelope::failure(INVALID_AGENT_INPUT, &r.message, extra)
        }
    }
}
