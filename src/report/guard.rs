//! The guard's answer in each agent's hook protocol.
//!
//! Every protocol but `generic` answers with exit 0 and a JSON deny (the form the reference
//! recommends: never JSON together with exit 2). An allow says nothing the agent would read as
//! an approval: `{}` for Claude Code, Codex and Gemini CLI (an explicit "allow" would skip the
//! user's permission prompts), `{"permission": "allow"}` for Cursor, `{"cancel": false}` for
//! Cline. A payload of no known protocol gets exit 2 and the reason on stderr, which every
//! agent reads as "blocked". A corrected call (`[guard] correct`) is allowed with its rewritten
//! input, the model told what changed, and the user too where the agent shows a
//! `systemMessage`.

use super::Exit;
use crate::contract::RejectedPattern;
use crate::guard::{Correction, Denial, DenyCode, Outcome, Protocol, Reply};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

/// What to print on stdout and how to exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardAnswer {
    /// One line of JSON, or nothing.
    pub stdout: String,
    /// A reason for stderr (a payload no protocol was found for, which every agent reads as
    /// "blocked" with exit 2).
    pub stderr: Option<String>,
    /// The exit status.
    pub exit: Exit,
}

/// Render `outcome` in its protocol.
#[must_use]
pub fn render(outcome: &Outcome) -> GuardAnswer {
    let Some(protocol) = outcome.protocol else {
        let reason = outcome.denial.as_ref().map_or("", |d| d.message.as_str());
        let stderr = Some(format!("patchgate: guard: {reason}"));
        return GuardAnswer { stdout: String::new(), stderr, exit: Exit::InputRefused };
    };
    let value = match (&outcome.reply, protocol) {
        (_, Protocol::Generic) => generic(outcome),
        (Reply::PreTool, Protocol::ClaudeCode) => claude(outcome, false),
        (Reply::PreTool, Protocol::Codex) => claude(outcome, true),
        (Reply::PreTool, Protocol::GeminiCli) => gemini(outcome),
        (Reply::PreTool, Protocol::Cursor) => cursor(outcome),
        (Reply::PreTool, Protocol::Cline) => cline(outcome),
        (Reply::PostTool(event), _) => after(protocol, event, after_text(outcome).as_deref()),
        (Reply::Quiet, _) => after(protocol, "", None),
    };
    let exit = match (protocol, outcome.is_allowed()) {
        (Protocol::Generic, false) => Exit::InputRefused,
        _ => Exit::Accepted,
    };
    GuardAnswer { stdout: super::to_json_line(&value), stderr: None, exit }
}

/// What an after-call answer tells the model: a correction's message, the strategy shift, or
/// both.
fn after_text(outcome: &Outcome) -> Option<String> {
    let parts: Vec<&str> = [&outcome.context, &outcome.instruction]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// The answer to an event after a call (or one the guard only notes): nothing, or the
/// strategy shift (or a correction's message) as context the agent hands the model.
fn after(protocol: Protocol, event: &str, instruction: Option<&str>) -> Value {
    match (protocol, instruction) {
        (Protocol::Cline, Some(text)) => json!({"cancel": false, "contextModification": text}),
        (Protocol::Cline, None) => json!({"cancel": false}),
        (Protocol::Cursor, _) => json!({"permission": "allow"}),
        (_, Some(text)) => {
            json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})
        }
        (_, None) => json!({}),
    }
}

/// The generic protocol's answer, patchgate's own shape (`schemas/guard-answer.schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GenericAnswer {
    /// `allow` (exit 0) or `deny` (exit 2).
    pub decision: Decision,
    /// Why the call is denied; `null` when allowed.
    pub error: Option<GuardError>,
    /// Whether this is the second hallucinated path in a row, so the agent must change course.
    pub strategy_shift: bool,
    /// What the agent should do next: the strategy-shift instruction when `strategy_shift`, a
    /// one-line reminder at each later miss of the same streak, else `null`.
    pub instruction: Option<String>,
    /// Consecutive hallucinated paths in this session, this call included.
    pub hallucination_count: u32,
}

/// See [`GenericAnswer::decision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// The call may run.
    Allow,
    /// The call must not run.
    Deny,
}

/// A denial in [`GenericAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GuardError {
    /// Stable code (`PATH_NOT_FOUND`, `INVALID_AGENT_INPUT`, ...).
    pub code: DenyCode,
    /// One paragraph for the agent: what is wrong, what exists, what to do.
    pub message: String,
    /// The offending argument as the agent wrote it.
    pub path: Option<String>,
    /// The closest existing parent directory (`PATH_NOT_FOUND` only).
    pub parent: Option<String>,
    /// That directory's entries, directories marked with a trailing `/`, bounded.
    pub parent_listing: Vec<String>,
    /// Entries of the parent not shown in `parent_listing`.
    pub parent_listing_omitted: usize,
    /// The most likely intended files, best first.
    pub suggestions: Vec<String>,
    /// The rejected argument (`INVALID_AGENT_INPUT` only, the argument checks' envelope field).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    /// The rejected pattern (`INVALID_AGENT_INPUT` only: `path_traversal`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected_pattern: Option<RejectedPattern>,
}

/// patchgate's own shape: `{decision, error, strategy_shift, instruction}` plus the count.
fn generic(outcome: &Outcome) -> Value {
    let answer = GenericAnswer {
        decision: if outcome.is_allowed() { Decision::Allow } else { Decision::Deny },
        error: outcome.denial.as_ref().map(error_object),
        strategy_shift: outcome.strategy_shift,
        instruction: outcome.instruction.clone(),
        hallucination_count: outcome.hallucination_count,
    };
    serde_json::to_value(answer).expect("the answer serializes: string keys only")
}

fn error_object(denial: &Denial) -> GuardError {
    let is_invalid_input = denial.code == DenyCode::InvalidAgentInput;
    GuardError {
        code: denial.code,
        message: denial.message.clone(),
        path: denial.path.clone(),
        parent: denial.parent.clone(),
        parent_listing: denial.parent_listing.clone(),
        parent_listing_omitted: denial.parent_listing_omitted,
        suggestions: denial.suggestions.clone(),
        input_value: if is_invalid_input { denial.path.clone() } else { None },
        rejected_pattern: if is_invalid_input { denial.rejected_pattern } else { None },
    }
}

/// The denial message followed by the strategy shift (or reminder), for protocols with one text.
fn reason_with_instruction(denial: &Denial, outcome: &Outcome) -> String {
    match &outcome.instruction {
        Some(instruction) => format!("{}\n\n{instruction}", denial.message),
        None => denial.message.clone(),
    }
}

/// Claude Code, and Codex. Claude Code hands `additionalContext` to the model as its own
/// reminder beside the reason; Codex would show it as a second message, so there the
/// instruction rides in the reason only (the model reads it once).
fn claude(outcome: &Outcome, is_codex: bool) -> Value {
    if let Some(correction) = &outcome.correction {
        return claude_corrected(correction, is_codex);
    }
    let Some(denial) = &outcome.denial else { return json!({}) };
    let reason =
        if is_codex { reason_with_instruction(denial, outcome) } else { denial.message.clone() };
    let mut specific = json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    });
    if let (Some(instruction), false) = (&outcome.instruction, is_codex) {
        specific["additionalContext"] = json!(instruction);
    }
    json!({ "hookSpecificOutput": specific })
}

/// A corrected call: the rewritten input, the model's message as context. Codex runs a
/// rewrite only with an explicit `allow`; Claude Code takes the rewrite without one, so its
/// permission rules still apply to the corrected call.
fn claude_corrected(correction: &Correction, is_codex: bool) -> Value {
    let mut specific = json!({
        "hookEventName": "PreToolUse",
        "updatedInput": correction.input,
        "additionalContext": correction.model_message(),
    });
    if is_codex {
        specific["permissionDecision"] = json!("allow");
    }
    json!({"hookSpecificOutput": specific, "systemMessage": correction.user_message()})
}

/// Gemini CLI merges `tool_input` into the call and tells its model only that parameters were
/// changed; what changed arrives with the after-call answer (the session keeps it).
fn gemini(outcome: &Outcome) -> Value {
    if let Some(correction) = &outcome.correction {
        return json!({
            "decision": "allow",
            "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": correction.input},
            "systemMessage": correction.user_message(),
        });
    }
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

/// Cline. Its SDK (3.x) ends the whole run on `cancel`, so a denied call with a harmless
/// replacement is rewritten instead and the reason is the hook's context; `cancel` is kept for
/// calls on the gate itself and for the older hooks, where it refuses one call.
fn cline(outcome: &Outcome) -> Value {
    if let Some(correction) = &outcome.correction {
        return json!({
            "cancel": false,
            "overrideInput": correction.input,
            "contextModification": correction.model_message(),
        });
    }
    let Some(denial) = &outcome.denial else { return json!({"cancel": false}) };
    if let Some(replacement) = &outcome.replacement {
        return json!({
            "overrideInput": replacement,
            "contextModification": reason_with_instruction(denial, outcome),
        });
    }
    let mut answer = json!({"cancel": true, "errorMessage": denial.message});
    if let Some(instruction) = &outcome.instruction {
        answer["contextModification"] = json!(instruction);
    }
    answer
}
