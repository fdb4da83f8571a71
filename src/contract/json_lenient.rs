//! The JSON mistakes models make (`//` and `/* */` comments, trailing commas, `undefined`),
//! found outside strings and blanked out so the rest of the reply can still be checked. Every
//! blanked byte becomes a space (newlines kept), so line numbers stay true.

use super::{Finding, ReplyCode};

/// `text` with the mistakes blanked, and one finding per mistake.
pub(super) fn clean(text: &str, first_line: usize) -> (String, Vec<Finding>) {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut findings = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    let newlines: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    while i < bytes.len() {
        let line = first_line + newlines.partition_point(|&n| n < i);
        i = match bytes[i] {
            b'"' => skip_string(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                findings.push(comment(line));
                blank(&mut out, i, line_end(bytes, i))
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                findings.push(comment(line));
                let end = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
                blank(&mut out, i, end)
            }
            b',' if closes_after(bytes, i + 1) => {
                findings.push(Finding::at_line(
                    ReplyCode::TrailingComma,
                    "trailing comma before a closing bracket; JSON allows none",
                    line,
                ));
                blank(&mut out, i, i + 1)
            }
            b'u' if bytes[i..].starts_with(b"undefined")
                && !is_word_byte(bytes, i.wrapping_sub(1)) =>
            {
                findings.push(Finding::at_line(
                    ReplyCode::UndefinedValue,
                    "'undefined' is not JSON; use [] for an empty list, or omit the field",
                    line,
                ));
                out[i..i + 9].copy_from_slice(b"null     ");
                i + 9
            }
            _ => i + 1,
        };
    }
    (String::from_utf8(out).expect("only ASCII bytes were replaced by ASCII"), findings)
}

fn comment(line: usize) -> Finding {
    Finding::at_line(
        ReplyCode::JsonComment,
        "comment in JSON; JSON has no comments, remove it",
        line,
    )
}

/// The index after the string starting at `start` (a `"`), honouring backslash escapes.
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |n| from + n)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// Blank `out[from..to]` except newlines; return `to`.
fn blank(out: &mut [u8], from: usize, to: usize) -> usize {
    for b in &mut out[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
    to
}

/// Whether only whitespace and comments stand between `from` and a `}` or `]`.
fn closes_after(bytes: &[u8], from: usize) -> bool {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
            }
            b'}' | b']' => return true,
            _ => return false,
        }
    }
    false
}

fn is_word_byte(bytes: &[u8], at: usize) -> bool {
    bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}
