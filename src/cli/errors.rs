//! Every library error as the CLI reports it, in one place, with its stable code (which says
//! whether it is refused input, exit 2, or patchgate could not do its job, exit 3).

use super::CliError;
use patchgate::config::ConfigError;
use patchgate::contract::{ContractError, TooLong};
use patchgate::finding::ErrorCode;
use patchgate::hook::HookError;
use patchgate::repair::RepairError;
use patchgate::repo::RepoError;
use patchgate::review::ReviewError;
use patchgate::scratch::{self, LandError, PathRefused, ScratchError, WorktreeError};
use patchgate::validate::{ApplyError, OverrideError, ValidateError};

impl From<&ValidateError> for CliError {
    fn from(e: &ValidateError) -> Self {
        Self::new(e.code(), one_line(e))
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
        Self::new(e.code(), e.to_string())
    }
}

impl From<patchgate::declare::StoreError> for CliError {
    fn from(e: patchgate::declare::StoreError) -> Self {
        Self::new(ErrorCode::DeclarationStore, e.to_string())
    }
}

/// A bad id is the user's input (2), the rest is ours (3).
impl From<&ReviewError> for CliError {
    fn from(e: &ReviewError) -> Self {
        Self::new(e.code(), e.to_string())
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
                Self::new(ErrorCode::InvalidInput, e.to_string())
            }
            _ => Self::new(ErrorCode::Repository, e.to_string()),
        }
    }
}

/// Why an accepted patch was not written: every case is exit 3, told apart by its code.
impl From<LandError> for CliError {
    fn from(e: LandError) -> Self {
        let code = match &e {
            LandError::Scratch(inner) => return Self::from(inner),
            LandError::DoesNotApply { .. } => {
                return Self::new(ErrorCode::CannotApply, format!("cannot apply: {e}"));
            }
            LandError::Dirty { .. } | LandError::Write(WorktreeError::Changed { .. }) => {
                ErrorCode::WorktreeDirty
            }
            LandError::Write(WorktreeError::Interrupted) => ErrorCode::Interrupted,
            LandError::Write(WorktreeError::SubmoduleNeedsIndex { .. }) => {
                ErrorCode::SubmoduleNeedsIndex
            }
            LandError::Write(WorktreeError::Incomplete { .. }) => ErrorCode::RollbackIncomplete,
            LandError::Write(WorktreeError::Journal(scratch::JournalError::Pending { .. })) => {
                ErrorCode::InterruptedApply
            }
            LandError::Write(WorktreeError::Refused(refused)) => match refused {
                PathRefused::BeyondLink { .. } | PathRefused::LinkOutside { .. } => {
                    ErrorCode::UnsafePath
                }
                PathRefused::NotADirectory { .. } => ErrorCode::WorktreeDirty,
                _ => ErrorCode::WriteFailed,
            },
            _ => ErrorCode::WriteFailed,
        };
        Self::new(code, e.to_string())
    }
}

/// Validation errors as `validate` reports them, write errors as `apply` does.
impl From<ApplyError> for CliError {
    fn from(e: ApplyError) -> Self {
        match e {
            ApplyError::Validate(e) => Self::from(e),
            ApplyError::Land(e) => Self::from(e),
            other => Self::new(ErrorCode::WriteFailed, other.to_string()),
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
                Self::new(ErrorCode::CorruptEntry, e.to_string())
            }
            OverrideError::Validate(e) => Self::from(e).context("cannot re-validate"),
            OverrideError::Land(e) => Self::from(e),
            other => Self::new(ErrorCode::Review, other.to_string()),
        }
    }
}

/// A policy that does not parse is refused input (2); one that cannot be read (a link, a
/// FIFO, over 1 MiB, a read error) means patchgate cannot do its job (3), never "no policy".
impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::Read { .. } => Self::new(ErrorCode::PolicyUnreadable, one_line(&e)),
            _ => Self::new(ErrorCode::InvalidConfig, one_line(&e)),
        }
    }
}

/// A bad `[contract]` table (a pattern that does not compile) is refused input too.
impl From<ContractError> for CliError {
    fn from(e: ContractError) -> Self {
        Self::new(ErrorCode::InvalidConfig, one_line(&e))
    }
}

/// A repository that could not be opened, with the code that says why: a directory `--repo`
/// named that is no repository (or a bare one) is refused input; none around the current
/// directory means patchgate could not do its job here.
impl From<RepoError> for CliError {
    fn from(e: RepoError) -> Self {
        Self::new(e.code, e.message)
    }
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
        Self::new(ErrorCode::JudgeFailed, e.to_string())
    }
}

impl From<TooLong> for CliError {
    fn from(e: TooLong) -> Self {
        Self::new(ErrorCode::ContentTooLong, e.to_string())
    }
}

/// Errors go to stderr as one line; TOML and serde messages can span several.
pub(super) fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string().split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
