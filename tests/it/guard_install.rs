//! `patchgate guard install / uninstall` through the binary, in a throwaway project and home:
//! the files each agent reads, merged into settings already there, written all or none, put
//! back byte for byte; the fail-closed wrapper and the guard's own deadline.

use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A project and a home for the agents' user settings.
struct Setup {
    repo: TestRepo,
    home: tempfile::TempDir,
    /// `$XDG_STATE_HOME`, where install keeps its records (apart, so snapshots of the home
    /// hold only the agents' files).
    state: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let repo = TestRepo::new();
        repo.commit(&[("src/main.rs", "fn main() {}\n")], "base");
        let home = tempfile::tempdir().expect("home");
        Self { repo, home, state: tempfile::tempdir().expect("state") }
    }

    fn home(&self) -> &Path {
        self.home.path()
    }

    fn root(&self) -> PathBuf {
        std::fs::canonicalize(self.repo.path()).expect("project resolves")
    }

    /// `patchgate guard ARGS` with this home and no agent variables; `patchgate` not on PATH.
    fn run(&self, args: &[&str]) -> Output {
        let mut cmd = self.repo.patchgate();
        cmd.arg("guard").args(args).env("HOME", self.home());
        for var in ["CODEX_HOME", "CLAUDE_CONFIG_DIR", "CLINE_DIR"] {
            cmd.env_remove(var);
        }
        cmd.env("XDG_STATE_HOME", self.state.path());
        cmd.env("PATH", "/usr/bin:/bin");
        cmd.output().expect("run patchgate")
    }

    /// `patchgate guard ARGS` with a `patchgate` on PATH that is the binary under test.
    fn run_on_path(&self, args: &[&str]) -> Output {
        let bin = tempfile::tempdir().expect("bin dir");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_patchgate"), bin.path().join("patchgate"))
            .expect("link the binary");
        let mut cmd = self.repo.patchgate();
        cmd.arg("guard").args(args).env("HOME", self.home());
        cmd.env("XDG_STATE_HOME", self.state.path()).env_remove("CODEX_HOME");
        cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()));
        cmd.output().expect("run patchgate")
    }

    /// Every file under the project (without `.git`) and the home, with its bytes.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        for top in [self.root(), self.home().to_path_buf()] {
            walk(&top, &mut files);
        }
        files
    }
}

fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.ends_with(".git") {
            continue;
        }
        if path.is_dir() {
            out.insert(path.join(""), Vec::new());
            walk(&path, out);
        } else {
            out.insert(path.clone(), std::fs::read(&path).expect("read file"));
        }
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("settings file")).expect("JSON")
}

/// Every handler command under `hooks` of an agent's JSON settings.
fn commands(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for groups in settings["hooks"].as_object().expect("hooks").values() {
        for group in groups.as_array().expect("list") {
            let handlers = group.get("hooks").and_then(Value::as_array).cloned();
            for handler in handlers.unwrap_or_else(|| vec![group.clone()]) {
                out.push(handler["command"].as_str().expect("command").to_owned());
            }
        }
    }
    out
}

#[test]
fn install_writes_every_agent_s_files_failing_closed_and_uninstall_removes_them_all() {
    let setup = Setup::new();
    let before = setup.snapshot();
    let out = setup.run(&["install", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out)["data"].clone();
    let actions: Vec<&str> =
        report["files"].as_array().unwrap().iter().map(|f| f["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["created"; 7]);
    let root = setup.root();
    let binary = std::fs::canonicalize(env!("CARGO_BIN_EXE_patchgate")).unwrap();
    let wrapper = patchgate::guard::install::wrapper(binary.to_str().unwrap());
    for file in [
        ".claude/settings.json",
        ".gemini/settings.json",
        ".codex/hooks.json",
        ".cursor/hooks.json",
    ] {
        let settings = read_json(&root.join(file));
        let commands = commands(&settings);
        assert!(
            !commands.is_empty() && commands.iter().all(|c| *c == wrapper),
            "{file}: {commands:?}"
        );
    }
    assert_eq!(read_json(&root.join(".cursor/hooks.json"))["version"], 1);
    let config = std::fs::read_to_string(setup.home().join(".codex/config.toml")).unwrap();
    assert!(config.starts_with("[features]\nhooks = true\n"), "{config}");
    assert_eq!(config.matches("trusted_hash = \"sha256:").count(), 3, "{config}");
    for event in ["PreToolUse", "PostToolUse"] {
        let script = root.join(".clinerules/hooks").join(event);
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&script).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o755);
    }
    // Again: nothing changes.
    let again = setup.run(&["install", "--format", "json"]);
    let actions = json(&again)["data"]["files"].as_array().unwrap().clone();
    assert!(actions.iter().all(|f| f["action"] == "unchanged"), "{actions:?}");
    let out = setup.run(&["uninstall"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(setup.snapshot(), before, "every file and directory install made is gone");
}

#[test]
fn settings_already_there_are_merged_into_and_put_back_byte_for_byte() {
    let setup = Setup::new();
    let root = setup.root();
    let claude = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]\n            }\n        ]\n    }\n}\n";
    setup.repo.write(".claude/settings.json", claude);
    let gemini = setup.home().join(".gemini/settings.json");
    std::fs::create_dir_all(gemini.parent().unwrap()).unwrap();
    std::fs::write(&gemini, "{\"security\": {\"folderTrust\": {\"enabled\": false}}}").unwrap();
    let config = setup.home().join(".codex/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        "# my settings\nmodel = \"o3\"  # pinned\n\n[features]\nweb_search = true\n",
    )
    .unwrap();
    let before = setup.snapshot();
    for (agent, scope) in [("claude-code", "project"), ("gemini-cli", "user"), ("codex", "project")]
    {
        let out = setup.run(&["install", "--agent", agent, "--scope", scope]);
        assert_eq!(code(&out), 0, "{agent}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let merged = std::fs::read_to_string(root.join(".claude/settings.json")).unwrap();
    assert!(
        merged.starts_with(
            "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"PreToolUse\": [\n"
        ),
        "indentation kept: {merged}"
    );
    let settings: Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./lint.sh");
    assert_eq!(settings["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
    assert_eq!(read_json(&gemini)["security"]["folderTrust"]["enabled"], false);
    let merged_config = std::fs::read_to_string(&config).unwrap();
    assert!(merged_config.starts_with("# my settings\nmodel = \"o3\"  # pinned\n\n[features]\nweb_search = true\nhooks = true\n"), "{merged_config}");
    for (agent, scope) in [("claude-code", "project"), ("gemini-cli", "user"), ("codex", "project")]
    {
        let out = setup.run(&["uninstall", "--agent", agent, "--scope", scope]);
        assert_eq!(code(&out), 0, "{agent}: {}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(setup.snapshot(), before);
}

#[test]
fn a_file_changed_since_install_loses_only_patchgate_s_hooks() {
    let setup = Setup::new();
    setup.run(&["install", "--agent", "claude-code"]);
    let path = setup.root().join(".claude/settings.json");
    let mut settings = read_json(&path);
    settings["permissions"] = json!({"allow": ["Bash(ls)"]});
    std::fs::write(&path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    let out = setup.run(&["uninstall", "--agent", "claude-code", "--format", "json"]);
    assert_eq!(json(&out)["data"]["files"][0]["action"], "stripped");
    assert_eq!(read_json(&path), json!({"permissions": {"allow": ["Bash(ls)"]}}));
}

#[test]
fn a_forged_record_never_puts_a_hook_back() {
    let setup = Setup::new();
    setup.run(&["install", "--agent", "claude-code"]);
    let path = setup.root().join(".claude/settings.json");
    // What code the agent runs could write: a record claiming the file held another hook
    // before, one that install would replace (it names patchgate guard).
    let evil = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "/tmp/evil/patchgate guard"}]}]}});
    let records = setup.state.path().join("patchgate/guard-install");
    for entry in std::fs::read_dir(&records).unwrap().flatten() {
        let mut record = read_json(&entry.path());
        record["original"] = json!(serde_json::to_string_pretty(&evil).unwrap() + "\n");
        std::fs::write(entry.path(), record.to_string()).unwrap();
    }
    let out = setup.run(&["uninstall", "--agent", "claude-code", "--format", "json"]);
    assert_eq!(json(&out)["data"]["files"][0]["action"], "stripped");
    let left = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(!left.contains("evil"), "{left}");
}

#[test]
fn a_settings_path_that_cannot_be_read_refuses_the_whole_request() {
    let setup = Setup::new();
    // Cursor's directory is a file: its hooks cannot be written, so none are.
    setup.repo.write(".cursor", "not a directory\n");
    let before = setup.snapshot();
    let out = setup.run(&["install"]);
    assert_eq!(code(&out), 3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".cursor") && stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(setup.snapshot(), before);
}

#[test]
fn settings_it_cannot_merge_into_or_that_lead_elsewhere_are_refused() {
    let setup = Setup::new();
    setup.repo.write(".gemini/settings.json", "{\n  // my comment\n  \"a\": 1\n}\n");
    let out = setup.run(&["install", "--agent", "gemini-cli"]);
    assert_eq!(code(&out), 3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not plain JSON"));
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), setup.repo.path().join(".claude")).unwrap();
    let out = setup.run(&["install", "--agent", "claude-code"]);
    assert_eq!(code(&out), 3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("symbolic link"));
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[test]
fn hooks_run_the_patchgate_on_path_by_name_when_it_is_this_one() {
    let setup = Setup::new();
    assert_eq!(code(&setup.run_on_path(&["install", "--agent", "cline"])), 0);
    let script =
        std::fs::read_to_string(setup.root().join(".clinerules/hooks/PreToolUse")).unwrap();
    assert_eq!(script, patchgate::guard::install::cline_script("patchgate"));
}

/// Run `command` the way an agent runs a hook, with `payload` on stdin.
fn hook(command: &str, path: &str, payload: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new("/bin/sh")
        .args(["-c", command])
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sh");
    // A hook whose command cannot start never reads its payload: the pipe may be closed.
    let _ = child.stdin.take().expect("stdin").write_all(payload.as_bytes());
    child.wait_with_output().expect("sh finishes")
}

#[test]
fn the_wrapper_blocks_every_call_when_patchgate_cannot_run() {
    let setup = Setup::new();
    let payload = json!({"session_id": "s", "cwd": setup.root(), "hook_event_name": "PreToolUse",
        "tool_name": "Read", "tool_input": {"file_path": setup.root().join("src/main.rs")}})
    .to_string();
    let missing = patchgate::guard::install::wrapper("patchgate");
    let out = hook(&missing, "/usr/bin:/bin", &payload);
    assert_eq!(code(&out), 2, "exit 2 is what Claude Code, Gemini CLI and Codex block on");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("patchgate guard could not run (exit 127)")
    );
    // With patchgate there, the answer passes through unchanged (an allow: `{}`).
    let present = patchgate::guard::install::wrapper(env!("CARGO_BIN_EXE_patchgate"));
    let out = hook(&present, "/usr/bin:/bin", &payload);
    assert_eq!((code(&out), json(&out)), (0, json!({})));
    // Cline runs a call whose hook fails, so its script answers `cancel` instead.
    let script = patchgate::guard::install::cline_script("patchgate");
    let out = hook(&script, "/usr/bin:/bin", "{}");
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out)["cancel"], true);
}

#[test]
fn a_guard_that_cannot_answer_in_time_blocks_the_call() {
    let setup = Setup::new();
    let mut cmd = setup.repo.patchgate();
    // The payload never ends: the guard cannot answer.
    cmd.args(["guard", "--protocol", "claude-code", "--timeout", "0.5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let _stdin = child.stdin.take();
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("GUARD_ERROR: no answer within 0.5 s"));
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn the_guard_page_shows_what_install_writes() {
    let setup = Setup::new();
    assert_eq!(code(&setup.run_on_path(&["install"])), 0);
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands/guard.md"),
    )
    .unwrap();
    let root = setup.root();
    let mut shown = Vec::new();
    for part in page.split("<!-- guard install: ").skip(1) {
        let (marker, rest) = part.split_once(" -->\n```").expect("a block follows the marker");
        let (agent, file) = marker.split_once(' ').expect("agent and file");
        let body = rest.split_once('\n').expect("fence line").1;
        let block = body.split_once("```").expect("closing fence").0;
        let path = match file.strip_prefix("~/") {
            Some(rel) => setup.home().join(rel),
            None => root.join(file),
        };
        let written = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let written = written.replace(root.to_str().unwrap(), "/path/to/project");
        assert_eq!(block, written, "{agent} {file}: the page shows other bytes than install wrote");
        shown.push(agent.to_owned());
    }
    shown.dedup();
    assert_eq!(shown, ["claude-code", "gemini-cli", "codex", "cursor", "cline"]);
    let hooks = root.join(".clinerules/hooks");
    assert_eq!(
        std::fs::read(hooks.join("PreToolUse")).unwrap(),
        std::fs::read(hooks.join("PostToolUse")).unwrap()
    );
}
