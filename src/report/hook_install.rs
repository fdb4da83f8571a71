//! Output of `patchgate hook install / uninstall / status`, and the snippets for hook managers.

use crate::hook::HookName;
use crate::hook::install::{Action, HookState, HooksDir, Manager, StateKind};
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of `hook status`.
#[derive(Debug, Serialize)]
pub struct StatusReport {
    /// The hooks directory git uses.
    pub hooks_dir: String,
    /// `core.hooksPath` when set.
    pub hooks_path: Option<String>,
    /// Hook managers found in the worktree (`husky`, `lefthook`, `pre-commit`).
    pub managers: Vec<&'static str>,
    /// One entry per hook patchgate knows.
    pub hooks: Vec<HookStatus>,
}

/// One hook in [`StatusReport`].
#[derive(Debug, Serialize)]
pub struct HookStatus {
    /// The hook name.
    pub hook: &'static str,
    /// Its file.
    pub path: String,
    /// `absent`, `patchgate`, `other`.
    pub state: &'static str,
    /// The chained original hook, when kept.
    pub chained: Option<String>,
    /// The binary the shim runs.
    pub binary: Option<String>,
    /// Whether that binary exists.
    pub binary_present: bool,
}

/// The JSON form of `hook install` / `hook uninstall`.
#[derive(Debug, Serialize)]
pub struct ActionReport {
    /// The hooks directory.
    pub hooks_dir: String,
    /// What was done per hook.
    pub hooks: Vec<ActionEntry>,
    /// When a hook manager is in charge: its name and the snippet to add (nothing was written).
    pub managers: Vec<ManagerAdvice>,
}

/// One hook in [`ActionReport`].
#[derive(Debug, Serialize)]
pub struct ActionEntry {
    /// The hook name.
    pub hook: &'static str,
    /// Its file.
    pub path: String,
    /// `installed`, `updated`, `removed`, `not_installed`.
    pub action: &'static str,
    /// The original hook kept aside (install) or put back (uninstall).
    pub chained: Option<String>,
}

/// What to add to a hook manager's configuration.
#[derive(Debug, Serialize)]
pub struct ManagerAdvice {
    /// `husky`, `lefthook`, `pre-commit`.
    pub manager: &'static str,
    /// The file to edit.
    pub file: String,
    /// The exact text to add.
    pub snippet: String,
}

fn manager_name(m: &Manager) -> &'static str {
    match m {
        Manager::Husky => "husky",
        Manager::Lefthook(_) => "lefthook",
        Manager::PreCommit => "pre-commit",
    }
}

impl StatusReport {
    /// Build from the resolved directory, the managers and the hook states.
    #[must_use]
    pub fn new(dir: &HooksDir, managers: &[Manager], states: &[HookState]) -> Self {
        Self {
            hooks_dir: dir.path.display().to_string(),
            hooks_path: dir.hooks_path.clone(),
            managers: managers.iter().map(manager_name).collect(),
            hooks: states.iter().map(hook_status).collect(),
        }
    }
}

fn hook_status(s: &HookState) -> HookStatus {
    HookStatus {
        hook: s.hook.as_str(),
        path: s.path.display().to_string(),
        state: match s.kind {
            StateKind::Absent => "absent",
            StateKind::Patchgate => "patchgate",
            StateKind::Other => "other",
        },
        chained: s.chained.as_ref().map(|p| p.display().to_string()),
        binary: s.binary.clone(),
        binary_present: s.is_binary_present,
    }
}

impl ActionReport {
    /// Hooks written or removed.
    #[must_use]
    pub fn done(dir: &HooksDir, actions: &[Action]) -> Self {
        let hooks = actions
            .iter()
            .map(|a| ActionEntry {
                hook: a.hook.as_str(),
                path: a.path.display().to_string(),
                action: a.action,
                chained: a.chained.as_ref().map(|p| p.display().to_string()),
            })
            .collect();
        Self { hooks_dir: dir.path.display().to_string(), hooks, managers: Vec::new() }
    }

    /// A hook manager is in charge: the snippets for `hooks`.
    #[must_use]
    pub fn managed(dir: &HooksDir, managers: &[Manager], hooks: &[HookName]) -> Self {
        let managers = managers.iter().map(|m| advice(m, hooks)).collect();
        Self { hooks_dir: dir.path.display().to_string(), hooks: Vec::new(), managers }
    }
}

fn advice(m: &Manager, hooks: &[HookName]) -> ManagerAdvice {
    let client: Vec<&str> =
        hooks.iter().filter(|h| **h != HookName::PreReceive).map(|h| h.as_str()).collect();
    let (file, snippet) = match m {
        Manager::Husky => husky(&client),
        Manager::Lefthook(file) => (file.display().to_string(), lefthook(&client)),
        Manager::PreCommit => (".pre-commit-config.yaml".to_owned(), pre_commit()),
    };
    ManagerAdvice { manager: manager_name(m), file, snippet }
}

fn husky(hooks: &[&str]) -> (String, String) {
    let files: Vec<String> = hooks.iter().map(|h| format!(".husky/{h}")).collect();
    let mut snippet = String::new();
    for h in hooks {
        let _ = writeln!(snippet, "echo 'patchgate hook run {h}' >> .husky/{h}");
    }
    (files.join(", "), snippet)
}

fn lefthook(hooks: &[&str]) -> String {
    let mut out = String::new();
    for h in hooks {
        let _ =
            write!(out, "{h}:\n  commands:\n    patchgate:\n      run: patchgate hook run {h}\n");
    }
    out
}

fn pre_commit() -> String {
    "repos:\n  - repo: local\n    hooks:\n      - id: patchgate\n        name: patchgate\n        \
     entry: patchgate hook run pre-commit\n        language: system\n        \
     pass_filenames: false\n        always_run: true\n        stages: [pre-commit]\n"
        .to_owned()
}

/// The text form of `hook status`.
#[must_use]
pub fn status_text(report: &StatusReport) -> String {
    let mut out = format!("hooks directory: {}", report.hooks_dir);
    if let Some(p) = &report.hooks_path {
        let _ = write!(out, " (core.hooksPath = {p})");
    }
    out.push('\n');
    for h in &report.hooks {
        let _ = write!(out, "{:<15} {}", h.hook, h.state);
        if let Some(b) = &h.binary {
            let _ = write!(out, "  runs {b}{}", if h.binary_present { "" } else { " (MISSING)" });
        }
        if let Some(c) = &h.chained {
            let _ = write!(out, "  chains {c}");
        }
        out.push('\n');
    }
    for m in &report.managers {
        let _ = writeln!(out, "hook manager: {m}");
    }
    out
}

/// The text form of `hook install` / `hook uninstall`.
#[must_use]
pub fn action_text(report: &ActionReport) -> String {
    let mut out = String::new();
    for h in &report.hooks {
        let _ = write!(out, "{:<15} {}  {}", h.hook, h.action.replace('_', " "), h.path);
        if let Some(c) = &h.chained {
            let _ = write!(out, "  (existing hook kept as {c})");
        }
        out.push('\n');
    }
    for m in &report.managers {
        let _ = write!(
            out,
            "this repository's hooks are managed by {}, which bypasses or overwrites the hooks \
             patchgate would write; add patchgate to {} instead:\n\n{}\n",
            m.manager, m.file, m.snippet
        );
    }
    if !report.managers.is_empty() {
        out.push_str("(or install anyway with 'patchgate hook install --force')\n");
    }
    out
}
