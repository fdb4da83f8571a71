//! `patchgate guard` through the real binary: recorded-shape payloads of every protocol
//! (`fixtures/guard/<protocol>/<case>/`), seed 001's acceptance criteria, seed 003's patterns
//! inside the guard, sessions across processes.

use crate::support::{TestRepo, code, fixtures, json, run_with_stdin};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

const SEED_PATH: &str = "backend/tests/coverage_improvement/manual/services/test_cache_simple.py";
/// Environment an agent may set that would change which workspace or session is used.
const AGENT_VARS: &[&str] =
    &["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "GEMINI_SESSION_ID", "PATCHGATE_STATE_DIR"];

/// The project every fixture runs against.
pub(crate) fn project() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(
        &[
            ("README.md", "# demo\n"),
            ("src/main.rs", "fn main() {}\n"),
            ("src/utils/db.ts", "export const db = 1;\n"),
            ("backend/app/cache.py", "CACHE = {}\n"),
            ("backend/tests/conftest.py", ""),
            ("backend/tests/test_cache_simple.py", "def test_x(): pass\n"),
            ("backend/tests/fixtures/data.json", "{}\n"),
            ("scripts/run.sh", "echo run\n"),
        ],
        "project",
    );
    repo
}

pub(crate) fn root(repo: &TestRepo) -> String {
    std::fs::canonicalize(repo.path()).expect("temp repo resolves").display().to_string()
}

pub(crate) fn guard(repo: &TestRepo, protocol: &str, payload: &str) -> Output {
    let mut cmd = repo.patchgate();
    cmd.args(["guard", "--protocol", protocol]);
    for var in AGENT_VARS {
        cmd.env_remove(var);
    }
    run_with_stdin(&mut cmd, payload.as_bytes())
}

/// A generic call of `tool` with `input` in session `session`.
fn call(repo: &TestRepo, session: &str, tool: &str, input: &Value) -> Output {
    let payload =
        json!({"session_id": session, "cwd": root(repo), "tool_name": tool, "tool_input": input});
    guard(repo, "generic", &payload.to_string())
}

fn error_code(out: &Output) -> Value {
    json(out)["error"]["code"].clone()
}

// ---- recorded-shape payloads of every protocol ----

fn fixture_cases() -> Vec<(String, PathBuf)> {
    let mut cases = Vec::new();
    let listed = |dir: &Path| std::fs::read_dir(dir).expect("fixture directory").flatten();
    for protocol in listed(&fixtures().join("guard")).map(|e| e.path()) {
        let name = protocol.file_name().expect("named").to_string_lossy().into_owned();
        for case in listed(&protocol) {
            cases.push((name.clone(), case.path()));
        }
    }
    cases.sort();
    cases
}

/// Run one case; the answer with the repository root written as `{{ROOT}}`.
fn run_case(protocol: &str, case: &Path) -> Value {
    let repo = project();
    let root = root(&repo);
    let payload = std::fs::read_to_string(case.join("payload.json")).expect("payload.json");
    let out = guard(&repo, protocol, &payload.replace("{{ROOT}}", &root));
    let stdout = String::from_utf8_lossy(&out.stdout).replace(&root, "{{ROOT}}");
    let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("{}: stdout is not one JSON object ({e}): {stdout}", case.display())
    });
    json!({"exit": code(&out), "stdout": answer})
}

#[test]
fn protocol_fixtures_match_recorded_answers() {
    let bless = std::env::var_os("PATCHGATE_BLESS").is_some();
    let mut failures = Vec::new();
    for (protocol, case) in fixture_cases() {
        let actual = run_case(&protocol, &case);
        let path = case.join("expected.json");
        if bless {
            std::fs::write(&path, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
            continue;
        }
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if actual != expected {
            failures
                .push(format!("{}:\n  expected {expected}\n  actual   {actual}", case.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ (PATCHGATE_BLESS=1 rewrites):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn auto_detects_the_protocol_of_every_fixture() {
    // patchgate's own (generic) format is what no agent sends: it must be named.
    for (protocol, case) in fixture_cases().into_iter().filter(|(p, _)| p != "generic") {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap())
                .unwrap();
        assert_eq!(run_case("auto", &case), expected, "{protocol}: {}", case.display());
    }
}

#[test]
fn protocol_denials_exit_zero_with_their_deny_shape() {
    let repo = project();
    let root = root(&repo);
    let claude = json!({"session_id": "c", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_input": {"file_path": format!("{root}/src/mian.rs")}});
    let out = guard(&repo, "claude-code", &claude.to_string());
    assert_eq!(code(&out), 0);
    let specific = &json(&out)["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny");
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert!(specific["permissionDecisionReason"].as_str().unwrap().starts_with("PATH_NOT_FOUND"));
    let gemini = json!({"session_id": "g", "cwd": root, "hook_event_name": "BeforeTool",
        "tool_name": "read_file", "tool_input": {"file_path": "src/mian.rs"}});
    let out = guard(&repo, "gemini-cli", &gemini.to_string());
    assert_eq!((code(&out), json(&out)["decision"].clone()), (0, json!("deny")));
}

// ---- seed 001 acceptance criteria ----

#[test]
fn agents_stop_modification_tool_on_hallucinated_path() {
    let repo = project();
    let cases = [
        ("replace", json!({"file_path": SEED_PATH, "old_string": "a", "new_string": "b"})),
        (
            "Edit",
            json!({"file_path": format!("{}/{SEED_PATH}", root(&repo)), "old_string": "a", "new_string": "b"}),
        ),
        ("write_file", json!({"file_path": SEED_PATH, "content": "x"})),
        ("run_shell_command", json!({"command": format!("sed -i 's/a/b/' {SEED_PATH}")})),
        ("run_shell_command", json!({"command": format!("echo x >> {SEED_PATH}")})),
    ];
    for (i, (tool, input)) in cases.into_iter().enumerate() {
        let out = call(&repo, &format!("stop-{i}"), tool, &input);
        assert_eq!(code(&out), 2, "{tool} must be stopped");
        assert_eq!(json(&out)["decision"], "deny");
        assert_eq!(error_code(&out), "PATH_NOT_FOUND", "{tool}");
    }
    assert!(!repo.path().join(SEED_PATH).exists());
}

#[test]
fn parent_directory_contents_provided_when_path_missing() {
    let repo = project();
    let out = call(&repo, "parent", "read_file", &json!({"file_path": SEED_PATH}));
    let error = &json(&out)["error"];
    assert_eq!(error["path"], SEED_PATH);
    assert_eq!(error["parent"], "backend/tests");
    assert_eq!(
        error["parent_listing"],
        json!(["conftest.py", "fixtures/", "test_cache_simple.py"])
    );
    assert_eq!(error["parent_listing_omitted"], 0);
}

#[test]
fn parent_listing_is_bounded() {
    let repo = project();
    for i in 0..60 {
        repo.write(&format!("many/file_{i:02}.txt"), "");
    }
    let out = call(&repo, "bounded", "read_file", &json!({"file_path": "many/missing/x.txt"}));
    let error = &json(&out)["error"];
    assert_eq!(error["parent"], "many");
    assert_eq!(error["parent_listing"].as_array().unwrap().len(), 50);
    assert_eq!(error["parent_listing"][0], "file_00.txt");
    assert_eq!(error["parent_listing_omitted"], 10);
}

#[test]
fn fuzzy_search_finds_test_cache_simple_py() {
    let repo = project();
    repo.commit(&[("frontend/tests/test_cache_simple.py", "")], "another");
    let out = call(&repo, "fuzzy", "replace", &json!({"file_path": SEED_PATH}));
    let suggestions = json(&out)["error"]["suggestions"].clone();
    assert_eq!(suggestions[0], "backend/tests/test_cache_simple.py");
    assert_eq!(suggestions[1], "frontend/tests/test_cache_simple.py");
}

#[test]
fn strategy_shift_injected_across_two_separate_processes() {
    let repo = project();
    let first = call(&repo, "two-procs", "replace", &json!({"file_path": SEED_PATH}));
    assert_eq!(
        (json(&first)["strategy_shift"].clone(), json(&first)["instruction"].clone()),
        (json!(false), Value::Null)
    );
    let second = call(
        &repo,
        "two-procs",
        "read_file",
        &json!({"file_path": "backend/services/test_cache_simple.py"}),
    );
    let answer = json(&second);
    assert_eq!(answer["strategy_shift"], true);
    assert_eq!(answer["hallucination_count"], 2);
    assert!(answer["instruction"].as_str().unwrap().contains("discovery tools"));
    // The shift is sent once per streak; each later miss carries a one-line reminder.
    let third = json(&call(
        &repo,
        "two-procs",
        "read_file",
        &json!({"file_path": "lib/test_cache_simple.py"}),
    ));
    let shift_and_count = (third["strategy_shift"].clone(), third["hallucination_count"].clone());
    assert_eq!(shift_and_count, (json!(false), json!(3)));
    assert!(third["instruction"].as_str().unwrap().starts_with("Reminder: 3 paths in a row"));
    // Another session is not affected.
    let other = call(&repo, "someone-else", "replace", &json!({"file_path": SEED_PATH}));
    assert_eq!(json(&other)["strategy_shift"], false);
}

#[test]
fn strategy_shift_reaches_the_model_in_every_protocol() {
    let repo = project();
    let root = root(&repo);
    let claude = |_: usize| {
        json!({"session_id": "shift", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Read", "tool_input": {"file_path": format!("{root}/{SEED_PATH}")}})
        .to_string()
    };
    guard(&repo, "claude-code", &claude(1));
    let out = json(&guard(&repo, "claude-code", &claude(2)));
    assert!(
        out["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .starts_with("STRATEGY SHIFT")
    );
    // The third miss in a row: the reminder, not the paragraph again.
    let out = json(&guard(&repo, "claude-code", &claude(3)));
    let context = out["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with("Reminder: 3 paths in a row"), "{context}");
    let cline = json!({"taskId": "shift-task", "workspaceRoots": [root],
        "preToolUse": {"toolName": "replace_in_file", "parameters": {"path": SEED_PATH}}})
    .to_string();
    guard(&repo, "cline", &cline);
    let out = json(&guard(&repo, "cline", &cline));
    assert_eq!(out["cancel"], true);
    assert!(out["contextModification"].as_str().unwrap().starts_with("STRATEGY SHIFT"));
}

#[test]
fn discovery_call_resets_the_counter() {
    let repo = project();
    call(&repo, "reset", "replace", &json!({"file_path": SEED_PATH}));
    let glob = call(&repo, "reset", "glob", &json!({"pattern": "**/test_cache_simple.py"}));
    assert_eq!(code(&glob), 0);
    let again = call(&repo, "reset", "replace", &json!({"file_path": SEED_PATH}));
    assert_eq!(
        (json(&again)["hallucination_count"].clone(), json(&again)["strategy_shift"].clone()),
        (json!(1), json!(false))
    );
}

#[test]
fn parallel_guards_on_one_session_count_exactly() {
    use std::io::Write;
    use std::process::Stdio;
    let repo = project();
    let payload = json!({"session_id": "parallel", "cwd": root(&repo), "tool_name": "replace",
        "tool_input": {"file_path": SEED_PATH}})
    .to_string();
    let children: Vec<_> = (0..8)
        .map(|_| {
            let mut cmd = repo.patchgate();
            cmd.args(["guard", "--protocol", "generic"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
            child
        })
        .collect();
    let mut counts: Vec<u64> = children
        .into_iter()
        .map(|c| json(&c.wait_with_output().unwrap())["hallucination_count"].as_u64().unwrap())
        .collect();
    counts.sort_unstable();
    assert_eq!(counts, (1..=8).collect::<Vec<u64>>());
}

#[test]
fn a_payload_of_no_known_protocol_fails_closed_with_the_reason_on_stderr() {
    let repo = project();
    let payload = json!({"cwd": root(&repo), "tool_name": "Read",
        "tool_input": {"file_path": "README.md"}});
    let mut cmd = repo.patchgate();
    cmd.arg("guard");
    let out = run_with_stdin(&mut cmd, payload.to_string().as_bytes());
    assert_eq!(code(&out), 2, "denied although the call would be allowed");
    assert!(out.stdout.is_empty(), "no answer shape is known to be read");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--protocol"), "the reason names the fix: {stderr}");
}

#[test]
fn misses_reported_after_the_call_count_and_session_events_start_over() {
    let repo = project();
    let claude = |event: &str, extra: Value| {
        let mut payload = json!({"session_id": "after", "cwd": root(&repo),
            "transcript_path": "/t.jsonl", "hook_event_name": event});
        for (key, value) in extra.as_object().unwrap() {
            payload[key] = value.clone();
        }
        guard(&repo, "auto", &payload.to_string())
    };
    let failed_script = json!({"tool_name": "Bash",
        "tool_input": {"command": "python3 -c \"open('src/mian.rs')\""},
        "error": "FileNotFoundError: [Errno 2] No such file or directory: 'src/mian.rs'"});
    let read_missing = json!({"tool_name": "Read",
        "tool_input": {"file_path": format!("{}/src/mian.rs", root(&repo))}});
    // A failure the guard could not see first: counted, nothing refused.
    assert_eq!(json(&claude("PostToolUseFailure", failed_script.clone())), json!({}));
    let second = json(&claude("PreToolUse", read_missing.clone()));
    assert!(
        second["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .is_some_and(|c| c.starts_with("STRATEGY SHIFT"))
    );
    // A new session (or /clear) starts the count over.
    assert_eq!(json(&claude("SessionStart", json!({"source": "clear"}))), json!({}));
    let after_start = json(&claude("PreToolUse", read_missing));
    assert_eq!(after_start["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(after_start["hookSpecificOutput"].get("additionalContext").is_none());
    // A failure that carries patchgate's own refusal was counted when it was refused.
    let refused = json!({"tool_name": "Bash", "tool_input": {"command": "cat src/mian.rs"},
        "error": "PATH_NOT_FOUND: 'src/mian.rs' does not exist."});
    assert_eq!(json(&claude("PostToolUseFailure", refused)), json!({}));
    // The second miss after a post-tool miss shows the shift in the post-tool answer too.
    let shifted = json(&claude("PostToolUseFailure", failed_script));
    assert_eq!(shifted["hookSpecificOutput"]["hookEventName"], "PostToolUseFailure");
    assert!(shifted["hookSpecificOutput"]["additionalContext"].is_string());
}

// ---- what else the guard refuses, and what it lets through ----

#[test]
fn git_commit_no_verify_is_refused() {
    let repo = project();
    for command in [
        "git commit --no-verify -m x",
        "git commit -nm x",
        "git -c core.hooksPath=/dev/null commit -m x",
    ] {
        let out = call(&repo, "git", "Bash", &json!({"command": command}));
        assert_eq!((code(&out), error_code(&out)), (2, json!("HOOK_BYPASS")), "{command}");
    }
    let fine = call(&repo, "git", "Bash", &json!({"command": "git commit -m 'no -n here'"}));
    assert_eq!(code(&fine), 0);
}

#[test]
fn traversal_is_rejected_before_anything_else() {
    let repo = project();
    for (raw, pattern) in [
        ("../../etc/passwd", "path_traversal"),
        ("src/%2e%2e/x", "path_traversal"),
        ("src/a%20b.rs", "percent_encoded_segment"),
        (".git/config", "git_dir"),
    ] {
        let out = call(&repo, "t", "read_file", &json!({"file_path": raw}));
        let error = &json(&out)["error"];
        assert_eq!((code(&out), error["code"].clone()), (2, json!("INVALID_AGENT_INPUT")), "{raw}");
        assert_eq!(
            (error["input_value"].clone(), error["rejected_pattern"].clone()),
            (json!(raw), json!(pattern))
        );
    }
    let shell = call(&repo, "t", "Bash", &json!({"command": "cat ../secrets.txt"}));
    assert_eq!(json(&shell)["error"]["rejected_pattern"], "path_traversal");
}

#[test]
fn valid_absolute_path_inside_workspace_passes() {
    let repo = project();
    let out = call(
        &repo,
        "abs",
        "read_file",
        &json!({"file_path": format!("{}/src/main.rs", root(&repo))}),
    );
    assert_eq!(
        (code(&out), json(&out)),
        (
            0,
            json!({"decision": "allow", "error": null,
        "strategy_shift": false, "instruction": null, "hallucination_count": 0})
        )
    );
}

#[test]
fn paths_outside_the_workspace_are_denied_after_resolving_symlinks() {
    let repo = project();
    std::os::unix::fs::symlink("/etc", repo.path().join("etc-link")).unwrap();
    for raw in ["/etc/hostname", "etc-link/hostname"] {
        let out = call(&repo, "out", "read_file", &json!({"file_path": raw}));
        assert_eq!((code(&out), error_code(&out)), (2, json!("PATH_OUTSIDE_WORKSPACE")), "{raw}");
    }
    let cd = call(&repo, "out", "Bash", &json!({"command": "cd /etc && cat hostname"}));
    assert_eq!(error_code(&cd), "PATH_OUTSIDE_WORKSPACE");
    // /dev and /tmp are extra roots by default: redirections to /dev/null are fine.
    let null = call(&repo, "out", "Bash", &json!({"command": "cat README.md 2>/dev/null"}));
    assert_eq!(code(&null), 0);
}

#[test]
fn creating_needs_an_existing_parent() {
    let repo = project();
    let new_file =
        call(&repo, "c", "write_file", &json!({"file_path": "src/utils/new.ts", "content": ""}));
    assert_eq!(code(&new_file), 0);
    let deep = call(&repo, "c", "write_file", &json!({"file_path": "src/nope/deeper/new.ts"}));
    assert_eq!((code(&deep), json(&deep)["error"]["parent"].clone()), (2, json!("src")));
    let chained = call(
        &repo,
        "c",
        "Bash",
        &json!({"command": "mkdir -p src/nope/deeper && touch src/nope/deeper/new.ts && cat src/nope/deeper/new.ts"}),
    );
    assert_eq!(code(&chained), 0);
}

#[test]
fn unknown_tools_are_allowed_and_garbage_is_denied() {
    let repo = project();
    let unknown = call(&repo, "u", "mcp__x__y", &json!({"file_path": "nope/nothing"}));
    assert_eq!(code(&unknown), 0);
    let garbage = guard(&repo, "generic", "this is not json");
    assert_eq!((code(&garbage), error_code(&garbage)), (2, json!("GUARD_ERROR")));
    let claude = guard(&repo, "claude-code", "{\"tool_input\": 1}");
    assert_eq!(code(&claude), 0);
    assert_eq!(json(&claude)["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn reads_fail_open_or_closed_by_policy_and_writes_always_closed() {
    let repo = project();
    std::os::unix::fs::symlink("loop", repo.path().join("loop")).unwrap();
    let read = || call(&repo, "e", "read_file", &json!({"file_path": "loop/x"}));
    assert_eq!((code(&read()), error_code(&read())), (2, json!("GUARD_ERROR")));
    repo.write(".patchgate.toml", "[guard]\non_error_read = \"allow\"\n");
    assert_eq!(code(&read()), 0);
    let write = call(&repo, "e", "write_file", &json!({"file_path": "loop/x"}));
    assert_eq!((code(&write), error_code(&write)), (2, json!("GUARD_ERROR")));
}

#[test]
fn a_dangling_link_is_named_as_a_link_not_suggested_as_itself() {
    let repo = project();
    std::fs::create_dir(repo.path().join("docs")).unwrap();
    std::os::unix::fs::symlink("../old/guide.md", repo.path().join("docs/guide.md")).unwrap();
    std::os::unix::fs::symlink("../gone", repo.path().join("vendor")).unwrap();
    repo.git(&["add", "docs/guide.md", "vendor"]);
    let read = call(&repo, "l", "read_file", &json!({"file_path": "docs/guide.md"}));
    let error = &json(&read)["error"];
    assert_eq!((code(&read), error["code"].clone()), (2, json!("PATH_NOT_FOUND")));
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(
            "'docs/guide.md' is a symbolic link to '../old/guide.md', which does not exist"
        ),
        "{message}"
    );
    assert!(!error["suggestions"].as_array().unwrap().contains(&json!("docs/guide.md")));
    let through = call(&repo, "l", "read_file", &json!({"file_path": "vendor/lib.rs"}));
    let message = json(&through)["error"]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("goes through 'vendor', a symbolic link to '../gone'"), "{message}");
}

#[test]
fn suggestions_without_git_come_from_a_walk() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("pkg/src")).unwrap();
    std::fs::write(dir.path().join("pkg/src/lib.rs"), "").unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let payload = json!({"session_id": "w", "cwd": root, "tool_name": "Read",
        "tool_input": {"file_path": root.join("src/lib.rs")}});
    let mut cmd = crate::support::patchgate();
    cmd.current_dir(&root).args(["guard", "--protocol", "generic", "--repo"]).arg(&root);
    cmd.env("PATCHGATE_STATE_DIR", root.join(".state"));
    let out = run_with_stdin(&mut cmd, payload.to_string().as_bytes());
    assert_eq!(json(&out)["error"]["suggestions"], json!([root.join("pkg/src/lib.rs")]));
}

/// Outside a repository each miss reads at most a budget of directories (one here), those
/// nearest its path first, and says so until the walk is complete; from then on the answer is
/// worded as for a complete list.
#[test]
fn a_walk_outside_git_in_steps_says_its_suggestions_come_from_part_of_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for path in ["README.md", "pkg/src/lib.rs", "a/x.py", "b/c/y.py"] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), "").unwrap();
    }
    let miss = |path: &str, budget: &str| {
        let payload = json!({"session_id": format!("w{path}{budget}"), "cwd": root,
            "tool_name": "Read", "tool_input": {"file_path": root.join(path)}});
        let mut cmd = crate::support::patchgate();
        cmd.current_dir(&root).args(["guard", "--protocol", "generic", "--repo"]).arg(&root);
        cmd.env("PATCHGATE_STATE_DIR", root.join(".state"));
        cmd.env("PATCHGATE_TEST_WALK_BUDGET", budget);
        json(&run_with_stdin(&mut cmd, payload.to_string().as_bytes()))["error"].clone()
    };
    // The root alone read: its subdirectories a, b and pkg are not.
    let first = miss("src/lib.rs", "1");
    assert_eq!(first["suggestions"], json!([]));
    let message = first["message"].as_str().unwrap();
    assert!(
        message.contains(
            ". No similarly named file was found in the part of the tree read so far (3 \
             directories not read yet); search for it (glob, grep) before retrying. The tool \
             call was blocked"
        ),
        "{message}"
    );
    // The directories nearest the miss first: pkg, then pkg/src.
    let second = miss("pkg/src/lib2.rs", "2");
    let lib = root.join("pkg/src/lib.rs").display().to_string();
    assert_eq!(second["suggestions"], json!([lib]));
    let message = second["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "Did you mean: {lib}? (Found in the part of the tree read so far, 2 directories \
             not read yet: if none is meant, search for it with glob or grep.) The tool call"
        )),
        "{message}"
    );
    let mut last = miss("src/lib.rs", "1");
    for _ in 0..3 {
        last = miss("src/lib.rs", "1");
    }
    assert_eq!(last["suggestions"], json!([lib]));
    let listing = ".state/, README.md, a/, b/, pkg/";
    assert_eq!(
        last["message"],
        format!(
            "PATH_NOT_FOUND: '{}' does not exist. The closest existing directory is '{}', which \
             contains: {listing}. Did you mean: {lib}? The tool call was blocked; retry with an \
             existing path.",
            root.join("src/lib.rs").display(),
            root.display()
        )
    );
}

#[test]
fn the_file_list_cache_follows_the_index() {
    let repo = project();
    let miss = || call(&repo, "cache", "read_file", &json!({"file_path": "lib/helpers.py"}));
    assert_eq!(json(&miss())["error"]["suggestions"], json!([]));
    let git_dir = PathBuf::from(repo.git(&["rev-parse", "--absolute-git-dir"]).trim());
    assert!(git_dir.join("patchgate/guard/files-v8.cache").exists());
    repo.commit(&[("tools/helpers.py", "")], "helpers");
    assert_eq!(json(&miss())["error"]["suggestions"], json!(["tools/helpers.py"]));
    // Unchanged index: the answers come from the cache, files and directories alike.
    assert_eq!(json(&miss())["error"]["suggestions"], json!(["tools/helpers.py"]));
    let dir_miss = || call(&repo, "cache", "list_directory", &json!({"dir_path": "tool"}));
    assert_eq!(json(&dir_miss())["error"]["suggestions"], json!(["tools"]));
    assert_eq!(json(&dir_miss())["error"]["suggestions"], json!(["tools"]));
    // Gone from the index and the disk: never suggested again.
    repo.git(&["rm", "-q", "tools/helpers.py"]);
    assert_eq!(json(&miss())["error"]["suggestions"], json!([]));
    assert_eq!(json(&dir_miss())["error"]["suggestions"], json!([]));
}

#[test]
fn a_damaged_file_list_cache_is_rebuilt_not_read_with_holes() {
    // The cache keeps the names apart from their directories (read only for the names that
    // match): a file cut short, or a header that does not describe it, is built again.
    let repo = project();
    repo.commit(&[("tools/helpers.py", ""), ("docs/helpers.md", "")], "helpers");
    let miss = || call(&repo, "damaged", "read_file", &json!({"file_path": "lib/helpers.py"}));
    let want = json!(["tools/helpers.py", "docs/helpers.md"]);
    assert_eq!(json(&miss())["error"]["suggestions"], want);
    let git_dir = PathBuf::from(repo.git(&["rev-parse", "--absolute-git-dir"]).trim());
    let cache = git_dir.join("patchgate/guard/files-v8.cache");
    let whole = std::fs::read(&cache).expect("the cached list");
    let header = whole.iter().position(|&b| b == b'\n').expect("a header line") + 1;
    let text = String::from_utf8(whole[..header].to_vec()).unwrap();
    let (key, layout) = text.trim_end().rsplit_once(' ').unwrap();
    let (dirs, buckets) = layout.split_once(';').unwrap();
    let blob: usize = key.rsplit_once(' ').unwrap().1.parse().unwrap();
    let (key, _) = key.rsplit_once(' ').unwrap();
    // The last bucket left out of the layout.
    let fewer = buckets.rsplit_once(',').map_or("", |(rest, _)| rest);
    for damaged in [
        whole[..header + blob - 3].to_vec(),
        [format!("{key} 7 {layout}\n").as_bytes(), &whole[header..]].concat(),
        [format!("{key} {blob} {dirs};{fewer}\n").as_bytes(), &whole[header..]].concat(),
    ] {
        std::fs::write(&cache, &damaged).unwrap();
        assert_eq!(json(&miss())["error"]["suggestions"], want);
        assert_eq!(std::fs::read(&cache).unwrap(), whole, "the cached list built again");
    }
}

#[test]
fn files_just_written_are_suggested_when_untracked_and_not_ignored() {
    let repo = project();
    repo.write(".gitignore", "build/\n");
    let miss = || call(&repo, "new", "read_file", &json!({"file_path": "lib/string_utils.py"}));
    // The first miss makes both lists: the index's, and the files on disk it does not list.
    assert_eq!(json(&miss())["error"]["suggestions"], json!([]));
    // The agent writes the file: the call is allowed and marks the files on disk as changed.
    let write = call(&repo, "new", "write_file", &json!({"file_path": "src/string_utils.py"}));
    assert_eq!(code(&write), 0);
    repo.write("src/string_utils.py", "");
    repo.write("build/string_utils.py", "");
    assert_eq!(json(&miss())["error"]["suggestions"], json!(["src/string_utils.py"]));
    // A shell command's file, reported after it ran: seen at the next miss too.
    repo.write("tools/string_utils.py", "");
    let after = json!({"session_id": "new", "cwd": root(&repo), "transcript_path": "/t.jsonl",
        "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "python3 gen.py"}, "tool_response": {"stdout": ""}});
    assert_eq!(code(&guard(&repo, "claude-code", &after.to_string())), 0);
    let suggestions = json(&miss())["error"]["suggestions"].clone();
    assert_eq!(suggestions, json!(["src/string_utils.py", "tools/string_utils.py"]));
}

#[test]
fn a_miss_after_every_directory_changed_reads_them_in_one_walk() {
    // As after a `git checkout` or a formatter that rewrites every file: each directory's time
    // changes, and the next miss reads them all again. Read one by one (a walk set up per
    // directory, each time over every known directory), 3,000 of them took minutes, past the
    // guard's --timeout: every miss answered GUARD_ERROR, and as none finished, so did the next.
    let repo = project();
    let root = std::fs::canonicalize(repo.path()).unwrap();
    for i in 0..3000 {
        let dir = root.join(format!("pkg{}/mod{i}", i % 30));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("part_{i}.py")), "").unwrap();
    }
    let guard_call = |tool: &str, input: Value| {
        let payload = json!({"session_id": "walk", "cwd": root, "tool_name": tool,
            "tool_input": input});
        let mut cmd = repo.patchgate();
        cmd.args(["guard", "--protocol", "generic", "--timeout", "30"]);
        for var in AGENT_VARS {
            cmd.env_remove(var);
        }
        run_with_stdin(&mut cmd, payload.to_string().as_bytes())
    };
    let miss = || guard_call("read_file", json!({"file_path": "pkg7/mod7/part_7.pyx"}));
    assert_eq!(json(&miss())["error"]["suggestions"][0], "pkg7/mod7/part_7.py");
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
    for i in 0..3000 {
        let dir = std::fs::File::open(root.join(format!("pkg{}/mod{i}", i % 30))).unwrap();
        dir.set_modified(an_hour_ago).unwrap();
    }
    std::fs::write(root.join("pkg7/mod7/part_7b.py"), "").unwrap();
    let write = guard_call("write_file", json!({"file_path": "pkg7/mod7/part_7b.py"}));
    assert_eq!(code(&write), 0, "{}", String::from_utf8_lossy(&write.stderr));
    let started = std::time::Instant::now();
    let out = miss();
    assert_eq!(error_code(&out), "PATH_NOT_FOUND", "{}", String::from_utf8_lossy(&out.stderr));
    let suggestions = json(&out)["error"]["suggestions"].clone();
    assert_eq!(suggestions[0], "pkg7/mod7/part_7.py");
    assert!(suggestions.as_array().unwrap().contains(&json!("pkg7/mod7/part_7b.py")));
    eprintln!("the miss after every directory changed: {:?}", started.elapsed());
}

#[test]
fn a_file_the_index_stops_listing_is_suggested_from_the_disk() {
    let repo = project();
    repo.commit(&[("src/string_utils.py", "")], "utils");
    let miss = || call(&repo, "untrack", "read_file", &json!({"file_path": "lib/string_utils.py"}));
    // The first miss makes both lists: the file is the index's, so the walk left it out.
    assert_eq!(json(&miss())["error"]["suggestions"], json!(["src/string_utils.py"]));
    // Untracked now, still on disk: `git ls-files -o` lists it, so must the files on disk.
    repo.git(&["rm", "-q", "--cached", "src/string_utils.py"]);
    assert_eq!(json(&miss())["error"]["suggestions"], json!(["src/string_utils.py"]));
    // Added and taken back out of the index (`git reset`): the same.
    repo.write("src/new_utils.py", "");
    let write = call(&repo, "untrack", "write_file", &json!({"file_path": "src/new_utils.py"}));
    assert_eq!(code(&write), 0);
    repo.git(&["add", "src/new_utils.py"]);
    let new_miss = || call(&repo, "untrack", "read_file", &json!({"file_path": "new_utils.py"}));
    assert_eq!(json(&new_miss())["error"]["suggestions"], json!(["src/new_utils.py"]));
    repo.git(&["reset", "-q", "--", "src/new_utils.py"]);
    assert_eq!(json(&new_miss())["error"]["suggestions"], json!(["src/new_utils.py"]));
}

#[test]
fn an_index_change_in_a_few_directories_leaves_the_cached_list_as_it_was() {
    use std::os::unix::fs::MetadataExt as _;
    let repo = project();
    repo.commit(&[("src/app.py", ""), ("docs/guide.md", ""), ("lib/old_name.py", "")], "base");
    let miss = |path: &str| {
        let out = call(&repo, "delta", "read_file", &json!({"file_path": path}));
        json(&out)["error"]["suggestions"].clone()
    };
    assert_eq!(miss("x/guide.md"), json!(["docs/guide.md"]));
    let git_dir = PathBuf::from(repo.git(&["rev-parse", "--absolute-git-dir"]).trim());
    let cache = git_dir.join("patchgate/guard/files-v8.cache");
    let built = std::fs::metadata(&cache).expect("the cached list").ino();
    // A file staged that no guard saw written, and one removed with its directory: the first
    // miss after reads the index, and only the names of the two directories that changed are
    // written beside the list.
    repo.write("src/staged_helper.py", "");
    repo.git(&["add", "src/staged_helper.py"]);
    repo.git(&["rm", "-q", "lib/old_name.py"]);
    assert_eq!(miss("x/staged_helper.py"), json!(["src/staged_helper.py"]));
    assert_eq!(miss("x/old_name.py"), json!([]));
    assert_eq!(miss("x/app.py"), json!(["src/app.py"]));
    assert_eq!(miss("x/guide.md"), json!(["docs/guide.md"]));
    // A commit changes the index file, not its names.
    repo.git(&["commit", "-qm", "more"]);
    assert_eq!(miss("x/staged_helper.py"), json!(["src/staged_helper.py"]));
    assert_eq!(miss("x/old_name.py"), json!([]));
    let now = std::fs::metadata(&cache).expect("the cached list").ino();
    assert_eq!(now, built, "the cached list was written again");
}

#[test]
fn a_miss_while_another_guard_updates_the_lists_answers_from_the_old_ones() {
    let repo = project();
    repo.write("tools/helpers.py", "");
    let miss =
        |name: &str| call(&repo, "busy", "read_file", &json!({"file_path": format!("lib/{name}")}));
    // The first miss makes both lists: the index's, and the files on disk it does not list.
    assert_eq!(json(&miss("helpers.py"))["error"]["suggestions"], json!(["tools/helpers.py"]));
    // The index changes (an agent's `git add`), and another guard is updating both lists: it
    // holds their locks. This miss answers at once from the lists as they were.
    repo.commit(&[("src/other.py", "")], "other");
    let git_dir = PathBuf::from(repo.git(&["rev-parse", "--absolute-git-dir"]).trim());
    let state = git_dir.join("patchgate/guard");
    let snapshot = std::fs::read_dir(&state)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("tree-v"))
        .expect("a snapshot of the files on disk")
        .path();
    let locks: Vec<std::fs::File> = [state.join("files-v8.cache.lock"), snapshot.join("lock")]
        .iter()
        .map(|path| {
            let lock = std::fs::File::create(path).unwrap();
            lock.lock().unwrap();
            lock
        })
        .collect();
    let out = miss("helpers.py");
    assert_eq!(error_code(&out), "PATH_NOT_FOUND", "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["error"]["suggestions"], json!(["tools/helpers.py"]));
    drop(locks);
    // Once it is done, the next miss reads the new index.
    assert_eq!(json(&miss("other.py"))["error"]["suggestions"], json!(["src/other.py"]));
}

#[test]
fn a_closed_stdout_still_blocks_a_denied_call() {
    let repo = project();
    let root = root(&repo);
    let io = tempfile::tempdir().expect("io");
    let payload = io.path().join("payload.json");
    let claude = json!({"session_id": "c", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_input": {"file_path": format!("{root}/src/mian.rs")}});
    std::fs::write(&payload, claude.to_string()).expect("payload");
    let binary = env!("CARGO_BIN_EXE_patchgate");
    for (tool, want) in [("src/mian.rs", 2), ("src/main.rs", 0)] {
        let text = claude.to_string().replace("src/mian.rs", tool);
        std::fs::write(&payload, text).expect("payload");
        // `>&-` closes file descriptor 1 before patchgate starts.
        let out = std::process::Command::new("sh")
            .args(["-c", "exec \"$0\" guard --protocol claude-code <\"$1\" >&-"])
            .arg(binary)
            .arg(&payload)
            .current_dir(repo.path())
            .output()
            .expect("run sh");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(code(&out), want, "{tool}: {stderr}");
        if want == 2 {
            assert!(stderr.contains("PATH_NOT_FOUND"), "the reason is on stderr: {stderr}");
        }
    }
}

#[test]
fn the_gate_s_own_configuration_cannot_be_changed() {
    let repo = project();
    let husky = "npx lint-staged\npatchgate hook run pre-commit\n";
    let linters = "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n";
    repo.commit(
        &[
            (".patchgate.toml", "excluded = [\"secrets/**\"]\n"),
            (".husky/pre-commit", husky),
            (".pre-commit-config.yaml", linters),
        ],
        "policy and hook managers",
    );
    let root = root(&repo);
    let policy = format!("{root}/.patchgate.toml");
    for (tool, input) in [
        ("Write", json!({"file_path": policy, "content": "[guard]\nextra_roots = [\"/\"]\n"})),
        ("Edit", json!({"file_path": policy, "old_string": "secrets", "new_string": "x"})),
        ("Write", json!({"file_path": format!("{root}/.husky/pre-commit"), "content": "exit 0"})),
    ] {
        let out = call(&repo, "p", tool, &input);
        assert_eq!((code(&out), error_code(&out)), (2, json!("PROTECTED_PATH")), "{tool} {input}");
    }
    for command in [
        "printf '[guard]\\nextra_roots = [\"/\"]\\n' > .patchgate.toml",
        "rm .patchgate.toml",
        "rm -f ./.patchgate.toml",
        "mkfifo .patchgate.toml",
        "sed -i 's/secrets/x/' .patchgate.toml",
        "cp /dev/null .patchgate.toml",
        "python3 -c 'open(\".patchgate.toml\", \"w\")' .patchgate.toml",
        "echo 'exit 0' >> .husky/pre-commit",
        "bash -c 'truncate -s 0 .patchgate.toml'",
    ] {
        let out = call(&repo, "p", "Bash", &json!({"command": command}));
        assert_eq!((code(&out), error_code(&out)), (2, json!("PROTECTED_PATH")), "{command}");
    }
    for command in
        ["cat .patchgate.toml", "git diff .patchgate.toml", "grep secrets .patchgate.toml"]
    {
        let out = call(&repo, "p", "Bash", &json!({"command": command}));
        assert_eq!(code(&out), 0, "{command}: {}", String::from_utf8_lossy(&out.stdout));
    }
    let read = call(&repo, "p", "Read", &json!({"file_path": policy}));
    assert_eq!(code(&read), 0, "reading the policy is fine");
    // The pre-commit framework here runs only linters: its configuration is ordinary code.
    let config = format!("{root}/.pre-commit-config.yaml");
    let edit = json!({"file_path": config, "old_string": "ruff", "new_string": "black"});
    assert_eq!(code(&call(&repo, "p", "Edit", &edit)), 0);
    let append = json!({"command": "echo '  - repo: local' >> .pre-commit-config.yaml"});
    assert_eq!(code(&call(&repo, "p", "Bash", &append)), 0);
}

#[test]
fn hook_bypasses_through_config_plumbing_and_patchgate_itself_are_refused() {
    let repo = project();
    for command in [
        "git config core.hooksPath /dev/null && git commit -m x",
        "GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\" git commit -m x",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x",
        "export GIT_CONFIG_COUNT=1; git commit -m x",
        "git commit-tree HEAD^{tree} -p HEAD -m x",
        "git update-ref refs/heads/main abc123",
        "patchgate hook uninstall",
        "patchgate declare '**'",
    ] {
        let out = call(&repo, "b", "Bash", &json!({"command": command}));
        assert_eq!((code(&out), error_code(&out)), (2, json!("HOOK_BYPASS")), "{command}");
    }
    for command in ["git config user.name x", "patchgate validate --help", "git commit -m x"] {
        let out = call(&repo, "b", "Bash", &json!({"command": command}));
        assert_eq!(code(&out), 0, "{command}: {}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn links_out_of_the_workspace_cannot_be_made() {
    let repo = project();
    let outside = tempfile::tempdir().expect("outside");
    let absolute = format!("ln -s {} evil", outside.path().display());
    let out = call(&repo, "l", "Bash", &json!({"command": absolute}));
    assert_eq!((code(&out), error_code(&out)), (2, json!("PATH_OUTSIDE_WORKSPACE")));
    let out = call(&repo, "l", "Bash", &json!({"command": "ln -s ../outside evil"}));
    assert_eq!(code(&out), 2, "a relative escape is refused too");
    let inside = call(&repo, "l", "Bash", &json!({"command": "ln -s src/main.rs main-link.rs"}));
    assert_eq!(code(&inside), 0, "{}", String::from_utf8_lossy(&inside.stdout));
}

#[test]
fn a_policy_that_is_not_a_regular_file_never_hangs_the_guard() {
    let repo = project();
    let fifo = repo.path().join(".patchgate.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let mut cmd = repo.patchgate();
    let payload = json!({"session_id": "f", "cwd": root(&repo), "tool_name": "Read",
        "tool_input": {"file_path": "src/main.rs"}});
    cmd.args(["guard", "--protocol", "generic"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(payload.to_string().as_bytes()).expect("payload");
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the guard hung on a FIFO policy");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    assert_eq!((code(&out), error_code(&out)), (2, json!("GUARD_ERROR")));
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("not a regular file"), "{message}");
}

#[test]
fn a_payload_naming_a_key_twice_is_denied() {
    let repo = project();
    let root = root(&repo);
    // A reader that keeps the first `file_path` sees README.md; one that keeps the last, /etc.
    let payload = format!(
        r#"{{"session_id": "d", "cwd": "{root}", "tool_name": "Write", "tool_input": {{"file_path": "README.md", "file_path": "/etc/passwd"}}}}"#
    );
    let out = guard(&repo, "generic", &payload);
    assert_eq!((code(&out), error_code(&out)), (2, json!("GUARD_ERROR")));
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("tool_input.file_path"), "{message}");
}
