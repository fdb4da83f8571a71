//! The guard's answer in each agent's hook protocol.
//!
//! Every protocol but `generic` answers with exit 0 and a JSON deny (the form the reference
//! recommends: never JSON together with exit 2). An allow says nothing the agent would read as
//! an approval: `{}` for Claude Code, Codex and Gemini CLI (an explicit "allow" would skip the
//! user's permission prompts), `{"permission": "allow"}` for Cursor, `{"cancel": false}` for
//! Cline.

use super::Exit;
use crate::guard::{Denial, DenyCode, Outcome, Protocol};
use serde_json::{Value, json};

/// What to print on stdout and how to exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardAnswer {
    /// One line of JSON.
    pub stdout: String,
    /// The exit status.
    pub exit: Exit,
}

/// Render `outcome` in its protocol.
#[must_use]
pub fn render(outcome: &Outcome) -> GuardAnswer {
    let value = match outcome.protocol {
        Protocol::Generic => generic(outcome),
        Protocol::ClaudeCode => claude(outcome, false),
        Protocol::Codex => claude(outcome, true),
        Protocol::GeminiCli => gemini(outcome),
        Protocol::Cursor => cursor(outcome),
        Protocol::Cline => cline(outcome),
    };
    let exit = match (outcome.protocol, outcome.is_allowed()) {
        (Protocol::Generic, false) => Exit::InputRefused,
        _ => Exit::Accepted,
    };
    GuardAnswer { stdout: super::to_json_line(&value), exit }
}

/// patchgate's own shape: `{decision, error, strategy_shift, instruction}` plus the count.
fn generic(outcome: &Outcome) -> Value {
    json!({
        "decision": if outcome.is_allowed() { "allow" } else { "deny" },
        "error": outcome.denial.as_ref().map(error_object),
        "strategy_shift": outcome.strategy_shift,
        "instruction": outcome.instruction,
        "hallucination_count": outcome.hallucination_count,
    })
}

fn error_object(denial: &Denial) -> Value {
    let mut error = json!({
        "code": denial.code.as_str(),
        "message": denial.message,
        "path": denial.path,
        "parent": denial.parent,
        "parent_listing": denial.parent_listing,
        "parent_listing_omitted": denial.parent_listing_omitted,
        "suggestions": denial.suggestions,
    });
    if denial.code == DenyCode::InvalidAgentInput {
        error["input_value"] = json!(denial.path);
        error["rejected_pattern"] = json!(denial.rejected_pattern);
    }
    error
}

/// The denial message followed by the strategy-shift instruction, for protocols with one text.
fn reason_with_instruction(denial: &Denial, outcome: &Outcome) -> String {
    match &outcome.instruction {
        Some(instruction) => format!("{}\n\n{instruction}", denial.message),
        None => denial.message.clone(),
    }
}

/// Claude Code (and Codex, whose `additionalContext` on a deny is not documented as reaching
/// the model, so the instruction also rides in the reason).
fn claude(outcome: &Outcome, is_codex: bool) -> Value {
    let Some(denial) = &outcome.denial else { return json!({}) };
    let reason =
        if is_codex { reason_with_instruction(denial, outcome) } else { denial.message.clone() };
    let mut specific = json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    });
    if let Some(instruction) = &outcome.instruction {
        specific["additionalContext"] = json!(instruction);
    }
    json!({ "hookSpecificOutput": specific })
}

fn gemini(outcome: &Outcome) -> Value {
    match &outcome.denial {
        Some(denial) => {
            json!({"decision": "deny", "reason": reason_with_instruction(denial, outcome)})
        }
        None => json!({}),
    }
}

fn cursor(outcome: &Outcome) -> Value {
    let Some(denial) = &outcome.denial else { return json!({"permission": "allow"}) };
    let user = match &denial.path {
        Some(path) => format!("patchgate blocked the call: {} '{path}'", denial.code.as_str()),
        None => format!("patchgate blocked the call: {}", denial.code.as_str()),
    };
    json!({
        "permission": "deny",
        "agent_message": reason_with_instruction(denial, outcome),
        "user_message": user,
    })
}

fn cline(outcome: &Outcome) -> Value {
    let Some(denial) = &outcome.denial else { return json!({"cancel": false}) };
    let mut answer = json!({"cancel": true, "errorMessage": denial.message});
    if let Some(instruction) = &outcome.instruction {
        answer["contextModification"] = json!(instruction);
    }
    answer
}
