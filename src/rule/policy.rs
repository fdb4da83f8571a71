//! Thresholds and switches of the rules: the `[rules]` table of `.patchgate.toml`.

use crate::finding::CheckCode;
use serde::{Deserialize, Serialize};

/// The `[rules]` table. Every key is optional; the defaults are the documented policy.
///
/// ```toml
/// [rules]
/// fix_regression_max_files = 5
/// fix_regression_max_changed_lines = 200
/// reversal_share = 0.5
/// reversal_min_lines = 2
/// allow_binary = false
/// allow_symlinks = false
/// not_implemented = "balanced"
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulePolicy {
    /// `mode`: a `fix_regression` patch touching more files than this is speculative.
    pub fix_regression_max_files: usize,
    /// `mode`: a `fix_regression` patch adding plus removing more lines than this is speculative.
    pub fix_regression_max_changed_lines: usize,
    /// `reversal`: the share (0..=1) of the apply run's added lines a fix may remove without
    /// adding as many back before it counts as undoing the step.
    pub reversal_share: f64,
    /// `reversal`: the share test applies only when the apply run added at least this many
    /// non-blank lines (an exact inverse hunk is caught at any size).
    pub reversal_min_lines: usize,
    /// `malformed`: accept binary entries (their content cannot be checked).
    pub allow_binary: bool,
    /// `malformed`: accept symbolic links (mode `120000`) created or changed by the patch.
    pub allow_symlinks: bool,
    /// `not-implemented`: which of its findings reject (see [`Strictness`]).
    pub not_implemented: Strictness,
}

/// How much of `not-implemented` rejects. Its findings are right on most results but not all:
/// the levels trade a wrong turn for the agent against a superficial patch let in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strictness {
    /// Every finding rejects, including the weak ones (a name in the description that looks
    /// like a path but cannot be checked against a repository, a rename of plain words).
    Strict,
    /// Only findings that hold on real work reject; the weak ones become notes.
    #[default]
    Balanced,
    /// Nothing rejects; every finding becomes a note.
    Off,
}

impl Default for RulePolicy {
    fn default() -> Self {
        Self {
            fix_regression_max_files: 5,
            fix_regression_max_changed_lines: 200,
            reversal_share: 0.5,
            reversal_min_lines: 2,
            allow_binary: false,
            allow_symlinks: false,
            not_implemented: Strictness::Balanced,
        }
    }
}

/// Whether a file mode is refused, and with which code: the one decision the `malformed` rule
/// (modes the headers state) and the repository check (modes the base holds) both take. Regular
/// files and executables pass, symbolic links only when `allow_symlinks`; gitlinks never.
#[must_use]
pub fn mode_refusal(mode: u32, allow_symlinks: bool) -> Option<CheckCode> {
    match mode {
        0o100_644 | 0o100_755 => None,
        0o120_000 if allow_symlinks => None,
        0o120_000 => Some(CheckCode::Symlink),
        0o160_000 => Some(CheckCode::Gitlink),
        _ => Some(CheckCode::UnsupportedMode),
    }
}
