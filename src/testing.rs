//! What the unit tests of several modules share: git run as a test needs it (compiled for tests
//! only).

use std::path::Path;
use std::process::Command;

/// Runs `git args` in `dir` with no user or system configuration and a fixed identity; panics
/// with git's message when it fails.
pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@e")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@e")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A new repository on branch `main` in `dir` with `files` committed as `base`; content
/// starting with `@` makes a symbolic link to the rest.
pub(crate) fn commit_files(dir: &Path, files: &[(&str, &str)]) -> git2::Repository {
    git(dir, &["init", "-q", "-b", "main"]);
    for (path, content) in files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        match content.strip_prefix('@') {
            Some(link) => std::os::unix::fs::symlink(link, &target).unwrap(),
            None => std::fs::write(&target, content).unwrap(),
        }
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git2::Repository::open(dir).unwrap()
}
