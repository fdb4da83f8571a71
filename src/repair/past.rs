//! What the parser drops with a note, as `git apply` drops it: context lines past a hunk's
//! counts (`context_after_hunk`) and whitespace-only lines outside the entries
//! (`blank_outside_entry`). The repaired patch says what it means without them.
//!
//! Context past a hunk's counts that the base file holds right after the hunk, line for line,
//! is counted in instead: the model under-counted. The hunk keeps its place (its preimage only
//! grows by lines that follow it there), and it gets the trailing context that `git apply`
//! needs to place a hunk anywhere but at the end of the file. The rest is removed.

use super::hunks::{Numbers, rewrite};
use super::relocate::base_lines;
use super::{RepairKind, Step, Work, file_name};
use crate::patch::{FilePatch, Hunk, LineKind, Parsed, WarningCode};
use crate::scratch::ScratchError;
use crate::scratch::hunk::TextLine;

/// What to do with the lines after one hunk.
struct Past {
    file: String,
    path: Vec<u8>,
    hunk: usize,
    header: usize,
    section: Vec<u8>,
    numbers: Numbers,
    /// Working-copy lines past the counts, in order.
    run: Vec<usize>,
    /// How many of them, from the first, the base confirms as context.
    counted: usize,
}

/// Count in or remove the context after every hunk; then remove the blank lines outside the
/// entries.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Result<Step, ScratchError> {
    let mut pasts = Vec::new();
    for file in &parsed.patch.files {
        let lines = match work.base {
            Some(base) => base_lines(base, file)?,
            None => None,
        };
        for (index, hunk) in file.hunks.iter().enumerate() {
            let run = run_after(work, hunk);
            if run.is_empty() {
                continue;
            }
            let base = lines.as_deref().map(crate::scratch::hunk::split_lines);
            let counted = base.map_or(0, |base| confirmed(work, hunk, &run, &base));
            pasts.push(Past {
                file: file_name(file),
                path: file.path().to_vec(),
                hunk: index + 1,
                header: hunk.span.line,
                section: hunk.section.to_vec(),
                numbers: Numbers::of(hunk),
                run,
                counted,
            });
        }
    }
    if pasts.is_empty() {
        return Ok(blank_lines(work, parsed));
    }
    for past in pasts.into_iter().rev() {
        past.make(work);
    }
    Ok(Step::Done)
}

/// The lines after the hunk's last body line (and its marker) that could be context.
fn run_after(work: &Work<'_, '_>, hunk: &Hunk<'_>) -> Vec<usize> {
    let Some(last) = hunk.lines.last() else { return Vec::new() };
    let first = last.line + 1 + usize::from(!last.has_newline);
    let is_context = |n: &usize| {
        let text = work.doc.text(*n);
        text.first() == Some(&b' ') || text.iter().all(u8::is_ascii_whitespace)
    };
    (first..=work.doc.len()).take_while(is_context).collect()
}

/// How many lines of `run`, from the first, are the base file's lines right after the hunk's
/// preimage at its stated place.
fn confirmed(work: &Work<'_, '_>, hunk: &Hunk<'_>, run: &[usize], base: &[TextLine<'_>]) -> usize {
    let preimage: Vec<TextLine<'_>> = hunk
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| TextLine { text: l.text, has_newline: l.has_newline })
        .collect();
    let Some(at) = usize::try_from(hunk.old_start).ok().and_then(|s| s.checked_sub(1)) else {
        return 0;
    };
    let end = at + preimage.len();
    if base.get(at..end) != Some(&preimage[..]) {
        return 0;
    }
    run.iter()
        .zip(&base[end..])
        .take_while(|&(&n, have)| {
            let text = work.doc.text(n);
            let context = text.strip_prefix(b" ").or_else(|| text.is_empty().then_some(text));
            context.is_some_and(|c| have.has_newline && have.text == c)
        })
        .count()
}

impl Past {
    fn make(self, work: &mut Work<'_, '_>) {
        let removed = &self.run[self.counted..];
        if let (Some(&first), Some(&last)) = (removed.first(), removed.last()) {
            let is_blank =
                removed.iter().all(|&n| work.doc.text(n).iter().all(u8::is_ascii_whitespace));
            let (kind, what) = if is_blank {
                (RepairKind::BlankOutsideEntry, "whitespace-only")
            } else {
                (RepairKind::ContextAfterHunk, "context")
            };
            let message = format!(
                "removed {} {what} line(s) after hunk {} of {}, past its counts (git drops them)",
                removed.len(),
                self.hunk,
                self.file
            );
            let repair = work.record(kind, first, removed.len(), message);
            (repair.file, repair.hunk) = (Some(self.file.clone()), Some(self.hunk));
            work.doc.remove(first, last);
        }
        if self.counted > 0 {
            let more = self.counted as u64;
            let numbers = Numbers {
                old_count: self.numbers.old_count + more,
                new_count: self.numbers.new_count + more,
                ..self.numbers
            };
            let message = format!(
                "hunk {} of {}: counted the {} context line(s) after it, the base file's next lines, which its counts left out",
                self.hunk, self.file, self.counted
            );
            rewrite(work, self.header, &self.section, numbers);
            let repair = work.record(RepairKind::Recount, self.header, 1, message);
            (repair.file, repair.hunk) = (Some(self.file), Some(self.hunk));
            work.renumber.insert(self.path);
        }
    }
}

/// Whitespace-only lines outside every hunk: before the first entry, between entries, after
/// the last. Left alone in a mail (a format-patch preamble or signature holds blank lines of
/// its own).
fn blank_lines(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let is_mail = parsed
        .warnings
        .iter()
        .any(|w| matches!(w.code, WarningCode::MailPreamble | WarningCode::Signature));
    if is_mail {
        return Step::Pass;
    }
    let in_hunk = hunk_lines(parsed);
    let blank: Vec<usize> = (1..=work.doc.len())
        .filter(|n| !in_hunk.contains(n) && work.doc.text(*n).iter().all(u8::is_ascii_whitespace))
        .collect();
    let Some(&first) = blank.first() else { return Step::Pass };
    let message =
        format!("removed {} whitespace-only line(s) outside the file entries", blank.len());
    work.record(RepairKind::BlankOutsideEntry, first, blank.len(), message);
    for &n in blank.iter().rev() {
        work.doc.remove(n, n);
    }
    Step::Done
}

/// Every working-copy line of a hunk: its `@@` line, body and markers.
fn hunk_lines(parsed: &Parsed<'_>) -> std::collections::BTreeSet<usize> {
    let hunks = parsed.patch.files.iter().flat_map(|f: &FilePatch<'_>| &f.hunks);
    hunks
        .filter_map(|h| {
            let last = h.lines.last()?;
            Some(h.span.line..=last.line + usize::from(!last.has_newline))
        })
        .flatten()
        .collect()
}
