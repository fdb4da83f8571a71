//! Checking an agent's reply against the agent contract's envelope ([`super::agent`]) and the
//! data-type rules over the whole reply.
//!
//! The specification's parser is `json.loads(output)`: the reply is raw JSON. A reply that is one
//! fenced `` ```json `` block and nothing else is read too, with a `fenced_reply` warning, because
//! models fence by habit and every orchestrator strips it; prose around the JSON is a violation.

use super::ReplyCode;
use super::agent::AgentExpect;
use super::reply::{self, Block, ReplyOutcome as _};
use super::{ArgPolicy, Finding, datatype, lists};
use serde::Serialize;
use serde_json::Value;

/// The verdict on one agent reply.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentOutcome {
    /// Whether the reply keeps the envelope contract.
    pub ok: bool,
    /// The reply's `status`, when it is one of the three.
    pub status: Option<String>,
    /// What breaks the contract, each with its JSON pointer.
    pub violations: Vec<Finding>,
    /// What is odd but allowed.
    pub warnings: Vec<Finding>,
}

/// Check a whole agent reply against the agent contract's envelope; `policy` holds the operation
/// registry.
#[must_use]
pub fn check_agent_reply(bytes: &[u8], expect: &AgentExpect, policy: &ArgPolicy) -> AgentOutcome {
    reply::check_reply(bytes, |text| check_text(text, expect, policy))
}

fn check_text(text: &str, expect: &AgentExpect, policy: &ArgPolicy) -> AgentOutcome {
    let mut out = AgentOutcome::default();
    let mut violations = Vec::new();
    let Some(block) = locate(text, &mut violations, &mut out.warnings) else {
        return out.finish_with(violations);
    };
    if let Some(pointer) = expect.max_list.and_then(|max| lists::first_over(&block.content, max)) {
        violations.push(over_limit(&block, &pointer, expect));
        return out.finish_with(violations);
    }
    let Some((value, lines)) = reply::block_json(&block, &mut violations) else {
        return out.finish_with(violations);
    };
    // A reply only the lenient reader reads is built before it can be bounded.
    if let Some(pointer) = expect.max_list.and_then(|max| lists::first_over_in(&value, max)) {
        violations.push(over_limit(&block, &pointer, expect));
        return out.finish_with(violations);
    }
    let mut envelope = super::envelope::check(&value, expect, policy);
    datatype::walk(&value, "", "", &mut envelope.violations);
    dedupe(&mut envelope.violations);
    for f in envelope.violations.iter_mut().chain(&mut envelope.warnings) {
        f.line = f.line.or_else(|| last_token(f.pointer.as_deref()).and_then(|k| lines.of(&k)));
    }
    // An `undefined` was read as null: one finding for it is enough.
    let undefined: Vec<Option<usize>> =
        violations.iter().filter(|f| f.code == ReplyCode::UndefinedValue).map(|f| f.line).collect();
    envelope.violations.retain(|f| f.code != ReplyCode::NullValue || !undefined.contains(&f.line));
    violations.extend(envelope.violations);
    out.warnings.extend(envelope.warnings);
    out.status = value
        .get("status")
        .and_then(Value::as_str)
        .filter(|s| matches!(*s, "success" | "partial" | "error"))
        .map(str::to_string);
    out.finish_with(violations)
}

/// The violation for the list at `pointer`, over `expect.max_list` items.
fn over_limit(block: &Block, pointer: &str, expect: &AgentExpect) -> Finding {
    let max = expect.max_list.unwrap_or_default();
    let shown = if pointer.is_empty() { "/" } else { super::shown(pointer) };
    let message = format!(
        "'{shown}' lists more than {max} items, over the limit of {max} ([limits] files in \
         .patchgate.toml; raise it if this reply is intended)"
    );
    let lines = super::KeyLines { content: &block.content, first_line: block.content_line() };
    let line = last_token(Some(pointer)).and_then(|k| lines.of(&k));
    Finding::new(ReplyCode::LimitExceeded, message).line(line).pointer(pointer)
}

impl reply::ReplyOutcome for AgentOutcome {
    fn findings_mut(&mut self) -> (&mut Vec<Finding>, &mut Vec<Finding>) {
        (&mut self.violations, &mut self.warnings)
    }

    fn set_ok(&mut self, ok: bool) {
        self.ok = ok;
    }
}

/// Raw JSON, or one fenced block with nothing around it.
fn locate(text: &str, violations: &mut Vec<Finding>, warnings: &mut Vec<Finding>) -> Option<Block> {
    if text.trim_start().starts_with(['{', '[']) {
        return Some(Block {
            info: String::new(),
            open_line: 0,
            close_line: None,
            content: text.to_string(),
        });
    }
    let blocks = reply::blocks(text);
    let json: Vec<&Block> = blocks.iter().filter(|b| b.is_json()).collect();
    let Some(&block) = json.first() else {
        let message = "the reply is not JSON; answer with the JSON envelope only";
        violations.push(Finding::at_line(ReplyCode::NotJson, message, 1));
        return None;
    };
    if json.len() > 1 {
        let lines: Vec<String> = json.iter().map(|b| b.open_line.to_string()).collect();
        let message = format!(
            "the reply has {} JSON blocks (lines {}); answer with one envelope",
            json.len(),
            lines.join(", ")
        );
        violations.push(Finding::at_line(
            ReplyCode::MultipleJsonBlocks,
            message,
            json[1].open_line,
        ));
    }
    let outside = text.split('\n').enumerate().find(|(i, line)| {
        let n = i + 1;
        let inside = json.iter().any(|b| n >= b.open_line && b.close_line.is_none_or(|c| n <= c));
        !inside && !line.trim().is_empty()
    });
    if let Some((i, _)) = outside {
        let message = "text outside the JSON; the reply must be the JSON envelope only";
        violations.push(Finding::at_line(ReplyCode::TextOutsideJson, message, i + 1));
    } else {
        let message = "the JSON is fenced in a code block; the contract asks for raw JSON";
        warnings.push(Finding::at_line(ReplyCode::FencedReply, message, block.open_line));
    }
    Some(block.clone())
}

/// Keep the first finding per (pointer, code): the envelope and data-type checks overlap on
/// `null` values.
fn dedupe(findings: &mut Vec<Finding>) {
    let mut seen = std::collections::BTreeSet::new();
    findings.retain(|f| seen.insert((f.pointer.clone(), f.code)));
}

fn last_token(pointer: Option<&str>) -> Option<String> {
    let token =
        pointer?.rsplit('/').find(|t| !t.is_empty() && !t.bytes().all(|b| b.is_ascii_digit()))?;
    Some(token.replace("~1", "/").replace("~0", "~"))
}
