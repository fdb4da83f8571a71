use super::*;
use crate::finding::Acceptance;
use crate::review::{Entry, NewEntry};
use crate::rule::{Note, Report, RuleId, Violation};
use serde_json::json;
use std::time::{Duration, SystemTime};

const PATCH: &str =
    "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n";

fn entry(violations: Vec<Violation>, notes: Vec<Note>) -> Entry {
    let new = NewEntry {
        step: json!({"id": "step-1", "description": "replace old by new"}),
        result: json!({"mode": "apply", "success": true, "patch": PATCH}).to_string(),
        report: Report::from_violations(violations, notes, &Acceptance::default()),
        base: None,
        run: None,
    };
    Entry::new(new, SystemTime::UNIX_EPOCH + Duration::from_secs(1_000))
}

fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_000 + 7_200)
}

#[test]
fn sanitize_escapes_terminal_controls_but_keeps_tabs() {
    assert_eq!(sanitize("a\tb"), "a\tb");
    assert_eq!(sanitize("\u{1b}[2Jx\r"), "^[[2Jx^M");
    assert_eq!(sanitize("\u{7f}\u{9b}"), "^?\\u{9b}");
    assert!(matches!(sanitize("plain"), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn truncate_marks_the_cut() {
    assert_eq!(truncate("abcdef", 4), "abc…");
    assert_eq!(truncate("abc", 4), "abc");
}

#[test]
fn list_rows_and_table() {
    let v = Violation::new(
        RuleId::Scope,
        crate::finding::Code::from_name("outside_allowed_files"),
        "patch touches a.txt",
    )
    .in_file("a.txt");
    let w = Violation::new(
        RuleId::Undeclared,
        crate::finding::Code::from_name("file_not_declared"),
        "patch modifies a.txt",
    );
    let e = entry(vec![v, w], Vec::new());
    let rows = list_rows(std::slice::from_ref(&e), now());
    assert_eq!(rows[0].id, &e.id[..8]);
    assert_eq!(rows[0].age, "2h");
    assert_eq!(rows[0].rules, [RuleId::Scope, RuleId::Undeclared]);
    assert_eq!(rows[0].files, ["a.txt"]);
    let table = list_text(&rows, None);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2);
    let cols: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&cols[..4], [&e.id[..8], "2h", "step-1", "scope"]);
    assert_eq!(cols[4], "+1");
    assert_eq!(lines[0].find("REASON"), lines[1].find("scope: patch"));
}

#[test]
fn violations_are_placed_on_their_line_hunk_or_file() {
    let on_line = Violation::new(
        RuleId::NotImplemented,
        crate::finding::Code::from_name("superficial"),
        "only renames",
    )
    .in_file("a.txt")
    .at(Some(1), Some(6));
    let nowhere = Violation::new(
        RuleId::Declared,
        crate::finding::Code::from_name("no_summary"),
        "no summary",
    );
    let note = Note {
        code: crate::finding::WarningCode::Crlf.into(),
        message: "crlf".into(),
        patch_line: Some(99),
    };
    let e = entry(vec![on_line, nowhere], vec![note]);
    let view = annotate(&e, "abcd1234");
    assert_eq!(view.annotations[0].line, Some(6));
    assert_eq!(view.annotations[0].line_text.as_deref(), Some("+new"));
    assert_eq!(view.annotations[1].line, None);
    assert_eq!(view.annotations[2].severity, Severity::Note);
    assert_eq!(view.annotations[2].line, None, "a line past the patch is not placed");
}

#[test]
fn show_text_puts_carets_under_the_line() {
    let v = Violation::new(
        RuleId::NotImplemented,
        crate::finding::Code::from_name("superficial"),
        "only renames",
    )
    .at(None, Some(6));
    let e = entry(vec![v], Vec::new());
    let text = show_text(&annotate(&e, "abcd1234"), &Palette::plain(), now());
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.ends_with("| +new")).unwrap();
    assert_eq!(lines[at + 1].trim_start(), "| ^^^^ not-implemented: only renames");
    assert!(!text.contains('\u{1b}'));
    let coloured = show_text(&annotate(&e, "abcd1234"), &Palette::coloured(), now());
    assert!(coloured.contains("\u{1b}[32m+new"));
}

#[test]
fn a_stored_code_never_brings_a_control_character_to_the_terminal() {
    // Found by the review fuzz target: a stored entry's code is text from the file.
    let v = Violation::new(RuleId::Schema, crate::finding::Code::from_name("n\u{7f}t_json"), "m");
    let text =
        show_text(&annotate(&entry(vec![v], Vec::new()), "abcd1234"), &Palette::plain(), now());
    assert!(!text.contains('\u{7f}'), "{text}");
    assert!(text.contains("[schema/n^?t_json]"), "{text}");
}

#[test]
fn a_stored_base_is_cut_by_characters_and_sanitized() {
    let mut e = entry(Vec::new(), Vec::new());
    e.base = Some("efce9fe33\u{29a}\u{31a}\u{1b}[2Jaf4baae23d16e3d9".into());
    let text = show_text(&annotate(&e, "abcd1234"), &Palette::plain(), now());
    assert!(text.contains("base:     efce9fe33\u{29a}\u{31a}^["), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
}

#[test]
fn a_result_without_a_patch_is_shown_raw() {
    let mut e = entry(Vec::new(), Vec::new());
    e.result = "I could not do it \u{1b}[31m".to_owned();
    let text = show_text(&annotate(&e, "abcd1234"), &Palette::plain(), now());
    assert!(text.lines().any(|l| l == "  I could not do it ^[[31m"), "{text}");
}

#[test]
fn apply_refusal_names_the_overrides_it_needs() {
    let remaining = |rule, is_overridden| RemainingViolation {
        rule,
        code: crate::finding::Code::from_name("c"),
        message: "m".into(),
        is_overridden,
    };
    let mut outcome = ActionOutcome::new("refused", vec!["abcd1234".into()]);
    outcome.remaining = vec![
        remaining(RuleId::Scope, true),
        remaining(RuleId::Undeclared, false),
        remaining(RuleId::Undeclared, false),
    ];
    let text = apply_text(&outcome);
    let last = text.lines().last().unwrap();
    assert_eq!(last, "to apply it anyway: patchgate review apply abcd1234 --override undeclared");
    assert_eq!(text.lines().filter(|l| l.trim_start().starts_with("remaining")).count(), 2);
}

#[test]
fn violations_without_a_line_sit_on_their_hunk_or_file_header() {
    let by_hunk =
        Violation::new(RuleId::Reversal, crate::finding::Code::from_name("hunk_reversed"), "r")
            .in_file("a.txt")
            .at(Some(1), None);
    let by_file = Violation::new(
        RuleId::Scope,
        crate::finding::Code::from_name("outside_allowed_files"),
        "s",
    )
    .in_file("a.txt");
    let unknown = Violation::new(
        RuleId::Scope,
        crate::finding::Code::from_name("outside_allowed_files"),
        "s",
    )
    .in_file("zzz.txt");
    let e = entry(vec![by_hunk, by_file, unknown], Vec::new());
    let lines: Vec<Option<usize>> =
        annotate(&e, "abcd1234").annotations.iter().map(|a| a.line).collect();
    assert_eq!(lines, [Some(4), Some(1), None]);
}

#[test]
fn apply_refusal_never_suggests_overriding_malformed() {
    let mut outcome = ActionOutcome::new("refused", vec!["abcd1234".into()]);
    outcome.remaining = vec![RemainingViolation {
        rule: RuleId::Malformed,
        code: crate::finding::CheckCode::ContextMismatch.into(),
        message: "m".into(),
        is_overridden: false,
    }];
    let text = apply_text(&outcome);
    assert!(!text.contains("--override malformed"), "{text}");
    assert!(text.contains("review export abcd1234"), "{text}");
}
