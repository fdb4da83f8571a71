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
pub fn check_text(limits: &Limits, text: &[u8], what: &str) -> Result<(), LimitExceeded> {
    check("patch_bytes", limits.patch_bytes, text.len(), || {
        format!("the size in bytes of {what}")
    })?;
    // From each line start, a newline within the next `line_bytes + 1` bytes means the lines up
    // to it are short enough: the last one in that window, found from its end, is the next
    // start. The bytes between are never read, so a long patch costs a few steps per window.
    let mut start = 0;
    while text.len() - start > limits.line_bytes {
        let window = &text[start..=start + limits.line_bytes];
        let Some(newline) = memchr::memrchr(b'\n', window) else {
            let len = memchr::memchr(b'\n', &text[start..]).unwrap_or(text.len() - start);
            let number = memchr::memchr_iter(b'\n', &text[..start]).count() + 1;
            return check("line_bytes", limits.line_bytes, len, || {
                format!("the length in bytes of line {number} of {what}")
            });
        };
        start += newline + 1;
    }
    Ok(())
}

/// File entries, hunks per entry, and the paths each entry names.
pub fn check_parsed(limits: &Limits, patch: &Patch<'_>) -> Result<(), LimitExceeded> {
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

#[cfg(test)]
mod tests {
    use crate::config::Limits;

    /// The first over-long line, by the definition the scan replaced: lines split at `\n`.
    fn by_split(limit: usize, text: &[u8]) -> Option<(usize, usize)> {
        text.split(|&b| b == b'\n')
            .enumerate()
            .find(|(_, line)| line.len() > limit)
            .map(|(i, line)| (i + 1, line.len()))
    }

    #[test]
    fn the_line_scan_finds_the_first_long_line_as_splitting_does() {
        let texts: [&[u8]; 9] = [
            b"",
            b"\n",
            b"abcd",
            b"abcd\n",
            b"ab\nabcd",
            b"ab\n\nabcde\nabcdef\n",
            b"abc\nab",
            b"\n\n\nabcd",
            b"abc\nabc",
        ];
        for text in texts {
            let limits = Limits { line_bytes: 3, ..Limits::default() };
            let found = super::check_text(&limits, text, "the patch").err();
            let expected = by_split(3, text);
            assert_eq!(
                found.as_ref().map(|e| e.actual),
                expected.map(|(_, len)| len),
                "{}",
                String::from_utf8_lossy(text)
            );
            if let (Some(e), Some((line, _))) = (found, expected) {
                assert!(e.what.contains(&format!("line {line} of the patch")), "{}", e.what);
            }
        }
    }
}
