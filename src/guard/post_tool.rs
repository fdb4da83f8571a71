//! Events after a tool ran. Some misses never reach a pre-tool hook: the agent refuses them on
//! its own (Gemini CLI's `glob` and `grep_search` of a missing directory), or the guard cannot
//! see the path (a script a shell command runs opens a missing file). Where the agent reports
//! the failure afterwards, the miss is counted here, and the strategy shift rides on the answer
//! when it is due.

use super::env::Env;
use super::session::Event;
use super::{DenyCode, Outcome, Protocol, Reply, Stage, ToolCall, ToolKind};

/// What tools say when a path is missing (shells, Node's `ENOENT`, the agents' own tools).
const MISSING_MARKERS: &[&str] =
    &["No such file or directory", "ENOENT", "does not exist", "File not found", "Path not found"];

/// Count the miss a failed call reports, unless the guard already refused (and counted) it;
/// deliver what Gemini CLI's model must hear about a call the guard corrected.
pub(super) fn run(call: &ToolCall, env: &Env) -> Outcome {
    let Stage::PostTool { event, failed, output } = &call.stage else {
        return Outcome::quiet(Some(call.protocol));
    };
    if call.kind.is_write() {
        // The call ran: what it created is on disk now (a check before it ran may have come
        // too early for a miss that raced it).
        env.note_writes(call);
    }
    let mut answer = Outcome {
        reply: Reply::PostTool(event.clone()),
        ..Outcome::new(Some(call.protocol), None)
    };
    if call.protocol == Protocol::GeminiCli {
        match env.take_note(call) {
            Ok(note) => answer.context = note,
            Err(e) => answer.notes.push(format!("session state unavailable: {e}")),
        }
    }
    // Cline hands every file call to the pre-tool hook, and a call the guard rewrote fails
    // without patchgate's code in its result: only its shell commands can hide a miss.
    let is_blind = call.kind == ToolKind::Shell || call.protocol != Protocol::Cline;
    let is_miss = (*failed && is_missing_path(output)) || has_shell_error(output);
    if !is_blind || !is_miss || is_guard_refusal(output) {
        return answer;
    }
    let path = missed_path(call, output);
    match env.record(call, &Event::Hallucination(path)) {
        Ok(Some(count)) => {
            answer.hallucination_count = count;
            answer.set_streak(count);
        }
        Ok(None) => answer.hallucination_count = 1,
        Err(e) => answer.notes.push(format!("session state unavailable: {e}")),
    }
    answer
}

/// A shell's own report of a missing file (`cat: x: No such file or directory`, Python's
/// `FileNotFoundError: [Errno 2] No such file or directory: 'x'`), which some agents hand over
/// as plain output without saying the command failed.
fn has_shell_error(output: &str) -> bool {
    output.lines().any(|line| {
        line.trim_end().ends_with(": No such file or directory")
            || line.contains("[Errno 2] No such file or directory: ")
    })
}

fn is_missing_path(output: &str) -> bool {
    MISSING_MARKERS.iter().any(|m| output.contains(m))
}

/// A refusal of patchgate's own (the agent reports the blocked call as a failure too).
fn is_guard_refusal(output: &str) -> bool {
    DenyCode::ALL.iter().any(|code| output.contains(code.as_str()))
}

/// The path the failure is about, for the counter's similarity test: the call's own path
/// argument, else the word a shell error names (`cat: src/x.rs: No such file or directory`).
fn missed_path(call: &ToolCall, output: &str) -> String {
    if let Some(arg) = call.paths.first() {
        return call.cwd.join(&arg.raw).display().to_string();
    }
    let named = output.lines().find_map(|line| {
        let (before, after) = line.split_once("No such file or directory")?;
        let word = match after.strip_prefix(": ") {
            Some(after) => after.trim(),
            None => before.trim_end_matches(": ").rsplit(": ").next()?,
        };
        let word = word.trim_matches(['\'', '"', '`']);
        (!word.is_empty()).then(|| call.cwd.join(word).display().to_string())
    });
    named.unwrap_or_else(|| call.cwd.display().to_string())
}
