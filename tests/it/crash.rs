//! `apply` is all or nothing even when the process dies mid-write: SIGKILL at random points
//! followed by `apply --recover` leaves every file wholly old (or, when the apply had finished,
//! wholly new), the index matching, and no temporary or backup file; a pending journal stops the
//! next `apply`; SIGTERM rolls back before exiting; a failed write leaves nothing behind.
//!
//! The kill tests slow the write with `PATCHGATE_TEST_STEP_DELAY_MS` (read by debug builds only)
//! so that random kill times land inside the write, not only before or after it.

use crate::escape::Scene;
use crate::support::{code, data, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A repository of 30 files and a valid patch that modifies 20, deletes 5 and creates 10 in
/// new directories, with the worktree and index snapshots before and after it.
struct Setup {
    scene: Scene,
    step: PathBuf,
    result: PathBuf,
    old: State,
    new_worktree: Files,
}

type Files = BTreeMap<PathBuf, Vec<u8>>;

#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    worktree: Files,
    /// `git ls-files -s`: the index, read without locking it.
    index: String,
}

fn file(i: usize) -> String {
    format!("src/f{i:02}.txt")
}

fn created(i: usize) -> String {
    format!("new/d{i:02}/g{i:02}.txt")
}

impl Setup {
    fn new() -> Self {
        let files: Vec<(String, String)> = (0..30)
            .map(|i| (file(i), format!("line one of {i}\nline two\nline three\n")))
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
        let scene = Scene::new(&refs, "");
        let repo = &scene.repo;
        let old = state(repo.path(), &scene);
        let mut touched = Vec::new();
        for i in 0..20 {
            repo.write(&file(i), &format!("line one of {i}\nline two changed\nline three\n"));
            touched.push(file(i));
        }
        for i in 20..25 {
            std::fs::remove_file(repo.path().join(file(i))).expect("delete a base file");
            touched.push(file(i));
        }
        for i in 0..10 {
            repo.write(&created(i), &format!("created {i}\n"));
            touched.push(created(i));
        }
        repo.git(&["add", "-A"]);
        let patch = repo.git(&["diff", "--cached", "HEAD"]);
        let new_worktree = worktree(repo.path());
        repo.git(&["reset", "-q", "--hard", "HEAD"]);
        repo.git(&["clean", "-fdq"]);
        let touched: Vec<&str> = touched.iter().map(String::as_str).collect();
        let (step, result) = scene.inputs(&patch, &touched);
        Self { scene, step, result, old, new_worktree }
    }

    fn apply(&self, extra: &[&str], delay_ms: u64) -> Command {
        let mut cmd = self.scene.repo.patchgate();
        cmd.args(["--format", "json", "apply", "--step"])
            .arg(&self.step)
            .arg("--result")
            .arg(&self.result)
            .args(extra)
            .env("PATCHGATE_TEST_STEP_DELAY_MS", delay_ms.to_string());
        cmd
    }

    fn spawn(&self, extra: &[&str], delay_ms: u64) -> Child {
        let mut cmd = self.apply(extra, delay_ms);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn patchgate")
    }

    fn recover(&self) -> serde_json::Value {
        let out = self.scene.repo.patchgate().args(["apply", "--recover"]).output().expect("run");
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        data(&out)
    }

    fn root(&self) -> &Path {
        self.scene.repo.path()
    }

    fn journal(&self) -> PathBuf {
        self.root().join(".git/patchgate/apply-journal.json")
    }

    fn now(&self) -> State {
        state(self.root(), &self.scene)
    }

    /// Back to the base commit with a clean worktree and index.
    fn reset(&self) {
        self.scene.repo.git(&["reset", "-q", "--hard", "HEAD"]);
        self.scene.repo.git(&["clean", "-fdq"]);
        assert_eq!(self.now(), self.old);
    }

    /// Wait until the write has started (the journal is there).
    fn wait_for_journal(&self, child: &mut Child) {
        let started = Instant::now();
        while !self.journal().exists() {
            assert!(child.try_wait().expect("poll").is_none(), "apply ended before writing");
            assert!(started.elapsed() < Duration::from_mins(1), "apply never started writing");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Every file of the worktree outside `.git`, links not followed.
fn worktree(root: &Path) -> Files {
    crate::escape::snapshot(root)
        .into_iter()
        .filter(|(path, _)| !path.strip_prefix(root).is_ok_and(|p| p.starts_with(".git")))
        .collect()
}

fn state(root: &Path, scene: &Scene) -> State {
    State { worktree: worktree(root), index: scene.repo.git(&["ls-files", "-s"]) }
}

/// Names of temporary or backup files left anywhere in the worktree.
fn leftovers(files: &Files) -> Vec<&PathBuf> {
    files.keys().filter(|p| p.to_string_lossy().contains(".patchgate-")).collect()
}

/// Kill `apply` at random points `runs` times; after each kill, recover and check the state.
/// Returns (half states left by the kill, runs that had completed).
fn kill_at_random(setup: &Setup, with_index: bool, runs: usize) -> (usize, usize) {
    let extra: &[&str] = if with_index { &["--index"] } else { &[] };
    let delay_ms = 2;
    // The previous call may have left the new state (its last kill came after the write).
    setup.reset();
    // One uninterrupted run: the window to kill in, and the new state.
    let started = Instant::now();
    let out = setup.apply(extra, delay_ms).output().expect("run");
    let window = started.elapsed();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let new = setup.now();
    assert_eq!(new.worktree, setup.new_worktree);
    let new_index = if with_index { new.index.clone() } else { setup.old.index.clone() };
    assert_ne!(with_index, new_index == setup.old.index);
    let (mut half, mut completed) = (0, 0);
    for _ in 0..runs {
        setup.reset();
        let mut child = setup.spawn(extra, delay_ms);
        std::thread::sleep(window.mul_f64(fastrand::f64()));
        let _ = child.kill();
        child.wait().expect("wait");
        let crashed = setup.now();
        let is_old = crashed.worktree == setup.old.worktree && crashed.index == setup.old.index;
        let is_new = crashed.worktree == new.worktree && crashed.index == new_index;
        half += usize::from(!is_old && !is_new || !leftovers(&crashed.worktree).is_empty());
        setup.recover();
        let after = setup.now();
        assert!(leftovers(&after.worktree).is_empty(), "left {:?}", leftovers(&after.worktree));
        assert!(!setup.journal().exists(), "the journal is removed by --recover");
        if after.worktree == new.worktree {
            assert_eq!(after.index, new_index, "a new worktree with an old index");
            completed += 1;
        } else {
            assert_eq!(after, setup.old, "neither wholly old nor wholly new after --recover");
        }
    }
    (half, completed)
}

fn runs() -> usize {
    std::env::var("PATCHGATE_KILL_RUNS").ok().and_then(|n| n.parse().ok()).unwrap_or(20)
}

#[test]
fn a_kill_at_any_point_is_recovered_to_wholly_old_or_wholly_new() {
    let setup = Setup::new();
    for with_index in [false, true] {
        let runs = runs();
        let (half, completed) = kill_at_random(&setup, with_index, runs);
        eprintln!(
            "--index {with_index}: {runs} kills, {half} left a half state, {completed} had \
             completed, 0 half after --recover"
        );
    }
}

#[test]
fn apply_refuses_to_start_while_a_journal_is_pending() {
    let setup = Setup::new();
    let mut child = setup.spawn(&["--index"], 200);
    setup.wait_for_journal(&mut child);
    let _ = child.kill();
    child.wait().expect("wait");
    let crashed = setup.now();
    let out = setup.apply(&[], 0).output().expect("run");
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    let error = &json(&out)["error"];
    assert_eq!(error["code"], "interrupted_apply");
    let message = error["message"].as_str().expect("message");
    assert!(message.contains("patchgate apply --recover"), "{message}");
    assert_eq!(setup.now(), crashed, "the refused run changed nothing");
    assert_eq!(setup.recover()["recovered"], "rolled_back");
    assert_eq!(setup.now(), setup.old);
    assert_eq!(setup.recover()["recovered"], "nothing_to_do");
    let out = setup.apply(&["--index"], 0).output().expect("run");
    assert_eq!(code(&out), 0, "applies again once recovered");
}

#[test]
fn recover_waits_for_a_running_apply_instead_of_undoing_it() {
    let setup = Setup::new();
    let mut child = setup.spawn(&["--index"], 100);
    setup.wait_for_journal(&mut child);
    let mut recover = setup.scene.repo.patchgate();
    let out = recover.args(["--format", "json", "apply", "--recover"]).output().expect("run");
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    let message = json(&out)["error"]["message"].as_str().expect("message").to_owned();
    assert!(message.contains("still writing"), "{message}");
    let applied = child.wait_with_output().expect("wait");
    assert_eq!(code(&applied), 0, "{}", String::from_utf8_lossy(&applied.stderr));
    assert_eq!(setup.now().worktree, setup.new_worktree, "the apply finished undisturbed");
    assert!(!setup.journal().exists());
}

#[test]
fn a_rollback_that_cannot_undo_a_step_keeps_the_journal_for_recover() {
    let setup = Setup::new();
    let root = setup.root();
    let mut child = setup.spawn(&[], 50);
    setup.wait_for_journal(&mut child);
    // Once a temporary file is written in src/, another process swaps src/ for a link to
    // where it moved it: the write stops there, and its rollback cannot reach src/.
    let started = Instant::now();
    while !std::fs::read_dir(root.join("src"))
        .expect("src")
        .any(|e| e.expect("entry").file_name().to_string_lossy().ends_with(".tmp"))
    {
        assert!(started.elapsed() < Duration::from_mins(1), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::fs::rename(root.join("src"), root.join("src.moved")).expect("move src");
    std::os::unix::fs::symlink("src.moved", root.join("src")).expect("link src");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    let error = &json(&out)["error"];
    assert_eq!(error["code"], "rollback_incomplete", "{error}");
    let message = error["message"].as_str().expect("message");
    assert!(message.contains("patchgate apply --recover"), "{message}");
    assert!(setup.journal().exists(), "the journal is kept for --recover");
    // Put src/ back, then recover: every file wholly old, no temporary file left.
    std::fs::remove_file(root.join("src")).expect("unlink");
    std::fs::rename(root.join("src.moved"), root.join("src")).expect("move back");
    assert_eq!(setup.recover()["recovered"], "rolled_back");
    assert_eq!(setup.now(), setup.old);
}

#[test]
fn sigterm_during_the_write_rolls_back_before_exiting() {
    let setup = Setup::new();
    for signal in ["-TERM", "-INT"] {
        setup.reset();
        let mut child = setup.spawn(&["--index"], 20);
        setup.wait_for_journal(&mut child);
        // Somewhere inside the write: a few steps in.
        std::thread::sleep(Duration::from_millis(fastrand::u64(0..400)));
        let pid = child.id().to_string();
        Command::new("kill").args([signal, &pid]).status().expect("kill");
        let out = child.wait_with_output().expect("wait");
        assert_eq!(code(&out), 3, "{signal}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(json(&out)["error"]["code"], "interrupted");
        assert_eq!(setup.now(), setup.old, "{signal}: everything put back");
        assert!(!setup.journal().exists(), "{signal}: no journal left");
    }
}

#[test]
fn a_failed_write_leaves_no_temporary_file_directory_or_journal() {
    let setup = Setup::new();
    // Creating a file larger than the limit fails with EFBIG (as a full disk fails with
    // ENOSPC); the journal and the small files fit under it.
    let big = "x".repeat(200 * 1024);
    let repo = &setup.scene.repo;
    repo.write("huge/big.txt", &big);
    repo.git(&["add", "-A"]);
    let patch = repo.git(&["diff", "--cached", "HEAD"]);
    repo.git(&["reset", "-q", "--hard", "HEAD"]);
    repo.git(&["clean", "-fdq"]);
    let (step, result) = setup.scene.inputs(&patch, &["huge/big.txt"]);
    let script = r#"trap '' XFSZ; ulimit -f 128; exec "$@""#;
    let out = Command::new("sh")
        .current_dir(setup.root())
        .args(["-c", script, "sh", env!("CARGO_BIN_EXE_patchgate"), "--format", "json"])
        .args(["apply", "--index", "--step"])
        .arg(&step)
        .arg("--result")
        .arg(&result)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("run");
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["error"]["code"], "write_failed");
    assert_eq!(setup.now(), setup.old, "no temporary file, no new directory");
    assert!(!setup.root().join("huge").exists(), "the new directory is removed");
    assert!(!setup.journal().exists());
}

#[test]
fn a_temporary_journal_left_by_a_kill_is_removed_by_the_next_apply_and_by_recover() {
    let setup = Setup::new();
    let dir = setup.root().join(".git/patchgate");
    std::fs::create_dir_all(&dir).expect("state dir");
    // A pid above the system's maximum belongs to no process; this test's own pid is alive.
    let pid_max: u64 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .expect("pid_max")
        .trim()
        .parse()
        .expect("a number");
    let dead = format!("apply-journal.json.{}-00c0ffee00c0ffee.new", pid_max + 1);
    let live = format!("apply-journal.json.{}-00c0ffee00c0ffee.new", std::process::id());
    let other = "apply-journal.json.notes.new";
    let plant = || {
        for name in [dead.as_str(), live.as_str(), other] {
            std::fs::write(dir.join(name), b"{\"phase\":\"prepare\"").expect("plant");
        }
    };
    for run in ["apply", "recover"] {
        plant();
        let out = if run == "apply" {
            setup.apply(&[], 0).output().expect("run")
        } else {
            setup.scene.repo.patchgate().args(["apply", "--recover"]).output().expect("run")
        };
        assert_eq!(code(&out), 0, "{run}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(
            !dir.join(&dead).exists(),
            "{run}: the dead process's temporary journal is removed"
        );
        assert!(dir.join(&live).exists(), "{run}: a live process's temporary journal stays");
        assert!(dir.join(other).exists(), "{run}: a name of another shape stays");
        assert!(!setup.journal().exists());
    }
}
