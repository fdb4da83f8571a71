//! Repository-aware validation and `apply` through the real binary: the fixture cases in
//! `fixtures/scratch/`, the "validate never touches the repository" fingerprint test (including a
//! run killed with SIGKILL mid-check), signals, and `apply`'s all-or-nothing write.
//!
//! A case is a folder with `setup.sh` (run in a fresh repository, then everything is committed),
//! `patch.diff`, `files.txt` (the result's `filesWritten`), optional `step.json` and `args.txt`
//! (one argument per line), and `expected.json` (`{"exit", "stdout"}`). Run with
//! `PATCHGATE_BLESS=1` to rewrite the expectations.

use crate::support::{Case, TestRepo, code, fixtures, json, read};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The command the fixtures run.
const COMMAND: &str = "validate";

fn cases() -> Vec<Case> {
    crate::support::cases("scratch", "patch.diff")
}

fn setup(case_dir: &Path) -> TestRepo {
    crate::support::setup_case(case_dir)
}

/// Step and result files for the case, written outside the repository.
fn inputs(case_dir: &Path, name: &str, out: &Path) -> (PathBuf, PathBuf) {
    let files: Vec<String> = read(case_dir, "files.txt")
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    let step: Value = read(case_dir, "step.json").map_or_else(
        || json!({"description": format!("fixture {name}"), "mode": "apply"}),
        |s| serde_json::from_str(&s).expect("test fixture io"),
    );
    let result = json!({
        "mode": "apply", "success": true, "patch": read(case_dir, "patch.diff").expect("test fixture io"),
        "filesWritten": files, "filesTouched": files, "summary": format!("fixture {name}"),
    });
    let (step_path, result_path) = (out.join("step.json"), out.join("result.json"));
    std::fs::write(&step_path, step.to_string()).expect("test fixture io");
    std::fs::write(&result_path, result.to_string()).expect("test fixture io");
    (step_path, result_path)
}

/// Run the case; return its output and the violation codes of its `--report`. An accepted
/// patch must also pass `git apply --check` in the same repository (the oracle).
fn run_case(case: &Case) -> (Output, Value) {
    let repo = setup(&case.dir);
    let io = tempfile::tempdir().expect("test fixture io");
    let report = io.path().join("report.json");
    let (step, result) = inputs(&case.dir, &case.name, io.path());
    let extra: Vec<String> =
        read(&case.dir, "args.txt").unwrap_or_default().lines().map(str::to_owned).collect();
    let out = repo
        .patchgate()
        .arg(COMMAND)
        .arg("--step")
        .arg(&step)
        .arg("--result")
        .arg(&result)
        .arg("--report")
        .arg(&report)
        .args(&extra)
        .output()
        .expect("test fixture io");
    let report: Value = std::fs::read(&report)
        .map_or(Value::Null, |bytes| serde_json::from_slice(&bytes).expect("the report is JSON"));
    if code(&out) == 0 {
        let patch = read(&case.dir, "patch.diff").expect("patch.diff");
        let mut git = repo.git_command(&["apply", "--check", "-"]);
        let checked = crate::support::run_with_stdin(&mut git, patch.as_bytes());
        assert!(
            checked.status.success(),
            "{}: accepted, but git apply --check refuses it",
            case.name
        );
    }
    let codes: Vec<Value> = report["violations"]
        .as_array()
        .map(|v| {
            v.iter()
                .map(|v| {
                    json!(format!(
                        "{}/{}",
                        v["rule"].as_str().unwrap_or_default(),
                        v["code"].as_str().unwrap_or_default()
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    (out, Value::from(codes))
}

#[test]
fn fixture_cases_give_their_exit_code_and_verdict() {
    let bless = std::env::var_os("PATCHGATE_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let (out, codes) = run_case(&case);
        let actual = json!({"exit": code(&out), "stdout": json(&out), "violations": codes});
        let path = case.dir.join("expected.json");
        if bless {
            std::fs::write(
                &path,
                serde_json::to_string_pretty(&actual).expect("test fixture io") + "\n",
            )
            .expect("test fixture io");
            continue;
        }
        let expected: Value =
            serde_json::from_str(&read(&case.dir, "expected.json").unwrap_or_default())
                .unwrap_or(Value::Null);
        if expected != actual {
            failures.push(format!(
                "{}:\n  expected {expected}\n  actual   {actual}\n  stderr {}",
                case.name,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{} case(s) differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_refusal_code_has_a_fixture() {
    let names: Vec<String> = cases().into_iter().map(|c| c.name).collect();
    for needed in [
        "stale_context",
        "create_over_existing",
        "missing_preimage",
        "mode_setuid",
        "mode_gitlink",
        "binary_marker",
        "symlink_in_base",
        "symlink_created_then_written",
        "symlink_renamed_then_written",
        "gitmodules_symlink",
        "expect_failed",
        "check_cmd_failed",
    ] {
        assert!(names.iter().any(|n| n == needed), "no fixture {needed}");
    }
}

// ---- validate never touches the repository ----

/// Every file of the worktree and of `.git` except patchgate's own `.git/patchgate/`, with its
/// permission bits and a hash of its content (or link target).
fn fingerprint(root: &Path) -> BTreeMap<String, (u32, u64)> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("test fixture io") {
            let path = entry.expect("test fixture io").path();
            let rel = path.strip_prefix(root).expect("test fixture io").display().to_string();
            if rel == ".git/patchgate" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).expect("test fixture io");
            let content = if meta.file_type().is_symlink() {
                std::fs::read_link(&path)
                    .expect("test fixture io")
                    .display()
                    .to_string()
                    .into_bytes()
            } else if meta.is_dir() {
                stack.push(path.clone());
                Vec::new()
            } else {
                std::fs::read(&path).expect("test fixture io")
            };
            let mut hasher = DefaultHasher::new();
            content.hash(&mut hasher);
            out.insert(rel, (meta.mode(), hasher.finish()));
        }
    }
    out
}

fn validate_command(repo: &TestRepo, case: &str, io: &Path, extra: &[&str]) -> Command {
    let case_dir = fixtures().join("scratch").join(case);
    let (step, result) = inputs(&case_dir, case, io);
    let mut cmd = repo.patchgate();
    cmd.arg("validate").arg("--step").arg(step).arg("--result").arg(result).args(extra);
    cmd
}

/// The scratch trees in the `TMPDIR` the repository's patchgate runs with.
fn scratch_entries(repo: &TestRepo) -> Vec<PathBuf> {
    std::fs::read_dir(repo.tmp.path())
        .expect("test fixture io")
        .map(|e| e.expect("test fixture io").path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("patchgate-")))
        .collect()
}

#[test]
fn validate_leaves_worktree_index_refs_config_and_hooks_unchanged() {
    for (name, extra) in [
        ("accepted_with_offset", vec![]),
        ("stale_context", vec![]),
        ("accepted_with_offset", vec!["--check-cmd", "echo x > list.txt; git add -A; true"]),
        ("check_cmd_failed", vec!["--check-cmd", "rm -rf * .patchgate.toml; exit 1"]),
    ] {
        let repo = setup(&fixtures().join("scratch").join(name));
        let before = fingerprint(repo.path());
        let io = tempfile::tempdir().expect("test fixture io");
        let out =
            validate_command(&repo, name, io.path(), &extra).output().expect("test fixture io");
        assert!(matches!(code(&out), 0 | 1), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(fingerprint(repo.path()), before, "{name} {extra:?} changed the repository");
        assert!(scratch_entries(&repo).is_empty(), "{name}: scratch tree left behind");
    }
}

/// Start `validate --check-cmd` that records its shell's pid and sleeps; return once the
/// scratch tree exists.
fn start_sleeping_check(repo: &TestRepo, io: &Path) -> (std::process::Child, PathBuf) {
    let pidfile = io.join("check.pid");
    let cmd = format!("echo $$ > '{}'; exec sleep 30", pidfile.display());
    let mut validate = validate_command(repo, "accepted_with_offset", io, &["--check-cmd", &cmd]);
    let child =
        validate.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("test fixture io");
    let started = Instant::now();
    while !pidfile.exists()
        || std::fs::read_to_string(&pidfile).expect("test fixture io").trim().is_empty()
    {
        assert!(started.elapsed() < Duration::from_secs(20), "check command never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, pidfile)
}

fn kill(signal: &str, pid: &str) {
    let _ = Command::new("kill").args([signal, pid]).status();
}

#[test]
fn a_run_killed_mid_check_changes_nothing_and_the_next_check_cleans_up() {
    let repo = setup(&fixtures().join("scratch").join("accepted_with_offset"));
    let before = fingerprint(repo.path());
    let io = tempfile::tempdir().expect("test fixture io");
    let (mut child, pidfile) = start_sleeping_check(&repo, io.path());
    assert_eq!(scratch_entries(&repo).len(), 1);
    kill("-KILL", &child.id().to_string());
    let _ = child.wait();
    kill("-KILL", std::fs::read_to_string(&pidfile).expect("test fixture io").trim());
    assert_eq!(fingerprint(repo.path()), before, "SIGKILL mid-check changed the repository");
    assert_eq!(scratch_entries(&repo).len(), 1, "the killed run's tree is still there");
    // The next run that makes a scratch tree removes the stale one (no other run looks).
    let again =
        validate_command(&repo, "accepted_with_offset", io.path(), &["--check-cmd", "true"])
            .output()
            .expect("test fixture io");
    assert_eq!(code(&again), 0, "{}", String::from_utf8_lossy(&again.stderr));
    assert!(scratch_entries(&repo).is_empty(), "the stale tree was not cleaned up");
    assert_eq!(fingerprint(repo.path()), before);
}

#[test]
fn sigterm_or_sigint_mid_check_removes_the_tree_and_the_command() {
    for signal in ["-TERM", "-INT"] {
        let repo = setup(&fixtures().join("scratch").join("accepted_with_offset"));
        let io = tempfile::tempdir().expect("test fixture io");
        let (child, pidfile) = start_sleeping_check(&repo, io.path());
        kill(signal, &child.id().to_string());
        let out = child.wait_with_output().expect("test fixture io");
        assert_eq!(code(&out), 3, "{signal}");
        assert!(scratch_entries(&repo).is_empty(), "scratch tree left after {signal}");
        let pid = std::fs::read_to_string(&pidfile).expect("test fixture io");
        assert!(!Path::new("/proc").join(pid.trim()).exists(), "check command still running");
    }
}

// ---- apply ----

fn apply(repo: &TestRepo, case: &str, io: &Path, extra: &[&str]) -> Output {
    let case_dir = fixtures().join("scratch").join(case);
    let (step, result) = inputs(&case_dir, case, io);
    repo.patchgate()
        .args(["--format", "json", "apply", "--step"])
        .arg(step)
        .arg("--result")
        .arg(result)
        .args(extra)
        .output()
        .expect("test fixture io")
}

fn worktree(root: &Path) -> BTreeMap<String, (u32, u64)> {
    fingerprint(root).into_iter().filter(|(k, _)| !k.starts_with(".git")).collect()
}

#[test]
fn apply_writes_the_patched_files_and_stages_them_with_index() {
    let repo = setup(&fixtures().join("scratch").join("accepted_with_offset"));
    let io = tempfile::tempdir().expect("test fixture io");
    let out = apply(&repo, "accepted_with_offset", io.path(), &["--index"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["valid"], true);
    let list = std::fs::read_to_string(repo.path().join("list.txt")).expect("test fixture io");
    assert_eq!(list, "x\ny\na\nb\nC\nd\ne\nf\ng\n");
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "list.txt\n");
    assert_eq!(repo.git(&["diff", "--name-only"]), "");
}

#[test]
fn apply_refuses_over_uncommitted_edits_and_names_them() {
    let repo = setup(&fixtures().join("scratch").join("accepted_with_offset"));
    repo.write("list.txt", "edited by hand\n");
    let before = worktree(repo.path());
    let io = tempfile::tempdir().expect("test fixture io");
    let out = apply(&repo, "accepted_with_offset", io.path(), &[]);
    assert_eq!(code(&out), 3);
    let env = json(&out);
    assert_eq!(env["error"]["code"], "worktree_dirty");
    assert_eq!(worktree(repo.path()), before);
}

/// `patchgate --format json apply` on a step and result given as JSON values.
fn apply_json(repo: &TestRepo, io: &Path, step: &Value, result: &Value) -> Output {
    std::fs::write(io.join("s.json"), step.to_string()).expect("test fixture io");
    std::fs::write(io.join("r.json"), result.to_string()).expect("test fixture io");
    repo.patchgate()
        .args(["--format", "json", "apply", "--step"])
        .arg(io.join("s.json"))
        .arg("--result")
        .arg(io.join("r.json"))
        .output()
        .expect("test fixture io")
}

#[test]
fn apply_refuses_an_untracked_file_where_a_directory_goes() {
    let case = fixtures().join("scratch").join("accepted_with_offset");
    let repo = setup(&case);
    // The patch modifies list.txt, then creates sub/new.txt; an untracked *file* named `sub`
    // is found before anything is written (the rollback of a write failing half-way is
    // proved by the scratch unit tests, which inject the failure).
    repo.write("sub", "i am a file, not a directory\n");
    let patch = std::fs::read_to_string(case.join("patch.diff")).expect("test fixture io")
        + "diff --git a/sub/new.txt b/sub/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+new\n";
    let files = ["list.txt", "sub/new.txt"];
    let io = tempfile::tempdir().expect("test fixture io");
    let result = json!({"mode": "apply", "success": true, "patch": patch, "filesWritten": files,
        "filesTouched": files, "summary": "two files"});
    let step = json!({"description": "two files", "mode": "apply"});
    let before = worktree(repo.path());
    let out = apply_json(&repo, io.path(), &step, &result);
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["error"]["code"], "worktree_dirty");
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("'sub' to be a directory"), "{message}");
    assert_eq!(worktree(repo.path()), before, "a refused apply changed the worktree");
}

#[test]
fn apply_lands_a_symlink_when_the_policy_allows_links() {
    // validate and apply must read one policy: with `[rules] allow_symlinks = true` a patch
    // creating a link inside the tree is valid, and apply writes it.
    let repo = TestRepo::new();
    repo.commit(
        &[(".patchgate.toml", "[rules]\nallow_symlinks = true\n"), ("a.txt", "a\n")],
        "base",
    );
    let patch = "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n";
    let io = tempfile::tempdir().expect("test fixture io");
    let result = json!({"mode": "apply", "success": true, "patch": patch, "filesWritten": ["link"],
        "filesTouched": ["link"], "summary": "add a link to a.txt"});
    let step = json!({"description": "add a symbolic link named link", "mode": "apply"});
    let out = apply_json(&repo, io.path(), &step, &result);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["valid"], true);
    let target = std::fs::read_link(repo.path().join("link")).expect("link written");
    assert_eq!(target, Path::new("a.txt"));
}

// ---- agreement with `git apply --check` on real patches: this project's own history ----

fn git_in(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run git")
}

/// `git apply --check --cached` against `base`'s tree in a throwaway index file.
fn git_accepts(project: &Path, base: &str, patch: &[u8], index: &Path) -> bool {
    let _ = std::fs::remove_file(index);
    let read = Command::new("git")
        .current_dir(project)
        .args(["read-tree", base])
        .env("GIT_INDEX_FILE", index)
        .status()
        .expect("git read-tree");
    assert!(read.success());
    let mut apply = Command::new("git");
    apply
        .current_dir(project)
        .args(["apply", "--check", "--cached", "-"])
        .env("GIT_INDEX_FILE", index);
    crate::support::run_with_stdin(&mut apply, patch).status.success()
}

fn patchgate_accepts(repo: &git2::Repository, base: &str, patch: &[u8]) -> Result<(), String> {
    use patchgate::patch::{ParseOptions, parse};
    use patchgate::scratch::{BaseTree, Context, ScratchPolicy, check};
    let parsed = parse(patch, &ParseOptions::default());
    if let Some(d) = parsed.defects.first() {
        return Err(format!("parse: {d}"));
    }
    let step = patchgate::step::Step::default();
    // The project's own history adds symlinks (parser fixtures with base trees). Refusing links
    // is a deliberate policy difference from git with its own fixture; this test is about
    // applying, so it allows them as `[rules] allow_symlinks = true` would.
    let policy = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    let base = BaseTree::resolve(repo, base).map_err(|e| e.to_string())?;
    let paths = patchgate::rule::patch_paths(&parsed.patch);
    let ctx =
        Context { base: &base, patch: &parsed.patch, paths: &paths, step: &step, policy: &policy };
    let outcome =
        check(&ctx, &patchgate::scratch::Options::default()).map_err(|e| e.to_string())?;
    match outcome.violations.first() {
        Some(v) => Err(v.reason()),
        None => Ok(()),
    }
}

#[test]
fn every_commit_of_this_project_applies_to_its_parent_under_git_and_patchgate() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = git2::Repository::discover(project).expect("the project is a git repository");
    let listed = git_in(project, &["rev-list", "--no-merges", "--max-count=60", "HEAD"]);
    let commits = String::from_utf8(listed.stdout).expect("hex ids");
    let index = tempfile::tempdir().expect("tempdir");
    let index = index.path().join("index");
    let mut checked = 0;
    for commit in commits.lines() {
        let parent = format!("{commit}^");
        if !git_in(project, &["rev-parse", "-q", "--verify", &parent]).status.success() {
            continue; // the root commit, or a shallow clone's boundary
        }
        let diff = git_in(project, &["diff", "--full-index", &parent, commit]).stdout;
        if diff.is_empty() || diff.windows(13).any(|w| w == b"Binary files ") {
            continue;
        }
        // Parser fixtures hold file names with a TAB (git's t4135 shapes); patchgate refuses
        // control characters in paths on purpose (a listed disagreement with git), so commits
        // adding them are not about applying.
        let names = git_in(project, &["diff", "--name-only", "-z", &parent, commit]).stdout;
        if names.split(|&b| b == 0).any(|n| n.iter().any(|&b| b < 0x20)) {
            continue;
        }
        assert!(git_accepts(project, &parent, &diff, &index), "git apply --check refuses {commit}");
        if let Err(reason) = patchgate_accepts(&repo, &parent, &diff) {
            panic!("patchgate refuses {commit} against its parent: {reason}");
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} commits with a parent to check");
}

#[test]
fn the_base_is_base_flag_else_step_base_else_head() {
    let repo = setup(&fixtures().join("scratch").join("stale_context"));
    // HEAD has 'E' on line 5; the commit before it has the 'e' the patch expects.
    repo.commit(&[("list.txt", "a\nb\nc\nd\ne\nf\ng\n")], "lower e");
    repo.commit(&[("list.txt", "a\nb\nc\nd\nE\nf\ng\n")], "upper E");
    let io = tempfile::tempdir().expect("tempdir");
    let run = |extra: &[&str]| {
        let out = validate_command(&repo, "stale_context", io.path(), extra).output().expect("run");
        (code(&out), out)
    };
    assert_eq!(run(&[]).0, 1);
    let (exit, out) = run(&["--base", "HEAD~1"]);
    assert_eq!(exit, 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["valid"], true);
    let (exit, out) = run(&["--format", "json", "--base", "no-such-rev"]);
    assert_eq!(exit, 2);
    assert_eq!(json(&out)["error"]["code"], "invalid_step");
    let step = io.path().join("based.json");
    std::fs::write(&step, json!({"description": "x", "base": "HEAD~1"}).to_string())
        .expect("write");
    let out = repo
        .patchgate()
        .args(["validate", "--no-record", "--step"])
        .arg(&step)
        .arg("--result")
        .arg(io.path().join("result.json"))
        .output()
        .expect("run");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn apply_follows_gnu_diff_n_epoch_timestamps_as_git_does() {
    // An epoch on `+++` deletes the file; without it, an emptying hunk leaves an empty file.
    for (case, gone) in [("epoch_removal", true), ("implied_creation", false)] {
        let repo = setup(&fixtures().join("scratch").join(case));
        let io = tempfile::tempdir().expect("test fixture io");
        let out = apply(&repo, case, io.path(), &[]);
        assert_eq!(code(&out), 0, "{case}: {}", String::from_utf8_lossy(&out.stderr));
        if gone {
            assert!(!repo.path().join("f.txt").exists(), "{case}: the file is removed");
        } else {
            let created = std::fs::read_to_string(repo.path().join("new.txt")).expect("created");
            assert_eq!(created, "new\n", "{case}: the file is created");
        }
    }
    let repo = TestRepo::new();
    repo.commit(&[("f.txt", "a\n")], "base");
    let io = tempfile::tempdir().expect("test fixture io");
    let patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1 +0,0 @@\n-a\n";
    let files = ["f.txt"];
    let result = json!({"mode": "apply", "success": true, "patch": patch, "filesWritten": files,
        "filesTouched": files, "summary": "emptied"});
    let step = json!({"description": "Empty f.txt", "mode": "apply"});
    let out = apply_json(&repo, io.path(), &step, &result);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let left = std::fs::read(repo.path().join("f.txt")).expect("git keeps an emptied file");
    assert!(left.is_empty());
}

#[test]
fn stated_ranges_that_overlap_are_placed_by_context_when_there_is_a_base() {
    let repo = TestRepo::new();
    let lines = (1..=20).map(|i| format!("l{i}")).collect::<Vec<_>>().join("\n") + "\n";
    repo.commit(&[("f.txt", &lines)], "base");
    // Hunk 2 says it starts at line 5 (inside hunk 1's stated 3-6); its context is at 10-12.
    let shifted = "--- a/f.txt\n+++ b/f.txt\n@@ -3,4 +3,4 @@\n l3\n-l4\n+L4\n l5\n l6\n@@ -5,3 +5,3 @@\n l10\n-l11\n+L11\n l12\n";
    // Hunk 2's context really is inside hunk 1.
    let overlapping = "--- a/f.txt\n+++ b/f.txt\n@@ -3,4 +3,4 @@\n l3\n-l4\n+L4\n l5\n l6\n@@ -5,3 +5,3 @@\n l5\n-l6\n+L6\n l7\n";
    let io = tempfile::tempdir().expect("test fixture io");
    let run = |patch: &str, extra: &[&str]| {
        let files = ["f.txt"];
        let result = json!({"mode": "apply", "success": true, "patch": patch,
            "filesWritten": files, "filesTouched": files, "summary": "two hunks"});
        std::fs::write(io.path().join("r.json"), result.to_string()).expect("result");
        std::fs::write(io.path().join("s.json"), json!({"description": "edit"}).to_string())
            .expect("step");
        let out = repo
            .patchgate()
            .args(["validate", "--step"])
            .arg(io.path().join("s.json"))
            .arg("--result")
            .arg(io.path().join("r.json"))
            .args(extra)
            .output()
            .expect("run patchgate");
        (code(&out), json(&out)["reason"].as_str().unwrap_or_default().to_owned())
    };
    let (exit, reason) = run(shifted, &[]);
    assert_eq!(exit, 0, "placed by context: {reason}");
    let (exit, reason) = run(overlapping, &[]);
    assert_eq!(exit, 1, "{reason}");
    let (exit, reason) = run(shifted, &["--no-repo"]);
    assert_eq!(exit, 1, "without a base the stated ranges are all there is: {reason}");
    assert!(reason.contains("hunk_overlap") || reason.contains("overlaps"), "{reason}");
    let applied = std::process::Command::new("git")
        .args(["apply", "--check", "-"])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child.stdin.take().expect("stdin").write_all(shifted.as_bytes())?;
            child.wait()
        })
        .expect("git apply");
    assert!(applied.success(), "git applies the shifted patch too");
}

#[test]
fn a_directory_emptied_by_the_patch_may_become_a_file() {
    let repo = setup(&fixtures().join("scratch").join("directory_to_file"));
    let io = tempfile::tempdir().expect("test fixture io");
    let out = apply(&repo, "directory_to_file", io.path(), &["--index"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let staged = repo.git(&["ls-files", "--stage"]);
    assert!(staged.contains("\tfoo\n") && !staged.contains("foo/"), "{staged}");
    let foo = repo.path().join("foo");
    assert_eq!(std::fs::read_to_string(&foo).expect("foo is a file"), "now a file\n");
    let mut left: Vec<String> = std::fs::read_dir(repo.path())
        .expect("read worktree")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git")
        .collect();
    left.sort();
    assert_eq!(left, ["foo", "keep.txt"], "no backup or temporary file is left");
}

#[test]
fn strip_zero_reads_bare_paths_as_written() {
    let repo = TestRepo::new();
    repo.commit(&[("src/x.rs", "a\n")], "base");
    let patch = "diff --git src/x.rs src/x.rs\n--- src/x.rs\n+++ src/x.rs\n@@ -1 +1 @@\n-a\n+b\n";
    let files = ["src/x.rs"];
    let result = json!({"mode": "apply", "success": true, "patch": patch, "filesWritten": files,
        "filesTouched": files, "summary": "bare paths"});
    let step = json!({"description": "Change a to b in src/x.rs", "mode": "apply"});
    let io = tempfile::tempdir().expect("test fixture io");
    std::fs::write(io.path().join("s.json"), step.to_string()).expect("step");
    std::fs::write(io.path().join("r.json"), result.to_string()).expect("result");
    let run = |command: &str, strip: &str| {
        repo.patchgate()
            .args([command, "--strip", strip, "--step"])
            .arg(io.path().join("s.json"))
            .arg("--result")
            .arg(io.path().join("r.json"))
            .output()
            .expect("run patchgate")
    };
    let default = run("validate", "1");
    assert_eq!(code(&default), 1, "with -p1 the names lose src/");
    let validated = run("validate", "0");
    assert_eq!(code(&validated), 0, "{}", String::from_utf8_lossy(&validated.stdout));
    let applied = run("apply", "0");
    assert_eq!(code(&applied), 0, "{}", String::from_utf8_lossy(&applied.stderr));
    assert_eq!(std::fs::read_to_string(repo.path().join("src/x.rs")).expect("x.rs"), "b\n");
}
