//! Protocol adapters: every agent's hook payload becomes one [`ToolCall`].
//!
//! Claude Code, Gemini CLI and Codex share `{session_id, cwd, tool_name, tool_input}`; Cursor
//! sends `conversation_id`, `workspace_roots` and its arguments at the top level for
//! `beforeReadFile`/`beforeShellExecution`; Cline nests `preToolUse: {toolName, parameters}` and
//! keys sessions by `taskId`.

use super::tool::{self, Shape};
use super::{GuardError, PathArg, Role, ToolKind};
use crate::finding::codes;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

codes! {
    /// The hook protocol a payload arrives in and the answer must be spoken in; the wire name
    /// is the `--protocol` name.
    Protocol {
        /// patchgate's own JSON answer, exit 0 (allow) or 2 (deny).
        Generic => "generic",
        /// Claude Code `PreToolUse` (also Devin CLI).
        ClaudeCode => "claude-code",
        /// Gemini CLI `BeforeTool`.
        GeminiCli => "gemini-cli",
        /// Codex CLI `PreToolUse` (Claude-shaped).
        Codex => "codex",
        /// Cursor hooks (`beforeReadFile`, `beforeShellExecution`, `preToolUse`).
        Cursor => "cursor",
        /// Cline `PreToolUse` hook scripts.
        Cline => "cline",
    }
}

impl Protocol {
    /// Guess the protocol from the payload's own fields; `None` when nothing is telling. Such a
    /// payload is answered by failing closed: no answer shape is known to be read by its sender,
    /// and patchgate's own (`generic`) shape must be asked for by name.
    #[must_use]
    pub fn detect(payload: &Value) -> Option<Self> {
        let has = |key: &str| payload.get(key).is_some();
        let event = payload.get("hook_event_name").and_then(Value::as_str).unwrap_or("");
        let tool = payload.get("tool_name").and_then(Value::as_str).unwrap_or("");
        let found = if has("preToolUse") || has("taskId") || has("clineVersion") || has("hookName")
        {
            Self::Cline
        } else if has("conversation_id") || has("workspace_roots") || has("cursor_version") {
            Self::Cursor
        } else if matches!(event, "BeforeTool" | "AfterTool")
            || has("timestamp") && (tool.contains('_') || tool.is_empty())
        {
            Self::GeminiCli
        } else if has("turn_id") || tool == "apply_patch" || has("model") && !event.is_empty() {
            Self::Codex
        } else if !event.is_empty() || has("transcript_path") {
            Self::ClaudeCode
        } else {
            return None;
        };
        Some(found)
    }

    /// Guess the protocol of a payload cut short (one too large to read whole) from the
    /// top-level fields that precede the cut: agents send their event and tool names before
    /// the tool's input, which is what makes a payload large.
    #[must_use]
    pub fn detect_from_head(head: &[u8]) -> Option<Self> {
        let mut fields = Map::new();
        let mut reader = serde_json::Deserializer::from_slice(head);
        // The cut makes this fail at the field it falls in; the fields before it are kept.
        let _ = serde::de::DeserializeSeed::deserialize(LeadingFields(&mut fields), &mut reader);
        Self::detect(&Value::Object(fields))
    }
}

/// Collects a JSON object's fields, one by one, into the map it borrows.
struct LeadingFields<'m>(&'m mut Map<String, Value>);

impl<'de> serde::de::DeserializeSeed<'de> for LeadingFields<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for LeadingFields<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let value: Value = map.next_value()?;
            self.0.insert(key, value);
        }
        Ok(())
    }
}

/// Where in the agent's loop a payload comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// Before the tool runs: the call is judged.
    #[default]
    PreTool,
    /// After the tool ran: only counted, to see the misses an agent refuses on its own.
    PostTool {
        /// The event's name as sent (`PostToolUse`, `PostToolUseFailure`, `AfterTool`, ...).
        event: String,
        /// Whether the tool reported a failure.
        failed: bool,
        /// Every text of the tool's response or error, joined.
        output: String,
    },
    /// A session started or ended: its counter starts over.
    SessionBoundary,
    /// Any other event: answered with nothing.
    Other,
}

/// One tool call, whatever protocol it came in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    /// The protocol it came in.
    pub protocol: Protocol,
    /// Where in the agent's loop it comes from.
    pub stage: Stage,
    /// The session the hallucination counter is kept for (`None`: no counting).
    pub session: Option<String>,
    /// Workspace roots named by the payload (Cursor, Cline); may be empty.
    pub roots: Vec<PathBuf>,
    /// The directory relative paths resolve against.
    pub cwd: PathBuf,
    /// The tool's name as sent.
    pub tool_name: String,
    /// The tool's arguments as sent (Cline's string-encoded values decoded).
    pub input: Value,
    /// Whether the payload comes from Cline's SDK (3.x), whose hooks cannot refuse one call.
    pub is_cline_sdk: bool,
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
struct Raw {
    stage: Stage,
    session: Option<String>,
    roots: Vec<PathBuf>,
    cwd: Option<PathBuf>,
    tool_name: String,
    input: Map<String, Value>,
    is_cline_sdk: bool,
}

/// Read one payload. `protocol` `None` detects it (an undetectable payload is an error);
/// `fallback_cwd` serves payloads without a working directory.
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
    let Some(protocol) = protocol.or_else(|| Protocol::detect(&payload)) else {
        return Err(GuardError::Undetected);
    };
    let raw = match protocol {
        Protocol::Cline => cline_parts(&payload)?,
        Protocol::Cursor => cursor_parts(&payload)?,
        _ => common_parts(&payload, protocol)?,
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

fn object(value: Option<&Value>) -> Map<String, Value> {
    value.and_then(Value::as_object).cloned().unwrap_or_default()
}

/// The stage of Claude Code's, Codex's and Gemini CLI's events.
fn common_stage(payload: &Value) -> Stage {
    let event = text(payload, "hook_event_name").unwrap_or_default();
    match event.as_str() {
        "" | "PreToolUse" | "BeforeTool" => Stage::PreTool,
        "PostToolUse" | "PostToolUseFailure" | "AfterTool" => {
            let response = payload.get("tool_response").unwrap_or(&Value::Null);
            let error = payload.get("error").unwrap_or(&Value::Null);
            let failed = event == "PostToolUseFailure" || reports_failure(response) || {
                !error.is_null() && error != &Value::Bool(false)
            };
            let output = texts([response, error]);
            Stage::PostTool { event, failed, output }
        }
        "SessionStart" | "SessionEnd" => Stage::SessionBoundary,
        _ => Stage::Other,
    }
}

/// Whether a tool's response says it failed: an error field, a failure flag, or a non-zero
/// exit code (each agent has its own).
fn reports_failure(response: &Value) -> bool {
    let flag = |key: &str| response.get(key).and_then(Value::as_bool);
    let code = ["exit_code", "exitCode"].iter().find_map(|k| response.get(*k)?.as_i64());
    let error = response.get("error").is_some_and(|e| !e.is_null() && e != &Value::from(""));
    error
        || flag("is_error") == Some(true)
        || flag("isError") == Some(true)
        || flag("success") == Some(false)
        || code.is_some_and(|c| c != 0)
}

/// Every string inside `values`, one per line.
fn texts<'a>(values: impl IntoIterator<Item = &'a Value>) -> String {
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            Value::Object(map) => map.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    values.into_iter().for_each(|v| walk(v, &mut out));
    out.join("\n")
}

fn common_parts(payload: &Value, protocol: Protocol) -> Result<Raw, GuardError> {
    let stage = common_stage(payload);
    let tool_name = text(payload, "tool_name").unwrap_or_default();
    if tool_name.is_empty() && matches!(stage, Stage::PreTool | Stage::PostTool { .. }) {
        return Err(GuardError::Payload("the payload has no \"tool_name\"".into()));
    }
    let env_session = match protocol {
        Protocol::GeminiCli => std::env::var("GEMINI_SESSION_ID").ok(),
        _ => None,
    };
    let session =
        text(payload, "session_id").or(env_session).map(|id| match text(payload, "agent_id") {
            Some(agent) => format!("{id}/{agent}"),
            None => id,
        });
    Ok(Raw {
        stage,
        session,
        roots: project_dir(protocol),
        cwd: text(payload, "cwd").map(PathBuf::from),
        tool_name,
        input: object(payload.get("tool_input")),
        is_cline_sdk: false,
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

fn cursor_parts(payload: &Value) -> Result<Raw, GuardError> {
    let event = text(payload, "hook_event_name").unwrap_or_default();
    let (tool_name, input) = match text(payload, "tool_name") {
        Some(name) => (name, object(payload.get("tool_input"))),
        // beforeReadFile / beforeShellExecution carry their arguments at the top level.
        None => (event, object(Some(payload))),
    };
    if tool_name.is_empty() {
        return Err(GuardError::Payload("the Cursor payload has no \"hook_event_name\"".into()));
    }
    let roots = path_list(payload, "workspace_roots");
    let cwd = text(payload, "cwd").map(PathBuf::from).or_else(|| roots.first().cloned());
    Ok(Raw {
        stage: Stage::PreTool,
        session: text(payload, "conversation_id"),
        roots,
        cwd,
        tool_name,
        input,
        is_cline_sdk: false,
    })
}

/// Cline: the file-hook payload of its SDK (3.x: `hookName` `tool_call`, `tool_result`,
/// `agent_start`, ...; the call both as `tool_call.input` and as `preToolUse.parameters` with
/// every value a string) or of the older extension (`hookName` `PreToolUse`).
fn cline_parts(payload: &Value) -> Result<Raw, GuardError> {
    let hook = text(payload, "hookName").unwrap_or_else(|| "PreToolUse".to_owned());
    let (stage, section) = match hook.as_str() {
        "tool_call" | "PreToolUse" => (Stage::PreTool, "preToolUse"),
        "tool_result" | "PostToolUse" => (cline_result(payload), "postToolUse"),
        "agent_start" | "agent_end" | "TaskStart" | "TaskComplete" | "session_shutdown" => {
            (Stage::SessionBoundary, "")
        }
        _ => (Stage::Other, ""),
    };
    let roots = path_list(payload, "workspaceRoots");
    let raw = |tool_name, input| Raw {
        stage: stage.clone(),
        session: text(payload, "taskId"),
        cwd: roots.first().cloned(),
        roots: roots.clone(),
        tool_name,
        input,
        is_cline_sdk: matches!(hook.as_str(), "tool_call" | "tool_result"),
    };
    if section.is_empty() {
        return Ok(raw(String::new(), Map::new()));
    }
    let part = payload.get(section).unwrap_or(&Value::Null);
    let tool_name = text(part, "toolName").ok_or_else(|| {
        GuardError::Payload(format!("the Cline payload has no \"{section}.toolName\""))
    })?;
    let input = match payload.get("tool_call").and_then(|c| c.get("input")) {
        Some(input) if input.is_object() => object(Some(input)),
        _ => decoded(object(part.get("parameters"))),
    };
    Ok(raw(tool_name, input))
}

fn cline_result(payload: &Value) -> Stage {
    let result = payload.get("tool_result").unwrap_or(&Value::Null);
    let failed = result.get("error").is_some_and(|e| !e.is_null()) || reports_failure(result);
    let output = texts([
        result.get("output").unwrap_or(&Value::Null),
        result.get("error").unwrap_or(&Value::Null),
    ]);
    Stage::PostTool { event: "tool_result".to_owned(), failed, output }
}

/// Cline's `parameters` hold every value as a string, arrays and objects JSON-encoded.
fn decoded(parameters: Map<String, Value>) -> Map<String, Value> {
    parameters
        .into_iter()
        .map(|(key, value)| {
            let parsed = match &value {
                Value::String(s) if s.starts_with(['[', '{']) => serde_json::from_str(s).ok(),
                _ => None,
            };
            (key, parsed.unwrap_or(value))
        })
        .collect()
}

fn build(protocol: Protocol, raw: Raw, fallback_cwd: &Path) -> ToolCall {
    let cwd = raw.cwd.clone().unwrap_or_else(|| fallback_cwd.to_owned());
    let call = ToolCall {
        protocol,
        stage: raw.stage,
        session: raw.session,
        roots: raw.roots,
        command_dir: cwd.clone(),
        cwd,
        tool_name: raw.tool_name,
        input: Value::Object(raw.input),
        is_cline_sdk: raw.is_cline_sdk,
        kind: ToolKind::Unknown,
        paths: Vec::new(),
        command: None,
        patch: None,
    };
    with_arguments(call)
}

impl ToolCall {
    /// The same call with `input` as its arguments (a correction), read again through the tool
    /// table.
    #[must_use]
    pub fn with_input(&self, input: Value) -> Self {
        let call = Self {
            input,
            command_dir: self.cwd.clone(),
            kind: ToolKind::Unknown,
            paths: Vec::new(),
            command: None,
            patch: None,
            ..self.clone()
        };
        with_arguments(call)
    }
}

/// `call` with its kind, path arguments, command and patch read from its input.
fn with_arguments(mut call: ToolCall) -> ToolCall {
    let Some(spec) = tool::lookup(&call.tool_name) else {
        return call;
    };
    call.kind = spec.kind;
    let input = call.input.as_object().cloned().unwrap_or_default();
    match spec.shape {
        Shape::Paths => call.paths = path_args(&call, spec.role, spec.keys, &input),
        Shape::FileList => call.paths = file_list(&call, spec.keys, &input),
        Shape::Shell => {
            call.command = first_text(&input, spec.keys)
                .or_else(|| argv(&input))
                .or_else(|| command_list(&input));
            if let Some(dir) = first_text(&input, tool::SHELL_DIR_KEYS) {
                call.command_dir = call.cwd.join(&dir);
                call.paths.push(PathArg {
                    raw: dir,
                    role: Role::Directory,
                    base: call.cwd.clone(),
                });
            }
        }
        Shape::Patch => call.patch = first_text(&input, spec.keys).or_else(|| argv(&input)),
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

/// Cline's `run_commands`: several command lines, run one after another.
fn command_list(input: &Map<String, Value>) -> Option<String> {
    let items: Vec<&str> =
        input.get("commands")?.as_array()?.iter().filter_map(Value::as_str).collect();
    (!items.is_empty()).then(|| items.join("\n"))
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
    if raw.is_empty() && matches!(role, Role::Directory | Role::Entry) {
        return Vec::new();
    }
    let role = tool::role_for_input(&call.tool_name, role, input);
    vec![PathArg { raw: raw.to_owned(), role, base: call.cwd.clone() }]
}

/// Cline's `read_files`: `files: [{path}]` (or plain strings, or one entry).
fn file_list(call: &ToolCall, keys: &[&str], input: &Map<String, Value>) -> Vec<PathArg> {
    let entries = keys.iter().find_map(|k| input.get(*k)).map_or(Vec::new(), |v| match v {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    });
    entries
        .iter()
        .filter_map(|entry| match entry {
            Value::String(path) => Some(path.clone()),
            other => text(other, "path"),
        })
        .map(|raw| PathArg { raw, role: Role::Existing, base: call.cwd.clone() })
        .collect()
}
