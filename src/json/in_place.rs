//! A large document decoded in its own buffer.
//!
//! An executor result is mostly one string: its patch, megabytes of JSON-escaped diff. Read the
//! ordinary way, the bytes, `serde_json`'s scratch copy of the string and the decoded string are
//! all held at once (three times the patch). [`decode_owned`] takes the bytes instead and
//! decodes that one string where it lies: the escapes are undone in place (the decoded text is
//! never longer than its escaped form), the text is moved to the front of the buffer, and the
//! buffer becomes the string. The rest of the document, without that string, is read by
//! [`decode`] as before, so keys, types and repeated keys are judged by the same reader.
//!
//! Nothing here decides anything about a document: where the string is not plainly valid JSON
//! (a bad escape, a raw control character, invalid UTF-8, a lone surrogate) or the document
//! around it is not one object, the bytes are left untouched and decoded the ordinary way, so
//! every error reads exactly as before.

use super::{Decoded, decode};
use crate::bytemask::Marks;
use serde_json::Value;
use std::borrow::Cow;

/// Documents shorter than this are decoded the ordinary way: there is little memory to save.
const LARGE_DOCUMENT: usize = 1 << 20;
/// A string shorter than this (as written) is decoded the ordinary way.
const LARGE_STRING: usize = 64 << 10;

/// What [`decode_owned`] kept of the bytes it was given, to write the document again.
#[derive(Debug)]
pub enum Kept {
    /// The bytes as received (the document was decoded the ordinary way).
    Bytes(Vec<u8>),
    /// The document was decoded in place: here are its bytes without the string's content.
    Without {
        /// The bytes as received, the string's content cut out (`"key": ""`).
        rest: Vec<u8>,
        /// Where the string's content was: between the quotes at `at - 1` and `at`.
        at: usize,
        /// The string, when its reader gave it back ([`Kept::hold`]).
        value: Option<String>,
    },
}

impl Kept {
    /// Keep the string decoded in place, for a reader that will not keep it itself (for
    /// [`Kept::text`]); nothing to keep for bytes kept whole.
    pub fn hold(&mut self, string: String) {
        if let Self::Without { value, .. } = self {
            *value = Some(string);
        }
    }

    /// The document's text: the bytes as received or, for a document decoded in place, those
    /// bytes with `value` (the string, which the caller kept) written back where it was,
    /// escaped as `serde_json` escapes (the same string; every other byte as received).
    /// A string held by [`Kept::hold`] stands for a `value` not given.
    #[must_use]
    pub fn text(&self, value: Option<&str>) -> Cow<'_, [u8]> {
        match self {
            Self::Bytes(bytes) => Cow::Borrowed(bytes),
            Self::Without { rest, at, value: held } => {
                let value = value.or(held.as_deref()).unwrap_or_default();
                let string = serde_json::to_vec(value).expect("strings serialize");
                Cow::Owned([&rest[..at - 1], &string, &rest[at + 1..]].concat())
            }
        }
    }
}

/// Read `bytes` as one JSON document, as [`decode`] does; when it is a large object whose
/// top-level `key` holds a large valid string, that string is decoded in place (the bytes are
/// consumed). The document is the same either way.
#[must_use]
pub fn decode_owned(bytes: Vec<u8>, key: &str) -> (Decoded, Kept) {
    let Some(found) = find_string(&bytes, key) else {
        return (decode(&bytes), Kept::Bytes(bytes));
    };
    let rest = without(&bytes, &found);
    let Decoded { value: Ok(Value::Object(mut object)), duplicate: None } = decode(&rest) else {
        // Let the ordinary reader say what is wrong, as it always has.
        return (decode(&bytes), Kept::Bytes(bytes));
    };
    object.insert(key.to_owned(), Value::String(into_string(bytes, &found)));
    let decoded = Decoded { value: Ok(Value::Object(object)), duplicate: None };
    (decoded, Kept::Without { rest, at: found.start, value: None })
}

/// Where the large string lies: its escaped content is `bytes[start..end]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Found {
    start: usize,
    end: usize,
}

/// The string value of the top-level `key`, when the document is one large object, the key
/// appears once, and its value is a large string that needs no judgement (see [`plain_string_end`]).
fn find_string(bytes: &[u8], key: &str) -> Option<Found> {
    if bytes.len() < LARGE_DOCUMENT {
        return None;
    }
    let mut found = None;
    let mut at = skip_ws(bytes, 0);
    (bytes.get(at) == Some(&b'{')).then_some(())?;
    at = skip_ws(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        (bytes.get(at) == Some(&b'"')).then_some(())?;
        let key_end = string_end(bytes, at + 1)?;
        let name: String = serde_json::from_slice(&bytes[at..=key_end]).ok()?;
        at = skip_ws(bytes, key_end + 1);
        (bytes.get(at) == Some(&b':')).then_some(())?;
        at = skip_ws(bytes, at + 1);
        if bytes.get(at) == Some(&b'"') && name == key {
            // A key given twice is for the ordinary reader to refuse.
            found.is_none().then_some(())?;
            let end = plain_string_end(bytes, at + 1)?;
            found = Some(Found { start: at + 1, end });
            at = end + 1;
        } else if bytes.get(at) == Some(&b'"') {
            at = string_end(bytes, at + 1)? + 1;
        } else {
            (name != key).then_some(())?;
            at = skip_value(bytes, at)?;
        }
        at = skip_ws(bytes, at);
        match bytes.get(at)? {
            b',' => at = skip_ws(bytes, at + 1),
            b'}' => break,
            _ => return None,
        }
    }
    (skip_ws(bytes, at + 1) == bytes.len()).then_some(())?;
    let found = found?;
    let content = &bytes[found.start..found.end];
    (content.len() >= LARGE_STRING && is_utf8(content)).then_some(found)
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The index of the quote that closes the string whose content starts at `from`.
fn string_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        at += memchr::memchr2(b'"', b'\\', &bytes[at..])?;
        if bytes[at] == b'"' {
            return Some(at);
        }
        at += 2;
        if at > bytes.len() {
            return None;
        }
    }
}

/// Past one value that is not a string (an object, array, number or literal), roughly: the
/// ordinary reader judges it, in the document without the large string.
fn skip_value(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *bytes.get(at)? {
            b',' | b' ' | b'\t' | b'\n' | b'\r' | b'}' | b']' if depth == 0 => return Some(at),
            b'"' => at = string_end(bytes, at + 1)?,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
}

/// The quote closing the string whose content starts at `from`, when that content decodes
/// without anything to report: no raw control character, only escapes JSON defines, `\u`
/// surrogates in pairs.
#[expect(clippy::needless_bitwise_bool, reason = "bitwise, the block's comparisons vectorize")]
fn plain_string_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut marks = Marks::new(bytes, from, |b| (b == b'"') | (b == b'\\') | (b < 0x20));
    let mut at = from;
    loop {
        let hit = marks.next_from(bytes, at)?;
        at = match (bytes[hit], bytes.get(hit + 1)) {
            (b'"', _) => return Some(hit),
            // The escape of nearly every line of a patch.
            (b'\\', Some(b'n')) => hit + 2,
            (b'\\', _) => hit + escape(bytes, hit)?.1,
            _ => return None,
        };
    }
}

/// Whether `content` is UTF-8 (an ASCII fold first: patches mostly are ASCII).
fn is_utf8(content: &[u8]) -> bool {
    content.iter().fold(0, |any, &b| any | b) < 0x80 || std::str::from_utf8(content).is_ok()
}

/// The character the escape at `content[at]` (a backslash) stands for, and the escape's
/// length; `None` for an escape JSON does not define or a lone surrogate.
fn escape(content: &[u8], at: usize) -> Option<(char, usize)> {
    let simple = match content.get(at + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode_escape(content, at),
        _ => return None,
    };
    Some((simple, 2))
}

fn unicode_escape(content: &[u8], at: usize) -> Option<(char, usize)> {
    let unit = hex4(content.get(at + 2..at + 6)?)?;
    match unit {
        0xD800..=0xDBFF => {
            (content.get(at + 6..at + 8)? == b"\\u").then_some(())?;
            let low = hex4(content.get(at + 8..at + 12)?)?;
            (0xDC00..=0xDFFF).contains(&low).then_some(())?;
            let code = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            Some((char::from_u32(code)?, 12))
        }
        0xDC00..=0xDFFF => None,
        _ => Some((char::from_u32(u32::from(unit))?, 6)),
    }
}

fn hex4(digits: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(digits).ok()?;
    (text.len() == 4 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u16::from_str_radix(text, 16).ok())?
}

/// The document with the large string emptied (`"key": ""`), for the ordinary reader.
fn without(bytes: &[u8], found: &Found) -> Vec<u8> {
    let mut rest = Vec::with_capacity(bytes.len() - (found.end - found.start));
    rest.extend_from_slice(&bytes[..found.start]);
    rest.extend_from_slice(&bytes[found.end..]);
    rest
}

/// Undo the escapes of the string at `found` where it lies, move it to the front, and make
/// the buffer the string. `found` was checked by [`plain_string_end`] and [`is_utf8`].
fn into_string(mut bytes: Vec<u8>, found: &Found) -> String {
    let mut write = found.start;
    let mut read = found.start;
    let mut marks = Marks::new(&bytes[..found.end], read, |b| b == b'\\');
    while let Some(at) = marks.next_from(&bytes[..found.end], read) {
        bytes.copy_within(read..at, write);
        write += at - read;
        if bytes[at + 1] == b'n' {
            bytes[write] = b'\n';
            write += 1;
            read = at + 2;
            continue;
        }
        let (c, len) = escape(&bytes, at).expect("checked by plain_string_end");
        write += c.encode_utf8(&mut bytes[write..at + len]).len();
        read = at + len;
    }
    bytes.copy_within(read..found.end, write);
    write += found.end - read;
    bytes.copy_within(found.start..write, 0);
    bytes.truncate(write - found.start);
    bytes.shrink_to_fit();
    String::from_utf8(bytes).expect("checked by is_utf8: UTF-8 with escapes undone is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document over the size limit whose `key` holds `text` written with `escaped`.
    fn large(escaped: &str, tail: &str) -> Vec<u8> {
        let body = escaped.repeat(LARGE_DOCUMENT / escaped.len() + 1);
        format!(
            "{{\"mode\": \"apply\", \"patch\": \"{body}\", \"n\": [1, {{\"a\": \"]}}\"}}]{tail}"
        )
        .into_bytes()
    }

    fn same_as_ordinary(bytes: Vec<u8>) -> Kept {
        let ordinary = decode(&bytes);
        let (decoded, kept) = decode_owned(bytes, "patch");
        assert_eq!(
            decoded.value.as_ref().map_err(ToString::to_string),
            ordinary.value.as_ref().map_err(ToString::to_string)
        );
        assert_eq!(decoded.duplicate, ordinary.duplicate);
        kept
    }

    #[test]
    fn a_large_patch_is_decoded_in_place_to_the_same_document() {
        for escaped in [
            r"line\n",
            r#"a\"b\\c\/d\b\f\r\t\n"#,
            r"caf\u00e9 \u20ac \ud83d\ude00 ",
            "raw é € 😀 \\n",
        ] {
            let bytes = large(escaped, "}");
            let kept = same_as_ordinary(bytes.clone());
            assert!(matches!(kept, Kept::Without { .. }), "not in place: {escaped}");
            let ordinary: Value = serde_json::from_slice(&bytes).unwrap();
            let patch = ordinary["patch"].as_str().unwrap();
            let text = kept.text(Some(patch));
            assert_eq!(serde_json::from_slice::<Value>(&text).unwrap(), ordinary);
            if !escaped.contains("\\u") && !escaped.contains("\\/") {
                assert!(*text == *bytes, "every byte as received: {escaped}");
            }
        }
    }

    #[test]
    fn anything_doubtful_is_left_to_the_ordinary_reader_untouched() {
        let cases = [
            large(r"line\n", "} trailing"),
            large(r"line\n", ", \"patch\": \"again\"}"),
            large(r"line\n", ", \"mode\": \"twice\"}"),
            large(r"bad \x escape", "}"),
            large(r"lone \ud800 surrogate", "}"),
            large(r"lone \udc00 low", "}"),
            large(r"short \u12", "}"),
            large("raw\ttab", "}"),
            large(r"line\n", ", oops}"),
            large(r"line\n", ""),
            large(r"small\n", "}")[..1000].to_vec(),
            b"{\"patch\": \"short\\n\"}".to_vec(),
        ];
        for bytes in cases {
            let kept = same_as_ordinary(bytes.clone());
            match kept {
                Kept::Bytes(kept) => assert_eq!(kept, bytes),
                Kept::Without { .. } => {
                    panic!("decoded in place: {}", String::from_utf8_lossy(&bytes[..80]))
                }
            }
        }
        let mut invalid_utf8 = large(r"line\n", "}");
        invalid_utf8[100] = 0xff;
        assert!(
            matches!(same_as_ordinary(invalid_utf8.clone()), Kept::Bytes(b) if b == invalid_utf8)
        );
    }

    #[test]
    fn a_key_written_with_escapes_is_the_same_key() {
        let bytes = large(r"x\n", "}");
        let text = String::from_utf8(bytes).unwrap().replacen("\"patch\"", r#""p\u0061tch""#, 1);
        assert!(matches!(same_as_ordinary(text.into_bytes()), Kept::Without { .. }));
    }

    #[test]
    fn a_patch_that_is_not_a_string_is_not_touched() {
        let body = "1, ".repeat(LARGE_DOCUMENT / 3);
        let bytes = format!("{{\"patch\": [{body}1]}}").into_bytes();
        assert!(matches!(same_as_ordinary(bytes), Kept::Bytes(_)));
    }
}
