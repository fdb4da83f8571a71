//! Tool and argument names of every supported agent, current and legacy, in one table.
//!
//! Names do not collide in meaning across agents (`read_file` reads in Gemini CLI, Cline and
//! Cursor alike), so one table serves every protocol; each entry lists the union of the path
//! argument names the agents use for that tool.

use super::{Role, ToolKind};

/// How a tool's arguments carry paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Path arguments under the listed keys.
    Paths,
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
const NOTEBOOK_KEYS: &[&str] = &["notebook_path"];
const SHELL_KEYS: &[&str] = &["command", "cmd"];
const PATCH_KEYS: &[&str] = &["command", "input", "patch"];
/// Arguments naming the directory a shell command runs in.
pub(super) const SHELL_DIR_KEYS: &[&str] = &["dir_path", "workdir", "cwd", "directory"];

const fn spec(kind: ToolKind, role: Role, shape: Shape, keys: &'static [&'static str]) -> ToolSpec {
    ToolSpec { kind, role, shape, keys }
}

/// Look a tool up by the name the agent sent.
pub(super) fn lookup(name: &str) -> Option<ToolSpec> {
    use Role::{Create, Directory, Existing};
    use Shape::{Patch, Paths, Shell};
    use ToolKind::{Discovery, Read, Write};
    let found = match name {
        "Read" | "read_file" | "view_file" | "beforeReadFile" => {
            spec(Read, Existing, Paths, FILE_KEYS)
        }
        "NotebookRead" => spec(Read, Existing, Paths, NOTEBOOK_KEYS),
        "Write" | "write_file" | "write_to_file" | "create_file" => {
            spec(Write, Create, Paths, FILE_KEYS)
        }
        "Edit" | "MultiEdit" | "StrReplace" | "replace" | "replace_in_file" | "edit_file"
        | "Delete" | "delete_file" => spec(Write, Existing, Paths, FILE_KEYS),
        "NotebookEdit" => spec(Write, Existing, Paths, NOTEBOOK_KEYS),
        "LS" | "list_directory" | "list_files" | "list_dir" | "list_code_definition_names" => {
            spec(Discovery, Directory, Paths, DIR_KEYS)
        }
        "Glob"
        | "glob"
        | "Grep"
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
        | "local_shell" => spec(ToolKind::Shell, Existing, Shell, SHELL_KEYS),
        "apply_patch" => spec(Write, Existing, Patch, PATCH_KEYS),
        _ => return None,
    };
    Some(found)
}

/// Editing tools that create the file when the text to replace is empty (Claude Code `Edit`,
/// Gemini CLI `replace`).
pub(super) fn creates_on_empty_old_string(name: &str) -> bool {
    matches!(name, "Edit" | "replace" | "StrReplace")
}
