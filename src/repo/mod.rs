//! Finding the repository patchgate works on (`--repo DIR`, else the one around the current
//! directory), opened through git2 for reading objects, the index and config; and [`index`], a
//! direct reader of the index file for the two callers that need it fast (the pre-commit hook,
//! the guard's suggestions).

pub mod index;

use crate::finding::ErrorCode;
use std::path::{Path, PathBuf};

/// The repository could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct RepoError {
    /// Why: `not_a_repository` (a directory the caller named), `no_repository` (none around the
    /// current directory), `bare_repository`, or `io`.
    pub code: ErrorCode,
    /// One line: what failed and what to do.
    pub message: String,
}

/// Open the repository at or above `start` (`None`: the current directory).
pub fn discover(start: Option<&Path>) -> Result<git2::Repository, RepoError> {
    let from: PathBuf = match start {
        Some(dir) => dir.to_owned(),
        None => std::env::current_dir().map_err(|e| RepoError {
            code: ErrorCode::Io,
            message: format!("cannot read the current directory: {e}; pass --repo DIR"),
        })?,
    };
    let code = if start.is_some() { ErrorCode::NotARepository } else { ErrorCode::NoRepository };
    git2::Repository::discover(&from).map_err(|e| RepoError {
        code,
        message: format!(
            "no git repository at or above '{}' ({}); run inside a repository or pass --repo DIR",
            from.display(),
            e.message()
        ),
    })
}

/// The working tree's root, or an error for a bare repository.
pub fn workdir(repo: &git2::Repository) -> Result<&Path, RepoError> {
    repo.workdir().ok_or_else(|| RepoError {
        code: ErrorCode::BareRepository,
        message: format!(
            "'{}' is a bare repository; this command needs a working tree",
            repo.path().display()
        ),
    })
}
