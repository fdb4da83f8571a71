//! `[limits]`: the most any single input may ask of patchgate, so one hostile or runaway input
//! (a 1 GB patch, a 64 KB glob whose compilation is quadratic in its length, a million file
//! entries) is refused up front with a reason instead of pinning a CPU or the memory.
//!
//! ```toml
//! [limits]
//! patch_bytes = 67108864   # 64 MiB
//! pattern_bytes = 1024
//! ```

use serde::Deserialize;

/// Every limit; each has a default that no legitimate step, patch or policy comes near.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Bytes of one patch (the executor's `patch`, the step's `applyPatch`, a Codex
    /// `apply_patch` envelope the guard reads).
    pub patch_bytes: usize,
    /// File entries in one patch.
    pub files: usize,
    /// Hunks in one file entry.
    pub hunks_per_file: usize,
    /// Bytes of one line of a patch.
    pub line_bytes: usize,
    /// Bytes of one path named by a patch or by an agent's tool call.
    pub path_bytes: usize,
    /// Components of one path named by a patch or by an agent's tool call.
    pub path_depth: usize,
    /// Bytes of one glob pattern (step globs, `excluded`, declarations).
    pub pattern_bytes: usize,
    /// Glob patterns in one list.
    pub patterns: usize,
    /// Bytes of all the patterns with glob syntax (`*`, `?`, `[`, `{`, `\`) in one list
    /// together: each is compiled into a regex, which takes several hundred bytes of memory per
    /// pattern byte. Plain paths are looked up in a table and do not count.
    pub glob_bytes: usize,
    /// Bytes of one tool call the guard reads from an agent's hook (its JSON payload, written
    /// file contents included).
    pub payload_bytes: usize,
    /// Bytes of one shell command the guard analyses (the text of a `Bash` call, Cline's
    /// `run_commands` together).
    pub command_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            patch_bytes: 64 << 20,
            files: 20_000,
            hunks_per_file: 10_000,
            line_bytes: 1 << 20,
            path_bytes: 4096,
            path_depth: 256,
            pattern_bytes: 1024,
            patterns: 1000,
            glob_bytes: 16 << 10,
            payload_bytes: 16 << 20,
            command_bytes: 1 << 20,
        }
    }
}

/// An input over one of the limits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} is {actual}, over the limit of {limit} ([limits] {setting} in .patchgate.toml; raise \
     it if this input is intended)"
)]
pub struct LimitExceeded {
    /// What was measured ("the patch's size in bytes").
    pub what: String,
    /// The setting's name under `[limits]`.
    pub setting: &'static str,
    /// The limit in force.
    pub limit: usize,
    /// The measured value.
    pub actual: usize,
}

/// `Err` when `actual` is over `limit`.
pub fn check(
    setting: &'static str,
    limit: usize,
    actual: usize,
    what: impl FnOnce() -> String,
) -> Result<(), LimitExceeded> {
    if actual > limit {
        return Err(LimitExceeded { what: what(), setting, limit, actual });
    }
    Ok(())
}

impl Limits {
    /// Check a glob list before compiling it: compilation cost grows faster than linearly with
    /// a pattern's length, and its memory with the globs' total length, so both are checked on
    /// the raw text.
    pub fn check_patterns<S: AsRef<str>>(
        &self,
        patterns: &[S],
        list: &str,
    ) -> Result<(), LimitExceeded> {
        check("patterns", self.patterns, patterns.len(), || format!("the number of {list}"))?;
        let mut glob_bytes = 0;
        for pattern in patterns {
            let pattern = pattern.as_ref();
            check("pattern_bytes", self.pattern_bytes, pattern.len(), || {
                let head: String = pattern.chars().take(40).collect();
                format!("the length in bytes of the pattern '{head}...' in {list}")
            })?;
            if crate::path::is_glob(pattern) {
                glob_bytes += pattern.len();
            }
        }
        check("glob_bytes", self.glob_bytes, glob_bytes, || {
            format!("the total length in bytes of the globs in {list}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_pattern_is_refused_naming_the_setting() {
        let limits = Limits::default();
        let long = "a".repeat(limits.pattern_bytes + 1);
        let err = limits.check_patterns(&["ok", long.as_str()], "allowedFiles").unwrap_err();
        assert_eq!(err.setting, "pattern_bytes");
        assert!(err.to_string().contains("[limits] pattern_bytes"), "{err}");
        assert!(limits.check_patterns(&["a".repeat(limits.pattern_bytes)], "x").is_ok());
    }

    #[test]
    fn the_globs_total_is_bounded_and_plain_paths_do_not_count() {
        let limits = Limits { glob_bytes: 10, ..Limits::default() };
        let plain: Vec<String> = (0..100).map(|i| format!("src/file{i}.rs")).collect();
        assert!(limits.check_patterns(&plain, "x").is_ok());
        assert!(limits.check_patterns(&["src/*.rs", "a"], "x").is_ok());
        let err = limits.check_patterns(&["src/*.rs", "docs/*"], "x").unwrap_err();
        assert_eq!((err.setting, err.limit, err.actual), ("glob_bytes", 10, 14));
    }

    #[test]
    fn too_many_patterns_are_refused() {
        let limits = Limits { patterns: 2, ..Limits::default() };
        let err = limits.check_patterns(&["a", "b", "c"], "excluded").unwrap_err();
        assert_eq!((err.setting, err.limit, err.actual), ("patterns", 2, 3));
    }
}
