//! The paths that configure the gate itself: patchgate's policy and the hook managers'
//! configuration that runs patchgate's hook. Neither an agent's patch (`scope`) nor an agent's
//! tool call (the guard) may change them unless the user says so. The hook shims, the
//! declaration and patchgate's state live in the git directory, which no path may name at all.
//!
//! A hook manager's configuration is the gate's only where the manager runs patchgate: where
//! one of its files names patchgate ([`names_patchgate`]). In a repository whose pre-commit
//! framework runs only linters, `.pre-commit-config.yaml` is ordinary code.

use super::alias::{fold_component, is_short_name_of};
use std::borrow::Cow;
use std::sync::LazyLock;

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

/// Protected directories (everything below them too): husky's hooks, and the scripts lefthook's
/// hooks run (its `source_dir` and `source_dir_local` defaults).
const DIRS: &[&str] = &[".husky", ".lefthook", ".lefthook-local"];

/// Every name lefthook reads its configuration from, in any format it reads: the main file and
/// the `lefthook-local` file merged over it (which can turn patchgate's hook off), at the root
/// with or without a leading dot, or under `.config/` without one.
static LEFTHOOK_CONFIGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut names = Vec::new();
    for stem in ["lefthook", "lefthook-local"] {
        for ext in ["yml", "yaml", "toml", "json", "jsonc"] {
            names.push(format!("{stem}.{ext}"));
            names.push(format!(".{stem}.{ext}"));
            names.push(format!(".config/{stem}.{ext}"));
        }
    }
    names
});

/// Every configuration file name lefthook reads (see `LEFTHOOK_CONFIGS`).
#[must_use]
pub fn lefthook_configs() -> &'static [String] {
    &LEFTHOOK_CONFIGS
}

/// The protected entry the repository-relative path `rel` is, or lies below, under any
/// spelling a file system takes for it ([`super::alias`]: `.PATCHGATE.TOML`,
/// `.patchgate.toml.`, `PATCHG~1.TOM`, `.HUSKY/pre-commit`).
#[must_use]
pub fn protected(rel: &str) -> Option<&'static str> {
    let rel = rel.trim_start_matches("./");
    let folded: Vec<Cow<'_, str>> =
        rel.split('/').filter(|c| !c.is_empty() && *c != ".").map(fold_component).collect();
    let files = FILES.iter().copied().chain(LEFTHOOK_CONFIGS.iter().map(String::as_str));
    let file = files.into_iter().find(|f| names(&folded, f, false));
    file.or_else(|| DIRS.iter().copied().find(|d| names(&folded, d, true)))
}

/// The first protected entry that lies in the repository-relative directory `dir` (at any
/// depth; `""` is the root), under any spelling of `dir`: what a command writing files it does
/// not name into `dir` may overwrite.
#[must_use]
pub fn protected_below(dir: &str) -> Option<&'static str> {
    let folded: Vec<Cow<'_, str>> =
        dir.split('/').filter(|c| !c.is_empty() && *c != ".").map(fold_component).collect();
    let entries = FILES.iter().copied().chain(LEFTHOOK_CONFIGS.iter().map(String::as_str));
    entries.chain(DIRS.iter().copied()).find(|entry| {
        let parts: Vec<&str> = entry.split('/').collect();
        let is_above = folded.len() < parts.len()
            && folded.iter().zip(&parts).all(|(component, part)| is_spelling(component, part));
        is_above || DIRS.contains(entry) && names(&folded, entry, true)
    })
}

/// Whether the `folded` components name `entry` (or, for a directory, lie below it).
fn names(folded: &[Cow<'_, str>], entry: &str, is_dir: bool) -> bool {
    let parts = entry.split('/');
    let count = parts.clone().count();
    let fits = if is_dir { folded.len() >= count } else { folded.len() == count };
    fits && parts.zip(folded).all(|(part, component)| is_spelling(component, part))
}

/// Whether the folded `component` is a spelling of the entry's component `part`.
fn is_spelling(component: &str, part: &str) -> bool {
    component == part || component.contains('~') && is_short_name_of(component, part)
}

/// Whether the protected `entry` (from [`protected`]) is a hook manager's: part of the gate only
/// where the manager runs patchgate. `.patchgate.toml` is always the gate's.
#[must_use]
pub fn is_hook_manager(entry: &str) -> bool {
    entry != ".patchgate.toml"
}

/// The files of the hook manager `entry` belongs to, among `files` (a tree's paths): each
/// lefthook configuration or script for a lefthook file, everything under `.husky/` for husky.
pub fn manager_files<'f>(entry: &str, files: &'f [String]) -> Vec<&'f str> {
    let is_lefthook = entry.contains("lefthook");
    let belongs = |f: &str| {
        protected(f).is_some_and(|e| if is_lefthook { e.contains("lefthook") } else { e == entry })
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

#[cfg(test)]
mod tests {
    use super::protected;

    #[test]
    fn every_spelling_of_a_protected_entry_is_protected() {
        for (rel, entry) in [
            (".patchgate.toml", ".patchgate.toml"),
            (".PATCHGATE.TOML", ".patchgate.toml"),
            (".patchgate.toml.", ".patchgate.toml"),
            (".patchgate.toml ", ".patchgate.toml"),
            (".patchgate.toml::$DATA", ".patchgate.toml"),
            (".patch\u{200c}gate.toml", ".patchgate.toml"),
            ("PATCHG~1.TOM", ".patchgate.toml"),
            ("./.Husky/pre-commit", ".husky"),
            ("HUSKY~1/_/h", ".husky"),
            (".pre-commit-config.YAML", ".pre-commit-config.yaml"),
            ("lefthook-local.yml", "lefthook-local.yml"),
            (".lefthook-local.json", ".lefthook-local.json"),
            (".config/lefthook.toml", ".config/lefthook.toml"),
            (".CONFIG/Lefthook-Local.jsonc", ".config/lefthook-local.jsonc"),
            (".lefthook/pre-commit/check.sh", ".lefthook"),
        ] {
            assert_eq!(protected(rel), Some(entry), "{rel:?}");
        }
    }

    #[test]
    fn directories_holding_protected_entries() {
        use super::protected_below;
        assert_eq!(protected_below(""), Some(".patchgate.toml"));
        assert_eq!(protected_below(".config"), Some(".config/lefthook.yml"));
        assert_eq!(protected_below(".CONFIG"), Some(".config/lefthook.yml"));
        assert_eq!(protected_below(".husky/_"), Some(".husky"));
        assert_eq!(protected_below("src"), None);
        assert_eq!(protected_below("vendor/.config"), None);
    }

    #[test]
    fn other_names_are_not_protected() {
        for rel in [
            "patchgate.toml",
            "src/.patchgate.toml",
            ".patchgate.toml.bak",
            ".huskyrc",
            "husky/pre-commit",
            ".config/.lefthook.yml",
            "lefthook.yml.orig",
            "PATCHG~1",
            "docs/lefthook.yml",
            // U+200B is not one of the code points HFS+ ignores: a different file everywhere.
            ".patch\u{200b}gate.toml",
        ] {
            assert_eq!(protected(rel), None, "{rel:?}");
        }
    }
}
