//! The server side's own policy, with real pushes to a bare repository running the
//! pre-receive hook, and `patchgate ci` on a range: the policy never comes from what is pushed,
//! a push that changes the policy is refused unless the server's policy allows it, and the ref
//! the policy is read from cannot be rewound to another policy.

use crate::hook::{bare_main, patchgate_git};
use crate::support::{TestRepo, code, data, patchgate};
use std::path::Path;

const STRICT: &str = "excluded = [\"secrets/**\"]\n";
const LAX: &str = "excluded = []\n";

/// A bare repository (with `admin` as its own `patchgate.toml`, if given) and a clone to push
/// from; the hook is installed after `before` ran on the clone (pushes it makes are unchecked).
fn server(admin: Option<&str>, before: impl FnOnce(&TestRepo)) -> (tempfile::TempDir, TestRepo) {
    let bare = tempfile::tempdir().expect("bare");
    assert!(patchgate_git(bare.path(), &["init", "-q", "--bare", "-b", "main"]).status.success());
    let client = TestRepo::new();
    client.git(&["remote", "add", "origin", bare.path().to_str().expect("utf-8")]);
    before(&client);
    if let Some(admin) = admin {
        std::fs::write(bare.path().join("patchgate.toml"), admin).expect("admin file");
    }
    let out = patchgate()
        .args(["hook", "install", "--hooks", "pre-receive", "--repo"])
        .arg(bare.path())
        .output()
        .expect("install");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    (bare, client)
}

fn push(client: &TestRepo, args: &[&str]) -> std::process::Output {
    client.git_command(&[&["push", "-q", "origin"], args].concat()).output().expect("push")
}

fn head(repo: &TestRepo) -> String {
    repo.git(&["rev-parse", "HEAD"]).trim().to_owned()
}

/// The strict policy and a source file, pushed before the hook is installed.
fn strict_base(client: &TestRepo) {
    client.commit(&[(".patchgate.toml", STRICT), ("src/a.rs", "a\n")], "base");
    assert!(push(client, &["main"]).status.success());
}

#[test]
fn one_push_cannot_relax_the_policy_for_the_next() {
    let (bare, client) = server(None, strict_base);
    let before = head(&client);
    // Push one: the policy relaxed, declared in the trailer the pusher writes.
    client.commit(&[(".patchgate.toml", LAX)], "relax\n\nPatchgate-Declared: .patchgate.toml");
    let out = push(&client, &["main"]);
    assert!(!out.status.success(), "the relaxing push was accepted");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".patchgate.toml") && stderr.contains("policy"), "{stderr}");
    assert_eq!(bare_main(bare.path()), before);
    // Push two: the secret, on top of the relaxed policy: still the server's policy.
    client.commit(&[("secrets/key.pem", "k\n")], "key\n\nPatchgate-Declared: secrets/key.pem");
    assert!(!push(&client, &["main"]).status.success(), "the secret landed");
    assert_eq!(bare_main(bare.path()), before);
    // On another branch too: a commit that changes the policy is refused wherever it goes.
    assert!(!push(&client, &["HEAD:refs/heads/side"]).status.success());
}

#[test]
fn the_default_branch_cannot_be_rewound_to_a_laxer_policy() {
    let (bare, client) = server(None, |client| {
        client.commit(&[(".patchgate.toml", LAX), ("src/a.rs", "a\n")], "lax");
        client.commit(&[(".patchgate.toml", STRICT)], "strict");
        assert!(push(client, &["main"]).status.success());
    });
    let strict = head(&client);
    // A force push back to the lax commit brings no new commit, and changes the policy.
    let out = push(&client, &["--force", "HEAD~1:main"]);
    assert!(!out.status.success(), "the rewind was accepted");
    assert!(String::from_utf8_lossy(&out.stderr).contains("rewinds"), "{out:?}");
    assert_eq!(bare_main(bare.path()), strict);
}

#[test]
fn the_server_file_says_whether_the_policy_may_change() {
    // `declared`: a commit whose trailers name the policy file by its exact path may change it.
    let (bare, client) = server(Some("[server]\npolicy_change = \"declared\"\n"), strict_base);
    client.commit(&[(".patchgate.toml", LAX)], "relax\n\nPatchgate-Declared: **");
    assert!(!push(&client, &["main"]).status.success(), "'**' is not the policy's path");
    client.git(&["commit", "-q", "--amend", "-m", "relax\n\nPatchgate-Declared: .patchgate.toml"]);
    let out = push(&client, &["main"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(bare_main(bare.path()), head(&client));
    // The server file is the policy itself when it names no ref: the repository's is free.
    let (bare, client) = server(
        Some("excluded = [\"secrets/**\"]\n[server]\npolicy_change = \"allow\"\n"),
        strict_base,
    );
    client.commit(&[(".patchgate.toml", "")], "drop the in-repo policy");
    assert!(push(&client, &["main"]).status.success());
    client.commit(&[("secrets/key.pem", "k\n")], "key");
    assert!(!push(&client, &["main"]).status.success(), "the server file excludes secrets/**");
    assert_ne!(bare_main(bare.path()), head(&client));
}

#[test]
fn a_policy_ref_named_by_the_server_is_the_policy_and_is_protected() {
    let admin = "[server]\npolicy_ref = \"refs/heads/policy\"\n";
    let (bare, client) = server(Some(admin), |client| {
        client.commit(&[("src/a.rs", "a\n")], "base");
        assert!(push(client, &["main"]).status.success());
        client.git(&["checkout", "-q", "--orphan", "policy"]);
        client.git(&["rm", "-q", "-r", "--cached", "."]);
        client.commit(&[(".patchgate.toml", STRICT)], "the policy");
        assert!(push(client, &["policy"]).status.success());
        client.git(&["checkout", "-q", "-f", "main"]);
    });
    client.commit(&[("secrets/key.pem", "k\n")], "key\n\nPatchgate-Declared: secrets/key.pem");
    let out = push(&client, &["main"]);
    assert!(!out.status.success(), "the policy ref's exclusion did not hold");
    // The refused objects were dropped with git's quarantine: fetch them (no ref) to run by hand.
    let fetched = patchgate_git(
        bare.path(),
        &["fetch", "-q", client.path().to_str().expect("utf-8"), "main"],
    );
    assert!(fetched.status.success());
    let report = run_receive(
        bare.path(),
        &format!("{} {} refs/heads/main\n", "0".repeat(40), head(&client)),
    );
    assert_eq!(report.0, 1);
    assert_eq!(report.1["policy"], "refs/heads/policy:.patchgate.toml");
    // The policy ref can be neither deleted nor rewound to another policy.
    let policy_tip = patchgate_git(bare.path(), &["rev-parse", "policy"]);
    let out = push(&client, &[":refs/heads/policy"]);
    assert!(!out.status.success(), "the policy ref was deleted");
    assert_eq!(patchgate_git(bare.path(), &["rev-parse", "policy"]).stdout, policy_tip.stdout);
    // A server file holding a policy beside policy_ref is refused: which one would count?
    std::fs::write(bare.path().join("patchgate.toml"), format!("{admin}{LAX}")).expect("admin");
    let (exit, _) = run_receive(bare.path(), "");
    assert_eq!(exit, 2);
}

/// pre-receive run by hand with `input` on stdin: its exit code and JSON report (or envelope).
fn run_receive(bare: &Path, input: &str) -> (i32, serde_json::Value) {
    let out = crate::support::run_with_stdin(
        patchgate().args(["--format", "json", "hook", "run", "pre-receive", "--repo"]).arg(bare),
        input.as_bytes(),
    );
    let exit = code(&out);
    let value = if exit <= 1 { data(&out) } else { crate::support::json(&out) };
    (exit, value)
}
