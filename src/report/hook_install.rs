//! Output of `patchgate hook install / uninstall / status`, and the snippets for hook managers.

use super::{Notice, NoticeCode};
use crate::finding::ErrorCode;
use crate::hook::install::{Action, HookState, HooksDir, Manager, Orphan, StateKind};
use crate::hook::managers::Advice;
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of `hook status`.
#[derive(Debug, Serialize)]
pub struct StatusReport {
    /// The hooks directory git uses.
    pub hooks_dir: String,
    /// `core.hooksPath` when set.
    pub hooks_path: Option<String>,
    /// Whether git tracks files in the hooks directory (shims there are shared changes).
    pub tracked: bool,
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
    /// The binary the shim runs (`null` for a shim that runs the `patchgate` on `PATH`).
    pub binary: Option<String>,
    /// Whether that binary exists (for a `PATH` shim: whether `PATH` has one).
    pub binary_present: bool,
    /// A kept original left beside a hook that is not the shim: `shim_gone`, `duplicate`
    /// (a checkout put the original back), `conflict` (the two differ).
    pub orphan: Option<&'static str>,
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
    /// What the user should know (shims written into tracked files).
    pub warnings: Vec<String>,
    /// After an install: what the hook needs next (a declaration), and the per-step command.
    pub next: Option<String>,
}

/// Said after an install: without a declaration the hook blocks only what the policy excludes,
/// and a declaration outlives the commit, so a multi-step loop replaces it at each step.
pub const NEXT_DECLARE: &str = "the hook enforces only .patchgate.toml (its exclusions, and \
    `require_declaration`) until 'patchgate declare' records what the work may change; a \
    declaration stays until replaced, so at each step run \
    'patchgate declare --replace --from-step step.json' (or --from-result result.json), and \
    'patchgate declare --clear' when the work is done";

/// One hook in [`ActionReport`].
#[derive(Debug, Serialize)]
pub struct ActionEntry {
    /// The hook name.
    pub hook: &'static str,
    /// Its file.
    pub path: String,
    /// `installed`, `updated`; `removed`, `restored`, `orphan_restored`, `orphan_removed`,
    /// `orphan_kept`, `not_installed` (see `hook::install::Action`).
    pub action: &'static str,
    /// The original hook kept aside (install) or put back (uninstall).
    pub chained: Option<String>,
}

/// What to add to a hook manager's configuration.
#[derive(Debug, Serialize)]
pub struct ManagerAdvice {
    /// `husky`, `lefthook`, `pre-commit`.
    pub manager: &'static str,
    /// The file to edit (created when missing).
    pub file: String,
    /// The exact lines to add.
    pub snippet: String,
    /// Insert them after this 1-based line of the file (0: at the top).
    pub after_line: usize,
    /// Where, in words.
    pub placement: String,
    /// What the manager cannot do (the pre-commit framework and `git am`).
    pub caveat: Option<String>,
}

impl StatusReport {
    /// Build from the resolved directory, the managers and the hook states.
    #[must_use]
    pub fn new(dir: &HooksDir, managers: &[Manager], states: &[HookState]) -> Self {
        Self {
            hooks_dir: dir.path.display().to_string(),
            hooks_path: dir.hooks_path.clone(),
            tracked: dir.is_tracked,
            managers: managers.iter().map(Manager::name).collect(),
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
        orphan: s.orphan.map(|o| match o {
            Orphan::ShimGone => "shim_gone",
            Orphan::Duplicate => "duplicate",
            Orphan::Conflict => "conflict",
        }),
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
        let mut warnings = Vec::new();
        let wrote = actions.iter().any(|a| matches!(a.action, "installed" | "updated"));
        if dir.is_tracked && wrote {
            warnings.push(format!(
                "git tracks files in {}, so these shims change tracked files: commit them to \
                 gate every clone (they run the patchgate on PATH, no path of this machine)",
                dir.path.display()
            ));
        }
        let next = wrote.then(|| NEXT_DECLARE.to_owned());
        Self {
            hooks_dir: dir.path.display().to_string(),
            hooks,
            managers: Vec::new(),
            warnings,
            next,
        }
    }

    /// A hook manager is in charge: what to add to its configuration.
    #[must_use]
    pub fn managed(dir: &HooksDir, advice: &[Advice]) -> Self {
        let managers = advice
            .iter()
            .map(|a| ManagerAdvice {
                manager: a.manager,
                file: a.file.display().to_string(),
                snippet: a.snippet.clone(),
                after_line: a.after_line,
                placement: a.placement.clone(),
                caveat: a.caveat.clone(),
            })
            .collect();
        let hooks_dir = dir.path.display().to_string();
        Self { hooks_dir, hooks: Vec::new(), managers, warnings: Vec::new(), next: None }
    }
}

/// The text form of `hook status`.
#[must_use]
pub fn status_text(report: &StatusReport) -> String {
    let mut out = format!("hooks directory: {}", report.hooks_dir);
    if let Some(p) = &report.hooks_path {
        let _ = write!(out, " (core.hooksPath = {p})");
    }
    out.push('\n');
    if report.tracked {
        out.push_str("(git tracks files in it: shims there are shared with every clone)\n");
    }
    for h in &report.hooks {
        let _ = write!(out, "{:<15} {}", h.hook, h.state);
        let missing = if h.binary_present { "" } else { " (MISSING)" };
        match (&h.binary, h.state) {
            (Some(b), _) => {
                let _ = write!(out, "  runs {b}{missing}");
            }
            (None, "patchgate") => {
                let _ = write!(out, "  runs patchgate from PATH{missing}");
            }
            _ => {}
        }
        if let Some(c) = &h.chained {
            let _ = write!(out, "  {} {c}", orphan_text(h.orphan));
        }
        out.push('\n');
    }
    for m in &report.managers {
        let _ = writeln!(out, "hook manager: {m}");
    }
    out
}

fn orphan_text(orphan: Option<&str>) -> &'static str {
    match orphan {
        Some("shim_gone") => "shim gone; 'patchgate hook uninstall' puts back",
        Some("duplicate") => {
            "a checkout restored the hook; 'patchgate hook uninstall' removes the copy"
        }
        Some(_) => "differs from the kept original (compare them, keep one):",
        None => "chains",
    }
}

impl ActionReport {
    /// The envelope's warnings: [`ActionReport::warnings`] with their code.
    #[must_use]
    pub fn notices(&self) -> Vec<Notice> {
        let notice = |w: &String| Notice { code: NoticeCode::TrackedHooksDir, message: w.clone() };
        self.warnings.iter().map(notice).collect()
    }

    /// Why the action is not done, as the envelope's error: a hook manager is in charge
    /// (`hooks_managed`, exit 2), or a hook could not be restored (`not_restored`, exit 3).
    #[must_use]
    pub fn failure(&self) -> Option<(ErrorCode, String)> {
        if let Some(m) = self.managers.first() {
            let message = format!(
                "this repository's hooks are managed by {}: add patchgate to {} as `managers` \
                 says, or install anyway with --force",
                m.manager, m.file
            );
            return Some((ErrorCode::HooksManaged, message));
        }
        let kept = self.hooks.iter().find(|h| h.action == "orphan_kept")?;
        let message = format!(
            "the {} hook differs from its kept original {}: compare them and keep one",
            kept.hook,
            kept.chained.as_deref().unwrap_or("")
        );
        Some((ErrorCode::NotRestored, message))
    }
}

/// The text form of `hook install` / `hook uninstall`.
#[must_use]
pub fn action_text(report: &ActionReport) -> String {
    let mut out = String::new();
    for h in &report.hooks {
        let kept = h.chained.as_deref().unwrap_or("");
        let what = match h.action {
            "installed" if h.chained.is_some() => {
                format!("installed (the hook that was there runs first, kept as {kept})")
            }
            "updated" => "updated patchgate's shim".to_owned(),
            "removed" => "removed patchgate's shim (no hook was there before it)".to_owned(),
            "restored" => format!("removed patchgate's shim and put back the hook from {kept}"),
            "orphan_restored" => {
                format!("the shim was already gone; put back the hook from {kept}")
            }
            "orphan_removed" => {
                format!("a checkout had put the hook back; removed its duplicate {kept}")
            }
            "orphan_kept" => {
                format!("NOT restored: the hook differs from {kept}; compare them and keep one")
            }
            other => other.replace('_', " "),
        };
        let _ = writeln!(out, "{:<15} {what}  {}", h.hook, h.path);
    }
    for w in &report.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    if let Some(next) = &report.next {
        let _ = writeln!(out, "next: {next}");
    }
    for m in &report.managers {
        let _ = write!(
            out,
            "this repository's hooks are managed by {}, which bypasses or overwrites the hooks \
             patchgate would write; add to {} {} (after line {}):\n\n{}\n",
            m.manager, m.file, m.placement, m.after_line, m.snippet
        );
        if let Some(caveat) = &m.caveat {
            let _ = writeln!(out, "note: {caveat}\n");
        }
    }
    if !report.managers.is_empty() {
        out.push_str("(or install anyway with 'patchgate hook install --force')\n");
    }
    out
}
