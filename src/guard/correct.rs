//! `[guard] correct`: a call whose missing path has exactly one likely intended path is
//! rewritten to it instead of denied, where the agent's protocol can rewrite a call (Claude
//! Code and Codex `updatedInput`, Gemini CLI `hookSpecificOutput.tool_input`, Cline 3.x
//! `overrideInput`). Only a path the call expects to exist is corrected, never one it creates
//! (a new file's name is the agent's to choose, and the one similar file is another file).
//! Here: whether a call may be corrected, and its input with the path replaced.

use super::refusal::Missed;
use super::{Correct, PathArg, Protocol, Role, ToolCall, ToolKind, tool};
use serde_json::Value;
use std::path::Path;

/// The argument to correct and the path to put in its place (as the call should name it), when
/// `mode` allows correcting this call.
pub(super) fn target(
    call: &ToolCall,
    mode: Correct,
    is_read_only: bool,
    missed: &Missed,
) -> Option<String> {
    let can_rewrite = match call.protocol {
        Protocol::ClaudeCode | Protocol::Codex | Protocol::GeminiCli => true,
        Protocol::Cline => call.is_cline_sdk,
        Protocol::Generic | Protocol::Cursor => false,
    };
    let allowed = match mode {
        Correct::Off => false,
        Correct::Reads => is_read_only,
        Correct::All => true,
    };
    let expects_existing =
        matches!(missed.arg.role, Role::Existing | Role::Modify | Role::Directory | Role::Entry);
    let [only] = missed.suggested.as_slice() else { return None };
    if !(can_rewrite && allowed && expects_existing) {
        return None;
    }
    as_named(&missed.arg, only)
}

/// `target` named the way `arg` names paths: absolute for an absolute argument, else relative
/// to the argument's directory when below it (else absolute).
fn as_named(arg: &PathArg, target: &Path) -> Option<String> {
    if !Path::new(&arg.raw).is_absolute()
        && let Ok(base) = std::fs::canonicalize(&arg.base)
        && let Ok(relative) = target.strip_prefix(&base)
    {
        return relative.to_str().map(str::to_owned);
    }
    target.to_str().map(str::to_owned)
}

/// The call's input with `arg` replaced by `to`: the one string argument equal to it, or, in a
/// shell command, the one word spelling it; `None` when it is not there exactly once (it came
/// from elsewhere, such as the payload's working directory) or cannot be replaced safely.
pub(super) fn rewrite(call: &ToolCall, arg: &PathArg, to: &str) -> Option<Value> {
    let mut input = call.input.clone();
    let replaced = if call.kind == ToolKind::Shell {
        if !is_plain(&arg.raw) || !is_plain(to) {
            return None;
        }
        let Value::Object(fields) = &mut input else { return None };
        let commands = fields.iter_mut().filter(|(key, _)| is_command_key(key));
        commands.map(|(_, value)| replace_in_commands(value, &arg.raw, to)).sum()
    } else {
        replace_value(&mut input, &arg.raw, to)
    };
    (replaced == 1).then_some(input)
}

fn is_command_key(key: &str) -> bool {
    tool::SHELL_KEYS.contains(&key) || key == "commands"
}

/// Replace every string equal to `from` inside `value`; how many there were.
fn replace_value(value: &mut Value, from: &str, to: &str) -> usize {
    match value {
        Value::String(text) if text == from => {
            to.clone_into(text);
            1
        }
        Value::Array(items) => items.iter_mut().map(|v| replace_value(v, from, to)).sum(),
        Value::Object(fields) => fields.values_mut().map(|v| replace_value(v, from, to)).sum(),
        _ => 0,
    }
}

/// Replace the words spelling `from` in a command string or a list of them; how many there
/// were.
fn replace_in_commands(value: &mut Value, from: &str, to: &str) -> usize {
    match value {
        Value::String(command) => {
            let (replaced, count) = replace_word(command, from, to);
            *command = replaced;
            count
        }
        Value::Array(items) => items.iter_mut().map(|v| replace_in_commands(v, from, to)).sum(),
        _ => 0,
    }
}

/// `command` with each whole word `from` (bounded by the start, the end, blanks, quotes or
/// operators) replaced by `to`, and how many were replaced.
fn replace_word(command: &str, from: &str, to: &str) -> (String, usize) {
    let is_edge = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || "'\";&|()<>".contains(c));
    let mut out = String::with_capacity(command.len());
    let mut count = 0;
    let mut rest = command;
    while let Some(at) = rest.find(from) {
        let before = if at > 0 { rest[..at].chars().last() } else { out.chars().last() };
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        let is_word = (is_edge(before) || before == Some('=')) && is_edge(after);
        out.push_str(if is_word { to } else { from });
        count += usize::from(is_word);
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    (out, count)
}

/// A path the shell reads the same whether quoted or not, so it can stand in for another.
fn is_plain(path: &str) -> bool {
    !path.is_empty()
        && path.chars().all(|c| c.is_ascii_alphanumeric() || "._/+@,:-".contains(c))
        && !path.starts_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_replaced_only_where_it_is_a_whole_word() {
        let (out, n) = replace_word("cat src/mian.rs | grep x", "src/mian.rs", "src/main.rs");
        assert_eq!((out.as_str(), n), ("cat src/main.rs | grep x", 1));
        let (out, n) = replace_word("cat 'src/mian.rs'", "src/mian.rs", "src/main.rs");
        assert_eq!((out.as_str(), n), ("cat 'src/main.rs'", 1));
        let (out, n) = replace_word("cat xsrc/mian.rs src/mian.rsx", "src/mian.rs", "a");
        assert_eq!((out.as_str(), n), ("cat xsrc/mian.rs src/mian.rsx", 0));
        let (_, n) = replace_word("diff a.rs b/a.rs && cat a.rs", "a.rs", "c.rs");
        assert_eq!(n, 2, "two words spell it: the caller refuses an ambiguous rewrite");
        let (out, n) = replace_word("x --file=a.rs", "a.rs", "b.rs");
        assert_eq!((out.as_str(), n), ("x --file=b.rs", 1));
    }

    #[test]
    fn only_plain_paths_stand_in_for_each_other() {
        assert!(is_plain("src/main.rs"));
        assert!(!is_plain("my file.rs"));
        assert!(!is_plain("$HOME/x"));
        assert!(!is_plain("-rf"));
        assert!(!is_plain(""));
    }
}
