//! The agent contract's "Data Types" rules, over a whole reply: scores and percentages are numbers,
//! counts and totals are non-negative integers, booleans are not strings, nothing is `null` (arrays
//! are `[]`). Which values are scores or counts is read from their key names.

use super::{Finding, ReplyCode, escape_pointer};
use serde_json::Value;

/// Every data-type violation under `value`, which sits at `pointer`.
pub(super) fn walk(value: &Value, pointer: &str, key: &str, out: &mut Vec<Finding>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                walk(v, &format!("{pointer}/{}", escape_pointer(k)), k, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, &format!("{pointer}/{i}"), key, out);
            }
        }
        _ => out.extend(check_scalar(value, key).map(|(code, message)| {
            Finding::new(code, format!("'{}' {message}", display_pointer(pointer))).pointer(pointer)
        })),
    }
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { super::shown(pointer) }
}

/// The violation of one scalar under key `key`, if any.
fn check_scalar(value: &Value, key: &str) -> Option<(ReplyCode, String)> {
    let kind = KeyKind::of(key);
    match value {
        Value::Null => Some((
            ReplyCode::NullValue,
            "is null; use [] for an empty list, or leave out an optional field".into(),
        )),
        Value::String(s) if s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false") => {
            let b = s.to_ascii_lowercase();
            Some((
                ReplyCode::BooleanAsString,
                format!("is the string \"{s}\"; use the boolean {b}"),
            ))
        }
        Value::String(s) if kind != KeyKind::Other && is_numeric_text(s) => Some((
            ReplyCode::NumberAsString,
            format!("is the string \"{s}\"; use the number {}", s.trim_end_matches('%')),
        )),
        Value::String(s) if kind == KeyKind::Score => Some((
            ReplyCode::WrongType,
            format!("is the string \"{s}\"; scores and percentages are numbers"),
        )),
        Value::Number(n) if kind == KeyKind::Count => check_count(n),
        _ => None,
    }
}

fn check_count(n: &serde_json::Number) -> Option<(ReplyCode, String)> {
    if n.is_u64() {
        return None;
    }
    if n.is_i64() {
        return Some((
            ReplyCode::NegativeCount,
            format!("is {n}; counts and totals are non-negative"),
        ));
    }
    Some((ReplyCode::NotAnInteger, format!("is {n}; counts and totals are whole numbers")))
}

/// `85`, `-3`, `0.5`, `85%`: text a number was turned into.
pub(super) fn is_numeric_text(s: &str) -> bool {
    let s = s.trim().trim_end_matches('%');
    let s = s.strip_prefix('-').unwrap_or(s);
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && digits(frac)
}

/// What a key's name says its value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyKind {
    /// A score or percentage: a number.
    Score,
    /// A count, total or duration: a non-negative integer.
    Count,
    /// Anything else.
    Other,
}

impl KeyKind {
    fn of(key: &str) -> Self {
        let words = snake_words(key);
        let last = words.last().map_or("", String::as_str);
        let first = words.first().map_or("", String::as_str);
        if matches!(
            last,
            "score" | "percent" | "percentage" | "pct" | "completeness" | "coverage" | "confidence"
        ) {
            Self::Score
        } else if matches!(last, "count" | "total" | "ms" | "read" | "written")
            || matches!(first, "num" | "total" | "count")
        {
            Self::Count
        } else {
            Self::Other
        }
    }
}

/// `filesRead` and `files_read` both give `["files", "read"]`.
fn snake_words(key: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    for c in key.chars() {
        if c == '_' || c == '-' {
            words.push(String::new());
        } else if c.is_uppercase() {
            words.push(c.to_lowercase().collect());
        } else if let Some(last) = words.last_mut() {
            last.push(c);
        }
    }
    words.retain(|w| !w.is_empty());
    words
}
