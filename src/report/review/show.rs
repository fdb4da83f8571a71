//! `review show`: the step, the verdict, and the patch as a diff with every violation annotated
//! at its line, like a compiler diagnostic.

use super::sanitize;
use crate::patch::{FilePatch, LineKind, ParseOptions, Parsed, parse};
use crate::path::display_bytes;
use crate::review::{Entry, format_age, format_time};
use crate::rule::{Note, RuleId, Violation};
use anstyle::{AnsiColor, Style};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::SystemTime;

/// Carets under a line stop here: a long line needs no ruler across the screen.
const MAX_CARETS: usize = 72;

/// The styles of `review show`; [`Palette::plain`] for `--color never`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    title: Style,
    header: Style,
    hunk: Style,
    add: Style,
    remove: Style,
    gutter: Style,
    error: Style,
    note: Style,
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
            note: fg(AnsiColor::Cyan).bold(),
        }
    }
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
    pub code: String,
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

/// The JSON of `review show`: the entry, its patch, and the annotations.
#[derive(Debug, Serialize)]
pub struct ShowView<'e> {
    /// The short id.
    pub short_id: String,
    /// The stored entry.
    pub entry: &'e Entry,
    /// The result's patch, when it has one.
    pub patch: Option<String>,
    /// Every violation, then every note, placed on the patch.
    pub annotations: Vec<Annotation>,
}

/// Place the entry's violations and notes on its patch.
#[must_use]
pub fn annotate<'e>(entry: &'e Entry, short_id: &str) -> ShowView<'e> {
    let patch = entry.patch();
    let text = patch.as_deref().unwrap_or_default();
    let parsed = parse(text.as_bytes(), &ParseOptions { is_strict: false, ..Default::default() });
    let lines = patch_lines(text);
    let line_text = |n: Option<usize>| n.and_then(|n| lines.get(n - 1)).map(|l| (*l).to_owned());
    let mut annotations = Vec::new();
    for v in &entry.report.violations {
        let line = place(v, &parsed, lines.len());
        annotations.push(Annotation {
            severity: Severity::Error,
            rule: Some(v.rule),
            code: v.code.to_string(),
            message: v.message.clone(),
            file: v.file.clone(),
            hunk: v.hunk,
            line,
            line_text: line_text(line),
        });
    }
    annotations.extend(entry.report.notes.iter().map(|n| note_annotation(n, lines.len())));
    for a in annotations.iter_mut().filter(|a| a.severity == Severity::Note) {
        a.line_text = line_text(a.line);
    }
    ShowView { short_id: short_id.to_owned(), entry, patch, annotations }
}

fn note_annotation(note: &Note, line_count: usize) -> Annotation {
    Annotation {
        severity: Severity::Note,
        rule: None,
        code: note.code.clone(),
        message: note.message.clone(),
        file: None,
        hunk: None,
        line: note.patch_line.filter(|&l| (1..=line_count).contains(&l)),
        line_text: None,
    }
}

/// The patch line a violation belongs on.
fn place(v: &Violation, parsed: &Parsed<'_>, line_count: usize) -> Option<usize> {
    if let Some(line) = v.patch_line.filter(|&l| (1..=line_count).contains(&l)) {
        return Some(line);
    }
    let wanted = v.file.as_deref()?;
    let file = parsed.patch.files.iter().find(|f| names(f, wanted))?;
    let hunk = v.hunk.and_then(|h| file.hunks.get(h.checked_sub(1)?));
    Some(hunk.map_or(file.span.line, |h| h.span.line))
}

fn names(file: &FilePatch<'_>, wanted: &str) -> bool {
    file.paths().into_iter().any(|p| display_bytes(p) == wanted)
}

/// The lines of `text` as git numbers them; unlike `str::lines`, a `\r` before the `\n` stays,
/// so CRLF shows.
fn patch_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n').unwrap_or(text).split('\n').collect()
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

/// The text of `review show`, aged at `now`, in `palette`.
#[must_use]
pub fn show_text(view: &ShowView<'_>, palette: &Palette, now: SystemTime) -> String {
    let mut out = String::new();
    write_summary(&mut out, view, palette, now);
    write_annotation_list(&mut out, view, palette);
    match view.patch.as_deref() {
        Some(patch) if !patch.is_empty() => {
            write_patch(&mut out, patch, &view.annotations, palette);
        }
        _ => write_raw_result(&mut out, view.entry),
    }
    out
}

fn write_summary(out: &mut String, view: &ShowView<'_>, p: &Palette, now: SystemTime) {
    let e = view.entry;
    let (t, r) = (p.title, p.error);
    let _ = writeln!(out, "{t}rejected result {}{t:#}", view.short_id);
    let _ = writeln!(out, "date:     {} ({} ago)", format_time(e.time), format_age(e.time, now));
    let step_id = e.step_id().map_or_else(String::new, |id| format!("[{}] ", sanitize(id)));
    let desc = sanitize(e.step_description().unwrap_or("(no description)")).into_owned();
    let _ = writeln!(out, "step:     {step_id}{desc}");
    let base = e.base.as_deref().map_or("(none)", |b| &b[..b.len().min(12)]);
    let _ = writeln!(out, "base:     {base} (patchgate {})", e.patchgate_version);
    let _ = writeln!(out, "verdict:  {r}{}{r:#}", sanitize(&e.verdict.reason));
    for o in &e.overrides {
        let rules: Vec<&str> = o.rules.iter().map(|r| r.as_str()).collect();
        let who = o.who.as_deref().map_or_else(|| "someone".to_owned(), |w| sanitize(w).into());
        let _ = writeln!(
            out,
            "applied:  {} by {who}, overriding {}",
            format_time(o.time),
            rules.join(", ")
        );
    }
}

fn write_annotation_list(out: &mut String, view: &ShowView<'_>, p: &Palette) {
    out.push('\n');
    for a in &view.annotations {
        let _ = writeln!(out, "{}", headline(a, p));
        let place = match (a.line, &a.file, a.hunk) {
            (Some(line), Some(file), Some(h)) => {
                format!("patch:{line} ({}, hunk {h})", sanitize(file))
            }
            (Some(line), Some(file), None) => format!("patch:{line} ({})", sanitize(file)),
            (Some(line), None, _) => format!("patch:{line}"),
            (None, Some(file), _) => sanitize(file).into_owned(),
            (None, None, _) => continue,
        };
        let g = p.gutter;
        let _ = writeln!(out, "  {g}-->{g:#} {place}");
    }
}

/// `error[rule/code]: message` / `note[code]: message`, as `validate --format text` heads its
/// diagnostics.
fn headline(a: &Annotation, p: &Palette) -> String {
    let (style, label) = match a.severity {
        Severity::Error => (p.error, "error"),
        Severity::Note => (p.note, "note"),
    };
    let rule = a.rule.map_or_else(String::new, |r| format!("{r}/"));
    format!("{style}{label}[{rule}{}]{style:#}: {}", a.code, sanitize(&a.message))
}

fn write_patch(out: &mut String, patch: &str, annotations: &[Annotation], p: &Palette) {
    let parsed = parse(patch.as_bytes(), &ParseOptions { is_strict: false, ..Default::default() });
    let lines = patch_lines(patch);
    let kinds = classify(&lines, &parsed);
    let width = lines.len().to_string().len();
    let g = p.gutter;
    let _ = writeln!(out, "\n{:width$} {g}|{g:#} {}patch{:#}", "", p.title, p.title);
    for (i, (line, kind)) in lines.iter().zip(&kinds).enumerate() {
        let style = match kind {
            Kind::Header => p.header,
            Kind::Hunk => p.hunk,
            Kind::Add => p.add,
            Kind::Remove => p.remove,
            Kind::Plain => Style::new(),
        };
        let shown = sanitize(line);
        let _ = writeln!(out, "{g}{:>width$} |{g:#} {style}{shown}{style:#}", i + 1);
        for a in annotations.iter().filter(|a| a.line == Some(i + 1)) {
            // rustc's marks: `^` under the primary fault, `-` under a secondary remark.
            let (s, mark, label) = match a.severity {
                Severity::Error => {
                    (p.error, "^", a.rule.map_or_else(String::new, |r| format!("{r}: ")))
                }
                Severity::Note => (p.note, "-", "note: ".to_owned()),
            };
            let marks = mark.repeat(shown.chars().count().clamp(1, MAX_CARETS));
            let msg = sanitize(&a.message);
            let _ = writeln!(out, "{:width$} {g}|{g:#} {s}{marks} {label}{msg}{s:#}", "");
        }
    }
}

fn write_raw_result(out: &mut String, entry: &Entry) {
    let what = if entry.result_json().is_some() { "has no patch" } else { "is not JSON" };
    let _ = writeln!(out, "\nthe result {what}; as received:");
    for line in patch_lines(&entry.result) {
        let _ = writeln!(out, "  {}", sanitize(line));
    }
}
