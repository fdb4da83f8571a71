//! `patchgate guard install / uninstall`: each agent's hook settings for the guard.
//!
//! Install merges patchgate's hook groups into the settings already there (other hooks and
//! keys kept, an earlier patchgate hook replaced, never doubled), writes every file of the
//! request or none (`write`), and keeps what each file held before under the user's state
//! directory (`record`). Uninstall puts that back byte for byte when the file is still exactly
//! what install made of it; otherwise it removes patchgate's hooks and keeps the rest. A record
//! is only a claim (anything the agent runs can write there): it is used only when installing
//! into the content it names gives the file as it is now, and that content holds no patchgate
//! hook, so it can only restore what the user had.
//!
//! Every hook runs patchgate through a wrapper that fails closed ([`wrapper`]): when the
//! binary is missing or dies, the call is blocked with the reason instead of running
//! unchecked (Claude Code, Codex and Cline run a call whose hook cannot start), and the guard
//! answers before the agent's hook timeout (`patchgate guard --timeout`).
//!
//! The files (`settings`): Claude Code `.claude/settings.json`, Gemini CLI
//! `.gemini/settings.json`, Codex `.codex/hooks.json` plus `[features] hooks` and the hooks'
//! trust in `$CODEX_HOME/config.toml` (`codex`), Cursor `.cursor/hooks.json`, Cline
//! `.clinerules/hooks/PreToolUse` and `PostToolUse`; under the project for `--scope project`,
//! under the user's home (`~/.claude`, `~/.gemini`, `$CODEX_HOME`, `~/.cursor`,
//! `~/.cline/hooks`) for `--scope user`.

mod codex;
mod hooks;
mod json;
mod record;
mod settings;
mod write;

#[cfg(test)]
mod tests;

use crate::finding::codes;
use std::path::{Path, PathBuf};

pub use hooks::{cline_script, wrapper};

codes! {
    /// An agent whose hook settings `guard install` writes.
    Agent {
        /// Claude Code (`.claude/settings.json`).
        ClaudeCode => "claude-code",
        /// Gemini CLI (`.gemini/settings.json`).
        GeminiCli => "gemini-cli",
        /// Codex CLI (`.codex/hooks.json`, and `config.toml` for the feature and trust).
        Codex => "codex",
        /// Cursor (`.cursor/hooks.json`).
        Cursor => "cursor",
        /// Cline (`.clinerules/hooks/PreToolUse` and `PostToolUse`).
        Cline => "cline",
    }
}

codes! {
    /// Where the settings go.
    Scope {
        /// The project's own settings (shared with whoever uses the project).
        Project => "project",
        /// The user's settings: every session of that user, wherever it starts.
        User => "user",
    }
}

/// Where each agent keeps its settings, and where install keeps its records.
#[derive(Clone, Debug)]
pub struct Locations {
    /// The project root (`--scope project`).
    pub project: PathBuf,
    /// The user's home.
    pub home: PathBuf,
    /// Codex's home (`$CODEX_HOME`, default `~/.codex`).
    pub codex_home: PathBuf,
    /// Claude Code's user directory (`$CLAUDE_CONFIG_DIR`, default `~/.claude`).
    pub claude_home: PathBuf,
    /// Cline's directory (`$CLINE_DIR`, default `~/.cline`).
    pub cline_home: PathBuf,
    /// Where install records what it replaced (`$XDG_STATE_HOME/patchgate/guard-install`).
    pub records: PathBuf,
}

impl Locations {
    /// The locations for `project`, from the environment the agents themselves read.
    #[must_use]
    pub fn from_env(project: PathBuf, home: PathBuf) -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let state = var("XDG_STATE_HOME").unwrap_or_else(|| home.join(".local/state"));
        Self {
            codex_home: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            claude_home: var("CLAUDE_CONFIG_DIR").unwrap_or_else(|| home.join(".claude")),
            cline_home: var("CLINE_DIR").unwrap_or_else(|| home.join(".cline")),
            records: state.join("patchgate").join("guard-install"),
            project,
            home,
        }
    }
}

/// What the hooks run.
#[derive(Clone, Debug)]
pub struct Context {
    /// The files' places.
    pub locations: Locations,
    /// The patchgate the hooks run: `patchgate` when the one on `PATH` is this binary, else
    /// its absolute path.
    pub binary: String,
}

/// What happened to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Install made the file.
    Created,
    /// Install merged patchgate's hooks into the file there.
    Merged,
    /// The file already held exactly these hooks.
    Unchanged,
    /// Uninstall put back the bytes install found (or removed the file install made).
    Restored,
    /// Uninstall removed patchgate's hooks and kept the rest: the file changed since install,
    /// or install's record is missing or does not match it.
    Stripped,
    /// Nothing of patchgate's was there.
    Absent,
}

impl Action {
    /// The wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Merged => "merged",
            Self::Unchanged => "unchanged",
            Self::Restored => "restored",
            Self::Stripped => "stripped",
            Self::Absent => "absent",
        }
    }
}

/// One file of the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOutcome {
    /// The agent.
    pub agent: Agent,
    /// The file.
    pub path: PathBuf,
    /// What was done.
    pub action: Action,
}

/// What install or uninstall did, and what the user should know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Every file, in order.
    pub files: Vec<FileOutcome>,
    /// Things to know (an agent that ignores project hooks in subdirectories, trust stored).
    pub notes: Vec<String>,
}

/// Install or uninstall could not be done; nothing was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// A settings file is not what patchgate can merge into.
    #[error("{}: {why}", path.display())]
    Settings {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to do.
        why: String,
    },
    /// Reading or writing failed (everything written before was put back).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl InstallError {
    fn settings(path: &Path, why: impl Into<String>) -> Self {
        Self::Settings { path: path.to_owned(), why: why.into() }
    }

    fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_owned(), source }
    }
}

/// Install the guard's hooks for `agents` in `scope`: all files or none.
pub fn install(agents: &[Agent], scope: Scope, ctx: &Context) -> Result<Outcome, InstallError> {
    let mut outcome = each_file(agents, scope, ctx, settings::Target::install)?;
    for &agent in agents {
        outcome.notes.extend(settings::notes(agent, scope));
    }
    Ok(outcome)
}

/// Remove the guard's hooks for `agents` in `scope`: all files or none.
pub fn uninstall(agents: &[Agent], scope: Scope, ctx: &Context) -> Result<Outcome, InstallError> {
    each_file(agents, scope, ctx, settings::Target::uninstall)
}

/// Plan `step` for every file of `agents`, then carry the plan out.
fn each_file(
    agents: &[Agent],
    scope: Scope,
    ctx: &Context,
    step: fn(&settings::Target, &Context, &mut write::Plan) -> Result<Action, InstallError>,
) -> Result<Outcome, InstallError> {
    let mut plan = write::Plan::default();
    let mut outcome = Outcome::default();
    for &agent in agents {
        for target in settings::targets(agent, scope, &ctx.locations) {
            let action = step(&target, ctx, &mut plan)?;
            outcome.files.push(FileOutcome { agent, path: target.path.clone(), action });
        }
    }
    plan.apply(&ctx.locations.records)?;
    Ok(outcome)
}
