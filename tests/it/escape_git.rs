//! git's own escape tests recreated through `patchgate apply`: t4122 ("apply to deeper
//! directory without getting fooled with symlink": the "beyond a symbolic link" cases) and t4139
//! ("paths written by git-apply cannot escape the working tree"). Patches are made by real git
//! where git's tests make them so; every run also keeps a canary outside the repository.

use crate::escape::{Refusal, Scene, assert_refusal, create, snapshot};
use crate::support::{TestRepo, code};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Output;

const LINKS_ALLOWED: &str = "[rules]\nallow_symlinks = true\n";

/// t4122's setup: `arch/i386/boot/Makefile`, and `arch/x86_64/boot` a link to `target`.
fn t4122_base(target: Option<&str>) -> Scene {
    let scene = Scene::new(&[("arch/i386/boot/Makefile", "1\n2\n3\n4\n5\n")], LINKS_ALLOWED);
    let target = target.unwrap_or("../i386/boot");
    std::fs::create_dir(scene.repo.path().join("arch/x86_64")).expect("mkdir");
    symlink(target, scene.repo.path().join("arch/x86_64/boot")).expect("link");
    scene.repo.git(&["add", "."]);
    scene.repo.git(&["commit", "-qm", "initial"]);
    scene
}

/// `git diff` of what `stage` stages over HEAD, then the worktree and index reset to HEAD.
fn staged_patch(repo: &TestRepo, stage: impl FnOnce(&Path)) -> String {
    stage(repo.path());
    repo.git(&["add", "-A"]);
    let patch = repo.git(&["diff", "--cached", "--binary", "HEAD"]);
    repo.git(&["reset", "-q", "--hard"]);
    repo.git(&["clean", "-qfdx"]);
    patch
}

/// The paths a git patch names, for `filesWritten`.
fn files_of(patch: &str) -> Vec<String> {
    let names = patch.lines().filter_map(|l| l.strip_prefix("diff --git a/"));
    names.filter_map(|l| l.split_once(" b/")).map(|(a, _)| a.to_owned()).collect()
}

fn apply(scene: &Scene, patch: &str, extra: &[&str]) -> Output {
    let files = files_of(patch);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    scene.apply_with(patch, &files, extra)
}

#[test]
fn t4122_a_link_replaced_by_a_directory_applies_as_git_does() {
    // t4122 "apply" and "check result": the patch deletes the link and makes a real directory
    // in its place. With the link pointing outside, the new file must not land there.
    let canary = tempfile::tempdir().expect("canary");
    let outside = canary.path().display().to_string();
    for target in [None, Some(outside.as_str())] {
        let scene = t4122_base(target);
        let before = snapshot(canary.path());
        let patch = staged_patch(&scene.repo, |root| {
            std::fs::remove_file(root.join("arch/x86_64/boot")).expect("rm link");
            std::fs::create_dir(root.join("arch/x86_64/boot")).expect("mkdir");
            std::fs::write(root.join("arch/x86_64/boot/Makefile"), "2\n3\n4\n5\n6\n").expect("w");
        });
        let out = apply(&scene, &patch, &["--index"]);
        assert_eq!(code(&out), 0, "{target:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(snapshot(canary.path()), before, "{target:?}: written outside");
        let expected = "2\n3\n4\n5\n6\n";
        let made = scene.repo.path().join("arch/x86_64/boot/Makefile");
        assert_eq!(std::fs::read_to_string(made).expect("Makefile"), expected);
        // The index is what git's own apply --index leaves: the link gone, the file staged.
        assert_eq!(
            scene.repo.git(&["diff", "--cached", "--name-status"]),
            "D\tarch/x86_64/boot\nA\tarch/x86_64/boot/Makefile\n"
        );
        assert_eq!(scene.repo.git(&["diff", "--name-only"]), "", "worktree matches the index");
    }
}

/// t4122 "do not read from beyond symbolic link", on a base that has the file: patchgate judges
/// the patch against the base tree, so git's version (file absent from HEAD) is rejected before
/// the worktree is looked at; here the patch is valid and only the worktree's link is wrong.
#[test]
fn t4122_do_not_read_from_beyond_a_symbolic_link() {
    let canary = tempfile::tempdir().expect("canary");
    std::fs::write(canary.path().join("file"), "").expect("canary file");
    let outside = canary.path().display().to_string();
    for target in ["../i386/dir", outside.as_str()] {
        let scene = t4122_base(None);
        scene.repo.commit(&[("arch/x86_64/dir/file", "")], "file");
        let patch = staged_patch(&scene.repo, |root| {
            std::fs::write(root.join("arch/x86_64/dir/file"), "line\n").expect("edit");
        });
        let root = scene.repo.path();
        std::fs::remove_dir_all(root.join("arch/x86_64/dir")).expect("rm dir");
        std::fs::create_dir(root.join("arch/i386/dir")).expect("mkdir");
        std::fs::write(root.join("arch/i386/dir/file"), "").expect("file");
        symlink(target, root.join("arch/x86_64/dir")).expect("link");
        let before = (snapshot(canary.path()), snapshot(&root.join("arch/i386")));
        for extra in [&[][..], &["--index"]] {
            let out = apply(&scene, &patch, extra);
            assert_refusal(&out, Refusal::Unsafe("unsafe_path"));
            let after = (snapshot(canary.path()), snapshot(&root.join("arch/i386")));
            assert_eq!(after, before, "{target}: read or written beyond the link");
        }
    }
}

/// t4122 "do not follow symbolic link (setup)": `add_symlink` makes `arch/x86_64/dir` a link to
/// `target`, `add_file`/`del_file` create and delete `arch/x86_64/dir/file`.
struct Follow {
    scene: Scene,
    target: String,
    add_symlink: String,
    add_file: String,
    del_file: String,
}

impl Follow {
    /// The link points inside (`../i386/dir`, as in git) or at the canary outside.
    fn new(is_outside: bool) -> Self {
        let scene = t4122_base(None);
        let target = if is_outside { scene.outside_target() } else { "../i386/dir".to_owned() };
        let add_symlink = staged_patch(&scene.repo, |root| {
            symlink(&target, root.join("arch/x86_64/dir")).expect("link");
        });
        // git's file is empty; a line keeps the entry from being a zero-impact rejection.
        let add_file = staged_patch(&scene.repo, |root| {
            std::fs::create_dir(root.join("arch/x86_64/dir")).expect("mkdir");
            std::fs::write(root.join("arch/x86_64/dir/file"), "line\n").expect("file");
        });
        let del_file = add_file
            .replace("new file mode", "deleted file mode")
            .replace(
                "--- /dev/null\n+++ b/arch/x86_64/dir/file",
                "--- a/arch/x86_64/dir/file\n+++ /dev/null",
            )
            .replace("@@ -0,0 +1 @@\n+line", "@@ -1 +0,0 @@\n-line");
        std::fs::create_dir(scene.repo.path().join("arch/i386/dir")).expect("mkdir");
        Self { scene, target, add_symlink, add_file, del_file }
    }

    fn i386_file(&self) -> std::path::PathBuf {
        self.scene.repo.path().join("arch/i386/dir/file")
    }

    fn staged(&self) -> String {
        self.scene.repo.git(&["ls-files", "arch/x86_64/dir", "arch/i386/dir"])
    }
}

#[test]
fn t4122_do_not_follow_a_symbolic_link_the_patch_makes() {
    // "do not follow symbolic link (same input)": one patch makes the link and writes through it.
    for is_outside in [false, true] {
        let f = Follow::new(is_outside);
        let before = f.scene.canary();
        let patch = format!("{}{}", f.add_symlink, f.add_file);
        for extra in [&[][..], &["--index"]] {
            let out = apply(&f.scene, &patch, extra);
            f.scene.assert_refused(&out, &before, Refusal::Rejected("scope"));
            let link = f.scene.repo.path().join("arch/x86_64/dir");
            assert!(std::fs::symlink_metadata(link).is_err(), "no link made");
            assert!(!f.i386_file().exists(), "written through the link");
            assert_eq!(f.staged(), "");
        }
        // "tricky_del": the link made, and a file deleted through it.
        std::fs::write(f.i386_file(), "line\n").expect("file");
        f.scene.repo.git(&["add", "arch/i386/dir/file"]);
        let tricky = format!("{}{}", f.add_symlink, f.del_file);
        for extra in [&[][..], &["--index"]] {
            let out = apply(&f.scene, &tricky, extra);
            f.scene.assert_refused(&out, &before, Refusal::Rejected("malformed"));
            assert_eq!(std::fs::read_to_string(f.i386_file()).expect("kept"), "line\n");
            assert_eq!(f.staged(), "arch/i386/dir/file\n");
        }
    }
}

#[test]
fn t4122_do_not_follow_an_existing_symbolic_link() {
    // "do not follow symbolic link (existing)": the link is staged, not in the base tree.
    for is_outside in [false, true] {
        let f = Follow::new(is_outside);
        let link = f.scene.repo.path().join("arch/x86_64/dir");
        symlink(&f.target, &link).expect("link");
        f.scene.repo.git(&["add", "arch/x86_64/dir"]);
        let before = f.scene.canary();
        for extra in [&[][..], &["--index"]] {
            let out = apply(&f.scene, &f.add_file, extra);
            f.scene.assert_refused(&out, &before, Refusal::Unsafe("unsafe_path"));
            assert!(!f.i386_file().exists(), "written through the link");
            assert_eq!(f.staged(), "arch/x86_64/dir\n", "the index is unchanged");
        }
    }
}

/// t4139's layout: the repository one level below a directory that holds the canary `foo`.
struct Escape {
    outer: tempfile::TempDir,
    scene: Scene,
}

impl Escape {
    fn new() -> Self {
        let outer = tempfile::tempdir().expect("outer");
        let mut scene = Scene::new(&[], LINKS_ALLOWED);
        scene.repo = TestRepo::new_in(outer.path());
        scene.repo.commit(&[(".patchgate.toml", LINKS_ALLOWED), ("README", "r\n")], "base");
        Self { outer, scene }
    }

    fn foo(&self) -> std::path::PathBuf {
        self.outer.path().join("foo")
    }

    /// Apply, then assert the refusal and that `tmp` and `../foo` were never made.
    fn assert_escape_refused(&self, patch: &str, extra: &[&str], want: Refusal) {
        let out = apply(&self.scene, patch, extra);
        assert_refusal(&out, want);
        assert!(!self.foo().exists(), "../foo was written");
        assert!(std::fs::symlink_metadata(self.scene.repo.path().join("tmp")).is_err());
        assert_eq!(self.scene.repo.git(&["status", "--porcelain"]), "");
    }
}

/// t4139's `mkpatch_symlink`: a new link `name` to `target`, with its real blob id.
fn mkpatch_symlink(repo: &TestRepo, name: &str, target: &str) -> String {
    let mut hash = repo.git_command(&["hash-object", "--stdin"]);
    let id = crate::support::run_with_stdin(&mut hash, target.as_bytes());
    let id = String::from_utf8_lossy(&id.stdout).trim().to_owned();
    format!(
        "diff --git a/{name} b/{name}\nnew file mode 120000\nindex 0000000..{id}\n--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n"
    )
}

#[test]
fn t4139_symlink_escape_via_dot_dot() {
    let e = Escape::new();
    let patch =
        format!("{}{}", mkpatch_symlink(&e.scene.repo, "tmp", ".."), create("tmp/foo", "evil"));
    for extra in [&[][..], &["--index"]] {
        e.assert_escape_refused(&patch, extra, Refusal::Rejected("scope"));
    }
}

#[test]
fn t4139_symlink_escape_via_absolute_path() {
    // git's link points at the repository itself ("$(pwd)"); the canary's directory too.
    let e = Escape::new();
    let paths = [e.scene.repo.path().display().to_string(), e.outer.path().display().to_string()];
    for target in &paths {
        let link = mkpatch_symlink(&e.scene.repo, "tmp", target);
        let patch = format!("{link}{}", create("tmp/foo", "evil"));
        for extra in [&[][..], &["--index"]] {
            e.assert_escape_refused(&patch, extra, Refusal::Rejected("scope"));
        }
    }
}

#[test]
fn t4139_cannot_create_or_delete_a_file_containing_dot_dot() {
    let e = Escape::new();
    for extra in [&[][..], &["--index"]] {
        e.assert_escape_refused(&create("../foo", "evil"), extra, Refusal::Rejected("scope"));
    }
    std::fs::write(e.foo(), "evil\n").expect("canary");
    let delete = "diff --git a/../foo b/../foo\ndeleted file mode 100644\nindex 53c74cd..0000000\n--- a/../foo\n+++ /dev/null\n@@ -1 +0,0 @@\n-evil\n";
    for extra in [&[][..], &["--index"]] {
        let out = apply(&e.scene, delete, extra);
        assert_refusal(&out, Refusal::Rejected("scope"));
        assert_eq!(std::fs::read_to_string(e.foo()).expect("../foo kept"), "evil\n");
    }
}
