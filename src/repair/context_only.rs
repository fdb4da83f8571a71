//! `context_only_hunk`: a hunk whose body holds no added and no removed line changes nothing;
//! `git apply` refuses it as a corrupt patch (unless told to recount). Taking it out leaves
//! every `+`/`-` line of the patch as it was, so it is taken out when its counts fit its body.
//! A context-only hunk whose header promises more new-side lines than its body holds is the
//! shape of a hunk whose one added line was lost: that stays refused (`hunk_too_short`), as a
//! missing added line cannot be told from a miscount.

use super::hunks::read_body;
use super::{RepairKind, Step, Work, file_name};
use crate::patch::{DefectCode, FilePatch, Hunk, LineKind, Parsed};
use crate::path::display_bytes;

/// Take out the first context-only hunk whose counts fit its body that a count defect names;
/// `Pass` when none.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    let is_named = |code| {
        matches!(
            code,
            DefectCode::ContextOnlyHunk | DefectCode::HunkTooShort | DefectCode::HunkTooLong
        )
    };
    let lines: Vec<usize> =
        parsed.defects.iter().filter(|d| is_named(d.code)).map(|d| d.span.line).collect();
    for (f, file) in parsed.patch.files.iter().enumerate() {
        let end = parsed.patch.files.get(f + 1).map_or(work.doc.len(), |next| next.span.line - 1);
        for (index, hunk) in file.hunks.iter().enumerate() {
            let next = file.hunks.get(index + 1).map_or(end, |h| h.span.line - 1);
            if !lines.iter().any(|&l| hunk.span.line <= l && l <= next) {
                continue;
            }
            let body = read_body(work, hunk, end);
            let is_idle = body.iter().all(|&(kind, _)| kind == LineKind::Context);
            let len = body.len() as u64;
            if is_idle && hunk.old_count == len && hunk.new_count == len {
                let last = body.last().map_or(hunk.span.line, |&(_, n)| n);
                take_out(work, file, index, hunk, last);
                return Step::Done;
            }
        }
    }
    Step::Pass
}

fn take_out(
    work: &mut Work<'_, '_>,
    file: &FilePatch<'_>,
    index: usize,
    hunk: &Hunk<'_>,
    last: usize,
) {
    let header = display_bytes(work.doc.text(hunk.span.line));
    let context = last - hunk.span.line;
    let message = format!(
        "removed hunk {} (`{header}`): its {context} line(s) are all context, so it changes nothing",
        index + 1
    );
    let name = file_name(file);
    work.renumber.insert(file.path().to_vec());
    let repair = work.record(RepairKind::ContextOnlyHunk, hunk.span.line, context + 1, message);
    (repair.file, repair.hunk) = (Some(name), Some(index + 1));
    work.doc.remove(hunk.span.line, last);
}
