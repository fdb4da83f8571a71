//! Thresholds and switches of the rules: the `[rules]` table of `.patchgate.toml`.

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
        }
    }
}
