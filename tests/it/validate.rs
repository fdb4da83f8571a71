//! `patchgate validate` through the real binary: every case under `fixtures/validate/`, the
//! input errors (exit 2), judge failures (exit 3), text diagnostics, and the committed JSON
//! Schemas. `PATCHGATE_BLESS=1` rewrites `expected.json` files and `schemas/*.json`.

use crate::support::{TestRepo, code, fixtures, json, patchgate, run_with_stdin};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn is_bless() -> bool {
    std::env::var_os("PATCHGATE_BLESS").is_some_and(|v| v == "1")
}

/// One fixture: `step.json`, `result.json`, `expected.json`, optional `args.json` (extra
/// arguments), `patchgate.toml` and `base/` (either runs the case inside a throwaway
/// repository whose one commit holds that policy and the files under `base/`).
pub(crate) struct Case {
    pub dir: PathBuf,
}

impl Case {
    pub fn all() -> Vec<Self> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join("validate"))
            .expect("fixtures/validate exists")
            .map(|e| e.expect("readable entry").path())
            .filter(|p| p.join("step.json").is_file())
            .collect();
        dirs.sort();
        dirs.into_iter().map(|dir| Self { dir }).collect()
    }

    pub fn name(&self) -> String {
        self.dir.file_name().expect("case dir has a name").to_string_lossy().into_owned()
    }

    pub fn extra_args(&self) -> Vec<String> {
        match std::fs::read(self.dir.join("args.json")) {
            Ok(bytes) => serde_json::from_slice(&bytes).expect("args.json is a list of strings"),
            Err(_) => Vec::new(),
        }
    }

    /// Run the binary; return (output, parsed --report).
    fn run(&self) -> (Output, Value) {
        let work = tempfile::tempdir().expect("tempdir");
        let report = work.path().join("report.json");
        let mut args: Vec<String> = vec!["validate".into(), "--step".into()];
        args.push(self.dir.join("step.json").display().to_string());
        args.push("--result".into());
        args.push(self.dir.join("result.json").display().to_string());
        args.push("--report".into());
        args.push(report.display().to_string());
        args.extend(self.extra_args());
        let repo = self.repo();
        if repo.is_none() {
            args.insert(1, "--no-repo".into());
        }
        let mut cmd = match &repo {
            Some(repo) => repo.patchgate(),
            None => no_repo_command(work.path()),
        };
        let out = cmd.args(&args).output().expect("run patchgate");
        let report = std::fs::read(&report)
            .map_or(Value::Null, |b| serde_json::from_slice(&b).expect("--report is JSON"));
        (out, report)
    }

    /// The case's repository, when it has a policy or base files.
    pub fn repo(&self) -> Option<TestRepo> {
        let mut files: Vec<(String, String)> = Vec::new();
        if let Ok(text) = std::fs::read_to_string(self.dir.join("patchgate.toml")) {
            files.push((".patchgate.toml".into(), text));
        }
        let base = self.dir.join("base");
        for path in walk(&base) {
            let rel = path.strip_prefix(&base).expect("below base/").to_string_lossy().into_owned();
            files.push((rel, std::fs::read_to_string(&path).expect("base files are text")));
        }
        if files.is_empty() {
            return None;
        }
        let repo = TestRepo::new();
        let files: Vec<(&str, &str)> =
            files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        repo.commit(&files, "base");
        Some(repo)
    }

    pub fn expected_path(&self) -> PathBuf {
        self.dir.join("expected.json")
    }
}

/// Every file below `dir` (none when it does not exist).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// patchgate run from a directory outside any repository.
pub(crate) fn no_repo_command(dir: &Path) -> Command {
    let mut cmd = patchgate();
    cmd.current_dir(dir).env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap_or(dir));
    cmd
}

/// What a case is judged on: exit code, the stdout verdict, and every violation's rule/code.
fn observed(out: &Output, report: &Value) -> Value {
    let verdict = json(out);
    let violations: Vec<Value> = report["violations"]
        .as_array()
        .map(|vs| vs.iter().map(|v| json!([v["rule"], v["code"]])).collect())
        .unwrap_or_default();
    json!({ "exit": code(out), "verdict": verdict, "violations": violations })
}

/// The verdict contract of seed 002, for every case.
fn assert_contract(name: &str, out: &Output, report: &Value) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{name}: one line on stdout: {stdout}");
    let verdict = json(out);
    let keys: Vec<&String> = verdict.as_object().expect("an object").keys().collect();
    assert_eq!(keys, ["valid", "reason"], "{name}");
    assert_eq!(report["verdict"], verdict, "{name}: --report agrees with stdout");
    if let Some(first) = report["violations"].as_array().and_then(|v| v.first()) {
        let prefix = format!("{}: ", first["rule"].as_str().expect("rule is a string"));
        let reason = verdict["reason"].as_str().expect("reason is a string");
        assert!(reason.starts_with(&prefix), "{name}: reason starts with the rule: {reason}");
    }
}

#[test]
fn fixture_cases() {
    let cases = Case::all();
    assert!(cases.len() >= 30, "fixtures/validate holds the cases");
    let mut failures = Vec::new();
    for case in &cases {
        let (out, report) = case.run();
        let name = case.name();
        assert!(matches!(code(&out), 0 | 1), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_contract(&name, &out, &report);
        let got = observed(&out, &report);
        // The accuracy cases say in their name what a careful reviewer decides.
        let must_accept = name.starts_with("accuracy-accept-");
        if (must_accept || name.starts_with("accuracy-reject-"))
            && got["exit"] != json!(i32::from(!must_accept))
        {
            failures.push(format!("{name}: a careful reviewer decides otherwise: {got}"));
            continue;
        }
        if is_bless() {
            let text = serde_json::to_string_pretty(&got).expect("json") + "\n";
            std::fs::write(case.expected_path(), text).expect("write expected.json");
            continue;
        }
        let expected: Value = std::fs::read(case.expected_path())
            .map_or(Value::Null, |b| serde_json::from_slice(&b).expect("expected.json is JSON"));
        if got != expected {
            failures.push(format!("{name}:\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(failures.is_empty(), "{} case(s) differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_rule_has_an_accepted_and_a_rejected_case() {
    let mut rejected_rules = std::collections::BTreeSet::new();
    let mut accepted = 0;
    for case in Case::all() {
        let expected: Value =
            serde_json::from_slice(&std::fs::read(case.expected_path()).expect("expected.json"))
                .expect("JSON");
        for v in expected["violations"].as_array().expect("violations") {
            rejected_rules.insert(v[0].as_str().expect("rule").to_owned());
        }
        accepted += usize::from(expected["exit"] == 0);
    }
    let all = [
        "schema",
        "mode",
        "scope",
        "declared",
        "reversal",
        "undeclared",
        "malformed",
        "zero-impact",
        "not-implemented",
    ];
    let expected: std::collections::BTreeSet<String> =
        all.iter().map(|r| (*r).to_owned()).collect();
    assert_eq!(rejected_rules, expected);
    assert!(accepted >= 8, "accepted cases: {accepted}");
}

fn case_file(case: &str, file: &str) -> String {
    fixtures().join("validate").join(case).join(file).display().to_string()
}

/// `patchgate validate --no-repo ARGS` outside any repository.
fn validate(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("tempdir");
    let cmd = no_repo_command(dir.path()).args(["validate", "--no-repo"]).args(args).output();
    cmd.expect("run patchgate")
}

fn stderr_line(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "one stderr line: {stderr}");
    stderr
}

#[test]
fn step_mistakes_are_input_refused() {
    let result = case_file("accepted", "result.json");
    let out = validate(&["--step", "/nonexistent/step.json", "--result", &result]);
    assert_eq!(code(&out), 2);
    assert!(stderr_line(&out).contains("/nonexistent/step.json"));
    assert!(out.stdout.is_empty(), "no verdict for a refused step");
    let dir = tempfile::tempdir().expect("tempdir");
    for (body, what) in [
        ("{not json", "not JSON"),
        (r#"{"id": "s"}"#, "no description"),
        (r#"{"description": "x", "allowedFiles": "src"}"#, "wrong type"),
        (r#"{"description": "x", "allowedFiles": ["src/[a"]}"#, "bad glob"),
        (r#"{"description": "x", "applyPatch": "not a diff\n"}"#, "defective applyPatch"),
    ] {
        let step = dir.path().join("step.json");
        std::fs::write(&step, body).expect("write step");
        let out = validate(&["--step", &step.display().to_string(), "--result", &result]);
        assert_eq!(code(&out), 2, "{what}");
        stderr_line(&out);
    }
}

#[test]
fn missing_result_file_is_input_refused_but_bad_result_is_a_verdict() {
    let step = case_file("accepted", "step.json");
    let out = validate(&["--step", &step, "--result", "/nonexistent/result.json"]);
    assert_eq!(code(&out), 2);
    let out = run_with_stdin(
        no_repo_command(&std::env::temp_dir()).args([
            "validate",
            "--no-repo",
            "--step",
            &step,
            "--result",
            "-",
        ]),
        b"{\"mode\": \"apply\"",
    );
    assert_eq!(code(&out), 1);
    assert_eq!(json(&out)["valid"], false);
}

#[test]
fn judge_failures_exit_3_with_one_line() {
    let (step, result) = (case_file("accepted", "step.json"), case_file("accepted", "result.json"));
    for judge in ["exit 1", "echo not-json", "sleep 20"] {
        let out = validate(&[
            "--step",
            &step,
            "--result",
            &result,
            "--judge",
            judge,
            "--judge-timeout",
            "1",
        ]);
        assert_eq!(code(&out), 3, "judge {judge:?}");
        assert!(out.stdout.is_empty(), "no verdict when the judge fails");
        stderr_line(&out);
    }
    let out =
        validate(&["--step", &step, "--result", &result, "--format", "json", "--judge", "exit 1"]);
    assert_eq!(json(&out)["error"]["code"], "judge_failed");
}

#[test]
fn text_format_prints_one_diagnostic_per_violation_and_notes() {
    let case = "declared-files-touched-not-superset";
    let out = validate(&[
        "--step",
        &case_file(case, "step.json"),
        "--result",
        &case_file(case, "result.json"),
        "--format",
        "text",
    ]);
    assert_eq!(code(&out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error[")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].starts_with("error[declared/files_touched_not_superset]"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("note[repository_checks_skipped]")), "{text}");
    assert!(text.lines().last().is_some_and(|l| l.starts_with("rejected: declared: ")), "{text}");
}

#[test]
fn repo_option_must_name_a_repository() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (step, result) = (case_file("accepted", "step.json"), case_file("accepted", "result.json"));
    let out = no_repo_command(dir.path())
        .args(["--repo", &dir.path().display().to_string(), "validate"])
        .args(["--step", &step, "--result", &result])
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 2);
    stderr_line(&out);
}

#[test]
fn without_a_repository_validate_says_so_instead_of_passing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (step, result) = (case_file("accepted", "step.json"), case_file("accepted", "result.json"));
    let out = no_repo_command(dir.path())
        .args(["validate", "--step", &step, "--result", &result])
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 3, "no silent pass");
    assert!(out.stdout.is_empty(), "no verdict on stdout");
    let line = stderr_line(&out);
    assert!(line.contains("--repo DIR") && line.contains("--no-repo"), "{line}");
    let alone = validate(&["--step", &step, "--result", &result]);
    assert_eq!(code(&alone), 0);
    let reason = json(&alone)["reason"].as_str().unwrap_or_default().to_owned();
    assert!(reason.ends_with("(not checked against a repository)"), "{reason}");
    let both = validate(&["--repo", ".", "--step", &step, "--result", &result]);
    assert_eq!(code(&both), 2, "--repo and --no-repo contradict each other");
}

#[test]
fn invalid_policy_is_input_refused() {
    let repo = TestRepo::new();
    repo.commit(&[(".patchgate.toml", "[rules]\nmax_files = 3\n")], "policy");
    let out = repo
        .patchgate()
        .args(["validate", "--step", &case_file("accepted", "step.json")])
        .args(["--result", &case_file("accepted", "result.json")])
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 2);
    stderr_line(&out);
}

#[test]
fn committed_schemas_match_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for (name, generated) in patchgate::report::json_schemas() {
        let path = dir.join(name);
        if is_bless() {
            std::fs::create_dir_all(path.parent().expect("below schemas/")).expect("mkdir");
            std::fs::write(&path, &generated).expect("write schema");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "schemas/{name} drifted from the Rust types; regenerate with PATCHGATE_BLESS=1 cargo test --test it validate, then the packages' types with python3 packages/schema_types.py"
        );
    }
}

/// The README's first screen: its first command, run from the repository root, prints the
/// verdict shown right below it.
#[test]
fn readme_first_command_prints_what_the_readme_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let command = readme
        .lines()
        .find_map(|l| l.strip_prefix("cargo run --locked -- "))
        .expect("the README's first command");
    let shown = readme
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the verdict block under the first command");
    let args: Vec<&str> = command.split_whitespace().collect();
    let out = patchgate().current_dir(root).args(&args).output().expect("run patchgate");
    assert_eq!(code(&out), 0);
    let shown: Value = serde_json::from_str(shown.trim()).expect("the README shows JSON");
    assert_eq!(json(&out), shown);
}

#[test]
fn report_file_locates_every_violation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report.json");
    let case = "reversal-undo";
    let out = validate(&[
        "--step",
        &case_file(case, "step.json"),
        "--result",
        &case_file(case, "result.json"),
        "--report",
        &report.display().to_string(),
    ]);
    assert_eq!(code(&out), 1);
    let report: Value =
        serde_json::from_slice(&std::fs::read(&report).expect("report written")).expect("JSON");
    assert_eq!(report["verdict"], json(&out));
    let first = &report["violations"][0];
    assert_eq!(
        (&first["rule"], &first["code"], &first["file"], &first["hunk"], &first["patch_line"]),
        (&json!("reversal"), &json!("hunk_reversed"), &json!("net.py"), &json!(1), &json!(5))
    );
    assert_eq!(report["notes"][0]["code"], "repository_checks_skipped");
}

#[test]
fn report_file_that_cannot_be_written_is_exit_3() {
    let out = validate(&[
        "--step",
        &case_file("accepted", "step.json"),
        "--result",
        &case_file("accepted", "result.json"),
        "--report",
        "/nonexistent/dir/report.json",
    ]);
    assert_eq!(code(&out), 3);
    stderr_line(&out);
}

#[test]
fn a_short_hunk_is_blamed_on_its_own_file_not_the_next() {
    let io = tempfile::tempdir().expect("tempdir");
    let patch = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-a\n+b\n c\ndiff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-x\n+y\n";
    let files = ["a.txt", "b.txt"];
    let result = json!({"mode": "apply", "success": true, "patch": patch, "filesWritten": files,
        "filesTouched": files, "summary": "two files"});
    let (step, result_file) = (io.path().join("s.json"), io.path().join("r.json"));
    std::fs::write(&step, json!({"description": "Edit both"}).to_string()).expect("step");
    std::fs::write(&result_file, result.to_string()).expect("result");
    let (step, result_file) = (step.display().to_string(), result_file.display().to_string());
    let out = validate(&["--step", &step, "--result", &result_file]);
    assert_eq!(code(&out), 1);
    let reason = json(&out)["reason"].as_str().unwrap_or_default().to_owned();
    assert!(reason.starts_with("malformed: a.txt hunk 1 (patch line 4)"), "{reason}");
    assert!(reason.contains("another header starts at line 8"), "{reason}");
}

#[test]
fn a_creation_without_a_mode_line_is_noted_in_the_report() {
    let io = tempfile::tempdir().expect("tempdir");
    let patch = "--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo hi\n";
    let result = json!({"mode": "apply", "success": true, "patch": patch,
        "filesWritten": ["run.sh"], "filesTouched": ["run.sh"], "summary": "script"});
    let (step, result_file, report) =
        (io.path().join("s.json"), io.path().join("r.json"), io.path().join("report.json"));
    std::fs::write(&step, json!({"description": "Add run.sh"}).to_string()).expect("step");
    std::fs::write(&result_file, result.to_string()).expect("result");
    let repo = TestRepo::new();
    repo.commit(&[("README", "r\n")], "base");
    let out = repo
        .patchgate()
        .args(["validate", "--step"])
        .arg(&step)
        .arg("--result")
        .arg(&result_file)
        .arg("--report")
        .arg(&report)
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value =
        serde_json::from_slice(&std::fs::read(&report).expect("report")).expect("json");
    let codes: Vec<&str> = report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n["code"].as_str())
        .collect();
    assert!(codes.contains(&"mode_defaulted"), "{codes:?}");
}

#[test]
fn a_step_naming_a_key_twice_is_refused_input() {
    let io = tempfile::tempdir().expect("tempdir");
    let step = io.path().join("s.json");
    std::fs::write(&step, r#"{"description": "a", "description": "b"}"#).expect("step");
    let step = step.display().to_string();
    let out = validate(&["--step", &step, "--result", &case_file("accepted", "result.json")]);
    assert_eq!(code(&out), 2);
    assert!(stderr_line(&out).contains("'description' twice"));
}

/// A file named with `$(...)` (a shell that later handles the name runs it) and a file whose
/// name no file system holds (300 bytes in one component) are refused wherever the result names
/// them: in the patch headers and in `filesWritten`; `apply` writes nothing.
#[test]
fn names_a_shell_would_run_or_no_file_system_holds_are_refused() {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "a\n")], "init");
    let io = tempfile::tempdir().expect("tempdir");
    let step = io.path().join("s.json");
    std::fs::write(&step, r#"{"description": "Add the file", "allowedFiles": ["**"]}"#).unwrap();
    let long = format!("{}.txt", "a".repeat(300));
    for (name, code_name) in [
        ("$(touch pwned).txt", "shell_substitution"),
        ("`id`.txt", "shell_substitution"),
        (long.as_str(), "too_long"),
    ] {
        let patch = format!(
            "diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+x\n"
        );
        let result = io.path().join("r.json");
        let value = json!({"mode": "apply", "success": true, "patch": patch,
            "filesWritten": [name], "filesTouched": [name], "summary": "Add the file"});
        std::fs::write(&result, value.to_string()).unwrap();
        for command in [&["validate", "--no-record"][..], &["apply"]] {
            let out = repo
                .patchgate()
                .args(command)
                .args(["--format", "json"])
                .arg("--step")
                .arg(&step)
                .arg("--result")
                .arg(&result)
                .output()
                .expect("run");
            let what = format!("{} {name}", command[0]);
            assert_eq!(code(&out), 1, "{what}: {}", String::from_utf8_lossy(&out.stdout));
            let reason = json(&out)["reason"].as_str().unwrap_or_default().to_owned();
            assert!(reason.starts_with("scope:"), "{what}: {reason}");
            assert_eq!(repo.git(&["status", "--porcelain"]), "", "{what}: nothing written");
        }
        let report = io.path().join("report.json");
        let out = repo
            .patchgate()
            .args(["validate", "--no-record", "--report"])
            .arg(&report)
            .arg("--step")
            .arg(&step)
            .arg("--result")
            .arg(&result)
            .output()
            .expect("run");
        assert_eq!(code(&out), 1);
        let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        let codes: Vec<&str> = report["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v["code"].as_str())
            .collect();
        assert!(codes.contains(&code_name), "{name}: {codes:?}");
    }
}
