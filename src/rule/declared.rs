//! Rule 3, `declared`: the result's metadata agrees with its success flag and with its patch.
//! Success needs a non-empty patch and `filesWritten`, every `filesWritten` entry among the
//! patch's file headers, and `filesTouched` holding every `filesWritten` entry. Failure needs a
//! summary and neither a patch nor written files.

use super::input::short_list;
use super::{Input, RuleId, Violation};
use crate::finding::CheckCode;
use crate::path::RepoPath;
use std::collections::HashSet;

pub(super) fn check(input: &Input<'_>) -> Vec<Violation> {
    if input.result.success { on_success(input) } else { on_failure(input) }
}

fn on_success(input: &Input<'_>) -> Vec<Violation> {
    let mut out = Vec::new();
    if !input.has_patch() {
        out.push(violation(
            CheckCode::MissingPatch,
            "success is true but the patch is missing or empty",
        ));
    }
    // In the order given, so messages list entries as the executor wrote them.
    let written: Vec<RepoPath> =
        input.written().iter().filter_map(|p| p.as_ref().ok().cloned()).collect();
    if input.result.files_written.as_deref().unwrap_or_default().is_empty() {
        out.push(violation(
            CheckCode::EmptyFilesWritten,
            "success is true but filesWritten is missing or empty",
        ));
    }
    out.extend(not_in_patch(input, &written));
    out.extend(touched(input, &written));
    out
}

/// `filesWritten` entries no file header of the (usable) patch names.
fn not_in_patch(input: &Input<'_>, written: &[RepoPath]) -> Vec<Violation> {
    if input.usable_patch().is_none() {
        return Vec::new();
    }
    let in_patch: HashSet<&RepoPath> =
        input.paths().iter().filter_map(|entry| entry.checked.as_ref().ok()).collect();
    written
        .iter()
        .filter(|w| !in_patch.contains(w))
        .map(|w| {
            violation(
                CheckCode::FileNotInPatch,
                &format!("filesWritten lists {w}, but no file header in the patch names it"),
            )
            .in_file(w.as_str())
        })
        .collect()
}

fn touched(input: &Input<'_>, written: &[RepoPath]) -> Vec<Violation> {
    if input.result.files_touched.is_none() {
        return vec![violation(
            CheckCode::FilesTouchedMissing,
            "success is true but filesTouched is missing; list every file read or written",
        )];
    }
    let touched = input.files_touched();
    let missing: Vec<&str> =
        written.iter().filter(|w| !touched.contains(w)).map(RepoPath::as_str).collect();
    let Some(first) = missing.first() else { return Vec::new() };
    vec![
        violation(
            CheckCode::FilesTouchedNotSuperset,
            &format!("filesTouched lacks {} listed in filesWritten", short_list(&missing)),
        )
        .in_file(*first),
    ]
}

fn on_failure(input: &Input<'_>) -> Vec<Violation> {
    let mut out = Vec::new();
    if input.has_patch() {
        out.push(violation(
            CheckCode::FailureWithPatch,
            "success is false but the result carries a patch; drop it or report success",
        ));
    }
    let written = input.result.files_written.as_deref().unwrap_or_default();
    if !written.is_empty() {
        out.push(violation(
            CheckCode::FailureWithFilesWritten,
            &format!("success is false but filesWritten lists {}", short_list(written)),
        ));
    }
    if input.result.summary.as_deref().is_none_or(|s| s.trim().is_empty()) {
        out.push(violation(
            CheckCode::FailureWithoutSummary,
            "success is false but there is no summary saying why",
        ));
    }
    out
}

fn violation(code: CheckCode, message: &str) -> Violation {
    Violation::new(RuleId::Declared, code, message)
}
