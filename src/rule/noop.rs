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

/// A line that says outright the code is missing. On bytes: the Unicode classes and case
/// folding apply to UTF-8 text, and bytes that are not UTF-8 match none of them.
static PLACEHOLDER: LazyLock<regex::bytes::Regex> = LazyLock::new(|| {
    regex::bytes::Regex::new(
        r#"(?ix)(?:
            \btodo!\( | \bunimplemented!\( | \braise\s+NotImplementedError\b
          | \bthrow\s+new\s+\w*Error\(\s*["'`][^"'`]*not\s+(?:yet\s+)?implemented
          | \bthrow\s+new\s+(?:NotImplementedException|UnsupportedOperationException)\b
          | \bpanic!\(\s*"[^"]*not\s+(?:yet\s+)?implemented
        )"#,
    )
    .expect("the placeholder pattern is a valid regex")
});

/// A fragment every placeholder in ASCII holds, in any ASCII case: the prefilter that keeps
/// the pattern off almost every line (`!(` alone would let every macro call through).
static PLACEHOLDER_HINT: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(["todo!(", "unimplemented!(", "panic!(", "raise", "throw"])
        .expect("the placeholder hints are plain strings")
});

/// Punctuation-only lines (`}`, `});`) and block ends that carry no behaviour.
static STRUCTURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:[{}()\[\];,]*|end|fi|done|esac)$").expect("the structure pattern is valid")
});

/// A hard-coded value standing for a computed one.
const VALUE: &str = r#"-?\d+(?:\.\d+)?|true|false|none|nil|null|undefined|""|''|\[\]|\{\}|\(\)|(?:\w+::)?default\(\)|String::new\(\)|Vec::new\(\)|vec!\[\]"#;

/// A statement or tail expression that returns a constant: `return 0`, `Ok(0)`,
/// `return Ok(Default::default());`, `return nil, nil`.
static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)^(?:return\s+)?(?:(?:ok|some|err)\(\s*)?(?:{VALUE})(?:\s*,\s*(?:{VALUE}))*\s*\)?\s*;?$"
    ))
    .expect("the constant pattern is a valid regex")
});

/// Whether `line` only returns (or evaluates to) a hard-coded constant.
#[must_use]
pub(super) fn is_constant(line: &str) -> bool {
    CONSTANT.is_match(line.trim())
}

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

/// Whether `line` is an explicit "not implemented" placeholder in code: a comment that shows one
/// (a documentation example's `/// # todo!()`) is not a missing implementation.
#[must_use]
pub(super) fn is_placeholder(line: &[u8]) -> bool {
    may_be_placeholder(line) && !is_comment(line) && PLACEHOLDER.is_match(line)
}

/// A cheap test every placeholder passes: one of the hints in ASCII, or text that is not ASCII
/// (Unicode case folding, `raiſe`, is the pattern's business).
fn may_be_placeholder(line: &[u8]) -> bool {
    !line.is_ascii() || PLACEHOLDER_HINT.is_match(line)
}

/// Whether `line` is a line comment or a block comment's line (`//`, `/*`, `* `, `#` other than
/// a `#[` attribute, `-- `, `<!--`).
fn is_comment(line: &[u8]) -> bool {
    let text = line.trim_ascii_start();
    let starts = |p: &[u8]| text.starts_with(p);
    starts(b"//")
        || starts(b"/*")
        || starts(b"<!--")
        || starts(b"-- ")
        || (starts(b"#") && !starts(b"#["))
        || matches!(text, [b'*'] | [b'*', b' ' | b'\t' | b'/', ..])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_quick_test_keeps_every_placeholder() {
        for line in [
            "todo!()",
            "    TODO!(\"later\")",
            "unimplemented!()",
            "RAISE NotImplementedError",
            "Throw new Error('not yet implemented')",
            "throw new UnsupportedOperationException();",
            "panic!(\"not implemented\")",
            "raiſe NotImplementedError",
            "*slot = todo!();",
        ] {
            assert!(super::is_placeholder(line.as_bytes()), "{line}");
        }
        assert!(!super::is_placeholder(b"let x = y; // raise the limit"));
        assert!(!super::is_placeholder(b"println!(\"done\"); vec!(1)"), "other macros");
    }

    #[test]
    fn a_placeholder_shown_in_a_comment_is_not_one() {
        for line in [
            "    /// # let mode = unimplemented!();",
            "/// #      todo!()",
            "// TODO: todo!() until the parser lands",
            "  * raise NotImplementedError in subclasses",
            "# raise NotImplementedError",
            "<!-- todo!() -->",
        ] {
            assert!(!super::is_placeholder(line.as_bytes()), "{line}");
        }
        assert!(super::is_placeholder(b"#[cfg(x)] fn f() { todo!() }"), "an attribute is code");
    }

    #[test]
    fn constants_stand_for_computed_values() {
        for line in [
            "return Ok(0)",
            "return 0;",
            "Ok(Default::default())",
            "return nil, nil",
            "return None",
            "return []",
            "Ok(Config::default())",
            "false",
        ] {
            assert!(super::is_constant(line), "{line}");
        }
        for line in ["return Ok(n)", "return total + 1;", "Ok(parse(x)?)", "return nil, err"] {
            assert!(!super::is_constant(line), "{line}");
        }
    }
}
