//! Submodule updates (gitlinks) through the binary, against a real superproject with a real
//! submodule: a bump is accepted where `git apply --check` accepts it, `apply --index` records
//! it in the index exactly as `git apply --index` does, `apply` without `--index` refuses and
//! changes nothing, and every other gitlink entry stays refused.

use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};
use std::process::Output;

/// A superproject whose submodule `sub` is recorded (and checked out) at commit `old`; the
/// submodule's repository also has `new`, one commit later.
struct Superproject {
    top: TestRepo,
    _sub: TestRepo,
    old: String,
    new: String,
}

impl Superproject {
    fn new() -> Self {
        let sub = TestRepo::new();
        sub.commit(&[("lib.c", "int one;\n")], "one");
        let old = sub.git(&["rev-parse", "HEAD"]).trim().to_owned();
        sub.commit(&[("lib.c", "int one;\nint two;\n")], "two");
        let new = sub.git(&["rev-parse", "HEAD"]).trim().to_owned();
        let top = TestRepo::new();
        let url = sub.path().to_str().expect("temporary paths are UTF-8");
        top.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", url, "sub"]);
        let in_sub = |args: &[&str]| top.git(&[&["-C", "sub"], args].concat());
        in_sub(&["checkout", "-q", &old]);
        top.write("notes.txt", "submodule at one\n");
        top.git(&["add", "-A"]);
        top.git(&["commit", "-q", "-m", "base"]);
        Self { top, _sub: sub, old, new }
    }

    /// The bump as `git diff` writes it, from `from` to `self.new`, with a change to
    /// `notes.txt` beside it.
    fn bump_from(&self, from: &str) -> String {
        format!(
            "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n\
             -submodule at one\n+submodule at two\n\
             diff --git a/sub b/sub\nindex {}..{} 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n\
             -Subproject commit {from}\n+Subproject commit {}\n",
            &from[..7],
            &self.new[..7],
            self.new
        )
    }

    fn bump(&self) -> String {
        self.bump_from(&self.old)
    }

    /// `patchgate --format json COMMAND` on `patch` for "Bump the sub submodule".
    fn run(&self, command: &str, patch: &str, extra: &[&str]) -> Output {
        let io = tempfile::tempdir().expect("test io");
        let files: Vec<&str> = ["notes.txt", "sub", "other"]
            .into_iter()
            .filter(|f| patch.contains(&format!("b/{f}\n")) || patch.contains(&format!("a/{f} ")))
            .collect();
        let step =
            json!({"description": "Bump the sub submodule to its next commit", "mode": "apply"});
        let result = json!({"mode": "apply", "success": true, "patch": patch,
            "filesWritten": files, "filesTouched": files, "summary": "bumped sub"});
        std::fs::write(io.path().join("s.json"), step.to_string()).expect("test io");
        std::fs::write(io.path().join("r.json"), result.to_string()).expect("test io");
        self.top
            .patchgate()
            .args(["--format", "json", command, "--step"])
            .arg(io.path().join("s.json"))
            .arg("--result")
            .arg(io.path().join("r.json"))
            .args(extra)
            .output()
            .expect("run patchgate")
    }

    /// Whether `git apply --check` (and with `--index`, against the index) accepts `patch`.
    fn git_accepts(&self, patch: &str, extra: &[&str]) -> bool {
        let io = tempfile::tempdir().expect("test io");
        let file = io.path().join("bump.diff");
        std::fs::write(&file, patch).expect("test io");
        let file = file.to_str().expect("temporary paths are UTF-8");
        let args = [&["apply", "--check"], extra, &[file]].concat();
        self.top.git_command(&args).output().expect("run git").status.success()
    }

    /// What a repository's state is, for "nothing changed": status, index and the submodule's
    /// checkout.
    fn state(&self) -> (String, String, String) {
        (
            self.top.git(&["status", "--porcelain"]),
            self.top.git(&["ls-files", "-s"]),
            self.top.git(&["-C", "sub", "rev-parse", "HEAD"]),
        )
    }
}

impl Superproject {
    /// `validate --report`: the exit code and the codes of the report's `violations` and
    /// `notes`.
    fn validate(&self, patch: &str) -> (i32, Vec<String>, Vec<String>) {
        let io = tempfile::tempdir().expect("test io");
        let report = io.path().join("report.json");
        let out = self.run("validate", patch, &["--report", report.to_str().expect("UTF-8")]);
        let report: Value =
            serde_json::from_slice(&std::fs::read(&report).expect("report written")).expect("JSON");
        let codes = |key: &str| -> Vec<String> {
            let list = report[key].as_array().expect("a list");
            list.iter().map(|v| v["code"].as_str().expect("a code").to_owned()).collect()
        };
        (code(&out), codes("violations"), codes("notes"))
    }
}

#[test]
fn a_submodule_bump_is_accepted_with_a_note_where_git_accepts_it() {
    let repo = Superproject::new();
    let before = repo.state();
    let (code, violations, notes) = repo.validate(&repo.bump());
    assert_eq!((code, violations), (0, vec![]));
    assert!(notes.contains(&"submodule_unchecked".to_owned()), "{notes:?}");
    assert!(repo.git_accepts(&repo.bump(), &["--index"]));
    assert_eq!(repo.state(), before, "validate changed the repository");
}

#[test]
fn a_bump_from_another_commit_than_the_base_is_refused_as_git_apply_index_does() {
    let repo = Superproject::new();
    let wrong = repo.bump_from(&"1".repeat(40));
    let (code, violations, _) = repo.validate(&wrong);
    assert_eq!((code, violations), (1, vec!["context_mismatch".to_owned()]));
    assert!(!repo.git_accepts(&wrong, &["--index"]));
}

#[test]
fn apply_index_records_the_bump_in_the_index_exactly_as_git_does() {
    let ours = Superproject::new();
    let theirs = TestRepo::new();
    let url = ours.top.path().to_str().expect("temporary paths are UTF-8");
    theirs.git(&["fetch", "-q", url, "main"]);
    theirs.git(&["reset", "-q", "--hard", "FETCH_HEAD"]);
    let out = ours.run("apply", &ours.bump(), &["--index"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let io = tempfile::tempdir().expect("test io");
    let file = io.path().join("git.diff");
    std::fs::write(&file, ours.bump()).expect("test io");
    theirs.git(&["apply", "--index", file.to_str().expect("temporary paths are UTF-8")]);
    assert_eq!(ours.top.git(&["write-tree"]), theirs.git(&["write-tree"]));
    assert_eq!(ours.top.git(&["ls-files", "-s", "sub"]), format!("160000 {} 0\tsub\n", ours.new));
    // The submodule's checkout is left where it was, as git leaves it.
    assert_eq!(ours.top.git(&["-C", "sub", "rev-parse", "HEAD"]).trim(), ours.old);
    assert_eq!(
        std::fs::read_to_string(ours.top.path().join("notes.txt")).expect("read"),
        "submodule at two\n"
    );
}

#[test]
fn apply_without_index_refuses_a_bump_and_changes_nothing() {
    let repo = Superproject::new();
    let before = repo.state();
    let out = repo.run("apply", &repo.bump(), &[]);
    assert_eq!(code(&out), 3);
    assert_eq!(json(&out)["error"]["code"], "submodule_needs_index");
    assert_eq!(repo.state(), before);
}

#[test]
fn a_gitlink_that_is_not_an_add_remove_move_or_bump_stays_refused() {
    let repo = Superproject::new();
    let two_lines = repo.bump().replace("@@ -1 +1 @@\n-Sub", "@@ -1 +1,2 @@\n-Sub")
        + "+Subproject commit 2222222222222222222222222222222222222222\n";
    let (code, violations, _) = repo.validate(&two_lines);
    assert_eq!(code, 1);
    assert!(violations.contains(&"gitlink".to_owned()), "{violations:?}");
    let copied = "diff --git a/sub b/other\nsimilarity index 100%\ncopy from sub\ncopy to other\n";
    let (code, violations, _) = repo.validate(copied);
    assert_eq!(code, 1);
    assert!(violations.contains(&"gitlink".to_owned()), "{violations:?}");
}

impl Superproject {
    /// A new submodule `other` at `self.new`, as `git diff` writes it (without `.gitmodules`,
    /// which git does not need to apply it).
    fn addition(&self) -> String {
        format!(
            "diff --git a/other b/other\nnew file mode 160000\nindex 0000000..{}\n--- /dev/null\n\
             +++ b/other\n@@ -0,0 +1 @@\n+Subproject commit {}\n",
            &self.new[..7],
            self.new
        )
    }

    /// The submodule `sub` removed, as `git diff` writes it, with `notes.txt` changed beside it.
    fn removal(&self) -> String {
        format!(
            "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n\
             -submodule at one\n+submodule gone\n\
             diff --git a/sub b/sub\ndeleted file mode 160000\nindex {}..0000000\n--- a/sub\n\
             +++ /dev/null\n@@ -1 +0,0 @@\n-Subproject commit {}\n",
            &self.old[..7],
            self.old
        )
    }

    /// A second checkout of the superproject's commit, its submodule checked out when
    /// `populated` (else an empty directory, as a clone without `--recurse-submodules` has it).
    fn twin(&self, populated: bool) -> TestRepo {
        let twin = TestRepo::new();
        let url = self.top.path().to_str().expect("temporary paths are UTF-8");
        twin.git(&["fetch", "-q", url, "main"]);
        twin.git(&["reset", "-q", "--hard", "FETCH_HEAD"]);
        if populated {
            let init = ["-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init"];
            twin.git(&init);
        }
        twin
    }

    /// After applying a patch: the index's tree, and each named path's worktree state (`None`
    /// when absent, else the sorted names inside the directory).
    fn outcome(repo: &TestRepo, paths: &[&str]) -> (String, Vec<Option<Vec<String>>>) {
        let listing = |p: &str| {
            let dir = std::fs::read_dir(repo.path().join(p)).ok()?;
            let mut names: Vec<String> =
                dir.map(|e| e.expect("read").file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            Some(names)
        };
        (repo.git(&["write-tree"]), paths.iter().map(|p| listing(p)).collect())
    }

    /// `patchgate apply --index` here and `git apply --index` in a twin in the same state:
    /// both exit codes and both outcomes.
    fn differential(&self, patch: &str, populated: bool) -> ((i32, bool), [Outcome; 2]) {
        if !populated {
            self.top.git(&["submodule", "deinit", "-q", "-f", "sub"]);
        }
        let theirs = self.twin(populated);
        let out = self.run("apply", patch, &["--index"]);
        let io = tempfile::tempdir().expect("test io");
        let file = io.path().join("git.diff");
        std::fs::write(&file, patch).expect("test io");
        let file = file.to_str().expect("temporary paths are UTF-8");
        let git = theirs.git_command(&["apply", "--index", file]).output().expect("run git");
        let paths = ["sub", "other", "notes.txt"];
        let outcomes = [Self::outcome(&self.top, &paths), Self::outcome(&theirs, &paths)];
        ((code(&out), git.status.success()), outcomes)
    }
}

type Outcome = (String, Vec<Option<Vec<String>>>);

#[test]
fn a_new_submodule_is_accepted_with_a_note_where_git_accepts_it() {
    let repo = Superproject::new();
    let before = repo.state();
    let (code, violations, notes) = repo.validate(&repo.addition());
    assert_eq!((code, violations), (0, vec![]));
    assert!(notes.contains(&"submodule_unchecked".to_owned()), "{notes:?}");
    assert!(repo.git_accepts(&repo.addition(), &["--index"]));
    assert_eq!(repo.state(), before, "validate changed the repository");
}

#[test]
fn a_removed_submodule_is_accepted_where_git_accepts_it_and_refused_on_another_commit() {
    let repo = Superproject::new();
    let (code, violations, _) = repo.validate(&repo.removal());
    assert_eq!((code, violations), (0, vec![]));
    assert!(repo.git_accepts(&repo.removal(), &["--index"]));
    let wrong = repo.removal().replace(
        &format!("-Subproject commit {}", repo.old),
        &format!("-Subproject commit {}", repo.new),
    );
    let (code, violations, _) = repo.validate(&wrong);
    assert_eq!((code, violations), (1, vec!["context_mismatch".to_owned()]));
    assert!(!repo.git_accepts(&wrong, &["--index"]));
}

#[test]
fn apply_index_adds_a_submodule_exactly_as_git_does() {
    for populated in [true, false] {
        let repo = Superproject::new();
        let ((ours, git), [after, theirs]) = repo.differential(&repo.addition(), populated);
        assert_eq!((ours, git), (0, true));
        assert_eq!(after, theirs, "populated: {populated}");
        // An empty directory, as git makes it; the index records the commit.
        assert_eq!(after.1[1], Some(vec![]));
        let entry = repo.top.git(&["ls-files", "-s", "other"]);
        assert_eq!(entry, format!("160000 {} 0\tother\n", repo.new));
    }
}

#[test]
fn apply_index_removes_a_submodule_exactly_as_git_does_and_keeps_a_populated_checkout() {
    for populated in [true, false] {
        let repo = Superproject::new();
        let ((ours, git), [after, theirs]) = repo.differential(&repo.removal(), populated);
        assert_eq!((ours, git), (0, true));
        assert_eq!(after, theirs, "populated: {populated}");
        assert_eq!(repo.top.git(&["ls-files", "-s", "sub"]), "");
        // A checkout's files are never deleted; an empty directory goes, as git removes it.
        let expected = populated.then(|| vec![".git".to_owned(), "lib.c".to_owned()]);
        assert_eq!(after.1[0], expected, "populated: {populated}");
    }
}

#[test]
fn apply_index_moves_a_submodule_exactly_as_git_does() {
    // `sub` moved to `other` unchanged, as `git diff -M` writes it (no hunk, no mode line).
    let moved =
        "diff --git a/sub b/other\nsimilarity index 100%\nrename from sub\nrename to other\n";
    for populated in [true, false] {
        let repo = Superproject::new();
        let (code, violations, _) = repo.validate(moved);
        assert_eq!((code, violations), (0, vec![]));
        let ((ours, git), [after, theirs]) = repo.differential(moved, populated);
        assert_eq!((ours, git), (0, true));
        assert_eq!(after, theirs, "populated: {populated}");
        let entry = repo.top.git(&["ls-files", "-s", "sub", "other"]);
        assert_eq!(entry, format!("160000 {} 0\tother\n", repo.old));
        // The old checkout stays where it was when populated (git's rmdir fails on it).
        assert_eq!(after.1[0].is_some(), populated, "populated: {populated}");
    }
}

#[test]
fn a_file_where_a_submodule_is_added_is_refused_as_git_refuses_it_and_nothing_changes() {
    let repo = Superproject::new();
    repo.top.write("other", "in the way\n");
    let before = repo.state();
    let out = repo.run("apply", &repo.addition(), &["--index"]);
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!repo.git_accepts(&repo.addition(), &["--index"]));
    assert_eq!(repo.state(), before);
    assert_eq!(
        std::fs::read_to_string(repo.top.path().join("other")).expect("read"),
        "in the way\n"
    );
}

#[test]
fn apply_without_index_refuses_an_added_or_removed_submodule_and_changes_nothing() {
    let repo = Superproject::new();
    let before = repo.state();
    for patch in [repo.addition(), repo.removal()] {
        let out = repo.run("apply", &patch, &[]);
        assert_eq!(code(&out), 3);
        assert_eq!(json(&out)["error"]["code"], "submodule_needs_index");
        assert_eq!(repo.state(), before);
        assert!(!repo.top.path().join("other").exists());
    }
}

#[test]
fn an_unpopulated_submodule_is_bumped_in_the_index_too() {
    let repo = Superproject::new();
    repo.top.git(&["submodule", "deinit", "-q", "-f", "sub"]);
    let out = repo.run("apply", &repo.bump(), &["--index"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(repo.top.git(&["ls-files", "-s", "sub"]), format!("160000 {} 0\tsub\n", repo.new));
    assert!(repo.top.path().join("sub").is_dir());
    let empty = std::fs::read_dir(repo.top.path().join("sub")).expect("read").next().is_none();
    assert!(empty, "apply populated the submodule");
}
