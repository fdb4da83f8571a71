//! `patchgate repair` through the real binary: the fixture cases in `fixtures/repair/`, and the
//! command's outputs (stdout, `--output`, stderr, exit codes).
//!
//! A case is a folder with `patch.diff` (the agent's patch), `setup.sh` (run in a fresh
//! repository, then everything is committed; without it the case runs outside any repository
//! and its `args.txt` says `--no-repo`), optional `args.txt` (one argument per line), and the
//! expectations: `expected.json` (`{"exit", "repairs", "refusals", "proof"}`: repair kinds and
//! refusal codes in order) and, when repaired, `repaired.diff`. Run with `PATCHGATE_BLESS=1` to
//! rewrite the expectations. Two oracles hold for every repaired case: `git apply --check`
//! accepts the repaired patch in the case's repository, and its `+`/`-` lines are the agent's.

use crate::support::{Case, TestRepo, code, data, json, patchgate, read};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

fn cases() -> Vec<Case> {
    crate::support::cases("repair", "patch.diff")
}

/// The case's repository, when it has a `setup.sh`.
fn setup(case_dir: &Path) -> Option<TestRepo> {
    case_dir.join("setup.sh").exists().then(|| crate::support::setup_case(case_dir))
}

/// The `+`/`-` body lines of a patch (file headers left out), inside its markdown fence when
/// it has one.
fn changed_lines(patch: &str) -> Vec<&str> {
    let is_header = |l: &str| {
        ["--- a/", "+++ b/", "--- /dev/null", "+++ /dev/null"].iter().any(|p| l.starts_with(p))
    };
    let lines: Vec<&str> = patch.lines().collect();
    let fences: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("```")).collect();
    let inside = match fences[..] {
        [open, close, ..] => &lines[open + 1..close],
        _ => &lines[..],
    };
    inside
        .iter()
        .copied()
        .filter(|l| (l.starts_with('+') || l.starts_with('-')) && !is_header(l))
        .collect()
}

fn run_case(case: &Case, repo: Option<&TestRepo>) -> Output {
    let args: Vec<String> =
        read(&case.dir, "args.txt").unwrap_or_default().lines().map(str::to_owned).collect();
    let outside = tempfile::tempdir().expect("test fixture io");
    let mut cmd = if let Some(repo) = repo {
        repo.patchgate()
    } else {
        let mut cmd = patchgate();
        cmd.current_dir(outside.path());
        cmd
    };

    cmd.args(["repair", "--format", "json"])
        .arg(case.dir.join("patch.diff"))
        .args(&args)
        .output()
        .expect("test fixture io")
}

/// The oracles for a repaired case; `None` when they hold.
fn oracle_failure(case: &Case, repo: Option<&TestRepo>, repaired: &str) -> Option<String> {
    let agent = read(&case.dir, "patch.diff").expect("test fixture io");
    if changed_lines(repaired) != changed_lines(&agent) {
        return Some(format!("{}: the repaired +/- lines are not the agent's", case.name));
    }
    let repo = repo?;
    let mut git = repo.git_command(&["apply", "--check", "-"]);
    let checked = crate::support::run_with_stdin(&mut git, repaired.as_bytes());
    (!checked.status.success()).then(|| {
        format!(
            "{}: repaired, but git apply --check refuses it: {}",
            case.name,
            String::from_utf8_lossy(&checked.stderr)
        )
    })
}

fn summary(out: &Output) -> Value {
    let report = data(out);
    let list = |key: &str, field: &str| -> Value {
        report[key].as_array().map_or(Value::Null, |items| {
            items.iter().map(|item| item[field].clone()).collect::<Vec<Value>>().into()
        })
    };
    let proof = &report["proof"];
    json!({
        "exit": code(out),
        "repairs": list("repairs", "kind"),
        "refusals": list("refusals", "code"),
        "proof": proof.is_object().then(|| json!({
            "parses": proof["parses"],
            "applies": proof["applies"],
            "lines_compared": proof["lines_compared"],
        })),
    })
}

#[test]
fn fixture_cases_give_their_repairs_refusals_and_patch() {
    let bless = std::env::var_os("PATCHGATE_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let repo = setup(&case.dir);
        let out = run_case(&case, repo.as_ref());
        let actual = summary(&out);
        let repaired = data(&out)["patch"].as_str().map(str::to_owned);
        if let Some(failure) =
            repaired.as_deref().and_then(|r| oracle_failure(&case, repo.as_ref(), r))
        {
            failures.push(failure);
        }
        let (expected_path, patch_path) =
            (case.dir.join("expected.json"), case.dir.join("repaired.diff"));
        if bless {
            let text = serde_json::to_string_pretty(&actual).expect("test fixture io") + "\n";
            std::fs::write(&expected_path, text).expect("test fixture io");
            match &repaired {
                Some(patch) => std::fs::write(&patch_path, patch).expect("test fixture io"),
                None => drop(std::fs::remove_file(&patch_path)),
            }
            continue;
        }
        let expected: Value =
            serde_json::from_str(&read(&case.dir, "expected.json").unwrap_or_default())
                .unwrap_or(Value::Null);
        if expected != actual || repaired != read(&case.dir, "repaired.diff") {
            failures.push(format!(
                "{}:\n  expected {expected}\n  actual   {actual}\n  stdout {}\n  stderr {}",
                case.name,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{} case(s) differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_repair_and_refusal_has_a_fixture() {
    let mut repairs = std::collections::BTreeSet::new();
    let mut refusals = std::collections::BTreeSet::new();
    for case in cases() {
        let expected: Value =
            serde_json::from_str(&read(&case.dir, "expected.json").expect("expected.json"))
                .expect("json");
        for kind in expected["repairs"].as_array().into_iter().flatten() {
            repairs.insert(kind.as_str().expect("a kind").to_owned());
        }
        for code in expected["refusals"].as_array().into_iter().flatten() {
            refusals.insert(code.as_str().expect("a code").to_owned());
        }
    }
    for kind in [
        "recount",
        "relocate",
        "blank_context",
        "unfence",
        "git_header",
        "trailing_blank_lines",
        "final_newline",
    ] {
        assert!(repairs.contains(kind), "no fixture repairs with {kind}");
    }
    for code in [
        "hunk_too_short",
        "ambiguous_location",
        "context_mismatch",
        "garbage",
        "missing_final_newline",
    ] {
        assert!(refusals.contains(code), "no fixture refuses with {code}");
    }
}

#[test]
fn text_output_is_the_patch_on_stdout_and_the_repairs_on_stderr() {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "one\n")], "base");
    let agent = "```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n+1\n```\n";
    let fixed = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n-one\n+ONE\n+1\n";
    let mut cmd = repo.patchgate();
    let out = crate::support::run_with_stdin(cmd.arg("repair"), agent.as_bytes());
    assert_eq!(code(&out), 0);
    assert_eq!(String::from_utf8_lossy(&out.stdout), fixed);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kinds: Vec<&str> =
        stderr.lines().filter_map(|l| l.split("repair[").nth(1)?.split(']').next()).collect();
    assert_eq!(kinds, ["recount", "unfence", "unfence"], "{stderr}");
}

#[test]
fn output_file_is_written_only_for_a_proven_repair() {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "one\n")], "base");
    let dir = tempfile::tempdir().expect("tempdir");
    let (good, bad, target) =
        (dir.path().join("good.diff"), dir.path().join("bad.diff"), dir.path().join("out.diff"));
    std::fs::write(&good, "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n+1\n")
        .expect("write");
    std::fs::write(&bad, "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-uno\n+ONE\n+1\n").expect("write");
    let out = repo
        .patchgate()
        .arg("repair")
        .arg(&bad)
        .arg("--output")
        .arg(&target)
        .output()
        .expect("run");
    assert_eq!(code(&out), 1, "context that is not in the base is refused");
    assert!(out.stdout.is_empty() && !target.exists());
    let out = repo
        .patchgate()
        .arg("repair")
        .arg(&good)
        .arg("--output")
        .arg(&target)
        .output()
        .expect("run");
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty(), "the patch went to the file");
    assert!(std::fs::read_to_string(&target).expect("written").contains("@@ -1 +1,2 @@"));
}

#[test]
fn outside_a_repository_repair_says_so_unless_told_no_repo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n+1\n";
    let mut cmd = patchgate();
    cmd.current_dir(dir.path()).arg("repair");
    let out = crate::support::run_with_stdin(&mut cmd, patch.as_bytes());
    assert_eq!(code(&out), 3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-repo"));
    let mut cmd = patchgate();
    cmd.current_dir(dir.path()).args(["repair", "--no-repo", "--format", "json"]);
    let out = crate::support::run_with_stdin(&mut cmd, patch.as_bytes());
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out)["proof"]["applies"], Value::Null);
    let out =
        patchgate().args(["repair", "/nonexistent/patch.diff", "--no-repo"]).output().expect("run");
    assert_eq!(code(&out), 2, "an unreadable patch is refused input");
}

#[test]
fn a_bad_base_is_refused_input() {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "one\n")], "base");
    let mut cmd = repo.patchgate();
    cmd.args(["repair", "--base", "no-such-rev"]);
    let out = crate::support::run_with_stdin(
        &mut cmd,
        b"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n",
    );
    assert_eq!(code(&out), 2);
}

// ---- validate --repair and apply --repair ----

/// A repository with `a.txt` and the step and result files for a patch of it (outside it).
fn step_and_result(patch: &str) -> (TestRepo, tempfile::TempDir) {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "one\ntwo\nthree\nfour\nfive\n")], "base");
    let io = tempfile::tempdir().expect("tempdir");
    let step = json!({"description": "In a.txt change two to 2 and add 2.5", "mode": "apply"});
    let result = json!({"mode": "apply", "success": true, "patch": patch,
        "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "changed a.txt"});
    std::fs::write(io.path().join("step.json"), step.to_string()).expect("write");
    std::fs::write(io.path().join("result.json"), result.to_string()).expect("write");
    (repo, io)
}

/// The agent's patch: right lines, counts too small, inside a fence.
const MISCOUNTED: &str = "```diff\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n+2.5\n three\n```\n";

fn run_io(repo: &TestRepo, io: &Path, command: &str, extra: &[&str]) -> Output {
    let mut cmd = repo.patchgate();
    cmd.arg(command);
    if command == "validate" {
        cmd.arg("--no-record");
    }
    cmd.arg("--step")
        .arg(io.join("step.json"))
        .arg("--result")
        .arg(io.join("result.json"))
        .args(extra)
        .output()
        .expect("run")
}

#[test]
fn validate_repair_accepts_after_repair_and_names_the_repairs() {
    let (repo, io) = step_and_result(MISCOUNTED);
    let plain = run_io(&repo, io.path(), "validate", &[]);
    assert_eq!(code(&plain), 1, "without --repair the fence and counts are defects");
    let out_file = io.path().join("repaired.json");
    let report = io.path().join("report.json");
    let args = ["--repair", "--repaired-out", out_file.to_str().expect("utf-8"), "--report"];
    let out = run_io(
        &repo,
        io.path(),
        "validate",
        &[&args[..], &[report.to_str().expect("utf-8")]].concat(),
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    let reason = json(&out)["reason"].as_str().expect("reason").to_owned();
    assert!(reason.starts_with("accepted after repair: recounted 1 hunk of a.txt"), "{reason}");
    let repaired: Value =
        serde_json::from_slice(&std::fs::read(&out_file).expect("written")).expect("json");
    let patch = repaired["patch"].as_str().expect("patch");
    assert!(patch.starts_with("diff --git") && patch.contains("@@ -1,3 +1,4 @@"), "{patch}");
    assert_eq!(repaired["summary"], "changed a.txt", "the rest of the result is kept");
    let notes: Vec<Value> = serde_json::from_slice::<Value>(
        &std::fs::read(&report).expect("report"),
    )
    .expect("json")["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n["code"].clone())
        .collect();
    assert!(
        notes.contains(&json!("repaired_recount")) && notes.contains(&json!("repaired_unfence"))
    );
}

#[test]
fn validate_repair_keeps_the_usual_defect_when_the_repair_is_refused() {
    // The header promises three added-side lines more than the body has.
    let (repo, io) = step_and_result(&MISCOUNTED.replace("+1,3 @@", "+1,7 @@"));
    let out = run_io(&repo, io.path(), "validate", &["--repair"]);
    assert_eq!(code(&out), 1);
    let reason = json(&out)["reason"].as_str().expect("reason").to_owned();
    assert!(reason.starts_with("malformed:"), "{reason}");
}

#[test]
fn apply_repair_writes_the_repaired_patch() {
    let (repo, io) = step_and_result(MISCOUNTED);
    let out = run_io(&repo, io.path(), "apply", &["--repair"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    let reason = json(&out)["reason"].as_str().expect("reason").to_owned();
    assert!(reason.starts_with("accepted after repair: "), "{reason}");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.txt")).expect("read"),
        "one\n2\n2.5\nthree\nfour\nfive\n"
    );
}
