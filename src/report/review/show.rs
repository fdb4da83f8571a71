//! `review show`: the step, the verdict, and the patch as a diff with every violation annotated
//! at its line, like a compiler diagnostic (drawn by [`crate::report::diagnostic`]).

use crate::report::diagnostic::{
    Annotation, Extent, Palette, PatchText, annotate as annotate_report, patch_lines, sanitize,
    write_list, write_patch,
};
use crate::review::{Entry, format_age, format_time};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::SystemTime;

/// The JSON of `review show`: the entry, its patch, and the annotations.
#[derive(Debug, Serialize)]
pub struct ShowView<'e> {
    /// The short id.
    pub short_id: String,
    /// The stored entry.
    pub entry: &'e Entry,
    /// The result's patch, when it has one.
    pub patch: Option<&'e str>,
    /// Every violation, then every note, placed on the patch.
    pub annotations: Vec<Annotation>,
    /// The patch read once, for placing the annotations and for drawing it.
    #[serde(skip)]
    text: PatchText<'e>,
}

/// Place the entry's violations and notes on its patch.
#[must_use]
pub fn annotate<'e>(entry: &'e Entry, short_id: &str) -> ShowView<'e> {
    let patch = entry.patch();
    let text = PatchText::new(patch.unwrap_or_default());
    let annotations = annotate_report(&entry.report, &text);
    ShowView { short_id: short_id.to_owned(), entry, patch, annotations, text }
}

/// The text of `review show`, aged at `now`, in `palette`.
#[must_use]
pub fn show_text(view: &ShowView<'_>, palette: &Palette, now: SystemTime) -> String {
    let mut out = String::new();
    write_summary(&mut out, view, palette, now);
    out.push('\n');
    write_list(&mut out, &view.annotations, "patch", palette);
    match view.patch {
        Some(patch) if !patch.is_empty() => {
            write_patch(&mut out, &view.text, &view.annotations, Extent::Whole, palette);
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
    // Both come from the stored file: cut by characters, never bytes, and sanitized (found by
    // the review fuzz target: a multi-byte character inside the first 12 bytes panicked).
    let base: String = e.base.as_deref().map_or("(none)".into(), |b| b.chars().take(12).collect());
    let (base, version) = (sanitize(&base), sanitize(&e.patchgate_version));
    let _ = writeln!(out, "base:     {base} (patchgate {version})");
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

fn write_raw_result(out: &mut String, entry: &Entry) {
    let what = if entry.result_json().is_some() { "has no patch" } else { "is not JSON" };
    let _ = writeln!(out, "\nthe result {what}; as received:");
    for line in patch_lines(&entry.result) {
        let _ = writeln!(out, "  {}", sanitize(line));
    }
}
