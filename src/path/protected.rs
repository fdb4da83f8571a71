//! The paths that configure the gate itself: patchgate's policy and the hook managers'
//! configuration that runs patchgate's hook. Neither an agent's patch (`scope`) nor an agent's
//! tool call (the guard) may change them unless the user says so. The hook shims, the
//! declaration and patchgate's state live in the git directory, which no path may name at all.
//!
//! A hook manager's configuration is the gate's only where the manager runs patchgate: where
//! one of its files names patchgate ([`names_patchgate`]). In a repository whose pre-commit
//! framework runs only linters, `.pre-commit-config.yaml` is ordinary code.

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

/// Whether the protected `entry` (from [`protected`]) is a hook manager's: part of the gate only
/// where the manager runs patchgate. `.patchgate.toml` is always the gate's.
#[must_use]
pub fn is_hook_manager(entry: &str) -> bool {
    entry != ".patchgate.toml"
}

/// The files of the hook manager `entry` belongs to, among `files` (a tree's paths): each
/// lefthook configuration for a lefthook file, everything under `.husky/` for husky.
pub fn manager_files<'f>(entry: &str, files: &'f [String]) -> Vec<&'f str> {
    let is_lefthook = LEFTHOOK_FILES.contains(&entry);
    let belongs = |f: &str| {
        if is_lefthook { LEFTHOOK_FILES.contains(&f) } else { protected(f) == Some(entry) }
    };
    files.iter().map(String::as_str).filter(|f| belongs(f)).collect()
}

/// Whether a hook manager's file names patchgate (in any case), as every configuration that
/// runs its hook does (`patchgate hook run pre-commit`, the pre-commit hook id `patchgate`).
#[must_use]
pub fn names_patchgate(content: &[u8]) -> bool {
    const NAME: &[u8] = b"patchgate";
    content.windows(NAME.len()).any(|w| w.eq_ignore_ascii_case(NAME))
}
