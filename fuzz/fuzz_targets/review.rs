//! Fuzz stored review entries (`<git-dir>/patchgate/rejected/*.json`) as `review list`, `show`
//! and `apply` read them: any bytes are decoded or refused without panicking; a decoded entry's
//! accessors, its list row and its annotated view never panic; the text shown on a terminal
//! carries no control character but newline and tab (an agent-written escape sequence could
//! rewrite the screen), with colour also only the palette's own SGR sequences; an entry
//! writes back to JSON that decodes to the same entry; the patch `review apply` would write is
//! the one in a result that names no key twice.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::report::review::{Palette, annotate, list_rows, list_text, show_text};
use patchgate::review::{Entry, decide_override};
use std::time::{Duration, SystemTime};

fuzz_target!(|data: &[u8]| {
    let Ok(entry) = Entry::from_json(data) else { return };
    let text = serde_json::to_vec(&entry).expect("an entry serializes");
    assert_eq!(Entry::from_json(&text).as_ref(), Ok(&entry), "round trip");
    let _ = (entry.step_id(), entry.step_description(), entry.rules(), entry.files());
    if let Some(patch) = entry.patch() {
        assert!(patchgate::json::duplicate_key(entry.result.as_bytes()).is_none());
        let _ = patch.len();
    }
    let _ = decide_override(&entry.report, &entry.rules());
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let rows = list_rows(std::slice::from_ref(&entry), now);
    assert_terminal_safe(&list_text(&rows, None));
    assert_terminal_safe(&list_text(&rows, Some(40)));
    let view = annotate(&entry, "0123abcd");
    assert_terminal_safe(&show_text(&view, &Palette::plain(), now));
    assert_terminal_safe(&without_sgr(&show_text(&view, &Palette::coloured(), now)));
});

/// `text` without the palette's own colour sequences (`ESC [ digits and ; m`).
fn without_sgr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find(|c: char| !(c.is_ascii_digit() || c == ';'));
        match end {
            Some(end) if after[end..].starts_with('m') => rest = &after[end + 1..],
            // Not an SGR sequence: keep the ESC so the check below finds it.
            _ => {
                out.push('\x1b');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn assert_terminal_safe(text: &str) {
    let bad = text.chars().find(|&c| c.is_control() && c != '\n' && c != '\t');
    assert!(bad.is_none(), "control character {bad:?} in {text:?}");
}
