//! `patchgate apply` never writes outside the repository: worktree-only links, tracked
//! directories replaced by links, planted temporary names, and git's own escape scenarios
//! (t4122 "beyond a symbolic link", t4139 "apply-escape") recreated. Each test keeps a canary
//! directory beside the repository and asserts it is byte for byte as before.

use crate::support::{TestRepo, code, data, json};
use serde_json::json;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A repository and a canary directory outside it (`<tmp>/outside/secret.txt`).
pub(crate) struct Scene {
    pub repo: TestRepo,
    pub outside: tempfile::TempDir,
    io: tempfile::TempDir,
}

/// How `apply` must turn a hostile patch or worktree down.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Refusal {
    /// Exit 1: validation rejected the patch itself with this rule (the verdict's prefix).
    Rejected(&'static str),
    /// Exit 3: the patch is valid but the worktree cannot take it safely; the error's code.
    Unsafe(&'static str),
}

impl Scene {
    pub(crate) fn new(files: &[(&str, &str)], policy: &str) -> Self {
        let repo = TestRepo::new();
        let mut all: Vec<(&str, &str)> = vec![(".patchgate.toml", policy)];
        all.extend_from_slice(files);
        repo.commit(&all, "base");
        let outside = tempfile::tempdir().expect("canary dir");
        std::fs::write(outside.path().join("secret.txt"), "secret\n").expect("canary");
        std::fs::write(outside.path().join("a.txt"), "a\n").expect("canary");
        Self { repo, outside, io: tempfile::tempdir().expect("io dir") }
    }

    pub(crate) fn canary(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        snapshot(self.outside.path())
    }

    /// The canary directory as an absolute link target.
    pub(crate) fn outside_target(&self) -> String {
        self.outside.path().display().to_string()
    }

    /// `patchgate --format json apply` of a result carrying `patch`, declaring `files`.
    pub(crate) fn apply(&self, patch: &str, files: &[&str]) -> Output {
        self.apply_with(patch, files, &[])
    }

    /// [`Scene::apply`] with extra arguments (`--index`).
    pub(crate) fn apply_with(&self, patch: &str, files: &[&str], extra: &[&str]) -> Output {
        let (s, r) = self.inputs(patch, files);
        self.repo
            .patchgate()
            .args(["--format", "json", "apply", "--step"])
            .arg(&s)
            .arg("--result")
            .arg(&r)
            .args(extra)
            .output()
            .expect("run patchgate")
    }

    /// Step and result files for a result carrying `patch` that declares `files`.
    pub(crate) fn inputs(&self, patch: &str, files: &[&str]) -> (PathBuf, PathBuf) {
        let step = json!({"description": "apply the change", "mode": "apply"});
        let result = json!({"mode": "apply", "success": true, "patch": patch,
            "filesWritten": files, "filesTouched": files, "summary": "done"});
        let (s, r) = (self.io.path().join("s.json"), self.io.path().join("r.json"));
        std::fs::write(&s, step.to_string()).expect("step");
        std::fs::write(&r, result.to_string()).expect("result");
        (s, r)
    }

    /// Assert the apply was refused as `want` and the canary is untouched.
    pub(crate) fn assert_refused(
        &self,
        out: &Output,
        before: &BTreeMap<PathBuf, Vec<u8>>,
        want: Refusal,
    ) {
        assert_eq!(&self.canary(), before, "a file outside the repository changed");
        assert_refusal(out, want);
    }
}

/// Assert `out` is the refusal `want`: its exit code, and the verdict's rule or the error code.
pub(crate) fn assert_refusal(out: &Output, want: Refusal) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match want {
        Refusal::Rejected(rule) => {
            assert_eq!(code(out), 1, "must be rejected: {stderr}");
            let verdict = json(out);
            assert_eq!(verdict["valid"], false);
            let reason = verdict["reason"].as_str().expect("reason");
            assert_eq!(reason.split(':').next(), Some(rule), "{reason}");
        }
        Refusal::Unsafe(error) => {
            assert_eq!(code(out), 3, "must be refused: {stderr}");
            assert_eq!(json(out)["error"]["code"], error, "{stderr}");
        }
    }
}

/// Every file below `dir` (links included, not followed) with its content.
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
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

pub(crate) fn create(path: &str, line: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{line}\n"
    )
}

pub(crate) fn modify(path: &str, old: &str, new: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n+{new}\n"
    )
}

#[test]
fn an_untracked_link_to_outside_is_not_written_through() {
    let scene = Scene::new(&[("README", "r\n")], "");
    symlink(scene.outside.path(), scene.repo.path().join("evil")).expect("plant link");
    let before = scene.canary();
    for extra in [&[][..], &["--index"]] {
        let out = scene.apply_with(&create("evil/pwned", "pwned"), &["evil/pwned"], extra);
        scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
    }
    assert_eq!(scene.repo.git(&["status", "--porcelain"]), "?? evil\n", "nothing staged");
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
        scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
    }
}

#[test]
fn a_tracked_directory_replaced_by_a_file_is_refused() {
    // The worktree's type at a component differs from the base tree's: refused, not replaced.
    let scene = Scene::new(&[("dir/a.txt", "a\n")], "");
    let dir = scene.repo.path().join("dir");
    std::fs::remove_dir_all(&dir).expect("remove tracked dir");
    std::fs::write(&dir, "a file now\n").expect("file in the way");
    let before = scene.canary();
    let out = scene.apply(&create("dir/new.txt", "new"), &["dir/new.txt"]);
    scene.assert_refused(&out, &before, Refusal::Unsafe("worktree_dirty"));
    assert_eq!(std::fs::read_to_string(&dir).expect("dir"), "a file now\n");
}

#[test]
fn review_apply_does_not_write_through_a_worktree_link() {
    let scene = Scene::new(&[("README", "r\n")], "");
    // Declares a file it does not write: rejected (undeclared, declared), recorded for review.
    let (step, result) = scene.inputs(&create("evil/pwned", "pwned"), &["README"]);
    let mut validate = scene.repo.patchgate();
    validate.arg("validate").arg("--step").arg(&step).arg("--result").arg(&result);
    assert_eq!(code(&validate.output().expect("validate")), 1);
    let list = scene.repo.patchgate().args(["review", "list", "--format", "json"]).output();
    let id = data(&list.expect("list"))[0]["id"].as_str().expect("an entry").to_owned();
    symlink(scene.outside.path(), scene.repo.path().join("evil")).expect("plant link");
    let before = scene.canary();
    let out = scene
        .repo
        .patchgate()
        .args([
            "--format",
            "json",
            "review",
            "apply",
            &id,
            "--override",
            "undeclared",
            "--override",
            "declared",
        ])
        .output()
        .expect("review apply");
    scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
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
    // The link is in the base tree: validation refuses every path through it.
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
        scene.assert_refused(&out, &before, Refusal::Rejected("scope"));
    }
}

#[test]
fn a_link_pointing_outside_is_not_written() {
    let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
    let patch = "diff --git a/up b/up\nnew file mode 120000\n--- /dev/null\n+++ b/up\n@@ -0,0 +1 @@\n+../outside\n\\ No newline at end of file\n";
    let before = scene.canary();
    let out = scene.apply(patch, &["up"]);
    scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
    assert!(std::fs::symlink_metadata(scene.repo.path().join("up")).is_err(), "no link written");
}

#[test]
fn a_link_replaced_by_a_directory_is_removed_before_the_directory_is_made() {
    let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
    let outside = scene.outside_target();
    symlink(&outside, scene.repo.path().join("d")).expect("link");
    scene.repo.git(&["add", "d"]);
    scene.repo.git(&["commit", "-qm", "link"]);
    let patch = format!(
        "diff --git a/d b/d\ndeleted file mode 120000\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-{outside}\n\\ No newline at end of file\n{}",
        create("d/f", "f")
    );
    let before = scene.canary();
    let out = scene.apply_with(&patch, &["d", "d/f"], &["--index"]);
    assert_eq!(code(&out), 0, "git applies this: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(scene.canary(), before, "a file outside the repository changed");
    let d = std::fs::symlink_metadata(scene.repo.path().join("d")).expect("d");
    assert!(d.is_dir(), "d is a real directory now");
    assert_eq!(std::fs::read_to_string(scene.repo.path().join("d/f")).expect("d/f"), "f\n");
    assert_eq!(scene.repo.git(&["status", "--porcelain"]), "D  d\nA  d/f\n");
}

#[test]
fn a_directory_replaced_by_a_file_keeps_untracked_files_below_it() {
    let scene = Scene::new(&[("foo/a", "a\n"), ("foo/b", "b\n")], "");
    scene.repo.write("foo/sub/untracked.txt", "mine\n");
    let delete = |p: &str, line: &str| {
        format!(
            "diff --git a/{p} b/{p}\ndeleted file mode 100644\n--- a/{p}\n+++ /dev/null\n@@ -1 +0,0 @@\n-{line}\n"
        )
    };
    let patch =
        format!("{}{}{}", delete("foo/a", "a"), delete("foo/b", "b"), create("foo", "now a file"));
    let before = snapshot(scene.repo.path());
    let out = scene.apply(&patch, &["foo/a", "foo/b", "foo"]);
    assert_refusal(&out, Refusal::Unsafe("worktree_dirty"));
    let mut after = snapshot(scene.repo.path());
    after.retain(|p, _| !p.starts_with(scene.repo.path().join(".git")));
    let mut before = before;
    before.retain(|p, _| !p.starts_with(scene.repo.path().join(".git")));
    assert_eq!(after, before, "the worktree is as it was");
}

#[test]
fn a_link_target_climbing_out_through_another_link_is_not_written() {
    // `x -> evil/../secret.txt` looks inside, but `evil` is a link to `<outside>/sub`, so the
    // system reads `<outside>/secret.txt` through `x`.
    let scene = Scene::new(&[("README", "r\n")], "[rules]\nallow_symlinks = true\n");
    std::fs::create_dir(scene.outside.path().join("sub")).expect("sub");
    symlink(scene.outside.path().join("sub"), scene.repo.path().join("evil")).expect("link");
    let patch = "diff --git a/x b/x\nnew file mode 120000\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+evil/../secret.txt\n\\ No newline at end of file\n";
    let before = scene.canary();
    let out = scene.apply(patch, &["x"]);
    scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
    assert!(std::fs::symlink_metadata(scene.repo.path().join("x")).is_err(), "no link written");
}

#[test]
fn a_file_name_near_the_length_limit_is_written() {
    // The temporary and backup names beside it must fit the 255-byte limit too.
    let name = format!("{}.txt", "n".repeat(247));
    let scene = Scene::new(&[(name.as_str(), "a\n")], "");
    let out = scene.apply(&modify(&name, "a", "b"), &[&name]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(scene.repo.path().join(&name)).expect("file"), "b\n");
}

#[test]
fn a_tracked_file_replaced_by_a_link_to_outside_is_refused() {
    // The link's target has the base's content: only the type tells them apart.
    let scene = Scene::new(&[("a.txt", "a\n")], "");
    let file = scene.repo.path().join("a.txt");
    std::fs::remove_file(&file).expect("rm");
    symlink(scene.outside.path().join("a.txt"), &file).expect("plant link");
    let before = scene.canary();
    let out = scene.apply(&modify("a.txt", "a", "b"), &["a.txt"]);
    scene.assert_refused(&out, &before, Refusal::Unsafe("worktree_dirty"));
    assert!(std::fs::symlink_metadata(&file).expect("a.txt").file_type().is_symlink(), "kept");
}
