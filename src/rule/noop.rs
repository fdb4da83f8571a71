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

/// Whether `line` is an explicit "not implemented" placeholder.
#[must_use]
pub(super) fn is_placeholder(line: &str) -> bool {
    may_be_placeholder(line) && PLACEHOLDER.is_match(line)
}

/// A cheap test every placeholder passes, so most lines never build nor run the pattern: on
/// ASCII text each alternative needs a `!` (`todo!(`, `unimplemented!(`, `panic!(`), `raise` or
/// `throw` in any case. Other text goes to the pattern (Unicode case folding is its business).
fn may_be_placeholder(line: &str) -> bool {
    if !line.is_ascii() {
        return true;
    }
    let bytes = line.as_bytes();
    let word_at = |at: usize, word: &[u8]| {
        bytes.get(at..at + word.len()).is_some_and(|w| w.eq_ignore_ascii_case(word))
    };
    // One pass; `b | 0x20` is the ASCII lower case of a letter.
    bytes.iter().enumerate().any(|(at, &b)| {
        b == b'!'
            || (b | 0x20 == b'r' && word_at(at, b"raise"))
            || (b | 0x20 == b't' && word_at(at, b"throw"))
    })
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
        ] {
            assert!(super::is_placeholder(line), "{line}");
        }
        assert!(!super::is_placeholder("let x = y; // raise the limit"));
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
