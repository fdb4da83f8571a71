//! Every library error as the CLI reports it, in one place: which ones are refused input
//! (exit 2) and which mean patchgate could not do its job (exit 3), with their stable codes.

use super::CliError;
use patchgate::hook::HookError;
use patchgate::review::{OverrideError, ReviewError};
use patchgate::scratch::{self, LandError, PathRefused, ScratchError, WorktreeError};
use patchgate::validate::{ApplyError, ValidateError};

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
            OverrideError::Repo(e) => Self::failure("repository", e.message),
            OverrideError::Config(e) => Self::input("invalid_config", e.to_string()),
            OverrideError::Step(_) => Self::failure("corrupt_entry", e.to_string()),
            OverrideError::Validate(e) => Self::from(e).context("cannot re-validate"),
            OverrideError::Land(e) => Self::from(e),
            other => Self::failure("review", other.to_string()),
        }
    }
}

/// Errors go to stderr as one line; TOML and serde messages can span several.
pub(super) fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string().split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
