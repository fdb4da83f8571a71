//! The driver: the parser's state, the top-level grammar (mail preamble, file entries, signature,
//! and what is no part of a diff), and the final checks across entries.
//!
//! Grammar, in the order the input is read:
//! `[mail preamble] entry* [signature] (mail entry* [signature])*`, where an entry is a
//! `diff --git` header with extended headers, or a traditional `---`/`+++` pair, followed by
//! hunks or a binary block. Anything else is a defect (strict) or skipped with a warning
//! (lenient). Hunk bodies are read by their counts (`hunk.rs`), never by what lines look like.

use super::cursor::{Cursor, Raw};
use super::{Defect, DefectCode, ParseOptions, Parsed, Span, Warning, WarningCode};

/// Where a warning first occurred and how often.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    pub count: usize,
    pub first: Option<Span>,
}

impl Tally {
    pub fn add(&mut self, span: Span) {
        self.count += 1;
        self.first.get_or_insert(span);
    }
}

/// Warnings gathered while parsing, emitted once each at the end.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Notes {
    pub blank_context: Tally,
    pub binary: Tally,
    pub preamble: Tally,
    pub signature: Tally,
    pub skipped: Tally,
    pub fences: Tally,
    pub blank_outside: Tally,
}

/// The parser's state.
#[derive(Debug)]
pub(super) struct Parser<'a, 'o> {
    pub cur: Cursor<'a>,
    pub options: &'o ParseOptions,
    pub out: Parsed<'a>,
    pub notes: Notes,
    /// A defect that names a foreign format (ed, normal, context, combined, bare hunk): then
    /// "no file headers" would only repeat it.
    pub saw_foreign: bool,
    /// How many defects there were when the current entry started.
    pub entry_defects: usize,
}

/// What a line at the top level starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    Git,
    Traditional,
    Mail,
    Signature,
    Fence,
    Hunk,
    Foreign(DefectCode),
    Other,
}

pub(super) fn run<'a>(input: &'a [u8], options: &ParseOptions) -> Parsed<'a> {
    if input.iter().all(u8::is_ascii_whitespace) {
        let message = "the patch is empty; send a unified diff (`git diff` output)".to_owned();
        let defect = Defect { code: DefectCode::EmptyPatch, message, span: Span::first() };
        return Parsed { defects: vec![defect], ..Parsed::default() };
    }
    let mut parser = Parser {
        cur: Cursor::new(input),
        options,
        out: Parsed::default(),
        notes: Notes::default(),
        saw_foreign: false,
        entry_defects: 0,
    };
    parser.document();
    parser.finish()
}

impl Span {
    /// The first line of the input.
    pub(super) fn first() -> Self {
        Span { offset: 0, line: 1 }
    }
}

/// `From <40 or 64 hex> ...`: the mbox separator `git format-patch` writes.
pub(super) fn is_mbox_start(t: &[u8]) -> bool {
    let Some(rest) = t.strip_prefix(b"From ") else { return false };
    let id = rest.split(|&b| b == b' ').next().unwrap_or_default();
    matches!(id.len(), 40 | 64) && id.iter().all(u8::is_ascii_hexdigit)
}

/// Shorten and escape input for a message.
pub(super) fn quote_input(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.len() > MAX {
        let mut cut = MAX;
        while cut > 0 && (bytes[cut] & 0xc0) == 0x80 {
            cut -= 1;
        }
        format!("{}...", crate::path::display_bytes(&bytes[..cut]))
    } else {
        crate::path::display_bytes(bytes)
    }
}

impl<'a> Parser<'a, '_> {
    pub fn defect(&mut self, code: DefectCode, span: Span, message: String) {
        self.out.defects.push(Defect { code, message, span });
    }

    fn document(&mut self) {
        if let Some(first) = self.cur.peek() {
            let t = first.trimmed();
            if is_mbox_start(t) || t.starts_with(b"From: ") {
                self.mail_preamble();
            }
        }
        while let Some(line) = self.cur.peek() {
            self.top_level(line);
        }
    }

    /// Classify a top-level line.
    pub fn classify(&self, line: Raw<'a>) -> Start {
        let t = line.trimmed();
        match t.first() {
            Some(b'd') if t.starts_with(b"diff --git ") => Start::Git,
            Some(b'd') if t.starts_with(b"diff --cc ") || t.starts_with(b"diff --combined ") => {
                Start::Foreign(DefectCode::CombinedDiff)
            }
            Some(b'd') if t.starts_with(b"diff ") && self.is_command_then_traditional() => {
                Start::Traditional
            }
            Some(b'@') if t.starts_with(b"@@@") => Start::Foreign(DefectCode::CombinedDiff),
            Some(b'@') if t.starts_with(b"@@") => Start::Hunk,
            Some(b'-') if t == b"-- " => Start::Signature,
            Some(b'-') if self.is_traditional_start(line) => Start::Traditional,
            Some(b'-') if t.starts_with(b"--- ") && self.is_before_hunk() => {
                Start::Foreign(DefectCode::IncompleteHeader)
            }
            Some(b'F') if is_mbox_start(t) => Start::Mail,
            Some(b'`') if t.starts_with(b"```") => Start::Fence,
            Some(b'*') if self.is_context_diff(t) => Start::Foreign(DefectCode::ContextDiff),
            Some(b'0'..=b'9') => foreign_numbered(t).map_or(Start::Other, Start::Foreign),
            _ => Start::Other,
        }
    }

    /// `--- x` followed by `+++ y`.
    pub fn is_traditional_start(&self, line: Raw<'a>) -> bool {
        line.text.starts_with(b"--- ")
            && self.cur.peek().is_some_and(|c| c.span == line.span)
            && self.cur.peek_next().is_some_and(|n| n.text.starts_with(b"+++ "))
    }

    /// `---` directly followed by a hunk: a traditional header missing its `+++`.
    fn is_before_hunk(&self) -> bool {
        self.cur.peek_next().is_some_and(|n| n.text.starts_with(b"@@ "))
    }

    fn is_command_then_traditional(&self) -> bool {
        let minus = self.cur.peek_nth(1).is_some_and(|l| l.text.starts_with(b"--- "));
        minus && self.cur.peek_nth(2).is_some_and(|l| l.text.starts_with(b"+++ "))
    }

    fn is_context_diff(&self, t: &[u8]) -> bool {
        t.starts_with(b"***************")
            || (t.starts_with(b"*** ")
                && self.cur.peek_next().is_some_and(|n| n.text.starts_with(b"--- ")))
    }

    /// Whether a line starts a new entry or mail: where recovery after a defect resumes.
    pub fn is_entry_start(&self, line: Raw<'a>) -> bool {
        let is_start = matches!(line.first(), Some(b'd' | b'-' | b'F'))
            && matches!(self.classify(line), Start::Git | Start::Traditional | Start::Mail);
        is_start || line.text.starts_with(b"diff --cc ")
    }

    /// Skip everything up to the next entry (the current line too, unless it starts one: a
    /// hunk cut short by the next `diff --git` must not swallow that entry).
    pub fn skip_to_entry(&mut self) {
        while let Some(line) = self.cur.peek() {
            if self.is_entry_start(line) {
                break;
            }
            self.cur.bump();
        }
    }

    fn top_level(&mut self, line: Raw<'a>) {
        if super::cursor::is_blank(line.text) {
            // git skips it; nothing it could hold changes what is applied.
            self.notes.blank_outside.add(line.span);
            self.cur.bump();
            return;
        }
        match self.classify(line) {
            Start::Git => self.git_entry(),
            Start::Traditional => self.traditional_entry(),
            Start::Mail => self.mail_preamble(),
            Start::Signature if !self.out.patch.files.is_empty() => self.signature(),
            Start::Fence => self.fence(line),
            Start::Hunk => {
                let message = format!(
                    "hunk `{}` has no file header before it; add the `diff --git`/`---`/`+++` lines",
                    quote_input(line.text)
                );
                self.foreign(DefectCode::FragmentWithoutHeader, line, message);
            }
            Start::Foreign(code) => {
                let message = foreign_message(code, line.text);
                self.foreign(code, line, message);
            }
            Start::Signature | Start::Other => self.garbage(line),
        }
    }

    fn foreign(&mut self, code: DefectCode, line: Raw<'a>, message: String) {
        self.saw_foreign = true;
        self.defect(code, line.span, message);
        if code == DefectCode::CombinedDiff {
            // A combined diff's own `---`/`+++` lines are no new entry.
            self.cur.bump();
            while let Some(next) = self.cur.peek() {
                let t = next.trimmed();
                if t.starts_with(b"diff --") || is_mbox_start(t) {
                    break;
                }
                self.cur.bump();
            }
        } else {
            self.skip_to_entry();
        }
    }

    /// A mail's headers, commit message and diffstat, up to its first entry.
    fn mail_preamble(&mut self) {
        let span = self.cur.peek().map_or_else(Span::first, |l| l.span);
        self.notes.preamble.add(span);
        self.cur.bump();
        while let Some(line) = self.cur.peek() {
            let is_diff = matches!(self.classify(line), Start::Git | Start::Traditional)
                || line.text.starts_with(b"diff --cc ");
            if is_diff || is_mbox_start(line.trimmed()) {
                break;
            }
            self.cur.bump();
        }
    }

    /// `-- ` and the version line after it, up to the end or the next mail.
    fn signature(&mut self) {
        let span = self.cur.peek().map_or_else(Span::first, |l| l.span);
        self.notes.signature.add(span);
        self.cur.bump();
        while let Some(line) = self.cur.peek() {
            let is_diffish = matches!(line.first(), Some(b' ' | b'+' | b'-' | b'@'))
                || line.text.starts_with(b"diff ");
            if is_diffish || is_mbox_start(line.trimmed()) {
                break;
            }
            self.cur.bump();
        }
    }

    fn fence(&mut self, line: Raw<'a>) {
        if self.options.is_strict {
            let message = format!(
                "markdown fence line {} around the patch; send the raw diff without fence lines",
                quote_input(line.text)
            );
            self.defect(DefectCode::MarkdownFence, line.span, message);
        } else {
            self.notes.fences.add(line.span);
        }
        self.cur.bump();
    }

    /// Text that is no part of a diff: one defect (or warning) per contiguous block.
    fn garbage(&mut self, line: Raw<'a>) {
        if self.options.is_strict {
            let message = format!(
                "text outside any file entry: `{}`; send only the diff, without prose or notes",
                quote_input(line.text)
            );
            self.defect(DefectCode::Garbage, line.span, message);
        } else {
            self.notes.skipped.add(line.span);
        }
        self.cur.bump();
        while let Some(next) = self.cur.peek() {
            if self.classify(next) != Start::Other {
                break;
            }
            self.cur.bump();
        }
    }

    fn finish(mut self) -> Parsed<'a> {
        if let Some(span) = self.cur.endings.unterminated {
            let message = "the last line has no final newline; end the patch with `\\n`".to_owned();
            self.defect(DefectCode::MissingFinalNewline, span, message);
        }
        if self.out.patch.files.is_empty() && !self.saw_foreign {
            self.out.defects.clear();
            let message =
                "no file header (`diff --git` or `---`/`+++`) anywhere; send a unified diff"
                    .to_owned();
            self.defect(DefectCode::NoFileHeaders, Span::first(), message);
        }
        self.check_duplicates();
        self.out.defects.sort_by_key(|d| d.span.offset);
        self.emit_warnings();
        self.out
    }

    fn emit_warnings(&mut self) {
        self.emit_line_ending_warning();
        self.emit_tally_warnings();
        self.out.warnings.sort_by_key(|w| w.span.offset);
    }

    /// `crlf` or `mixed_line_endings`, at the first CRLF line.
    fn emit_line_ending_warning(&mut self) {
        let e = self.cur.endings;
        if let Some(first) = e.first_crlf {
            let (code, message) = if e.lf == 0 {
                (WarningCode::Crlf, format!("all {} lines end in CRLF; kept as content", e.crlf))
            } else {
                let message = format!("{} lines end in CRLF and {} in LF", e.crlf, e.lf);
                (WarningCode::MixedLineEndings, message)
            };
            self.out.warnings.push(Warning { code, message, span: first });
        }
    }

    /// One warning per kind of line the parser skipped or read leniently, with their number,
    /// at the first.
    fn emit_tally_warnings(&mut self) {
        let n = self.notes;
        let tallies = [
            (
                n.preamble,
                WarningCode::MailPreamble,
                "mail preamble skipped",
                "mail preambles skipped",
            ),
            (
                n.blank_context,
                WarningCode::BlankContextWithoutSpace,
                "empty body line read as an empty context line",
                "empty body lines read as empty context lines",
            ),
            (
                n.binary,
                WarningCode::Binary,
                "binary entry: its content cannot be checked as text",
                "binary entries: their content cannot be checked as text",
            ),
            (
                n.signature,
                WarningCode::Signature,
                "format-patch signature skipped",
                "format-patch signatures skipped",
            ),
            (
                n.skipped,
                WarningCode::SkippedText,
                "block of text outside file entries skipped",
                "blocks of text outside file entries skipped",
            ),
            (
                n.fences,
                WarningCode::MarkdownFence,
                "markdown fence line skipped",
                "markdown fence lines skipped",
            ),
            (
                n.blank_outside,
                WarningCode::BlankOutsideEntry,
                "whitespace-only line outside the file entries dropped, as git skips it",
                "whitespace-only lines outside the file entries dropped, as git skips them",
            ),
        ];
        for (tally, code, one, many) in tallies {
            if let Some(span) = tally.first {
                let what = if tally.count == 1 { one } else { many };
                let message = format!("{} {what}", tally.count);
                self.out.warnings.push(Warning { code, message, span });
            }
        }
    }
}

/// `5a`, `3,4d` (ed script) or `1c1`, `3,4d2` (normal diff).
fn foreign_numbered(t: &[u8]) -> Option<DefectCode> {
    let range = |s: &[u8]| -> usize {
        let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return 0;
        }
        match s.get(digits) {
            Some(b',') => {
                let more = s[digits + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
                if more == 0 { digits } else { digits + 1 + more }
            }
            _ => digits,
        }
    };
    let first = range(t);
    if first == 0 || !matches!(t.get(first), Some(b'a' | b'c' | b'd')) {
        return None;
    }
    let rest = &t[first + 1..];
    if rest.is_empty() {
        return Some(DefectCode::EdScript);
    }
    (range(rest) == rest.len()).then_some(DefectCode::NormalDiff)
}

fn foreign_message(code: DefectCode, text: &[u8]) -> String {
    if code == DefectCode::IncompleteHeader {
        return format!(
            "`{}` is not followed by a `+++` line; every `---` needs its `+++`",
            quote_input(text)
        );
    }
    let what = match code {
        DefectCode::CombinedDiff => "a combined (merge) diff",
        DefectCode::ContextDiff => "a context diff",
        DefectCode::NormalDiff => "a normal diff",
        _ => "an ed script",
    };
    format!(
        "`{}` starts {what}, not a unified diff; send `git diff` or `diff -u` output",
        quote_input(text)
    )
}
