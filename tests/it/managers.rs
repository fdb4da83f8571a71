//! The hook managers themselves: the real pre-commit framework (from `PyPI`), husky and lefthook (npm)
//! run patchgate as `hook install` advises, on real commits. These need the tools, so they are
//! ignored by a plain `cargo test`; `.ci/run` installs the tools and runs them with
//! `cargo test --test it -- --ignored managers::`, where a missing tool fails the test.
//!
//! Each test starts from a configuration that already has the user's own hook, applies the
//! advice exactly as reported (`snippet` after `after_line` of `file`), and checks that
//! patchgate blocks an undeclared change, lets a declared one through, and that the user's
//! own command still runs.

use crate::support::{TestRepo, code, json};
use patchgate::hook::managers::insert;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const WHY: &str = "needs pre-commit, husky and lefthook: .ci/run installs them";

/// A tool from npm: `$PATCHGATE_TEST_NODE_BIN/NAME` (where .ci/run installs them) or `PATH`.
fn node_tool(name: &str) -> PathBuf {
    let from_env = std::env::var_os("PATCHGATE_TEST_NODE_BIN").map(|d| PathBuf::from(d).join(name));
    let found = from_env.filter(|p| p.is_file()).or_else(|| {
        let paths = std::env::var_os("PATH")?;
        std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!("{name} is not installed: npm install {name}, and set PATCHGATE_TEST_NODE_BIN to its node_modules/.bin")
    })
}

/// The pre-commit framework (`python3 -m pre_commit`); panics when it is missing.
fn pre_commit() -> Command {
    let found = Command::new("python3")
        .args(["-m", "pre_commit", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "pre-commit is not installed: python3 -m pip install pre-commit");
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pre_commit"]);
    cmd
}

/// `PATH` with the patchgate under test first, as the advice's `patchgate ...` needs.
fn path_with_patchgate() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_patchgate")).parent().expect("bin dir");
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

fn repo_with_base() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "a\n"), ("src/b.rs", "b\n")], "base");
    repo
}

fn run(repo: &TestRepo, args: &[&str]) -> Output {
    repo.patchgate().args(args).output().expect("run patchgate")
}

fn declare(repo: &TestRepo, pattern: &str) {
    assert_eq!(code(&run(repo, &["declare", pattern])), 0);
}

/// `hook install` defers to the manager: apply every piece of advice as reported.
fn apply_advice(repo: &TestRepo, manager: &str) -> serde_json::Value {
    let out = run(repo, &["--format", "json", "hook", "install"]);
    assert_eq!(code(&out), 2, "install defers: {}", String::from_utf8_lossy(&out.stdout));
    let report = json(&out)["data"].clone();
    for advice in report["managers"].as_array().expect("managers") {
        assert_eq!(advice["manager"], manager);
        let file = repo.path().join(advice["file"].as_str().expect("file"));
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let after =
            usize::try_from(advice["after_line"].as_u64().expect("after_line")).expect("fits");
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, insert(&text, after, advice["snippet"].as_str().expect("snippet")))
            .expect("write the advice");
    }
    report
}

/// Stage an edit of `src/b.rs` with only `src/a.rs` declared: blocked; declared: committed.
/// `is_gate_first`: the blocked commit ran none of the user's commands.
fn assert_gated(
    repo: &TestRepo,
    commit: &dyn Fn(&TestRepo) -> Output,
    user_log: &Path,
    is_gate_first: bool,
) {
    declare(repo, "src/a.rs");
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "src/b.rs"]);
    let before = repo.git(&["rev-parse", "HEAD"]);
    let blocked = commit(repo);
    assert!(!blocked.status.success(), "undeclared src/b.rs must be blocked");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), before);
    if is_gate_first {
        assert!(!user_log.exists(), "a blocked commit runs none of the user's commands");
    }
    declare(repo, "src/b.rs");
    let done = commit(repo);
    assert!(
        done.status.success(),
        "{}{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(user_log.is_file(), "the user's own command still runs");
}

#[test]
#[ignore = "needs pre-commit, husky and lefthook: .ci/run installs them"]
fn husky_runs_patchgate_before_the_user_s_commands() {
    let repo = repo_with_base();
    repo.commit(&[("package.json", "{\"name\": \"demo\", \"private\": true}\n")], "npm project");
    let husky = Command::new(node_tool("husky"))
        .current_dir(repo.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect(WHY);
    assert!(husky.status.success(), "{}", String::from_utf8_lossy(&husky.stderr));
    assert_eq!(repo.git(&["config", "core.hooksPath"]).trim(), ".husky/_");
    repo.write(".husky/pre-commit", "echo user >> user.log\nexit 0\n");
    let report = apply_advice(&repo, "husky");
    let pre_commit = std::fs::read_to_string(repo.path().join(".husky/pre-commit")).expect("hook");
    assert_eq!(pre_commit, "patchgate hook run pre-commit\necho user >> user.log\nexit 0\n");
    assert_eq!(
        report["managers"].as_array().map(Vec::len),
        Some(2),
        "pre-commit and pre-applypatch"
    );
    let path = path_with_patchgate();
    let commit = |repo: &TestRepo| {
        repo.git_command(&["commit", "-q", "-m", "x"]).env("PATH", &path).output().expect("git")
    };
    assert_gated(&repo, &commit, &repo.path().join("user.log"), true);
}

#[test]
#[ignore = "needs pre-commit, husky and lefthook: .ci/run installs them"]
fn lefthook_runs_patchgate_merged_into_the_existing_pre_commit_block() {
    let repo = repo_with_base();
    let config = "pre-commit:\n  parallel: false\n  commands:\n    user:\n      run: echo user >> user.log\n";
    repo.commit(&[("lefthook.yml", config)], "lefthook config");
    let lefthook = node_tool("lefthook");
    let install = Command::new(&lefthook)
        .arg("install")
        .current_dir(repo.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect(WHY);
    assert!(install.status.success(), "{}", String::from_utf8_lossy(&install.stderr));
    apply_advice(&repo, "lefthook");
    let merged = std::fs::read_to_string(repo.path().join("lefthook.yml")).expect("config");
    assert_eq!(merged.matches("pre-commit:").count(), 1, "one pre-commit block: {merged}");
    let path = path_with_patchgate();
    // lefthook's hook scripts find lefthook on PATH (or through npx).
    let path = format!("{}:{path}", lefthook.parent().expect("bin dir").display());
    let commit = |repo: &TestRepo| {
        repo.git_command(&["commit", "-q", "-m", "x"]).env("PATH", &path).output().expect("git")
    };
    assert_gated(&repo, &commit, &repo.path().join("user.log"), false);
}

#[test]
#[ignore = "needs pre-commit, husky and lefthook: .ci/run installs them"]
fn pre_commit_framework_runs_patchgate_added_to_the_existing_repos() {
    let repo = repo_with_base();
    let config = "repos:\n- repo: local\n  hooks:\n  - id: user\n    name: user\n    entry: sh -c 'echo user >> user.log'\n    language: system\n    pass_filenames: false\n    always_run: true\n";
    repo.commit(&[(".pre-commit-config.yaml", config)], "pre-commit config");
    let report = apply_advice(&repo, "pre-commit");
    assert!(report["managers"][0]["caveat"].as_str().is_some_and(|c| c.contains("pre-applypatch")));
    let cache = tempfile::tempdir().expect("cache");
    let path = path_with_patchgate();
    let env = [
        ("PRE_COMMIT_HOME", cache.path().as_os_str()),
        ("GIT_CONFIG_GLOBAL", "/dev/null".as_ref()),
        ("PATH", path.as_ref()),
    ];
    let installed =
        pre_commit().current_dir(repo.path()).arg("install").envs(env).output().expect(WHY);
    assert!(installed.status.success(), "{}", String::from_utf8_lossy(&installed.stderr));
    // `git am` is the framework's blind spot; patchgate's own shim covers it beside it.
    let out = run(
        &repo,
        &["--format", "json", "hook", "install", "--hooks", "pre-applypatch", "--force"],
    );
    assert_eq!(code(&out), 0);
    repo.git(&["add", ".pre-commit-config.yaml"]);
    let commit = |repo: &TestRepo| {
        repo.git_command(&["commit", "-q", "-m", "x"]).envs(env).output().expect("git")
    };
    assert!(commit(&repo).status.success(), "commit the merged config (no source change)");
    assert_gated(&repo, &commit, &repo.path().join("user.log"), false);
    assert!(repo.path().join(".git/hooks/pre-applypatch").is_file());
    let pre_commit_hook =
        std::fs::read_to_string(repo.path().join(".git/hooks/pre-commit")).expect("hook");
    assert!(pre_commit_hook.contains("pre-commit"), "the framework's own hook is left alone");
}

/// The shipped `.pre-commit-hooks.yaml` is a valid manifest for the real pre-commit and runs
/// `patchgate hook run pre-commit` as a Rust hook, once per commit, without file names.
#[test]
#[ignore = "needs pre-commit, husky and lefthook: .ci/run installs them"]
fn pre_commit_manifest_is_valid() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let out =
        pre_commit().arg("validate-manifest").arg(&manifest).output().expect("run pre-commit");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let script = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))";
    let out =
        Command::new("python3").args(["-c", script]).arg(&manifest).output().expect("python3");
    let hooks = json(&out);
    assert_eq!(hooks[0]["id"], "patchgate");
    assert_eq!(hooks[0]["entry"], "patchgate hook run pre-commit");
    assert_eq!(hooks[0]["language"], "rust");
    assert_eq!(hooks[0]["pass_filenames"], false);
    assert_eq!(hooks[0]["always_run"], true);
}
