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

/// Add the missing `diff --git` lines of the first block of extended headers that lacks them.
pub(super) fn fix(work: &mut Work<'_, '_>, parsed: &Parsed<'_>) -> Step {
    if work.options.parse.strip != 1 {
        return Step::Pass; // the a/ and b/ prefixes this relies on are not what the caller reads
    }
    // With no entry at all the parser says only `no_file_headers`: the text starts at line 1.
    let text = |code| matches!(code, DefectCode::Garbage | DefectCode::NoFileHeaders);
    for defect in parsed.defects.iter().filter(|d| text(d.code)) {
        let Some(entries) = headless_entries(work, defect.span.line) else { continue };
        // From the last, so the earlier lines keep their numbers.
        for (first, names) in entries.into_iter().rev() {
            let line = [&b"diff --git "[..], &names.0, b" ", &names.1].concat();
            let shown = display_bytes(&line);
            let file = display_bytes(names.1.strip_prefix(b"b/").unwrap_or(&names.1));
            work.doc.insert(first, line);
            let message = format!("added `{shown}` above the entry's extended headers");
            work.record(RepairKind::GitHeader, first, 1, message).file = Some(file);
        }
        return Step::Done;
    }
    Step::Pass
}

/// From the text block starting at line `from`: the entries of the run of extended headers
/// that ends the block, each as its first line and the `a/` and `b/` names for its `diff --git`
/// line. `None` when there is no such run or an entry names no file.
fn headless_entries(work: &Work<'_, '_>, from: usize) -> Option<Vec<(usize, Names)>> {
    let doc = &work.doc;
    let mut end = from;
    while end <= doc.len() && !starts_entry(doc.text(end), doc.text(end + 1)) {
        end += 1;
    }
    // `end` is the first line after the block: an entry start or the end of the input.
    let first = (from..end).rev().take_while(|&n| EXTENDED.is_match(trim(doc.text(n)))).last()?;
    let starts = entry_starts(&(first..end).map(|n| trim(doc.text(n))).collect::<Vec<_>>());
    let mut out = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let stop = starts.get(k + 1).map_or(end, |&next| first + next);
        let headers: Vec<&[u8]> = (first + start..stop).map(|n| trim(doc.text(n))).collect();
        let pair = (stop == end).then(|| minus_plus_names(doc.text(end), doc.text(end + 1)));
        out.push((first + start, pair.flatten().or_else(|| move_names(&headers))?));
    }
    Some(out)
}

/// An extended header's place in git's order within one entry (`index` last).
fn rank(header: &[u8]) -> u8 {
    const ORDER: [(&[u8], u8); 12] = [
        (b"old mode ", 0),
        (b"new mode ", 1),
        (b"deleted file mode ", 2),
        (b"new file mode ", 2),
        (b"similarity index ", 3),
        (b"dissimilarity index ", 3),
        (b"rename from ", 4),
        (b"rename old ", 4),
        (b"copy from ", 4),
        (b"rename to ", 5),
        (b"rename new ", 5),
        (b"copy to ", 5),
    ];
    ORDER.iter().find(|(key, _)| header.starts_with(key)).map_or(6, |&(_, rank)| rank)
}

/// Where each entry starts in a run of extended headers: git writes them in a fixed order, so a
/// header that does not come later in that order than the one before starts the next entry, and
/// so does anything after the `to` line of a 100% rename or copy (which has no `index` line).
fn entry_starts(headers: &[&[u8]]) -> Vec<usize> {
    let is_whole_move = |h: &[u8]| h.starts_with(b"similarity index 100%");
    let mut starts = vec![0];
    let (mut last, mut is_whole) = (rank(headers[0]), is_whole_move(headers[0]));
    for (i, header) in headers.iter().enumerate().skip(1) {
        let rank = rank(header);
        if rank <= last || (is_whole && last == 5) {
            starts.push(i);
            is_whole = false;
        }
        is_whole |= is_whole_move(header);
        last = rank;
    }
    starts
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
        let starts = |h: &[&[u8]]| entry_starts(h);
        let two_renames: [&[u8]; 7] = [
            b"similarity index 100%",
            b"rename from a",
            b"rename to b",
            b"similarity index 90%",
            b"rename from c",
            b"rename to d",
            b"index 1..2",
        ];
        assert_eq!(starts(&two_renames), vec![0, 3]);
        assert_eq!(
            starts(&[b"similarity index 100%", b"rename from a", b"rename to b", b"index 1..2"]),
            vec![0, 3]
        );
        assert_eq!(starts(&[b"old mode 100644", b"new mode 100755", b"index 1..2"]), vec![0]);
        assert_eq!(
            starts(&[b"new file mode 100644", b"index 0..1", b"new file mode 100644"]),
            vec![0, 2]
        );
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
