//! The line fallback, `classify_lines`, against a straightforward reference on generated
//! patches full of comment markers, quotes, whitespace and non-ASCII text, and the shapes it
//! must tell apart.

use super::super::lines::{Syntax, push_indent, syntax_for, unopened_block_end};
use super::*;
use crate::patch::{ParseOptions, parse};
use std::fmt::Write as _;

/// The straightforward implementation, kept as the reference for the result: every run of
/// changed lines (up to a context line) compared as a whole.
mod reference {
    use super::{Syntax, push_indent, syntax_for, unopened_block_end};
    use crate::finding::ChangeKind;
    use crate::patch::{FilePatch, LineKind};

    pub(super) fn classify(file: &FilePatch<'_>) -> ChangeKind {
        if file.added() + file.removed() == 0 || file.binary.is_some() {
            return ChangeKind::Code;
        }
        let syntax = syntax_for(file.path());
        let mut worst = ChangeKind::Whitespace;
        for hunk in &file.hunks {
            let (mut old_block, mut new_block) = (None, None);
            let (mut old, mut new) = (Side::default(), Side::default());
            for line in &hunk.lines {
                if line.kind == LineKind::Context {
                    worst = worst.max(settle(&mut old, &mut new));
                }
                let text = String::from_utf8_lossy(line.text);
                if line.kind != LineKind::Add {
                    old.push(&text, line.kind == LineKind::Remove, &syntax, &mut old_block);
                }
                if line.kind != LineKind::Remove {
                    new.push(&text, line.kind == LineKind::Add, &syntax, &mut new_block);
                }
            }
            worst = worst.max(settle(&mut old, &mut new));
        }
        worst
    }

    fn settle(old: &mut Side, new: &mut Side) -> ChangeKind {
        let kind = if old.raw == new.raw {
            ChangeKind::Whitespace
        } else if old.code == new.code {
            ChangeKind::Comment
        } else {
            ChangeKind::Code
        };
        *old = Side::default();
        *new = Side::default();
        kind
    }
    #[derive(Default)]
    pub(super) struct Side {
        raw: String,
        code: String,
    }

    impl Side {
        /// Feed one line; context lines only advance the block-comment state.
        fn push(
            &mut self,
            text: &str,
            is_changed: bool,
            syntax: &Syntax,
            block: &mut Option<&'static str>,
        ) {
            let code = strip_comments(text, syntax, block);
            if is_changed {
                push_indent(&mut self.raw, text, syntax);
                push_indent(&mut self.code, text, syntax);
                self.raw.extend(text.chars().filter(|c| !c.is_whitespace()));
                self.code.extend(code.chars().filter(|c| !c.is_whitespace()));
            }
        }
    }

    /// `text` without its comments. `block` is the end marker of a block comment open at the start
    /// of the line (updated for the next line). Double-quoted strings are skipped so `"http://x"`
    /// stays code; a block end seen while not in a block means the hunk started inside one.
    fn strip_comments(text: &str, syntax: &Syntax, block: &mut Option<&'static str>) -> String {
        if block.is_none()
            && let Some(end) = unopened_block_end(text, syntax)
        {
            *block = Some(end);
        }
        let mut out = String::new();
        let mut rest = text;
        let mut in_string = false;
        while !rest.is_empty() {
            if let Some(end) = *block {
                let Some(at) = rest.find(end) else { return out };
                rest = &rest[at + end.len()..];
                *block = None;
                continue;
            }
            if !in_string {
                if let Some((start, end)) = syntax.block.iter().find(|(s, _)| rest.starts_with(s)) {
                    rest = &rest[start.len()..];
                    *block = Some(end);
                    continue;
                }
                if syntax.line.iter().any(|m| rest.starts_with(m)) {
                    return out;
                }
            }
            let c = rest.chars().next().expect("rest is not empty");
            if c == '"' {
                in_string = !in_string;
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        out
    }
}

/// A tiny deterministic generator (no dependency needed for this).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

const PIECES: &[&str] = &[
    "x", "y", "1", " ", "  ", "\t", "\u{a0}", "é", "\"", "'", "//", "/*", "*/", "#", "--", "--[[",
    "]]", "{-", "-}", "<!--", "-->", "\"\"\"", "'''", ";", "%", "/", "*", "-", "{", "}", "<",
];

const NAMES: &[&str] =
    &["a.rs", "b.py", "c.lua", "d.html", "e.sh", "f.txt", "g.css", "h.php", "i.sql", "Makefile"];

fn random_line(rng: &mut Lcg) -> String {
    (0..rng.next(6)).map(|_| PIECES[rng.next(PIECES.len())]).collect()
}

/// One file with one or two hunks; removed and added lines are often near copies of each other.
fn random_diff(rng: &mut Lcg) -> String {
    let name = NAMES[rng.next(NAMES.len())];
    let mut out = format!("diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n");
    let mut start = 1;
    for _ in 0..=rng.next(2) {
        let mut body = Vec::new();
        let (mut old, mut new) = (0, 0);
        for _ in 0..=rng.next(8) {
            let line = random_line(rng);
            match rng.next(4) {
                0 => {
                    body.push(format!(" {line}"));
                    old += 1;
                    new += 1;
                }
                1 => {
                    body.push(format!("-{line}"));
                    old += 1;
                }
                2 => {
                    body.push(format!("+{line}"));
                    new += 1;
                }
                _ => {
                    // The same line again on the other side, give or take whitespace/comments.
                    let changed = match rng.next(3) {
                        0 => line.replace(' ', ""),
                        1 => format!("{line}{}", PIECES[rng.next(PIECES.len())]),
                        _ => line.clone(),
                    };
                    body.push(format!("-{line}"));
                    body.push(format!("+{changed}"));
                    old += 1;
                    new += 1;
                }
            }
        }
        writeln!(out, "@@ -{start},{old} +{start},{new} @@").unwrap();
        for line in body {
            out.push_str(&line);
            out.push('\n');
        }
        start += old + 10;
    }
    out
}

#[test]
fn classify_matches_the_reference_on_generated_patches() {
    let mut rng = Lcg(7);
    let mut seen = [0usize; 3];
    for _ in 0..20_000 {
        let diff = random_diff(&mut rng);
        let parsed = parse(diff.as_bytes(), &ParseOptions::default());
        for file in &parsed.patch.files {
            let got = classify_lines(file);
            assert_eq!(got, reference::classify(file), "{diff}");
            seen[match got {
                ChangeKind::Whitespace => 0,
                ChangeKind::Comment => 1,
                _ => 2,
            }] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "every outcome is exercised: {seen:?}");
}

#[test]
fn classify_stops_at_the_first_real_change() {
    let diff = "--- a/a.rs\n+++ b/a.rs\n@@ -1,2 +1,2 @@\n-let a = 1; // one\n-/* open\n+let a = 2;\n+/* open\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let diff = "--- a/a.rs\n+++ b/a.rs\n@@ -1,1 +1,1 @@\n-let a = 1; // one\n+let  a=1; // two\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Comment);
}

#[test]
fn classify_of_an_added_file_stops_at_its_first_code_line() {
    let diff =
        "--- /dev/null\n+++ b/a.rs\n@@ -0,0 +1,3 @@\n+// only a comment\n+fn main() {}\n+// more\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let diff = "--- /dev/null\n+++ b/a.rs\n@@ -0,0 +1,2 @@\n+// only a comment\n+/* and */\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Comment);
}

#[test]
fn the_base_tree_shows_what_the_hunks_alone_cannot() {
    // The hunk sits inside a block comment that opens above its context.
    let base = OneFile("a.rs", "fn a() {}\n/*\n * one\n * two\n */\nfn f() {}\n");
    let diff = "--- a/a.rs\n+++ b/a.rs\n@@ -3,3 +3,3 @@\n  * one\n- * two\n+ * three\n  */\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    let file = &parsed.patch.files[0];
    assert_eq!(classify(file, Some(&base)), (ChangeKind::Comment, Some("Rust")));
    assert_eq!(classify(file, None).0, ChangeKind::Code, "the hunk alone parses as code");
    // A hunk that does not sit where it says falls back to the hunks.
    let moved = OneFile("a.rs", "\n\n\nfn a() {}\n/*\n * one\n * two\n */\n");
    assert_eq!(classify(file, Some(&moved)).0, ChangeKind::Code);
}

#[test]
fn files_without_a_grammar_are_compared_line_by_line() {
    let diff = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-a  b\n+a b\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify(&parsed.patch.files[0], None), (ChangeKind::Whitespace, None));
}

#[test]
fn cpp_is_compared_on_its_syntax_tree() {
    let diff = "--- a/x.cpp\n+++ b/x.cpp\n@@ -1 +1 @@\n-int a; // one\n+int a; // two\n";
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert_eq!(classify(&parsed.patch.files[0], None), (ChangeKind::Comment, Some("C++")));
}

#[test]
fn indentation_is_syntax_in_yaml_and_makefiles() {
    let yaml =
        "--- a/ci.yml\n+++ b/ci.yml\n@@ -1,2 +1,2 @@\n a:\n-  b: 1\n-c: 2\n+  b: 1\n+  c: 2\n";
    let parsed = parse(yaml.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let make = "--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,2 @@\n all:\n-\tcc a.c\n+    cc a.c\n";
    let parsed = parse(make.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let twin = "--- a/ci.yml\n+++ b/ci.yml\n@@ -1,2 +1,2 @@\n a:\n-  b:  1\n+  b: 1   \n";
    let parsed = parse(twin.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Whitespace, "the twin");
}

#[test]
fn a_line_moved_or_lines_swapped_are_code_for_the_lines_too() {
    let moved = "--- a/n.txt\n+++ b/n.txt\n@@ -1,4 +1,4 @@\n-one\n two\n three\n four\n+one\n";
    let parsed = parse(moved.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let swapped = "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n-one\n-two\n+two\n+one\n";
    let parsed = parse(swapped.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Code);
    let rewrapped =
        "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n-one two\n-three\n+one\n+two three\n";
    let parsed = parse(rewrapped.as_bytes(), &ParseOptions::default());
    assert_eq!(classify_lines(&parsed.patch.files[0]), ChangeKind::Whitespace, "the twin");
}
