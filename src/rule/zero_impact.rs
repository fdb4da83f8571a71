//! Rule 7, `zero-impact`: a successful result must change something. A patch whose hunks add
//! and remove no line, and whose entries change no metadata (create, delete, rename, copy, mode,
//! binary), is rejected; so is a single hunk holding only context lines, which `git apply`
//! calls corrupt.

use super::input::short_list;
use super::{Input, RuleId, Violation};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, Operation};

pub(super) fn check(input: &Input<'_>) -> Vec<Violation> {
    if !input.result.success {
        return Vec::new();
    }
    let Some(patch) = input.usable_patch() else { return Vec::new() };
    if patch.files.is_empty() {
        return Vec::new();
    }
    if !patch.files.iter().any(has_impact) {
        let names: Vec<String> = patch.files.iter().map(|f| input.file_name(f)).collect();
        return vec![
            Violation::new(
                RuleId::ZeroImpact,
                CheckCode::NoChanges,
                format!(
                    "patch adds and removes no line in {}; make a real edit or report success false",
                    short_list(&names)
                ),
            )
            .in_file(names[0].clone())
            .at(None, patch.files.first().map(|f| f.span.line)),
        ];
    }
    patch.files.iter().flat_map(|f| context_only_hunks(input, f)).collect()
}

fn has_impact(file: &FilePatch<'_>) -> bool {
    file.added() + file.removed() > 0
        || file.operation != Operation::Modify
        || file.binary.is_some()
        || (file.old_mode.is_some() && file.old_mode != file.new_mode)
}

fn context_only_hunks(input: &Input<'_>, file: &FilePatch<'_>) -> Vec<Violation> {
    let name = input.file_name(file);
    file.hunks
        .iter()
        .enumerate()
        .filter(|(_, h)| h.added() + h.removed() == 0)
        .map(|(i, h)| {
            Violation::new(
                RuleId::ZeroImpact,
                crate::patch::DefectCode::ContextOnlyHunk,
                format!(
                    "{name} hunk {} (patch line {}) holds only context lines; drop it",
                    i + 1,
                    h.span.line
                ),
            )
            .in_file(name.clone())
            .at(Some(i + 1), Some(h.span.line))
        })
        .collect()
}
