//! A known field spelt in another case (`{"patch": ok, "Patch": evil}`): Go's `encoding/json`
//! and .NET's case-insensitive readers take the last of the two for `patch`, so an orchestrator
//! written in Go would apply a patch patchgate never judged. Every reader of a result refuses it.

use crate::support::{TestRepo, code, fixtures, json};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

const GOOD: &str = "diff --git a/greet.py b/greet.py\nnew file mode 100644\n--- /dev/null\n+++ b/greet.py\n@@ -0,0 +1 @@\n+def greet(): pass\n";
const EVIL: &str = "diff --git a/.github/workflows/x.yml b/.github/workflows/x.yml\nnew file mode 100644\n--- /dev/null\n+++ b/.github/workflows/x.yml\n@@ -0,0 +1 @@\n+on: push\n";

fn result(extra: &[(&str, Value)]) -> Value {
    let mut value = json!({"mode": "apply", "success": true, "patch": GOOD,
        "filesWritten": ["greet.py"], "filesTouched": ["greet.py"], "summary": "Added greet"});
    for (key, item) in extra {
        value[*key] = item.clone();
    }
    value
}

/// `patchgate ARGS --step STEP --result RESULT` in `repo`.
fn judge(repo: &TestRepo, args: &[&str], step: &Path, result: &Path) -> Output {
    let mut cmd = repo.patchgate();
    cmd.args(args).arg("--step").arg(step).arg("--result").arg(result);
    cmd.output().expect("run patchgate")
}

#[test]
fn a_known_field_in_another_case_is_refused_by_validate_and_apply() {
    let repo = TestRepo::new();
    repo.commit(&[("README.md", "# r\n")], "init");
    let io = tempfile::tempdir().expect("tempdir");
    let step = fixtures().join("validate/accepted/step.json");
    let written = json!([".github/workflows/x.yml"]);
    let cases = [
        ("Patch", json!(EVIL)),
        ("PATCH", json!(EVIL)),
        ("FilesWritten", written.clone()),
        // Go folds the long s (U+017F) into `s`; .NET upper-cases the dotless i into `I`.
        ("fileſWritten", written.clone()),
        ("fılesWritten", written),
        ("Success", json!(false)),
    ];
    for (key, value) in cases {
        let path = io.path().join("r.json");
        std::fs::write(&path, result(&[(key, value)]).to_string()).expect("result");
        for command in [&["validate", "--no-record", "--format", "json"][..], &["apply"]] {
            let out = judge(&repo, command, &step, &path);
            let verdict = json(&out);
            let reason = verdict["reason"].as_str().unwrap_or_default();
            assert_eq!(code(&out), 1, "{} {key}: {verdict}", command[0]);
            assert!(reason.starts_with("schema:") && reason.contains(key), "{key}: {reason}");
            assert_eq!(repo.git(&["status", "--porcelain"]), "", "{key}: nothing written");
        }
    }
    // The exact spelling alone is accepted, and an unknown field in any case is only noted.
    let path = io.path().join("r.json");
    std::fs::write(&path, result(&[("Comment", json!("x"))]).to_string()).expect("result");
    let out = judge(&repo, &["validate", "--no-record"], &step, &path);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_report_names_the_case_variant_code() {
    let repo = TestRepo::new();
    repo.commit(&[("README.md", "# r\n")], "init");
    let io = tempfile::tempdir().expect("tempdir");
    let path = io.path().join("r.json");
    std::fs::write(&path, result(&[("Patch", json!(EVIL))]).to_string()).expect("result");
    let report = io.path().join("report.json");
    let args = ["validate", "--no-record", "--report", report.to_str().expect("utf-8")];
    let out = judge(&repo, &args, &fixtures().join("validate/accepted/step.json"), &path);
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_slice(&std::fs::read(&report).expect("report")).unwrap();
    assert_eq!(report["violations"][0]["code"], "case_variant_key", "{report}");
}

#[test]
fn declare_from_a_result_or_step_refuses_a_case_variant_of_the_field_it_reads() {
    let repo = TestRepo::new();
    repo.commit(&[("README.md", "# r\n")], "init");
    let io = tempfile::tempdir().expect("tempdir");
    let path = io.path().join("r.json");
    let value = result(&[("FilesWritten", json!(["secrets/key.pem"]))]);
    std::fs::write(&path, value.to_string()).expect("result");
    let out = repo.patchgate().args(["declare", "--from-result"]).arg(&path).output().expect("run");
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FilesWritten"));
    let shown = repo.patchgate().args(["declare", "--show", "--format", "json"]).output();
    let shown = json(&shown.expect("run"));
    assert!(!shown.to_string().contains("secrets/key.pem"), "nothing declared: {shown}");
}

#[test]
fn a_step_with_a_field_in_another_case_is_refused_as_an_unknown_field() {
    let repo = TestRepo::new();
    repo.commit(&[("README.md", "# r\n")], "init");
    let io = tempfile::tempdir().expect("tempdir");
    let step = io.path().join("s.json");
    let value = json!({"description": "Add greet", "allowedFiles": ["greet.py"],
        "ExcludedPaths": []});
    std::fs::write(&step, value.to_string()).expect("step");
    let path = io.path().join("r.json");
    std::fs::write(&path, result(&[]).to_string()).expect("result");
    let out = judge(&repo, &["validate", "--no-record"], &step, &path);
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stderr));
}
