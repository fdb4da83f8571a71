//! Tool and argument names of every supported agent, current and legacy, in one table.
//!
//! Names do not collide in meaning across agents (`read_file` reads in Gemini CLI, Cline and
//! Cursor alike), so one table serves every protocol; each entry lists the union of the path
//! argument names the agents use for that tool.

use super::{Role, ToolKind};
use serde_json::{Map, Value};

/// How a tool's arguments carry paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Path arguments under the listed keys.
    Paths,
    /// A list of files under the listed keys (Cline's `read_files`: `files: [{path}]`).
    FileList,
    /// A shell command (`command`), run in an optional directory argument.
    Shell,
    /// A Codex `apply_patch` envelope.
    Patch,
}

/// What the guard knows about one tool.
#[derive(Clone, Copy, Debug)]
pub(super) struct ToolSpec {
    pub kind: ToolKind,
    pub role: Role,
    pub shape: Shape,
    /// Argument names holding paths (or the command / envelope), first present wins.
    pub keys: &'static [&'static str],
}

const FILE_KEYS: &[&str] = &["file_path", "absolute_path", "path", "target_file", "filePath"];
const DIR_KEYS: &[&str] =
    &["dir_path", "path", "relative_workspace_path", "target_directory", "directory"];
/// Claude Code's `Grep.path`, a file or a directory.
const ENTRY_KEYS: &[&str] = &["path"];
const FILE_LIST_KEYS: &[&str] = &["files", "file_paths", "paths"];
const NOTEBOOK_KEYS: &[&str] = &["notebook_path"];
pub(super) const SHELL_KEYS: &[&str] = &["command", "cmd"];
/// Keys that name no path: the tool searches or lists the workspace as a whole.
const NO_KEYS: &[&str] = &[];
const PATCH_KEYS: &[&str] = &["command", "input", "patch"];
/// Arguments naming the directory a shell command runs in.
pub(super) const SHELL_DIR_KEYS: &[&str] = &["dir_path", "workdir", "cwd", "directory"];

const fn spec(kind: ToolKind, role: Role, shape: Shape, keys: &'static [&'static str]) -> ToolSpec {
    ToolSpec { kind, role, shape, keys }
}

/// Look a tool up by the name the agent sent.
pub(super) fn lookup(name: &str) -> Option<ToolSpec> {
    use Role::{Create, Directory, Entry, Existing};
    use Shape::{FileList, Patch, Paths, Shell};
    use ToolKind::{Discovery, Read, Write};
    let found = match name {
        // Codex's `view_image` (`path`) reads an image file into the model's context.
        "Read" | "read_file" | "view_file" | "beforeReadFile" | "view_image" => {
            spec(Read, Existing, Paths, FILE_KEYS)
        }
        "NotebookRead" => spec(Read, Existing, Paths, NOTEBOOK_KEYS),
        // Cline 3.x (its SDK's tools; `editor` and `run_commands` are below).
        "read_files" => spec(Read, Existing, FileList, FILE_LIST_KEYS),
        "search_codebase" => spec(Discovery, Directory, Paths, NO_KEYS),
        // Claude Code's `Grep.path` may be a file.
        "Grep" => spec(Discovery, Entry, Paths, ENTRY_KEYS),
        "Write" | "write_file" | "write_to_file" | "create_file" => {
            spec(Write, Create, Paths, FILE_KEYS)
        }
        "Edit" | "MultiEdit" | "StrReplace" | "replace" | "replace_in_file" | "edit_file"
        | "Delete" | "delete_file" | "editor" => spec(Write, Existing, Paths, FILE_KEYS),
        "NotebookEdit" => spec(Write, Existing, Paths, NOTEBOOK_KEYS),
        "LS" | "list_directory" | "list_files" | "list_dir" | "list_code_definition_names" => {
            spec(Discovery, Directory, Paths, DIR_KEYS)
        }
        "Glob"
        | "glob"
        | "grep"
        | "grep_search"
        | "search_file_content"
        | "search_files"
        | "file_search" => spec(Discovery, Directory, Paths, DIR_KEYS),
        "Bash"
        | "run_shell_command"
        | "execute_command"
        | "Shell"
        | "shell"
        | "beforeShellExecution"
        | "run_terminal_cmd"
        | "exec_command"
        | "local_shell"
        | "run_commands" => spec(ToolKind::Shell, Existing, Shell, SHELL_KEYS),
        "apply_patch" => spec(Write, Existing, Patch, PATCH_KEYS),
        _ => return None,
    };
    Some(found)
}

/// The role of a file tool's path given the rest of its input: editing tools that create the
/// file when there is no text to replace (Claude Code `Edit` and Gemini CLI `replace` with an
/// empty `old_string`, Cline's `editor` without `old_text` or `insert_line`).
pub(super) fn role_for_input(name: &str, role: Role, input: &Map<String, Value>) -> Role {
    let is_empty = |key: &str| match input.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    };
    let creates = match name {
        "Edit" | "replace" | "StrReplace" => {
            input.get("old_string").and_then(Value::as_str) == Some("")
        }
        "editor" => is_empty("old_text") && is_empty("insert_line"),
        _ => false,
    };
    if creates { Role::Create } else { role }
}
