//! `git_header`: git's extended headers (`index`, `new file mode`, `rename from`, ...) with no
//! `diff --git` line above them read as text outside any entry. When they are followed by an
//! a/ b/ `---`/`+++` pair, or name both sides of a rename or copy themselves, the missing
//! `diff --git a/X b/Y` line is written from those names. The parser then checks it against
//! the other headers like any other.

use super::{RepairKind, Step, Work};
use crate::patch::{DefectCode, Parsed};
use crate::path::display_bytes;
use regex::bytes::Regex;
use std::sync::LazyLock;

/// One of git's extended header lines (without its `\r`).
static EXTENDED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?:old|new) mode [0-7]{6}|(?:deleted|new) file mode [0-7]{6}|index [0-9a-fA-F]+\.\.[0-9a-fA-F]+(?: [0-7]{6})?|(?:dis)?similarity index [0-9]{1,3}%|(?:rename|copy) (?:from|to) .+|rename (?:old|new) .+)$",
    )
    .expect("the extended header pattern is a valid regex")
});

/// Whether `line` is one of git's extended headers, or a binary entry's marker: lines that
/// mean something to `git apply` even outside an entry, so they are never removed as text.
pub(super) fn is_meaningful(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    EXTENDED.is_match(line) || line.starts_with(b"Binary files ") || line == b"GIT binary patch"
}

/// The `a/` and `b/` names of a `diff --git` line, as they will be written.
type Names = (Vec<u8>, Vec<u8>);

/// Add a `diff --git` line above the first block of extended headers that lacks one.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    if work.options.parse.strip != 1 {
        return Step::Pass; // the a/ and b/ prefixes this relies on are not what the caller reads
    }
    // With no entry at all the parser says only `no_file_headers`: the text starts at line 1.
    let text = |code| matches!(code, DefectCode::Garbage | DefectCode::NoFileHeaders);
    for defect in parsed.defects.iter().filter(|d| text(d.code)) {
        let Some((first, names)) = headless_entry(work, defect.span.line) else { continue };
        let mut line = b"diff --git ".to_vec();
        line.extend_from_slice(&names.0);
        line.push(b' ');
        line.extend_from_slice(&names.1);
        let shown = display_bytes(&line);
        let file = display_bytes(names.1.strip_prefix(b"b/").unwrap_or(&names.1));
        work.doc.insert(first, line);
        let message = format!("added `{shown}` above the entry's extended headers");
        work.record(RepairKind::GitHeader, first, 1, message).file = Some(file);
        return Step::Done;
    }
    Step::Pass
}

/// From the text block starting at line `from`: the first line of a run of extended headers
/// that ends the block, and the `a/` and `b/` names for its `diff --git` line.
fn headless_entry(work: &Work<'_, '_>, from: usize) -> Option<(usize, Names)> {
    let doc = &work.doc;
    let mut end = from;
    while end <= doc.len() && !starts_entry(doc.text(end), doc.text(end + 1)) {
        end += 1;
    }
    // `end` is the first line after the block: an entry start or the end of the input.
    let first = (from..end).rev().take_while(|&n| EXTENDED.is_match(trim(doc.text(n)))).last()?;
    let headers: Vec<&[u8]> = (first..end).map(|n| trim(doc.text(n))).collect();
    let names =
        minus_plus_names(doc.text(end), doc.text(end + 1)).or_else(|| move_names(&headers))?;
    Some((first, names))
}

fn trim(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Whether a line (with the one after it) starts something the parser reads as an entry or a
/// hunk, which ends a block of text.
fn starts_entry(line: &[u8], next: &[u8]) -> bool {
    line.starts_with(b"diff ")
        || line.starts_with(b"@@")
        || line.starts_with(b"```")
        || (line.starts_with(b"--- ") && next.starts_with(b"+++ "))
}

/// The names of an a/ b/ `---`/`+++` pair, a `/dev/null` side taking the other side's name.
fn minus_plus_names(minus: &[u8], plus: &[u8]) -> Option<Names> {
    let old = name_token(trim(minus).strip_prefix(b"--- ")?);
    let new = name_token(trim(plus).strip_prefix(b"+++ ")?);
    let (old, new) = match (old == b"/dev/null", new == b"/dev/null") {
        (true, true) => return None,
        (true, false) => (swap_prefix(new, b'a')?, new.to_vec()),
        (false, true) => (old.to_vec(), swap_prefix(old, b'b')?),
        (false, false) => (old.to_vec(), new.to_vec()),
    };
    (has_prefix(&old, b'a') && has_prefix(&new, b'b')).then_some((old, new))
}

/// The names of a rename or copy given only by its `from`/`to` headers.
fn move_names(headers: &[&[u8]]) -> Option<Names> {
    let value =
        |keys: &[&[u8]]| headers.iter().find_map(|h| keys.iter().find_map(|k| h.strip_prefix(*k)));
    let from = value(&[b"rename from ", b"rename old ", b"copy from "])?;
    let to = value(&[b"rename to ", b"rename new ", b"copy to "])?;
    Some((prefixed(b'a', from), prefixed(b'b', to)))
}

/// A `---`/`+++` name as written: a quoted name whole, else up to a TAB (git writes one after
/// names with spaces).
fn name_token(rest: &[u8]) -> &[u8] {
    if rest.first() == Some(&b'"') {
        let mut escaped = false;
        for (i, &b) in rest.iter().enumerate().skip(1) {
            match b {
                b'\\' if !escaped => escaped = true,
                b'"' if !escaped => return &rest[..=i],
                _ => escaped = false,
            }
        }
        return rest;
    }
    &rest[..memchr::memchr(b'\t', rest).unwrap_or(rest.len())]
}

/// Whether `name` starts with `p/`, inside quotes or not.
fn has_prefix(name: &[u8], p: u8) -> bool {
    let bare = name.strip_prefix(b"\"").unwrap_or(name);
    bare.len() > 2 && bare[0] == p && bare[1] == b'/'
}

/// `name` (which has one of the a/ b/ prefixes) with prefix `p` instead.
fn swap_prefix(name: &[u8], p: u8) -> Option<Vec<u8>> {
    let quoted = name.first() == Some(&b'"');
    let bare = if quoted { &name[1..] } else { name };
    let rest = bare.strip_prefix(b"a/").or_else(|| bare.strip_prefix(b"b/"))?;
    Some(prefixed(p, &[if quoted { &b"\""[..] } else { b"" }, rest].concat()))
}

/// `p/` + `name`, inside the quotes when `name` is quoted.
fn prefixed(p: u8, name: &[u8]) -> Vec<u8> {
    match name.strip_prefix(b"\"") {
        Some(inner) => [&b"\""[..], &[p, b'/'], inner].concat(),
        None => [&[p, b'/'][..], name].concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_minus_plus_pair_or_the_move_headers() {
        let pair = |m: &str, p: &str| {
            minus_plus_names(m.as_bytes(), p.as_bytes())
                .map(|(a, b)| (String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap()))
        };
        assert_eq!(pair("--- a/x.rs", "+++ b/x.rs"), Some(("a/x.rs".into(), "b/x.rs".into())));
        assert_eq!(pair("--- /dev/null", "+++ b/n.rs"), Some(("a/n.rs".into(), "b/n.rs".into())));
        assert_eq!(pair("--- a/o.rs", "+++ /dev/null"), Some(("a/o.rs".into(), "b/o.rs".into())));
        assert_eq!(
            pair("--- \"a/sp ace\\t.rs\"", "+++ \"b/sp ace\\t.rs\""),
            Some(("\"a/sp ace\\t.rs\"".into(), "\"b/sp ace\\t.rs\"".into()))
        );
        assert_eq!(pair("--- a/with space\t", "+++ b/with space\t").unwrap().1, "b/with space");
        assert_eq!(pair("--- x.rs", "+++ x.rs"), None, "not an a/ b/ entry");
        assert_eq!(pair("--- /dev/null", "+++ /dev/null"), None);
        let moved = move_names(&[b"similarity index 90%", b"rename from o.rs", b"rename to n.rs"]);
        assert_eq!(moved, Some((b"a/o.rs".to_vec(), b"b/n.rs".to_vec())));
        assert_eq!(move_names(&[b"old mode 100644", b"new mode 100755"]), None);
    }

    #[test]
    fn extended_headers_and_binary_markers_are_meaningful() {
        for line in [
            &b"index 1234abc..5678def 100644"[..],
            b"new file mode 100755\r",
            b"similarity index 100%",
            b"rename to a b.rs",
            b"Binary files a/x and b/x differ",
        ] {
            assert!(is_meaningful(line), "{}", String::from_utf8_lossy(line));
        }
        for line in [&b"index of changes"[..], b"new mode", b"Here is the patch:"] {
            assert!(!is_meaningful(line), "{}", String::from_utf8_lossy(line));
        }
    }
}
