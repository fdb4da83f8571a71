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
          | throw\s+new\s+\w*(?:Error|Exception)\(.*not\s+(?:yet\s+)?implemented.*\)
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
            \btodo!\( | \bunimplemented!\( | \braise\s+NotImplemented(?:Error)?\b
          | \bthrow\s+new\s+[\w\\.]*(?:Error|Exception)\(\s*["'`][^"'`]*(?:not\s+(?:yet\s+)?implemented|\btodo\b)
          | \bthrow\s+(?:new\s+)?[\w\\.]*(?:NotImplementedException|UnsupportedOperationException|NotImplementedError)\b
          | \bpanic!?\(\s*"[^"]*(?:not\s+(?:yet\s+)?implemented|\btodo\b|\bunimplemented\b)
          | \bfatalError\(\s*"[^"]*(?:not\s+(?:yet\s+)?implemented|\btodo\b)
          | (?-i:\bTODO\(\s*(?:"[^"]*"\s*)?\))
        )"#,
    )
    .expect("the placeholder pattern is a valid regex")
});

/// A fragment every placeholder in ASCII holds, in any ASCII case: the prefilter that keeps
/// the pattern off almost every line (`!(` alone would let every macro call through).
const HINTS: [&str; 8] =
    ["todo!(", "todo(", "unimplemented!(", "panic!(", "panic(", "raise", "throw", "fatalerror("];

/// [`HINTS`] in any ASCII case, for one line.
static PLACEHOLDER_HINT: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(HINTS)
        .expect("the placeholder hints are plain strings")
});

/// [`HINTS`] as written, for text already in ASCII lower case: leftmost-first, so the search
/// gets the vector searcher (the default semantics and case folding get a rare-bytes prefilter
/// that stops at every `!` and `(` of code). The hints cannot overlap, so no hint is missed.
static LOWER_HINT: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostFirst)
        .build(HINTS)
        .expect("the placeholder hints are plain strings")
});

/// Where [`HINTS`] are in `lower` (text in ASCII lower case), in order. Text under 16 KiB (an
/// agent's usual patch) is searched for each hint in turn: building the automaton was a tenth
/// of a small patch's whole run. The hints cannot overlap, so the two searches find the same.
fn lower_hints(lower: &[u8]) -> Vec<(usize, usize)> {
    if lower.len() >= 16 << 10 {
        return LOWER_HINT.find_iter(lower).map(|m| (m.start(), m.end())).collect();
    }
    let mut found: Vec<(usize, usize)> = HINTS
        .iter()
        .flat_map(|h| memchr::memmem::find_iter(lower, h.as_bytes()).map(|s| (s, s + h.len())))
        .collect();
    found.sort_unstable();
    found
}

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
pub(crate) fn is_constant(line: &str) -> bool {
    CONSTANT.is_match(line.trim())
}

/// Whether `line` (trimmed by the caller or not) is a do-nothing statement.
#[must_use]
pub(crate) fn is_noop(line: &str) -> bool {
    NOOP.is_match(line.trim())
}

/// Whether `line` only closes or opens a block.
#[must_use]
pub(crate) fn is_structure(line: &str) -> bool {
    STRUCTURE.is_match(line.trim())
}

/// Whether `line` is an explicit "not implemented" placeholder in code: a comment that shows one
/// (a documentation example's `/// # todo!()`) is not a missing implementation.
#[must_use]
pub(crate) fn is_placeholder(line: &[u8]) -> bool {
    may_be_placeholder(line) && !is_comment(line) && PLACEHOLDER.is_match(line)
}

/// A cheap test every placeholder passes: one of the hints in ASCII, or text that is not ASCII
/// (Unicode case folding, `raiſe`, is the pattern's business).
fn may_be_placeholder(line: &[u8]) -> bool {
    !line.is_ascii() || PLACEHOLDER_HINT.is_match(line)
}

/// The placeholder hints of a whole text (a patch), found in one pass: searching one short line
/// at a time pays the searcher's start-up on every line. [`Hints::is_placeholder`] then answers
/// [`is_placeholder`] for the text's lines.
#[derive(Debug)]
pub(crate) struct Hints<'t> {
    text: &'t [u8],
    /// Start and end offset of every hint found, in text order. Hints hold no newline, so a
    /// line holds a hint exactly when one found lies inside it (the search does not report
    /// overlapping hints, but the one it reports instead lies in the same line).
    found: Vec<(usize, usize)>,
    /// Whether each block of [`Hints::BLOCK`] bytes is all ASCII: a line inside such blocks
    /// needs no test of its own.
    is_ascii_block: Vec<bool>,
}

impl<'t> Hints<'t> {
    const BLOCK: usize = 1 << 16;

    /// Find every hint of `text`, lowering its case a block at a time.
    pub(crate) fn new(text: &'t [u8]) -> Self {
        let overlap = HINTS.iter().map(|h| h.len()).max().unwrap_or(1) - 1;
        let mut lower = Vec::with_capacity(Self::BLOCK + overlap);
        let mut found = Vec::new();
        let mut is_ascii_block = Vec::with_capacity(text.len() / Self::BLOCK + 1);
        for start in (0..text.len()).step_by(Self::BLOCK) {
            let end = text.len().min(start + Self::BLOCK + overlap);
            is_ascii_block.push(text[start..end.min(start + Self::BLOCK)].is_ascii());
            lower.clear();
            lower.extend(text[start..end].iter().map(u8::to_ascii_lowercase));
            // A hint starting in the overlap is the next block's.
            let hits = lower_hints(&lower).into_iter().filter(|&(s, _)| s < Self::BLOCK);
            found.extend(hits.map(|(s, e)| (start + s, start + e)));
        }
        Self { text, found, is_ascii_block }
    }

    /// [`is_placeholder`] for `line`, a slice of the text (a line from elsewhere is searched
    /// on its own).
    pub(crate) fn is_placeholder(&self, line: &[u8]) -> bool {
        let Some(at) = self.offset(line) else { return is_placeholder(line) };
        self.may_hold(at, line) && !is_comment(line) && PLACEHOLDER.is_match(line)
    }

    /// Whether a line inside `stretch` (a slice of the text) may be a placeholder: false when
    /// the stretch is ASCII and holds no hint, so that none of its lines needs a test.
    pub(crate) fn may_hold_one(&self, stretch: &[u8]) -> bool {
        self.offset(stretch).is_none_or(|at| self.may_hold(at, stretch))
    }

    /// Where `slice` starts in the text, when it is a non-empty slice of it.
    fn offset(&self, slice: &[u8]) -> Option<usize> {
        let at = slice.as_ptr().addr().wrapping_sub(self.text.as_ptr().addr());
        let inside =
            !slice.is_empty() && at <= self.text.len() && self.text.len() - at >= slice.len();
        inside.then_some(at)
    }

    /// Whether `slice`, at `at` in the text, holds a hint or a non-ASCII byte.
    fn may_hold(&self, at: usize, slice: &[u8]) -> bool {
        let end = at + slice.len();
        let first = self.found.partition_point(|&(start, _)| start < at);
        let mut found = self.found[first..].iter().take_while(|&&(start, _)| start < end);
        let blocks = &self.is_ascii_block[at / Self::BLOCK..=end.saturating_sub(1) / Self::BLOCK];
        let is_ascii = blocks.iter().all(|&b| b) || slice.is_ascii();
        !is_ascii || found.any(|&(_, e)| e <= end)
    }
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
    fn hints_found_in_the_whole_text_answer_as_each_line_alone() {
        let lines = [
            "+    TODO!(\"later\")",
            "-raise",
            " let todo = 1;",
            "+Throw new Error('not yet implemented')",
            "+throwtodo!(x)",
            "+raiſe NotImplementedError",
            "+// todo!()",
            "+panic!(\"not implemented\")",
            "+unimplemented!",
            "+x(); unimplemented!()",
        ];
        let mut text = String::new();
        for i in 0..40_000 {
            let line = lines[i % lines.len()];
            if i > 20_000 && !line.is_ascii() {
                continue; // the later blocks are all ASCII
            }
            // Lines of every length, so hints straddle the blocks the search reads.
            text.push_str(&"y".repeat(i % 23));
            text.push_str(line);
            text.push('\n');
        }
        let hints = super::Hints::new(text.as_bytes());
        let mut found = 0;
        for line in text.as_bytes().split(|&b| b == b'\n') {
            for part in [line, line.get(1..).unwrap_or_default()] {
                assert_eq!(
                    hints.is_placeholder(part),
                    super::is_placeholder(part),
                    "{}",
                    String::from_utf8_lossy(part)
                );
                found += usize::from(hints.is_placeholder(part));
            }
        }
        assert!(found > 10_000, "{found}");
        assert!(!super::Hints::new(b"").is_placeholder(b""));
        let elsewhere = b"   todo!()".to_vec();
        assert!(hints.is_placeholder(&elsewhere), "a line from another text");
        // Every stretch of lines that holds a placeholder line may hold one.
        let lines: Vec<&[u8]> = text.as_bytes().split(|&b| b == b'\n').collect();
        let mut offset = 0;
        for (i, window) in lines.windows(5).enumerate().step_by(3) {
            let len = window.iter().map(|l| l.len() + 1).sum::<usize>() - 1;
            let stretch = &text.as_bytes()[offset..offset + len];
            if window.iter().any(|l| super::is_placeholder(l)) {
                assert!(hints.may_hold_one(stretch), "window {i}");
            }
            offset += lines[i..i + 3].iter().map(|l| l.len() + 1).sum::<usize>();
        }
    }

    /// The per-hint search of short text finds what the automaton finds.
    #[test]
    fn short_text_is_searched_as_the_automaton_searches() {
        let text =
            "raise x\ntodo!() panic!(\"a\") unimplemented!(raise)throwraiseraise!(\n".repeat(300);
        for len in [0, 5, 6, 60, 1000, 16_000, 19_000] {
            let lower = &text.as_bytes()[..len];
            let automaton: Vec<(usize, usize)> =
                super::LOWER_HINT.find_iter(lower).map(|m| (m.start(), m.end())).collect();
            assert_eq!(super::lower_hints(lower), automaton, "length {len}");
            assert_eq!(automaton.is_empty(), len < 5, "length {len}");
        }
    }

    #[test]
    fn a_stretch_without_hints_holds_no_placeholder() {
        let text = "fn a() {\n    let x = 1;\n}\nfn b() { todo!() }\nfn c() {}\ncafé\n";
        let hints = super::Hints::new(text.as_bytes());
        let at = |from: &str, to: &str| {
            let start = text.find(from).unwrap();
            &text.as_bytes()[start..text.find(to).unwrap() + to.len()]
        };
        assert!(!hints.may_hold_one(at("fn a", "x = 1;")));
        assert!(hints.may_hold_one(at("fn a", "todo!()")));
        assert!(hints.may_hold_one(at("fn c", "café")), "not ASCII: each line is tested");
        assert!(hints.may_hold_one(b"fn a() {"), "not a slice of the text");
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
