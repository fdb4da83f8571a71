//! Packed body lines read back as the lines the patch has, and lines that do not fit the packed
//! form are kept one by one with the same numbers.

use super::ok;
use crate::patch::{Line, LineKind, Lines};

fn line(kind: LineKind, text: &[u8], has_newline: bool, line: usize) -> Line<'_> {
    Line { kind, text, has_newline, line }
}

/// Every way of reading a hunk's lines agrees with `expected`.
fn assert_reads(lines: &Lines<'_>, expected: &[Line<'_>]) {
    assert_eq!(lines.iter().collect::<Vec<_>>(), expected);
    assert_eq!(
        lines.iter().rev().collect::<Vec<_>>(),
        expected.iter().rev().copied().collect::<Vec<_>>()
    );
    assert_eq!(
        (0..=expected.len()).map(|i| lines.get(i)).collect::<Vec<_>>(),
        expected.iter().copied().map(Some).chain([None]).collect::<Vec<_>>()
    );
    assert_eq!(
        (lines.len(), lines.first(), lines.last()),
        (expected.len(), expected.first().copied(), expected.last().copied())
    );
    let count = |kind| expected.iter().filter(|l| l.kind == kind).count();
    assert_eq!((lines.added(), lines.removed()), (count(LineKind::Add), count(LineKind::Remove)));
    assert_eq!(*lines, Lines::from(expected.to_vec()));
    assert_eq!(Lines::from(expected.to_vec()).input_span(), None, "given one by one");
    if let Some(span) = lines.input_span() {
        let range = span.as_ptr_range();
        for l in lines {
            let text = l.text.as_ptr_range();
            assert!(range.start <= text.start && text.end <= range.end, "{l:?} inside the span");
        }
        assert_eq!(range.start, lines.first().unwrap().text.as_ptr());
        assert_eq!(range.end, lines.last().unwrap().text.as_ptr_range().end);
    }
}

#[test]
fn markers_blank_lines_and_crlf_keep_their_line_numbers() {
    let text = b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\ndiff --git a/g b/g\n--- a/g\n+++ b/g\n@@ -1,3 +1,3 @@\n x\n\n-y\r\n+z\n@@ -9 +9 @@\n-u\n+v\n\\ No newline at end of file\n";
    let parsed = ok(text);
    let hunks: Vec<_> = parsed.patch.files.iter().flat_map(|f| &f.hunks).collect();
    assert!(hunks.iter().all(|h| h.lines.input_span().is_some()), "the parser packs them");
    assert_reads(
        &hunks[0].lines,
        &[
            line(LineKind::Context, b"a", true, 5),
            line(LineKind::Remove, b"b", false, 6),
            line(LineKind::Add, b"c", false, 8),
        ],
    );
    assert_reads(
        &hunks[1].lines,
        &[
            line(LineKind::Context, b"x", true, 14),
            line(LineKind::Context, b"", true, 15),
            line(LineKind::Remove, b"y\r", true, 16),
            line(LineKind::Add, b"z", true, 17),
        ],
    );
    assert_reads(
        &hunks[2].lines,
        &[line(LineKind::Remove, b"u", true, 19), line(LineKind::Add, b"v", false, 20)],
    );
}

#[test]
fn lines_that_do_not_fit_the_packed_form_are_kept_one_by_one() {
    let input = b"+a\n-b\n+c\n";
    // Texts before the base offset cannot be packed: the lines turn loose, numbers kept.
    let mut lines = Lines::packed(input, 4, 7, 4);
    lines.push_text(4, 1, LineKind::Remove);
    lines.push_text(1, 1, LineKind::Add);
    assert_eq!(lines.close_last(), Some(LineKind::Add));
    assert_eq!(lines.close_last(), None);
    lines.push_text(7, 1, LineKind::Add);
    assert_reads(
        &lines,
        &[
            line(LineKind::Remove, b"b", true, 7),
            line(LineKind::Add, b"a", false, 8),
            line(LineKind::Add, b"c", true, 10),
        ],
    );
    let mut built: Lines<'_> = [line(LineKind::Context, b"x", true, 3)].into_iter().collect();
    built.push(line(LineKind::Add, b"y", true, 4));
    assert_eq!((built.len(), built.added(), built.removed()), (2, 1, 0));
}
