//! Aliases of excluded and protected paths: the spellings a file system takes for the same
//! name (case, trailing dots and spaces, NTFS streams and 8.3 short names, code points HFS+
//! ignores), which git already refuses for `.git`. On the machine that checks the change out
//! they are the same file, so `validate`, the commit hook and the guard refuse them as they
//! refuse the name itself.

use crate::guard::{guard, project, root};
use crate::support::{TestRepo, code, data, json};
use serde_json::{Value, json};

/// Spellings of `.github` on some file system git supports.
const GITHUB_ALIASES: &[&str] = &[
    ".GITHUB",
    ".GitHub",
    ".github.",
    ".github ",
    ".github::$INDEX_ALLOCATION",
    ".git\u{200c}hub",
    "GITHUB~1",
];

/// Spellings of `.patchgate.toml`.
const POLICY_ALIASES: &[&str] =
    &[".PATCHGATE.TOML", ".patchgate.toml.", ".patchgate.toml ", "PATCHG~1.TOM"];

/// husky and lefthook running patchgate's hook: their files are the gate's only then.
pub(crate) fn commit_gated_hooks(repo: &TestRepo) {
    let lefthook =
        "pre-commit:\n  commands:\n    gate:\n      run: patchgate hook run pre-commit\n";
    let husky = "patchgate hook run pre-commit\n";
    repo.commit(&[(".husky/pre-commit", husky), ("lefthook.yml", lefthook)], "hooks");
}

fn creation(path: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x\n"
    )
}

/// `validate` of a result creating `path`, under `step`; the verdict.
fn validate(repo: &TestRepo, step: &Value, path: &str) -> (i32, Value) {
    let io = tempfile::tempdir().expect("tempdir");
    let result = json!({"mode": "apply", "success": true, "patch": creation(path),
        "filesWritten": [path], "filesTouched": [path], "summary": "Add the file"});
    let (step_file, result_file) = (io.path().join("s.json"), io.path().join("r.json"));
    std::fs::write(&step_file, step.to_string()).expect("step");
    std::fs::write(&result_file, result.to_string()).expect("result");
    let out = repo
        .patchgate()
        .args(["validate", "--no-record", "--format", "json", "--report"])
        .arg(io.path().join("report.json"))
        .arg("--step")
        .arg(&step_file)
        .arg("--result")
        .arg(&result_file)
        .output()
        .expect("run");
    let report: Value =
        serde_json::from_slice(&std::fs::read(io.path().join("report.json")).unwrap_or_default())
            .unwrap_or_default();
    (code(&out), report)
}

fn first_code(report: &Value) -> String {
    report["violations"][0]["code"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn validate_refuses_every_spelling_of_an_excluded_or_protected_path() {
    let repo = TestRepo::new();
    repo.commit(
        &[("README.md", "# r\n"), (".patchgate.toml", "excluded = [\"secrets/**\"]\n")],
        "init",
    );
    commit_gated_hooks(&repo);
    let step = json!({"description": "Add the file", "allowedFiles": ["**"],
        "excludedPaths": [".github/**"]});
    for alias in GITHUB_ALIASES {
        let (exit, report) = validate(&repo, &step, &format!("{alias}/workflows/x.yml"));
        assert_eq!((exit, first_code(&report)), (1, "excluded_path".into()), "{alias:?}");
    }
    for path in ["SECRETS/key.pem", "Secrets./key.pem", "SECRET~1/key.pem"] {
        let (exit, report) = validate(&repo, &step, path);
        assert_eq!((exit, first_code(&report)), (1, "excluded_path".into()), "{path:?}");
    }
    for alias in POLICY_ALIASES.iter().chain(&[".HUSKY/pre-commit", "lefthook-local.yml"]) {
        let (exit, report) = validate(&repo, &step, alias);
        assert_eq!((exit, first_code(&report)), (1, "protected_path".into()), "{alias:?}");
    }
    // Names that are not aliases stay accepted.
    for path in ["github/x.yml", ".githubx/y.yml", "src/secrets.rs", "patchgate.toml"] {
        let (exit, report) = validate(&repo, &step, path);
        assert_eq!(exit, 0, "{path}: {report}");
    }
}

#[test]
fn the_commit_hook_blocks_every_spelling_of_an_excluded_path() {
    let repo = TestRepo::new();
    repo.commit(
        &[("src/a.rs", "a\n"), (".patchgate.toml", "excluded = [\".github/**\"]\n")],
        "policy",
    );
    let declared = repo.patchgate().args(["declare", "**"]).output().expect("declare");
    assert_eq!(code(&declared), 0);
    for alias in GITHUB_ALIASES {
        repo.write(&format!("{alias}/workflows/ci.yml"), "on: push\n");
        repo.git(&["add", "-A"]);
        let out = repo.patchgate().args(["--format", "json", "hook", "run", "pre-commit"]).output();
        let out = out.expect("hook");
        let report = data(&out);
        assert_eq!(code(&out), 1, "{alias:?}: {report}");
        assert_eq!(report["violations"][0]["reason"], "excluded", "{alias:?}");
        assert_eq!(report["violations"][0]["detail"], ".github/**", "{alias:?}");
        repo.git(&["rm", "-rq", "--cached", "."]);
        repo.git(&["reset", "-q", "HEAD"]);
        std::fs::remove_dir_all(repo.path().join(alias)).expect("clean");
    }
}

#[test]
fn the_guard_refuses_every_spelling_of_a_protected_path() {
    let repo = project();
    repo.commit(&[(".patchgate.toml", "excluded = [\"secrets/**\"]\n")], "policy");
    commit_gated_hooks(&repo);
    let root = root(&repo);
    let run = |tool: &str, input: Value| {
        let payload = json!({"session_id": "a", "cwd": root, "tool_name": tool,
            "tool_input": input});
        guard(&repo, "generic", &payload.to_string())
    };
    for alias in POLICY_ALIASES.iter().chain(&[".Husky/pre-commit", "LEFTHO~1.YML"]) {
        let write = run("Write", json!({"file_path": format!("{root}/{alias}"), "content": "x"}));
        let denied = (code(&write), json(&write)["error"]["code"].clone());
        assert_eq!(denied, (2, json!("PROTECTED_PATH")), "Write {alias:?}");
        for command in [format!("echo x > '{alias}'"), format!("rm -f '{alias}'")] {
            let out = run("Bash", json!({"command": command}));
            let denied = (code(&out), json(&out)["error"]["code"].clone());
            assert_eq!(denied, (2, json!("PROTECTED_PATH")), "{command}");
        }
    }
    for command in ["echo x > lefthook-local.yml", "touch .config/lefthook-local.toml"] {
        let out = run("Bash", json!({"command": command}));
        let denied = (code(&out), json(&out)["error"]["code"].clone());
        assert_eq!(denied, (2, json!("PROTECTED_PATH")), "{command}");
    }
    let fine =
        run("Write", json!({"file_path": format!("{root}/patchgate-notes.toml"), "content": "x"}));
    assert_eq!(code(&fine), 0, "{}", String::from_utf8_lossy(&fine.stdout));
}
