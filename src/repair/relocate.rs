//! `relocate`: a hunk whose preimage (context and removed lines) is not at its stated line is
//! moved to the one place in the base file where it is, byte for byte. Places that would put
//! hunks out of order or overlapping are not places at all (the parser refuses such a patch), so
//! the places of the hunks that stay or have only one narrow those of the others. When a hunk
//! still fits in several places the repair does not choose (`ambiguous_location`), even where
//! `git apply` would take the nearest; when it fits nowhere the proof reports the usual
//! `context_mismatch`.

use super::hunks::{Numbers, rewrite};
use super::{Refusal, RepairKind, Step, Work, file_name};
use crate::finding::CheckCode;
use crate::patch::{Hunk, LineKind, Operation, Parsed};
use crate::scratch::hunk::{TextLine, split_lines};
use crate::scratch::{BaseTree, ScratchError, mode};

/// How many places are named when a hunk fits in several.
const SHOWN: usize = 3;

/// How many places of one hunk are collected; a hunk with more stays unplaced.
const MAX_PLACES: usize = 4096;

/// Where one hunk may go: 0-based first lines of its preimage in the base file.
struct Places {
    at: Vec<usize>,
    /// Its preimage length.
    len: usize,
    /// The stated line holds it: it stays there, as `git apply` would keep it.
    is_stated: bool,
    /// More than [`MAX_PLACES`]: the list is not all of them.
    is_capped: bool,
}

impl Places {
    fn of(lines: &[TextLine<'_>], hunk: &Hunk<'_>) -> Self {
        let preimage = preimage(hunk);
        let stated = stated_position(hunk);
        if matches_at(lines, stated, &preimage) {
            return Self {
                at: vec![stated],
                len: preimage.len(),
                is_stated: true,
                is_capped: false,
            };
        }
        let at = positions(lines, &preimage);
        let is_capped = at.len() > MAX_PLACES;
        Self { at, len: preimage.len(), is_stated: false, is_capped }
    }

    fn fixed(&self) -> Option<usize> {
        match self.at[..] {
            [at] if !self.is_capped => Some(at),
            _ => None,
        }
    }
}

/// Drop the places that would put a hunk before the end of a fixed earlier hunk or past the
/// start of a fixed later one, until nothing changes.
fn narrow(places: &mut [Places]) {
    loop {
        let mut changed = false;
        for i in 0..places.len() {
            if places[i].is_capped || places[i].fixed().is_some() {
                continue;
            }
            let lo = places[..i].iter().filter_map(|p| Some(p.fixed()? + p.len)).max().unwrap_or(0);
            let hi = places[i + 1..].iter().filter_map(Places::fixed).min().unwrap_or(usize::MAX);
            let len = places[i].len;
            let before = places[i].at.len();
            places[i].at.retain(|&at| at >= lo && at.saturating_add(len) <= hi);
            changed |= places[i].at.len() != before;
        }
        if !changed {
            return;
        }
    }
}

/// One hunk to move.
struct Move {
    line: usize,
    section: Vec<u8>,
    numbers: Numbers,
    file: String,
    path: Vec<u8>,
    hunk: usize,
    from: u64,
}

/// Move every hunk that is not where it says to the unique place its preimage is.
pub(super) fn fix(
    work: &mut Work<'_, '_>,
    parsed: &Parsed<'_>,
    base: &BaseTree<'_>,
) -> Result<Step, ScratchError> {
    let mut moves = Vec::new();
    for file in &parsed.patch.files {
        let Some(old) = file.old_path.as_deref().filter(|_| reads_base(file)) else { continue };
        let Some(entry) = base.entry(old)?.filter(|e| !e.is_tree() && e.mode != mode::GITLINK)
        else {
            continue; // the proof names the missing preimage
        };
        let content = base.blob(entry.oid)?;
        let lines = split_lines(&content);
        let mut places: Vec<Places> = file.hunks.iter().map(|h| Places::of(&lines, h)).collect();
        narrow(&mut places);
        for ((index, hunk), place) in file.hunks.iter().enumerate().zip(&places) {
            if place.is_stated {
                continue;
            }
            match place.at.as_slice() {
                [] => {}
                [at] if !place.is_capped => moves.push(Move {
                    line: hunk.span.line,
                    section: hunk.section.to_vec(),
                    numbers: Numbers { old_start: *at as u64 + 1, ..Numbers::of(hunk) },
                    file: file_name(file),
                    path: file.path().to_vec(),
                    hunk: index + 1,
                    from: hunk.old_start,
                }),
                several => return Ok(Step::Refuse(ambiguous(work, file, index, hunk, several))),
            }
        }
    }
    if moves.is_empty() {
        return Ok(Step::Pass);
    }
    for m in moves {
        rewrite(work, m.line, &m.section, m.numbers);
        let message = format!(
            "hunk {} of {}: old-side start {} -> {}, the one place in the base file where its {} context and removed line(s) are",
            m.hunk, m.file, m.from, m.numbers.old_start, m.numbers.old_count
        );
        let repair = work.record(RepairKind::Relocate, m.line, 1, message);
        repair.file = Some(m.file);
        repair.hunk = Some(m.hunk);
        work.renumber.insert(m.path);
    }
    Ok(Step::Done)
}

/// Entries whose hunks apply to a base file.
fn reads_base(file: &crate::patch::FilePatch<'_>) -> bool {
    file.operation != Operation::Create && file.binary.is_none() && !file.hunks.is_empty()
}

/// The lines a hunk expects in the base, with their newline flags.
fn preimage<'h>(hunk: &Hunk<'h>) -> Vec<TextLine<'h>> {
    hunk.lines
        .iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| TextLine { text: l.text, has_newline: l.has_newline })
        .collect()
}

/// Where the hunk says its preimage starts (0-based; an empty preimage sits after its line).
fn stated_position(hunk: &Hunk<'_>) -> usize {
    let start = usize::try_from(hunk.old_start).unwrap_or(usize::MAX);
    if hunk.old_count == 0 { start } else { start.saturating_sub(1) }
}

fn matches_at(lines: &[TextLine<'_>], at: usize, preimage: &[TextLine<'_>]) -> bool {
    at.checked_add(preimage.len()).is_some_and(|end| end <= lines.len())
        && lines[at..at + preimage.len()] == *preimage
}

/// Every 0-based place the preimage matches, up to one more than [`MAX_PLACES`]. An empty
/// preimage matches everywhere: it cannot be placed.
fn positions(lines: &[TextLine<'_>], preimage: &[TextLine<'_>]) -> Vec<usize> {
    let Some(first) = preimage.first() else {
        return (0..=lines.len()).take(MAX_PLACES + 1).collect();
    };
    let last = lines.len().saturating_sub(preimage.len().saturating_sub(1));
    (0..last)
        .filter(|&at| lines[at] == *first && matches_at(lines, at, preimage))
        .take(MAX_PLACES + 1)
        .collect()
}

fn ambiguous(
    work: &Work<'_, '_>,
    file: &crate::patch::FilePatch<'_>,
    index: usize,
    hunk: &Hunk<'_>,
    several: &[usize],
) -> Refusal {
    let shown: Vec<String> = several.iter().take(SHOWN).map(|at| (at + 1).to_string()).collect();
    let more = if several.len() > SHOWN { " and more" } else { "" };
    Refusal {
        code: CheckCode::AmbiguousLocation.into(),
        message: format!(
            "hunk {} of {} is not at its stated line {}, and its context fits at lines {}{more} of the base, between the file's other hunks: the repair does not choose between them; give the right line numbers or more context",
            index + 1,
            file_name(file),
            hunk.old_start,
            shown.join(", ")
        ),
        line: Some(work.doc.input_line(hunk.span.line)),
        file: Some(file_name(file)),
    }
}
