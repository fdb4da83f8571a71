//! Cline 3.x's hooks cannot refuse one call: `cancel` ends the whole run before the model hears
//! why. So a denied call is rewritten (`overrideInput`) into a harmless call of the same tool
//! that fails and says so, and the reason reaches the model as the hook's context. Calls on
//! the gate itself (`HOOK_BYPASS`, `PROTECTED_PATH`) still end the run. `read_files` reads each
//! file on its own and reports a missing one beside the others' contents, so only the files
//! refused for another reason than being missing are replaced: the model keeps what exists.

use super::{Denial, DenyCode, PathArg, ToolCall};
use serde_json::{Value, json};

/// How one path argument of a call fares on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alone {
    /// It would pass.
    Passes,
    /// It is refused only for being missing, which fails by itself where the tool runs.
    Missing,
    /// It is refused for another reason: it must not reach the tool.
    Refused,
}

/// A path no call can read, write or create: below a character device.
const NOWHERE: &str = "/dev/null/patchgate-blocked-this-call";

/// The input that replaces the denied call's, or `None` when the run must stop instead.
/// `passes(arg)`: how a path argument fares on its own.
pub(super) fn input(
    call: &ToolCall,
    denial: &Denial,
    passes: &dyn Fn(&PathArg) -> Alone,
) -> Option<Value> {
    if matches!(denial.code, DenyCode::HookBypass | DenyCode::ProtectedPath) {
        return None;
    }
    // A missing path fails by itself, naming the path the model asked for (`ENOENT`).
    let absent = match (&denial.code, &denial.path) {
        (DenyCode::PathNotFound, Some(path)) => path.as_str(),
        _ => NOWHERE,
    };
    let replaced = match call.tool_name.as_str() {
        "read_files" => read_files(call, passes),
        // `insert_line` never creates a file (a missing one is `ENOENT`).
        "editor" => json!({"path": absent, "new_text": "", "insert_line": 1}),
        "run_commands" => {
            // The reason travels as context; the command only says it was blocked.
            let what = match &denial.path {
                Some(path) => {
                    format!("patchgate blocked this command: {} {path}", denial.code.as_str())
                }
                None => format!("patchgate blocked this command: {}", denial.code.as_str()),
            };
            let quoted = shell_words::quote(&what).into_owned();
            json!({"commands": [format!("echo {quoted} >&2; exit 1")]})
        }
        "apply_patch" => {
            json!({"input": format!("*** patchgate blocked this patch: {}", denial.message)})
        }
        _ => return None,
    };
    Some(replaced)
}

/// Whether the denied call still reads some of its files: Cline's `read_files` of several
/// files, one of which passes on its own.
pub(super) fn reads_others(call: &ToolCall, passes: &dyn Fn(&PathArg) -> Alone) -> bool {
    call.tool_name == "read_files"
        && call.paths.len() > 1
        && call.paths.iter().any(|arg| passes(arg) == Alone::Passes)
}

/// Cline's `read_files` input with each file that would not pass on its own (outside the
/// workspace, a rejected pattern) pointed at a path no call can read; every other entry (its
/// line range too) is kept, a missing file included, which fails by itself.
fn read_files(call: &ToolCall, passes: &dyn Fn(&PathArg) -> Alone) -> Value {
    let entries = match call.input.get("files") {
        Some(Value::Array(items)) => items.clone(),
        Some(other) => vec![other.clone()],
        None => Vec::new(),
    };
    let refused = |raw: &str| {
        call.paths.iter().find(|arg| arg.raw == raw).is_none_or(|arg| passes(arg) == Alone::Refused)
    };
    let kept: Vec<Value> = entries
        .into_iter()
        .map(|entry| match entry {
            Value::String(path) if refused(&path) => json!(NOWHERE),
            Value::Object(mut fields) => {
                if fields.get("path").and_then(Value::as_str).is_none_or(refused) {
                    fields.insert("path".to_owned(), json!(NOWHERE));
                }
                Value::Object(fields)
            }
            other => other,
        })
        .collect();
    json!({ "files": kept })
}
