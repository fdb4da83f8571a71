//! The I/O shell around [`super::decide`]: the payload read within `[limits] payload_bytes` ->
//! `parse_call` -> `Env::load` (roots, policy, limits, repository) -> `decide` through the
//! file-system [`Checker`] -> the refusal worded (`refusal`) -> the call corrected instead,
//! where `[guard] correct` allows it (`correct`) -> `finish` (the session counter).

use super::check::{Checker, Standing};
use super::decide::{Facts, decide};
use super::env::{self, Env};
use super::refusal::{self, Missed};
use super::session::Event;
use super::{
    Correction, Denial, DenyCode, GuardError, GuardPolicy, OnError, Options, Outcome, PathArg,
    Protocol, Stage, ToolCall, ToolKind, check, correct, parse_call, post_tool, replacement,
};
use crate::config::{LimitExceeded, Limits};
use std::io::Read;
use std::path::PathBuf;

/// Bytes of an oversized payload read past the limit to say how large it is; beyond this the
/// size is reported as this much.
const COUNT_LIMIT: u64 = 1 << 30;

/// Read one payload from `input` and judge it. A payload over `[limits] payload_bytes` (of the
/// repository around `--repo` or the current directory) is denied unread, in the protocol its
/// first fields show.
pub fn run_reader(input: &mut dyn Read, options: &Options) -> Outcome {
    let limits = env::payload_limits(options);
    let limit = u64::try_from(limits.payload_bytes).unwrap_or(u64::MAX);
    let mut bytes = Vec::new();
    // An unreadable payload parses as nothing, which the guard denies.
    if input.take(limit.saturating_add(1)).read_to_end(&mut bytes).is_err() {
        bytes.clear();
    }
    if bytes.len() <= limits.payload_bytes {
        return run(&bytes, options);
    }
    let rest = std::io::copy(&mut input.take(COUNT_LIMIT), &mut std::io::sink()).unwrap_or(0);
    let size = bytes.len().saturating_add(usize::try_from(rest).unwrap_or(usize::MAX));
    oversized(&bytes, size, options, &limits)
}

fn oversized(head: &[u8], size: usize, options: &Options, limits: &Limits) -> Outcome {
    let exceeded = LimitExceeded {
        what: "the tool call's size in bytes".to_owned(),
        setting: "payload_bytes",
        limit: limits.payload_bytes,
        actual: size,
    };
    let protocol = options.protocol.or_else(|| Protocol::detect_from_head(head));
    Outcome::new(protocol, Some(refusal::limit_denial(None, &exceeded)))
}

/// Judge one payload. Never fails: what cannot be evaluated is denied (writes always, reads
/// per `[guard] on_error_read`).
#[must_use]
pub fn run(stdin: &[u8], options: &Options) -> Outcome {
    let fallback = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    match parse_call(stdin, options.protocol, &fallback) {
        Ok(call) => run_call(&call, options),
        Err(e) => {
            let detected = serde_json::from_slice(stdin).ok().and_then(|v| Protocol::detect(&v));
            deny_error(options.protocol.or(detected), &e)
        }
    }
}

/// Judge one normalised call.
#[must_use]
pub fn run_call(call: &ToolCall, options: &Options) -> Outcome {
    let protocol = Some(call.protocol);
    match &call.stage {
        Stage::Other => return Outcome::quiet(protocol),
        Stage::SessionBoundary => return session_boundary(call, options),
        Stage::PostTool { .. } => return post_tool::run(call, &env::session_only(call, options)),
        Stage::PreTool if call.kind == ToolKind::Unknown => return Outcome::new(protocol, None),
        Stage::PreTool => {}
    }
    let env = match Env::load(call, options) {
        Ok(env) => env,
        Err(e) => return on_error(call, &GuardPolicy::default(), &e),
    };
    match evaluate(call, &env) {
        Ok(decision) => finish(call, &env, decision),
        Err(e) => on_error(call, &env.policy, &e),
    }
}

/// A session started or ended: whatever streak it had is over.
fn session_boundary(call: &ToolCall, options: &Options) -> Outcome {
    let mut answer = Outcome::quiet(Some(call.protocol));
    if let Err(e) = env::session_only(call, options).record(call, &Event::Reset) {
        answer.notes.push(format!("session state unavailable: {e}"));
    }
    answer
}

fn deny_error(protocol: Option<Protocol>, e: &GuardError) -> Outcome {
    let message = format!(
        "GUARD_ERROR: patchgate could not check this tool call ({e}); the call was blocked \
         because the guard fails closed. Fix the hook setup or the repository's .patchgate.toml."
    );
    Outcome::new(protocol, Some(Denial::simple(DenyCode::GuardError, message, None)))
}

fn on_error(call: &ToolCall, policy: &GuardPolicy, e: &GuardError) -> Outcome {
    if call.kind.is_write() || policy.on_error_read == OnError::Deny {
        return deny_error(Some(call.protocol), e);
    }
    let mut allowed = Outcome::new(Some(call.protocol), None);
    allowed.notes.push(format!("guard skipped (on_error_read = \"allow\"): {e}"));
    allowed
}

/// What the checks found.
#[derive(Debug, Default)]
struct Decision {
    denial: Option<Denial>,
    is_discovery: bool,
    /// Some argument named something that exists (or a legitimate new file).
    is_real: bool,
    /// The call only reads.
    is_read_only: bool,
    /// The missing argument that is the reason for the denial, with its likely meanings.
    missed: Option<Missed>,
}

/// Decide (without the file system but through the checker), then word the refusal.
fn evaluate(call: &ToolCall, env: &Env) -> Result<Decision, GuardError> {
    let mut checker = Checker {
        roots: env.allowed.clone(),
        workspace: env.workspace.clone(),
        created: Vec::new(),
    };
    let verdict = decide(call, &mut checker, &env.limits)
        .map_err(|e| GuardError::Environment(format!("cannot inspect {e}")))?;
    let mut decision = Decision {
        is_discovery: verdict.is_discovery,
        is_real: verdict.is_real,
        is_read_only: verdict.is_read_only,
        ..Decision::default()
    };
    if let Some(refusal) = verdict.refusal {
        let (denial, missed) = refusal::word(refusal, env);
        decision.denial = Some(denial);
        decision.missed = missed;
    }
    Ok(decision)
}

/// How `arg` of `call` fares on its own (a file of a call that reads several, each on its own).
fn alone(call: &ToolCall, arg: &PathArg, env: &Env) -> replacement::Alone {
    use super::decide::Refusal;
    let alone = ToolCall { paths: vec![arg.clone()], ..call.clone() };
    let mut checker = Checker {
        roots: env.allowed.clone(),
        workspace: env.workspace.clone(),
        created: Vec::new(),
    };
    match decide(&alone, &mut checker, &env.limits).map(|v| v.refusal) {
        Ok(None) => replacement::Alone::Passes,
        Ok(Some(Refusal::Missing(..))) => replacement::Alone::Missing,
        _ => replacement::Alone::Refused,
    }
}

impl Facts for Checker {
    fn standing(&mut self, arg: &PathArg) -> std::io::Result<Standing> {
        self.check(arg)
    }

    fn workspace_relative(&self, arg: &PathArg) -> Option<String> {
        let resolved = check::resolve_entry(arg).ok()?;
        let rel = self.workspace.iter().find_map(|root| resolved.strip_prefix(root).ok())?;
        rel.to_str().map(str::to_owned)
    }

    fn husky_manifest(&self) -> Option<String> {
        let root = self.workspace.first()?;
        root.join(".husky").is_dir().then_some(())?;
        let path = root.join(super::manifest::MANIFEST);
        let meta = std::fs::metadata(&path).ok()?;
        (meta.is_file() && meta.len() <= 1 << 20).then_some(())?;
        std::fs::read_to_string(path).ok()
    }

    fn resolved_relative(&self, arg: &PathArg) -> Option<String> {
        let resolved = check::resolve_all(arg).ok()?;
        let rel = self.workspace.iter().find_map(|root| resolved.strip_prefix(root).ok())?;
        rel.to_str().map(str::to_owned)
    }

    fn runs_gate(&self, entry: &str) -> bool {
        // No workspace to read: the entry counts as the gate's (fail closed).
        self.workspace.is_empty()
            || self.workspace.iter().any(|root| super::protect::runs_gate(root, entry))
    }
}

/// The call rewritten to its one likely meaning, when the policy and the protocol allow it and
/// the rewritten call passes every check.
fn correction(call: &ToolCall, env: &Env, decision: &Decision) -> Option<Correction> {
    let missed = decision.missed.as_ref()?;
    let to = correct::target(call, env.policy.correct, decision.is_read_only, missed)?;
    let input = correct::rewrite(call, &missed.arg, &to)?;
    let again = evaluate(&call.with_input(input.clone()), env).ok()?;
    again.denial.is_none().then(|| Correction { from: missed.arg.raw.clone(), to, input })
}

/// A corrected call runs on a real path and tells the model which: the streak of misses ends
/// as it does for any real path. Gemini CLI's model hears of it only after the call, so the
/// message is kept for that event.
fn corrected(call: &ToolCall, env: &Env, correction: Correction) -> Outcome {
    let event = match call.protocol {
        Protocol::GeminiCli => Event::Corrected(correction.model_message()),
        _ => Event::Reset,
    };
    let mut result = Outcome::new(Some(call.protocol), None);
    match env.record(call, &event) {
        Ok(count) => result.hallucination_count = count.unwrap_or(0),
        Err(e) => result.notes.push(format!("session state unavailable: {e}")),
    }
    result.correction = Some(correction);
    result
}

fn finish(call: &ToolCall, env: &Env, decision: Decision) -> Outcome {
    if let Some(correction) = correction(call, env, &decision) {
        env.mark_tree_stale();
        return corrected(call, env, correction);
    }
    if decision.denial.is_none() && !decision.is_read_only && call.kind.is_write() {
        // It may create files: the next miss looks at the tree again.
        env.note_writes(call);
    }
    let is_not_found = decision.denial.as_ref().is_some_and(|d| d.code == DenyCode::PathNotFound);
    let event = match decision.missed {
        Some(missed) if is_not_found && !decision.is_discovery => Event::Hallucination(missed.real),
        _ if decision.is_discovery || decision.denial.is_none() && decision.is_real => Event::Reset,
        _ => Event::Neutral,
    };
    let mut result = Outcome::new(Some(call.protocol), decision.denial);
    let is_hallucination = matches!(event, Event::Hallucination(_));
    match env.record(call, &event) {
        Ok(Some(count)) => result.hallucination_count = count,
        Ok(None) => result.hallucination_count = u32::from(is_hallucination),
        Err(e) => {
            result.hallucination_count = u32::from(is_hallucination);
            result.notes.push(format!("session state unavailable: {e}"));
        }
    }
    if is_hallucination {
        result.set_streak(result.hallucination_count);
    }
    if call.is_cline_sdk {
        let passes = |arg: &PathArg| alone(call, arg, env);
        result.replacement =
            result.denial.as_ref().and_then(|d| replacement::input(call, d, &passes));
        if replacement::reads_others(call, &passes) {
            result.denial = result.denial.map(refusal::partly_blocked);
        }
    }
    result
}
