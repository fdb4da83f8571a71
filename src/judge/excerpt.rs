//! Bounded excerpts of the files a patch changes, from the base tree: the lines around each
//! hunk, numbered, so the judge sees what the patch leaves in place (the rest of a block it
//! removes in part, the other uses of a name it renames). Created and deleted files are whole
//! in the patch already and get none.

use crate::patch::{FilePatch, Operation, Patch};
use crate::rule::Base;
use std::fmt::Write as _;

/// Lines shown before and after each hunk's stated range.
const CONTEXT: u64 = 20;
/// At most this many lines of one file.
const MAX_FILE_LINES: usize = 240;
/// At most this many lines over all files.
const MAX_TOTAL_LINES: usize = 720;
/// A longer line is cut (minified code, data).
const MAX_LINE_CHARS: usize = 240;

/// One file's excerpt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Excerpt {
    /// `src/a.rs (lines 1-40 and 80-120 of 300)`.
    pub title: String,
    /// The numbered lines, `...` between ranges.
    pub text: String,
}

/// The excerpts of every modified, renamed or copied text file of `patch`, in patch order,
/// within the line budgets.
pub(super) fn excerpts(patch: &Patch<'_>, base: Option<&dyn Base>) -> Vec<Excerpt> {
    let Some(base) = base else { return Vec::new() };
    let mut budget = MAX_TOTAL_LINES;
    let mut out = Vec::new();
    for file in &patch.files {
        if budget == 0 {
            break;
        }
        if let Some(excerpt) = file_excerpt(file, base, &mut budget) {
            out.push(excerpt);
        }
    }
    out
}

fn file_excerpt(file: &FilePatch<'_>, base: &dyn Base, budget: &mut usize) -> Option<Excerpt> {
    let is_edit = matches!(file.operation, Operation::Modify | Operation::Rename | Operation::Copy);
    if !is_edit || file.hunks.is_empty() {
        return None;
    }
    let path = std::str::from_utf8(file.old_path.as_deref()?).ok()?;
    let content = base.content(path)?;
    if content.contains(&0) {
        return None; // binary: nothing to read
    }
    let text = String::from_utf8_lossy(&content);
    let lines: Vec<&str> = text.lines().collect();
    let ranges = ranges(file, lines.len());
    let limit = MAX_FILE_LINES.min(*budget);
    let (body, shown) = render(&lines, &ranges, limit);
    *budget -= shown.iter().map(|(a, b)| b - a + 1).sum::<usize>();
    let spans: Vec<String> = shown.iter().map(|(a, b)| format!("{a}-{b}")).collect();
    let title = format!("{path} (lines {} of {})", spans.join(", "), lines.len());
    Some(Excerpt { title, text: body })
}

/// The 1-based inclusive line ranges around each hunk, merged where they touch.
fn ranges(file: &FilePatch<'_>, len: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for hunk in &file.hunks {
        let first = hunk.old_start.saturating_sub(CONTEXT).max(1);
        let last = (hunk.old_start + hunk.old_count.max(1)).saturating_sub(1) + CONTEXT;
        let first = usize::try_from(first).unwrap_or(usize::MAX);
        let last = usize::try_from(last).unwrap_or(usize::MAX).min(len);
        if first > last {
            continue;
        }
        match out.last_mut() {
            Some(prev) if first <= prev.1 + 1 => prev.1 = prev.1.max(last),
            _ => out.push((first, last)),
        }
    }
    out
}

/// The numbered lines of `ranges`, at most `limit` of them; the ranges actually shown.
fn render(
    lines: &[&str],
    ranges: &[(usize, usize)],
    limit: usize,
) -> (String, Vec<(usize, usize)>) {
    let width = lines.len().to_string().len();
    let mut body = String::new();
    let mut shown = Vec::new();
    let mut left = limit;
    for &(first, last) in ranges {
        if left == 0 {
            break;
        }
        let last = last.min(first + left - 1);
        if !body.is_empty() {
            body.push_str("...\n");
        }
        for n in first..=last {
            let _ = writeln!(body, "{n:>width$} | {}", cut(lines[n - 1]));
        }
        left -= last - first + 1;
        shown.push((first, last));
    }
    (body, shown)
}

fn cut(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => format!("{} [line cut]", &line[..at]),
        None => line.to_owned(),
    }
}
