//! The paths that configure the gate itself: patchgate's policy and the hook managers'
//! configuration that runs patchgate's hook. Neither an agent's patch (`scope`) nor an agent's
//! tool call (the guard) may change them unless the user says so. The hook shims, the
//! declaration and patchgate's state live in the git directory, which no path may name at all.

/// lefthook's configuration files, in lefthook's order of preference.
pub const LEFTHOOK_FILES: [&str; 6] = [
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
    ".config/lefthook.yml",
    ".config/lefthook.yaml",
];

/// The pre-commit framework's configuration.
pub const PRE_COMMIT_CONFIG: &str = ".pre-commit-config.yaml";

/// Protected files besides lefthook's, relative to the repository root.
const FILES: &[&str] = &[".patchgate.toml", PRE_COMMIT_CONFIG];

/// Protected directories (everything below them too).
const DIRS: &[&str] = &[".husky"];

/// The protected entry the repository-relative path `rel` is, or lies below.
#[must_use]
pub fn protected(rel: &str) -> Option<&'static str> {
    let rel = rel.trim_start_matches("./");
    FILES.iter().chain(&LEFTHOOK_FILES).find(|f| rel == **f).copied().or_else(|| {
        DIRS.iter()
            .find(|d| rel == **d || rel.strip_prefix(**d).is_some_and(|r| r.starts_with('/')))
            .copied()
    })
}
