//! The contract commands through the real binary: `check-arg`, `paths`, `contract
//! executor-output`, `contract agent`, `escape-md`.

mod cases;

use crate::support::{TestRepo, code, data, json, patchgate};
use serde_json::{Value, json};

fn check_arg(args: &[&str]) -> (i32, Value) {
    let out = patchgate().arg("check-arg").args(args).output().expect("run patchgate");
    (code(&out), json(&out))
}

fn assert_rejected(args: &[&str], value: &str, pattern: &str) {
    let (exit, v) = check_arg(args);
    assert_eq!(exit, 2, "{args:?}: {v}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["data"], Value::Null);
    assert_eq!(v["error"]["code"], "INVALID_AGENT_INPUT");
    assert_eq!(v["error"]["input_value"], value);
    assert_eq!(v["error"]["rejected_pattern"], pattern, "{args:?}");
    assert_eq!(v["warnings"], json!([]));
    assert_eq!(v["meta"]["command"], "check-arg");
    let keys: Vec<&String> = v["error"].as_object().expect("error is an object").keys().collect();
    assert_eq!(keys, ["code", "message", "input_value", "rejected_pattern"]);
}

fn assert_passes(args: &[&str], value: &str) -> Value {
    let (exit, v) = check_arg(args);
    assert_eq!(exit, 0, "{args:?}: {v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["data"]["value"], value, "the value passes unchanged");
    assert_eq!(v["error"], Value::Null);
    v
}

// Seed 003's acceptance criteria, by name.

#[test]
fn resource_id_with_dot_dot_slash_rejected_exit_2() {
    assert_rejected(&["--type", "resource_id", "../etc/passwd"], "../etc/passwd", "path_traversal");
}

#[test]
fn argument_with_percent_2e_2e_rejected_exit_2() {
    for ty in ["path", "resource_id", "identifier"] {
        assert_rejected(
            &["--type", ty, "%2e%2e/etc/passwd"],
            "%2e%2e/etc/passwd",
            "path_traversal",
        );
        assert_rejected(&["--type", ty, "%2e%2e"], "%2e%2e", "path_traversal");
    }
}

#[test]
fn query_parameter_rejected_exit_2() {
    assert_rejected(
        &["--type", "resource_id", "usr-a1b2c3?foo=bar"],
        "usr-a1b2c3?foo=bar",
        "query_parameter",
    );
    assert_rejected(&["--type", "identifier", "?foo=bar"], "?foo=bar", "query_parameter");
    assert_rejected(&["--type", "path", "src/a.rs?foo=bar"], "src/a.rs?foo=bar", "query_parameter");
}

#[test]
fn valid_absolute_path_passes_unchanged() {
    assert_passes(&["--type", "path", "/home/user/file.txt"], "/home/user/file.txt");
}

// Seed 003's wire examples (exit 2, not the example's 3: design.md).

#[test]
fn percent_encoded_separator_in_resource_id_rejected_exit_2() {
    assert_rejected(
        &["--type", "resource_id", "files%2fetc%2fpasswd"],
        "files%2fetc%2fpasswd",
        "percent_encoded_separator",
    );
}

#[test]
fn valid_resource_id_passes_unchanged() {
    assert_passes(&["--type", "resource_id", "usr-a1b2c3"], "usr-a1b2c3");
}

#[test]
fn fragment_and_encoded_metacharacters_rejected_exit_2() {
    assert_rejected(&["--type", "resource_id", "usr-1#x"], "usr-1#x", "fragment");
    assert_rejected(
        &["--type", "resource_id", "usr%40corp"],
        "usr%40corp",
        "percent_encoded_segment",
    );
    assert_rejected(
        &["--type", "identifier", "a%3brm%20-rf"],
        "a%3brm%20-rf",
        "encoded_shell_metacharacter",
    );
    assert_rejected(
        &["--type", "path", "%252e%252e%252fetc"],
        "%252e%252e%252fetc",
        "double_encoding",
    );
    assert_rejected(&["--type", "path", "%c0%ae%c0%ae/etc"], "%c0%ae%c0%ae/etc", "overlong_utf8");
    assert_rejected(
        &["--type", "path", "..\\..\\windows"],
        "..\\..\\windows",
        "backslash_traversal",
    );
    assert_rejected(
        &["--type", "path", "\u{ff0e}\u{ff0e}/etc"],
        "\u{ff0e}\u{ff0e}/etc",
        "fullwidth_separator",
    );
    assert_rejected(&["--type", "path", "a\u{1b}b"], "a\u{1b}b", "control_character");
}

// Seed 004's types.

#[test]
fn ticket_id_kind_is_reported_and_checked() {
    let v = assert_passes(&["--type", "ticket_id", "STORY-0001.2.3"], "STORY-0001.2.3");
    assert_eq!(v["data"]["kind"], "story");
    assert_passes(
        &["--type", "ticket_id", "--expect-kind", "task", "TASK-0001.2.3.4"],
        "TASK-0001.2.3.4",
    );
    assert_rejected(
        &["--type", "ticket_id", "--expect-kind", "story", "TASK-0001.2.3.4"],
        "TASK-0001.2.3.4",
        "ticket_kind_mismatch",
    );
    assert_rejected(&["--type", "ticket_id", "STORY-1"], "STORY-1", "invalid_ticket_id");
}

#[test]
fn branch_follows_seed_and_git() {
    assert_passes(&["--type", "branch", "plan/STORY-0001.2.3"], "plan/STORY-0001.2.3");
    assert_rejected(&["--type", "branch", "feature/../x"], "feature/../x", "path_traversal");
    assert_rejected(&["--type", "branch", "-D"], "-D", "git_ref_leading_dash");
    assert_rejected(
        &["--type", "branch", "feature/x.lock"],
        "feature/x.lock",
        "git_ref_lock_suffix",
    );
}

#[test]
fn operation_is_checked_against_the_agent() {
    assert_passes(
        &["--type", "operation", "--agent", "ticket-analyzer", "story-deep"],
        "story-deep",
    );
    assert_rejected(
        &["--type", "operation", "--agent", "ticket-analyzer", "full-survey"],
        "full-survey",
        "unknown_operation",
    );
    assert_rejected(
        &["--type", "operation", "--agent", "nobody", "story-deep"],
        "story-deep",
        "unknown_agent",
    );
}

#[test]
fn path_with_allowed_dirs_matches_components() {
    assert_passes(
        &["--type", "path", "--allow-dir", "src/", "--allow-dir", "tests", "tests/a.rs"],
        "tests/a.rs",
    );
    assert_rejected(
        &["--type", "path", "--allow-dir", "src", "srcfoo/a.rs"],
        "srcfoo/a.rs",
        "outside_allowed_dirs",
    );
    assert_rejected(
        &["--type", "path", "--allow-dir", "src", "/etc/passwd"],
        "/etc/passwd",
        "absolute_path",
    );
}

#[test]
fn misplaced_options_are_usage_errors() {
    for args in [
        &["--type", "path", "--agent", "x", "a"][..],
        &["--type", "branch", "--expect-kind", "story", "a"],
        &["--type", "ticket_id", "--expect-kind", "saga", "STORY-0001.2.3"],
        &["--type", "path", "--allow-dir", "../up", "a"],
        &["--type", "nonsense", "a"],
    ] {
        let out =
            patchgate().arg("check-arg").args(args).args(["--format", "json"]).output().unwrap();
        assert_eq!(code(&out), 2, "{args:?}");
        if out.stdout.is_empty() {
            continue; // clap's own usage errors print no envelope
        }
        assert_eq!(json(&out)["error"]["code"], "usage", "{args:?}");
    }
}

#[test]
fn contract_table_of_the_repository_is_used() {
    let repo = TestRepo::new();
    repo.write(
        ".patchgate.toml",
        "[contract]\nbranch_patterns = []\nallowed_dirs = [\"docs\"]\n\n[contract.ticket_patterns]\njira = '[A-Z]+-[0-9]+'\n",
    );
    let run = |args: &[&str]| code(&repo.patchgate().arg("check-arg").args(args).output().unwrap());
    assert_eq!(run(&["--type", "branch", "main"]), 0);
    assert_eq!(run(&["--type", "ticket_id", "PG-7"]), 0);
    assert_eq!(run(&["--type", "ticket_id", "STORY-0001.2.3"]), 2);
    assert_eq!(run(&["--type", "path", "docs/a.md"]), 0);
    assert_eq!(run(&["--type", "path", "src/a.rs"]), 2);
    repo.write(".patchgate.toml", "[contract]\nbranch_patterns = ['(']\n");
    assert_eq!(run(&["--type", "branch", "main"]), 2, "an invalid policy is refused");
}

/// Every name patchgate's git rules accept, git accepts, and the other way round
/// (`git check-ref-format --branch` is the oracle). `@` and `@{...}` are left out: `--branch`
/// expands them (to the current branch, a reflog entry) before checking, so git's answer there
/// is about another name; the unit tests cover them.
#[test]
fn branch_rules_agree_with_git_check_ref_format() {
    let repo = TestRepo::new();
    repo.write(".patchgate.toml", "[contract]\nbranch_patterns = []\n");
    let names = [
        "main",
        "feature/x",
        "a.b",
        "a..b",
        "/a",
        "a/",
        "a//b",
        "a.lock",
        "a/b.lock/c",
        ".a",
        "a/.b",
        "a.",
        "-a",
        "a b",
        "a~b",
        "a^b",
        "a:b",
        "a?b",
        "a*b",
        "a[b",
        "a\\b",
        "HEAD",
        "a@b",
        "x\u{7f}",
        "ünï/cødé",
        "a/-b",
        "a.lock.b",
    ];
    for name in names {
        let git = repo.git_command(&["check-ref-format", "--branch", name]).output().unwrap();
        let ours = repo.patchgate().args(["check-arg", "--type", "branch", name]).output().unwrap();
        assert_eq!(
            code(&ours) == 0,
            git.status.success(),
            "{name:?}: patchgate {} vs git",
            code(&ours)
        );
    }
}

// `patchgate paths` (seed 000's validateFilePaths).

#[test]
fn paths_keeps_real_files_and_names_each_filter_reason() {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "x\n")], "init");
    let out = repo
        .patchgate()
        .args([
            "paths",
            "./src/a.rs",
            "/etc/passwd",
            "~/x",
            "../y",
            "src/ghost.rs",
            ".git/config",
            "src%2fa.rs",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let v = data(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["kept"], json!(["src/a.rs"]));
    let codes: Vec<&str> =
        v["filtered"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        ["absolute_path", "home_dir", "path_traversal", "not_found", "git_dir", "percent_encoded"]
    );
    assert_eq!(v["filtered"][0]["path"], "/etc/passwd");
}

#[test]
fn paths_all_kept_exits_0_and_root_is_explicit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "").unwrap();
    let out = patchgate().args(["paths", "--root"]).arg(dir.path()).arg("a.txt").output().unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out), json!({"ok": true, "kept": ["a.txt"], "filtered": []}));
    let out = patchgate().args(["paths", "--root", "/nonexistent/root", "a.txt"]).output().unwrap();
    assert_eq!(code(&out), 2, "a missing root is a usage error");
}

// `contract` invocation errors.

#[test]
fn contract_invocation_errors_exit_2() {
    let out = patchgate().args(["contract", "agent", "reply.json"]).output().unwrap();
    assert_eq!(code(&out), 2, "--agent is required");
    let out = patchgate()
        .args(["--format", "json", "contract", "executor-output", "/nonexistent/reply.txt"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["error"]["code"], "unreadable_input");
}

#[test]
fn executor_output_reads_stdin_and_defaults_root_to_the_repository() {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "x\n")], "init");
    std::fs::create_dir_all(repo.path().join("sub")).unwrap();
    let reply = "```json\n{\"status\": \"completed\", \"files_created\": [], \"files_updated\": [\"src/a.rs\"], \"changes\": [], \"neededChanges\": true, \"summary\": \"Done.\"}\n```\n";
    let mut cmd = repo.patchgate();
    cmd.current_dir(repo.path().join("sub")).args(["contract", "executor-output", "-"]);
    let out = crate::support::run_with_stdin(&mut cmd, reply.as_bytes());
    assert_eq!(code(&out), 0);
    let v = data(&out);
    assert_eq!(
        v["reply"]["files_updated"],
        json!(["src/a.rs"]),
        "resolved from the repository root, not cwd"
    );
    assert_eq!(v["filtered_count"], json!({"files_created": 0, "files_updated": 0, "changes": 0}));
}

#[test]
fn agent_operations_come_from_the_contract_table() {
    let repo = TestRepo::new();
    repo.write(".patchgate.toml", "[contract.operations]\nmy-agent = [\"scan\"]\n");
    let reply = json!({"status": "success", "agent": "my-agent", "version": "2.1", "operation": "scan", "result": {}, "metadata": {"execution_time_ms": 3}});
    let run = |reply: &Value| {
        let mut cmd = repo.patchgate();
        cmd.args(["contract", "agent", "--agent", "my-agent", "-"]);
        crate::support::run_with_stdin(&mut cmd, reply.to_string().as_bytes())
    };
    assert_eq!(code(&run(&reply)), 0);
    let mut other = reply.clone();
    other["operation"] = json!("story-deep");
    let out = run(&other);
    assert_eq!(code(&out), 1);
    assert_eq!(data(&out)["violations"][0]["code"], "unknown_operation");
}

// `escape-md`.

#[test]
fn escape_md_escapes_the_seed_characters() {
    let out = patchgate().args(["escape-md", r"a_b *c* [d](e) #1 C:\x"]).output().unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), r"a\_b \*c\* \[d\]\(e\) \#1 C:\\x");
}

#[test]
fn escape_md_sanitize_cleans_and_limits() {
    let mut cmd = patchgate();
    cmd.args(["--format", "json", "escape-md", "--sanitize", "-"]);
    let out = crate::support::run_with_stdin(&mut cmd, b"a\r\nb\0_c");
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out)["data"]["value"], "a\nb\\_c");
    let mut cmd = patchgate();
    cmd.args(["--format", "json", "escape-md", "--sanitize", "-"]);
    let out = crate::support::run_with_stdin(&mut cmd, b"\x1b]0;pwned\x07ok\x1b[2J\tend");
    assert_eq!(code(&out), 0);
    let value = json(&out)["data"]["value"].as_str().unwrap_or_default().to_owned();
    assert!(!value.contains(['\u{1b}', '\u{7}']), "ESC and BEL are stripped: {value:?}");
    assert!(value.contains('\t'), "a TAB stays: {value:?}");
    let out = patchgate()
        .args(["--format", "json", "escape-md", "--sanitize", "--max-length", "3", "abcd"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["error"]["code"], "content_too_long");
}
