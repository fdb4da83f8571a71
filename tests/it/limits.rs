//! `[limits]` through the real binary: each over-limit input is refused with a reason that
//! names the setting, before the costly work, and raising the setting lets it through.

use crate::support::{TestRepo, code, json, run_with_stdin};
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

/// `patchgate parse` of `patch` on stdin and from a file, in `repo`.
fn parse_both(repo: &TestRepo, patch: &str) -> [Output; 2] {
    let file = repo.path().join("p.diff");
    std::fs::write(&file, patch).expect("write patch");
    let from_file = repo.patchgate().args(["parse", "--format", "json"]).arg(&file).output();
    let stdin =
        run_with_stdin(repo.patchgate().args(["parse", "--format", "json", "-"]), patch.as_bytes());
    [stdin, from_file.expect("run patchgate")]
}

#[test]
fn parse_is_bounded_by_heads_limits_not_the_worktrees() {
    let repo = repo_with("[limits]\nfiles = 1\n");
    // The worktree's policy is not the one in force: an input cannot raise its own bound.
    repo.write(".patchgate.toml", "[limits]\nfiles = 100\n");
    for out in parse_both(&repo, TWO_FILES) {
        assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(json(&out)["error"]["code"], "limit_exceeded");
        let message = json(&out)["error"]["message"].as_str().unwrap().to_owned();
        assert!(message.contains("[limits] files") && message.contains("is 2"), "{message}");
    }
    let repo = repo_with("[limits]\npatch_bytes = 100\n");
    for out in parse_both(&repo, TWO_FILES) {
        assert_eq!(code(&out), 2);
        let message = json(&out)["error"]["message"].as_str().unwrap().to_owned();
        assert!(message.contains("[limits] patch_bytes"), "{message}");
    }
    let [stdin, file] = parse_both(&repo_with("[limits]\nfiles = 2\n"), TWO_FILES);
    assert_eq!((code(&stdin), code(&file)), (0, 0));
    assert_eq!(json(&file)["data"]["files"].as_array().map(Vec::len), Some(2));
}

#[test]
fn contract_replies_are_bounded_in_bytes_and_paths_per_list() {
    let reply = |paths: &[&str]| {
        let object = json!({"status": "completed", "files_created": paths, "files_updated": [],
            "changes": [], "neededChanges": true, "summary": "Added the files."});
        format!("```json\n{object}\n```\n")
    };
    let run = |repo: &TestRepo, text: &str| {
        let file = repo.path().join("reply.txt");
        std::fs::write(&file, text).expect("write reply");
        repo.patchgate().args(["contract", "executor-output"]).arg(&file).output().expect("run")
    };
    let repo = repo_with("[limits]\nfiles = 2\n");
    let out = run(&repo, &reply(&["a.txt", "b.txt", "c.txt"]));
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let data = &json(&out)["data"];
    assert_eq!(data["violations"][0]["code"], "limit_exceeded", "{data}");
    assert!(data["violations"][0]["message"].as_str().unwrap().contains("[limits] files"));
    assert_eq!(code(&run(&repo, &reply(&["a.txt", "b.txt"]))), 0);
    let repo = repo_with("[limits]\npatch_bytes = 64\n");
    let out = run(&repo, &reply(&["a.txt"]));
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("[limits] patch_bytes"));
    let agent = repo.path().join("reply.txt");
    let out = repo.patchgate().args(["contract", "agent", "--agent", "x"]).arg(&agent).output();
    assert_eq!(code(&out.expect("run")), 2, "the agent reply is bounded too");
}

/// The MCP server's answer to one `parse_patch` call on `patch`, in `repo`.
fn mcp_parse(repo: &TestRepo, patch: &str) -> Value {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "parse_patch", "arguments": {"patch": patch}}});
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let input = format!("{init}\n{initialized}\n{call}\n");
    let out = run_with_stdin(repo.patchgate().arg("mcp"), input.as_bytes());
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|v| v["id"] == 2)
        .unwrap_or_else(|| panic!("no answer to the call: {stdout}"))
}

#[test]
fn the_mcp_parse_tool_is_bounded_as_parse_is() {
    let repo = repo_with("[limits]\nfiles = 1\n");
    let answer = mcp_parse(&repo, TWO_FILES);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().expect("a text block");
    assert!(text.contains("limit_exceeded") && text.contains("[limits] files"), "{text}");
}

#[test]
fn the_mcp_parse_tool_answers_the_text_parse_prints() {
    let repo = repo_with("[limits]\nfiles = 2\n");
    let answer = mcp_parse(&repo, TWO_FILES);
    let text = answer["result"]["content"][0]["text"].as_str().expect("a text block");
    let file = repo.path().join("two.diff");
    std::fs::write(&file, TWO_FILES).expect("write patch");
    let out = repo.patchgate().args(["--format", "json", "parse"]).arg(&file).output();
    let printed = String::from_utf8(out.expect("run").stdout).expect("UTF-8");
    assert_eq!(format!("{text}\n"), printed);
    assert!(text.contains("\"new_path\": \"b.txt\""), "{text}");
}

/// `contract agent` of the reply file `reply` in `repo`, with `limit` (if any) as `ulimit -v`.
fn contract_agent(repo: &TestRepo, reply: &str, limit_kib: Option<u64>) -> Output {
    let file = repo.path().join("reply.json");
    std::fs::write(&file, reply).expect("write reply");
    let mut command = repo.patchgate();
    if let Some(kib) = limit_kib {
        let program = command.get_program().to_owned();
        command = std::process::Command::new("sh");
        command
            .current_dir(repo.path())
            .arg("-c")
            .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""));
        command.arg(program);
    }
    command.args(["contract", "agent", "--agent", "x"]).arg(&file).output().expect("run")
}

/// An agent envelope whose `result.files` lists `paths`.
fn agent_reply(paths: &[String]) -> String {
    json!({"status": "success", "agent": "x", "version": "1.0",
        "operation": "scan", "result": {"files": paths},
        "metadata": {"execution_time_ms": 5}})
    .to_string()
}

/// Each list of an agent reply is bounded by `[limits] files`, as validate bounds a patch's file
/// entries and the executor contract each path list: over it is a `limit_exceeded` violation
/// (exit 1) at the list, found by a pass that does not build the reply, so 1.5 million paths are
/// refused within a 256 MiB address space (building them takes more).
#[test]
fn contract_agent_bounds_every_list_by_the_files_limit() {
    let repo = repo_with("[limits]\nfiles = 2\n");
    let paths = |n: usize| (0..n).map(|i| format!("src/m{i}.py")).collect::<Vec<_>>();
    assert_eq!(code(&contract_agent(&repo, &agent_reply(&paths(2)), None)), 0);
    // Strict JSON, and a fenced reply only the lenient reader reads (a trailing comma).
    let lenient = format!("```json\n{}\n```\n", agent_reply(&paths(3)).replace("]}", ",]}"));
    for reply in [agent_reply(&paths(3)), lenient] {
        let out = contract_agent(&repo, &reply, None);
        assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stdout));
        let violation = &json(&out)["data"]["violations"][0];
        assert_eq!(violation["code"], "limit_exceeded", "{violation}");
        assert_eq!(violation["pointer"], "/result/files", "{violation}");
        let message = violation["message"].as_str().expect("message");
        assert!(message.contains("[limits] files"), "{message}");
    }
    let repo = repo_with("");
    let out = contract_agent(&repo, &agent_reply(&paths(1_500_000)), Some(256 << 10));
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let violation = &json(&out)["data"]["violations"][0];
    assert_eq!(violation["code"], "limit_exceeded", "{violation}");
    assert!(violation["message"].as_str().expect("message").contains("20000"), "{violation}");
}
