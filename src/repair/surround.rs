//! `unfence`: markdown fences and chat text around one diff. Before the first entry nothing can
//! belong to a hunk (git skips it too), so all of it goes, fences and prose alike. After the last
//! entry, text goes only from the first line that cannot be a body line on: up to a closing
//! fence, no line there may look like a body line (`+`, `-`, space, `\`, `@@`), since a hunk
//! whose counts are too small could still own it; after the fence, everything goes. Text
//! between entries, git's extended headers and binary markers are never removed: those stay
//! defects.

use super::header::is_meaningful;
use super::{RepairKind, Step, Work};
use crate::patch::{DefectCode, Parsed, WarningCode};

/// Remove what surrounds the diff, when that is all the defects outside its entries say.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let Some(first) = parsed.patch.files.first() else { return Step::Pass };
    let start = entry_start(work, first.span.line);
    let end = region_end(parsed);
    let outside: Vec<_> =
        parsed.defects.iter().filter(|d| d.span.line < start || d.span.line > end).collect();
    let is_text = |code| {
        matches!(code, DefectCode::Garbage | DefectCode::MarkdownFence | DefectCode::BadLinePrefix)
    };
    if outside.is_empty() || !outside.iter().all(|d| is_text(d.code)) {
        return Step::Pass;
    }
    let tail = outside.iter().map(|d| d.span.line).filter(|&l| l > end).min();
    let has_mail = parsed.warnings.iter().any(|w| w.code == WarningCode::MailPreamble);
    let preamble = (start > 1 && !has_mail && outside.iter().any(|d| d.span.line < start))
        .then_some(start - 1);
    if tail.is_some_and(|from| !is_removable_tail(work, from))
        || preamble.is_some_and(|last| !is_removable(work, 1, last))
    {
        return Step::Pass;
    }
    // The tail first, so the preamble's line numbers still hold.
    if let Some(from) = tail {
        remove(work, from, work.doc.len(), "after the diff");
    }
    if let Some(last) = preamble {
        remove(work, 1, last, "before the diff");
    }
    if tail.is_none() && preamble.is_none() { Step::Pass } else { Step::Done }
}

fn remove(work: &mut Work<'_, '_>, first: usize, last: usize, where_: &str) {
    let fences = (first..=last).filter(|&n| is_fence(work.doc.text(n))).count();
    let count = last + 1 - first;
    let message = format!(
        "removed {count} line(s) {where_} ({fences} markdown fence line(s), {} of text)",
        count - fences
    );
    work.record(RepairKind::Unfence, first, count, message);
    work.doc.remove(first, last);
}

/// The first line of the first entry: its `diff --git` or `---` line, or the `diff` command
/// line a traditional entry may have above its `---`.
fn entry_start(work: &Work<'_, '_>, span_line: usize) -> usize {
    let above = span_line.saturating_sub(1);
    let is_command = above > 0
        && work.doc.text(above).starts_with(b"diff ")
        && work.doc.text(span_line).starts_with(b"--- ");
    if is_command { above } else { span_line }
}

/// The last line the parser read into an entry: the last hunk body line (and its `\ No
/// newline` marker), or the last entry's first line when it has no hunks.
fn region_end(parsed: &Parsed<'_>) -> usize {
    let mut end = 0;
    for file in &parsed.patch.files {
        end = end.max(file.span.line);
        for hunk in &file.hunks {
            end = end.max(hunk.span.line);
            if let Some(last) = hunk.lines.last() {
                end = end.max(last.line + usize::from(!last.has_newline));
            }
        }
    }
    end
}

fn is_fence(line: &[u8]) -> bool {
    line.starts_with(b"```")
}

/// Nothing in `first..=last` means anything to `git apply` outside an entry.
fn is_removable(work: &Work<'_, '_>, first: usize, last: usize) -> bool {
    (first..=last).all(|n| !is_meaningful(work.doc.text(n)))
}

/// The tail from `from` to the end: no body-like line before its first fence.
fn is_removable_tail(work: &Work<'_, '_>, from: usize) -> bool {
    let len = work.doc.len();
    let fence = (from..=len).find(|&n| is_fence(work.doc.text(n))).unwrap_or(len + 1);
    let is_body_like = |n: usize| {
        let t = work.doc.text(n);
        matches!(t.first(), Some(b'+' | b'-' | b' ' | b'\\' | b'@')) || t.starts_with(b"diff ")
    };
    is_removable(work, from, len) && !(from..fence).any(is_body_like)
}
