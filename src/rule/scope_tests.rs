//! The gate's own files: a hook manager's configuration is protected where the manager runs
//! patchgate, and only there; `.patchgate.toml` always.

use crate::patch::{ParseOptions, parse};
use crate::path::PathSet;
use crate::rule::{Base, Input, RulePolicy, Scope, evaluate};
use crate::step::{ExecutorResult, Step};

/// A base tree of (path, content) pairs.
#[derive(Debug)]
struct Tree {
    files: Vec<String>,
    contents: Vec<(&'static str, &'static str)>,
}

impl Tree {
    fn new(contents: &[(&'static str, &'static str)]) -> Self {
        Self {
            files: contents.iter().map(|(p, _)| (*p).to_owned()).collect(),
            contents: contents.to_vec(),
        }
    }
}

impl Base for Tree {
    fn contains(&self, path: &str) -> bool {
        self.files.iter().any(|f| f == path)
    }

    fn files(&self) -> &[String] {
        &self.files
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        self.contents.iter().find(|(p, _)| *p == path).map(|(_, c)| c.as_bytes().to_vec())
    }
}

/// The codes of the violations for a patch adding `line` to `path` (created when the base
/// has no such file), over `base` (`None`: no repository).
fn codes(base: Option<&Tree>, path: &str, line: &str) -> Vec<String> {
    let exists = base.is_some_and(|b| b.contains(path));
    let text = if exists {
        format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1,2 @@\n x\n+{line}\n"
        )
    } else {
        format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{line}\n"
        )
    };
    let parsed = parse(text.as_bytes(), &ParseOptions::default());
    let step = Step { description: format!("Update {path}"), ..Step::default() };
    let result = ExecutorResult {
        mode: "apply".into(),
        success: true,
        patch: Some(text.clone()),
        files_written: Some(vec![path.to_owned()]),
        files_touched: Some(vec![path.to_owned()]),
        summary: Some("done".into()),
    };
    let scope = Scope::new(&step, &PathSet::empty()).expect("no globs");
    let mut input = Input::new(&step, &result, Some(&parsed), None, &scope);
    if let Some(base) = base {
        input = input.with_base(base);
    }
    let found = evaluate(&input, &RulePolicy::default());
    found.violations.iter().map(|v| v.code.to_string()).collect()
}

const LINTERS: &str = "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n";
const GATED: &str =
    "pre-commit:\n  commands:\n    gate:\n      run: patchgate hook run pre-commit\n";

#[test]
fn a_hook_manager_that_runs_patchgate_is_the_gates_configuration() {
    let pre_commit = Tree::new(&[(".pre-commit-config.yaml", "repos:\n  - id: PatchGate\n")]);
    assert_eq!(codes(Some(&pre_commit), ".pre-commit-config.yaml", "x"), ["protected_path"]);
    // Every lefthook file, once one of them runs the gate (a new one can override it).
    let lefthook = Tree::new(&[("lefthook.yml", GATED)]);
    assert_eq!(codes(Some(&lefthook), "lefthook.yml", "x"), ["protected_path"]);
    assert_eq!(codes(Some(&lefthook), ".lefthook.yml", "x"), ["protected_path"]);
    // Husky: any file below .husky/ once one of its hooks runs the gate.
    let husky =
        Tree::new(&[(".husky/pre-commit", "npx lint-staged\npatchgate hook run pre-commit\n")]);
    assert_eq!(codes(Some(&husky), ".husky/pre-push", "exit 0"), ["protected_path"]);
}

#[test]
fn a_hook_manager_that_does_not_run_patchgate_is_ordinary_code() {
    let linters = Tree::new(&[(".pre-commit-config.yaml", LINTERS)]);
    assert!(codes(Some(&linters), ".pre-commit-config.yaml", "  - id: black").is_empty());
    let husky = Tree::new(&[(".husky/pre-commit", "npx lint-staged\n")]);
    assert!(codes(Some(&husky), ".husky/pre-commit", "npm test").is_empty());
    let nothing = Tree::new(&[("src/a.rs", "")]);
    assert!(codes(Some(&nothing), "lefthook.yml", "pre-commit:").is_empty());
    // Another manager's file naming patchgate does not make this one the gate's.
    let other = Tree::new(&[("lefthook.yml", GATED), (".pre-commit-config.yaml", LINTERS)]);
    assert!(codes(Some(&other), ".pre-commit-config.yaml", "  - id: black").is_empty());
}

#[test]
fn a_patch_that_makes_a_manager_run_patchgate_changes_the_gate() {
    let linters = Tree::new(&[(".pre-commit-config.yaml", LINTERS)]);
    let line = "  - repo: local # patchgate hook run pre-commit --no-verify";
    assert_eq!(codes(Some(&linters), ".pre-commit-config.yaml", line), ["protected_path"]);
}

#[test]
fn without_a_base_tree_every_manager_file_is_the_gates() {
    assert_eq!(codes(None, ".pre-commit-config.yaml", "x"), ["protected_path"]);
    assert_eq!(codes(None, ".husky/pre-commit", "x"), ["protected_path"]);
}

#[test]
fn the_policy_is_always_the_gates() {
    let tree = Tree::new(&[(".patchgate.toml", "excluded = []\n")]);
    assert_eq!(codes(Some(&tree), ".patchgate.toml", "x = 1"), ["protected_path"]);
}
