//! `patchgate guard` under the two policies that change its answer: `[limits]` (over-long
//! payloads, paths, commands and patches are refused in the agent's own protocol) and
//! `[guard] correct` (a missing path with exactly one likely meaning is rewritten to it).

use crate::guard::{guard, project, root};
use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};

fn claude(repo: &TestRepo, tool: &str, input: &Value) -> Value {
    let payload = json!({"session_id": "p", "cwd": root(repo), "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input});
    let out = guard(repo, "auto", &payload.to_string());
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    json(&out)
}

fn denial_reason(answer: &Value) -> &str {
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
    answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().expect("a reason")
}

// ---- [limits] ----

#[test]
fn an_oversized_payload_is_refused_in_the_protocol_its_first_fields_show() {
    let repo = project();
    repo.write(".patchgate.toml", "[limits]\npayload_bytes = 4096\n");
    let root = root(&repo);
    let content = "x".repeat(10_000);
    let claude = json!({"session_id": "p", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": format!("{root}/a.txt"),
        "content": content}});
    let out = guard(&repo, "auto", &claude.to_string());
    assert_eq!(code(&out), 0);
    let reason = denial_reason(&json(&out)).to_owned();
    assert!(reason.contains("[limits] payload_bytes"), "{reason}");
    assert!(reason.contains("is 10"), "the whole size is counted: {reason}");
    let gemini = json!({"session_id": "p", "cwd": root, "hook_event_name": "BeforeTool",
        "timestamp": "t", "tool_name": "write_file", "tool_input": {"file_path": "a.txt",
        "content": content}});
    let answer = json(&guard(&repo, "auto", &gemini.to_string()));
    assert_eq!(answer["decision"], "deny");
    // The same payload under the default limit is judged as usual.
    repo.write(".patchgate.toml", "");
    let allowed = json(&guard(&repo, "auto", &claude.to_string()));
    assert_eq!(allowed, json!({}));
    assert!(!repo.path().join("a.txt").exists(), "the guard never writes");
}

#[test]
fn an_oversized_payload_of_no_known_protocol_is_refused_on_stderr() {
    let repo = project();
    repo.write(".patchgate.toml", "[limits]\npayload_bytes = 100\n");
    let out = guard(&repo, "auto", &format!("{{\"blob\": \"{}\"}}", "x".repeat(500)));
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("payload_bytes"));
}

#[test]
fn long_or_deep_paths_long_commands_and_large_patches_are_refused_naming_the_setting() {
    let repo = project();
    let root = root(&repo);
    repo.write(
        ".patchgate.toml",
        "[limits]\npath_bytes = 200\npath_depth = 12\ncommand_bytes = 300\npatch_bytes = 400\n",
    );
    let long = format!("{root}/src/{}.rs", "a".repeat(250));
    let reason = denial_reason(&claude(&repo, "Read", &json!({"file_path": long}))).to_owned();
    assert!(reason.contains("INVALID_AGENT_INPUT") && reason.contains("[limits] path_bytes"));
    let deep = format!("{root}/{}x.rs", "d/".repeat(12));
    let reason = denial_reason(&claude(&repo, "Read", &json!({"file_path": deep}))).to_owned();
    assert!(reason.contains("[limits] path_depth"), "{reason}");
    let shell_deep = format!("cat {}x.rs", "d/".repeat(12));
    let reason = denial_reason(&claude(&repo, "Bash", &json!({"command": shell_deep}))).to_owned();
    assert!(reason.contains("[limits] path_depth"), "a shell operand is a path too: {reason}");
    let command = format!("echo {}", "y".repeat(400));
    let reason = denial_reason(&claude(&repo, "Bash", &json!({"command": command}))).to_owned();
    assert!(reason.contains("[limits] command_bytes"), "{reason}");
    let patch =
        format!("*** Begin Patch\n*** Add File: new.txt\n{}*** End Patch\n", "+line\n".repeat(80));
    let codex = json!({"session_id": "p", "turn_id": "t", "cwd": root,
        "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
        "tool_input": {"command": patch}});
    let answer = json(&guard(&repo, "auto", &codex.to_string()));
    assert!(denial_reason(&answer).contains("[limits] patch_bytes"), "{answer}");
    // Within the limits the same kinds of call are judged on their paths as usual.
    let fine = claude(&repo, "Bash", &json!({"command": "cat src/main.rs"}));
    assert_eq!(fine, json!({}));
}

// ---- [guard] correct ----

fn corrected_input(answer: &Value) -> &Value {
    &answer["hookSpecificOutput"]["updatedInput"]
}

#[test]
fn correction_is_off_by_default() {
    let repo = project();
    let root = root(&repo);
    let answer = claude(&repo, "Read", &json!({"file_path": format!("{root}/src/mian.rs")}));
    assert!(denial_reason(&answer).contains("PATH_NOT_FOUND"));
}

#[test]
fn reads_are_corrected_to_the_one_suggestion_and_the_model_and_user_are_told() {
    let repo = project();
    let root = root(&repo);
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"reads\"\n");
    let answer = claude(&repo, "Read", &json!({"file_path": format!("{root}/src/mian.rs")}));
    assert_eq!(corrected_input(&answer), &json!({"file_path": format!("{root}/src/main.rs")}));
    assert!(answer["hookSpecificOutput"].get("permissionDecision").is_none(), "{answer}");
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().expect("context");
    assert!(context.contains("src/mian.rs") && context.contains("src/main.rs"), "{context}");
    assert!(answer["systemMessage"].as_str().expect("user message").contains("src/main.rs"));
    // A shell read is rewritten word for word, relative as the agent wrote it.
    let shell = claude(&repo, "Bash", &json!({"command": "cat src/mian.rs | head -5"}));
    assert_eq!(corrected_input(&shell), &json!({"command": "cat src/main.rs | head -5"}));
    let after_cd = claude(&repo, "Bash", &json!({"command": "cd src && cat mian.rs"}));
    assert_eq!(corrected_input(&after_cd), &json!({"command": "cd src && cat main.rs"}));
}

#[test]
fn what_is_not_a_read_is_corrected_only_under_all() {
    let repo = project();
    let root = root(&repo);
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"reads\"\n");
    let edit = json!({"file_path": format!("{root}/src/mian.rs"), "old_string": "main",
        "new_string": "x"});
    let sed = json!({"command": "sed -i s/main/x/ src/mian.rs"});
    assert!(denial_reason(&claude(&repo, "Edit", &edit)).contains("PATH_NOT_FOUND"));
    assert!(denial_reason(&claude(&repo, "Bash", &sed)).contains("PATH_NOT_FOUND"));
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"all\"\n");
    let fixed = claude(&repo, "Edit", &edit);
    assert_eq!(corrected_input(&fixed)["file_path"], json!(format!("{root}/src/main.rs")));
    assert_eq!(corrected_input(&fixed)["new_string"], json!("x"), "the rest of the input stays");
    let fixed = claude(&repo, "Bash", &sed);
    assert_eq!(corrected_input(&fixed), &json!({"command": "sed -i s/main/x/ src/main.rs"}));
}

#[test]
fn no_correction_without_exactly_one_suggestion_or_for_a_path_the_call_creates() {
    let repo = project();
    let root = root(&repo);
    repo.commit(&[("lib/main.rs", "fn main() {}\n")], "second main");
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"all\"\n");
    let two = claude(&repo, "Read", &json!({"file_path": format!("{root}/src/mian.rs")}));
    let reason = denial_reason(&two);
    assert!(reason.contains("src/main.rs") && reason.contains("lib/main.rs"), "{reason}");
    let none = claude(&repo, "Read", &json!({"file_path": format!("{root}/zzz/qqq.py")}));
    assert!(denial_reason(&none).contains("PATH_NOT_FOUND"));
    // A write into a missing directory names a new file: never another existing one.
    let write = json!({"file_path": format!("{root}/srcc/conftest.py"), "content": "x"});
    assert!(denial_reason(&claude(&repo, "Write", &write)).contains("PATH_NOT_FOUND"));
    // A word spelled twice in a command is ambiguous to rewrite.
    let twice = json!({"command": "cat scripts/rn.sh && wc -l scripts/rn.sh"});
    let answer = claude(&repo, "Bash", &twice);
    assert!(denial_reason(&answer).contains("PATH_NOT_FOUND"), "{answer}");
}

#[test]
fn each_protocol_with_a_rewrite_channel_is_answered_in_it() {
    let repo = project();
    let root = root(&repo);
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"reads\"\n");
    let codex = json!({"session_id": "c", "turn_id": "t", "cwd": root,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "cat src/mian.rs"}});
    let answer = json(&guard(&repo, "auto", &codex.to_string()));
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "allow", "{answer}");
    assert_eq!(corrected_input(&answer), &json!({"command": "cat src/main.rs"}));
    let cline = json!({"taskId": "t", "hookName": "tool_call", "workspaceRoots": [root],
        "tool_call": {"id": "1", "name": "read_files",
            "input": {"files": [{"path": format!("{root}/src/mian.rs")}]}},
        "preToolUse": {"toolName": "read_files", "parameters": {}}});
    let answer = json(&guard(&repo, "auto", &cline.to_string()));
    assert_eq!(
        answer["overrideInput"],
        json!({"files": [{"path": format!("{root}/src/main.rs")}]})
    );
    assert!(answer["contextModification"].as_str().expect("context").contains("src/main.rs"));
    assert_eq!(answer["cancel"], false);
    // patchgate's own format and Cursor have no rewrite: the call is denied as before.
    let generic = json!({"session_id": "g", "cwd": root, "tool_name": "Read",
        "tool_input": {"file_path": "src/mian.rs"}});
    let out = guard(&repo, "generic", &generic.to_string());
    assert_eq!((code(&out), json(&out)["error"]["code"].clone()), (2, json!("PATH_NOT_FOUND")));
}

#[test]
fn gemini_hears_what_was_corrected_after_the_call_once() {
    let repo = project();
    let root = root(&repo);
    repo.write(".patchgate.toml", "[guard]\ncorrect = \"reads\"\n");
    let event = |name: &str, path: &str| {
        let payload = json!({"session_id": "g", "cwd": root, "hook_event_name": name,
            "timestamp": "t", "tool_name": "read_file", "tool_input": {"file_path": path},
            "tool_response": {"llmContent": "fn main() {}"}});
        json(&guard(&repo, "auto", &payload.to_string()))
    };
    let before = event("BeforeTool", "src/mian.rs");
    assert_eq!(before["decision"], "allow");
    assert_eq!(before["hookSpecificOutput"]["tool_input"], json!({"file_path": "src/main.rs"}));
    // Gemini CLI hands the hook the rewritten input after the call.
    let after = event("AfterTool", "src/main.rs");
    let context = after["hookSpecificOutput"]["additionalContext"].as_str().expect("context");
    assert!(context.contains("'src/mian.rs' does not exist"), "{context}");
    assert_eq!(event("AfterTool", "src/main.rs"), json!({}), "delivered once");
}
