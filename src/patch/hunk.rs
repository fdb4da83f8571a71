//! Hunks: the `@@ -a,b +c,d @@` header and a body read strictly by its counts. Inside a body a
//! line is whatever its first byte says while the counts allow it, so a removed `-- x` line
//! (written `--- x`) is never taken for a file header.

use super::cursor::{Raw, is_blank};
use super::parse::{Parser, quote_input};
use super::{DefectCode, FilePatch, Hunk, LineKind, Lines, Warning, WarningCode};

/// What the next line of a hunk body is.
enum Next {
    /// A body line the counts take.
    Line(LineKind),
    /// A `\ No newline at end of file` marker, taken.
    Marker,
    /// The body ends here, after a defect.
    Stop,
}

/// Which sides a `\ No newline at end of file` marker has closed.
#[derive(Clone, Copy, Debug, Default)]
struct Closed {
    old: bool,
    new: bool,
}

impl Closed {
    fn blocks(self, kind: LineKind) -> bool {
        match kind {
            LineKind::Context => self.old || self.new,
            LineKind::Add => self.new,
            LineKind::Remove => self.old,
        }
    }
}

/// How a body ended.
struct Body {
    is_complete: bool,
    has_marker: bool,
}

/// Why a hunk header could not be read.
enum HeaderError {
    Malformed,
    TooLarge,
}

/// Parse a decimal number at the start of `s`; returns it and the digits used.
fn number(s: &[u8], max: u64) -> Result<(u64, usize), HeaderError> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(HeaderError::Malformed);
    }
    let mut value: u64 = 0;
    for &b in &s[..digits] {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .ok_or(HeaderError::TooLarge)?;
    }
    if value > max {
        return Err(HeaderError::TooLarge);
    }
    Ok((value, digits))
}

/// `start[,count]` at the start of `s`; returns start, count (1 when omitted) and bytes used.
fn range(s: &[u8], max: u64) -> Result<(u64, u64, usize), HeaderError> {
    let (start, used) = number(s, max)?;
    if s.get(used) != Some(&b',') {
        return Ok((start, 1, used));
    }
    let (count, more) = number(&s[used + 1..], max)?;
    Ok((start, count, used + 1 + more))
}

/// `@@ -a[,b] +c[,d] @@[ section]`: the four numbers and the section text.
fn header(t: &[u8], max: u64) -> Result<([u64; 4], &[u8]), HeaderError> {
    let s = t.strip_prefix(b"@@ -").ok_or(HeaderError::Malformed)?;
    let (old_start, old_count, used) = range(s, max)?;
    let s = s[used..].strip_prefix(b" +").ok_or(HeaderError::Malformed)?;
    let (new_start, new_count, used) = range(s, max)?;
    let after = s[used..].strip_prefix(b" @@").ok_or(HeaderError::Malformed)?;
    let section = after.strip_prefix(b" ").unwrap_or(after);
    Ok(([old_start, old_count, new_start, new_count], section))
}

impl<'a> Parser<'a, '_> {
    /// Hunks of one entry, then the check for hunk-like lines left over after them.
    pub fn hunks(&mut self, file: &mut FilePatch<'a>) {
        let mut has_marker = false;
        while let Some(line) = self.cur.peek() {
            let t = line.trimmed();
            if !t.starts_with(b"@@") {
                break;
            }
            if t.starts_with(b"@@@") {
                let message = format!(
                    "`{}` is a combined (merge) diff hunk; send a plain `git diff`",
                    quote_input(line.text)
                );
                self.defect(DefectCode::CombinedDiff, line.span, message);
                self.skip_to_entry();
                return;
            }
            let Some(mut hunk) = self.hunk_header(line) else {
                self.skip_to_entry();
                return;
            };
            self.cur.bump();
            let body = self.body(&mut hunk);
            self.check_order(file, &hunk, has_marker);
            has_marker = body.has_marker;
            // Give back what the counts reserved beyond the lines read: counts are untrusted,
            // and a complete body reserves room for old + new lines, which context lines
            // (counted on both sides) never fill. The room is at the heap's top, so the next
            // hunk's lines reuse it instead of touching fresh pages (~600 fewer page faults
            // on a 40 MB patch).
            hunk.lines.shrink_to_fit();
            file.hunks.push(hunk);
            if !body.is_complete {
                self.skip_to_entry();
                return;
            }
        }
        self.leftover(file);
    }

    fn hunk_header(&mut self, line: Raw<'a>) -> Option<Hunk<'a>> {
        let t = line.trimmed();
        let quoted = || quote_input(line.text);
        let ([old_start, old_count, new_start, new_count], section) = match header(
            t,
            self.options.max_line_number,
        ) {
            Ok(numbers) => numbers,
            Err(HeaderError::Malformed) => {
                let message = format!(
                    "hunk header `{}` does not read `@@ -a,b +c,d @@`; give real line numbers and counts",
                    quoted()
                );
                self.defect(DefectCode::BadHunkHeader, line.span, message);
                return None;
            }
            Err(HeaderError::TooLarge) => {
                let max = self.options.max_line_number;
                let message =
                    format!("hunk header `{}` has a line number or count beyond {max}", quoted());
                self.defect(DefectCode::LineNumberTooLarge, line.span, message);
                return None;
            }
        };
        if (old_start == 0 && old_count > 0) || (new_start == 0 && new_count > 0) {
            let message = format!(
                "hunk header `{}` starts at line 0 but has lines; lines count from 1",
                quoted()
            );
            self.defect(DefectCode::BadHunkHeader, line.span, message);
            return None;
        }
        Some(Hunk {
            span: line.span,
            old_start,
            old_count,
            new_start,
            new_count,
            section,
            lines: Lines::default(),
        })
    }

    /// Read the body by its counts.
    fn body(&mut self, hunk: &mut Hunk<'a>) -> Body {
        let mut closed = Closed::default();
        let is_complete =
            self.body_lines(hunk, &mut closed) && self.trailing_marker(hunk, &mut closed);
        Body { is_complete, has_marker: closed.old || closed.new }
    }

    /// The lines the counts ask for; false (after a defect) when they are not there.
    fn body_lines(&mut self, hunk: &mut Hunk<'a>, closed: &mut Closed) -> bool {
        let (mut old, mut new) = (hunk.old_count, hunk.new_count);
        let wanted = old.saturating_add(new).min(1 << 12);
        let wanted = usize::try_from(wanted).unwrap_or(0);
        hunk.lines = Lines::packed(self.cur.input(), self.cur.offset(), self.cur.line(), wanted);
        let mut has_change = false;
        while old > 0 || new > 0 {
            let Some(line) = self.cur.peek() else {
                self.too_short(hunk, None, old, new);
                return false;
            };
            let kind = match self.body_kind(hunk, closed, line, (old, new)) {
                Next::Line(kind) => kind,
                Next::Marker => {
                    self.cur.bump();
                    continue;
                }
                Next::Stop => return false,
            };
            match kind {
                LineKind::Context => (old, new) = (old - 1, new - 1),
                LineKind::Add => (new, has_change) = (new - 1, true),
                LineKind::Remove => (old, has_change) = (old - 1, true),
            }
            self.push_body_line(hunk, line, kind);
            self.cur.bump();
        }
        if !has_change {
            self.context_only(hunk);
        }
        true
    }

    /// What the next line is to a hunk with `left` (old, new) lines still to read: a line the
    /// counts take, a `\ No newline` marker (taken), or the end of the hunk after a defect.
    #[inline]
    fn body_kind(
        &mut self,
        hunk: &mut Hunk<'a>,
        closed: &mut Closed,
        line: Raw<'a>,
        (old, new): (u64, u64),
    ) -> Next {
        let kind = match line.first() {
            Some(b' ') => LineKind::Context,
            Some(b'+') => LineKind::Add,
            Some(b'-') => LineKind::Remove,
            None => {
                self.notes.blank_context.add(line.span);
                LineKind::Context
            }
            Some(b'\\') => {
                let is_ok = self.no_newline(hunk, closed, line);
                return if is_ok { Next::Marker } else { Next::Stop };
            }
            Some(_) => {
                self.interrupted(hunk, line, old, new);
                return Next::Stop;
            }
        };
        let fits = match kind {
            LineKind::Context => old > 0 && new > 0,
            LineKind::Add => new > 0,
            LineKind::Remove => old > 0,
        };
        if !fits {
            self.miscount(hunk, line, kind, old, new);
            return Next::Stop;
        }
        if closed.blocks(kind) {
            self.after_no_newline(line);
            return Next::Stop;
        }
        Next::Line(kind)
    }

    /// Keep a body line the counts took (its text after the prefix: an empty line is an empty
    /// context line, with no prefix).
    #[inline]
    fn push_body_line(&mut self, hunk: &mut Hunk<'a>, line: Raw<'a>, kind: LineKind) {
        let prefix = usize::from(!line.text.is_empty());
        let text = &line.text[prefix..];
        if kind != LineKind::Context && self.cur.may_hold_nul() && memchr::memchr(0, text).is_some()
        {
            // Binary content smuggled into a text hunk: git would treat the file as binary.
            let message = "a hunk line holds a NUL byte; binary content cannot travel as text: \
                           send a binary patch (git diff --binary)"
                .to_owned();
            self.defect(DefectCode::NulInText, line.span, message);
        }
        hunk.lines.push_text(line.span.offset + prefix, text.len(), kind);
    }

    /// A marker right after the counts are used up belongs to the hunk's last line.
    fn trailing_marker(&mut self, hunk: &mut Hunk<'a>, closed: &mut Closed) -> bool {
        let Some(line) = self.cur.peek().filter(|l| l.first() == Some(b'\\')) else {
            return true;
        };
        let is_ok = self.no_newline(hunk, closed, line);
        if is_ok {
            self.cur.bump();
        }
        is_ok
    }

    /// A `\ No newline at end of file` marker: it belongs to the line before it.
    fn no_newline(&mut self, hunk: &mut Hunk<'a>, closed: &mut Closed, line: Raw<'a>) -> bool {
        let Some(kind) = hunk.lines.close_last() else {
            let message = "`\\ No newline at end of file` with no body line before it to apply to";
            self.defect(DefectCode::MisplacedNoNewline, line.span, message.to_owned());
            return false;
        };
        match kind {
            LineKind::Context => (closed.old, closed.new) = (true, true),
            LineKind::Add => closed.new = true,
            LineKind::Remove => closed.old = true,
        }
        true
    }

    fn after_no_newline(&mut self, line: Raw<'a>) {
        let message = format!(
            "`{}` follows a `\\ No newline at end of file` on the same side; the marker must end its side of the file",
            quote_input(line.text)
        );
        self.defect(DefectCode::MisplacedNoNewline, line.span, message);
    }

    /// A line that cannot be a body line while counts remain.
    fn interrupted(&mut self, hunk: &Hunk<'a>, line: Raw<'a>, old: u64, new: u64) {
        let t = line.trimmed();
        if t.starts_with(b"```") && self.options.is_strict {
            let message = format!("markdown fence line {} inside a hunk", quote_input(line.text));
            self.defect(DefectCode::MarkdownFence, line.span, message);
        } else if t.starts_with(b"@@") || t.starts_with(b"diff ") || self.is_entry_start(line) {
            self.too_short(hunk, Some(line), old, new);
        } else {
            let message = format!(
                "body line `{}` starts with none of ` `, `+`, `-`, `\\`; prefix context lines with a space",
                quote_input(line.text)
            );
            self.defect(DefectCode::BadLinePrefix, line.span, message);
        }
    }

    /// The defect points at the hunk's own header, so it is blamed on the file and hunk that
    /// own the counts, not on the entry whose header the counts run into.
    fn too_short(&mut self, hunk: &Hunk<'a>, at: Option<Raw<'a>>, old: u64, new: u64) {
        let what = match at {
            Some(line) => format!("another header starts at line {}", line.span.line),
            None => "the input ends".to_owned(),
        };
        let (has_old, has_new) = self.body_holds(hunk);
        let message = format!(
            "hunk `{}` is short: {what} with {old} preimage and {new} postimage line(s) still due (the body holds {has_old} old and {has_new} new); write `{}` if nothing is missing, else restore the lines",
            quote_input(hunk_header_text(self, hunk)),
            self.fitting_header(hunk)
        );
        self.defect(DefectCode::HunkTooShort, hunk.span, message);
    }

    /// A body line for a side whose count is used up.
    fn miscount(&mut self, hunk: &Hunk<'a>, line: Raw<'a>, kind: LineKind, old: u64, new: u64) {
        if line.text.is_empty() || line.trimmed() == b"-- " || self.is_entry_start(line) {
            self.too_short(hunk, Some(line), old, new);
            return;
        }
        let side = match kind {
            LineKind::Remove => "removed",
            LineKind::Add => "added",
            LineKind::Context => "context",
        };
        let message = format!(
            "{} (the {side} line `{}` at line {} is past them); write `{}`",
            self.counts_and_body(hunk),
            quote_input(line.text),
            line.span.line,
            self.fitting_header(hunk)
        );
        self.defect(DefectCode::HunkTooLong, line.span, message);
    }

    /// A hunk with no added and no removed line does nothing (git: corrupt patch).
    fn context_only(&mut self, hunk: &Hunk<'a>) {
        let message = format!(
            "hunk `{}` has no added or removed line; drop it",
            quote_input(hunk_header_text(self, hunk))
        );
        self.defect(DefectCode::ContextOnlyHunk, hunk.span, message);
    }

    /// The lines after the last hunk's counts are used up, up to the next file entry or the
    /// end. `git apply` drops them all, so they are judged by what would be lost: a run of
    /// context (empty, whitespace-only or ` ` lines) followed by the next entry, text or the
    /// end loses nothing and is dropped with a note; a `+`, `-` or `\` line would be silently
    /// lost (a defect, with the counts that fit the body); and a run followed by the entry's
    /// next `@@` makes git refuse that hunk as a fragment without a header (a defect too).
    fn leftover(&mut self, file: &FilePatch<'a>) {
        let Some(first) = self.cur.peek() else { return };
        let Some(hunk) = file.hunks.last() else { return };
        if self.cur.rest_is_blank() {
            // Only empty lines up to the end (a patch string ending in "\n\n").
            let message = "the patch ends with empty line(s) after its last hunk; they are ignored"
                .to_owned();
            self.out.warnings.push(Warning {
                code: WarningCode::TrailingBlankLines,
                message,
                span: first.span,
            });
            while self.cur.peek().is_some() {
                self.cur.bump();
            }
            return;
        }
        if first.first() == Some(b'\\') {
            let message = "`\\ No newline at end of file` after a complete hunk; it can only follow a body line".to_owned();
            self.defect(DefectCode::MisplacedNoNewline, first.span, message);
            self.skip_to_entry();
            return;
        }
        let run: Vec<Raw<'a>> =
            self.cur.lines_from(first).take_while(|l| is_context_like(l.text)).collect();
        let next = run.last().map_or(Some(first), |&last| self.cur.line_after(last));
        match next.filter(|&n| self.is_body_past_counts(n)) {
            Some(line) if line.trimmed().starts_with(b"@@") => self.before_next_hunk(hunk, &run),
            Some(line) => self.change_past_counts(hunk, line),
            None => self.drop_context(hunk, &run),
        }
    }

    /// A line that belongs to a hunk body (a change or a marker) or starts the next hunk:
    /// git would not skip it as text outside the entries.
    fn is_body_past_counts(&self, line: Raw<'a>) -> bool {
        match line.first() {
            Some(b'+' | b'\\') => true,
            Some(b'@') => line.text.starts_with(b"@@"),
            Some(b'-') => line.trimmed() != b"-- " && !self.is_pair_at(line),
            _ => false,
        }
    }

    /// `--- x` followed by `+++ y`: a traditional entry starts at `line`.
    fn is_pair_at(&self, line: Raw<'a>) -> bool {
        line.text.starts_with(b"--- ")
            && self.cur.line_after(line).is_some_and(|n| n.text.starts_with(b"+++ "))
    }

    /// Context past the counts, then the next entry, text or the end: dropped with a note.
    fn drop_context(&mut self, hunk: &Hunk<'a>, run: &[Raw<'a>]) {
        let Some(first) = run.first() else { return };
        if run.iter().all(|l| is_blank(l.text)) {
            for line in run {
                self.notes.blank_outside.add(line.span);
            }
        } else {
            let shown: Vec<String> =
                run.iter().take(3).map(|l| format!("`{}`", quote_input(l.text))).collect();
            let more = if run.len() > 3 { ", ..." } else { "" };
            let message = format!(
                "{} context line(s) after hunk `{}`, whose counts are used up ({}{more}), dropped as git drops them; if they belong to the hunk, write `{}`",
                run.len(),
                quote_input(hunk_header_text(self, hunk)),
                shown.join(", "),
                self.fitting_header(hunk)
            );
            let warning =
                Warning { code: WarningCode::ContextAfterHunk, message, span: first.span };
            self.out.warnings.push(warning);
        }
        for _ in run {
            self.cur.bump();
        }
    }

    /// A `+`, `-` or `\` line past the counts: git would silently drop a change.
    fn change_past_counts(&mut self, hunk: &Hunk<'a>, line: Raw<'a>) {
        let message = format!(
            "{} (`{}` at line {} follows them, and git would drop it); write `{}`",
            self.counts_and_body(hunk),
            quote_input(line.text),
            line.span.line,
            self.fitting_header(hunk)
        );
        self.defect(DefectCode::HunkTooLong, line.span, message);
        self.skip_to_entry();
    }

    /// Lines between a hunk whose counts are used up and the next `@@` of the entry: git
    /// stops reading the entry there and refuses the next hunk.
    fn before_next_hunk(&mut self, hunk: &Hunk<'a>, run: &[Raw<'a>]) {
        let Some(first) = run.first() else { return };
        let what = if run.iter().all(|l| is_blank(l.text)) {
            "remove them".to_owned()
        } else {
            format!(
                "remove them, or, if they are context of the hunk, write `{}`",
                self.fitting_header(hunk)
            )
        };
        let message = format!(
            "{} line(s) from `{}` on lie between hunk `{}`, whose counts are used up, and the next hunk, which git then refuses as a fragment without a header; {what}",
            run.len(),
            quote_input(first.text),
            quote_input(hunk_header_text(self, hunk))
        );
        self.defect(DefectCode::HunkTooLong, first.span, message);
        self.skip_to_entry();
    }

    /// Hunks of one file must ascend and not overlap; a `\ No newline` must be in the last.
    fn check_order(&mut self, file: &FilePatch<'a>, hunk: &Hunk<'a>, prev_has_marker: bool) {
        let Some(prev) = file.hunks.last() else { return };
        if prev_has_marker {
            let message =
                "a hunk follows one that ends its file with `\\ No newline at end of file`"
                    .to_owned();
            self.defect(DefectCode::MisplacedNoNewline, hunk.span, message);
        }
        let begin = |h: &Hunk<'_>| h.old_start.saturating_add(u64::from(h.old_count == 0));
        let prev_end = begin(prev).saturating_add(prev.old_count);
        let (code, relation) = if begin(hunk) < begin(prev) {
            (DefectCode::HunkOutOfOrder, "comes before")
        } else if begin(hunk) < prev_end {
            (DefectCode::HunkOverlap, "overlaps")
        } else {
            return;
        };
        let message = format!(
            "hunk at preimage line {} {relation} the previous hunk (lines {}-{}); order hunks by line and merge overlapping ones",
            hunk.old_start,
            prev.old_start,
            prev_end.saturating_sub(1)
        );
        self.defect(code, hunk.span, message);
    }
}

impl<'a> Parser<'a, '_> {
    /// What the body of `hunk` holds when read without its counts: every body line up to
    /// the next header, `@@` or text. Whitespace-only lines at its end may be separators or
    /// junk a model wrote as much as context: they count only as far as the header's old-side
    /// count reaches (the base, which alone could tell, is `repair`'s to read). Returns the
    /// old-side and new-side line counts.
    fn body_holds(&self, hunk: &Hunk<'a>) -> (u64, u64) {
        let header = Raw { text: hunk_header_text(self, hunk), span: hunk.span };
        let mut kinds: Vec<(LineKind, bool)> = Vec::new();
        for line in self.cur.lines_from(header).skip(1) {
            let kind = match line.first() {
                _ if is_blank(line.text) => LineKind::Context,
                Some(b' ') => LineKind::Context,
                Some(b'+') => LineKind::Add,
                Some(b'-') if !self.is_pair_at(line) => LineKind::Remove,
                Some(b'\\') => continue,
                _ => break,
            };
            kinds.push((kind, is_blank(line.text)));
        }
        let blanks =
            kinds.iter().rev().take_while(|&&(k, blank)| k == LineKind::Context && blank).count();
        let count = |kinds: &[(LineKind, bool)], gone: LineKind| {
            kinds.iter().filter(|&&(k, _)| k != gone).count() as u64
        };
        let core = &kinds[..kinds.len() - blanks];
        let (old, new) = (count(core, LineKind::Add), count(core, LineKind::Remove));
        let kept = hunk.old_count.saturating_sub(old).min(blanks as u64);
        (old + kept, new + kept)
    }

    /// `the header says -5,7 +5,9 but the body holds 6 old and 8 new line(s)`.
    fn counts_and_body(&self, hunk: &Hunk<'a>) -> String {
        let (old, new) = self.body_holds(hunk);
        format!(
            "the header says -{},{} +{},{} but the body holds {old} old and {new} new line(s)",
            hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
        )
    }

    /// The `@@` line whose counts fit the body (see [`Parser::body_holds`]).
    fn fitting_header(&self, hunk: &Hunk<'a>) -> String {
        let (old, new) = self.body_holds(hunk);
        let header = super::hunk_header((hunk.old_start, old), (hunk.new_start, new), b"");
        quote_input(&header)
    }
}

/// A line that could be context of a hunk: empty, whitespace-only, or starting with a space.
fn is_context_like(text: &[u8]) -> bool {
    text.first() == Some(&b' ') || is_blank(text)
}

/// The `@@` line of a hunk, for messages.
fn hunk_header_text<'a>(parser: &Parser<'a, '_>, hunk: &Hunk<'a>) -> &'a [u8] {
    let input = parser.cur.input();
    let rest = &input[hunk.span.offset..];
    &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
}
