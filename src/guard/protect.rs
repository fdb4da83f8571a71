//! What the guard never lets an agent change, because changing it walks around the gate: the
//! entries [`crate::path::protected`] lists, and, through the `.git` pattern every path
//! argument is checked against, the hook shims, the declaration and patchgate's state inside
//! the git directory. Here: which shell words name them, and which commands only read.

/// Commands that only read what they are given.
const READERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "wc",
    "nl",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "diff",
    "cmp",
    "stat",
    "file",
    "ls",
    "bat",
    "batcat",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cut",
    "echo",
    "printf",
    "test",
    "[",
    "realpath",
    "readlink",
    "basename",
    "dirname",
];

/// `git` subcommands that leave the worktree's files as they are (reading them, or recording
/// what is there: an agent cannot have changed a protected file, so staging or committing it
/// carries the user's own change; a message may name it too).
const GIT_READERS: &[&str] = &[
    "diff",
    "log",
    "show",
    "status",
    "blame",
    "ls-files",
    "grep",
    "cat-file",
    "check-ignore",
    "add",
    "commit",
];

pub(super) use crate::path::{protected, protected_below};
use std::path::{Path, PathBuf};

/// The protected entry a shell word names, by its last components (`.patchgate.toml`,
/// `./.husky/pre-commit`, `/abs/repo/lefthook.yml`).
pub(super) fn named(word: &str) -> Option<&'static str> {
    let word = word.trim_matches(['\'', '"']);
    let components: Vec<&str> = word.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
    (0..components.len()).find_map(|start| protected(&components[start..].join("/")))
}

/// Whether `program` with `args` only reads its operands (a redirect is judged apart).
pub(super) fn is_reader(program: &str, args: &[&str]) -> bool {
    if program == "git" {
        let sub = args.iter().find(|a| !a.starts_with('-'));
        return sub.is_some_and(|s| GIT_READERS.contains(s));
    }
    if program == "sed" {
        return !args.iter().any(|a| a.starts_with("-i") || a.starts_with("--in-place"));
    }
    READERS.contains(&program)
}

/// Whether the hook manager whose protected entry is `entry` runs patchgate in the worktree at
/// `root`: one of its files there names patchgate (`.patchgate.toml` always counts). A file
/// that exists but cannot be read counts as naming it: the guard fails closed.
pub(super) fn runs_gate(root: &Path, entry: &str) -> bool {
    if !crate::path::is_hook_manager(entry) {
        return true;
    }
    let mut files: Vec<PathBuf> = Vec::new();
    if entry.contains("lefthook") {
        // Any file of lefthook's family can run (or switch off) the hook: every configuration
        // name and the scripts under its source directories.
        files.extend(crate::path::lefthook_configs().iter().map(|f| root.join(f)));
        for dir in [".lefthook", ".lefthook-local"] {
            match below(&root.join(dir), 3) {
                Ok(found) => files.extend(found),
                Err(_) => return true,
            }
        }
    } else if entry == ".husky" {
        match below(&root.join(entry), 3) {
            Ok(found) => files = found,
            Err(_) => return true,
        }
    } else {
        files.push(root.join(entry));
    }
    files.iter().any(|file| match std::fs::read(file) {
        Ok(content) => crate::path::names_patchgate(&content),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    })
}

/// The files below `dir`, `depth` levels down at most (none when it does not exist).
fn below(dir: &Path, depth: usize) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        other => other?,
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            if depth > 0 {
                out.extend(below(&path, depth - 1)?);
            }
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

/// The reason given to the agent.
pub(super) fn reason(entry: &str) -> String {
    format!(
        "would change {entry}, which configures the gate itself (patchgate's policy or the hooks \
         that run it); an agent may read it but not change it: ask the user to make this change"
    )
}

/// The reason given for a command that writes files it does not name into a directory that
/// holds `entry`.
pub(super) fn unseen_reason(entry: &str) -> String {
    format!(
        "writes files patchgate cannot see into a directory that holds {entry}, which \
         configures the gate itself (an archive or a patch whose content it cannot read); \
         extract or apply into a subdirectory, name the files, or give the patch as a file"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_entries_and_the_words_that_name_them() {
        assert_eq!(protected(".patchgate.toml"), Some(".patchgate.toml"));
        assert_eq!(protected(".husky/pre-commit"), Some(".husky"));
        assert_eq!(protected("src/.patchgate.toml"), None, "only the root's policy is read");
        assert_eq!(protected(".huskyrc"), None);
        assert_eq!(named("./.patchgate.toml"), Some(".patchgate.toml"));
        assert_eq!(named("/w/repo/.husky/_/h"), Some(".husky"));
        assert_eq!(named("'lefthook.yml'"), Some("lefthook.yml"));
        assert_eq!(named("patchgate.toml.bak"), None);
        assert!(is_reader("cat", &[".patchgate.toml"]));
        assert!(is_reader("git", &["diff", ".patchgate.toml"]));
        assert!(!is_reader("git", &["checkout", ".patchgate.toml"]));
        assert!(is_reader("git", &["commit", "-m", "explain .patchgate.toml"]));
        assert!(!is_reader("git", &["restore", ".patchgate.toml"]));
        assert!(!is_reader("sed", &["-i", "s/a/b/", ".patchgate.toml"]));
        assert!(!is_reader("rm", &[".patchgate.toml"]));
        assert!(!is_reader("mkfifo", &[".patchgate.toml"]));
    }
}
