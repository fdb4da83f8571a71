//! The agent tool-call guard (seed 001, with seed 003's argument checks).
//!
//! An agent hook hands patchgate one tool call as JSON. [`run`] normalises it into a [`ToolCall`]
//! whatever the agent's protocol, checks every path argument (seed-003 patterns first, then
//! workspace containment after resolving symlinks, then existence), and answers with an
//! [`Outcome`]: allow, or deny with a structured [`Denial`] (`PATH_NOT_FOUND` carries the closest
//! existing parent, its listing and the most likely intended files). A per-session counter of
//! consecutive hallucinated paths adds the strategy-shift instruction at the second miss.
//!
//! The pieces: [`call`] (protocols -> `ToolCall`), `tool` (tool and argument names), `shell`
//! (file operands of shell commands), `envelope` (Codex `apply_patch`), `check` (one path
//! argument against the filesystem), [`suggest`] (basename index and ranking), `files` (the
//! repository's file list, cached by the index's identity), [`session`] (the locked counter).
//! Rendering each protocol's answer lives in `report::guard`.

pub mod call;
mod check;
mod decide;
mod envelope;
mod files;
mod post_tool;
mod protect;
mod replacement;
mod run;
pub mod session;
mod shell;
pub mod suggest;
mod tool;

#[cfg(test)]
mod tests;

pub use call::{Protocol, Stage, ToolCall, parse_call};
pub use run::{Options, run, run_call};
pub use shell::{ShellFinding, analyse as analyse_shell};

use crate::finding::codes;
use serde::Deserialize;
use std::path::PathBuf;

/// What a path argument is for, which decides what "missing" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Read, edit, delete: the path must exist.
    Existing,
    /// A directory to list or search in: must exist.
    Directory,
    /// A file or directory to search in (Claude Code's `Grep.path`): must exist; suggestions
    /// are files when the name has an extension, else directories.
    Entry,
    /// A file the call creates (`Write`, `touch`, `>`, a `cp` destination): it may be new, but
    /// its parent directory must exist.
    Create,
    /// `mkdir -p`: any missing ancestors are created; only safety and containment are checked.
    CreateDirs,
    /// Only safety and containment are checked (`rm -f`).
    Unchecked,
    /// The target of a symbolic link the call makes: it must stay inside the workspace itself
    /// (not merely an extra root), so no link leads a later write out of the repository.
    LinkTarget,
}

/// One path argument to check, in the order the tool would use them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathArg {
    /// The argument as the agent wrote it (after shell unquoting).
    pub raw: String,
    /// What the tool does with it.
    pub role: Role,
    /// The directory a relative `raw` resolves against.
    pub base: PathBuf,
}

/// How a tool call relates to the hallucination counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolKind {
    /// Reads files (`Read`, `read_file`).
    Read,
    /// Writes or edits files; fail closed on any internal error.
    Write,
    /// Lists or searches (`LS`, `Glob`, `Grep`, `ls`, `find`): resets the counter.
    Discovery,
    /// A shell command; may write, so fail closed.
    Shell,
    /// A tool patchgate does not know: allowed.
    Unknown,
}

impl ToolKind {
    /// Whether an internal error must deny the call whatever the read policy says.
    #[must_use]
    pub fn is_write(self) -> bool {
        matches!(self, Self::Write | Self::Shell)
    }
}

codes! {
    /// Stable codes of a denial.
    DenyCode {
        /// The path does not exist (seed 001).
        PathNotFound => "PATH_NOT_FOUND",
        /// The path resolves outside the workspace roots.
        PathOutsideWorkspace => "PATH_OUTSIDE_WORKSPACE",
        /// A seed-003 hallucination pattern (traversal, encoding, `.git`, control bytes).
        InvalidAgentInput => "INVALID_AGENT_INPUT",
        /// A command that skips git hooks (`git commit --no-verify`, `core.hooksPath`).
        HookBypass => "HOOK_BYPASS",
        /// patchgate could not evaluate the call and the policy fails closed.
        GuardError => "GUARD_ERROR",
        /// The call would change what configures the gate (`.patchgate.toml`, hook managers).
        ProtectedPath => "PROTECTED_PATH",
    }
}

/// Why a call is denied: seed 001's structured error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denial {
    /// Stable code.
    pub code: DenyCode,
    /// One paragraph for the agent: what is wrong, what exists, what to do.
    pub message: String,
    /// The offending argument as the agent wrote it.
    pub path: Option<String>,
    /// The closest existing parent directory (`PATH_NOT_FOUND` only).
    pub parent: Option<String>,
    /// That directory's entries, directories marked with a trailing `/`, bounded.
    pub parent_listing: Vec<String>,
    /// Entries of the parent not shown in `parent_listing`.
    pub parent_listing_omitted: usize,
    /// The most likely intended files, best first.
    pub suggestions: Vec<String>,
    /// The seed-003 pattern name for `INVALID_AGENT_INPUT` (`path_traversal`, ...).
    pub rejected_pattern: Option<String>,
}

impl Denial {
    /// A denial with only a code, message and path.
    #[must_use]
    pub fn simple(code: DenyCode, message: String, path: Option<String>) -> Self {
        Self {
            code,
            message,
            path,
            parent: None,
            parent_listing: Vec::new(),
            parent_listing_omitted: 0,
            suggestions: Vec::new(),
            rejected_pattern: None,
        }
    }
}

/// What the answer is to: a call about to run, one that ran, or an event the guard only notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Reply {
    /// A call about to run: allow or deny.
    #[default]
    PreTool,
    /// A call that ran (the agent's event name, echoed in the answer): nothing to refuse, but
    /// the strategy shift may be due.
    PostTool(String),
    /// A session boundary or an event the guard does not judge: an empty answer.
    Quiet,
}

/// The guard's answer to one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The protocol the answer must be spoken in (resolved when `auto`; `None` when the payload
    /// matched no agent's protocol, which fails closed).
    pub protocol: Option<Protocol>,
    /// What kind of event is answered.
    pub reply: Reply,
    /// For agents whose hooks cannot refuse one call (Cline 3.x): the input that replaces the
    /// denied call's, so the call runs harmlessly and fails, and the run goes on.
    pub replacement: Option<serde_json::Value>,
    /// `None`: allow.
    pub denial: Option<Denial>,
    /// Consecutive hallucinated paths in this session, this call included.
    pub hallucination_count: u32,
    /// Whether the strategy-shift instruction is injected.
    pub strategy_shift: bool,
    /// The instruction for the agent's next step, when shifting strategy.
    pub instruction: Option<String>,
    /// Non-fatal problems (session store unavailable, suggestions skipped).
    pub notes: Vec<String>,
}

impl Outcome {
    /// Whether the call may run.
    #[must_use]
    pub fn is_allowed(&self) -> bool {
        self.denial.is_none()
    }
}

/// What to do when the guard cannot evaluate a read-only call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    /// Let the read run.
    Allow,
    /// Deny it (the default: fail closed).
    #[default]
    Deny,
}

/// `[guard]` in `.patchgate.toml`.
///
/// ```toml
/// [guard]
/// on_error_read = "allow"        # writes always fail closed
/// extra_roots = ["/dev", "/tmp"] # directories outside the workspace agents may use
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GuardPolicy {
    /// Fail open or closed on read-only calls the guard cannot evaluate.
    pub on_error_read: OnError,
    /// Directories outside the workspace that paths may point into.
    pub extra_roots: Vec<PathBuf>,
    /// Bound of `parent_listing`.
    pub listing_limit: usize,
    /// Bound of `suggestions`.
    pub suggestion_limit: usize,
    /// Sessions untouched this long are deleted.
    pub session_ttl_hours: u64,
}

impl Default for GuardPolicy {
    fn default() -> Self {
        Self {
            on_error_read: OnError::Deny,
            extra_roots: vec![PathBuf::from("/dev"), PathBuf::from("/tmp")],
            listing_limit: 50,
            suggestion_limit: 5,
            session_ttl_hours: 24,
        }
    }
}

/// The guard could not evaluate a call.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GuardError {
    /// The payload is not a tool call patchgate can read.
    #[error("unreadable tool call: {0}")]
    Payload(String),
    /// `--protocol auto` found no agent's protocol in the payload.
    #[error(
        "the payload matches no agent's hook protocol (Claude Code, Gemini CLI, Codex, Cursor, \
         Cline); name it with --protocol, or --protocol generic for patchgate's own format"
    )]
    Undetected,
    /// The workspace, policy or filesystem could not be read.
    #[error("{0}")]
    Environment(String),
}

/// The instruction seed 001 injects after two consecutive hallucinated paths.
#[must_use]
pub fn strategy_shift_instruction(count: u32) -> String {
    format!(
        "STRATEGY SHIFT: {count} consecutive tool calls named paths that do not exist. Stop \
         using modification tools. Use discovery tools first (glob, search/grep, list \
         directory) to find the file, then retry with a path they returned."
    )
}
