//! Output of `patchgate guard install / uninstall`.

use crate::guard::install::{Outcome, Scope};
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form.
#[derive(Debug, Serialize)]
pub struct InstallReport {
    /// `project` or `user`.
    pub scope: &'static str,
    /// Every file, in the order written.
    pub files: Vec<FileEntry>,
    /// What the user should know.
    pub notes: Vec<String>,
}

/// One file in [`InstallReport`].
#[derive(Debug, Serialize)]
pub struct FileEntry {
    /// `claude-code`, `gemini-cli`, `codex`, `cursor`, `cline`.
    pub agent: &'static str,
    /// The file.
    pub path: String,
    /// `created`, `merged`, `unchanged` (install); `restored`, `stripped`, `absent`
    /// (uninstall).
    pub action: &'static str,
}

impl InstallReport {
    /// The report of `outcome`.
    #[must_use]
    pub fn new(scope: Scope, outcome: &Outcome) -> Self {
        let files = outcome
            .files
            .iter()
            .map(|f| FileEntry {
                agent: f.agent.as_str(),
                path: f.path.display().to_string(),
                action: f.action.as_str(),
            })
            .collect();
        Self { scope: scope.as_str(), files, notes: outcome.notes.clone() }
    }
}

/// One line per file, then the notes.
#[must_use]
pub fn install_text(report: &InstallReport) -> String {
    let mut out = String::new();
    for file in &report.files {
        let _ = writeln!(out, "{:<11} {:<9} {}", file.agent, file.action, file.path);
    }
    for note in &report.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}
