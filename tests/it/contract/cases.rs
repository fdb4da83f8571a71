//! Fixture cases: `fixtures/contract/<case>/reply.txt` run through the real binary with the
//! arguments in `case.json`, then compared with `expected.json` (the whole JSON envelope, its
//! `meta.version` written as `VERSION`, and exit code; `PATCHGATE_BLESS=1` rewrites it).
//!
//! `case.json` is authored and never rewritten: `note` (why the case exists), `args` (the
//! command), `exit`, and the `violations` and `warnings` codes the reply must produce, so a
//! bless cannot quietly accept a wrong verdict. `contract executor-output` cases run with
//! `--root` at a scratch tree holding [`ROOT_FILES`].

use crate::support::{code, fixtures, json, patchgate};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The sandbox every executor-output case resolves its paths in.
const ROOT_FILES: [&str; 4] = ["src/a.rs", "src/lib.rs", "docs/guide.md", "README.md"];

struct Case {
    name: String,
    dir: PathBuf,
    authored: Value,
}

impl Case {
    fn all() -> Vec<Case> {
        let mut cases: Vec<Case> = std::fs::read_dir(fixtures().join("contract"))
            .expect("fixtures/contract exists")
            .map(|e| e.expect("readable fixture entry").path())
            .filter(|dir| dir.join("case.json").is_file())
            .map(|dir| {
                let text = std::fs::read_to_string(dir.join("case.json")).expect("case.json");
                let authored = serde_json::from_str(&text).expect("case.json is JSON");
                let name = dir.file_name().expect("named").to_string_lossy().into_owned();
                Case { name, dir, authored }
            })
            .collect();
        cases.sort_by(|a, b| a.name.cmp(&b.name));
        cases
    }

    fn codes(&self, key: &str) -> Vec<String> {
        let list = self.authored[key].as_array().cloned().unwrap_or_default();
        sorted(list.iter().filter_map(Value::as_str).map(str::to_owned).collect())
    }

    /// Run the case; `(exit, output)`.
    fn run(&self, sandbox: &Path) -> (i32, Value) {
        let args: Vec<&str> = self.authored["args"]
            .as_array()
            .expect("args")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let mut cmd = patchgate();
        cmd.current_dir(sandbox).args(&args);
        if args.get(1) == Some(&"executor-output") {
            cmd.arg("--root").arg(sandbox);
        }
        let out = cmd.arg(self.dir.join("reply.txt")).output().expect("run patchgate");
        let mut output = json(&out);
        // The version changes with every release; the envelope's test checks it.
        output["meta"]["version"] = json!("VERSION");
        (code(&out), output)
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn found(output: &Value, key: &str) -> Vec<String> {
    let list = output["data"][key].as_array().cloned().unwrap_or_default();
    sorted(list.iter().filter_map(|f| f["code"].as_str()).map(str::to_owned).collect())
}

fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for file in ROOT_FILES {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "x\n").expect("write");
    }
    dir
}

#[test]
fn every_contract_fixture() {
    let bless = std::env::var_os("PATCHGATE_BLESS").is_some_and(|v| v == "1");
    let sandbox = sandbox();
    let cases = Case::all();
    assert!(cases.len() >= 50, "fixtures/contract has only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (exit, output) = case.run(sandbox.path());
        let observed = json!({ "exit": exit, "output": output });
        let authored_ok = case.authored["exit"] == exit
            && case.codes("violations") == found(&output, "violations")
            && case.codes("warnings") == found(&output, "warnings");
        if !authored_ok {
            failures.push(format!("{}: case.json disagrees with {observed}", case.name));
            continue;
        }
        let path = case.dir.join("expected.json");
        if bless {
            let text = serde_json::to_string_pretty(&observed).expect("serialize") + "\n";
            std::fs::write(&path, text).expect("write expected.json");
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let expected: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if expected != observed {
            failures
                .push(format!("{}: output differs from expected.json:\n{observed:#}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) fail (PATCHGATE_BLESS=1 rewrites expected.json):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
