//! What patchgate puts in each agent's settings, and how it knows its own again: the hook
//! groups (events, matchers, timeouts), the fail-closed wrapper, Cline's hook script.

/// What the wrapper says when patchgate cannot run; the agent shows it to the model and the
/// user (Claude Code and Codex run a call whose hook cannot start, so exit 2 is what blocks).
const WRAPPER_TAIL: &str = "{ echo \"patchgate guard could not run (exit $?), so this call \
                            is blocked: put patchgate on the agent's PATH, or remove the hook \
                            with patchgate guard uninstall\" >&2; exit 2; }";

/// How a hook runs patchgate so that it fails closed: `patchgate guard`, and when that cannot
/// run (missing binary: exit 127; killed) or answers with an error, exit 2 with the reason on
/// stderr, which Claude Code, Gemini CLI, Codex and Cursor read as "blocked".
#[must_use]
pub fn wrapper(binary: &str) -> String {
    format!("{} guard || {WRAPPER_TAIL}", shell_words::quote(binary))
}

/// Cline's hook file. Cline runs a call whose hook exits non-zero, so when patchgate cannot
/// run the script answers `cancel`, which stops the task (its only answer that blocks without
/// knowing the tool).
#[must_use]
pub fn cline_script(binary: &str) -> String {
    format!(
        "#!/bin/sh\n\
         # patchgate guard, written by `patchgate guard install`. It fails closed: when\n\
         # patchgate cannot run, the task is stopped instead of the call running unchecked.\n\
         answer=$({} guard) && {{ printf '%s\\n' \"$answer\"; exit 0; }}\n\
         echo '{{\"cancel\": true, \"errorMessage\": \"patchgate guard could not run, so the task \
         was stopped: put patchgate on the PATH Cline runs hooks with, or remove this hook with \
         patchgate guard uninstall\"}}'\n",
        shell_words::quote(binary)
    )
}

/// The hook file the documentation showed before `guard install` existed.
const OLD_CLINE_SCRIPT: &str = "#!/bin/sh\nexec patchgate guard\n";

/// Whether `text` is a Cline hook script of patchgate's (any binary).
pub(super) fn is_guard_script(text: &str) -> bool {
    text == OLD_CLINE_SCRIPT
        || text.lines().nth(3).and_then(|l| l.strip_prefix("answer=$(")).is_some_and(|rest| {
            let binary = rest.split(" guard)").next().unwrap_or("");
            shell_words::split(binary)
                .ok()
                .and_then(|w| w.first().cloned())
                .is_some_and(|b| text == cline_script(&b))
        })
}

/// One agent's hook events in a JSON settings file.
#[derive(Clone, Copy, Debug)]
pub(super) struct Template {
    /// `(event, matcher)` of each hook group, in order.
    pub events: &'static [(&'static str, Option<&'static str>)],
    /// The handler's timeout, in the agent's unit (`None`: Cursor, which has none).
    pub timeout: Option<u64>,
    /// Cursor's shape: handlers straight in the event's list, each with `failClosed`, and a
    /// `version` key beside `hooks`.
    pub is_cursor: bool,
}

pub(super) const CLAUDE: Template = Template {
    events: &[
        ("PreToolUse", Some("Read|Write|Edit|NotebookEdit|Glob|Grep|Bash")),
        ("PostToolUseFailure", Some("Bash|Read|Glob|Grep")),
        ("SessionStart", None),
        ("SessionEnd", None),
    ],
    timeout: Some(10),
    is_cursor: false,
};

const GEMINI_TOOLS: &str = "read_file|write_file|replace|list_directory|glob|grep_search|\
                            search_file_content|run_shell_command";

pub(super) const GEMINI: Template = Template {
    events: &[
        ("BeforeTool", Some(GEMINI_TOOLS)),
        ("AfterTool", Some(GEMINI_TOOLS)),
        ("SessionStart", None),
        ("SessionEnd", None),
    ],
    timeout: Some(10_000),
    is_cursor: false,
};

pub(super) const CODEX: Template = Template {
    events: &[
        ("PreToolUse", Some("Bash|apply_patch|view_image")),
        ("PostToolUse", Some("Bash")),
        ("SessionStart", None),
    ],
    timeout: Some(10),
    is_cursor: false,
};

pub(super) const CURSOR: Template = Template {
    events: &[("beforeReadFile", None), ("beforeShellExecution", None), ("preToolUse", None)],
    timeout: None,
    is_cursor: true,
};

/// Whether a hook command is patchgate's guard, exactly as install or the documentation wrote
/// it: `<patchgate> guard`, with `--protocol NAME`, or the fail-closed wrapper around it. A
/// command that does more (`patchgate guard; other`) is the user's own.
pub(super) fn is_guard_command(command: &str) -> bool {
    let head = match command.split_once(" || ") {
        Some((head, _)) => head,
        None => command,
    };
    let Ok(words) = shell_words::split(head) else { return false };
    let is_patchgate = |word: &str| word.rsplit('/').next() == Some("patchgate");
    match words.as_slice() {
        [binary, guard] if is_patchgate(binary) && guard == "guard" => {
            command == head || command == wrapper(binary)
        }
        [binary, guard, flag, _] if is_patchgate(binary) && guard == "guard" => {
            flag == "--protocol" && command == head
        }
        _ => false,
    }
}
