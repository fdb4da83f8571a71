//! `[limits]` through the real binary: each over-limit input is refused with a reason that
//! names the setting, before the costly work, and raising the setting lets it through.

use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};
use std::process::Output;

const TWO_FILES: &str = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n\
diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n";

/// A repository holding `a.txt`, `b.txt` and the policy `toml`.
fn repo_with(toml: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "a\n"), ("b.txt", "b\n"), (".patchgate.toml", toml)], "init");
    repo
}

/// `validate` of `step` and a result carrying `patch`; the full report is returned as well.
fn validate(repo: &TestRepo, step: &Value, patch: &str) -> (Output, Value) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (step_file, result_file, report) =
        (dir.path().join("s.json"), dir.path().join("r.json"), dir.path().join("report.json"));
    std::fs::write(&step_file, step.to_string()).expect("write step");
    let result = json!({
        "mode": "apply", "success": true, "summary": "edit", "patch": patch,
        "filesWritten": ["a.txt", "b.txt"], "filesTouched": ["a.txt", "b.txt"],
    });
    std::fs::write(&result_file, result.to_string()).expect("write result");
    let out = repo
        .patchgate()
        .arg("validate")
        .args(["--step".as_ref(), step_file.as_os_str()])
        .args(["--result".as_ref(), result_file.as_os_str()])
        .args(["--report".as_ref(), report.as_os_str()])
        .output()
        .expect("run patchgate");
    let report = std::fs::read(&report)
        .map_or(Value::Null, |b| serde_json::from_slice(&b).expect("report is JSON"));
    (out, report)
}

fn codes(report: &Value) -> Vec<String> {
    let list = report["violations"].as_array().cloned().unwrap_or_default();
    list.iter().map(|v| v["code"].as_str().expect("code is a string").to_owned()).collect()
}

fn step() -> Value {
    json!({"description": "Edit a.txt and b.txt", "allowedFiles": ["a.txt", "b.txt"]})
}

#[test]
fn a_huge_step_glob_is_refused_before_compiling() {
    let repo = repo_with("");
    let huge = json!({"description": "Edit a.txt", "allowedFiles": ["a".repeat(65_536)]});
    let (out, _) = validate(&repo, &huge, TWO_FILES);
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[limits] pattern_bytes") && stderr.contains("65536"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn too_many_files_is_a_malformed_limit_violation_until_raised() {
    let (out, report) = validate(&repo_with("[limits]\nfiles = 1\n"), &step(), TWO_FILES);
    assert_eq!(code(&out), 1);
    assert_eq!(codes(&report), ["limit_exceeded"]);
    assert_eq!(report["violations"][0]["rule"], "malformed");
    assert!(json(&out)["reason"].as_str().unwrap().contains("[limits] files"), "{report}");
    let (out, report) = validate(&repo_with("[limits]\nfiles = 2\n"), &step(), TWO_FILES);
    assert_eq!(code(&out), 0, "{report}");
}

#[test]
fn long_lines_hunks_and_deep_paths_are_refused() {
    let long_line = TWO_FILES.replace("+A", &format!("+{}", "A".repeat(100)));
    for (toml, patch, setting) in [
        ("[limits]\nline_bytes = 50\n", long_line.as_str(), "line_bytes"),
        ("[limits]\npatch_bytes = 100\n", TWO_FILES, "patch_bytes"),
        ("[limits]\npath_bytes = 4\n", TWO_FILES, "path_bytes"),
        ("[limits]\npath_depth = 1\n", &TWO_FILES.replace("b/b.txt", "b/d/b.txt"), "path_depth"),
        ("[limits]\nhunks_per_file = 0\n", TWO_FILES, "hunks_per_file"),
    ] {
        let (out, report) = validate(&repo_with(toml), &step(), patch);
        assert_eq!(code(&out), 1, "{setting}: {report}");
        assert_eq!(codes(&report), ["limit_exceeded"], "{setting}");
        let message = report["violations"][0]["message"].as_str().unwrap();
        assert!(message.contains(&format!("[limits] {setting}")), "{message}");
    }
}

#[test]
fn a_misspelt_limit_and_an_over_long_excluded_list_refuse_the_policy() {
    for toml in ["[limits]\nfile = 3\n", "excluded = [\"a\", \"b\"]\n[limits]\npatterns = 1\n"] {
        let (out, _) = validate(&repo_with(toml), &step(), TWO_FILES);
        assert_eq!(code(&out), 2, "{toml}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn declare_and_the_hook_apply_the_pattern_limits() {
    let repo = repo_with("");
    let long = "a/".repeat(600) + "x";
    let out = repo.patchgate().args(["declare", &long]).output().expect("run");
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[limits] pattern_bytes"));
    // A declaration made under a looser policy is checked again when the hook compiles it.
    let out = repo.patchgate().args(["declare", "a.txt", "b.txt"]).output().expect("run");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    repo.commit(&[(".patchgate.toml", "[limits]\npatterns = 1\n")], "stricter limits");
    repo.write("a.txt", "A\n");
    repo.git(&["add", "-A"]);
    let out = repo.patchgate().args(["hook", "run", "pre-commit"]).output().expect("run");
    assert_ne!(code(&out), 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("[limits] patterns"), "{out:?}");
}

/// A declaration of 100 globs of 1,000 bytes each fits the per-pattern limits, but compiling
/// it took over 100 MB and then failed inside globset ("error building NFA"). The
/// total of the globs is bounded now, and plain paths (looked up, never compiled) do not count:
/// 1,000 plain paths of 1,000 bytes pass.
#[test]
fn the_declared_globs_total_is_bounded_and_plain_paths_are_not_compiled() {
    let repo = repo_with("");
    let file = repo.path().join(".git/patchgate/declaration.json");
    let declare_all = |patterns: Vec<String>| {
        let entries: Vec<Value> =
            patterns.iter().map(|p| json!({"pattern": p, "source": "argument"})).collect();
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, json!({"version": 1, "entries": entries}).to_string()).unwrap();
    };
    repo.write("a.txt", "A\n");
    repo.git(&["add", "-A"]);
    let hook = || repo.patchgate().args(["hook", "run", "pre-commit"]).output().expect("run");

    let globs = (0..100).map(|i| format!("d{i:03}/**/{}", "*a?".repeat(330))).collect();
    declare_all(globs);
    let out = hook();
    // As for the other pattern limits on a stored declaration: the hook cannot judge (exit 3).
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[limits] glob_bytes"), "{out:?}");

    let mut plain: Vec<String> = (0..999).map(|i| format!("d{i:03}/{}", "x".repeat(990))).collect();
    plain.push("a.txt".into());
    declare_all(plain);
    let out = hook();
    assert_eq!(code(&out), 0, "a.txt is declared: {}", String::from_utf8_lossy(&out.stderr));
    repo.write("b.txt", "B\n");
    repo.git(&["add", "-A"]);
    assert_eq!(code(&hook()), 1, "b.txt is not declared");
}

/// The TOML reader quotes the offending line: a policy whose one line is nearly a megabyte
/// gave an error of nearly a megabyte. No line of the policy is quoted now.
#[test]
fn a_policy_error_quotes_no_piece_of_a_huge_line() {
    let repo = repo_with(&format!("excluded = [\"{}\"", "a".repeat(900_000)));
    let (out, _) = validate(&repo, &step(), TWO_FILES);
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".patchgate.toml"), "names the file: {stderr}");
    assert!(stderr.len() < 400 && !stderr.contains("aaaa"), "{stderr}");
}
