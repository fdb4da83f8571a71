//! `patchgate apply` never writes outside the repository: worktree-only links, tracked
//! directories replaced by links, planted temporary names, and git's own escape scenarios
//! (t4122 "beyond a symbolic link", t4139 "apply-escape") recreated. Each test keeps a canary
//! directory beside the repository and asserts it is byte for byte as before.

use crate::support::{TestRepo, code, json};
use serde_json::json;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A repository and a canary directory outside it (`<tmp>/outside/secret.txt`).
struct Scene {
    repo: TestRepo,
    outside: tempfile::TempDir,
    io: tempfile::TempDir,
}

impl Scene {
    fn new(files: &[(&str, &str)], policy: &str) -> Self {
        let repo = TestRepo::new();
        let mut all: Vec<(&str, &str)> = vec![(".patchgate.toml", policy)];
        all.extend_from_slice(files);
        repo.commit(&all, "base");
        let outside = tempfile::tempdir().expect("canary dir");
        std::fs::write(outside.path().join("secret.txt"), "secret\n").expect("canary");
        std::fs::write(outside.path().join("a.txt"), "a\n").expect("canary");
        Self { repo, outside, io: tempfile::tempdir().expect("io dir") }
    }

    fn canary(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        snapshot(self.outside.path())
    }

    /// `patchgate --format json apply` of a result carrying `patch`, declaring `files`.
    fn apply(&self, patch: &str, files: &[&str]) -> Output {
        let step = json!({"description": "apply the change", "mode": "apply"});
        let result = json!({"mode": "apply", "success": true, "patch": patch,
            "filesWritten": files, "filesTouched": files, "summary": "done"});
        let (s, r) = (self.io.path().join("s.json"), self.io.path().join("r.json"));
        std::fs::write(&s, step.to_string()).expect("step");
        std::fs::write(&r, result.to_string()).expect("result");
        self.repo
            .patchgate()
            .args(["--format", "json", "apply", "--step"])
            .arg(&s)
            .arg("--result")
            .arg(&r)
            .output()
            .expect("run patchgate")
    }

    /// Assert the apply was refused and the canary is untouched.
    fn assert_refused(&self, out: &Output, before: &BTreeMap<PathBuf, Vec<u8>>, code_want: &str) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(code(out), 0, "apply succeeded: {stderr}");
        assert_eq!(&self.canary(), before, "a file outside the repository changed");
        if !code_want.is_empty() {
            assert_eq!(json(out)["error"]["code"], code_want, "{stderr}");
        }
    }
}

/// Every file below `dir` (links included, not followed) with its content.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        let meta = std::fs::symlink_metadata(&path).expect("meta");
        if meta.is_dir() {
            out.extend(snapshot(&path));
        } else if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).expect("link");
            out.insert(path, target.to_string_lossy().as_bytes().to_vec());
        } else {
            let content = std::fs::read(&path).expect("read");
            out.insert(path, content);
        }
    }
    out
}

fn create(path: &str, line: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{line}\n"
    )
}

fn modify(path: &str, old: &str, new: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n+{new}\n"
    )
}

#[test]
fn an_untracked_link_to_outside_is_not_written_through() {
    let scene = Scene::new(&[("README", "r\n")], "");
    symlink(scene.outside.path(), scene.repo.path().join("evil")).expect("plant link");
    let before = scene.canary();
    let out = scene.apply(&create("evil/pwned", "pwned"), &["evil/pwned"]);
    scene.assert_refused(&out, &before, "unsafe_path");
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("beyond a symbolic link"), "{message}");
}

#[test]
fn a_tracked_directory_replaced_by_a_link_is_not_written_through() {
    for (patch, files) in [
        (modify("dir/a.txt", "a", "changed"), ["dir/a.txt"]),
        (create("dir/new.txt", "new"), ["dir/new.txt"]),
    ] {
        let scene = Scene::new(&[("dir/a.txt", "a\n")], "");
        let dir = scene.repo.path().join("dir");
        std::fs::remove_dir_all(&dir).expect("remove tracked dir");
        symlink(scene.outside.path(), &dir).expect("plant link");
        let before = scene.canary();
        let out = scene.apply(&patch, &files);
        scene.assert_refused(&out, &before, "unsafe_path");
    }
}

#[test]
fn temporary_names_cannot_be_planted() {
    // The old names were `.NAME.patchgate-PID.tmp`: plant a link for each of the next pids.
    let scene = Scene::new(&[("a.txt", "a\n")], "");
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1);
    let target = scene.outside.path().join("secret.txt");
    for pid in last + 1..last + 400 {
        let name = format!(".a.txt.patchgate-{pid}.tmp");
        symlink(&target, scene.repo.path().join(name)).expect("plant link");
    }
    let before = scene.canary();
    let out = scene.apply(&modify("a.txt", "a", "b"), &["a.txt"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(scene.canary(), before, "a planted name led the write outside");
    let written = std::fs::read_to_string(scene.repo.path().join("a.txt")).expect("a.txt");
    assert_eq!(written, "b\n");
}

#[test]
fn a_committed_link_is_never_written_through() {
    // git's t4139 "symlink escape when creating / modifying / deleting a file" and t4122
    // "beyond a symbolic link": the link is in the base tree.
    for (patch, files) in [
        (create("dir/link/pwned", "pwned"), vec!["dir/link/pwned"]),
        (modify("dir/link/a.txt", "a", "changed"), vec!["dir/link/a.txt"]),
        (
            "diff --git a/dir/link/a.txt b/dir/link/a.txt\ndeleted file mode 100644\n--- a/dir/link/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n".to_owned(),
            vec!["dir/link/a.txt"],
        ),
    ] {
        let scene = Scene::new(&[("dir/keep", "k\n")], "[rules]\nallow_symlinks = true\n");
        symlink(scene.outside.path(), scene.repo.path().join("dir/link")).expect("link");
        scene.repo.git(&["add", "dir/link"]);
        scene.repo.git(&["commit", "-qm", "link"]);
        let before = scene.canary();
        let out = scene.apply(&patch, &files);
        scene.assert_refused(&out, &before, "");
    }
}

#[test]
fn a_patch_cannot_make_a_link_out_and_write_through_it() {
    // t4139 "symlink escape via .." and "via absolute path": link and write in one patch.
    let outside = tempfile::tempdir().expect("outside");
    let absolute = outside.path().display().to_string();
    for target in ["..", absolute.as_str(), "../.."] {
        let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
        let patch = format!(
            "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n{}",
            create("link/pwned", "pwned")
        );
        let before = scene.canary();
        let out = scene.apply(&patch, &["link", "link/pwned"]);
        scene.assert_refused(&out, &before, "");
        assert!(!scene.repo.path().join("link").exists(), "{target}: nothing was written");
    }
}

#[test]
fn a_link_pointing_outside_is_not_written() {
    let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
    let patch = "diff --git a/up b/up\nnew file mode 120000\n--- /dev/null\n+++ b/up\n@@ -0,0 +1 @@\n+../outside\n\\ No newline at end of file\n";
    let before = scene.canary();
    let out = scene.apply(patch, &["up"]);
    scene.assert_refused(&out, &before, "");
    assert!(std::fs::symlink_metadata(scene.repo.path().join("up")).is_err(), "no link written");
}

#[test]
fn a_link_replaced_by_a_directory_is_not_written_through() {
    let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
    let outside = scene.outside.path().display().to_string();
    symlink(&outside, scene.repo.path().join("d")).expect("link");
    scene.repo.git(&["add", "d"]);
    scene.repo.git(&["commit", "-qm", "link"]);
    let patch = format!(
        "diff --git a/d b/d\ndeleted file mode 120000\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-{outside}\n\\ No newline at end of file\n{}",
        create("d/f", "f")
    );
    let before = scene.canary();
    let out = scene.apply(&patch, &["d", "d/f"]);
    if code(&out) == 0 {
        // Applied as git would: the link replaced by a real directory, nothing outside.
        let d = std::fs::symlink_metadata(scene.repo.path().join("d")).expect("d");
        assert!(d.is_dir(), "d is a directory now");
    }
    assert_eq!(scene.canary(), before, "a file outside the repository changed");
}
