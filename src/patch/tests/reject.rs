//! Every defect with its code and line; recovery reports all of them; nothing panics.

use super::defects;
use crate::patch::DefectCode::{self, *};
use crate::patch::{ParseOptions, parse};

const HEAD: &str = "diff --git a/f b/f\n--- a/f\n+++ b/f\n";

fn with_head(body: &str) -> Vec<(DefectCode, usize)> {
    defects(format!("{HEAD}{body}").as_bytes())
}

#[test]
fn input_level_defects() {
    assert_eq!(defects(b""), [(EmptyPatch, 1)]);
    assert_eq!(defects(b" \n\t\n"), [(EmptyPatch, 1)]);
    assert_eq!(defects(b"Done! I changed f.\n"), [(NoFileHeaders, 1)]);
    assert_eq!(defects(b"```\nprose only\n```\n"), [(NoFileHeaders, 1)]);
    assert_eq!(defects(b"@@ -1 +1 @@\n-a\n+b\n"), [(FragmentWithoutHeader, 1)]);
    assert_eq!(defects(b"3d\n"), [(EdScript, 1)]);
    assert_eq!(defects(b"2,3c2,3\n< a\n---\n> b\n"), [(NormalDiff, 1)]);
    assert_eq!(defects(b"***************\n"), [(ContextDiff, 1)]);
    assert_eq!(defects(b"diff --combined f\n"), [(CombinedDiff, 1)]);
}

#[test]
fn hunk_counts_decide() {
    assert_eq!(with_head("@@ -1,2 +1,2 @@\n-a\n+b\n"), [(HunkTooShort, 4)]);
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b\n+c\n"), [(HunkTooLong, 7)]);
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n-b\n+c\n"), [(HunkTooLong, 6)]);
    // A change past the counts, even after context, is one git would drop: the defect points
    // at it. Blank lines up to the end of the input are only a warning (see
    // `trailing_blank_lines_are_a_warning`), context up to the next entry a note (see
    // `accept::context_past_the_counts_is_dropped_with_a_note`).
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b\n\n+c\n"), [(HunkTooLong, 8)]);
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b\n x\n-c\n"), [(HunkTooLong, 8)]);
    assert_eq!(
        with_head("@@ -1 +1 @@\n-a\n+b\n x\n\\ No newline at end of file\n"),
        [(HunkTooLong, 8)]
    );
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b\n\n"), []);
    assert_eq!(with_head("@@ -1,2 +1,2 @@\n-a\n+b\nx\n"), [(BadLinePrefix, 7)]);
    assert_eq!(with_head("@@ -1 +1 @@\n a\n"), [(ContextOnlyHunk, 4)]);
}

#[test]
fn every_count_reason_gives_the_counts_that_fit() {
    let message = |body: &str| {
        let text = format!("{HEAD}{body}");
        parse(text.as_bytes(), &ParseOptions::default()).defects[0].message.clone()
    };
    // Past the counts: the body read to the next header, a junk blank line at its end not
    // counted beyond the header's old side.
    let past = message("@@ -5,2 +5,2 @@\n a\n-b\n+c\n d\n+e\n \n");
    assert!(
        past.contains("the header says -5,2 +5,2 but the body holds 3 old and 4 new"),
        "{past}"
    );
    assert!(past.contains("`+e` at line 9") && past.ends_with("write `@@ -5,3 +5,4 @@`"), "{past}");
    let short = message("@@ -5,3 +5,3 @@\n a\n-b\n+c\ndiff --git a/g b/g\n");
    assert!(
        short.contains("body holds 2 old and 2 new") && short.contains("`@@ -5,2 +5,2 @@`"),
        "{short}"
    );
    let miscount = message("@@ -1 +1 @@\n-a\n-b\n+c\n");
    assert!(miscount.ends_with("write `@@ -1,2 +1 @@`"), "{miscount}");
}

#[test]
fn lines_between_hunks_past_the_counts_are_a_defect() {
    // git stops reading the entry at the blank line and refuses the next `@@` as a fragment
    // without a header: accepting it would be laxer than git.
    let body = "@@ -1 +1 @@\n-a\n+b\n \n@@ -5 +5 @@\n-c\n+d\n";
    assert_eq!(with_head(body), [(HunkTooLong, 7)]);
    let text = format!("{HEAD}@@ -1 +1 @@\n-a\n+b\n x\n@@ -5 +5 @@\n-c\n+d\n");
    let message = &parse(text.as_bytes(), &ParseOptions::default()).defects[0].message;
    assert!(
        message.ends_with("if they are context of the hunk, write `@@ -1,2 +1,2 @@`"),
        "{message}"
    );
}

#[test]
fn prose_outside_the_entries_stays_a_defect() {
    let text = format!("\nHere is the fix:\n\n{HEAD}@@ -1 +1 @@\n-a\n+b\n \nHope this helps!\n");
    assert_eq!(defects(text.as_bytes()), [(Garbage, 2), (Garbage, 11)]);
}

#[test]
fn trailing_blank_lines_are_a_warning() {
    let text = format!("{HEAD}@@ -1 +1 @@\n-a\n+b\n\n\r\n\n");
    let parsed = parse(text.as_bytes(), &ParseOptions::default());
    assert!(parsed.defects.is_empty(), "{:?}", parsed.defects);
    let codes: Vec<_> = parsed.warnings.iter().map(|w| (w.code, w.span.line)).collect();
    assert!(codes.contains(&(crate::patch::WarningCode::TrailingBlankLines, 7)), "{codes:?}");
    assert_eq!(parsed.patch.files[0].hunks[0].lines.len(), 2);
}

#[test]
fn hunk_headers() {
    assert_eq!(with_head("@@ -1 +1\n-a\n+b\n"), [(BadHunkHeader, 4)]);
    assert_eq!(with_head("@@ -0,2 +1,2 @@\n-a\n+b\n"), [(BadHunkHeader, 4)]);
    assert_eq!(with_head("@@ -1,100000001 +1 @@\n-a\n+b\n"), [(LineNumberTooLarge, 4)]);
    let tight = ParseOptions { max_line_number: 10, ..ParseOptions::default() };
    let text = format!("{HEAD}@@ -11 +11 @@\n-a\n+b\n");
    assert_eq!(parse(text.as_bytes(), &tight).defects[0].code, LineNumberTooLarge);
}

#[test]
fn no_newline_markers() {
    assert_eq!(
        with_head("@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n"),
        [(MisplacedNoNewline, 5)]
    );
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b\n\\ x\n\\ x\n"), [(MisplacedNoNewline, 8)]);
    let two_hunks = "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n@@ -5 +5 @@\n-c\n+d\n";
    assert_eq!(with_head(two_hunks), [(MisplacedNoNewline, 8)]);
    assert_eq!(with_head("@@ -1,2 +1 @@\n-a\n\\ x\n-b\n+c\n"), [(MisplacedNoNewline, 7)]);
    assert_eq!(with_head("@@ -1 +1 @@\n-a\n+b"), [(MissingFinalNewline, 6)]);
}

#[test]
fn hunk_order() {
    let body = "@@ -5 +5 @@\n-a\n+b\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(with_head(body), [(HunkOutOfOrder, 7)]);
    let body = "@@ -1,3 +1,3 @@\n-a\n+b\n c\n d\n@@ -3 +3 @@\n-c\n+d\n";
    assert_eq!(with_head(body), [(HunkOverlap, 9)]);
    let adjacent = "@@ -1,2 +1,2 @@\n-a\n+b\n c\n@@ -3 +3 @@\n-c\n+d\n";
    assert_eq!(with_head(adjacent), []);
}

#[test]
fn header_consistency() {
    let d = |s: &str| defects(s.as_bytes());
    assert_eq!(
        d("diff --git a/f b/f\n--- a/g\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"),
        [(HeaderMismatch, 2)]
    );
    assert_eq!(
        d("diff --git a/f b/g\n--- a/f\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n"),
        [(ImplicitRename, 1)]
    );
    assert_eq!(d("diff --git a/f b/g\nrename to g\n"), [(IncompleteRename, 1)]);
    assert_eq!(d("diff --git a/f b/g\ncopy from f\n"), [(IncompleteRename, 1)]);
    assert_eq!(
        d("diff --git a/f b/f\nnew file mode 100644\ndeleted file mode 100644\n"),
        [(InconsistentHeaders, 1)]
    );
    assert_eq!(d("diff --git a/f b/f\nold mode 100644\n"), [(InconsistentHeaders, 1)]);
    assert_eq!(
        d("diff --git a/f b/f\nnew mode 100644\nnew mode 100755\nold mode 100644\n"),
        [(InconsistentHeaders, 3)]
    );
    assert_eq!(d("diff --git a/f b/f\nold mode 644\nnew mode 100755\n"), [(BadMode, 2)]);
    assert_eq!(d("diff --git a/f b/f\nindex zz..yy\n"), [(BadHeader, 2)]);
    assert_eq!(d("diff --git a/f b/f\n"), [(NoHunks, 1)]);
    assert_eq!(
        d("diff --git f f\n--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n"),
        [(BadPath, 1), (BadPath, 2)]
    );
    assert_eq!(d("diff --git a/f b/f\n--- a/f\n@@ -1 +1 @@\n-a\n+b\n"), [(IncompleteHeader, 2)]);
    assert_eq!(d("diff --git a/f b/f\nindex 1..2\n@@ -1 +1 @@\n-a\n+b\n"), [(IncompleteHeader, 3)]);
    let new_file =
        "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(d(new_file), [(InconsistentHeaders, 5)]);
}

#[test]
fn binary_blocks() {
    let head = "diff --git a/b b/b\nGIT binary patch\n";
    let d = |s: &str| defects(format!("{head}{s}").as_bytes());
    assert_eq!(d("literal 3\nHcmV?d00001\n"), [(BadBinary, 3)]);
    assert_eq!(d("literal 3\nFcmZQz\n\n"), [(BadBinary, 4)]);
    assert_eq!(d("literal 3\n!!!\n\n"), [(BadBinary, 4)]);
    assert_eq!(d("zlib 3\n"), [(BadBinary, 3)]);
    assert_eq!(d("literal 0\nHcmV?d00001\n\n"), []);
}

#[test]
fn duplicates_except_where_git_semantics_allow() {
    let modify =
        |p: &str| format!("diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-a\n+b\n");
    assert_eq!(defects(format!("{}{}", modify("f"), modify("f")).as_bytes()), [(DuplicatePath, 7)]);
    let copy_then_modify = format!("diff --git a/f b/g\ncopy from f\ncopy to g\n{}", modify("f"));
    assert_eq!(defects(copy_then_modify.as_bytes()), []);
    let rename_then_modify =
        format!("diff --git a/f b/g\nrename from f\nrename to g\n{}", modify("f"));
    assert_eq!(defects(rename_then_modify.as_bytes()), [(DuplicatePath, 4)]);
}

#[test]
fn garbage_fences_and_signatures() {
    let entry = format!("{HEAD}@@ -1 +1 @@\n-a\n+b\n");
    let d = |s: String| defects(s.as_bytes());
    assert_eq!(d(format!("{entry}Hope this helps!\n")), [(Garbage, 7)]);
    assert_eq!(d(format!("Here you go:\n{entry}")), [(Garbage, 1)]);
    assert_eq!(d(format!("```diff\n{entry}```\n")), [(MarkdownFence, 1), (MarkdownFence, 8)]);
    assert_eq!(d(format!("{entry}-- \n2.47.3\n\n")), []);
    assert_eq!(d(format!("{entry}-- \n2.47.3\n+sneaky\n")), [(Garbage, 9)]);
}

/// A short hunk is blamed on its own header (line 4), not on the next entry (line 7).
#[test]
fn recovery_reports_every_defect() {
    let text = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-x\n+y\ndiff --git a/b b/b\n--- a/b\n+++ b/b\n@@ ... @@\n-x\n+y\ndiff --git a/c b/c\n--- a/c\n+++ b/c\n@@ -1 +1 @@\n-x\n+y\n+z\n";
    assert_eq!(
        defects(text.as_bytes()),
        [(HunkTooShort, 4), (BadHunkHeader, 10), (HunkTooLong, 19)]
    );
}

#[test]
fn hostile_inputs_do_not_panic() {
    let inputs: [&[u8]; 9] = [
        b"diff --git \"\n",
        b"diff --git \"a/\\",
        b"--- \"\n+++ \"\n",
        b"@@",
        b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -18446744073709551615,18446744073709551615 +1 @@\n",
        b"diff --git a/f b/f\nGIT binary patch\n",
        b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n\\",
        b"\xff\xfe\x00diff --git a/\xff b/\xff\n",
        b"From 0123456789012345678901234567890123456789 x\n",
    ];
    for input in inputs {
        for is_strict in [true, false] {
            let parsed = parse(input, &ParseOptions { is_strict, ..ParseOptions::default() });
            assert!(!parsed.defects.is_empty(), "{}", String::from_utf8_lossy(input));
        }
    }
}

#[test]
fn many_broken_entries_are_each_reported() {
    use std::fmt::Write as _;
    let entry = "diff --git a/X b/X\n--- a/X\n+++ b/X\n@@ -1,4000 +1,4000 @@\n-a\n";
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&entry.replace('X', &format!("f{i}")));
        let _ = writeln!(text, "diff --git a/g{i} b/g{i}");
    }
    let parsed = parse(text.as_bytes(), &ParseOptions::default());
    let short = parsed.defects.iter().filter(|d| d.code == HunkTooShort).count();
    let empty = parsed.defects.iter().filter(|d| d.code == NoHunks).count();
    assert_eq!((short, empty), (5000, 5000));
    assert!(parsed.patch.files.iter().flat_map(|f| &f.hunks).all(|h| h.lines.capacity() < 8));
}

#[test]
fn minus_plus_lines_need_hunks_even_for_a_deletion() {
    let text = b"diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n+++ /dev/null\n";
    assert_eq!(defects(text), [(NoHunks, 1)]);
    assert_eq!(defects(b"diff --git a/f b/f\ndeleted file mode 100644\n"), []);
}
