//! `[limits]` applied to one validation: the step's globs before they are compiled, the patch's
//! size and line lengths before it is parsed (both linear scans), and the parsed patch's file,
//! hunk and path counts. An over-limit patch is a `malformed` violation (code `limit_exceeded`):
//! it is the executor's output. Over-limit step globs refuse the step: it is the orchestrator's.

use crate::config::{LimitExceeded, Limits, check_limit as check};
use crate::patch::{FilePatch, Patch};
use crate::rule::{CheckCode, RuleId, Violation};
use crate::step::Step;

/// The step's three glob lists.
pub(super) fn check_step(limits: &Limits, step: &Step) -> Result<(), LimitExceeded> {
    limits.check_patterns(step.allowed_files.as_deref().unwrap_or_default(), "allowedFiles")?;
    limits.check_patterns(&step.excluded_paths, "excludedPaths")?;
    limits.check_patterns(step.apply_files.as_deref().unwrap_or_default(), "applyFiles")
}

/// Size and longest line of the raw patch text, before parsing; `what` names the patch.
pub(super) fn check_text(limits: &Limits, text: &[u8], what: &str) -> Result<(), LimitExceeded> {
    check("patch_bytes", limits.patch_bytes, text.len(), || {
        format!("the size in bytes of {what}")
    })?;
    for (number, line) in text.split(|&b| b == b'\n').enumerate() {
        check("line_bytes", limits.line_bytes, line.len(), || {
            format!("the length in bytes of line {} of {what}", number + 1)
        })?;
    }
    Ok(())
}

/// File entries, hunks per entry, and the paths each entry names.
pub(super) fn check_parsed(limits: &Limits, patch: &Patch<'_>) -> Result<(), LimitExceeded> {
    check("files", limits.files, patch.files.len(), || "the number of file entries".into())?;
    patch.files.iter().try_for_each(|file| check_file(limits, file))
}

fn check_file(limits: &Limits, file: &FilePatch<'_>) -> Result<(), LimitExceeded> {
    let name = |path: &[u8]| String::from_utf8_lossy(&path[..path.len().min(60)]).into_owned();
    for path in [&file.old_path, &file.new_path].into_iter().flatten() {
        check("path_bytes", limits.path_bytes, path.len(), || {
            format!("the length in bytes of the path '{}...'", name(path))
        })?;
        let depth = path.split(|&b| b == b'/').count();
        check("path_depth", limits.path_depth, depth, || {
            format!("the number of components of the path '{}...'", name(path))
        })?;
    }
    check("hunks_per_file", limits.hunks_per_file, file.hunks.len(), || {
        format!("the number of hunks at line {}", file.span.line)
    })
}

/// The violation for an over-limit patch.
pub(super) fn violation(e: &LimitExceeded) -> Violation {
    Violation::new(RuleId::Malformed, CheckCode::LimitExceeded, e.to_string())
}
