//! Every library error as the CLI reports it, in one place: which ones are refused input
//! (exit 2) and which mean patchgate could not do its job (exit 3), with their stable codes.

use super::CliError;
use patchgate::config::ConfigError;
use patchgate::contract::{ContractError, TooLong};
use patchgate::hook::HookError;
use patchgate::repair::RepairError;
use patchgate::repo::RepoError;
use patchgate::review::ReviewError;
use patchgate::scratch::{self, LandError, PathRefused, ScratchError, WorktreeError};
use patchgate::validate::{ApplyError, OverrideError, ValidateError};

impl From<&ValidateError> for CliError {
    fn from(e: &ValidateError) -> Self {
        let message = one_line(e);
        if e.is_input_refused() {
            Self::input(e.code(), message)
        } else {
            Self::failure(e.code(), message)
        }
    }
}

impl From<ValidateError> for CliError {
    fn from(e: ValidateError) -> Self {
        Self::from(&e)
    }
}

/// A bad policy or input is refused (2), the rest is a failure (3).
impl From<HookError> for CliError {
    fn from(e: HookError) -> Self {
        let code = e.code();
        match e {
            HookError::Config(_) | HookError::Policy { .. } | HookError::Input { .. } => {
                Self::input(code, e.to_string())
            }
            _ => Self::failure(code, e.to_string()),
        }
    }
}

impl From<patchgate::declare::StoreError> for CliError {
    fn from(e: patchgate::declare::StoreError) -> Self {
        Self::failure("declaration_store", e.to_string())
    }
}

/// A bad id is the user's input (2), the rest is ours (3).
impl From<&ReviewError> for CliError {
    fn from(e: &ReviewError) -> Self {
        if e.is_input() {
            Self::input(e.code(), e.to_string())
        } else {
            Self::failure(e.code(), e.to_string())
        }
    }
}

impl From<ReviewError> for CliError {
    fn from(e: ReviewError) -> Self {
        Self::from(&e)
    }
}

/// A bad base or `expect` regex is refused input.
impl From<&ScratchError> for CliError {
    fn from(e: &ScratchError) -> Self {
        match e {
            ScratchError::BadBase { .. } | ScratchError::BadExpect { .. } => {
                Self::input("invalid_input", e.to_string())
            }
            _ => Self::failure("repository", e.to_string()),
        }
    }
}

/// Why an accepted patch was not written: every case is exit 3, told apart by its code.
impl From<LandError> for CliError {
    fn from(e: LandError) -> Self {
        let code = match &e {
            LandError::Scratch(inner) => return Self::from(inner),
            LandError::DoesNotApply { .. } => {
                return Self::failure("cannot_apply", format!("cannot apply: {e}"));
            }
            LandError::Dirty { .. } | LandError::Write(WorktreeError::Changed { .. }) => {
                "worktree_dirty"
            }
            LandError::Write(WorktreeError::Interrupted) => "interrupted",
            LandError::Write(WorktreeError::SubmoduleNeedsIndex { .. }) => "submodule_needs_index",
            LandError::Write(WorktreeError::Incomplete { .. }) => "rollback_incomplete",
            LandError::Write(WorktreeError::Journal(scratch::JournalError::Pending { .. })) => {
                "interrupted_apply"
            }
            LandError::Write(WorktreeError::Refused(refused)) => match refused {
                PathRefused::BeyondLink { .. } | PathRefused::LinkOutside { .. } => "unsafe_path",
                PathRefused::NotADirectory { .. } => "worktree_dirty",
                _ => "write_failed",
            },
            _ => "write_failed",
        };
        Self::failure(code, e.to_string())
    }
}

/// Validation errors as `validate` reports them, write errors as `apply` does.
impl From<ApplyError> for CliError {
    fn from(e: ApplyError) -> Self {
        match e {
            ApplyError::Validate(e) => Self::from(e),
            ApplyError::Land(e) => Self::from(e),
            other => Self::failure("write_failed", other.to_string()),
        }
    }
}

/// `review apply`'s errors, worded as each step of it reports them.
impl From<OverrideError> for CliError {
    fn from(e: OverrideError) -> Self {
        match e {
            OverrideError::Repo(e) => Self::from(e),
            OverrideError::Config(e) => Self::from(e),
            OverrideError::Step(_) | OverrideError::Run(_) => {
                Self::failure("corrupt_entry", e.to_string())
            }
            OverrideError::Validate(e) => Self::from(e).context("cannot re-validate"),
            OverrideError::Land(e) => Self::from(e),
            other => Self::failure("review", other.to_string()),
        }
    }
}

/// A `.patchgate.toml` that does not parse, or holds a bad value, is refused input.
/// A policy that does not parse is refused input (2); one that cannot be read (a link, a
/// FIFO, over 1 MiB, a read error) means patchgate cannot do its job (3), never "no policy".
impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::Read { .. } => Self::failure("policy_unreadable", one_line(&e)),
            _ => Self::input("invalid_config", one_line(&e)),
        }
    }
}

/// A bad `[contract]` table (a pattern that does not compile) is refused input too.
impl From<ContractError> for CliError {
    fn from(e: ContractError) -> Self {
        Self::input("invalid_config", one_line(&e))
    }
}

/// A repository patchgate needs and cannot open or use: it could not do its job. A directory
/// the user named with `--repo` that is not a repository is their input: [`named_repo`].
impl From<RepoError> for CliError {
    fn from(e: RepoError) -> Self {
        Self::failure("repository", e.message)
    }
}

/// `--repo DIR` where DIR is no repository: refused input.
pub(super) fn named_repo(e: RepoError) -> CliError {
    CliError::input("repository", e.message)
}

/// A repair that could not be evaluated fails as the repository check does.
impl From<RepairError> for CliError {
    fn from(e: RepairError) -> Self {
        Self::from(&e.0)
    }
}

/// The model judge could not be set up (a missing key, an unknown provider).
impl From<patchgate::judge::JudgeError> for CliError {
    fn from(e: patchgate::judge::JudgeError) -> Self {
        Self::failure("judge_failed", e.to_string())
    }
}

impl From<TooLong> for CliError {
    fn from(e: TooLong) -> Self {
        Self::input("content_too_long", e.to_string())
    }
}

/// Errors go to stderr as one line; TOML and serde messages can span several.
pub(super) fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string().split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
