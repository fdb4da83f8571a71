//! Rule 5, `undeclared`: every path a file header names (both sides of a rename or copy) is in
//! `filesWritten`; a patch may not hide extra files.

use super::{Input, RuleId, Violation};
use crate::finding::CheckCode;
use crate::path::RepoPath;
use std::collections::HashSet;

pub(super) fn check(input: &Input<'_>) -> Vec<Violation> {
    if input.usable_patch().is_none() {
        return Vec::new();
    }
    let written = input.files_written();
    let mut reported: HashSet<RepoPath> = HashSet::new();
    let mut out = Vec::new();
    for entry in input.paths() {
        let Ok(named) = entry.checked.clone() else { continue };
        if written.contains(&named) || reported.contains(&named) {
            continue;
        }
        out.push(
            Violation::new(
                RuleId::Undeclared,
                CheckCode::UndeclaredFile,
                format!("patch {}, which is not in filesWritten", entry.action()),
            )
            .in_file(named.as_str())
            .at(None, Some(entry.file.span.line)),
        );
        reported.insert(named);
    }
    out
}
