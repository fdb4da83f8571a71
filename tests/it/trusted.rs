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
