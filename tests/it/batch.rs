//! `patchgate validate --batch` through the real binary: every `fixtures/validate` case judged
//! in one run as it is alone, answers in input order, a bad line answered on its own, the exit
//! codes, and the progress bar only on a terminal.

use crate::support::{Terminal, TestRepo, code, on_terminal, run_with_stdin};
use crate::validate::{Case, no_repo_command};
use serde_json::{Value, json};
use std::process::Output;

/// The answer lines on stdout, each parsed.
fn answers(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn item(id: &str, case: &Case, repo: Option<&TestRepo>) -> Value {
    let read = |name: &str| std::fs::read_to_string(case.dir.join(name)).expect("fixture");
    let step: Value = serde_json::from_str(&read("step.json")).expect("step.json is JSON");
    // The result as raw text: some cases are not JSON, or name a key twice.
    let mut item = json!({"id": id, "step": step, "result": read("result.json")});
    if let Some(repo) = repo {
        item["repo"] = json!(repo.path());
    }
    item
}

/// What a case's `expected.json` holds, from a batch answer.
fn observed(answer: &Value) -> Value {
    let violations: Vec<Value> = answer["report"]["violations"]
        .as_array()
        .expect("--with-report gives the report")
        .iter()
        .map(|v| json!([v["rule"], v["code"]]))
        .collect();
    let verdict = json!({"valid": answer["valid"], "reason": answer["reason"]});
    json!({"exit": i32::from(answer["valid"] == false), "verdict": verdict, "violations": violations})
}

#[test]
fn every_validate_fixture_in_one_batch_is_judged_as_it_is_alone_in_input_order() {
    let work = tempfile::tempdir().expect("tempdir");
    let cases: Vec<Case> = Case::all().into_iter().filter(|c| c.extra_args().is_empty()).collect();
    let mut runs = [(Vec::new(), Vec::new(), true), (Vec::new(), Vec::new(), false)];
    let mut repos = Vec::new();
    for case in &cases {
        let repo = case.repo();
        let (lines, names, _) = &mut runs[usize::from(repo.is_none())];
        // Each case twice, the copies far apart: the second is judged on cached trees.
        for copy in ["a", "b"] {
            let id = format!("{}#{copy}", case.name());
            lines.push(item(&id, case, repo.as_ref()));
            names.push((id, case.expected_path()));
        }
        repos.push(repo);
    }
    let mut failures = Vec::new();
    for (lines, names, has_repo) in &mut runs {
        // Interleave the copies: a, b of case 1 become positions i and i + n.
        let n = lines.len() / 2;
        let order: Vec<usize> = (0..n).map(|i| 2 * i).chain((0..n).map(|i| 2 * i + 1)).collect();
        let input: String = order.iter().map(|&i| lines[i].to_string() + "\n").collect();
        let mut cmd = no_repo_command(work.path());
        cmd.args(["validate", "--batch", "-", "--jobs", "3", "--with-report", "--no-record"]);
        if !*has_repo {
            cmd.arg("--no-repo");
        }
        let out = run_with_stdin(&mut cmd, input.as_bytes());
        assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
        let got = answers(&out);
        assert_eq!(got.len(), order.len(), "one answer per line");
        for (answer, &i) in got.iter().zip(&order) {
            let (id, expected) = &names[i];
            assert_eq!(answer["id"], json!(id), "answers come in input order");
            let expected: Value =
                serde_json::from_slice(&std::fs::read(expected).expect("expected.json"))
                    .expect("expected.json is JSON");
            if observed(answer) != expected {
                failures.push(format!("{id}:\n  alone    {expected}\n  in batch {answer}"));
            }
        }
    }
    assert!(cases.len() > 90, "the fixtures are there");
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

/// A repository holding `a.txt` = "old", and a step and result that change it.
fn repo_and_item() -> (TestRepo, Value, Value) {
    let repo = TestRepo::new();
    repo.commit(&[("a.txt", "old\n")], "base");
    let step = json!({"description": "Change old to new in a.txt"});
    let result = json!({"mode": "apply", "success": true,
        "patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n",
        "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "done"});
    (repo, step, result)
}

fn batch(repo: &TestRepo, input: &str, extra: &[&str]) -> Output {
    let mut cmd = repo.patchgate();
    cmd.args(["validate", "--batch", "-", "--no-record"]).args(extra);
    run_with_stdin(&mut cmd, input.as_bytes())
}

#[test]
fn with_report_each_answer_carries_the_report_validate_report_writes() {
    let (repo, step, result) = repo_and_item();
    let line = json!({"id": 1, "step": step, "result": result}).to_string();
    let got = answers(&batch(&repo, &line, &["--with-report"]));
    let (step_file, result_file) = (repo.tmp.path().join("s.json"), repo.tmp.path().join("r.json"));
    std::fs::write(&step_file, step.to_string()).expect("step");
    std::fs::write(&result_file, result.to_string()).expect("result");
    let report_file = repo.tmp.path().join("report.json");
    let out = repo
        .patchgate()
        .args(["validate", "--no-record", "--step"])
        .arg(&step_file)
        .arg("--result")
        .arg(&result_file)
        .arg("--report")
        .arg(&report_file)
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let alone: Value =
        serde_json::from_slice(&std::fs::read(&report_file).expect("report")).expect("JSON");
    // The change summary names the rename, which only a full summary reads.
    assert!(alone.to_string().contains("\"renames\""), "{alone}");
    assert_eq!(got[0]["report"], alone);
}

#[test]
fn a_bad_line_is_answered_on_its_own_and_the_run_goes_on() {
    let (repo, step, result) = repo_and_item();
    let other = tempfile::tempdir().expect("tempdir");
    let lines = [
        json!({"id": 1, "step": step, "result": result}).to_string(),
        "{\"id\": 2, \"step\":".to_owned(),
        json!({"id": 3, "step": step, "result": result, "bsae": "HEAD"}).to_string(),
        json!({"id": 4, "step": {"description": ""}, "result": result}).to_string(),
        json!({"id": 5, "step": step, "result": result, "base": "no-such-rev"}).to_string(),
        json!({"id": 6, "step": step, "result": result, "repo": other.path()}).to_string(),
        json!({"id": 7, "step": step, "result": "Sure! Here is the diff"}).to_string(),
        format!("{{\"id\": 8, \"padding\": \"{}\"}}", "x".repeat(5000)),
        json!({"id": 9, "step": step, "result": result}).to_string(),
    ];
    let out = batch(&repo, &(lines.join("\n") + "\n"), &["--max-line-bytes", "4096"]);
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let got = answers(&out);
    let summary: Vec<Value> = got
        .iter()
        .map(|a| match a.get("error") {
            Some(e) => json!([a["id"], a["line"], e["code"], e["exit"]]),
            None => json!([a["id"], a["valid"]]),
        })
        .collect();
    assert_eq!(
        summary,
        [
            json!([1, true]),
            json!([null, 2, "not_json", 2]),
            json!([null, 3, "bad_item", 2]),
            json!([4, 4, "invalid_step", 2]),
            json!([5, 5, "invalid_step", 2]),
            json!([6, 6, "repository", 2]),
            json!([7, false]),
            json!([null, 8, "line_too_long", 2]),
            json!([9, true]),
        ]
    );
    assert!(got[6]["reason"].as_str().unwrap().starts_with("schema: "), "{}", got[6]);
    assert!(got[2]["error"]["message"].as_str().unwrap().contains("bsae"), "{}", got[2]);
}

#[test]
fn the_exit_code_is_0_when_every_result_is_accepted_and_2_when_the_input_cannot_be_opened() {
    let (repo, step, result) = repo_and_item();
    let line = json!({"id": "a", "step": step, "result": result}).to_string();
    let out = batch(&repo, &format!("{line}\n\n{line}"), &[]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(answers(&out).len(), 2, "blank lines are skipped, a last line needs no newline");
    let out = repo
        .patchgate()
        .args(["validate", "--batch", "no-such-file.jsonl", "--format", "json"])
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 2, "as a step file that cannot be read");
    let envelope: Value = serde_json::from_slice(&out.stdout).expect("an error envelope");
    assert_eq!(envelope["error"]["code"], "unreadable_input");
    // A batch is no place for single-result arguments, nor for text diagnostics.
    let out = batch(&repo, "", &["--step", "s.json"]);
    assert_eq!(code(&out), 2);
    let out = batch(&repo, &line, &["--format", "text"]);
    assert_eq!((code(&out), out.stdout.is_empty()), (2, true));
}

/// A patch adding `secret/key`, which a policy excluding `secret/**` refuses.
const SECRET: &str = "--- /dev/null\n+++ b/secret/key\n@@ -0,0 +1 @@\n+hunter2\n";

#[test]
fn each_line_is_judged_under_its_own_base_s_policy_never_the_worktree_s() {
    let repo = TestRepo::new();
    repo.commit(&[("src/a.rs", "a\n")], "no policy");
    let lax = repo.git(&["rev-parse", "HEAD"]);
    repo.commit(&[(".patchgate.toml", "excluded = [\"secret/**\"]\n")], "strict");
    let strict = repo.git(&["rev-parse", "HEAD"]);
    std::fs::remove_file(repo.path().join(".patchgate.toml")).expect("rm");
    std::os::unix::fs::symlink("src/a.rs", repo.path().join(".patchgate.toml")).expect("ln");
    repo.git(&["add", ".patchgate.toml"]);
    repo.git(&["commit", "-q", "-m", "a policy that is a link"]);
    // The worktree's copy, the agent's to write, says nothing is excluded.
    std::fs::remove_file(repo.path().join(".patchgate.toml")).expect("rm");
    repo.write(".patchgate.toml", "excluded = []\n");
    let step = json!({"description": "add a key"});
    let result = json!({"mode": "apply", "success": true, "patch": SECRET,
        "filesWritten": ["secret/key"], "filesTouched": ["secret/key"], "summary": "key"});
    let bases = [strict.trim(), lax.trim(), "HEAD", strict.trim()];
    let lines: Vec<String> = bases
        .iter()
        .enumerate()
        .map(|(id, base)| {
            json!({"id": id, "step": step, "result": result, "base": base}).to_string()
        })
        .collect();
    let got = answers(&batch(&repo, &(lines.join("\n") + "\n"), &["--jobs", "1"]));
    let scope = |a: &Value| a["reason"].as_str().is_some_and(|r| r.starts_with("scope:"));
    assert!(got[0]["valid"] == false && scope(&got[0]), "{}", got[0]);
    assert!(!scope(&got[1]), "the base without a policy excludes nothing: {}", got[1]);
    assert_eq!(got[2]["error"]["code"], "policy_unreadable", "{}", got[2]);
    assert_eq!(got[2]["error"]["exit"], 3, "{}", got[2]);
    assert_eq!(got[3], json!({"id": 3, "valid": got[0]["valid"], "reason": got[0]["reason"]}));
}

#[test]
fn a_rejection_is_kept_for_review_unless_no_record_and_the_run_says_how_many() {
    let (repo, step, mut result) = repo_and_item();
    result["filesWritten"] = json!(["b.txt"]);
    let line = json!({"id": 1, "step": step, "result": result}).to_string();
    let mut cmd = repo.patchgate();
    let out = run_with_stdin(cmd.args(["validate", "--batch", "-"]), line.as_bytes());
    assert_eq!(code(&out), 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 rejection(s) kept"), "{stderr}");
    let list = repo.patchgate().args(["review", "list", "-q"]).output().expect("review list");
    assert_eq!(String::from_utf8_lossy(&list.stdout).lines().count(), 1);
}

#[test]
fn the_progress_bar_is_drawn_on_a_terminal_only_and_never_with_quiet() {
    let (repo, step, result) = repo_and_item();
    let work = tempfile::tempdir().expect("tempdir");
    let input = work.path().join("in.jsonl");
    let line = json!({"id": 1, "step": step, "result": result}).to_string();
    std::fs::write(&input, format!("{line}\n").repeat(300)).expect("write input");
    let args =
        ["validate", "--batch", input.to_str().expect("UTF-8"), "--no-record", "--jobs", "2"];
    let (exit, shown, stdout) = on_terminal(repo.patchgate().args(args), Terminal::Stderr);
    assert_eq!(exit, 0, "{shown}");
    assert_eq!(String::from_utf8_lossy(&stdout).lines().count(), 300);
    assert!(shown.contains('%') && shown.contains("accepted"), "a bar on the terminal: {shown:?}");
    let (_, shown, _) = on_terminal(repo.patchgate().args(args).arg("-q"), Terminal::Stderr);
    assert_eq!(shown, "", "-q draws nothing");
    let out = repo.patchgate().args(args).output().expect("run patchgate");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains('%'), "no bar into a pipe: {stderr}");
}
