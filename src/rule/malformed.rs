//! Rule 6, `malformed`: the patch is a standard unified diff. Every parser defect is a
//! violation with the defect's code and line; so is a header path failing the path checks, a
//! binary entry (unless allowed), and a file mode other than a regular file, an executable, or
//! (when allowed) a symbolic link. Whether it applies and rolls back is checked in scratch.

use super::input::is_structural;
use super::{Input, RuleId, RulePolicy, Violation, mode_refusal};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, Parsed};

/// Why a gitlink entry other than a submodule added, removed, moved or updated is refused, and
/// what to do instead.
pub const GITLINK_REFUSED: &str = "a submodule (gitlink) changed other than by adding, removing, \
     moving or updating it; only the entries `git diff` writes for those are accepted (one hunk \
     of `Subproject commit ID` lines under `new file mode 160000`, `deleted file mode 160000` or \
     `index ... 160000`, or a rename without a hunk): change a submodule with `git submodule`";

pub(super) fn check(input: &Input<'_>, policy: &RulePolicy) -> Vec<Violation> {
    let Some(parsed) = input.patch else { return Vec::new() };
    let mut out = defects(input, parsed);
    for entry in input.paths() {
        if let Err(e) = &entry.checked {
            out.push(
                Violation::new(RuleId::Malformed, e.code, format!("file header: {e}"))
                    .in_file(entry.display())
                    .at(None, Some(entry.file.span.line)),
            );
        }
    }
    for file in &parsed.patch.files {
        out.extend(binary(input, file, policy));
        out.extend(modes(input, file, policy));
    }
    out
}

fn defects(input: &Input<'_>, parsed: &Parsed<'_>) -> Vec<Violation> {
    let has_base = input.base.is_some();
    parsed
        .defects
        .iter()
        .filter(|d| is_structural(d, has_base))
        .map(|d| {
            let line = d.span.line;
            let Some(file) = entry_at(parsed, line) else {
                return Violation::new(
                    RuleId::Malformed,
                    d.code,
                    format!("patch line {line}: {}", d.message),
                )
                .at(None, Some(line));
            };
            let name = input.file_name(file);
            let hunk = file.hunks.iter().rposition(|h| h.span.line <= line).map(|i| i + 1);
            let at = hunk.map(|h| format!(" hunk {h}")).unwrap_or_default();
            Violation::new(
                RuleId::Malformed,
                d.code,
                format!("{name}{at} (patch line {line}): {}", d.message),
            )
            .in_file(name)
            .at(hunk, Some(line))
        })
        .collect()
}

/// The file entry a patch line belongs to: the last one starting at or before it.
fn entry_at<'p, 'a>(parsed: &'p Parsed<'a>, line: usize) -> Option<&'p FilePatch<'a>> {
    parsed.patch.files.iter().rev().find(|f| f.span.line <= line)
}

fn binary(input: &Input<'_>, file: &FilePatch<'_>, policy: &RulePolicy) -> Option<Violation> {
    if file.binary.is_none() || policy.allow_binary {
        return None;
    }
    let name = input.file_name(file);
    Some(
        Violation::new(
            RuleId::Malformed,
            CheckCode::BinaryPatch,
            format!("{name} is a binary change, which patchgate cannot check; send text changes"),
        )
        .in_file(name)
        .at(None, Some(file.span.line)),
    )
}

fn modes(input: &Input<'_>, file: &FilePatch<'_>, policy: &RulePolicy) -> Option<Violation> {
    // A submodule added, removed or moved to another commit, as `git diff` writes them, is
    // what `git apply --index` records: accepted (scratch checks the old commit against the
    // base); any other gitlink entry (a rename, a mode change, extra lines) is not.
    let is_update = file.submodule_change().is_some();
    let (mode, code) = [file.new_mode, file.old_mode, file.index.as_ref().and_then(|i| i.mode)]
        .into_iter()
        .flatten()
        .find_map(|m| {
            let code = mode_refusal(m, policy.allow_symlinks)?;
            (!(is_update && code == CheckCode::Gitlink)).then_some((m, code))
        })?;
    let name = input.file_name(file);
    let why = match code {
        CheckCode::Symlink => "a symbolic link; symlinks are refused by policy",
        CheckCode::Gitlink => GITLINK_REFUSED,
        _ => "not a regular file (100644) or executable (100755)",
    };
    Some(
        Violation::new(RuleId::Malformed, code, format!("{name} has mode {mode:06o}, {why}"))
            .in_file(name)
            .at(None, Some(file.span.line)),
    )
}
