//! What git emits parses into the right model.

use super::ok;
use crate::patch::{LineKind, Operation, ParseOptions, WarningCode, parse};

#[test]
fn modify_with_two_hunks() {
    let text = b"diff --git a/a.txt b/a.txt\nindex 1234567..89abcde 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@ fn x\n-old\n+new\n ctx\n@@ -10 +10 @@\n-a\n+b\n";
    let parsed = parse(text, &ParseOptions::default());
    assert_eq!(parsed.defects, vec![]);
    let file = &parsed.patch.files[0];
    assert_eq!(file.operation, Operation::Modify);
    assert_eq!(file.old_path.as_deref(), Some(&b"a.txt"[..]));
    assert_eq!(file.hunks.len(), 2);
    assert_eq!(file.hunks[0].section, b"fn x");
    assert_eq!(file.hunks[1].old_count, 1);
    assert_eq!(file.hunks[0].lines.get(2).unwrap().kind, LineKind::Context);
    assert_eq!(file.index.as_ref().unwrap().mode, Some(0o100_644));
}

#[test]
fn no_newline_on_both_sides_before_a_signature() {
    let text = b"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nSubject: x\n\nmsg\n---\n f | 2 +-\n\ndiff --git a/f b/f\nindex 1..2 120000\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n-- \n2.39.0\n\n";
    let parsed = ok(text);
    let lines: Vec<_> = parsed.patch.files[0].hunks[0].lines.iter().collect();
    assert_eq!(lines.len(), 2);
    assert!(!lines[0].has_newline && !lines[1].has_newline);
    assert_eq!((lines[0].text, lines[1].text), (&b"x"[..], &b"y"[..]));
}

#[test]
fn removed_lines_that_look_like_headers_are_body_lines() {
    let text =
        b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n--- x\n-++ y\n+-- z\n+++ w\n c\n";
    let parsed = ok(text);
    let hunk = &parsed.patch.files[0].hunks[0];
    assert_eq!((hunk.removed(), hunk.added()), (2, 2));
    assert_eq!(hunk.lines.get(0).unwrap().text, b"-- x");
    assert_eq!(hunk.lines.get(3).unwrap().text, b"++ w");
}

#[test]
fn header_only_entries() {
    let text = b"diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\ndiff --git a/m b/m\nold mode 100644\nnew mode 100755\ndiff --git a/r b/s\nsimilarity index 100%\nrename from r\nrename to s\n";
    let parsed = ok(text);
    let files = &parsed.patch.files;
    assert_eq!(files.len(), 3);
    assert_eq!((files[0].operation, files[0].old_path.as_deref()), (Operation::Create, None));
    assert_eq!((files[1].old_mode, files[1].new_mode), (Some(0o100_644), Some(0o100_755)));
    assert_eq!(files[2].operation, Operation::Rename);
    assert_eq!(files[2].old_path.as_deref(), Some(&b"r"[..]));
    assert_eq!(files[2].new_path.as_deref(), Some(&b"s"[..]));
    assert_eq!(files[2].similarity, Some(100));
}

#[test]
fn quoted_and_spaced_paths_are_decoded() {
    let text = b"diff --git \"a/caf\\303\\251.txt\" \"b/caf\\303\\251.txt\"\n--- \"a/caf\\303\\251.txt\"\n+++ \"b/caf\\303\\251.txt\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/my file.txt b/my file.txt\n--- a/my file.txt\t\n+++ b/my file.txt\t\n@@ -1 +1 @@\n-a\n+b\n";
    let parsed = ok(text);
    assert_eq!(parsed.patch.files[0].path(), "café.txt".as_bytes());
    assert_eq!(parsed.patch.files[1].path(), b"my file.txt");
}

#[test]
fn crlf_is_kept_and_reported() {
    let parsed = ok(b"--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n");
    let file = &parsed.patch.files[0];
    assert!(!file.is_git);
    assert_eq!(file.path(), b"f");
    assert_eq!(file.hunks[0].lines.get(1).unwrap().text, b"b\r");
    assert_eq!(parsed.warnings[0].code, WarningCode::Crlf);
}

#[test]
fn non_utf8_content_is_kept_as_bytes() {
    let parsed = ok(b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-caf\xe9\n+caf\xe8\n");
    assert_eq!(parsed.patch.files[0].hunks[0].lines.get(0).unwrap().text, b"caf\xe9");
}

#[test]
fn traditional_timestamps_and_dev_null() {
    let text = b"--- /dev/null\t1970-01-01 00:00:00 +0000\n+++ b/new.txt\t2026-11-21 10:00:00 +0000\n@@ -0,0 +1 @@\n+x\n";
    let parsed = ok(text);
    let file = &parsed.patch.files[0];
    assert_eq!((file.operation, file.old_path.as_deref()), (Operation::Create, None));
    assert_eq!(file.new_path.as_deref(), Some(&b"new.txt"[..]));
}

#[test]
fn blank_body_line_is_an_empty_context_line_with_a_warning() {
    let parsed = ok(b"--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n");
    let line = parsed.patch.files[0].hunks[0].lines.get(1).unwrap();
    assert_eq!((line.kind, line.text, line.line), (LineKind::Context, &b""[..], 5));
    assert_eq!(parsed.warnings[0].code, WarningCode::BlankContextWithoutSpace);
}

#[test]
fn binary_blocks_keep_their_payload() {
    let text = b"diff --git a/b.bin b/b.bin\nindex 87ae6b695deceaf160611414f7dcd5c7366b2e79..22f6b3b038c9c8f81e86f801c481bbf851e477fe 100644\nGIT binary patch\nliteral 8\nPcmYew%wtF_sx$%s42c4`\n\nliteral 7\nOcmYew%wtF_sssQD(E^45\n\n";
    let parsed = ok(text);
    let file = &parsed.patch.files[0];
    let binary = file.binary.as_ref().unwrap();
    assert_eq!(binary.kind, crate::patch::BinaryKind::GitPatch);
    assert!(binary.payload.starts_with(b"literal 8\n") && binary.payload.ends_with(b"45\n\n"));
    assert!(file.index.as_ref().unwrap().is_full());
}

#[test]
fn lenient_mode_skips_fences_and_chat_with_warnings() {
    let text = b"Sure! Here it is:\n```diff\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n```\n";
    let options = ParseOptions { is_strict: false, ..ParseOptions::default() };
    let parsed = parse(text, &options);
    assert_eq!(parsed.defects, vec![]);
    let codes: Vec<_> = parsed.warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, [WarningCode::SkippedText, WarningCode::MarkdownFence]);
}

#[test]
fn copy_keeps_its_source() {
    let parsed = ok(b"diff --git a/f b/g\nsimilarity index 100%\ncopy from f\ncopy to g\n");
    let file = &parsed.patch.files[0];
    assert_eq!(file.operation, Operation::Copy);
    assert_eq!(file.paths(), [&b"f"[..], &b"g"[..]]);
}

#[test]
fn render_keeps_a_traditional_entry_after_a_header_only_one_apart() {
    // Reachable in lenient mode, where skipped text separated the two entries.
    let text =
        b"diff --git a/e b/e\nnew file mode 100644\nnote\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";
    let lenient = ParseOptions { is_strict: false, ..ParseOptions::default() };
    let parsed = parse(text, &lenient);
    assert!(parsed.is_ok() && !parsed.patch.files[1].is_git);
    let rendered = crate::patch::render(&parsed.patch);
    let again = ok(&rendered);
    assert_eq!(again.patch.files.len(), 2);
    assert_eq!(again.patch.files[1].path(), b"f");
}

/// `(code, line)` of every warning.
fn warnings(parsed: &crate::patch::Parsed<'_>) -> Vec<(WarningCode, usize)> {
    parsed.warnings.iter().map(|w| (w.code, w.span.line)).collect()
}

#[test]
fn blank_lines_outside_the_entries_are_dropped_with_a_note() {
    // As SWE-agent sends every patch (a leading newline), with blank and whitespace-only lines
    // between and after the entries: git skips them all.
    let text = b"\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\t\n  \ndiff --git a/g b/g\nnew file mode 100644\nindex 0000000..e69de29\n \n";
    let parsed = ok(text);
    assert_eq!(parsed.patch.files.len(), 2);
    assert_eq!(parsed.patch.files[0].hunks[0].lines.len(), 2);
    assert_eq!(warnings(&parsed), [(WarningCode::BlankOutsideEntry, 1)]);
    assert!(
        parsed.warnings[0].message.starts_with("4 whitespace-only lines"),
        "{:?}",
        parsed.warnings
    );
}

#[test]
fn context_past_the_counts_is_dropped_with_a_note() {
    // Claude's shapes: a junk ` ` line after a hunk whose counts are right, and an
    // under-counted hunk whose last context lines run past its counts. git drops both.
    let junk = ok(b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n \n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n");
    assert_eq!(warnings(&junk), [(WarningCode::BlankOutsideEntry, 7)]);
    assert_eq!(junk.patch.files[0].hunks[0].lines.len(), 3);
    let under = ok(b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n d\n \n");
    assert_eq!(warnings(&under), [(WarningCode::ContextAfterHunk, 7)]);
    let message = &under.warnings[0].message;
    assert!(message.starts_with("2 context line(s) after hunk `@@ -1,2 +1,2 @@`"), "{message}");
    assert!(
        message.contains("(` d`, ` `)") && message.ends_with("write `@@ -1,3 +1,3 @@`"),
        "{message}"
    );
    assert_eq!(under.patch.files[0].hunks[0].lines.len(), 3, "what git applies");
}
