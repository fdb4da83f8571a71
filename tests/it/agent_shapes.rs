//! The shapes real agents send (`fixtures/validate/agent-*`, judged like every validate case by
//! `validate::fixture_cases`), held to git here: every one patchgate accepts, as sent or after
//! `--repair`, `git apply --check` accepts too, and `patchgate apply` writes exactly the tree
//! `git apply` writes from the same patch (the repaired one, with `--repair`).

use crate::support::{TestRepo, code, fixtures};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The agent-shape cases: folders of `fixtures/validate/` named `agent-*`.
fn cases() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join("validate"))
        .expect("fixtures/validate exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("agent-")))
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 6, "the agent shapes have their fixtures");
    dirs
}

fn args(dir: &Path) -> Vec<String> {
    std::fs::read(dir.join("args.json"))
        .map(|b| serde_json::from_slice(&b).expect("args.json is a list of strings"))
        .unwrap_or_default()
}

/// A repository holding the case's `base/` files, committed.
fn repo(dir: &Path) -> TestRepo {
    let repo = TestRepo::new();
    let base = dir.join("base");
    for entry in std::fs::read_dir(&base).expect("an agent case has base/") {
        let path = entry.expect("readable entry").path();
        let name = path.file_name().expect("named").to_string_lossy().into_owned();
        repo.write(&name, &std::fs::read_to_string(&path).expect("base files are text"));
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "base"]);
    repo
}

/// `patchgate apply --index` of the case in `repo`: the verdict's exit code, and the patch it
/// judged (the repaired one with `--repair`).
fn apply(dir: &Path, repo: &TestRepo, args: &[String]) -> (i32, String) {
    let io = tempfile::tempdir().expect("tempdir");
    let judged = io.path().join("judged.json");
    let mut cmd = repo.patchgate();
    cmd.args(["apply", "--index", "--step"]).arg(dir.join("step.json"));
    cmd.arg("--result").arg(dir.join("result.json")).args(args);
    if args.iter().any(|a| a == "--repair") {
        cmd.arg("--repaired-out").arg(&judged);
    }
    let out = cmd.output().expect("run patchgate");
    let result = std::fs::read(&judged)
        .or_else(|_| std::fs::read(dir.join("result.json")))
        .expect("the judged result");
    let value: Value = serde_json::from_slice(&result).expect("the judged result is JSON");
    (code(&out), value["patch"].as_str().unwrap_or_default().to_owned())
}

#[test]
fn what_patchgate_accepts_git_applies_to_the_same_tree() {
    let mut accepted = 0;
    for dir in cases() {
        let name = dir.file_name().expect("named").to_string_lossy().into_owned();
        let args = args(&dir);
        let ours = repo(&dir);
        let (exit, patch) = apply(&dir, &ours, &args);
        if exit != 0 {
            continue;
        }
        accepted += 1;
        let strip = if args.windows(2).any(|w| w == ["--strip", "0"]) { "-p0" } else { "-p1" };
        let theirs = repo(&dir);
        let mut git = theirs.git_command(&["apply", "--index", strip, "-"]);
        let out = crate::support::run_with_stdin(&mut git, patch.as_bytes());
        assert!(out.status.success(), "{name}: patchgate accepts, git refuses: {out:?}");
        let tree = |r: &TestRepo| r.git(&["write-tree"]);
        assert_eq!(tree(&ours), tree(&theirs), "{name}: patchgate and git write other trees");
    }
    assert!(accepted >= 6, "the accepted agent shapes were all checked ({accepted})");
}
