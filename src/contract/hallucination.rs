//! The argument-rejection requirement's hallucination patterns: the checks a declared `path`,
//! `resource_id` or `identifier` argument goes through before any side effect.
//!
//! Order follows the reference (CWE-22/CWE-182): bytes first (empty, NUL, control), then
//! look-alike separators, then traversal (raw, then with backslashes, then decoded exactly
//! once: never twice), then every percent-encoded sequence, then URL syntax (`?query`,
//! `#fragment`) and the shape rules of the stricter types.

use super::{ArgType, RejectedPattern};

/// The first hallucination pattern in `value` for the argument-rejection checks of `ty`, with the
/// part of the input that matched. `None`: the value passes unchanged.
pub(super) fn find(ty: ArgType, value: &str) -> Option<(RejectedPattern, String)> {
    find_bytes(value)
        .or_else(|| find_lookalike(value))
        .or_else(|| find_traversal(value))
        .or_else(|| find_percent(value))
        .or_else(|| find_url_syntax(ty, value))
        .or_else(|| find_shape(ty, value))
}

fn find_bytes(value: &str) -> Option<(RejectedPattern, String)> {
    if value.is_empty() {
        return Some((RejectedPattern::EmptyValue, String::new()));
    }
    if value.contains('\0') {
        return Some((RejectedPattern::NulByte, "\\0".into()));
    }
    let control = value.chars().find(|c| c.is_control())?;
    Some((RejectedPattern::ControlCharacter, format!("U+{:04X}", u32::from(control))))
}

/// Fullwidth and other look-alike dots, slashes and backslashes (`U+FF0E`, `U+FF0F`, `U+2215`).
fn find_lookalike(value: &str) -> Option<(RejectedPattern, String)> {
    let c = value.chars().find(|c| is_lookalike_separator(*c))?;
    Some((RejectedPattern::FullwidthSeparator, c.to_string()))
}

pub(super) fn is_lookalike_separator(c: char) -> bool {
    matches!(
        u32::from(c),
        0xFF0E | 0xFF0F | 0xFF3C | 0x2215 | 0x2044 | 0x29F8 | 0x2024 | 0xFE52 | 0x2216 | 0xFE68
    )
}

/// `../`, `....//`, `.. /` (`/`-separated, as written); `..\` (backslash-separated); then
/// `%2e%2e/`, `..%2f`, `..%5c` (decoded once).
fn find_traversal(value: &str) -> Option<(RejectedPattern, String)> {
    if let Some(c) = value.split('/').find(|c| is_dot_run(c.as_bytes())) {
        return Some((RejectedPattern::PathTraversal, c.to_string()));
    }
    if let Some(c) = value.split(['/', '\\']).find(|c| is_dot_run(c.as_bytes())) {
        return Some((RejectedPattern::BackslashTraversal, format!("{c}\\")));
    }
    let decoded = decode_once(value);
    let has_encoded_traversal = decoded.split(|b| matches!(b, b'/' | b'\\')).any(is_dot_run);
    has_encoded_traversal.then(|| (RejectedPattern::PathTraversal, encoded_excerpt(value)))
}

/// A component that some resolver treats as the parent directory: `..`, and the longer runs of
/// dots (`....`) naive `../`-stripping filters turn into `..`, with NTFS's trailing spaces.
fn is_dot_run(component: &[u8]) -> bool {
    let trimmed = component.trim_ascii_end();
    trimmed.len() >= 2 && trimmed.iter().all(|&b| b == b'.')
}

/// Decode every valid `%XX` exactly once; everything else is kept as written.
pub(super) fn decode_once(value: &str) -> Vec<u8> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], hex_pair(bytes, i + 1)) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

fn hex_pair(bytes: &[u8], at: usize) -> Option<u8> {
    let pair = bytes.get(at..at + 2)?;
    let digit = |b: u8| char::from(b).to_digit(16);
    u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()
}

/// The first percent-encoded run in `value` (`%2e%2e%2f`), for messages.
fn encoded_excerpt(value: &str) -> String {
    let start = value.find('%').unwrap_or(0);
    let bytes = value.as_bytes();
    let mut end = start;
    while end < bytes.len() && (bytes[end] == b'%' && hex_pair(bytes, end + 1).is_some()) {
        end += 3;
    }
    value[start..end.max(start)].to_string()
}

/// Every valid `%XX` is refused: agents URL-encode what they should pass plainly, and a value
/// that still needs decoding would be decoded by someone else later (CWE-174).
fn find_percent(value: &str) -> Option<(RejectedPattern, String)> {
    let bytes = value.as_bytes();
    let mut from = 0;
    while let Some(rel) = memchr::memchr(b'%', &bytes[from..]) {
        let at = from + rel;
        from = at + 1;
        let Some(decoded) = hex_pair(bytes, at + 1) else {
            continue;
        };
        let pattern = classify_encoded(decoded, &bytes[at + 3..]);
        let len = if pattern == RejectedPattern::OverlongUtf8 { 6 } else { 3 };
        return Some((pattern, value[at..(at + len).min(value.len())].to_string()));
    }
    None
}

/// Name one encoded byte; `after` is the input right after its `%XX`.
fn classify_encoded(decoded: u8, after: &[u8]) -> RejectedPattern {
    let next = hex_pair(after, 1).filter(|_| after.first() == Some(&b'%'));
    let overlong = matches!(
        (decoded, next),
        (0xC0 | 0xC1, Some(_)) | (0xE0, Some(0x80..=0x9F)) | (0xF0, Some(0x80..=0x8F))
    );
    let double = decoded == b'%' && hex_pair(after, 0).is_some();
    match decoded {
        _ if double => RejectedPattern::DoubleEncoding,
        _ if overlong => RejectedPattern::OverlongUtf8,
        b'/' | b'\\' => RejectedPattern::PercentEncodedSeparator,
        b if is_shell_metacharacter(b) => RejectedPattern::EncodedShellMetacharacter,
        _ => RejectedPattern::PercentEncodedSegment,
    }
}

/// What a POSIX shell gives meaning to: separators, redirections, substitution, quoting, globs.
fn is_shell_metacharacter(b: u8) -> bool {
    matches!(
        b,
        b'\n'
            | b'\r'
            | b';'
            | b'|'
            | b'&'
            | b'$'
            | b'`'
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'\''
            | b'"'
            | b'*'
            | b'?'
            | b'!'
            | b'{'
            | b'}'
            | b'['
            | b']'
            | b'~'
            | b'#'
    )
}

/// `?` and `&` start or join a query, `#` a fragment. In a `path` only the query shape
/// (`?name=`) is refused: `?`, `&` and `#` are legal file-name characters on every Unix
/// filesystem, and a missing file is the existence check's job.
fn find_url_syntax(ty: ArgType, value: &str) -> Option<(RejectedPattern, String)> {
    let query = value.find('?').map(|at| &value[at..]);
    if ty == ArgType::Path {
        let q = query.filter(|q| q.split('/').next().is_some_and(is_query_shape))?;
        return Some((RejectedPattern::QueryParameter, q.to_string()));
    }
    if let Some(q) = query.or_else(|| value.find('&').map(|at| &value[at..])) {
        return Some((RejectedPattern::QueryParameter, q.to_string()));
    }
    let fragment = value.find('#')?;
    Some((RejectedPattern::Fragment, value[fragment..].to_string()))
}

/// `?name=value` (possibly `&`-joined): a name of URL-ish characters followed by `=`.
fn is_query_shape(q: &str) -> bool {
    let rest = &q[1..];
    rest.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.[]".contains(&b))
    })
}

/// The stricter types: a resource id is one opaque token, at most with inner `/` between
/// non-empty names (`projects/p1/topics/t1`); an identifier has no separator at all.
fn find_shape(ty: ArgType, value: &str) -> Option<(RejectedPattern, String)> {
    if ty == ArgType::Path {
        return None;
    }
    if let Some(c) = value.chars().find(|c| c.is_whitespace()) {
        return Some((RejectedPattern::Whitespace, format!("U+{:04X}", u32::from(c))));
    }
    if ty == ArgType::Identifier || value.contains('\\') {
        let c = value.chars().find(|c| matches!(c, '/' | '\\'))?;
        return Some((RejectedPattern::PathSeparator, c.to_string()));
    }
    if value.starts_with('/') {
        return Some((RejectedPattern::AbsolutePath, "/".into()));
    }
    let has_dot_segment = value.split('/').any(|s| s.is_empty() || s == ".");
    has_dot_segment.then(|| (RejectedPattern::PathSeparator, "/".into()))
}
