//! The in-memory hunk applier: exact context, offsets allowed, no fuzz, git's anchoring.
//!
//! Pure: bytes and hunks in, bytes out. Lines keep their `\r`; only `\n` splits. A line's
//! "has newline" flag is part of its identity, so `\ No newline at end of file` must agree with
//! the base.

use crate::patch::{Hunk, LineKind};

/// One line of a text: content without its `\n`, and whether the `\n` is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextLine<'a> {
    /// Content without the final `\n`.
    pub text: &'a [u8],
    /// False only for the last line of a file without a final newline.
    pub has_newline: bool,
}

/// Which way to apply a hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Old side to new side.
    Forward,
    /// New side back to old side (the rollback).
    Reverse,
}

/// A hunk that applied away from its stated line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HunkOffset {
    /// 1-based hunk index in the file entry.
    pub hunk: usize,
    /// Lines between the stated and the actual position (positive: later in the file).
    pub offset: i64,
    /// The `@@` line in the patch.
    pub patch_line: usize,
}

/// A hunk that does not apply: where, and the first line that did not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based hunk index in the file entry.
    pub hunk: usize,
    /// The patch line of the first hunk line that did not match (or the `@@` line).
    pub patch_line: usize,
    /// 1-based line of the file where the comparison was made.
    pub file_line: usize,
    /// The line the file has there; `None` at end of file.
    pub actual: Option<Vec<u8>>,
    /// Whether `actual` ends with a newline.
    pub actual_has_newline: bool,
    /// The line the hunk expects; `None` when every line matched but not at the required
    /// start or end of the file.
    pub expected_text: Option<Vec<u8>>,
    /// Whether the expected line ends with a newline.
    pub expected_has_newline: bool,
}

/// The result of applying every hunk of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The new content.
    pub bytes: Vec<u8>,
    /// Hunks that applied at an offset.
    pub offsets: Vec<HunkOffset>,
}

/// Split `bytes` into lines at `\n`.
#[must_use]
pub fn split_lines(bytes: &[u8]) -> Vec<TextLine<'_>> {
    let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
    let mut rest = bytes;
    while !rest.is_empty() {
        if let Some(i) = memchr::memchr(b'\n', rest) {
            out.push(TextLine { text: &rest[..i], has_newline: true });
            rest = &rest[i + 1..];
        } else {
            out.push(TextLine { text: rest, has_newline: false });
            rest = &[];
        }
    }
    out
}

/// One hunk seen from one direction: the lines to find and the lines to put instead.
struct Side<'h> {
    find: Vec<(TextLine<'h>, usize)>,
    put: Vec<TextLine<'h>>,
    start: u64,
    count: u64,
    trailing_context: usize,
}

impl<'h> Side<'h> {
    fn of(hunk: &Hunk<'h>, direction: Direction) -> Self {
        let (gone, (start, count)) = match direction {
            Direction::Forward => (LineKind::Add, (hunk.old_start, hunk.old_count)),
            Direction::Reverse => (LineKind::Remove, (hunk.new_start, hunk.new_count)),
        };
        let mut find = Vec::with_capacity(hunk.lines.len());
        let mut put = Vec::with_capacity(hunk.lines.len());
        for line in &hunk.lines {
            let text = TextLine { text: line.text, has_newline: line.has_newline };
            if line.kind != gone {
                find.push((text, line.line));
            }
            // What the other direction removes is what this one puts in.
            if line.kind == LineKind::Context || line.kind == gone {
                put.push(text);
            }
        }
        let trailing_context =
            hunk.lines.iter().rev().take_while(|l| l.kind == LineKind::Context).count();
        Self { find, put, start, count, trailing_context }
    }

    /// Where the hunk says it applies (0-based first line of `find`).
    fn stated_position(&self) -> usize {
        stated_position(self.start, self.count)
    }

    fn matches_at(&self, lines: &[TextLine<'_>], at: usize) -> bool {
        at + self.find.len() <= lines.len()
            && self.find.iter().zip(&lines[at..]).all(|((want, _), have)| want == have)
    }
}

/// The 0-based line where a hunk side starting at `start` with `count` lines says it applies.
fn stated_position(start: u64, count: u64) -> usize {
    let start = usize::try_from(start).unwrap_or(usize::MAX);
    if count == 0 { start } else { start.saturating_sub(1) }
}

/// Every hunk of one file placed on its base, forward: what [`apply`] does in
/// [`Direction::Forward`], with the new content built only on request ([`Placed::bytes`]).
#[derive(Debug)]
pub struct Placed<'b, 'h> {
    /// The base's lines.
    lines: Vec<TextLine<'b>>,
    /// Each hunk seen forward, and the base line where it applies.
    sides: Vec<(Side<'h>, usize)>,
    /// Hunks that applied at an offset.
    pub offsets: Vec<HunkOffset>,
}

impl std::fmt::Debug for Side<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Side")
            .field("find", &self.find.len())
            .field("put", &self.put.len())
            .finish()
    }
}

/// Place `hunks` on `base` forward: the first hunk that does not apply is the mismatch
/// [`apply`] reports.
pub fn place<'b, 'h>(base: &'b [u8], hunks: &[Hunk<'h>]) -> Result<Placed<'b, 'h>, Mismatch> {
    let lines = split_lines(base);
    let mut sides = Vec::with_capacity(hunks.len());
    let mut offsets = Vec::new();
    let mut cursor = 0;
    for (index, hunk) in hunks.iter().enumerate() {
        let side = Side::of(hunk, Direction::Forward);
        let Some(at) = find_position(&side, &lines, cursor) else {
            return Err(mismatch(&side, &lines, cursor, index + 1, hunk.span.line));
        };
        if let Some(offset) = offset(&side, at, index, hunk) {
            offsets.push(offset);
        }
        cursor = at + side.find.len();
        sides.push((side, at));
    }
    Ok(Placed { lines, sides, offsets })
}

impl Placed<'_, '_> {
    /// The content after the hunks, as [`apply`] builds it.
    #[must_use]
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        let mut cursor = 0;
        for (side, at) in &self.sides {
            push_lines(&mut out, &self.lines[cursor..*at]);
            push_lines(&mut out, &side.put);
            cursor = at + side.find.len();
        }
        push_lines(&mut out, &self.lines[cursor..]);
        out
    }

    /// The length in bytes of [`Placed::bytes`], without building it.
    #[must_use]
    pub fn len(&self) -> usize {
        let size = |line: &TextLine<'_>| line.text.len() + usize::from(line.has_newline);
        let base: usize = self.lines.iter().map(size).sum();
        let sides = self.sides.iter().map(|(side, _)| &side.find);
        let found: usize = sides.flat_map(|find| find.iter().map(|(line, _)| size(line))).sum();
        let put: usize = self.sides.iter().flat_map(|(side, _)| side.put.iter().map(size)).sum();
        base - found + put
    }

    /// Whether the new content is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether applying `hunks` (the ones placed) in reverse to the new content gives `base`
    /// back, as [`apply`] in [`Direction::Reverse`] would. When every hunk, seen in reverse,
    /// would be found first exactly where it was put, rolling back puts back exactly the lines
    /// it replaced: the answer needs no new content. Otherwise the content is built and rolled
    /// back in full.
    #[must_use]
    pub fn rolls_back(&self, base: &[u8], hunks: &[Hunk<'_>]) -> bool {
        if self.rolls_back_in_place(hunks) {
            return true;
        }
        apply(&self.bytes(), hunks, Direction::Reverse).is_ok_and(|rolled| rolled.bytes == base)
    }

    /// [`find_position`] in reverse, answered for the one position where each hunk's new lines
    /// sit: `true` when it would return that position for every hunk (the first place it looks,
    /// or its anchor), `false` when it might return another or none.
    pub(super) fn rolls_back_in_place(&self, hunks: &[Hunk<'_>]) -> bool {
        let grown: usize = self.sides.iter().map(|(side, _)| side.put.len()).sum();
        let shrunk: usize = self.sides.iter().map(|(side, _)| side.find.len()).sum();
        let Some(after_len) = (self.lines.len() + grown).checked_sub(shrunk) else { return false };
        let mut cursor = 0;
        let mut put_before = 0;
        let mut found_before = 0;
        for ((side, at), hunk) in self.sides.iter().zip(hunks) {
            let Some(here) = (at + put_before).checked_sub(found_before) else { return false };
            let len = side.put.len();
            let Some(last) = after_len.checked_sub(len) else { return false };
            let (match_start, match_end) = (hunk.new_start <= 1, side.trailing_context == 0);
            let is_first = cursor <= here
                && here <= last
                && if match_start || match_end {
                    (!match_start || here == 0) && (!match_end || here == last)
                } else {
                    stated_position(hunk.new_start, hunk.new_count).clamp(cursor, last) == here
                };
            if !is_first {
                return false;
            }
            cursor = here + len;
            put_before += len;
            found_before += side.find.len();
        }
        true
    }
}

fn offset(side: &Side<'_>, at: usize, index: usize, hunk: &Hunk<'_>) -> Option<HunkOffset> {
    let stated = side.stated_position();
    (at != stated).then(|| {
        let offset =
            i64::try_from(at).unwrap_or(i64::MAX) - i64::try_from(stated).unwrap_or(i64::MAX);
        HunkOffset { hunk: index + 1, offset, patch_line: hunk.span.line }
    })
}

/// Apply `hunks` to `base` in `direction`.
pub fn apply(base: &[u8], hunks: &[Hunk<'_>], direction: Direction) -> Result<Applied, Mismatch> {
    let lines = split_lines(base);
    let mut out = Vec::with_capacity(base.len() + 64);
    let mut offsets = Vec::new();
    let mut cursor = 0;
    for (index, hunk) in hunks.iter().enumerate() {
        let side = Side::of(hunk, direction);
        let Some(at) = find_position(&side, &lines, cursor) else {
            return Err(mismatch(&side, &lines, cursor, index + 1, hunk.span.line));
        };
        if let Some(offset) = offset(&side, at, index, hunk) {
            offsets.push(offset);
        }
        push_lines(&mut out, &lines[cursor..at]);
        push_lines(&mut out, &side.put);
        cursor = at + side.find.len();
    }
    push_lines(&mut out, &lines[cursor..]);
    Ok(Applied { bytes: out, offsets })
}

fn push_lines(out: &mut Vec<u8>, lines: &[TextLine<'_>]) {
    for line in lines {
        out.extend_from_slice(line.text);
        if line.has_newline {
            out.push(b'\n');
        }
    }
}

/// git's rule: a hunk starting at line 0 or 1 must match at the start of the file; one without
/// trailing context must match at its end. Otherwise the nearest exact match wins, first
/// looking later, then earlier, never before the end of the previous hunk.
fn find_position(side: &Side<'_>, lines: &[TextLine<'_>], cursor: usize) -> Option<usize> {
    let len = side.find.len();
    if len > lines.len().saturating_sub(cursor) {
        return None;
    }
    let last = lines.len() - len;
    let match_start = side.start <= 1;
    let match_end = side.trailing_context == 0;
    if match_start || match_end {
        let at = if match_start { 0 } else { last };
        let anchored = at >= cursor && (!match_end || at == last) && side.matches_at(lines, at);
        return anchored.then_some(at);
    }
    let stated = side.stated_position().clamp(cursor, last);
    let reach = (stated - cursor).max(last - stated);
    for distance in 0..=reach {
        if stated + distance <= last && side.matches_at(lines, stated + distance) {
            return Some(stated + distance);
        }
        if distance > 0 && stated >= cursor + distance && side.matches_at(lines, stated - distance)
        {
            return Some(stated - distance);
        }
    }
    None
}

/// Describe the first line that did not match where the hunk should have applied.
fn mismatch(
    side: &Side<'_>,
    lines: &[TextLine<'_>],
    cursor: usize,
    hunk: usize,
    header_line: usize,
) -> Mismatch {
    let len = side.find.len();
    let at = if side.start <= 1 {
        0
    } else if side.trailing_context == 0 {
        lines.len().saturating_sub(len)
    } else {
        side.stated_position().min(lines.len())
    }
    .max(cursor.min(lines.len()));
    let first_bad = side
        .find
        .iter()
        .enumerate()
        .find(|&(k, (want, _))| lines.get(at + k) != Some(want))
        .map(|(k, _)| k);
    let (patch_line, expected, actual_index) = match first_bad {
        Some(k) => (side.find[k].1, Some(side.find[k].0), at + k),
        // Every line matched but the anchoring did not: the hunk must sit at the start or end.
        None => (header_line, None, if side.start <= 1 { at } else { at + len }),
    };
    let actual = lines.get(actual_index);
    Mismatch {
        hunk,
        patch_line,
        file_line: actual_index + 1,
        expected_text: expected.map(|l| l.text.to_vec()),
        expected_has_newline: expected.is_none_or(|l| l.has_newline),
        actual: actual.map(|l| l.text.to_vec()),
        actual_has_newline: actual.is_none_or(|l| l.has_newline),
    }
}
