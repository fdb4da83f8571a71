//! Rule 2, `scope`: no excluded path, nothing outside `allowedFiles`, nothing that configures
//! the gate itself (`.patchgate.toml`; a hook manager's configuration where the manager runs
//! patchgate) unless `allowedFiles` names it exactly, and in `fix_regression` nothing outside
//! `applyFiles`. Also: every `filesWritten` / `filesTouched` entry passes the path-safety checks
//! (patch paths that fail are `malformed`).

use super::{Input, RuleId, Violation};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, LineKind};
use crate::path::{self, PathError, RepoPath};
use crate::step::Mode;
use std::collections::HashSet;

pub(super) fn check(input: &Input<'_>) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen: HashSet<RepoPath> = HashSet::new();
    if input.usable_patch().is_some() {
        for entry in input.paths() {
            let Ok(checked) = entry.checked.clone() else { continue };
            if seen.contains(&checked) {
                continue;
            }
            let subject = format!("patch {}", entry.action());
            if let Some(v) = placement(input, &checked, &subject, Some(entry.file)) {
                out.push(v.in_file(checked.as_str()).at(None, Some(entry.file.span.line)));
            }
            seen.insert(checked);
        }
    }
    out.extend(list_entries(input, "filesWritten", input.written(), &seen));
    let none = HashSet::new();
    out.extend(list_entries(input, "filesTouched", input.touched(), &none));
    out
}

/// Path safety for every entry; placement for `filesWritten` entries not already reported.
fn list_entries(
    input: &Input<'_>,
    field: &str,
    list: &[Result<RepoPath, PathError>],
    seen: &HashSet<RepoPath>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for (index, checked) in list.iter().enumerate() {
        match checked {
            Err(e) => out.push(
                Violation::new(RuleId::Scope, e.code, format!("{field}[{index}]: {e}"))
                    .in_file(e.input.clone()),
            ),
            Ok(p) if field == "filesWritten" && !seen.contains(p) => {
                let claim = format!("{field} lists {p}");
                out.extend(placement(input, p, &claim, None).map(|v| v.in_file(p.as_str())));
            }
            Ok(_) => {}
        }
    }
    out
}

/// Why `path` may not be written by this step, if it may not. `subject` names the path and
/// who writes it (`patch creates src/a.rs`); `file` is the patch's entry for it, if any.
fn placement(
    input: &Input<'_>,
    path: &RepoPath,
    subject: &str,
    file: Option<&FilePatch<'_>>,
) -> Option<Violation> {
    let scope = input.scope;
    let p = path.as_str();
    if let Some(pattern) = scope.excluded_by(p) {
        return Some(Violation::new(
            RuleId::Scope,
            CheckCode::ExcludedPath,
            format!("{subject}, which is excluded by '{pattern}'"),
        ));
    }
    if scope.allowed.as_ref().is_some_and(|allowed| !allowed.is_match(p)) {
        return Some(Violation::new(
            RuleId::Scope,
            CheckCode::OutsideAllowedFiles,
            format!("{subject}, which is outside allowedFiles"),
        ));
    }
    if let Some(entry) = path::protected(p)
        && !scope.names_exactly(p)
        && configures_gate(input, entry, file)
    {
        return Some(Violation::new(
            RuleId::Scope,
            CheckCode::ProtectedPath,
            format!(
                "{subject}, which configures the gate itself ({entry}); only a step whose \
                 allowedFiles names {p} may change it"
            ),
        ));
    }
    let is_fix = input.mode() == Some(Mode::FixRegression);
    if is_fix && scope.apply_files.as_ref().is_some_and(|files| !files.is_match(p)) {
        return Some(Violation::new(
            RuleId::Scope,
            CheckCode::NotInApplyFiles,
            format!("{subject}, which the apply run did not change (not in applyFiles)"),
        ));
    }
    None
}

/// Whether the protected `entry` configures the gate here: `.patchgate.toml` always; a hook
/// manager's configuration when one of the manager's files in the base tree names patchgate
/// (the manager runs the gate), or when the patch's lines for it do (it would). Without a base
/// tree nothing can be read, and the entry counts as the gate's.
fn configures_gate(input: &Input<'_>, entry: &str, file: Option<&FilePatch<'_>>) -> bool {
    let Some(base) = input.base.filter(|_| path::is_hook_manager(entry)) else { return true };
    let written = file.into_iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    if written.filter(|l| l.kind != LineKind::Context).any(|l| path::names_patchgate(l.text)) {
        return true;
    }
    path::manager_files(entry, base.files())
        .into_iter()
        .any(|f| base.content(f).is_some_and(|c| path::names_patchgate(&c)))
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
