//! Regexes over prose (step descriptions) compiled on first use, twice over: without Unicode
//! for ASCII text, which nearly every description is, and with it for the rest. On ASCII text
//! both give the same matches (`\w`, `\s`, `\b`, case folding and `[^x]` only differ beyond
//! ASCII), and the ASCII one costs a small fraction to build: the Unicode `\w` of the path
//! pattern alone was two thirds of a small patch's validation.

use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

/// One pattern, compiled per kind of text on first use.
#[derive(Debug)]
pub(super) struct Pattern {
    source: &'static str,
    /// Words (ASCII, lowercase) one of which every match holds in some case: ASCII text
    /// without any is not searched, and the pattern not built.
    words: &'static [&'static str],
    unicode: OnceLock<Regex>,
    ascii: OnceLock<regex::bytes::Regex>,
}

impl Pattern {
    pub(super) const fn new(source: &'static str) -> Self {
        Self { source, words: &[], unicode: OnceLock::new(), ascii: OnceLock::new() }
    }

    /// The pattern, whose every match holds one of `words` (ASCII, lowercase) in some case.
    pub(super) const fn with_words(mut self, words: &'static [&'static str]) -> Self {
        self.words = words;
        self
    }

    /// Whether ASCII `text` cannot match: it holds none of the words.
    fn is_ruled_out(&self, text: &[u8]) -> bool {
        !self.words.is_empty()
            && !self
                .words
                .iter()
                .any(|w| text.windows(w.len()).any(|s| s.eq_ignore_ascii_case(w.as_bytes())))
    }

    fn unicode(&self) -> &Regex {
        self.unicode.get_or_init(|| Regex::new(self.source).expect("a valid pattern"))
    }

    fn ascii(&self) -> &regex::bytes::Regex {
        self.ascii.get_or_init(|| {
            regex::bytes::RegexBuilder::new(self.source)
                .unicode(false)
                .build()
                .expect("a valid pattern without Unicode")
        })
    }

    /// Whether the pattern matches somewhere in `text`.
    pub(super) fn is_match(&self, text: &str) -> bool {
        if text.is_ascii() {
            !self.is_ruled_out(text.as_bytes()) && self.ascii().is_match(text.as_bytes())
        } else {
            self.unicode().is_match(text)
        }
    }

    /// Each successive match's range of the first of `groups` that took part (group 0: the
    /// whole match).
    pub(super) fn ranges(&self, text: &str, groups: &[usize]) -> Vec<Range<usize>> {
        let first =
            |get: &dyn Fn(usize) -> Option<Range<usize>>| groups.iter().find_map(|&g| get(g));
        if text.is_ascii() {
            if self.is_ruled_out(text.as_bytes()) {
                return Vec::new();
            }
            let captures = self.ascii().captures_iter(text.as_bytes());
            captures.filter_map(|c| first(&|g| c.get(g).map(|m| m.range()))).collect()
        } else {
            let captures = self.unicode().captures_iter(text);
            captures.filter_map(|c| first(&|g| c.get(g).map(|m| m.range()))).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    #[test]
    fn words_rule_out_only_ascii_text_without_them() {
        let stub = Pattern::new(r"(?i)\b(stubs?|todo!?)\b").with_words(&["stub", "todo"]);
        assert!(stub.is_match("add a STUB here"));
        assert!(!stub.is_match("add a function"));
        assert_eq!(stub.ranges("a Todo!", &[0]).first(), Some(&(2..6)));
        assert!(stub.is_match("add a \u{17f}tub"), "the long s folds to s beyond ASCII");
    }

    /// The ASCII build answers as the Unicode one on ASCII text.
    #[test]
    fn both_builds_agree_on_ascii_text() {
        let texts = [
            "edit src/a.rs and `dir with space/f.txt`, see \"x y/z\" and https://a.b/c",
            "RENAME Foo TO bar; add a Stub; fix trailing  whitespace\tand KELVIN",
            "--no-verify -j/--jobs @types/node #12 ./x/y.z. node.js I/O HTTP/2",
        ];
        let sources = [
            r"[\w\-]*[\w][\w.\-]*(?:[/.][\w][\w.\-]*)+",
            r#"`([^`\n]{1,200})`|"([^"\n]{1,200})""#,
            r"(?i)\b(stubs?|placeholders?|scaffold\w*|skeleton|todo!?|unimplemented)\b",
            r"(?ix)\b( white\s*spaces? | trailing\s+(?:spaces?|newlines?) )\b",
        ];
        for source in sources {
            let pattern = Pattern::new(source);
            let unicode = regex::Regex::new(source).unwrap();
            for text in texts {
                let expected: Vec<_> = unicode
                    .captures_iter(text)
                    .filter_map(|c| c.get(1).or_else(|| c.get(2)).or_else(|| c.get(0)))
                    .map(|m| m.range())
                    .collect();
                assert_eq!(pattern.ranges(text, &[1, 2, 0]), expected, "{source} on {text}");
                assert_eq!(pattern.is_match(text), unicode.is_match(text), "{source} on {text}");
            }
        }
    }
}
