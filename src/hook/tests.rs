use super::staged::{staged_changes, staged_changes_exact};
use super::*;
use crate::testing::git;
use std::path::Path;

fn change(status: ChangeStatus, old: Option<&str>, new: Option<&str>) -> Change {
    Change {
        status,
        old_path: old.map(|p| p.as_bytes().to_vec()),
        new_path: new.map(|p| p.as_bytes().to_vec()),
        old_mode: 0o100_644,
        new_mode: 0o100_644,
    }
}

fn policy(excluded: &[&str], require: bool) -> Policy {
    Policy {
        excluded: PathSet::new(excluded).unwrap(),
        hook: HookPolicy { require_declaration: require, ..HookPolicy::default() },
        source: Some(".patchgate.toml".into()),
        limits: crate::config::Limits::default(),
        policy_change: super::PolicyChange::Declared,
    }
}

fn reasons(v: &[Violation]) -> Vec<(&str, Reason)> {
    v.iter().map(|v| (v.path.as_str(), v.reason)).collect()
}

#[test]
fn the_policy_file_changes_only_as_the_policy_says() {
    let edit = [change(ChangeStatus::Modified, Some(".patchgate.toml"), Some(".patchgate.toml"))];
    let set = |p: &[&str]| PathSet::new(p).unwrap();
    let mut p = policy(&[], false);
    // Declared: only by its exact path, and also without any declaration.
    assert_eq!(reasons(&evaluate(&edit, None, &p)), [(".patchgate.toml", Reason::PolicyChange)]);
    assert_eq!(evaluate(&edit, Some(&set(&["**", "*.toml"])), &p).len(), 1);
    assert!(evaluate(&edit, Some(&set(&["src/**", ".patchgate.toml"])), &p).is_empty());
    p.policy_change = super::PolicyChange::Refuse;
    assert_eq!(
        evaluate(&edit, Some(&set(&[".patchgate.toml"])), &p)[0].detail.as_deref(),
        Some("refuse")
    );
    p.policy_change = super::PolicyChange::Allow;
    assert!(evaluate(&edit, None, &p).is_empty());
    // A rename away from it, or onto it, touches it too.
    let p = policy(&[], false);
    let away = [change(ChangeStatus::Renamed, Some(".patchgate.toml"), Some("old.toml"))];
    assert_eq!(evaluate(&away, Some(&set(&["old.toml"])), &p).len(), 1);
}

#[test]
fn exclusions_beat_declarations_and_renames_need_both_sides() {
    let declared = PathSet::new(&["src", ".github/**"]).unwrap();
    let changes = [
        change(ChangeStatus::Modified, Some("src/a.rs"), Some("src/a.rs")),
        change(ChangeStatus::Added, None, Some(".github/ci.yml")),
        change(ChangeStatus::Renamed, Some("lib/x.rs"), Some("src/x.rs")),
        change(ChangeStatus::Copied, Some("lib/y.rs"), Some("src/y.rs")),
    ];
    let v = evaluate(&changes, Some(&declared), &policy(&[".github"], false));
    assert_eq!(
        reasons(&v),
        [(".github/ci.yml", Reason::Excluded), ("lib/x.rs", Reason::Undeclared)]
    );
    assert_eq!(v[1].other_path.as_deref(), Some("src/x.rs"));
    assert!(v[1].is_old_side);
}

#[test]
fn without_declaration_only_the_policy_applies() {
    let changes = [change(ChangeStatus::Deleted, Some("a"), None)];
    assert!(evaluate(&changes, None, &Policy::none()).is_empty());
    let v = evaluate(&changes, None, &policy(&[], true));
    assert_eq!(reasons(&v), [("a", Reason::NoDeclaration)]);
}

#[test]
fn unsafe_staged_paths_are_named_when_enforcing() {
    let changes = [change(ChangeStatus::Added, None, Some("a\\b"))];
    assert!(evaluate(&changes, None, &Policy::none()).is_empty());
    let v = evaluate(&changes, Some(&PathSet::new(&["**"]).unwrap()), &Policy::none());
    assert_eq!(reasons(&v), [("a\\\\b", Reason::UnsafePath)]);
    assert_eq!(v[0].detail.as_deref(), Some("backslash"));
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The fast path (index file + cache tree) and libgit2's diff agree on every kind of change.
#[test]
fn fast_path_agrees_with_libgit2() {
    for version in ["2", "3", "4"] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q", "-b", "main"]);
        git(d, &["config", "index.version", version]);
        for f in ["a/x", "a/y", "b/c/z", "b/c/w", "top", "gone/p", "gone/q", "swap", "mv/src"] {
            write(d, f, &format!("{f}\n"));
        }
        git(d, &["add", "-A"]);
        git(d, &["commit", "-q", "-m", "base"]);
        write(d, "a/x", "changed\n");
        write(d, "new/dir/file", "n\n");
        std::fs::remove_file(d.join("swap")).unwrap();
        write(d, "swap/inside", "now a dir\n");
        std::fs::remove_dir_all(d.join("gone")).unwrap();
        std::fs::rename(d.join("mv/src"), d.join("mv/dst")).unwrap();
        std::os::unix::fs::symlink("x", d.join("a/link")).unwrap();
        write(d, "ita", "intent\n");
        git(d, &["add", "-A"]);
        git(d, &["update-index", "--chmod=+x", "b/c/z"]);
        git(d, &["rm", "-q", "--cached", "ita"]);
        git(d, &["add", "-N", "ita"]);
        let repo = git2::Repository::open(d).unwrap();
        // Unpaired deletions (gone/*, swap) and additions remain: not settled, yet the same list.
        let fast = staged_changes(&repo, false).unwrap();
        assert!(!fast.is_rename_settled, "index v{version}");
        let mut fast = fast.changes;
        let mut exact = staged_changes_exact(&repo).unwrap();
        // libgit2 lists the `git add -N` entry as added; git leaves it out of the commit, and so
        // does the fast path.
        exact.retain(|c| c.new_path.as_deref() != Some(b"ita"));
        let key = |c: &Change| (c.new_path.clone(), c.old_path.clone());
        fast.sort_by_key(key);
        exact.sort_by_key(key);
        assert_eq!(fast, exact, "index v{version}");
        assert_eq!(fast.len(), 9, "index v{version}: {fast:#?}");
    }
}

/// An index holding a path libgit2 refuses (here `.git/x`, which git itself never stages) still
/// fails the hook with libgit2's error, as before the direct reader read the policy.
#[test]
fn an_index_path_libgit2_refuses_still_fails_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "aaaaaa", "x\n");
    git(d, &["add", "-A"]);
    let file = d.join(".git/index");
    let mut data = std::fs::read(&file).unwrap();
    let at = data.windows(6).position(|w| w == b"aaaaaa").unwrap();
    data[at..at + 6].copy_from_slice(b".git/x");
    let len = data.len();
    data[len - 20..].fill(0); // no checksum: libgit2 skips it
    std::fs::write(&file, &data).unwrap();
    let repo = git2::Repository::open(d).unwrap();
    let err = run_staged(&repo, false).unwrap_err();
    assert!(matches!(&err, HookError::Git { context, .. } if context == "read the index"), "{err}");
}
