//! `relocate`: a hunk whose preimage (context and removed lines) is not at its stated line is
//! moved to the one place in the base file where it is, byte for byte. Places that would put
//! hunks out of order or overlapping are not places at all (the parser refuses such a patch), so
//! the places of the hunks that stay or have only one narrow those of the others. When a hunk
//! still fits in several places the repair does not choose (`ambiguous_location`), even where
//! `git apply` would take the nearest; when it fits nowhere the proof reports the usual
//! `context_mismatch`.

use super::hunks::{Numbers, rewrite};
use super::trim::{self, Trim};
use super::{Refusal, RepairKind, Step, Work, file_name};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, Hunk, Line, LineKind, Operation, Parsed};
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
        let body: Vec<Line<'_>> = hunk.lines.iter().collect();
        Self::of_lines(lines, &body, hunk.old_start)
    }

    /// The places of a hunk body (all of a hunk's lines, or a trimmed run of them) that says
    /// its preimage starts at `old_start`. A body without trailing context has, as in `git
    /// apply`, only one place: the end of the file.
    fn of_lines(lines: &[TextLine<'_>], body: &[Line<'_>], old_start: u64) -> Self {
        let mut places = Self::unanchored(lines, body, old_start);
        if body.last().is_some_and(|l| l.kind != LineKind::Context) && !places.is_capped {
            let end = lines.len().saturating_sub(places.len);
            places.at.retain(|&at| at == end);
            places.is_stated &= !places.at.is_empty();
        }
        places
    }

    fn unanchored(lines: &[TextLine<'_>], body: &[Line<'_>], old_start: u64) -> Self {
        let preimage = preimage(body);
        let stated = stated_position(old_start, preimage.len());
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

/// One hunk to move, and the blank edge lines it sets aside (working-copy lines).
struct Move {
    line: usize,
    section: Vec<u8>,
    numbers: Numbers,
    file: String,
    path: Vec<u8>,
    hunk: usize,
    from: u64,
    trimmed: Vec<usize>,
    /// Where the trimmed lines were: `start`, `end`, or both.
    edges: &'static str,
}

/// Move every hunk that is not where it says to the unique place its preimage is; a hunk whose
/// preimage is nowhere first sets aside the fewest blank edge lines that give it one
/// ([`trim`]).
pub(super) fn fix(
    work: &mut Work<'_, '_>,
    parsed: &Parsed<'_>,
    base: &BaseTree<'_>,
) -> Result<Step, ScratchError> {
    let mut moves = Vec::new();
    for file in &parsed.patch.files {
        let Some(content) = base_lines(base, file)? else {
            continue; // the proof names the missing preimage
        };
        let lines = split_lines(&content);
        let (mut places, trims): (Vec<Places>, Vec<Option<Trim>>) =
            file.hunks.iter().map(|h| place(&lines, h)).unzip();
        narrow(&mut places);
        for (index, hunk) in file.hunks.iter().enumerate() {
            let (place, trim) = (&places[index], trims[index]);
            if place.is_stated && trim.is_none() {
                continue;
            }
            match place.at.as_slice() {
                [] => {}
                [at] if !place.is_capped => moves.push(Move::new(file, index, *at, trim)),
                several => return Ok(Step::Refuse(ambiguous(work, file, index, hunk, several))),
            }
        }
    }
    if moves.is_empty() {
        return Ok(Step::Pass);
    }
    // From the bottom up: setting lines aside leaves the lines above where they were.
    moves.sort_by_key(|m| std::cmp::Reverse(m.line));
    for m in moves {
        m.make(work);
    }
    Ok(Step::Done)
}

/// A hunk's places, trimmed when that is what fits. A hunk at its stated line stays. Else the
/// fewest blank edge lines set aside that put it exactly at its stated line win over a place
/// elsewhere for the whole hunk, since a junk blank line a model counted matches blank lines
/// of the file anywhere (git itself would then move the hunk to the nearest one); when the
/// whole hunk has one place elsewhere as well, the two are reported as ambiguous. A hunk that
/// fits nowhere whole takes the fewest trimmed edges that give it a place at all.
fn place(lines: &[TextLine<'_>], hunk: &Hunk<'_>) -> (Places, Option<Trim>) {
    let mut places = Places::of(lines, hunk);
    if places.is_stated {
        return (places, None);
    }
    let trimmed = |trim: Trim| {
        let body: Vec<Line<'_>> = hunk.lines.iter().collect();
        let kept = &body[trim.lead..body.len() - trim.trail];
        Places::of_lines(lines, kept, hunk.old_start + trim.lead as u64)
    };
    let at_stated = |kept: &[Line<'_>], start| Places::of_lines(lines, kept, start).is_stated;
    if let Some(trim) = trim::fit(hunk, at_stated) {
        let stated = trimmed(trim);
        if let ([elsewhere], false) = (places.at.as_slice(), places.is_capped) {
            places.at = vec![*elsewhere, stated.at[0]];
            return (places, None); // two readings: the repair does not choose
        }
        return (stated, Some(trim));
    }
    if !places.at.is_empty() || places.is_capped {
        return (places, None);
    }
    let has_place = |kept: &[Line<'_>], start| !Places::of_lines(lines, kept, start).at.is_empty();
    match trim::fit(hunk, has_place) {
        Some(trim) => (trimmed(trim), Some(trim)),
        None => (places, None),
    }
}

impl Move {
    fn new(file: &FilePatch<'_>, index: usize, at: usize, trim: Option<Trim>) -> Self {
        let hunk = &file.hunks[index];
        let body: Vec<Line<'_>> = hunk.lines.iter().collect();
        let Trim { lead, trail } = trim.unwrap_or(Trim { lead: 0, trail: 0 });
        let set_aside = (lead + trail) as u64;
        let trimmed = body[..lead].iter().chain(&body[body.len() - trail..]).map(|l| l.line);
        Move {
            line: hunk.span.line,
            section: hunk.section.to_vec(),
            numbers: Numbers {
                old_start: at as u64 + 1,
                old_count: hunk.old_count - set_aside,
                new_count: hunk.new_count - set_aside,
                ..Numbers::of(hunk)
            },
            file: file_name(file),
            path: file.path().to_vec(),
            hunk: index + 1,
            from: hunk.old_start + lead as u64,
            trimmed: trimmed.collect(),
            edges: match (lead, trail) {
                (_, 0) => "start",
                (0, _) => "end",
                _ => "start and end",
            },
        }
    }

    /// Set the edge lines aside, rewrite the `@@` line, and say so.
    fn make(self, work: &mut Work<'_, '_>) {
        let shown: Vec<String> =
            self.trimmed.iter().map(|&n| work.doc.input_line(n).to_string()).collect();
        let before = crate::path::display_bytes(work.doc.text(self.line));
        for &n in self.trimmed.iter().rev() {
            work.doc.remove(n, n);
        }
        rewrite(work, self.line, &self.section, self.numbers);
        if !self.trimmed.is_empty() {
            let message = format!(
                "hunk {} of {}: set aside {} whitespace-only context line(s) at its {} (patch line {}), which the base file does not have there: `{before}` -> `{}`",
                self.hunk,
                self.file,
                self.trimmed.len(),
                self.edges,
                shown.join(", "),
                crate::path::display_bytes(work.doc.text(self.line))
            );
            let repair =
                work.record(RepairKind::TrimContext, self.line, self.trimmed.len(), message);
            (repair.file, repair.hunk) = (Some(self.file.clone()), Some(self.hunk));
        }
        if self.numbers.old_start != self.from {
            let message = format!(
                "hunk {} of {}: old-side start {} -> {}, the one place in the base file where its {} context and removed line(s) are",
                self.hunk, self.file, self.from, self.numbers.old_start, self.numbers.old_count
            );
            let repair = work.record(RepairKind::Relocate, self.line, 1, message);
            (repair.file, repair.hunk) = (Some(self.file), Some(self.hunk));
        }
        work.renumber.insert(self.path);
    }
}

/// The base file an entry's hunks apply to; `None` when it has none (created, binary, no
/// hunks) or the base has no such file.
pub(super) fn base_lines(
    base: &BaseTree<'_>,
    file: &FilePatch<'_>,
) -> Result<Option<Vec<u8>>, ScratchError> {
    let Some(old) = file.old_path.as_deref().filter(|_| reads_base(file)) else { return Ok(None) };
    match base.entry(old)?.filter(|e| !e.is_tree() && e.mode != mode::GITLINK) {
        Some(entry) => base.blob(entry.oid).map(Some),
        None => Ok(None),
    }
}

/// Entries whose hunks apply to a base file.
fn reads_base(file: &crate::patch::FilePatch<'_>) -> bool {
    file.operation != Operation::Create && file.binary.is_none() && !file.hunks.is_empty()
}

/// The lines a hunk body expects in the base, with their newline flags.
fn preimage<'h>(body: &[Line<'h>]) -> Vec<TextLine<'h>> {
    body.iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| TextLine { text: l.text, has_newline: l.has_newline })
        .collect()
}

/// Where a preimage of `len` lines stated to start at `old_start` starts (0-based; an empty
/// preimage sits after its line).
fn stated_position(old_start: u64, len: usize) -> usize {
    let start = usize::try_from(old_start).unwrap_or(usize::MAX);
    if len == 0 { start } else { start.saturating_sub(1) }
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
