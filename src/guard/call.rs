//! Protocol adapters: every agent's hook payload becomes one [`ToolCall`].
//!
//! Claude Code, Gemini CLI and Codex share `{session_id, cwd, tool_name, tool_input}`; Cursor
//! sends `conversation_id`, `workspace_roots` and its arguments at the top level for
//! `beforeReadFile`/`beforeShellExecution`; Cline nests `preToolUse: {toolName, parameters}` and
//! keys sessions by `taskId`.

use super::tool::{self, Shape};
use super::{GuardError, PathArg, Role, ToolKind};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The hook protocol a payload arrives in and the answer must be spoken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// patchgate's own JSON answer, exit 0 (allow) or 2 (deny).
    Generic,
    /// Claude Code `PreToolUse` (also Devin CLI).
    ClaudeCode,
    /// Gemini CLI `BeforeTool`.
    GeminiCli,
    /// Codex CLI `PreToolUse` (Claude-shaped).
    Codex,
    /// Cursor hooks (`beforeReadFile`, `beforeShellExecution`, `preToolUse`).
    Cursor,
    /// Cline `PreToolUse` hook scripts.
    Cline,
}

impl Protocol {
    /// Guess the protocol from the payload's own fields; `Generic` when nothing is telling.
    #[must_use]
    pub fn detect(payload: &Value) -> Self {
        let has = |key: &str| payload.get(key).is_some();
        let event = payload.get("hook_event_name").and_then(Value::as_str).unwrap_or("");
        let tool = payload.get("tool_name").and_then(Value::as_str).unwrap_or("");
        if has("preToolUse") || has("taskId") || has("clineVersion") {
            Self::Cline
        } else if has("conversation_id") || has("workspace_roots") || has("cursor_version") {
            Self::Cursor
        } else if event == "BeforeTool" || has("timestamp") && tool.contains('_') {
            Self::GeminiCli
        } else if has("turn_id") || tool == "apply_patch" || event == "PreToolUse" && has("model") {
            Self::Codex
        } else if event == "PreToolUse" || has("transcript_path") {
            Self::ClaudeCode
        } else {
            Self::Generic
        }
    }

    /// The `--protocol` name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Generic => "generic",
            Self::ClaudeCode => "claude-code",
            Self::GeminiCli => "gemini-cli",
            Self::Codex => "codex",
            Self::Cursor => "cursor",
            Self::Cline => "cline",
        }
    }
}

/// One tool call, whatever protocol it came in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    /// The protocol it came in.
    pub protocol: Protocol,
    /// The session the hallucination counter is kept for (`None`: no counting).
    pub session: Option<String>,
    /// Workspace roots named by the payload (Cursor, Cline); may be empty.
    pub roots: Vec<PathBuf>,
    /// The directory relative paths resolve against.
    pub cwd: PathBuf,
    /// The tool's name as sent.
    pub tool_name: String,
    /// Read, write, discovery, shell or unknown.
    pub kind: ToolKind,
    /// Path arguments of file tools.
    pub paths: Vec<PathArg>,
    /// The shell command of shell tools.
    pub command: Option<String>,
    /// The directory the shell command runs in.
    pub command_dir: PathBuf,
    /// A Codex `apply_patch` envelope.
    pub patch: Option<String>,
}

/// The parts every protocol provides, before the tool table is consulted.
struct Raw<'a> {
    session: Option<String>,
    roots: Vec<PathBuf>,
    cwd: Option<PathBuf>,
    tool_name: String,
    input: &'a Map<String, Value>,
}

/// Read one payload. `protocol` `None` detects it; `fallback_cwd` serves payloads without a
/// working directory.
pub fn parse_call(
    bytes: &[u8],
    protocol: Option<Protocol>,
    fallback_cwd: &Path,
) -> Result<ToolCall, GuardError> {
    if let Some(key) = crate::json::duplicate_key(bytes) {
        return Err(GuardError::Payload(format!("the payload names '{key}' twice")));
    }
    let payload: Value = serde_json::from_slice(bytes)
        .map_err(|e| GuardError::Payload(format!("stdin is not one JSON object ({e})")))?;
    if !payload.is_object() {
        return Err(GuardError::Payload("stdin is JSON but not an object".into()));
    }
    let protocol = protocol.unwrap_or_else(|| Protocol::detect(&payload));
    let empty = Map::new();
    let raw = match protocol {
        Protocol::Cline => cline_parts(&payload, &empty)?,
        Protocol::Cursor => cursor_parts(&payload, &empty)?,
        _ => common_parts(&payload, protocol, &empty)?,
    };
    Ok(build(protocol, raw, fallback_cwd))
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned)
}

fn path_list(value: &Value, key: &str) -> Vec<PathBuf> {
    let items = value.get(key).and_then(Value::as_array);
    items.into_iter().flatten().filter_map(Value::as_str).map(PathBuf::from).collect()
}

fn common_parts<'a>(
    payload: &'a Value,
    protocol: Protocol,
    empty: &'a Map<String, Value>,
) -> Result<Raw<'a>, GuardError> {
    let tool_name = text(payload, "tool_name")
        .ok_or_else(|| GuardError::Payload("the payload has no \"tool_name\"".into()))?;
    let env_session = match protocol {
        Protocol::GeminiCli => std::env::var("GEMINI_SESSION_ID").ok(),
        _ => None,
    };
    let session =
        text(payload, "session_id").or(env_session).map(|id| match text(payload, "agent_id") {
            Some(agent) => format!("{id}/{agent}"),
            None => id,
        });
    let input = payload.get("tool_input").and_then(Value::as_object).unwrap_or(empty);
    Ok(Raw {
        session,
        roots: project_dir(protocol),
        cwd: text(payload, "cwd").map(PathBuf::from),
        tool_name,
        input,
    })
}

/// The project directory agents export to their hooks, a workspace root when set.
fn project_dir(protocol: Protocol) -> Vec<PathBuf> {
    let var = match protocol {
        Protocol::ClaudeCode => "CLAUDE_PROJECT_DIR",
        Protocol::GeminiCli => "GEMINI_PROJECT_DIR",
        _ => return Vec::new(),
    };
    std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from).into_iter().collect()
}

fn cursor_parts<'a>(
    payload: &'a Value,
    empty: &'a Map<String, Value>,
) -> Result<Raw<'a>, GuardError> {
    let event = text(payload, "hook_event_name").unwrap_or_default();
    let (tool_name, input) = match text(payload, "tool_name") {
        Some(name) => (name, payload.get("tool_input").and_then(Value::as_object).unwrap_or(empty)),
        // beforeReadFile / beforeShellExecution carry their arguments at the top level.
        None => (event, payload.as_object().unwrap_or(empty)),
    };
    if tool_name.is_empty() {
        return Err(GuardError::Payload("the Cursor payload has no \"hook_event_name\"".into()));
    }
    let roots = path_list(payload, "workspace_roots");
    let cwd = text(payload, "cwd").map(PathBuf::from).or_else(|| roots.first().cloned());
    Ok(Raw { session: text(payload, "conversation_id"), roots, cwd, tool_name, input })
}

fn cline_parts<'a>(
    payload: &'a Value,
    empty: &'a Map<String, Value>,
) -> Result<Raw<'a>, GuardError> {
    let pre = payload.get("preToolUse").unwrap_or(&Value::Null);
    let tool_name = text(pre, "toolName").ok_or_else(|| {
        GuardError::Payload("the Cline payload has no \"preToolUse.toolName\"".into())
    })?;
    let input = pre.get("parameters").and_then(Value::as_object).unwrap_or(empty);
    let roots = path_list(payload, "workspaceRoots");
    let cwd = roots.first().cloned();
    Ok(Raw { session: text(payload, "taskId"), roots, cwd, tool_name, input })
}

fn build(protocol: Protocol, raw: Raw<'_>, fallback_cwd: &Path) -> ToolCall {
    let cwd = raw.cwd.clone().unwrap_or_else(|| fallback_cwd.to_owned());
    let mut call = ToolCall {
        protocol,
        session: raw.session,
        roots: raw.roots,
        command_dir: cwd.clone(),
        cwd,
        tool_name: raw.tool_name,
        kind: ToolKind::Unknown,
        paths: Vec::new(),
        command: None,
        patch: None,
    };
    let Some(spec) = tool::lookup(&call.tool_name) else {
        return call;
    };
    call.kind = spec.kind;
    match spec.shape {
        Shape::Paths => call.paths = path_args(&call, spec.role, spec.keys, raw.input),
        Shape::Shell => {
            call.command = first_text(raw.input, spec.keys).or_else(|| argv(raw.input));
            if let Some(dir) = first_text(raw.input, tool::SHELL_DIR_KEYS) {
                call.command_dir = call.cwd.join(&dir);
                call.paths.push(PathArg {
                    raw: dir,
                    role: Role::Directory,
                    base: call.cwd.clone(),
                });
            }
        }
        Shape::Patch => call.patch = first_text(raw.input, spec.keys).or_else(|| argv(raw.input)),
    }
    call
}

fn first_text(input: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| input.get(*k).and_then(Value::as_str)).map(str::to_owned)
}

/// Codex sends `command` as an argv array; `["bash", "-lc", script]` is the script itself.
fn argv(input: &Map<String, Value>) -> Option<String> {
    let items: Vec<&str> =
        input.get("command")?.as_array()?.iter().filter_map(Value::as_str).collect();
    match items.as_slice() {
        [shell, flag, script]
            if is_shell(shell) && flag.starts_with('-') && flag.ends_with('c') =>
        {
            Some((*script).to_owned())
        }
        _ => Some(shell_words::join(items)),
    }
}

fn is_shell(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    matches!(name, "bash" | "sh" | "zsh" | "dash")
}

fn path_args(
    call: &ToolCall,
    role: Role,
    keys: &[&str],
    input: &Map<String, Value>,
) -> Vec<PathArg> {
    let Some(raw) = keys.iter().find_map(|k| input.get(*k).and_then(Value::as_str)) else {
        return Vec::new();
    };
    // Optional directory arguments default to the workspace: an empty one names nothing.
    if raw.is_empty() && role == Role::Directory {
        return Vec::new();
    }
    let creates = tool::creates_on_empty_old_string(&call.tool_name)
        && input.get("old_string").and_then(Value::as_str) == Some("");
    let role = if creates { Role::Create } else { role };
    vec![PathArg { raw: raw.to_owned(), role, base: call.cwd.clone() }]
}
