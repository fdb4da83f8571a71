//! Path safety: the one normaliser every repo-relative path goes through.
//!
//! Patch headers, `filesWritten`, `filesTouched`, declarations, staged paths and agent tool
//! arguments all pass [`check`] (or [`check_bytes`]) before patchgate reasons about them. A path
//! that passes is a [`RepoPath`]: relative, `/`-separated, UTF-8, without `.`/empty components,
//! and outside the git directory. A path that fails gets a [`PathError`] whose [`PathErrorCode`]
//! is part of the public contract (`path_traversal`, `absolute_path`, `git_dir`, ...).
//!
//! ```
//! use patchgate::path::{check, PathErrorCode};
//! assert_eq!(check("./src/a.rs").unwrap().as_str(), "src/a.rs");
//! assert_eq!(check("../etc/passwd").unwrap_err().code, PathErrorCode::PathTraversal);
//! assert_eq!(check(".GIT/config").unwrap_err().code, PathErrorCode::GitDir);
//! ```

pub mod alias;
mod check;
mod glob;
mod protected;
#[cfg(test)]
mod tests;

pub use check::{check, check_bytes, find_encoded_pattern, is_git_dir_component};
pub use glob::{GlobError, PathSet, is_glob};
pub use protected::{
    LEFTHOOK_FILES, PRE_COMMIT_CONFIG, is_hook_manager, lefthook_configs, manager_files,
    names_patchgate, protected, protected_below,
};

pub use crate::finding::PathErrorCode;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fmt::Write as _;

/// A validated, normalised, repository-relative path (`src/a.rs`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RepoPath(String);

impl RepoPath {
    /// The path as `/`-separated text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path's components.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last component (the file name).
    #[must_use]
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// The parent directory, `None` for a path at the repository root.
    #[must_use]
    pub fn parent(&self) -> Option<&str> {
        self.0.rsplit_once('/').map(|(parent, _)| parent)
    }

    /// Every proper ancestor directory, nearest first (`a/b/c` gives `a/b`, `a`).
    pub fn ancestors(&self) -> impl Iterator<Item = &str> {
        let path = self.0.as_str();
        path.char_indices().rev().filter(|&(_, c)| c == '/').map(move |(i, _)| &path[..i])
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for RepoPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Why a path was refused. The `code` is stable; the message quotes the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct PathError {
    /// Stable machine-readable reason.
    pub code: PathErrorCode,
    /// The offending input, shown with non-printable bytes escaped.
    pub input: String,
    /// One lowercase line: what is wrong and what to do.
    pub message: String,
}

/// Render bytes for a message: printable ASCII and valid UTF-8 as is, everything else escaped the
/// way git's `core.quotePath` would (`\n`, `\t`, `\303`).
#[must_use]
pub fn display_bytes(bytes: &[u8]) -> String {
    if let Ok(plain) = std::str::from_utf8(bytes)
        && plain.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b'\\')
    {
        // Nothing to escape (the common case: a plain ASCII path).
        return plain.to_owned();
    }
    display_any(bytes)
}

/// [`display_bytes`] for any input.
fn display_any(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(out, "\\{b:03o}");
                    }
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\{b:03o}");
        }
    }
    out
}
