//! Output of the contract commands: the `INVALID_AGENT_INPUT` envelope for argument checks, and the
//! reports of `contract executor-output`, `contract agent` and `paths`.

use super::diagnostic::{Level, located};
use super::{Envelope, Meta, TextOptions};
use crate::contract::{ArgOutcome, ExecutorOutcome, FilteredPath, Finding, PathFilter};
use crate::finding::ErrorCode;
use crate::path::display_bytes;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The `INVALID_AGENT_INPUT` envelope for one argument check: `{"ok": true, "data": {"value":
/// ...}}`, or `{"ok": false, "error": {"code": "INVALID_AGENT_INPUT", "message", "input_value",
/// "rejected_pattern"}}`.
#[must_use]
pub fn arg_envelope(outcome: &ArgOutcome, meta: Meta) -> Envelope {
    match outcome {
        ArgOutcome::Accepted(accepted) => Envelope::success(
            serde_json::to_value(accepted).expect("a string and an optional string serialize"),
            meta,
        ),
        ArgOutcome::Rejected(r) => {
            let mut extra = Map::new();
            extra.insert("input_value".into(), Value::from(r.input_value.as_str()));
            extra.insert("rejected_pattern".into(), Value::from(r.pattern.as_str()));
            Envelope::failure(ErrorCode::InvalidAgentInput, &r.message, extra, meta)
        }
    }
}

/// The JSON form of `patchgate paths`.
#[derive(Clone, Debug, Serialize)]
pub struct PathsReport {
    /// Whether every path was kept.
    pub ok: bool,
    /// The kept paths, normalised.
    pub kept: Vec<String>,
    /// The filtered paths with their reasons.
    pub filtered: Vec<FilteredPath>,
}

impl PathsReport {
    /// The report of one filter run.
    #[must_use]
    pub fn new(filter: PathFilter) -> Self {
        Self { ok: filter.filtered.is_empty(), kept: filter.kept, filtered: filter.filtered }
    }
}

/// `kept PATH` / `filtered PATH: code: reason` lines; with `-q`, the kept paths alone, one a
/// line, for `xargs`.
#[must_use]
pub fn paths_text(report: &PathsReport, text: &TextOptions) -> String {
    let mut out = String::new();
    if text.is_quiet {
        for path in &report.kept {
            let _ = writeln!(out, "{path}");
        }
        return out;
    }
    for path in &report.kept {
        let _ = writeln!(out, "kept     {path}");
    }
    for f in &report.filtered {
        let _ = writeln!(out, "filtered {}", filtered_line(f));
    }
    out
}

/// `PATH: code: reason`, the path escaped.
fn filtered_line(f: &FilteredPath) -> String {
    format!("{}: {}: {}", display_bytes(f.path.as_bytes()), f.code, f.reason)
}

/// Compiler-style lines for `contract executor-output` and `contract agent`:
/// `NAME:LINE: error[code]: message (at POINTER)`, then a verdict line; with `-q`, the error
/// lines alone.
#[must_use]
pub fn findings_text(
    name: &str,
    violations: &[Finding],
    warnings: &[Finding],
    text: &TextOptions,
) -> String {
    let mut out = String::new();
    let warnings = if text.is_quiet { &[] } else { warnings };
    for (level, list) in [(Level::Error, violations), (Level::Warning, warnings)] {
        for f in list {
            let place = format!("{name}:{}", f.line.map(|l| format!("{l}:")).unwrap_or_default());
            let at = f.pointer.as_ref().map(|p| format!(" (at {p})")).unwrap_or_default();
            let message = format!("{}{at}", f.message);
            let _ = writeln!(
                out,
                "{}",
                located(&text.palette, &place, level, f.code.as_str(), &message)
            );
        }
    }
    if text.is_quiet {
        return out;
    }
    let verdict = if violations.is_empty() { "ok" } else { "rejected" };
    let _ = writeln!(
        out,
        "{verdict}: {} violation(s), {} warning(s)",
        violations.len(),
        warnings.len()
    );
    out
}

/// The text form of `contract executor-output`: the findings, then each filtered path.
#[must_use]
pub fn executor_text(outcome: &ExecutorOutcome, name: &str, text: &TextOptions) -> String {
    let mut out = String::new();
    let lists = [
        ("files_created", &outcome.filtered.files_created),
        ("files_updated", &outcome.filtered.files_updated),
        ("changes", &outcome.filtered.changes),
    ];
    for (key, filtered) in lists.into_iter().filter(|_| !text.is_quiet) {
        for f in filtered {
            let _ = writeln!(out, "{name}: filtered[{key}] {}", filtered_line(f));
        }
    }
    out.push_str(&findings_text(name, &outcome.violations, &outcome.warnings, text));
    out
}
