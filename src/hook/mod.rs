//! The git hook: staged changes + declaration + policy -> verdict, and its installation.
//!
//! * [`evaluate`] is the pure core: a list of [`Change`]s, the active declaration (a
//!   [`PathSet`]) and the [`Policy`] give the [`Violation`]s. Exclusions beat declarations; a
//!   rename must have both of its paths allowed.
//! * [`staged`] reads the changes of the index against `HEAD` (pre-commit, pre-applypatch)
//!   through git2, never the worktree; [`run_staged`] is the whole pre-commit run over them.
//! * [`receive`] checks every commit a push brings (pre-receive) against the declaration in its
//!   `Patchgate-Declared:` trailers, under the server's policy ([`server`]); [`range`] does the
//!   same for a range of commits (`patchgate ci`).
//! * [`install`] writes, chains, reports and removes the shims from the top-level `hooks/`.
//!
//! Policy (`.patchgate.toml`): the top-level `excluded` globs, and the `[hook]` table
//! ([`HookPolicy`]).

mod delta;
mod fast;
pub mod install;
pub mod managers;
pub mod range;
pub mod receive;
mod run;
pub mod server;
pub mod staged;
#[cfg(test)]
mod tests;

pub use run::{StagedRun, configured_hooks, run_staged};

use crate::config::{Config, ConfigError, Limits};
use crate::finding::codes;
use crate::path::PathSet;
use serde::{Deserialize, Serialize};

/// The `[hook]` table of `.patchgate.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HookPolicy {
    /// Block every commit (and, server side, every pushed commit) that changes files without
    /// a declaration (`patchgate declare`, or `Patchgate-Declared:` trailers).
    pub require_declaration: bool,
    /// The hooks `patchgate hook install` installs when `--hooks` is not given.
    pub hooks: Vec<HookName>,
}

impl Default for HookPolicy {
    fn default() -> Self {
        Self {
            require_declaration: false,
            hooks: vec![HookName::PreCommit, HookName::PreApplypatch],
        }
    }
}

codes! {
    /// The git hooks patchgate can run as.
    HookName {
        /// `git commit`: the index against `HEAD`.
        PreCommit => "pre-commit",
        /// `git am`: the index after the patch is applied, against `HEAD`.
        PreApplypatch => "pre-applypatch",
        /// Server side: every commit a push brings.
        PreReceive => "pre-receive",
    }
}

codes! {
    /// Whether a change may touch the policy file itself (`.patchgate.toml`), which would
    /// otherwise let one commit lift the exclusions the next one relies on.
    PolicyChange {
        /// Like any other path (there is no policy to protect).
        Allow => "allow",
        /// Only when the declaration (or the commit's trailers) names `.patchgate.toml` by its
        /// exact path: a glob or a directory that happens to cover it does not.
        Declared => "declared",
        /// Never.
        Refuse => "refuse",
    }
}

/// The compiled policy the hook enforces.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Global excluded paths (`excluded` in `.patchgate.toml`).
    pub excluded: PathSet,
    /// The `[hook]` table.
    pub hook: HookPolicy,
    /// Where the policy was read from (a file, or `REV:.patchgate.toml`); `None`: no policy.
    pub source: Option<String>,
    /// The `[limits]` table, applied to declarations and trailers before they are compiled.
    pub limits: Limits,
    /// Whether the policy file itself may change: [`PolicyChange::Declared`] once there is a
    /// policy (the server sets its own, see [`receive`]).
    pub policy_change: PolicyChange,
}

impl Policy {
    /// Compile a loaded `.patchgate.toml`.
    pub fn from_config(config: &Config, source: Option<String>) -> Result<Self, HookError> {
        let hook = config.section::<HookPolicy>("hook")?;
        let excluded = config
            .excluded_globs()
            .cloned()
            .map_err(|e| config.invalid(&format!("'excluded': {e}")))?;
        let policy_change =
            if config.source.is_some() { PolicyChange::Declared } else { PolicyChange::Allow };
        Ok(Self { excluded, hook, source, limits: config.limits(), policy_change })
    }

    /// No policy: nothing excluded, nothing required.
    #[must_use]
    pub fn none() -> Self {
        Self {
            excluded: PathSet::empty(),
            hook: HookPolicy::default(),
            source: None,
            limits: Limits::default(),
            policy_change: PolicyChange::Allow,
        }
    }
}

codes! {
    /// What happened to a path.
    ChangeStatus {
        /// New path.
        Added => "added",
        /// Path removed.
        Deleted => "deleted",
        /// Content or mode changed.
        Modified => "modified",
        /// Moved (both paths count as changed).
        Renamed => "renamed",
        /// Copied (only the new path counts as changed).
        Copied => "copied",
        /// Kind changed (file <-> symlink <-> submodule).
        Typechange => "typechange",
    }
}

/// One changed path (two for a rename or copy), as raw bytes from git.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What happened.
    pub status: ChangeStatus,
    /// The path before (`None` for an addition).
    pub old_path: Option<Vec<u8>>,
    /// The path after (`None` for a deletion).
    pub new_path: Option<Vec<u8>>,
    /// git's mode before (`0o100644`, `0o120000` symlink, `0o160000` submodule), 0 if none.
    pub old_mode: u32,
    /// git's mode after.
    pub new_mode: u32,
}

impl Change {
    /// The paths this change touches: both sides of a rename, the new side of a copy.
    #[must_use]
    pub fn touched(&self) -> Vec<&[u8]> {
        let mut out: Vec<&[u8]> = Vec::with_capacity(2);
        if self.status != ChangeStatus::Copied
            && let Some(old) = &self.old_path
        {
            out.push(old);
        }
        if let Some(new) = &self.new_path
            && self.new_path != self.old_path
        {
            out.push(new);
        }
        out
    }

    /// The other side of a rename or copy, seen from `path`.
    #[must_use]
    pub fn other_side(&self, path: &[u8]) -> Option<&[u8]> {
        match (&self.old_path, &self.new_path) {
            (Some(old), Some(new)) if old != new => {
                Some(if old.as_slice() == path { new } else { old })
            }
            _ => None,
        }
    }
}

codes! {
    /// Why a path is not allowed. The wire names are part of the public contract.
    Reason {
        /// Under a path the policy excludes (declaring it does not help).
        Excluded => "excluded",
        /// Outside the active declaration.
        Undeclared => "undeclared",
        /// The policy requires a declaration and there is none.
        NoDeclaration => "no_declaration",
        /// The path fails the path-safety checks (control bytes, backslash, ...).
        UnsafePath => "unsafe_path",
        /// A declared pattern (a commit's trailer) is itself unsafe or not a glob.
        InvalidDeclaration => "invalid_declaration",
        /// The policy file itself, which the policy in force does not let this change touch
        /// (the detail says how it could: `declared`, or `refuse`).
        PolicyChange => "policy_change",
    }
}

/// One path that blocks the commit (or push).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The offending path (escaped for display when it is not clean UTF-8).
    pub path: String,
    /// What happened to it.
    pub status: ChangeStatus,
    /// The other side of a rename/copy.
    pub other_path: Option<String>,
    /// Whether `path` is the old side of a rename (`renamed to other_path`).
    pub is_old_side: bool,
    /// Why it is blocked.
    pub reason: Reason,
    /// The excluding pattern, the path-safety code, or the bad declared pattern.
    pub detail: Option<String>,
}

/// Judge `changes` against the declaration (`None`: no declaration is active) and the policy.
#[must_use]
pub fn evaluate(changes: &[Change], declared: Option<&PathSet>, policy: &Policy) -> Vec<Violation> {
    let mut out = Vec::new();
    for change in changes {
        for raw in change.touched() {
            if let Some((reason, detail)) = judge(raw, declared, policy) {
                out.push(Violation {
                    path: crate::path::display_bytes(raw),
                    status: change.status,
                    other_path: change.other_side(raw).map(crate::path::display_bytes),
                    is_old_side: change.new_path.as_deref() != Some(raw),
                    reason,
                    detail,
                });
            }
        }
    }
    out
}

fn judge(
    raw: &[u8],
    declared: Option<&PathSet>,
    policy: &Policy,
) -> Option<(Reason, Option<String>)> {
    let enforcing = declared.is_some() || policy.hook.require_declaration;
    let text = match crate::path::check_bytes(raw) {
        Ok(path) => path.as_str().to_owned(),
        Err(e) if enforcing || !policy.excluded.is_empty() => {
            return Some((Reason::UnsafePath, Some(e.code.as_str().to_owned())));
        }
        Err(_) => return None,
    };
    if let Some(pattern) = policy.excluded.matching_pattern(&text) {
        return Some((Reason::Excluded, Some(pattern.to_owned())));
    }
    if text == crate::config::FILE_NAME {
        let by_name = declared.is_some_and(|set| set.patterns().iter().any(|p| p == &text));
        match policy.policy_change {
            PolicyChange::Allow => {}
            PolicyChange::Declared if by_name => {}
            mode => return Some((Reason::PolicyChange, Some(mode.as_str().to_owned()))),
        }
    }
    match declared {
        Some(set) if set.is_match(&text) => None,
        Some(_) => Some((Reason::Undeclared, None)),
        None if policy.hook.require_declaration => Some((Reason::NoDeclaration, None)),
        None => None,
    }
}

/// The hook could not evaluate; in hook mode every one of these blocks.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HookError {
    /// The repository could not be opened or read.
    #[error("{0}")]
    Repo(#[from] crate::repo::RepoError),
    /// A git operation failed.
    #[error("git: {context}: {message}")]
    Git {
        /// What was being done.
        context: String,
        /// libgit2's message.
        message: String,
    },
    /// `.patchgate.toml` is unusable.
    #[error("{0}")]
    Config(#[from] ConfigError),
    /// The policy is unusable in another way (a bad glob).
    #[error("invalid policy: {message}")]
    Policy {
        /// What is wrong.
        message: String,
    },
    /// The declaration store failed.
    #[error("{0}")]
    Store(#[from] crate::declare::StoreError),
    /// The stored declaration holds a bad pattern.
    #[error("{0}; run 'patchgate declare --clear' and declare again")]
    Declaration(#[from] crate::declare::PatternError),
    /// The hook's input (pre-receive's stdin) is malformed.
    #[error("{message}")]
    Input {
        /// What is wrong.
        message: String,
    },
    /// Installing or removing hooks failed.
    #[error("{message}")]
    Install {
        /// What failed and what to do.
        message: String,
    },
}

/// The policy a commit is judged under: `.patchgate.toml` in `HEAD`'s tree, never the one the
/// commit writes (a commit emptying the staged policy would lift its own exclusions), nor the
/// worktree's; the default policy while `HEAD` is unborn (the first commit).
pub fn head_config(repo: &git2::Repository) -> Result<Config, HookError> {
    let head = match repo.head() {
        Ok(head) => head,
        Err(e) if matches!(e.code(), git2::ErrorCode::UnbornBranch | git2::ErrorCode::NotFound) => {
            return Ok(Config::default());
        }
        Err(e) => return Err(HookError::git("read HEAD")(e)),
    };
    let tree = head.peel_to_tree().map_err(HookError::git("read HEAD's tree"))?;
    let shown = format!("HEAD:{}", crate::config::FILE_NAME);
    Ok(Config::from_tree(repo, &tree, std::path::Path::new(&shown))?)
}

impl HookError {
    /// Wrap a git2 error with what was being done.
    pub fn git(context: impl Into<String>) -> impl FnOnce(git2::Error) -> Self {
        let context = context.into();
        move |e| Self::Git { context, message: e.message().to_owned() }
    }

    /// Stable code for the JSON envelope.
    #[must_use]
    pub fn code(&self) -> crate::finding::ErrorCode {
        use crate::finding::ErrorCode;
        match self {
            Self::Repo(e) => e.code,
            Self::Git { .. } => ErrorCode::Git,
            Self::Config(_) | Self::Policy { .. } => ErrorCode::Policy,
            Self::Store(_) => ErrorCode::DeclarationStore,
            Self::Declaration(_) => ErrorCode::Declaration,
            Self::Input { .. } => ErrorCode::Input,
            Self::Install { .. } => ErrorCode::Install,
        }
    }
}
