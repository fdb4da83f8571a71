//! Repairs inside hunks: `recount` (counts rewritten from the body), `trailing_blank_lines`
//! (empty lines after a hunk whose counts are used up), `blank_context` (the space of an empty
//! context line restored), `final_newline`, and the renumbering of new-side starts after a
//! recount or relocation.
//!
//! A recount never reads the body itself: it gives the hunk unbounded counts and lets the
//! parser read as far as a body goes (to the next header, fence or text line), then takes the
//! counts from the lines the parser read. Empty lines at the end of that body are separators,
//! not context. A hunk whose body has fewer added-side lines than its header promised is
//! refused: an added line may be missing, and nothing can check that.

use super::{Refusal, RepairKind, Step, Work, file_name};
use crate::patch::{
    DefectCode, FilePatch, Hunk, LineKind, Parsed, WarningCode, hunk_header, parse,
};
use crate::path::display_bytes;

/// Where a hunk sits: its entry and its 0-based index there.
#[derive(Clone, Copy, Debug)]
struct At {
    file: usize,
    hunk: usize,
}

/// The numbers of a `@@` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    pub old_start: u64,
    pub old_count: u64,
    pub new_start: u64,
    pub new_count: u64,
}

impl Numbers {
    pub(super) fn of(hunk: &Hunk<'_>) -> Self {
        Self {
            old_start: hunk.old_start,
            old_count: hunk.old_count,
            new_start: hunk.new_start,
            new_count: hunk.new_count,
        }
    }

    /// The `@@` line, git style (a count of 1 omitted), keeping the section text and a `\r`.
    fn header(self, section: &[u8], crlf: bool) -> Vec<u8> {
        let old = (self.old_start, self.old_count);
        let mut out = hunk_header(old, (self.new_start, self.new_count), section);
        if crlf {
            out.push(b'\r');
        }
        out
    }
}

/// Rewrite the `@@` line of `hunk` (at working-copy line `n`) with `numbers`.
pub(super) fn rewrite(work: &mut Work<'_, '_>, n: usize, section: &[u8], numbers: Numbers) {
    let crlf = work.doc.text(n).ends_with(b"\r");
    work.doc.replace(n, numbers.header(section, crlf));
}

/// The hunk defects: blank separator lines removed (after a hunk whose counts are used up, or
/// between entries, where after an entry without hunks the parser calls them text), or else
/// recounts. A recount rewrites an `@@` line in place and the parser reads each entry on its
/// own, so every hunk defect of one parse is recounted in the same round.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let is_blank = |line: usize| work.doc.text(line).is_empty();
    let is_hunk = |code| matches!(code, DefectCode::HunkTooShort | DefectCode::HunkTooLong);
    let separator = parsed.defects.iter().find(|d| {
        let is_claimed = is_hunk(d.code) || d.code == DefectCode::Garbage;
        is_claimed && d.code != DefectCode::HunkTooShort && is_blank(d.span.line)
    });
    if let Some(d) = separator.filter(|d| is_separator(work, d.span.line)) {
        return remove_blank_run(work, parsed, d.span.line);
    }
    let mut step = Step::Pass;
    let mut seen = std::collections::BTreeSet::new();
    for defect in parsed.defects.iter().filter(|d| is_hunk(d.code)) {
        let Some(at) = owner(parsed, defect.span.line) else { continue };
        if !seen.insert((at.file, at.hunk)) {
            continue;
        }
        match recount(work, parsed, at) {
            Step::Pass => {}
            Step::Done => step = Step::Done,
            refused @ Step::Refuse(_) => return refused,
        }
    }
    step
}

/// The hunk whose `@@` line is the last one at or before `line`.
fn owner(parsed: &Parsed<'_>, line: usize) -> Option<At> {
    let mut found = None;
    for (f, file) in parsed.patch.files.iter().enumerate() {
        for (h, hunk) in file.hunks.iter().enumerate() {
            if hunk.span.line <= line {
                found = Some(At { file: f, hunk: h });
            }
        }
    }
    found
}

/// Whether the empty lines from `line` on end where no body can go on: at the end of the
/// input, or before a header, a fence, or a line of text.
fn is_separator(work: &Work<'_, '_>, line: usize) -> bool {
    let doc = &work.doc;
    let mut n = line;
    while n <= doc.len() && doc.text(n).is_empty() {
        n += 1;
    }
    let (text, next) = (doc.text(n), doc.text(n + 1));
    n > doc.len()
        || text.starts_with(b"diff ")
        || text.starts_with(b"@@")
        || text.starts_with(b"```")
        || (text.starts_with(b"--- ") && next.starts_with(b"+++ "))
        || !matches!(text.first(), Some(b' ' | b'+' | b'-' | b'\\'))
}

fn remove_blank_run(work: &mut Work<'_, '_>, parsed: &Parsed<'_>, line: usize) -> Step {
    let mut last = line;
    while last < work.doc.len() && work.doc.text(last + 1).is_empty() {
        last += 1;
    }
    let count = last + 1 - line;
    let file = parsed.patch.files.iter().rfind(|f| f.span.line < line).map(file_name);
    let after = file.as_deref().map_or_else(String::new, |f| format!(" after the entry of {f}"));
    let message = format!("removed {count} empty line(s){after}, where no hunk could go on");
    work.record(RepairKind::TrailingBlankLines, line, count, message).file = file;
    work.doc.remove(line, last);
    Step::Done
}

/// Counts large enough that the parser reads a body as far as it goes.
fn unbounded(work: &Work<'_, '_>, stated: Numbers) -> Numbers {
    let big = work.options.parse.max_line_number.min(1 << 40);
    Numbers {
        old_count: if stated.old_start == 0 { 0 } else { big },
        new_count: if stated.new_start == 0 { 0 } else { big },
        ..stated
    }
}

/// The body lines of a hunk, as the parser reads them without count limits: up to a
/// traditional entry's `---`/`+++` pair, without empty lines at the end. Only the hunk and the
/// rest of its entry (up to line `end`) are parsed, under a stand-in file header: a body never
/// reads past its entry.
pub(super) fn read_body(
    work: &Work<'_, '_>,
    hunk: &Hunk<'_>,
    end: usize,
) -> Vec<(LineKind, usize)> {
    const HEADER: &[u8] = b"--- a/probe\n+++ b/probe\n";
    let first = hunk.span.line;
    let mut probe = HEADER.to_vec();
    probe.extend_from_slice(&unbounded(work, Numbers::of(hunk)).header(b"", false));
    probe.push(b'\n');
    for n in first + 1..=end {
        probe.extend_from_slice(work.doc.text(n));
        probe.push(b'\n');
    }
    let parsed = parse(&probe, &work.options.parse);
    // Probe line 3 is the `@@` line, working-copy line `first`.
    let to_doc = |line: usize| line + first - 3;
    let read = parsed.patch.files.first().and_then(|f| f.hunks.first());
    let mut lines: Vec<(LineKind, usize)> = read
        .map(|h| h.lines.iter().map(|l| (l.kind, to_doc(l.line))).collect())
        .unwrap_or_default();
    let doc = &work.doc;
    if let Some(cut) = lines.iter().position(|&(_, n)| {
        doc.text(n).starts_with(b"--- ") && doc.text(n + 1).starts_with(b"+++ ")
    }) {
        lines.truncate(cut);
    }
    while lines.last().is_some_and(|&(_, n)| doc.text(n).is_empty()) {
        lines.pop();
    }
    lines
}

/// Rewrite the counts of the hunk at `at` from its body.
fn recount(work: &mut Work<'_, '_>, parsed: &Parsed<'_>, at: At) -> Step {
    let file = &parsed.patch.files[at.file];
    let hunk = &file.hunks[at.hunk];
    let stated = Numbers::of(hunk);
    let end = parsed.patch.files.get(at.file + 1).map_or(work.doc.len(), |f| f.span.line - 1);
    let body = read_body(work, hunk, end);
    let count = |kind: LineKind| body.iter().filter(|&&(k, _)| k != kind).count() as u64;
    let counted =
        Numbers { old_count: count(LineKind::Add), new_count: count(LineKind::Remove), ..stated };
    let header = display_bytes(work.doc.text(hunk.span.line));
    let short = |why: &str| {
        Step::Refuse(Refusal {
            code: DefectCode::HunkTooShort.into(),
            message: format!(
                "hunk `{header}` of {} is short: {why}; the counts are not rewritten, so send the hunk whole with its counts",
                file_name(file)
            ),
            line: Some(work.doc.input_line(hunk.span.line)),
            file: Some(file_name(file)),
        })
    };
    if counted.new_count < stated.new_count {
        return short(&format!(
            "its header promises {} new-side line(s) but the body has {}, and a missing added line cannot be told from a miscount",
            stated.new_count, counted.new_count
        ));
    }
    if counted.old_count < stated.old_count && work.base.is_none() {
        return short(&format!(
            "its header promises {} old-side line(s) but the body has {}, which only the base could confirm (no repository)",
            stated.old_count, counted.old_count
        ));
    }
    if counted == stated || body.is_empty() {
        return Step::Pass;
    }
    let span = hunk.span.line;
    let message = format!(
        "`{header}` -> `{}`: the body has {} old-side and {} new-side line(s)",
        display_bytes(&counted.header(hunk.section, false)),
        counted.old_count,
        counted.new_count
    );
    let name = file_name(file);
    work.renumber.insert(file.path().to_vec());
    rewrite(work, span, hunk.section, counted);
    let repair = work.record(RepairKind::Recount, span, 1, message);
    repair.file = Some(name);
    repair.hunk = Some(at.hunk + 1);
    Step::Done
}

/// New-side starts of recounted or relocated entries, made to follow from the hunks before.
pub(super) fn renumber(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let mut changed = false;
    for file in &parsed.patch.files {
        if !work.renumber.remove(file.path()) {
            continue;
        }
        for (hunk, new_start) in file.hunks.iter().zip(new_starts(file)) {
            if hunk.new_start != new_start {
                let numbers = Numbers { new_start, ..Numbers::of(hunk) };
                rewrite(work, hunk.span.line, hunk.section, numbers);
                changed = true;
            }
        }
    }
    if changed { Step::Done } else { Step::Pass }
}

/// Each hunk's new-side start from its old-side start and the hunks before it (git's
/// convention: an empty side starts at the line before the change).
fn new_starts(file: &FilePatch<'_>) -> Vec<u64> {
    let mut shift: i128 = 0;
    let mut out = Vec::with_capacity(file.hunks.len());
    for hunk in &file.hunks {
        let first = i128::from(hunk.old_start) + i128::from(hunk.old_count == 0);
        let start = first + shift - i128::from(hunk.new_count == 0);
        out.push(u64::try_from(start.max(0)).unwrap_or(0));
        shift += i128::from(hunk.new_count) - i128::from(hunk.old_count);
    }
    out
}

/// `blank_context`: restore the space of context lines written as empty lines.
pub(super) fn blank_context(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let mut changed = false;
    for file in &parsed.patch.files {
        let blank: Vec<usize> = file
            .hunks
            .iter()
            .flat_map(|h| &h.lines)
            .filter(|l| l.kind == LineKind::Context && work.doc.text(l.line).is_empty())
            .map(|l| l.line)
            .collect();
        let Some(&first) = blank.first() else { continue };
        for &n in &blank {
            work.doc.replace(n, b" ".to_vec());
        }
        let message = format!(
            "restored the leading space of {} empty context line(s) of {}",
            blank.len(),
            file_name(file)
        );
        work.record(RepairKind::BlankContext, first, blank.len(), message).file =
            Some(file_name(file));
        changed = true;
    }
    if changed { Step::Done } else { Step::Pass }
}

/// `trailing_blank_lines` at the end of the input (the parser's warning).
pub(super) fn trailing_warning(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let Some(warning) = parsed.warnings.iter().find(|w| w.code == WarningCode::TrailingBlankLines)
    else {
        return Step::Pass;
    };
    let (first, last) = (warning.span.line, work.doc.len());
    let count = last + 1 - first;
    let message = format!("removed {count} empty line(s) at the end of the patch");
    work.record(RepairKind::TrailingBlankLines, first, count, message);
    work.doc.remove(first, last);
    Step::Done
}

/// `final_newline`: the input's last line lacks its `\n`. Added unless that line is an added
/// line: a line cut short cannot be told from a whole one, and only removed and context lines
/// are checked against the base.
pub(super) fn final_newline(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let Some(defect) = parsed.defects.iter().find(|d| d.code == DefectCode::MissingFinalNewline)
    else {
        return Step::Pass;
    };
    let line = defect.span.line;
    let text = work.doc.text(line);
    if text.starts_with(b"+") && !text.starts_with(b"+++ ") {
        return Step::Pass;
    }
    work.doc.terminate(line);
    let message = "added the `\\n` the last line lacked".to_owned();
    work.record(RepairKind::FinalNewline, line, 1, message);
    Step::Done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_written_as_git_writes_them() {
        let n = Numbers { old_start: 3, old_count: 1, new_start: 3, new_count: 2 };
        assert_eq!(n.header(b"fn main()", false), b"@@ -3 +3,2 @@ fn main()");
        assert_eq!(n.header(b"", true), b"@@ -3 +3,2 @@\r");
        let empty = Numbers { old_start: 0, old_count: 0, new_start: 1, new_count: 4 };
        assert_eq!(empty.header(b"", false), b"@@ -0,0 +1,4 @@");
    }

    #[test]
    fn new_starts_follow_the_hunks_before() {
        let text = b"--- a/f\n+++ b/f\n@@ -2,2 +9,3 @@\n a\n+b\n c\n@@ -10,0 +1,1 @@\n+d\n@@ -20,2 +1,0 @@\n-e\n-f\n";
        let parsed = parse(text, &crate::patch::ParseOptions::default());
        assert!(parsed.is_ok(), "{:?}", parsed.defects);
        assert_eq!(new_starts(&parsed.patch.files[0]), vec![2, 12, 21]);
    }
}
