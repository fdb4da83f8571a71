//! The agent tool-call guard (the path-hallucination and logic-loop specification, with the
//! argument-rejection requirement's checks).
//!
//! An agent hook hands patchgate one tool call as JSON. [`run`] normalises it into a [`ToolCall`]
//! whatever the agent's protocol, checks every path argument (the argument-rejection patterns
//! first, then workspace containment after resolving symlinks, then existence), and answers with an
//! [`Outcome`]: allow, or deny with a structured [`Denial`] (`PATH_NOT_FOUND` carries the closest
//! existing parent, its listing and the most likely intended files). A per-session counter of
//! consecutive hallucinated paths adds the strategy-shift instruction at the second miss (and a
//! one-line reminder at each later miss of the same streak).
//!
//! The pieces: [`call`] (protocols -> `ToolCall`), `tool` (tool and argument names), `shell`
//! (file operands of shell commands), `envelope` (Codex `apply_patch`), `decide` (the decision
//! as data) and `check` (one path argument against the filesystem), `env` (roots, policy,
//! limits, state directory), [`suggest`] (basename index and ranking), `files` (the
//! repository's file list, cached by the index's identity), `correct` (the opt-in rewrite of a
//! call to its one suggestion), `replacement` (Cline's harmless stand-in for a denied call),
//! `post_tool` (misses reported after a call), [`session`] (the locked counter), `run` (the
//! I/O shell). Rendering each protocol's answer lives in `report::guard`.

mod cache;
pub mod call;
mod check;
mod correct;
mod decide;
mod delta;
mod env;
mod envelope;
mod files;
pub mod install;
mod manifest;
mod names;
mod post_tool;
mod protect;
mod refusal;
mod replacement;
mod run;
pub mod session;
mod shell;
mod signature;
mod snapshot;
pub mod suggest;
mod tool;
mod tree;
mod walk;

#[cfg(test)]
mod tests;

pub use call::{Protocol, Stage, ToolCall, parse_call};
pub use env::payload_limits;
pub use run::{run, run_call, run_reader};
pub use shell::{ShellFinding, analyse as analyse_shell};

use crate::contract::RejectedPattern;
use crate::finding::codes;
use serde::Deserialize;
use std::path::PathBuf;

/// How the guard is run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The payload's protocol; `None` detects it.
    pub protocol: Option<Protocol>,
    /// The workspace root (`--repo`); default: the payload's roots, else the repository around
    /// the call's working directory, else that directory.
    pub repo: Option<PathBuf>,
    /// Where session files and the file-list cache live; default: `<gitdir>/patchgate/guard`,
    /// else `$XDG_STATE_HOME/patchgate/guard`.
    pub state_dir: Option<PathBuf>,
}

/// What a path argument is for, which decides what "missing" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Read: the path must exist.
    Existing,
    /// Edit or delete (an `apply_patch` update or deletion): the path must exist, and the call
    /// changes it.
    Modify,
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
    /// A directory the call writes files into that it does not name (`tar x`, `unzip`, a
    /// `git apply` of a patch it cannot see): it must exist, and may not hold what configures
    /// the gate.
    Extract,
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
        /// The path does not exist (the path-hallucination specification).
        PathNotFound => "PATH_NOT_FOUND",
        /// The path resolves outside the workspace roots.
        PathOutsideWorkspace => "PATH_OUTSIDE_WORKSPACE",
        /// An argument-rejection pattern (traversal, encoding, `.git`, control bytes).
        InvalidAgentInput => "INVALID_AGENT_INPUT",
        /// A command that skips git hooks or makes commits no hook sees (`git commit
        /// --no-verify`, `core.hooksPath`, `git stash create`), or runs a shell script the
        /// guard cannot read (`base64 -d | sh`).
        HookBypass => "HOOK_BYPASS",
        /// patchgate could not evaluate the call and the policy fails closed.
        GuardError => "GUARD_ERROR",
        /// The call would change what configures the gate (`.patchgate.toml`, hook managers).
        ProtectedPath => "PROTECTED_PATH",
    }
}

/// Why a call is denied: the path-hallucination specification's structured error.
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
    /// The argument-rejection pattern for `INVALID_AGENT_INPUT` (`path_traversal`, ...).
    pub rejected_pattern: Option<RejectedPattern>,
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
    /// The call rewritten to the one existing path it most likely meant (`[guard] correct`):
    /// it runs with the corrected input, and the model and the user are told.
    pub correction: Option<Correction>,
    /// A message for the model delivered with an after-call answer (the correction of the call
    /// that ran, where the agent had no other channel for it).
    pub context: Option<String>,
    /// `None`: allow.
    pub denial: Option<Denial>,
    /// Consecutive hallucinated paths in this session, this call included.
    pub hallucination_count: u32,
    /// Whether the strategy-shift instruction is injected (the streak's second miss).
    pub strategy_shift: bool,
    /// What the model is told beside the denial: the strategy shift at the streak's second
    /// miss, a one-line reminder at each later one ([`streak_instruction`]).
    pub instruction: Option<String>,
    /// Non-fatal problems (session store unavailable, suggestions skipped).
    pub notes: Vec<String>,
}

impl Outcome {
    /// An answer to a call about to run: allowed when `denial` is `None`.
    #[must_use]
    pub fn new(protocol: Option<Protocol>, denial: Option<Denial>) -> Self {
        Self {
            protocol,
            reply: Reply::PreTool,
            replacement: None,
            correction: None,
            context: None,
            denial,
            hallucination_count: 0,
            strategy_shift: false,
            instruction: None,
            notes: Vec::new(),
        }
    }

    /// An answer that changes nothing (events the guard does not judge).
    #[must_use]
    pub fn quiet(protocol: Option<Protocol>) -> Self {
        Self { reply: Reply::Quiet, ..Self::new(protocol, None) }
    }

    /// Whether the call may run.
    #[must_use]
    pub fn is_allowed(&self) -> bool {
        self.denial.is_none()
    }

    /// What a miss that makes `count` in a row tells the model ([`streak_instruction`]).
    pub fn set_streak(&mut self, count: u32) {
        let told = streak_instruction(count);
        self.strategy_shift = told.as_ref().is_some_and(|(is_shift, _)| *is_shift);
        self.instruction = told.map(|(_, text)| text);
    }
}

/// A call rewritten to the path it most likely meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    /// The missing path as the agent wrote it.
    pub from: String,
    /// The existing path it was replaced with, as the call now names it.
    pub to: String,
    /// The call's whole input after the rewrite, in the shape the agent sent it.
    pub input: serde_json::Value,
}

impl Correction {
    /// What the model is told.
    #[must_use]
    pub fn model_message(&self) -> String {
        format!(
            "patchgate corrected this tool call: '{}' does not exist, so the call ran with '{}' \
             instead, the only similarly named path in the repository. Use '{}' from now on.",
            self.from, self.to, self.to
        )
    }

    /// What the user is told, where the agent shows hook messages.
    #[must_use]
    pub fn user_message(&self) -> String {
        format!("patchgate corrected '{}' to '{}' (the one similar path)", self.from, self.to)
    }
}

/// Which calls the guard rewrites to their one suggestion instead of denying them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Correct {
    /// None: a missing path is always denied.
    #[default]
    Off,
    /// Calls that only read (reading tools, listings and searches, shell commands of readers).
    Reads,
    /// Any call on an existing path (never a path the call creates).
    All,
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
/// correct = "reads"              # rewrite a read of a missing path to its one suggestion
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
    /// Which calls with a missing path and exactly one suggestion are rewritten to it.
    pub correct: Correct,
}

impl Default for GuardPolicy {
    fn default() -> Self {
        Self {
            on_error_read: OnError::Deny,
            extra_roots: vec![PathBuf::from("/dev"), PathBuf::from("/tmp")],
            listing_limit: 50,
            suggestion_limit: 5,
            session_ttl_hours: 24,
            correct: Correct::Off,
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

/// The instruction the path-hallucination specification injects after two consecutive hallucinated
/// paths.
#[must_use]
pub fn strategy_shift_instruction(count: u32) -> String {
    format!(
        "STRATEGY SHIFT: {count} consecutive tool calls named paths that do not exist. Stop \
         using modification tools. Use discovery tools first (glob, search/grep, list \
         directory) to find the file, then retry with a path they returned."
    )
}

/// What the model is told about a streak of `count` consecutive misses: nothing before the
/// second; the strategy shift at the second (`true`); a one-line reminder at each later miss of
/// the same streak (`false`). The full instruction is already in the model's context by then:
/// repeating its paragraph at every miss only buries the denial's own reason and suggestions,
/// while the count going up is what tells the model its guessing is not converging.
#[must_use]
pub fn streak_instruction(count: u32) -> Option<(bool, String)> {
    match count {
        0 | 1 => None,
        2 => Some((true, strategy_shift_instruction(count))),
        _ => Some((
            false,
            format!(
                "Reminder: {count} paths in a row did not exist. Find the file with glob, grep \
                 or a directory listing before the next call."
            ),
        )),
    }
}
