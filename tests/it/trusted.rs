//! The trusted points of the policy and the declaration: a declaration taken from an agent's
//! result is literal paths, the commit hook judges a commit under `HEAD`'s policy, `validate`
//! and `apply` read the policy from the base tree, and the policy reader follows no link and
//! quotes no line of the file.

use crate::support::{TestRepo, code, data, json};
use std::process::Output;

fn run(repo: &TestRepo, args: &[&str]) -> Output {
    repo.patchgate().args(args).output().expect("run patchgate")
}

fn pre_commit(repo: &TestRepo) -> (i32, serde_json::Value) {
    let out = run(repo, &["--format", "json", "hook", "run", "pre-commit"]);
    (code(&out), data(&out))
}

/// The `(path, reason)` of each violation of a hook report.
fn blocked(report: &serde_json::Value) -> Vec<(String, String)> {
    let violations = report["violations"].as_array().expect("violations");
    violations
        .iter()
        .map(|v| {
            (v["path"].as_str().expect("path").into(), v["reason"].as_str().expect("reason").into())
        })
        .collect()
}

#[test]
fn paths_declared_from_a_result_are_literal_never_globs() {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "a\n"), ("docs/x.md", "x\n")], "base");
    let names = ["**", "src/*", "[a-z]*", "{docs,src}/**", "app/[slug]/page.tsx"];
    let result = serde_json::json!({"mode": "apply", "success": true, "patch": "",
        "filesWritten": names, "filesTouched": names, "summary": "files with glob names"});
    let file = repo.tmp.path().join("result.json");
    std::fs::write(&file, result.to_string()).expect("result");
    let out = run(&repo, &["declare", "--from-result", file.to_str().expect("utf-8")]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    // Not declared by any of those names read as globs.
    repo.write("docs/x.md", "changed\n");
    repo.write("src/a.rs", "changed\n");
    repo.git(&["add", "-A"]);
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 1, "{report}");
    let undeclared = |p: &str| (p.to_owned(), "undeclared".to_owned());
    assert_eq!(blocked(&report), [undeclared("docs/x.md"), undeclared("src/a.rs")]);
    // The files of those very names are declared.
    repo.git(&["reset", "-q", "--hard"]);
    for name in names {
        repo.write(name, "new\n");
    }
    repo.git(&["add", "-A"]);
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 0, "{report}");
}

const STRICT: &str = "excluded = [\"secret/**\"]\n[hook]\nrequire_declaration = true\n";

fn strict_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(&[(".patchgate.toml", STRICT), ("src/a.rs", "a\n")], "base");
    repo
}

fn declare(repo: &TestRepo, patterns: &[&str]) {
    let out = run(repo, &[&["declare", "--replace"], patterns].concat());
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_commit_is_judged_under_head_s_policy_never_the_one_it_writes() {
    let repo = strict_repo();
    // No declaration: the policy emptied in the index only (`git update-index --cacheinfo`)
    // would lift `require_declaration` and the exclusion for the secret added beside it.
    let empty = repo.git(&["hash-object", "-w", "--stdin"]);
    let entry = format!("100644,{},.patchgate.toml", empty.trim());
    repo.git(&["update-index", "--cacheinfo", &entry]);
    repo.write("secret/key", "hunter2\n");
    repo.git(&["add", "secret/key"]);
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 1, "{report}");
    assert_eq!(report["policy"], "HEAD:.patchgate.toml");
    let want = [(".patchgate.toml", "policy_change"), ("secret/key", "excluded")];
    assert_eq!(blocked(&report), want.map(|(p, r)| (p.to_owned(), r.to_owned())));
    // Declaring everything changes neither.
    declare(&repo, &["**"]);
    assert_eq!(blocked(&pre_commit(&repo).1), want.map(|(p, r)| (p.to_owned(), r.to_owned())));
    assert_eq!(report["violations"][0]["declare"], "patchgate declare '.patchgate.toml'");
    let before = repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(code(&run(&repo, &["hook", "install"])), 0);
    let commit = repo.git_command(&["commit", "-q", "-m", "relax"]).output().expect("git");
    assert!(!commit.status.success(), "the real commit must be blocked");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), before);

    // The same through `git apply --cached`, without the secret: the policy change alone.
    repo.git(&["reset", "-q", "--hard"]);
    let patch = "--- a/.patchgate.toml\n+++ b/.patchgate.toml\n@@ -1,3 +1 @@\n-excluded = [\"secret/**\"]\n-[hook]\n-require_declaration = true\n+excluded = []\n";
    let mut apply = repo.git_command(&["apply", "--cached", "-"]);
    let applied = crate::support::run_with_stdin(&mut apply, patch.as_bytes());
    assert!(applied.status.success(), "{}", String::from_utf8_lossy(&applied.stderr));
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 1, "{report}");
    assert_eq!(blocked(&report), [(".patchgate.toml".to_owned(), "policy_change".to_owned())]);
    // A glob or a directory that covers it is not its exact path.
    for patterns in [&["**"][..], &[".patchgate*"], &["*.toml"]] {
        declare(&repo, patterns);
        assert_eq!(pre_commit(&repo).0, 1, "{patterns:?} declared the policy change");
    }
    // Declared by its exact path, a policy change commits (and then is the policy in force).
    declare(&repo, &[".patchgate.toml"]);
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 0, "{report}");
    let commit =
        repo.git_command(&["commit", "-q", "-m", "relax, declared"]).output().expect("git");
    assert!(commit.status.success(), "{}", String::from_utf8_lossy(&commit.stderr));
}

#[test]
fn the_first_commit_may_add_a_policy_and_is_judged_under_none() {
    let repo = TestRepo::new();
    repo.write(".patchgate.toml", STRICT);
    repo.write("secret/key", "k\n");
    repo.git(&["add", "-A"]);
    let (exit, report) = pre_commit(&repo);
    assert_eq!(exit, 0, "{report}");
    assert_eq!(report["policy"], serde_json::Value::Null);
}

/// A patch adding `secret/key`, which the committed policy excludes.
const SECRET: &str = "diff --git a/secret/key b/secret/key\nnew file mode 100644\n--- /dev/null\n+++ b/secret/key\n@@ -0,0 +1 @@\n+hunter2\n";

#[test]
fn validate_and_apply_read_the_policy_from_the_base_tree() {
    let scene = crate::escape::Scene::new(&[("src/a.rs", "a\n")], "excluded = [\"secret/**\"]\n");
    let root = scene.repo.path();
    let policy = root.join(".patchgate.toml");
    // Removed, a dangling link, a link to a file saying "no exclusions": the worktree's copy
    // is the agent's to write and never the policy.
    std::fs::write(root.join("lax.toml"), "excluded = []\n").expect("lax");
    let worktree_copies: [&dyn Fn(); 3] = [
        &|| {}, // removed: the loop removes it before each case
        &|| std::os::unix::fs::symlink("nowhere.toml", &policy).expect("dangling"),
        &|| std::os::unix::fs::symlink("lax.toml", &policy).expect("link"),
    ];
    for (i, replace) in worktree_copies.iter().enumerate() {
        let _ = std::fs::remove_file(&policy);
        replace();
        for command in ["validate", "apply"] {
            let (s, r) = scene.inputs(SECRET, &["secret/key"]);
            let out = scene
                .repo
                .patchgate()
                .args([command, "--step"])
                .arg(&s)
                .arg("--result")
                .arg(&r)
                .output()
                .expect("run");
            assert_eq!(
                code(&out),
                1,
                "{command}, case {i}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            let reason = json(&out)["reason"].as_str().expect("reason").to_owned();
            assert!(reason.starts_with("scope:") && reason.contains("secret/key"), "{reason}");
        }
        assert!(!root.join("secret").exists(), "case {i}: applied");
    }
}

#[test]
fn a_base_policy_that_is_a_link_or_oversized_is_an_error_never_no_policy() {
    let huge = format!("excluded = [\"secret/**\"]\n#{}\n", "x".repeat(1 << 20));
    for (name, setup) in [("link", "link"), ("oversized", huge.as_str())] {
        let repo = TestRepo::new();
        repo.write("src/a.rs", "a\n");
        repo.write("lax.toml", "excluded = []\n");
        if setup == "link" {
            std::os::unix::fs::symlink("lax.toml", repo.path().join(".patchgate.toml"))
                .expect("ln");
        } else {
            repo.write(".patchgate.toml", setup);
        }
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "base"]);
        let step = repo.tmp.path().join("s.json");
        std::fs::write(&step, r#"{"description": "add a key"}"#).expect("step");
        let result = serde_json::json!({"mode": "apply", "success": true, "patch": SECRET,
            "filesWritten": ["secret/key"], "filesTouched": ["secret/key"], "summary": "key"});
        let result_file = repo.tmp.path().join("r.json");
        std::fs::write(&result_file, result.to_string()).expect("result");
        let out = repo
            .patchgate()
            .args(["--format", "json", "validate", "--step"])
            .arg(&step)
            .arg("--result")
            .arg(&result_file)
            .output()
            .expect("run");
        assert_eq!(code(&out), 3, "{name}: {}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(json(&out)["error"]["code"], "policy_unreadable", "{name}");
    }
}

#[test]
fn the_policy_reader_follows_no_link_and_quotes_no_line() {
    // The guard: the policy swapped for a link to a credentials file outside.
    let repo = crate::guard::project();
    let outside = tempfile::tempdir().expect("outside");
    let credentials = outside.path().join("credentials");
    std::fs::write(&credentials, "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n")
        .expect("credentials");
    let policy = repo.path().join(".patchgate.toml");
    let _ = std::fs::remove_file(&policy);
    std::os::unix::fs::symlink(&credentials, &policy).expect("link");
    let payload = serde_json::json!({"session_id": "s", "cwd": crate::guard::root(&repo),
        "tool_name": "Read", "tool_input": {"file_path": "src/main.rs"}});
    let out = crate::guard::guard(&repo, "generic", &payload.to_string());
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
    let shown =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(shown.contains("GUARD_ERROR") && shown.contains("symbolic link"), "{shown}");
    assert!(!shown.contains("AKIA"), "the guard quoted the linked file: {shown}");

    // validate: a committed policy whose first line is a shadow line.
    let repo = TestRepo::new();
    repo.commit(
        &[(".patchgate.toml", "root:$6$saltsalt$hashhash:19000:0:99999:7:::\n"), ("a", "a\n")],
        "base",
    );
    let step = repo.tmp.path().join("s.json");
    std::fs::write(&step, r#"{"description": "d"}"#).expect("step");
    let result = repo.tmp.path().join("r.json");
    std::fs::write(&result, r#"{"mode":"apply","success":false,"summary":"no"}"#).expect("result");
    let out = run(
        &repo,
        &[
            "--format",
            "json",
            "validate",
            "--step",
            step.to_str().expect("utf-8"),
            "--result",
            result.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
    let message = json(&out)["error"]["message"].as_str().expect("message").to_owned();
    assert!(message.contains("line 1, column"), "{message}");
    for piece in ["root:", "saltsalt", "hashhash"] {
        assert!(!message.contains(piece), "validate quoted the policy: {message}");
    }
}
