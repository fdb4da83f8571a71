//! `hook install / status / uninstall` where the hooks directory is shared or half undone: a
//! tracked `core.hooksPath`, a checkout that put the original hook back over the shim, a shim
//! removed by hand. Real git, the real binary, JSON asserted.

use crate::support::{TestRepo, code, data, json};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

const USER_HOOK: &str = "#!/bin/sh\necho user >> \"$(git rev-parse --git-dir)/user-hook-ran\"\n";

fn pg(repo: &TestRepo, args: &[&str]) -> Output {
    repo.patchgate().args(["--format", "json", "hook"]).args(args).output().expect("run")
}

/// A repository whose committed `githooks/pre-commit` is its `core.hooksPath`.
fn tracked_hooks_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(
        &[("src/a.rs", "a\n"), ("src/b.rs", "b\n"), ("githooks/pre-commit", USER_HOOK)],
        "base",
    );
    let hook = repo.path().join("githooks/pre-commit");
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    repo.git(&["add", "githooks/pre-commit"]);
    repo.git(&["commit", "-q", "-m", "executable hook"]);
    repo.git(&["config", "core.hooksPath", "githooks"]);
    repo
}

fn bin_dir() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_patchgate")).parent().expect("the binary has a directory")
}

fn hook_state(repo: &TestRepo) -> serde_json::Value {
    data(&pg(repo, &["status"]))["hooks"][0].clone()
}

#[test]
fn a_tracked_hooks_directory_gets_a_warning_and_shims_without_a_path_of_this_machine() {
    let repo = tracked_hooks_repo();
    let out = pg(&repo, &["install", "--hooks", "pre-commit"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let report = data(&out);
    assert_eq!(report["warnings"].as_array().map(Vec::len), Some(1), "{report}");
    let shim = std::fs::read_to_string(repo.path().join("githooks/pre-commit")).expect("shim");
    let binary = env!("CARGO_BIN_EXE_patchgate");
    assert!(!shim.contains(binary) && !shim.contains("/target/"), "{shim}");
    assert!(shim.lines().any(|l| l == "recorded="), "{shim}");
    let status = data(&pg(&repo, &["status"]));
    assert_eq!(status["tracked"], true);
    assert_eq!(status["hooks"][0]["state"], "patchgate");
    assert_eq!(status["hooks"][0]["binary"], serde_json::Value::Null);

    // The shim finds patchgate on PATH, runs the kept original first, and gates the commit.
    let run = |paths: &str| repo.patchgate().args(["declare", paths]).output().expect("declare");
    assert_eq!(code(&run("src/a.rs")), 0);
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "src/b.rs"]);
    let path = format!("{}:/usr/bin:/bin", bin_dir().display());
    let commit = |repo: &TestRepo| {
        repo.git_command(&["commit", "-q", "-m", "x"]).env("PATH", &path).output().expect("git")
    };
    assert!(!commit(&repo).status.success(), "undeclared src/b.rs must be blocked");
    let ran = std::fs::read_to_string(repo.path().join(".git/user-hook-ran")).expect("ran");
    assert_eq!(ran, "user\n", "the chained original ran first");
    assert_eq!(code(&run("src/b.rs")), 0);
    assert!(commit(&repo).status.success());
}

#[test]
fn a_checkout_that_restores_the_original_leaves_no_orphaned_copy() {
    let repo = tracked_hooks_repo();
    assert_eq!(code(&pg(&repo, &["install", "--hooks", "pre-commit"])), 0);
    let hook = repo.path().join("githooks/pre-commit");
    let kept = repo.path().join("githooks/pre-commit.patchgate-chained");
    // The user discards "changes" in the tracked directory: the shim is gone, the original back.
    repo.git(&["checkout", "--", "githooks/pre-commit"]);
    assert_eq!(std::fs::read_to_string(&hook).expect("hook"), USER_HOOK);
    let state = hook_state(&repo);
    assert_eq!(
        (state["state"].as_str(), state["orphan"].as_str()),
        (Some("other"), Some("duplicate"))
    );

    let out = pg(&repo, &["uninstall"]);
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out)["hooks"][0]["action"], "orphan_removed");
    assert!(!kept.exists(), "the duplicate copy is removed");
    assert_eq!(std::fs::read_to_string(&hook).expect("hook"), USER_HOOK);
    assert_eq!(repo.git(&["status", "--porcelain"]), "", "the tracked tree is as committed");
}

#[test]
fn install_after_such_a_checkout_installs_again_with_one_kept_copy() {
    let repo = tracked_hooks_repo();
    assert_eq!(code(&pg(&repo, &["install", "--hooks", "pre-commit"])), 0);
    repo.git(&["checkout", "--", "githooks/pre-commit"]);
    let out = pg(&repo, &["install", "--hooks", "pre-commit"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(data(&out)["hooks"][0]["action"], "installed");
    let state = hook_state(&repo);
    assert_eq!(
        (state["state"].as_str(), &state["orphan"]),
        (Some("patchgate"), &serde_json::Value::Null)
    );
    let kept = repo.path().join("githooks/pre-commit.patchgate-chained");
    assert_eq!(std::fs::read_to_string(kept).expect("kept"), USER_HOOK);
}

#[test]
fn a_removed_shim_is_reported_and_uninstall_puts_the_original_back() {
    let repo = TestRepo::new();
    repo.commit(&[("a", "a\n")], "base");
    let hook = repo.path().join(".git/hooks/pre-commit");
    std::fs::write(&hook, USER_HOOK).expect("hook");
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    let out = pg(&repo, &["install", "--hooks", "pre-commit"]);
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out)["warnings"], serde_json::json!([]), "an untracked directory");
    std::fs::remove_file(&hook).expect("rm shim");
    let state = hook_state(&repo);
    assert_eq!(
        (state["state"].as_str(), state["orphan"].as_str()),
        (Some("absent"), Some("shim_gone"))
    );

    let out = pg(&repo, &["uninstall", "--hooks", "pre-commit"]);
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out)["hooks"][0]["action"], "orphan_restored");
    assert_eq!(std::fs::read_to_string(&hook).expect("hook"), USER_HOOK);
    let mode = std::fs::metadata(&hook).expect("hook").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o750);
    assert!(!repo.path().join(".git/hooks/pre-commit.patchgate-chained").exists());
}

#[test]
fn uninstall_says_whether_it_removed_or_restored() {
    let repo = TestRepo::new();
    repo.commit(&[("a", "a\n")], "base");
    std::fs::write(repo.path().join(".git/hooks/pre-commit"), USER_HOOK).expect("hook");
    let out = pg(&repo, &["install"]);
    assert_eq!(code(&out), 0);
    let out = pg(&repo, &["uninstall"]);
    let actions: Vec<(String, String)> = data(&out)["hooks"]
        .as_array()
        .expect("hooks")
        .iter()
        .map(|h| (h["hook"].as_str().unwrap().to_owned(), h["action"].as_str().unwrap().to_owned()))
        .collect();
    let pairs: Vec<(&str, &str)> = actions.iter().map(|(h, a)| (h.as_str(), a.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("pre-commit", "restored"),
            ("pre-applypatch", "removed"),
            ("pre-receive", "not_installed")
        ]
    );
}

#[test]
fn a_hook_that_differs_from_its_kept_copy_is_left_for_a_person() {
    let repo = TestRepo::new();
    repo.commit(&[("a", "a\n")], "base");
    let hook = repo.path().join(".git/hooks/pre-commit");
    std::fs::write(&hook, USER_HOOK).expect("hook");
    assert_eq!(code(&pg(&repo, &["install", "--hooks", "pre-commit"])), 0);
    std::fs::write(&hook, "#!/bin/sh\necho someone else's\n").expect("overwrite the shim");
    assert_eq!(hook_state(&repo)["orphan"], "conflict");
    let out = pg(&repo, &["uninstall", "--hooks", "pre-commit"]);
    assert_eq!(code(&out), 3, "not restored: patchgate could not finish the job");
    let v = json(&out);
    assert_eq!(
        (v["ok"].clone(), v["error"]["code"].clone()),
        (false.into(), "not_restored".into())
    );
    assert_eq!(v["data"]["hooks"][0]["action"], "orphan_kept", "the report is kept: {v}");
    assert!(repo.path().join(".git/hooks/pre-commit.patchgate-chained").exists());
    assert_eq!(code(&pg(&repo, &["install", "--hooks", "pre-commit"])), 3);
}

#[test]
fn install_says_the_hook_needs_a_declaration_and_the_loop_it_names_gates_each_step() {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "a\n"), ("src/b.rs", "b\n")], "base");
    let text = repo.patchgate().args(["hook", "install", "--hooks", "pre-commit"]).output();
    let text = String::from_utf8(text.expect("install").stdout).expect("utf-8");
    let command = "patchgate declare --replace --from-step step.json";
    assert!(text.contains("until 'patchgate declare' records") && text.contains(command), "{text}");
    let again = pg(&repo, &["install", "--hooks", "pre-commit"]);
    assert!(data(&again)["next"].as_str().is_some_and(|n| n.contains(command)), "{again:?}");

    let path = format!("{}:/usr/bin:/bin", bin_dir().display());
    let commit = |file: &str, text: &str| {
        repo.write(file, text);
        repo.git(&["add", file]);
        let out = repo.git_command(&["commit", "-q", "-m", file]).env("PATH", &path).output();
        out.expect("git commit").status.success()
    };
    assert!(commit("src/b.rs", "b1\n"), "no declaration, no policy: the hook blocks nothing");
    let step = |n: u32, file: &str| {
        let name = format!("step{n}.json");
        let step =
            serde_json::json!({"description": format!("change {file}"), "allowedFiles": [file]});
        std::fs::write(repo.path().join(&name), step.to_string()).expect("write step");
        let args = ["declare", "--replace", "--from-step", &name];
        assert_eq!(code(&repo.patchgate().args(args).output().expect("declare")), 0);
        std::fs::remove_file(repo.path().join(&name)).expect("remove step");
    };
    step(1, "src/a.rs");
    assert!(commit("src/a.rs", "a1\n"));
    assert!(!commit("src/b.rs", "b2\n"), "step 1 declared only src/a.rs");
    repo.git(&["reset", "-q", "HEAD", "src/b.rs"]);
    step(2, "src/b.rs");
    assert!(!commit("src/a.rs", "a2\n"), "--replace ended step 1's declaration");
    repo.git(&["reset", "-q", "HEAD", "src/a.rs"]);
    assert!(commit("src/b.rs", "b2\n"));
}
