//! Cline 3.x's hooks cannot refuse one call: `cancel` ends the whole run before the model hears
//! why. So a denied call is rewritten (`overrideInput`) into a harmless call of the same tool
//! that fails and says so, and the reason reaches the model as the hook's context. Calls on
//! the gate itself (`HOOK_BYPASS`, `PROTECTED_PATH`) still end the run.

use super::{Denial, DenyCode, ToolCall};
use serde_json::{Value, json};

/// A path no call can read, write or create: below a character device.
const NOWHERE: &str = "/dev/null/patchgate-blocked-this-call";

/// The input that replaces the denied call's, or `None` when the run must stop instead.
pub(super) fn input(call: &ToolCall, denial: &Denial) -> Option<Value> {
    if matches!(denial.code, DenyCode::HookBypass | DenyCode::ProtectedPath) {
        return None;
    }
    // A missing path fails by itself, naming the path the model asked for (`ENOENT`).
    let absent = match (&denial.code, &denial.path) {
        (DenyCode::PathNotFound, Some(path)) => path.as_str(),
        _ => NOWHERE,
    };
    let replaced = match call.tool_name.as_str() {
        "read_files" => json!({"files": [{"path": absent}]}),
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
