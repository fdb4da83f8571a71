//! `patchgate validate` output: the seed's one-line verdict, the full report as JSON, and
//! compiler-style text diagnostics pointing at the patch lines (rendered by annotate-snippets).

use crate::rule::{Note, Report, Violation};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::fmt::Write as _;

/// The seed 002 contract: exactly `{"valid": ..., "reason": "..."}` on one line.
#[must_use]
pub fn verdict_json(report: &Report) -> String {
    super::to_json_line(&report.verdict)
}

/// The full report (verdict, every violation, notes) as indented JSON, for `--report FILE`.
#[must_use]
pub fn report_json(report: &Report) -> String {
    super::to_json_pretty(report)
}

/// Every violation as a diagnostic (`error[rule/code]: message` with the patch line it points
/// at), then every note, then the verdict. `patch` is the result's patch text, `origin` names
/// the result in locations (`result.json`).
#[must_use]
pub fn verdict_text(report: &Report, patch: Option<&str>, origin: &str) -> String {
    let lines: Vec<&str> = patch.map(|p| p.split('\n').collect()).unwrap_or_default();
    let location = format!("{origin} (patch)");
    let mut out = String::new();
    let renderer = Renderer::plain();
    for v in &report.violations {
        let _ = writeln!(out, "{}\n", renderer.render(&[violation_group(v, &lines, &location)]));
    }
    for note in &report.notes {
        let _ = writeln!(out, "{}\n", renderer.render(&[note_group(note, &lines, &location)]));
    }
    let verdict = if report.verdict.valid { "valid" } else { "rejected" };
    let _ = writeln!(out, "{verdict}: {}", report.verdict.reason);
    out
}

fn violation_group<'a>(v: &'a Violation, lines: &[&'a str], path: &'a str) -> Group<'a> {
    let id = format!("{}/{}", v.rule, v.code);
    let title = Level::ERROR.primary_title(v.message.as_str()).id(id);
    let mut group = match v.patch_line.and_then(|n| snippet(lines, n, path, v.code.as_str())) {
        Some(snippet) => title.element(snippet),
        None => Group::with_title(title),
    };
    if let Some(file) = &v.file {
        let at = v.hunk.map(|h| format!(", hunk {h}")).unwrap_or_default();
        group = group.element(Level::NOTE.message(format!("file: {file}{at}")));
    }
    group
}

fn note_group<'a>(note: &'a Note, lines: &[&'a str], path: &'a str) -> Group<'a> {
    let title = Level::NOTE.primary_title(note.message.as_str()).id(note.code.as_str());
    match note.patch_line.and_then(|n| snippet(lines, n, path, &note.code)) {
        Some(snippet) => title.element(snippet),
        None => Group::with_title(title),
    }
}

/// Most body lines shown under a hunk header.
const HUNK_CONTEXT: usize = 8;

/// Patch line `n` (1-based) underlined and labelled with `label`; a hunk header is shown with
/// the start of its body.
fn snippet<'a>(
    lines: &[&'a str],
    n: usize,
    path: &'a str,
    label: &'a str,
) -> Option<Snippet<'a, annotate_snippets::Annotation<'a>>> {
    let first = lines.get(n.checked_sub(1)?)?.trim_end_matches('\r');
    let mut source = first.to_owned();
    if first.starts_with("@@") {
        let body = lines[n..]
            .iter()
            .take_while(|l| !l.starts_with("@@") && !l.starts_with("diff "))
            .take(HUNK_CONTEXT);
        for line in body {
            source.push('\n');
            source.push_str(line.trim_end_matches('\r'));
        }
    }
    let source = source.trim_end_matches('\n').to_owned();
    Some(
        Snippet::source(source)
            .fold(false)
            .line_start(n)
            .path(path)
            .annotation(AnnotationKind::Primary.span(0..first.len()).label(label)),
    )
}
