//! Render a [`Patch`] back to unified-diff bytes, git style: what the parser reads back into the
//! same model (the round-trip property), and what `review export` writes.

use super::quote::{needs_quoting, quote};
use super::{BinaryKind, FilePatch, Hunk, LineKind, Operation, Patch};
use std::io::Write as _;

/// Render `patch` as git would write it. A traditional entry keeps its `---`/`+++` form, except
/// right after a header-only git entry, where a bare `---` would read as that entry's own: it
/// then gets a `diff --git` line.
#[must_use]
pub fn render(patch: &Patch<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut is_after_header_only = false;
    for file in &patch.files {
        if file.is_git || is_after_header_only {
            git_header(file, &mut out);
        }
        is_after_header_only = file.is_git && file.hunks.is_empty() && file.binary.is_none();
        if !file.hunks.is_empty() {
            minus_plus(file, &mut out);
        }
        for hunk in &file.hunks {
            render_hunk(hunk, &mut out);
        }
    }
    out
}

/// `prefix` + name, quoted as a whole when the name needs it (as git does).
fn name(prefix: &[u8], path: &[u8], out: &mut Vec<u8>) {
    let mut full = Vec::with_capacity(prefix.len() + path.len());
    full.extend_from_slice(prefix);
    full.extend_from_slice(path);
    quote(&full, out);
}

fn line(parts: &[&[u8]], out: &mut Vec<u8>) {
    for part in parts {
        out.extend_from_slice(part);
    }
    out.push(b'\n');
}

fn mode_line(key: &str, mode: Option<u32>, out: &mut Vec<u8>) {
    if let Some(mode) = mode {
        let _ = writeln!(out, "{key} {mode:06o}");
    }
}

fn git_header(file: &FilePatch<'_>, out: &mut Vec<u8>) {
    let old = file.old_path.as_deref().or(file.new_path.as_deref()).unwrap_or_default();
    let new = file.new_path.as_deref().or(file.old_path.as_deref()).unwrap_or_default();
    out.extend_from_slice(b"diff --git ");
    name(b"a/", old, out);
    out.push(b' ');
    name(b"b/", new, out);
    out.push(b'\n');
    match file.operation {
        Operation::Create => mode_line("new file mode", file.new_mode, out),
        Operation::Delete => mode_line("deleted file mode", file.old_mode, out),
        _ => {
            mode_line("old mode", file.old_mode, out);
            mode_line("new mode", file.new_mode, out);
        }
    }
    if let Some(value) = file.similarity {
        let _ = writeln!(out, "similarity index {value}%");
    }
    if let Some(value) = file.dissimilarity {
        let _ = writeln!(out, "dissimilarity index {value}%");
    }
    let verb: &[u8] = if file.operation == Operation::Copy { b"copy" } else { b"rename" };
    if matches!(file.operation, Operation::Rename | Operation::Copy) {
        for (dir, path) in [(&b" from "[..], old), (b" to ", new)] {
            out.extend_from_slice(verb);
            out.extend_from_slice(dir);
            quote(path, out);
            out.push(b'\n');
        }
    }
    if let Some(index) = &file.index {
        line(&[b"index ", index.old, b"..", index.new], out);
        if let Some(mode) = index.mode {
            out.pop();
            let _ = writeln!(out, " {mode:06o}");
        }
    }
    match &file.binary {
        Some(binary) if binary.kind == BinaryKind::GitPatch => {
            line(&[b"GIT binary patch"], out);
            out.extend_from_slice(binary.payload);
        }
        Some(_) => binary_marker(file, out),
        None => {}
    }
}

fn binary_marker(file: &FilePatch<'_>, out: &mut Vec<u8>) {
    out.extend_from_slice(b"Binary files ");
    side(b"a/", file.old_path.as_deref(), out);
    out.extend_from_slice(b" and ");
    side(b"b/", file.new_path.as_deref(), out);
    out.extend_from_slice(b" differ\n");
}

fn side(prefix: &[u8], path: Option<&[u8]>, out: &mut Vec<u8>) {
    match path {
        Some(path) => name(prefix, path, out),
        None => out.extend_from_slice(b"/dev/null"),
    }
}

/// `---`/`+++`; a TAB ends a name with a space, as git writes it.
fn minus_plus(file: &FilePatch<'_>, out: &mut Vec<u8>) {
    for (marker, prefix, path) in [
        (&b"--- "[..], &b"a/"[..], file.old_path.as_deref()),
        (b"+++ ", b"b/", file.new_path.as_deref()),
    ] {
        out.extend_from_slice(marker);
        side(prefix, path, out);
        if path.is_some_and(|p| p.contains(&b' ') && !needs_quoting(p)) {
            out.push(b'\t');
        }
        out.push(b'\n');
    }
}

fn range(start: u64, count: u64, out: &mut Vec<u8>) {
    if count == 1 {
        let _ = write!(out, "{start}");
    } else {
        let _ = write!(out, "{start},{count}");
    }
}

/// A hunk's `@@` line without its newline, as git writes it (a count of 1 omitted): what the
/// renderer writes, and the header the parser's and the repair's messages propose.
#[must_use]
pub fn hunk_header(old: (u64, u64), new: (u64, u64), section: &[u8]) -> Vec<u8> {
    let mut out = b"@@ -".to_vec();
    range(old.0, old.1, &mut out);
    out.extend_from_slice(b" +");
    range(new.0, new.1, &mut out);
    out.extend_from_slice(b" @@");
    if !section.is_empty() {
        out.push(b' ');
        out.extend_from_slice(section);
    }
    out
}

fn render_hunk(hunk: &Hunk<'_>, out: &mut Vec<u8>) {
    let old = (hunk.old_start, hunk.old_count);
    out.extend_from_slice(&hunk_header(old, (hunk.new_start, hunk.new_count), hunk.section));
    out.push(b'\n');
    for body in &hunk.lines {
        let prefix: &[u8] = match body.kind {
            LineKind::Context => b" ",
            LineKind::Add => b"+",
            LineKind::Remove => b"-",
        };
        line(&[prefix, body.text], out);
        if !body.has_newline {
            line(&[b"\\ No newline at end of file"], out);
        }
    }
}
