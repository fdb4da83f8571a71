//! `patchgate apply` output: the verdict (seed 002 contract) as JSON, or every violation and
//! note as compiler-style text lines.

use crate::rule::{Report, Violation};
use std::fmt::Write as _;

/// The text form: one line per violation (`rule[code]: message`, with file, hunk and patch
/// line), then the notes, then the verdict.
#[must_use]
pub fn report_text(report: &Report, patch_name: &str) -> String {
    let mut out = String::new();
    for v in &report.violations {
        let _ = writeln!(out, "{}{}", location(v, patch_name), v.reason());
    }
    for n in &report.notes {
        let at = n.patch_line.map(|l| format!("{patch_name}:{l}: ")).unwrap_or_default();
        let _ = writeln!(out, "{at}note[{}]: {}", n.code, n.message);
    }
    let word = if report.verdict.valid { "valid" } else { "invalid" };
    let _ = writeln!(out, "{word}: {}", report.verdict.reason);
    out
}

fn location(v: &Violation, patch_name: &str) -> String {
    match (v.patch_line, v.hunk) {
        (Some(line), Some(hunk)) => format!("{patch_name}:{line}: (hunk {hunk}) [{}] ", v.code),
        (Some(line), None) => format!("{patch_name}:{line}: [{}] ", v.code),
        _ => format!("[{}] ", v.code),
    }
}
