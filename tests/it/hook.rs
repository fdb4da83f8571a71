//! The git hook end to end: real `git commit`, `git am` and `git push` in throwaway repositories
//! with the shims installed by `patchgate hook install`.

use crate::support::{TestRepo, code, data, json, patchgate, run_with_stdin};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_with_base() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "a\n"), ("src/b.rs", "b\n"), ("docs/x.md", "x\n")], "base");
    repo
}

fn run(repo: &TestRepo, args: &[&str]) -> Output {
    repo.patchgate().args(args).output().expect("run patchgate")
}

fn hook_json(repo: &TestRepo) -> (i32, serde_json::Value) {
    let out = run(repo, &["--format", "json", "hook", "run", "pre-commit"]);
    (code(&out), data(&out))
}

fn declare(repo: &TestRepo, patterns: &[&str]) {
    let out = run(repo, &[&["declare"], patterns].concat());
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
}

fn install(repo: &TestRepo, extra: &[&str]) -> Output {
    run(repo, &[&["--format", "json", "hook", "install"], extra].concat())
}

/// `git commit` with the hooks running; returns whether it succeeded.
fn git_commit(repo: &TestRepo, args: &[&str]) -> Output {
    repo.git_command(&[&["commit", "-q", "-m", "change"], args].concat()).output().expect("git")
}

fn head(repo: &TestRepo) -> String {
    repo.git(&["rev-parse", "HEAD"]).trim().to_owned()
}

fn paths(report: &serde_json::Value) -> Vec<(String, String, String)> {
    report["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
            (s("path"), s("status"), s("reason"))
        })
        .collect()
}

#[test]
fn undeclared_path_blocks_the_commit_and_declared_one_passes() {
    let repo = repo_with_base();
    assert_eq!(code(&install(&repo, &[])), 0);
    declare(&repo, &["src/a.rs"]);
    repo.write("src/a.rs", "a2\n");
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "-A"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(report["allowed"], false);
    assert_eq!(paths(&report), [("src/b.rs".into(), "modified".into(), "undeclared".into())]);
    assert_eq!(report["violations"][0]["declare"], "patchgate declare 'src/b.rs'");
    assert_eq!(report["violations"][0]["unstage"], "git restore --staged 'src/b.rs'");

    let before = head(&repo);
    let out = git_commit(&repo, &[]);
    assert!(!out.status.success(), "the real git commit must be blocked");
    assert_eq!(head(&repo), before);

    declare(&repo, &["src/b.rs"]);
    let out = git_commit(&repo, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_ne!(head(&repo), before);
}

#[test]
fn no_declaration_and_no_policy_allows_silently() {
    let repo = repo_with_base();
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "-A"]);
    let out = run(&repo, &["hook", "run", "pre-commit"]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn excluded_path_blocks_even_when_declared() {
    let repo = repo_with_base();
    repo.commit(&[(".patchgate.toml", "excluded = [\".github/**\"]\n")], "policy");
    declare(&repo, &["**"]);
    repo.write(".github/workflows/ci.yml", "on: push\n");
    repo.git(&["add", "-A"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(report["violations"][0]["reason"], "excluded");
    assert_eq!(report["violations"][0]["detail"], ".github/**");
    assert_eq!(report["violations"][0]["declare"], serde_json::Value::Null);
}

#[test]
fn require_declaration_blocks_without_one() {
    let repo = repo_with_base();
    repo.commit(&[(".patchgate.toml", "[hook]\nrequire_declaration = true\n")], "policy");
    repo.write("src/a.rs", "a2\n");
    repo.git(&["add", "-A"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(paths(&report), [("src/a.rs".into(), "modified".into(), "no_declaration".into())]);
}

#[test]
fn rename_with_only_one_side_declared_is_blocked() {
    let repo = repo_with_base();
    declare(&repo, &["src/new.rs"]);
    repo.git(&["mv", "src/a.rs", "src/new.rs"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(paths(&report), [("src/a.rs".into(), "renamed".into(), "undeclared".into())]);
    assert_eq!(report["violations"][0]["other_path"], "src/new.rs");
    declare(&repo, &["src/a.rs"]);
    assert_eq!(hook_json(&repo).0, 0);
}

#[test]
fn rename_with_edits_is_reported_as_a_rename() {
    let repo = TestRepo::new();
    let body: String = (0..40).fold(String::new(), |acc, i| acc + &format!("line {i}\n"));
    repo.commit(&[("old.txt", &body)], "base");
    declare(&repo, &["new.txt"]);
    repo.git(&["mv", "old.txt", "new.txt"]);
    repo.write("new.txt", &format!("{body}one more\n"));
    repo.git(&["add", "-A"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(paths(&report), [("old.txt".into(), "renamed".into(), "undeclared".into())]);
}

#[test]
fn deletion_and_mode_only_change_are_checked() {
    let repo = repo_with_base();
    declare(&repo, &["docs"]);
    repo.git(&["rm", "-q", "src/a.rs"]);
    repo.git(&["update-index", "--chmod=+x", "src/b.rs"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    assert_eq!(
        paths(&report),
        [
            ("src/a.rs".into(), "deleted".into(), "undeclared".into()),
            ("src/b.rs".into(), "modified".into(), "undeclared".into())
        ]
    );
}

#[test]
fn symlink_and_submodule_changes_are_checked() {
    let repo = repo_with_base();
    declare(&repo, &["docs"]);
    std::os::unix::fs::symlink("a.rs", repo.path().join("src/link")).unwrap();
    repo.git(&["add", "src/link"]);
    let sub = "1111111111111111111111111111111111111111";
    repo.git(&["update-index", "--add", "--cacheinfo", &format!("160000,{sub},vendor/lib")]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    let got = paths(&report);
    assert_eq!(
        got,
        [
            ("src/link".into(), "added".into(), "undeclared".into()),
            ("vendor/lib".into(), "added".into(), "undeclared".into())
        ]
    );
}

#[test]
fn commit_all_uses_the_index_git_exports() {
    // `git commit -a` stages into a temporary index named by GIT_INDEX_FILE.
    let repo = repo_with_base();
    assert_eq!(code(&install(&repo, &[])), 0);
    declare(&repo, &["src/a.rs"]);
    repo.write("src/b.rs", "b2\n");
    let before = head(&repo);
    assert!(!git_commit(&repo, &["-a"]).status.success());
    assert_eq!(head(&repo), before);
}

#[test]
fn git_am_runs_pre_applypatch() {
    let repo = repo_with_base();
    repo.commit(&[("src/b.rs", "b2\n")], "touch b");
    let patch = repo.git(&["format-patch", "-1", "--stdout"]);
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    assert_eq!(code(&install(&repo, &[])), 0);
    declare(&repo, &["src/a.rs"]);
    let before = head(&repo);
    let out = run_with_stdin(&mut repo.git_command(&["am", "-q"]), patch.as_bytes());
    assert!(!out.status.success(), "git am must be blocked");
    assert_eq!(head(&repo), before);
    let (exit, report) = {
        let out = run(&repo, &["--format", "json", "hook", "run", "pre-applypatch"]);
        (code(&out), data(&out))
    };
    assert_eq!(exit, 1);
    assert_eq!(report["hook"], "pre-applypatch");
    assert_eq!(paths(&report), [("src/b.rs".into(), "modified".into(), "undeclared".into())]);
    repo.git(&["am", "--abort"]);
    declare(&repo, &["src/b.rs"]);
    let out = run_with_stdin(&mut repo.git_command(&["am", "-q"]), patch.as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_ne!(head(&repo), before);
}

fn write_hook(path: &Path, body: &str, mode: u32) {
    std::fs::create_dir_all(path.parent().expect("test setup")).expect("test setup");
    std::fs::write(path, body).expect("test setup");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("test setup");
}

#[test]
fn existing_hook_is_chained_and_its_no_still_blocks_and_uninstall_restores_it() {
    let repo = repo_with_base();
    let hook = repo.path().join(".git/hooks/pre-commit");
    let user_hook = "#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/user-hook-ran\"\n\
                     test ! -e \"$(git rev-parse --show-toplevel)/BLOCK\"\n";
    write_hook(&hook, user_hook, 0o750);
    let out = install(&repo, &[]);
    assert_eq!(code(&out), 0);
    let report = data(&out);
    assert_eq!(report["hooks"][0]["action"], "installed");
    assert!(
        report["hooks"][0]["chained"]
            .as_str()
            .expect("test setup")
            .ends_with("pre-commit.patchgate-chained")
    );
    // Idempotent: a second install updates the shim and keeps the chained hook.
    let again = data(&install(&repo, &[]));
    assert_eq!(again["hooks"][0]["action"], "updated");

    repo.write("src/a.rs", "a2\n");
    repo.write("BLOCK", "");
    repo.git(&["add", "src/a.rs"]);
    assert!(!git_commit(&repo, &[]).status.success(), "the user's hook said no");
    let ran = std::fs::read_to_string(repo.path().join(".git/user-hook-ran")).expect("test setup");
    assert_eq!(ran, "ran\n");
    std::fs::remove_file(repo.path().join("BLOCK")).expect("test setup");
    assert!(git_commit(&repo, &[]).status.success());

    let out = run(&repo, &["--format", "json", "hook", "uninstall"]);
    assert_eq!(code(&out), 0);
    assert_eq!(std::fs::read_to_string(&hook).expect("test setup"), user_hook);
    let mode = std::fs::metadata(&hook).expect("test setup").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o750);
    assert!(!repo.path().join(".git/hooks/pre-commit.patchgate-chained").exists());
    assert!(!repo.path().join(".git/hooks/pre-applypatch").exists());
}

#[test]
fn core_hooks_path_is_respected() {
    let repo = repo_with_base();
    repo.git(&["config", "core.hooksPath", "githooks"]);
    let report = data(&install(&repo, &["--hooks", "pre-commit"]));
    let dir = PathBuf::from(report["hooks_dir"].as_str().expect("test setup"));
    assert_eq!(dir, repo.path().join("githooks"));
    assert!(repo.path().join("githooks/pre-commit").is_file());
    assert!(!repo.path().join(".git/hooks/pre-commit").exists());
    let status = data(&run(&repo, &["--format", "json", "hook", "status"]));
    assert_eq!(status["hooks_path"], "githooks");
    assert_eq!(status["hooks"][0]["state"], "patchgate");
    declare(&repo, &["src/a.rs"]);
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "-A"]);
    assert!(!git_commit(&repo, &[]).status.success(), "git runs the shim from core.hooksPath");
}

#[test]
fn husky_is_detected_and_nothing_is_written() {
    let repo = repo_with_base();
    std::fs::create_dir_all(repo.path().join(".husky/_")).expect("test setup");
    repo.git(&["config", "core.hooksPath", ".husky/_"]);
    let out = install(&repo, &[]);
    assert_eq!(code(&out), 2);
    let report = json(&out)["data"].clone();
    assert_eq!(report["managers"][0]["manager"], "husky");
    assert!(report["hooks"].as_array().expect("test setup").is_empty());
    assert!(!repo.path().join(".husky/_/pre-commit").exists());
    assert_eq!(code(&install(&repo, &["--force"])), 0);
    assert!(repo.path().join(".husky/_/pre-commit").exists());
}

#[test]
fn shim_fails_closed_when_the_binary_is_gone() {
    let repo = repo_with_base();
    let bin_dir = tempfile::tempdir().expect("test setup");
    let copy = bin_dir.path().join("patchgate");
    std::fs::copy(env!("CARGO_BIN_EXE_patchgate"), &copy).expect("test setup");
    // Another test thread forking while the copy was open for writing leaves the child holding
    // a write descriptor for a moment, and exec fails with ETXTBSY: retry that error only.
    let out = (0..50)
        .find_map(|_| {
            let run = std::process::Command::new(&copy)
                .current_dir(repo.path())
                .args(["hook", "install"])
                .output();
            match run {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    None
                }
                other => Some(other.expect("test setup")),
            }
        })
        .expect("the copied binary stayed busy for a second");
    assert_eq!(code(&out), 0);
    std::fs::remove_file(&copy).expect("test setup");
    repo.write("src/a.rs", "a2\n");
    repo.git(&["add", "-A"]);
    let before = head(&repo);
    let out = repo
        .git_command(&["commit", "-q", "-m", "x"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("test setup");
    assert!(!out.status.success());
    assert_eq!(head(&repo), before);
    let status = data(&run(&repo, &["--format", "json", "hook", "status"]));
    assert_eq!(status["hooks"][0]["binary_present"], false);
}

#[test]
fn concurrent_declare_writers_never_corrupt_the_file() {
    let repo = repo_with_base();
    let children: Vec<_> = (0..8)
        .map(|i| {
            repo.patchgate()
                .args(["declare", &format!("dir{i}/**"), &format!("file{i}.rs")])
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("test setup")
        })
        .collect();
    for mut child in children {
        assert!(child.wait().expect("test setup").success());
    }
    let report = data(&run(&repo, &["--format", "json", "declare", "--show"]));
    let mut got: Vec<String> = report["entries"]
        .as_array()
        .expect("test setup")
        .iter()
        .map(|e| e["pattern"].as_str().expect("test setup").to_owned())
        .collect();
    got.sort();
    let mut want: Vec<String> =
        (0..8).flat_map(|i| [format!("dir{i}/**"), format!("file{i}.rs")]).collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn declare_refuses_unsafe_patterns_and_reads_results() {
    let repo = repo_with_base();
    for bad in ["../x", "/etc/passwd", ".git/config", "src/**/../../x"] {
        let out = run(&repo, &["--format", "json", "declare", bad]);
        assert_eq!(code(&out), 2, "{bad}");
        assert_eq!(json(&out)["ok"], false);
    }
    let result = r#"{"mode":"apply","success":true,"filesWritten":["src/a.rs"],"patch":""}"#;
    let out = run_with_stdin(
        repo.patchgate().args(["--format", "json", "declare", "--from-result", "-"]),
        result.as_bytes(),
    );
    assert_eq!(code(&out), 0);
    let report = data(&out);
    assert_eq!(report["entries"][0]["pattern"], "src/a.rs");
    assert_eq!(report["entries"][0]["source"], "result:-");
    let out = run(&repo, &["--format", "json", "declare", "--trailer"]);
    assert_eq!(data(&out)["trailers"][0], "Patchgate-Declared: src/a.rs");
    let out = run(&repo, &["--format", "json", "declare", "--clear"]);
    assert_eq!(data(&out)["active"], false);
}

/// A bare server repository with the pre-receive hook and a policy, and a clone to push from.
pub(crate) fn server(policy: &str) -> (tempfile::TempDir, TestRepo) {
    let bare = tempfile::tempdir().expect("test setup");
    let init = patchgate_git(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
    assert!(init.status.success());
    std::fs::write(bare.path().join("patchgate.toml"), policy).expect("test setup");
    let out = patchgate()
        .args(["--format", "json", "hook", "install", "--hooks", "pre-receive", "--repo"])
        .arg(bare.path())
        .output()
        .expect("test setup");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let client = TestRepo::new();
    client.git(&["remote", "add", "origin", bare.path().to_str().expect("test setup")]);
    (bare, client)
}

pub(crate) fn patchgate_git(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("test setup")
}

pub(crate) fn bare_main(bare: &Path) -> String {
    String::from_utf8_lossy(&patchgate_git(bare, &["rev-parse", "--verify", "-q", "main"]).stdout)
        .trim()
        .to_owned()
}

#[test]
fn pre_receive_requires_the_trailer_when_the_policy_says_so() {
    let (bare, client) = server("[hook]\nrequire_declaration = true\n");
    client.write("src/a.rs", "a\n");
    client.git(&["add", "-A"]);
    client.git(&["commit", "-q", "-m", "first\n\nPatchgate-Declared: src/a.rs"]);
    client.write("src/b.rs", "b\n");
    client.git(&["add", "-A"]);
    client.git(&["commit", "-q", "-m", "no trailer"]);
    // First push into an empty repository: both commits are new; the second has no trailer.
    let push = client.git_command(&["push", "-q", "origin", "main"]).output().unwrap();
    assert!(!push.status.success(), "push without the trailer must be rejected");
    assert_eq!(bare_main(bare.path()), "", "nothing was accepted");

    client.git(&["commit", "-q", "--amend", "-m", "second\n\nPatchgate-Declared: src/b.rs"]);
    let push = client.git_command(&["push", "-q", "origin", "main"]).output().unwrap();
    assert!(push.status.success(), "{}", String::from_utf8_lossy(&push.stderr));
    assert_eq!(bare_main(bare.path()), head(&client));
}

#[test]
fn pre_receive_rejects_excluded_paths_and_names_commit_path_and_reason() {
    let (bare, client) = server("excluded = [\"secrets/**\"]\n");
    client.commit(&[("src/a.rs", "a\n")], "base");
    client.git(&["push", "-q", "origin", "main"]);
    let first = head(&client);
    client.write("secrets/key.pem", "k\n");
    client.write("src/a.rs", "a2\n");
    client.git(&["add", "-A"]);
    client.git(&["commit", "-q", "-m", "key\n\nPatchgate-Declared: src/a.rs"]);
    let new = head(&client);
    let push = client.git_command(&["push", "-q", "origin", "main"]).output().unwrap();
    assert!(!push.status.success(), "the server's policy excludes secrets/**");
    assert_eq!(bare_main(bare.path()), first);

    // The same check as JSON: fetch the objects without a ref (FETCH_HEAD only), then run the
    // hook on the update lines git would give, with a new branch and a deletion beside it.
    let fetch =
        patchgate_git(bare.path(), &["fetch", "-q", client.path().to_str().unwrap(), "main"]);
    assert!(fetch.status.success());
    let zero = "0".repeat(40);
    let input = format!(
        "{first} {new} refs/heads/main\n{zero} {new} refs/heads/feature\n{first} {zero} refs/heads/gone\n"
    );
    let out = run_with_stdin(
        patchgate()
            .args(["--format", "json", "hook", "run", "pre-receive", "--repo"])
            .arg(bare.path()),
        input.as_bytes(),
    );
    assert_eq!(code(&out), 1);
    let report = data(&out);
    assert_eq!(report["allowed"], false);
    assert_eq!(report["commits"].as_array().unwrap().len(), 1, "each new commit once");
    let commit = &report["commits"][0];
    assert_eq!(commit["commit"], new);
    assert_eq!(commit["ref"], "refs/heads/main");
    assert_eq!(commit["declared"], serde_json::json!(["src/a.rs"]));
    assert_eq!(paths(commit), [("secrets/key.pem".into(), "added".into(), "excluded".into())]);
}

#[test]
fn install_sh_says_what_is_missing() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("install.sh");
    let empty = tempfile::tempdir().expect("dir");
    let out = std::process::Command::new("/bin/sh")
        .arg(&script)
        .env("PATH", empty.path())
        .output()
        .expect("run install.sh");
    assert_eq!(code(&out), 3, "no cargo on PATH");
    let out = std::process::Command::new("/bin/sh")
        .arg(&script)
        .arg("--bogus")
        .output()
        .expect("run install.sh");
    assert_eq!(code(&out), 2, "unknown option");
}

#[test]
fn concluding_a_merge_checks_only_what_the_merge_itself_writes() {
    let repo = repo_with_base();
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.commit(&[("src/a.rs", "side\n"), ("docs/new.md", "from side\n")], "side work");
    repo.git(&["checkout", "-q", "main"]);
    repo.commit(&[("src/a.rs", "main\n")], "main work");
    assert_eq!(code(&install(&repo, &[])), 0);
    assert!(!repo.git_command(&["merge", "-q", "side"]).output().expect("merge").status.success());
    repo.write("src/a.rs", "resolved\n");
    repo.git(&["add", "src/a.rs"]);
    declare(&repo, &["src/b.rs"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1);
    // docs/new.md comes from the side branch as committed there: not the merge's own change.
    assert_eq!(paths(&report), [("src/a.rs".into(), "modified".into(), "undeclared".into())]);
    declare(&repo, &["src/a.rs"]);
    let out = repo.git_command(&["commit", "-q", "--no-edit"]).output().expect("commit");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn an_unstaged_policy_edit_cannot_lift_an_exclusion() {
    let repo = repo_with_base();
    repo.commit(&[(".patchgate.toml", "excluded = [\"secrets/**\"]\n")], "policy");
    declare(&repo, &["**"]);
    // The agent empties the worktree copy but leaves the staged one alone.
    repo.write(".patchgate.toml", "\n");
    repo.write("secrets/key.pem", "k\n");
    repo.git(&["add", "secrets/key.pem"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1, "{report}");
    assert_eq!(report["violations"][0]["reason"], "excluded");
    // Staging the edit changes nothing: the commit is judged under HEAD's policy, and the
    // policy change itself is not declared by its exact path (`**` does not count).
    repo.git(&["add", ".patchgate.toml"]);
    let (exit, report) = hook_json(&repo);
    assert_eq!(exit, 1, "{report}");
    let reasons: Vec<&str> = report["violations"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|v| v["reason"].as_str())
        .collect();
    assert_eq!(reasons, ["policy_change", "excluded"]);
}

#[test]
fn pre_receive_refuses_what_it_cannot_read() {
    let (bare, _client) = server("");
    let unknown = "1234567890abcdef1234567890abcdef12345678";
    let zero = "0".repeat(40);
    let out = run_with_stdin(
        patchgate()
            .args(["--format", "json", "hook", "run", "pre-receive", "--repo"])
            .arg(bare.path()),
        format!("{zero} {unknown} refs/heads/main\n").as_bytes(),
    );
    assert_ne!(code(&out), 0, "an unreadable pushed object must not pass");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("read the pushed object"), "{stderr}");
}

/// A pushed commit whose tree holds a mode git does not know is refused with advice for the
/// pusher, not the pre-commit advice to reset an index the server does not have.
#[test]
fn pre_receive_refuses_a_tree_with_an_unknown_mode_and_says_whose_it_is() {
    use std::io::Write;
    let (bare, _client) = server("");
    let git = |args: &[&str], stdin: &[u8]| {
        let mut child = std::process::Command::new("git")
            .current_dir(bare.path())
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("test setup");
        child.stdin.take().expect("stdin").write_all(stdin).expect("test setup");
        let out = child.wait_with_output().expect("test setup");
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let blob = git(&["hash-object", "-w", "--stdin"], b"x\n");
    let mut tree = b"155470 forged.txt\0".to_vec();
    tree.extend((0..20).map(|i| u8::from_str_radix(&blob[2 * i..2 * i + 2], 16).expect("hex")));
    let tree = git(&["hash-object", "-t", "tree", "-w", "--literally", "--stdin"], &tree);
    let commit = git(&["commit-tree", &tree, "-m", "forged"], b"");
    let zero = "0".repeat(40);
    let out = run_with_stdin(
        patchgate()
            .args(["--format", "json", "hook", "run", "pre-receive", "--repo"])
            .arg(bare.path()),
        format!("{zero} {commit} refs/heads/main\n").as_bytes(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 3, "{stderr}");
    assert!(stderr.contains("mode 155470") && stderr.contains("rewritten"), "{stderr}");
    assert!(!stderr.contains("git reset") && !stderr.contains("the index"), "{stderr}");
}

#[test]
fn a_corrupt_index_is_a_clean_error_never_an_abort() {
    let repo = repo_with_base();
    repo.write("src/a.rs", "changed\n");
    repo.git(&["add", "-A"]);
    let good = std::fs::read(repo.path().join(".git/index")).expect("read index");
    let mut huge_count = good.clone();
    huge_count[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
    let truncated = good[..good.len() / 2].to_vec();
    for (what, bytes) in [("entry count 2^32-1", huge_count), ("truncated", truncated)] {
        std::fs::write(repo.path().join(".git/index"), &bytes).expect("write index");
        for index_file in [None, Some(repo.path().join(".git/index"))] {
            let mut cmd = repo.patchgate();
            cmd.args(["hook", "run", "pre-commit"]);
            if let Some(file) = &index_file {
                cmd.env("GIT_INDEX_FILE", file);
            }
            let out = cmd.output().expect("run patchgate");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(3), "{what}: {:?} {stderr}", out.status);
            assert!(stderr.contains("index") && stderr.lines().count() == 1, "{what}: {stderr}");
        }
    }
}

/// An index entry with a mode git does not know (its checksum right): libgit2's diff passed
/// the mode through and git2 panicked reading it, so a hook run that needed the full diff (an
/// addition and a deletion to pair, to describe a violation) aborted. Found by the index fuzz
/// target.
#[test]
fn an_index_entry_with_an_unknown_mode_is_a_clean_error() {
    let repo = repo_with_base();
    declare(&repo, &["docs/**"]);
    repo.write("docs/x.md", "changed\n");
    std::fs::remove_file(repo.path().join("src/b.rs")).expect("remove");
    repo.write("src/c.rs", "something else\n");
    repo.git(&["add", "-A"]);
    let file = repo.path().join(".git/index");
    let mut index = std::fs::read(&file).expect("read index");
    // The first entry (docs/x.md) starts at byte 12; its mode is at 24 bytes into it.
    index[36..40].copy_from_slice(&0o155_470_u32.to_be_bytes());
    write_index(&file, index);
    let out = run(&repo, &["hook", "run", "pre-commit"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{:?} {stderr}", out.status);
    assert!(stderr.contains("mode 155470") && stderr.contains("git reset"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Write `index` to `file` with its trailing SHA-1 made right (as a forger would).
fn write_index(file: &Path, mut index: Vec<u8>) {
    let body = index.len() - 20;
    std::fs::write(file, &index[..body]).expect("write body");
    let sum = Command::new("sha1sum")
        .stdin(std::fs::File::open(file).expect("index"))
        .output()
        .expect("sha1sum");
    assert!(sum.status.success(), "sha1sum");
    let hex = String::from_utf8_lossy(&sum.stdout);
    let digest: Vec<u8> =
        (0..20).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex")).collect();
    index[body..].copy_from_slice(&digest);
    std::fs::write(file, &index).expect("write index");
}

/// An index whose entries are `HEAD`'s but whose cache tree names another tree (one changing
/// an excluded file): `git diff --cached` shows nothing, yet `git commit` records the cached
/// tree (write-tree trusts a valid cache-tree entry). The hook read the entries and let it
/// through; now it judges the tree git commits. Found by the index fuzz target.
#[test]
fn a_forged_cache_tree_cannot_smuggle_a_change_past_the_hook() {
    let repo = TestRepo::new();
    repo.commit(
        &[(".patchgate.toml", "excluded = [\"secret/**\"]\n"), ("secret/key.txt", "k\n")],
        "base",
    );
    repo.git(&["checkout", "-q", "-b", "other"]);
    repo.commit(&[("secret/key.txt", "leaked\n")], "other");
    let cached = repo.git(&["rev-parse", "other^{tree}"]);
    repo.git(&["checkout", "-q", "-"]);
    let head = repo.git(&["rev-parse", "HEAD^{tree}"]);
    repo.git(&["read-tree", "HEAD"]);
    let hex = |h: &str| -> Vec<u8> {
        let h = h.trim();
        (0..20).map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).expect("hex")).collect()
    };
    let file = repo.path().join(".git/index");
    let mut index = std::fs::read(&file).expect("read index");
    let (from, to) = (hex(&head), hex(&cached));
    let at = index.windows(20).position(|w| w == from.as_slice()).expect("the root's cached id");
    index[at..at + 20].copy_from_slice(&to);
    write_index(&file, index);
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]).trim(), "", "entries are HEAD's");
    let out = run(&repo, &["hook", "run", "pre-commit"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("secret/key.txt"), "{stderr}");
}

/// A declaration file naming `entries` twice: before, the hook read the last list (serde's
/// choice), so a reader that keeps the first (another tool, a person's `jq`) saw a different
/// declaration. Now it is refused like every JSON input, and the commit is blocked.
#[test]
fn a_declaration_naming_a_key_twice_is_refused() {
    let repo = repo_with_base();
    declare(&repo, &["src/a.rs"]);
    let file = repo.path().join(".git/patchgate/declaration.json");
    let entry = |p: &str| format!(r#"[{{"pattern": "{p}", "source": "argument"}}]"#);
    let twice = format!(
        r#"{{"version": 1, "entries": {}, "entries": {}}}"#,
        entry("src/a.rs"),
        entry("src/b.rs")
    );
    std::fs::write(&file, twice).expect("plant");
    repo.write("src/b.rs", "b2\n");
    repo.git(&["add", "-A"]);
    let out = run(&repo, &["--format", "json", "hook", "run", "pre-commit"]);
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("'entries' twice"), "{message}");
    assert!(message.contains("declare --clear"), "says how to fix it: {message}");
}

/// pre-receive read `0 0 refs/heads/main` (and any short hex) as full ids padded with zeros:
/// a line git never sends passed as "nothing to check" (found by the `receive` fuzz target).
/// Every id must now be 40 hex digits, as git writes them.
#[test]
fn pre_receive_refuses_ids_that_are_not_full_hex() {
    let (bare, _client) = server("");
    let full = "1234567890abcdef1234567890abcdef12345678";
    for line in [
        "0 0 refs/heads/main",
        &format!("0 {} refs/heads/main", &full[..7]),
        &format!("{full} {full}x refs/heads/main"),
    ] {
        let out = run_with_stdin(
            patchgate()
                .args(["--format", "json", "hook", "run", "pre-receive", "--repo"])
                .arg(bare.path()),
            format!("{line}\n").as_bytes(),
        );
        assert_eq!(code(&out), 2, "{line}: {}", String::from_utf8_lossy(&out.stdout));
        let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains("is not '<old-oid> <new-oid> <ref>'"), "{line}: {message}");
    }
}
