//! The one renderer for findings on a patch: every violation and note of a [`Report`] placed on
//! the patch line it concerns ([`annotate`]), listed as compiler-style headlines
//! ([`write_list`]), and marked under the patch's lines ([`write_patch`]), whole (`review show`)
//! or only around the marked lines (`validate --format text`).

use crate::finding::{Code, NoteCode};
use crate::patch::{FilePatch, LineKind, ParseOptions, Parsed, parse};
use crate::path::display_bytes;
use crate::rule::{Note, Report, RuleId, Violation};
use anstyle::{AnsiColor, Style};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write as _;

/// Carets under a line stop here: a long line needs no ruler across the screen.
const MAX_CARETS: usize = 72;
/// Most body lines shown under a marked hunk header when only the marked lines are shown.
const HUNK_CONTEXT: usize = 8;

/// The styles of the diagnostics; [`Palette::plain`] for `--color never` and for text that is
/// not a terminal's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    pub(super) title: Style,
    header: Style,
    hunk: Style,
    add: Style,
    remove: Style,
    gutter: Style,
    pub(super) error: Style,
    warning: Style,
    note: Style,
    repair: Style,
    location: Style,
}

impl Palette {
    /// No colour at all.
    #[must_use]
    pub fn plain() -> Self {
        Self::default()
    }

    /// git's diff colours and rustc's diagnostic colours.
    #[must_use]
    pub fn coloured() -> Self {
        let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
        Self {
            title: Style::new().bold(),
            header: Style::new().bold(),
            hunk: fg(AnsiColor::Cyan),
            add: fg(AnsiColor::Green),
            remove: fg(AnsiColor::Red),
            gutter: fg(AnsiColor::Blue).bold(),
            error: fg(AnsiColor::Red).bold(),
            warning: fg(AnsiColor::Yellow).bold(),
            note: fg(AnsiColor::Cyan).bold(),
            repair: fg(AnsiColor::Green).bold(),
            location: Style::new().bold(),
        }
    }

    /// Whether any colour is used.
    #[must_use]
    pub fn is_coloured(&self) -> bool {
        self.error != Style::new()
    }
}

/// The kind of a finding in a one-line diagnostic ([`located`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A defect or refusal: why the input was rejected.
    Error,
    /// Worth a look, not a rejection.
    Warning,
    /// A repair made.
    Repair,
}

/// `PLACE LEVEL[CODE]: message`, the form editors and compilers use (`PLACE` is
/// `NAME:LINE:`), the place and the level in `p`'s colours.
#[must_use]
pub fn located(p: &Palette, place: &str, level: Level, code: &str, message: &str) -> String {
    let (style, label) = match level {
        Level::Error => (p.error, "error"),
        Level::Warning => (p.warning, "warning"),
        Level::Repair => (p.repair, "repair"),
    };
    let at = p.location;
    format!("{at}{place}{at:#} {style}{label}[{code}]{style:#}: {message}")
}

/// How serious an annotation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A violation: the reason the result was rejected.
    Error,
    /// A note from the report.
    Note,
}

/// A violation or note placed on the patch.
#[derive(Clone, Debug, Serialize)]
pub struct Annotation {
    /// `error` for violations, `note` for notes.
    pub severity: Severity,
    /// The rule, for violations.
    pub rule: Option<RuleId>,
    /// The stable code.
    pub code: AnnotatedCode,
    /// The message, without the rule prefix.
    pub message: String,
    /// The file at fault, when known.
    pub file: Option<String>,
    /// The 1-based hunk within the file, when known.
    pub hunk: Option<usize>,
    /// The 1-based patch line the annotation sits on: the violation's own line, else its hunk's
    /// `@@` line, else its file's header; `None` when it concerns no line.
    pub line: Option<usize>,
    /// The text of that line.
    pub line_text: Option<String>,
}

/// The code of what an [`Annotation`] places: a violation's or a note's (on the wire, its
/// plain name).
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnnotatedCode {
    /// A violation's code.
    Violation(Code),
    /// A note's code.
    Note(NoteCode),
}

impl std::fmt::Display for AnnotatedCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Violation(code) => code.fmt(f),
            Self::Note(code) => code.fmt(f),
        }
    }
}

/// A patch as the renderer shows it: its lines as git numbers them, and what each line is.
#[derive(Debug)]
pub struct PatchText<'t> {
    lines: Vec<&'t str>,
    parsed: Parsed<'t>,
}

impl<'t> PatchText<'t> {
    /// Read `text` leniently: a defective patch is shown as far as it reads.
    #[must_use]
    pub fn new(text: &'t str) -> Self {
        let parsed =
            parse(text.as_bytes(), &ParseOptions { is_strict: false, ..Default::default() });
        Self { lines: patch_lines(text), parsed }
    }

    fn line(&self, n: Option<usize>) -> Option<String> {
        n.and_then(|n| self.lines.get(n.checked_sub(1)?)).map(|l| (*l).to_owned())
    }

    fn has_line(&self, n: usize) -> bool {
        (1..=self.lines.len()).contains(&n)
    }

    /// The patch line a violation belongs on: its own, else its hunk's `@@`, else its file's
    /// header.
    fn place(&self, v: &Violation) -> Option<usize> {
        if let Some(line) = v.patch_line.filter(|&l| self.has_line(l)) {
            return Some(line);
        }
        let wanted = v.file.as_deref()?;
        let file = self.parsed.patch.files.iter().find(|f| names(f, wanted))?;
        let hunk = v.hunk.and_then(|h| file.hunks.get(h.checked_sub(1)?));
        Some(hunk.map_or(file.span.line, |h| h.span.line))
    }
}

/// Place every violation (then every note) of `report` on `patch`.
#[must_use]
pub fn annotate(report: &Report, patch: &PatchText<'_>) -> Vec<Annotation> {
    let violations = report.violations.iter().map(|v| {
        let line = patch.place(v);
        Annotation {
            severity: Severity::Error,
            rule: Some(v.rule),
            code: AnnotatedCode::Violation(v.code.clone()),
            message: v.message.clone(),
            file: v.file.clone(),
            hunk: v.hunk,
            line,
            line_text: patch.line(line),
        }
    });
    let notes = report.notes.iter().map(|n| note_annotation(n, patch));
    violations.chain(notes).collect()
}

fn note_annotation(note: &Note, patch: &PatchText<'_>) -> Annotation {
    let line = note.patch_line.filter(|&l| patch.has_line(l));
    Annotation {
        severity: Severity::Note,
        rule: None,
        code: AnnotatedCode::Note(note.code.clone()),
        message: note.message.clone(),
        file: None,
        hunk: None,
        line,
        line_text: patch.line(line),
    }
}

fn names(file: &FilePatch<'_>, wanted: &str) -> bool {
    file.paths().into_iter().any(|p| display_bytes(p) == wanted)
}

/// The lines of `text` as git numbers them; unlike `str::lines`, a `\r` before the `\n` stays,
/// so CRLF shows.
pub(super) fn patch_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n').unwrap_or(text).split('\n').collect()
}

/// Each annotation's headline and where it sits: `error[rule/code]: message` (`note[code]` for
/// notes), then `--> ORIGIN:LINE (FILE, hunk H)`.
pub fn write_list(out: &mut String, annotations: &[Annotation], origin: &str, p: &Palette) {
    for a in annotations {
        let _ = writeln!(out, "{}", headline(a, p));
        let place = match (a.line, &a.file, a.hunk) {
            (Some(line), Some(file), Some(h)) => {
                format!("{origin}:{line} ({}, hunk {h})", sanitize(file))
            }
            (Some(line), Some(file), None) => format!("{origin}:{line} ({})", sanitize(file)),
            (Some(line), None, _) => format!("{origin}:{line}"),
            (None, Some(file), _) => sanitize(file).into_owned(),
            (None, None, _) => continue,
        };
        let g = p.gutter;
        let _ = writeln!(out, "  {g}-->{g:#} {place}");
    }
}

fn headline(a: &Annotation, p: &Palette) -> String {
    let (style, label) = match a.severity {
        Severity::Error => (p.error, "error"),
        Severity::Note => (p.note, "note"),
    };
    let rule = a.rule.map_or_else(String::new, |r| format!("{r}/"));
    // A stored entry's code is text from the file like its message (found by the review fuzz
    // target: a DEL inside a code reached the terminal).
    format!(
        "{style}{label}[{rule}{}]{style:#}: {}",
        sanitize(&a.code.to_string()),
        sanitize(&a.message)
    )
}

/// How much of the patch [`write_patch`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// Every line (`review show`, paged).
    Whole,
    /// The marked lines, a marked hunk header with the start of its body, `...` between.
    Marked,
}

/// The patch under a `| patch` title, each annotated line followed by its marks: `^` under a
/// violation's line, `-` under a note's, as rustc marks primary faults and remarks.
pub fn write_patch(
    out: &mut String,
    patch: &PatchText<'_>,
    annotations: &[Annotation],
    extent: Extent,
    p: &Palette,
) {
    let shown = shown_lines(patch, annotations, extent);
    if shown.is_empty() {
        return;
    }
    let kinds = classify(&patch.lines, &patch.parsed);
    let width = patch.lines.len().to_string().len();
    let g = p.gutter;
    let _ = writeln!(out, "\n{:width$} {g}|{g:#} {}patch{:#}", "", p.title, p.title);
    let mut previous = None;
    for i in shown {
        if previous.is_some_and(|prev| prev + 1 != i) {
            let _ = writeln!(out, "{:width$} {g}|{g:#} ...", "");
        }
        previous = Some(i);
        let style = match kinds[i] {
            Kind::Header => p.header,
            Kind::Hunk => p.hunk,
            Kind::Add => p.add,
            Kind::Remove => p.remove,
            Kind::Plain => Style::new(),
        };
        let text = sanitize(patch.lines[i]);
        let _ = writeln!(out, "{g}{:>width$} |{g:#} {style}{text}{style:#}", i + 1);
        for a in annotations.iter().filter(|a| a.line == Some(i + 1)) {
            let (s, mark, label) = match a.severity {
                Severity::Error => {
                    (p.error, "^", a.rule.map_or_else(String::new, |r| format!("{r}: ")))
                }
                Severity::Note => (p.note, "-", "note: ".to_owned()),
            };
            let marks = mark.repeat(text.chars().count().clamp(1, MAX_CARETS));
            let msg = sanitize(&a.message);
            let _ = writeln!(out, "{:width$} {g}|{g:#} {s}{marks} {label}{msg}{s:#}", "");
        }
    }
}

/// The 0-based indices of the lines `extent` shows, in order.
fn shown_lines(patch: &PatchText<'_>, annotations: &[Annotation], extent: Extent) -> Vec<usize> {
    if extent == Extent::Whole {
        return (0..patch.lines.len()).collect();
    }
    let mut shown: Vec<usize> = Vec::new();
    for line in annotations.iter().filter_map(|a| a.line) {
        let at = line - 1;
        shown.push(at);
        if patch.lines[at].starts_with("@@") {
            let body = patch.lines[line..]
                .iter()
                .take_while(|l| !l.starts_with("@@") && !l.starts_with("diff "))
                .take(HUNK_CONTEXT)
                .count();
            shown.extend(line..line + body);
        }
    }
    shown.sort_unstable();
    shown.dedup();
    shown
}

/// What a patch line is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Header,
    Hunk,
    Add,
    Remove,
    Plain,
}

const HEADER_PREFIXES: &[&str] = &[
    "diff ",
    "--- ",
    "+++ ",
    "index ",
    "new file mode",
    "deleted file mode",
    "old mode",
    "new mode",
    "similarity index",
    "dissimilarity index",
    "rename from",
    "rename to",
    "copy from",
    "copy to",
    "Binary files",
    "GIT binary patch",
];

/// Each line's kind: by its prefix, then corrected by the parser where it read the structure
/// (a removed line `-- x` is not a `---` header inside a hunk).
fn classify(lines: &[&str], parsed: &Parsed<'_>) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = lines.iter().map(|l| kind_by_prefix(l)).collect();
    let mut set = |line: usize, kind| {
        if let Some(k) = line.checked_sub(1).and_then(|i| kinds.get_mut(i)) {
            *k = kind;
        }
    };
    for file in &parsed.patch.files {
        set(file.span.line, Kind::Header);
        for hunk in &file.hunks {
            set(hunk.span.line, Kind::Hunk);
            for l in &hunk.lines {
                let kind = match l.kind {
                    LineKind::Add => Kind::Add,
                    LineKind::Remove => Kind::Remove,
                    LineKind::Context => Kind::Plain,
                };
                set(l.line, kind);
            }
        }
    }
    kinds
}

fn kind_by_prefix(line: &str) -> Kind {
    if HEADER_PREFIXES.iter().any(|p| line.starts_with(p)) {
        Kind::Header
    } else if line.starts_with("@@") {
        Kind::Hunk
    } else if line.starts_with('+') {
        Kind::Add
    } else if line.starts_with('-') {
        Kind::Remove
    } else {
        Kind::Plain
    }
}

/// Agent-written text made safe for a terminal: control characters (an escape sequence in a
/// patch could rewrite the screen) shown in caret notation (`^[`), C1 controls as `\u{9b}`.
/// Tabs stay.
#[must_use]
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let is_unsafe = |c: char| c.is_control() && c != '\t';
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push(c),
            '\u{7f}' => out.push_str("^?"),
            c if u32::from(c) < 0x20 => {
                out.push('^');
                out.push(char::from_u32(u32::from(c) + 0x40).expect("0x40..0x60 is ASCII"));
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}
