//! What `apply --recover` obeys, and what the agent's code run by `--check-cmd` can reach: the
//! scratch tree is outside the git directory and the check runs without the caller's `GIT_*`
//! variables, so its code cannot plant a journal, replace a hook or write `.git/config` by a
//! relative path or through `GIT_DIR`; a journal planted anyway (anything that can write the git
//! directory can write one) is obeyed only for entries the run provably made.

use crate::escape::{Scene, snapshot};
use crate::support::{code, json};
use std::path::{Path, PathBuf};

/// `src/a.txt` = "a", modified to "b" by the patch.
const PATCH: &str = "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1 +1 @@\n-a\n+b\n";

fn scene() -> Scene {
    Scene::new(&[("src/a.txt", "a\n"), ("src/b.txt", "b\n")], "")
}

fn git_dir(scene: &Scene) -> PathBuf {
    scene.repo.path().join(".git")
}

#[test]
fn check_cmd_code_cannot_reach_the_git_directory() {
    let scene = scene();
    let git = git_dir(&scene);
    let config = std::fs::read(git.join("config")).expect("config");
    // Every relative depth the old scratch tree (`<git-dir>/patchgate/scratch/<run>/tree`) gave.
    let mut cmd = String::new();
    let plants = [
        ("{}", "apply-journal.json"),
        ("{}", "patchgate/apply-journal.json"),
        ("exit 0", "hooks/pre-commit"),
    ];
    for depth in 1..=6 {
        let up = "../".repeat(depth);
        for (what, file) in plants {
            cmd.extend(["printf '", what, "' > ", &up, file, " 2>/dev/null; "]);
        }
    }
    cmd.push_str("git config user.name evil 2>/dev/null; git config core.hooksPath /dev/null 2>/dev/null; true");
    // Deep enough that six levels up stay inside the test's own directory.
    let tmpdir = scene.repo.tmp.path().join("a/b/c/d/e/f");
    std::fs::create_dir_all(&tmpdir).expect("tmpdir");
    let (step, result) = scene.inputs(PATCH, &["src/a.txt"]);
    let out = scene
        .repo
        .patchgate()
        .args(["--format", "json", "apply", "--step"])
        .arg(&step)
        .arg("--result")
        .arg(&result)
        .args(["--check-cmd", &cmd])
        .env("GIT_DIR", &git)
        .env("TMPDIR", &tmpdir)
        .output()
        .expect("run");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["valid"], true);
    assert!(!git.join("patchgate/apply-journal.json").exists(), "the check planted a journal");
    assert!(!git.join("hooks/pre-commit").exists(), "the check wrote a hook");
    assert_eq!(
        std::fs::read(git.join("config")).expect("config"),
        config,
        "the check wrote .git/config"
    );
    assert_eq!(std::fs::read_to_string(scene.repo.path().join("src/a.txt")).expect("a"), "b\n");
}

/// Plant `journal` (and, with `run`, its run file) in the repository's git directory.
fn plant(scene: &Scene, journal: &serde_json::Value, run: Option<&str>) -> PathBuf {
    let dir = git_dir(scene).join("patchgate");
    std::fs::create_dir_all(&dir).expect("state dir");
    if let Some(run) = run {
        std::fs::write(dir.join(format!("apply-run.{run}")), "").expect("run file");
    }
    let path = dir.join("apply-journal.json");
    std::fs::write(&path, journal.to_string()).expect("journal");
    path
}

fn recover(scene: &Scene) -> std::process::Output {
    scene.repo.patchgate().args(["--format", "json", "apply", "--recover"]).output().expect("run")
}

/// Everything of the repository but patchgate's own state in the git directory.
fn worktree_and_git(scene: &Scene) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = everything(scene.repo.path());
    files.retain(|p, _| !p.starts_with(git_dir(scene).join("patchgate")));
    files
}

/// The temporary (`tmp`) or backup (`bak`) name patchgate gives `<dir><name>` in run `run`.
fn own(dir: &str, name: &str, run: &str, what: &str) -> String {
    format!("{dir}.{name}.patchgate-{run}-0123456789abcdef.{what}")
}

/// Everything of the repository, `.git` included.
fn everything(root: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    snapshot(root)
}

#[test]
fn recover_refuses_a_journal_naming_anything_but_patchgate_s_own_files() {
    let scene = scene();
    let run = "0123456789abcdef0123456789abcdef";
    let other = "fedcba9876543210fedcba9876543210";
    let journals = [
        // What the `--check-cmd` code wrote: "temporary files" that are the source tree and the
        // object store, without a run.
        serde_json::json!({"phase": "prepare", "with_index": false, "steps": [
            {"op": "write_temp", "temp": "src"}, {"op": "write_temp", "temp": ".git/objects"}]}),
        // The same with a run file: the names are still not patchgate's.
        serde_json::json!({"run": run, "phase": "prepare", "with_index": false, "steps": [
            {"op": "write_temp", "temp": "src"}]}),
        serde_json::json!({"run": run, "phase": "commit", "with_index": false, "steps": [
            {"op": "place", "temp": own(".git/", "objects", run, "tmp"),
             "target": ".git/objects"}]}),
        serde_json::json!({"run": run, "phase": "finish", "with_index": false, "steps": [
            {"op": "move_aside", "target": "src/a.txt", "backup": "src/b.txt"}]}),
        // Patchgate's names, but no run file.
        serde_json::json!({"run": other, "phase": "commit",
            "with_index": false, "steps": [
            {"op": "write_temp", "temp": own("src/", "a.txt", other, "tmp")},
            {"op": "place", "temp": own("src/", "a.txt", other, "tmp"),
             "target": "src/a.txt"}]}),
    ];
    for journal in journals {
        let path = plant(&scene, &journal, Some(run));
        let before = everything(scene.repo.path());
        let out = recover(&scene);
        assert_eq!(code(&out), 3, "{journal}: {}", String::from_utf8_lossy(&out.stdout));
        let error = &json(&out)["error"];
        assert_eq!(error["code"], "journal_refused", "{journal}: {error}");
        assert_eq!(everything(scene.repo.path()), before, "{journal}: recovery changed something");
        assert!(path.exists(), "a refused journal is left for a person to look at");
        std::fs::remove_file(path).expect("clean up");
    }
}

#[test]
fn recover_never_removes_a_file_that_existed_before_the_run() {
    let scene = scene();
    scene.repo.write("notes.txt", "untracked and precious\n");
    let before = worktree_and_git(&scene);
    // A journal and run file planted after the files were made, with patchgate's own names:
    // "placed" (the temporary names are gone) over a tracked and an untracked file.
    let run = "0123456789abcdef0123456789abcdef";
    let temp = |dir: &str, name: &str| own(dir, name, run, "tmp");
    let journal = serde_json::json!({"run": run, "phase": "commit", "with_index": false, "steps": [
        {"op": "write_temp", "temp": temp("src/", "a.txt")},
        {"op": "write_temp", "temp": temp("", "notes.txt")},
        {"op": "place", "temp": temp("src/", "a.txt"), "target": "src/a.txt"},
        {"op": "place", "temp": temp("", "notes.txt"), "target": "notes.txt"}]});
    std::thread::sleep(std::time::Duration::from_millis(20));
    let path = plant(&scene, &journal, Some(run));
    let out = recover(&scene);
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    let error = &json(&out)["error"];
    assert_eq!(error["code"], "recover_incomplete", "{error}");
    let message = error["message"].as_str().expect("message");
    assert!(message.contains("'notes.txt'") && message.contains("'src/a.txt'"), "{message}");
    assert_eq!(
        worktree_and_git(&scene),
        before,
        "recovery removed or moved a file it did not make"
    );
    assert!(!path.exists(), "what could be done was done: the journal is gone");
}

/// A backup is an old entry the run moved aside, so its birth proves nothing: a file under a
/// backup name that has not moved since before the run is neither dropped (a journal past its
/// writes) nor put back (one rolled back), whatever the journal says.
#[test]
fn recover_never_drops_or_moves_a_backup_the_run_did_not_move_aside() {
    let run = "0123456789abcdef0123456789abcdef";
    let backup = |dir: &str, name: &str| own(dir, name, run, "bak");
    let cases = [
        ("finish", "src/a.txt", backup("src/", "a.txt")),
        ("prepare", "src/gone.txt", backup("src/", "gone.txt")),
    ];
    for (phase, target, backup) in cases {
        let scene = scene();
        scene.repo.write(&backup, "made before the run\n");
        let journal = serde_json::json!({"run": run, "phase": phase, "with_index": false,
            "steps": [{"op": "move_aside", "target": target, "backup": backup}]});
        let before = worktree_and_git(&scene);
        // Past the file system's clock tick: the run begins after the file last changed.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let path = plant(&scene, &journal, Some(run));
        let out = recover(&scene);
        assert_eq!(code(&out), 3, "{phase}: {}", String::from_utf8_lossy(&out.stdout));
        let error = &json(&out)["error"];
        assert_eq!(error["code"], "recover_incomplete", "{phase}: {error}");
        let message = error["message"].as_str().expect("message");
        assert!(message.contains(&format!("'{backup}'")), "{phase}: {message}");
        let after = worktree_and_git(&scene);
        assert_eq!(after, before, "{phase}: recovery dropped or moved a file it did not move");
        assert!(!path.exists(), "{phase}: what could be done was done: the journal is gone");
    }
}

/// A clock tick is coarse, so a file born in the tick the run began passes the birth test (here
/// it is born after the run file): recovery also wants this run's id in the name. Temporary
/// files named as patchgate names them but without the run's id (the shape before names carried
/// it, and another run's id) are never removed; the journal naming them is refused.
#[test]
fn recover_touches_only_names_carrying_its_run_s_id() {
    let run = "0123456789abcdef0123456789abcdef";
    let other = "fedcba9876543210fedcba9876543210";
    let names = [
        "src/.a.txt.patchgate-0123456789abcdef.tmp".to_owned(),
        own("src/", "a.txt", other, "tmp"),
    ];
    for temp in names {
        let scene = scene();
        let journal = serde_json::json!({"run": run, "phase": "prepare", "with_index": false,
            "steps": [{"op": "write_temp", "temp": temp},
                      {"op": "place", "temp": temp, "target": "src/a.txt"}]});
        let path = plant(&scene, &journal, Some(run));
        scene.repo.write(&temp, "not the run's\n");
        let before = everything(scene.repo.path());
        let out = recover(&scene);
        assert_eq!(code(&out), 3, "{temp}: {}", String::from_utf8_lossy(&out.stdout));
        let error = &json(&out)["error"];
        assert_eq!(error["code"], "journal_refused", "{temp}: {error}");
        let message = error["message"].as_str().expect("message");
        assert!(message.contains(&format!("in run {run}")), "{temp}: {message}");
        assert_eq!(everything(scene.repo.path()), before, "{temp}: recovery removed it");
        assert!(path.exists(), "{temp}: a refused journal is left for a person to look at");
    }
}
