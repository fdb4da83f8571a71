//! Repository-aware validation: a parsed patch checked against its base tree, applied and rolled
//! back in memory, its post-conditions checked, and (on request) a command run on a temporary
//! copy of the patched tree. Also `apply`'s all-or-nothing write into the real worktree.
//!
//! This is the only module that writes files for a validation, and it writes only in temporary
//! trees outside the repository (`$TMPDIR/patchgate-scratch-*`, for `--check-cmd`) and, for
//! `apply`, the touched files of the worktree and its journal in the git directory. Everything
//! else is read through git2.
//!
//! Phases of [`check`]: resolve the base, check each file entry against it (existence, modes,
//! `index` ids, binary) and apply + roll back its hunks ([`entry`]), then the symbolic-link walk
//! over the tree as it will be after the patch ([`symlink`]), then `expect` ([`expect`]), then
//! `--check-cmd` ([`command`]).

mod base;
mod command;
mod entry;
mod expect;
pub mod hunk;
mod journal;
mod land;
mod proof;
mod recover;
mod submodule;
mod symlink;
#[cfg(test)]
mod tests;
mod tree;
mod undo;
mod worktree;
mod write;

pub use base::{BaseEntry, BaseTree, FileContent, TreeIndex, mode};
pub use command::CommandOutcome;
pub use journal::JournalError;
pub use land::{LandError, base_rev, land, rev_of};
pub use recover::{Recovered, Recovery, recover};
pub use tree::{ScratchDir, clean_stale, scratch_root};
pub use undo::Kept;
pub use worktree::{PathRefused, link_stays_inside};
pub use write::{WorktreeError, apply_to_worktree, dirty_files};

/// The journal an interrupted `apply` left in `git_dir`, if any: no apply may start then.
#[must_use]
pub fn pending_apply(git_dir: &std::path::Path) -> Option<std::path::PathBuf> {
    journal::pending(git_dir)
}

use crate::finding::NoteKind;
use crate::patch::Patch;
use crate::rule::{CheckCode, Note, PatchPath, RuleId, Violation};
use crate::step::Step;
use serde::Deserialize;
use std::time::Duration;

/// What the repository check lets through. `.patchgate.toml` `[scratch]` sets
/// `check_index_ids` and `check_timeout_secs`; `allow_symlinks` and `allow_binary` are the
/// `[rules]` keys of the same name (one switch for the rules and this check), filled in by the
/// caller. Gitlinks (mode 160000) are refused, as the `malformed` rule does, except a submodule
/// added, removed or updated ([`FilePatch::submodule_change`](crate::patch::FilePatch::submodule_change)).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScratchPolicy {
    /// Accept symbolic links (mode 120000). Paths through a link are refused regardless.
    #[serde(skip)]
    pub allow_symlinks: bool,
    /// Accept `GIT binary patch` entries whose full `index` ids match the base (content is not
    /// checked).
    #[serde(skip)]
    pub allow_binary: bool,
    /// Require the `index` line's old id, when present, to match the base blob.
    pub check_index_ids: bool,
    /// Default `--check-timeout`, in seconds.
    pub check_timeout_secs: u64,
}

impl Default for ScratchPolicy {
    fn default() -> Self {
        Self {
            allow_symlinks: false,
            allow_binary: false,
            check_index_ids: true,
            check_timeout_secs: 300,
        }
    }
}

/// Required inputs of [`check`].
pub struct Context<'a> {
    /// The base the patch applies to, resolved once by the caller (see [`base_rev`]); the
    /// repository's object database is read through it, its worktree never.
    pub base: &'a BaseTree<'a>,
    /// The parsed patch; it must have parsed without defects.
    pub patch: &'a Patch<'a>,
    /// Every header path of `patch`, as [`crate::rule::patch_paths`] checked them: the check
    /// refuses outright when one failed, and never checks a path again.
    pub paths: &'a [PatchPath<'a, 'a>],
    /// The step (for `base` and `expect`).
    pub step: &'a Step,
    /// The repository's `[scratch]` policy.
    pub policy: &'a ScratchPolicy,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("base", &self.base)
            .field("files", &self.patch.files.len())
            .finish_non_exhaustive()
    }
}

/// What has defaults.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--base REV`: overrides the step's `base`; default `HEAD` (see [`base_rev`]).
    pub base: Option<String>,
    /// `--check-cmd CMD`: run with `sh -c` in a temporary copy of the patched tree.
    pub check_cmd: Option<String>,
    /// `--check-timeout`; `None` takes the policy's.
    pub check_timeout: Option<Duration>,
    /// Only the verdict is wanted: the new content of a file is built only when `expect` or
    /// `--check-cmd` reads it, and the other files' is [`Content::Unkept`] (so the outcome's
    /// changes cannot be landed). Off by default.
    pub is_verdict_only: bool,
}

/// The patched content of one path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// The bytes, checked by applying and rolling back the hunks.
    Bytes(Vec<u8>),
    /// A binary blob accepted on its full `index` id; not decoded.
    Blob(git2::Oid),
    /// Checked, but not kept: the check ran for its verdict ([`Options::is_verdict_only`]), and
    /// nothing reads this file after it. It cannot be written.
    Unkept,
}

impl Content {
    /// The bytes, read from `base` for a blob; an error for content not kept.
    fn read<'c>(
        &'c self,
        base: &BaseTree<'_>,
        path: &str,
    ) -> Result<std::borrow::Cow<'c, [u8]>, ScratchError> {
        match self {
            Self::Bytes(bytes) => Ok(std::borrow::Cow::Borrowed(bytes)),
            Self::Blob(oid) => base.blob(*oid).map(std::borrow::Cow::Owned),
            Self::Unkept => Err(ScratchError::Git {
                action: "read the patched content",
                reason: format!("the check kept no content for '{path}' (verdict only)"),
            }),
        }
    }
}

/// One path's state after the patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The repo-relative path.
    pub path: String,
    /// The mode after the patch; `None` when the path is removed (delete, rename source).
    pub mode: Option<u32>,
    /// The content after the patch; `None` when removed.
    pub content: Option<Content>,
}

/// Everything [`check`] found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Rejections, in the order found.
    pub violations: Vec<Violation>,
    /// Findings that do not reject (offsets, skipped checks).
    pub notes: Vec<Note>,
    /// Every touched path's state after the patch (complete only when `violations` is empty).
    pub changes: Vec<FileChange>,
    /// The base's tree id.
    pub base_tree: Option<git2::Oid>,
}

impl Outcome {
    fn reject(&mut self, violation: Violation) {
        self.violations.push(violation);
    }
}

/// The repository check could not be evaluated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScratchError {
    /// The base revision does not resolve to a tree.
    #[error("base revision '{rev}' cannot be used: {reason}; pass --base with an existing commit")]
    BadBase {
        /// The revision as given.
        rev: String,
        /// git's reason.
        reason: String,
    },
    /// An `expect` regex does not compile.
    #[error("expect entry for '{file}': invalid regex '{pattern}': {reason}; fix the step")]
    BadExpect {
        /// The entry's file.
        file: String,
        /// The pattern.
        pattern: String,
        /// The regex crate's reason.
        reason: String,
    },
    /// Reading the repository failed.
    #[error("cannot {action}: {reason}")]
    Git {
        /// What was being done.
        action: &'static str,
        /// git's message.
        reason: String,
    },
    /// A file operation on the scratch tree failed.
    #[error(
        "cannot {action} '{path}': {source}; check free space and permissions of the git directory"
    )]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// SIGINT or SIGTERM arrived while a check command ran; the scratch tree was removed.
    #[error("interrupted by a signal; the scratch tree was removed")]
    Interrupted,
}

impl ScratchError {
    fn git(action: &'static str, error: &git2::Error) -> Self {
        Self::Git { action, reason: error.message().to_owned() }
    }

    fn io(action: &'static str, path: &std::path::Path, source: std::io::Error) -> Self {
        Self::Io { action, path: path.display().to_string(), source }
    }
}

/// Check `ctx.patch` against its base in `ctx.repo`: the phases in the module docs.
pub fn check(ctx: &Context<'_>, options: &Options) -> Result<Outcome, ScratchError> {
    let base = ctx.base;
    let mut outcome = Outcome { base_tree: Some(base.tree().id()), ..Outcome::default() };
    if !entry::paths_are_safe(ctx.paths, &mut outcome) {
        return Ok(outcome);
    }
    let plan = symlink::Plan::new(base, ctx.patch)?;
    let mut changes = entry::Changes::default();
    let keep = if options.is_verdict_only && options.check_cmd.is_none() {
        entry::Keep::Expected(&ctx.step.expect)
    } else {
        entry::Keep::All
    };
    for file in &ctx.patch.files {
        entry::check_file(base, &plan, (ctx.policy, keep), file, &mut outcome, &mut changes)?;
    }
    outcome.changes = changes.into_vec();
    symlink::check(base, &plan, ctx.patch, &mut outcome)?;
    if !outcome.violations.is_empty() {
        return Ok(outcome);
    }
    let changes = std::mem::take(&mut outcome.changes);
    expect::check(base, &changes, &ctx.step.expect, &mut outcome)?;
    outcome.changes = changes;
    if let (Some(cmd), true) = (&options.check_cmd, outcome.violations.is_empty()) {
        let timeout =
            options.check_timeout.unwrap_or(Duration::from_secs(ctx.policy.check_timeout_secs));
        let run = command::run_in_scratch(base, &outcome.changes, cmd, timeout)?;
        command::judge(&run, cmd, &mut outcome);
    }
    Ok(outcome)
}

fn violation(rule: RuleId, code: CheckCode, file: &str, message: String) -> Violation {
    Violation::new(rule, code, message).in_file(file)
}

fn note(code: NoteKind, message: String, patch_line: Option<usize>) -> Note {
    Note { code: code.into(), message, patch_line }
}
