//! Fixture cases: `fixtures/parse/<case>/patch.diff` run through `patchgate parse --format json`,
//! compared with `expected.json`, and checked against `git apply --stat` (the oracle), and
//! `git apply --check` where the case ships the tree it applies to (`base/`).
//!
//! `expected.json` holds authored keys (`args`: extra arguments such as `--lenient`;
//! `near_miss_of`: defect codes this accepted case nearly triggers; `git_gap`: why patchgate
//! rejects what git accepts) and observed keys (`exit`, `files`, `defects`, `warnings`) in a
//! compact normalised form. `PATCHGATE_BLESS=1` rewrites the observed keys.

use crate::support::{code, data, fixtures, patchgate};
use patchgate::patch::DefectCode;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const AUTHORED: [&str; 3] = ["args", "near_miss_of", "git_gap"];

/// One fixture directory.
struct Case {
    name: String,
    dir: PathBuf,
    expected: Map<String, Value>,
}

impl Case {
    fn all() -> Vec<Case> {
        let root = fixtures().join("parse");
        let mut cases: Vec<Case> = std::fs::read_dir(&root)
            .expect("fixtures/parse exists")
            .map(|entry| entry.expect("readable fixture entry").path())
            .filter(|dir| dir.join("patch.diff").is_file())
            .map(|dir| {
                let text = std::fs::read_to_string(dir.join("expected.json")).unwrap_or_default();
                let expected = serde_json::from_str(&text).unwrap_or_default();
                let name = dir.file_name().expect("named").to_string_lossy().into_owned();
                Case { name, dir, expected }
            })
            .collect();
        cases.sort_by(|a, b| a.name.cmp(&b.name));
        assert!(cases.len() > 50, "fixtures/parse has only {} cases", cases.len());
        cases
    }

    fn patch(&self) -> PathBuf {
        self.dir.join("patch.diff")
    }

    fn args(&self) -> Vec<String> {
        let args = self.expected.get("args").and_then(Value::as_array);
        args.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
    }

    fn authored(&self) -> Map<String, Value> {
        self.expected
            .iter()
            .filter(|(k, _)| AUTHORED.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Run the real binary and normalise its JSON.
    fn observe(&self) -> Map<String, Value> {
        let out = patchgate()
            .args(["parse", "--format", "json"])
            .args(self.args())
            .arg(self.patch())
            .output()
            .expect("run patchgate");
        let report = data(&out);
        let mut observed = Map::new();
        observed.insert("exit".into(), json!(code(&out)));
        observed.insert("files".into(), files(&report));
        observed.insert("defects".into(), located(&report["defects"]));
        observed.insert("warnings".into(), located(&report["warnings"]));
        assert_eq!(
            report["ok"],
            json!(code(&out) == 0),
            "{}: ok and exit code disagree",
            self.name
        );
        observed
    }

    fn defect_codes(&self) -> BTreeSet<String> {
        let defects = self.expected.get("defects").and_then(Value::as_array);
        defects
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter_map(|d| d.split('@').next())
            .map(str::to_owned)
            .collect()
    }

    fn near_misses(&self) -> BTreeSet<String> {
        let near = self.expected.get("near_miss_of").and_then(Value::as_array);
        near.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
    }
}

/// `code@line` for each defect or warning.
fn located(items: &Value) -> Value {
    let items = items.as_array().into_iter().flatten();
    Value::Array(
        items
            .map(|d| {
                json!(format!("{}@{}", d["code"].as_str().expect("code is a string"), d["line"]))
            })
            .collect(),
    )
}

/// Each file with its paths, operation, modes, binary form and compact hunks.
fn files(report: &Value) -> Value {
    let files = report["files"].as_array().expect("files array");
    let files = files.iter().map(|f| {
        let hunks = f["hunks"].as_array().expect("hunks array").iter().map(|h| {
            json!(format!(
                "-{},{} +{},{} (+{} -{})",
                h["old_start"],
                h["old_count"],
                h["new_start"],
                h["new_count"],
                h["added"],
                h["removed"]
            ))
        });
        json!({
            "old_path": f["old_path"], "new_path": f["new_path"], "operation": f["operation"],
            "old_mode": f["old_mode"], "new_mode": f["new_mode"], "binary": f["binary"],
            "hunks": hunks.collect::<Vec<_>>(),
        })
    });
    Value::Array(files.collect())
}

fn is_blessing() -> bool {
    std::env::var_os("PATCHGATE_BLESS").is_some_and(|v| v == "1")
}

#[test]
fn fixtures_match_their_expectations() {
    let mut failures = Vec::new();
    for case in Case::all() {
        let observed = case.observe();
        let mut merged = case.authored();
        merged.extend(observed.clone());
        if is_blessing() {
            let text = serde_json::to_string_pretty(&merged).unwrap() + "\n";
            std::fs::write(case.dir.join("expected.json"), text).unwrap();
            continue;
        }
        let expected: Map<String, Value> = case
            .expected
            .iter()
            .filter(|(k, _)| !AUTHORED.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if expected != observed {
            failures.push(format!(
                "{}:\n  expected {}\n  observed {}",
                case.name,
                Value::Object(expected),
                Value::Object(observed)
            ));
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
fn every_defect_code_has_a_rejected_and_a_near_miss_fixture() {
    let cases = Case::all();
    let rejected: BTreeSet<String> = cases.iter().flat_map(Case::defect_codes).collect();
    let accepted_near: BTreeSet<String> = cases
        .iter()
        .filter(|c| c.expected.get("exit") == Some(&json!(0)))
        .flat_map(Case::near_misses)
        .collect();
    let missing: Vec<String> = DefectCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .filter(|c| !rejected.contains(c) || !accepted_near.contains(c))
        .map(|c| {
            format!(
                "{c} (rejected: {}, near miss: {})",
                rejected.contains(&c),
                accepted_near.contains(&c)
            )
        })
        .collect();
    assert!(missing.is_empty(), "codes without fixtures: {missing:?}");
}

/// Run `git apply ARGS PATCH` in `dir` (outside any repository); whether git accepts.
fn git_apply(dir: &Path, args: &[&str], patch: &Path) -> bool {
    let out = Command::new("git")
        .current_dir(dir)
        .arg("apply")
        .args(args)
        .arg(patch)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", dir)
        .output()
        .expect("git is installed");
    out.status.success()
}

/// `git apply --stat`: does git parse the fixture?
fn git_accepts(patch: &Path) -> bool {
    let scratch = tempfile::tempdir().expect("tempdir");
    git_apply(scratch.path(), &["--stat"], patch)
}

/// Copy `from` into `to`, keeping symbolic links and modes (`.keep` marks an empty tree).
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("readable base tree") {
        let entry = entry.expect("readable base entry");
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().expect("file type");
        if kind.is_symlink() {
            let link = std::fs::read_link(&source).expect("read link");
            std::os::unix::fs::symlink(link, &target).expect("create link");
        } else if kind.is_dir() {
            std::fs::create_dir(&target).expect("mkdir");
            copy_tree(&source, &target);
        } else if entry.file_name() != ".keep" {
            std::fs::copy(&source, &target).expect("copy base file");
        }
    }
}

/// `git apply --check` against the fixture's `base/` tree, when it ships one.
fn git_applies_to_base(case: &Case) -> Option<bool> {
    let base = case.dir.join("base");
    if !base.is_dir() {
        return None;
    }
    let scratch = tempfile::tempdir().expect("tempdir");
    copy_tree(&base, scratch.path());
    Some(git_apply(scratch.path(), &["--check"], &case.patch()))
}

#[test]
fn oracle_git_apply_agrees_or_the_gap_is_explained() {
    let mut problems = Vec::new();
    for case in Case::all() {
        let is_accepted = case.expected.get("exit") == Some(&json!(0));
        let is_git_ok = git_accepts(&case.patch());
        let gap = case.expected.get("git_gap").and_then(Value::as_str);
        let is_checked = git_applies_to_base(&case);
        let problem = match (is_accepted, is_git_ok, gap) {
            _ if is_accepted && is_checked == Some(false) => Some(
                "patchgate accepts what `git apply --check` refuses on the fixture's base tree",
            ),
            (true, false, _) => Some("patchgate accepts what `git apply --stat` rejects"),
            (false, true, None) => {
                Some("patchgate rejects what git accepts, and no `git_gap` says why")
            }
            (_, false, Some(_)) | (true, true, Some(_)) => {
                Some("`git_gap` is stale: git and patchgate do not disagree")
            }
            _ => None,
        };
        if let Some(problem) = problem {
            problems.push(format!("{}: {problem}", case.name));
        }
    }
    assert!(problems.is_empty(), "oracle disagreements:\n{}", problems.join("\n"));
}
