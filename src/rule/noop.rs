//! Recognising bodies that do nothing (`pass`, `return;`, `todo!()`) and placeholders that
//! announce they are not implemented, across the common languages.

use regex::Regex;
use std::sync::LazyLock;

/// A statement that does nothing, or a placeholder for the missing implementation.
static NOOP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:
            pass | \.\.\. | return | return\s+(?:none|null|nil|undefined)
          | todo!\(.*\) | unimplemented!\(.*\) | std::process::abort\(\)
          | raise\s+NotImplementedError(?:\(.*\))?
          | throw\s+new\s+\w*Error\(.*not\s+(?:yet\s+)?implemented.*\)
          | throw\s+new\s+(?:NotImplementedException|UnsupportedOperationException)\(.*\)
          | panic!\(.*not\s+(?:yet\s+)?implemented.*\)
        )\s*;?$",
    )
    .expect("the no-op pattern is a valid regex")
});

/// A line that says outright the code is missing.
static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?ix)(?:
            \btodo!\( | \bunimplemented!\( | \braise\s+NotImplementedError\b
          | \bthrow\s+new\s+\w*Error\(\s*["'`][^"'`]*not\s+(?:yet\s+)?implemented
          | \bthrow\s+new\s+(?:NotImplementedException|UnsupportedOperationException)\b
          | \bpanic!\(\s*"[^"]*not\s+(?:yet\s+)?implemented
        )"#,
    )
    .expect("the placeholder pattern is a valid regex")
});

/// Punctuation-only lines (`}`, `});`) and block ends that carry no behaviour.
static STRUCTURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:[{}()\[\];,]*|end|fi|done|esac)$").expect("the structure pattern is valid")
});

/// Whether `line` (trimmed by the caller or not) is a do-nothing statement.
#[must_use]
pub(super) fn is_noop(line: &str) -> bool {
    NOOP.is_match(line.trim())
}

/// Whether `line` only closes or opens a block.
#[must_use]
pub(super) fn is_structure(line: &str) -> bool {
    STRUCTURE.is_match(line.trim())
}

/// Whether `line` is an explicit "not implemented" placeholder.
#[must_use]
pub(super) fn is_placeholder(line: &str) -> bool {
    PLACEHOLDER.is_match(line)
}
