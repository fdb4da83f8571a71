//! Tokens of prose that may name a repository path: word characters, dots, dashes and slashes,
//! holding at least one `/` or `.` between word characters (`src/a.rs`, `walk.rs`,
//! `ignore/walk`). Whether a token really names a file is decided against the repository, not
//! by its shape: `Node.js`, `I/O` and `HTTP/2` are prose because no file answers to them.
//!
//! The tokens are the matches of [`SOURCE`]. ASCII text, which nearly every step description
//! is, is scanned by hand in one pass: building the regex cost more than the rest of a small
//! patch's rules together. Other text goes through the regex with Unicode word characters.

use super::pattern::Pattern;
use std::ops::Range;

/// The token pattern; the scanner gives its leftmost-first matches on ASCII text.
const SOURCE: &str = r"[\w\-]*[\w][\w.\-]*(?:[/.][\w][\w.\-]*)+";

static PATH_TOKEN: Pattern = Pattern::new(SOURCE);

/// The byte range of each successive token in `text`.
pub(super) fn ranges(text: &str) -> Vec<Range<usize>> {
    if text.is_ascii() { scan(text.as_bytes()) } else { PATH_TOKEN.ranges(text, &[0]) }
}

/// An ASCII word character (`\w` without Unicode).
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The matches of [`SOURCE`] in ASCII `text`, as the regex finds them.
///
/// A match can start at `p` when `text[p..]` opens with `[\w-]*\w` and, after its first word
/// character `q`, `[\w.-]*` runs up to a `/` or `.` followed by a word character: taking the
/// first `q` leaves the longest run, so it decides. The match then ends where the pattern's
/// greedy tail stops, at the first byte that is neither in `[\w.-]` nor a `/` before a word
/// character; every way the regex can split the match ends there.
fn scan(text: &[u8]) -> Vec<Range<usize>> {
    let n = text.len();
    let word_at = |i: usize| i < n && is_word(text[i]);
    // `joins[j]`: from `j`, `[\w.-]*` reaches a `/` or `.` followed by a word character.
    // `first_word[p]`: the first word character of the `[\w-]` run starting at `p`.
    let mut joins = vec![false; n + 1];
    let mut first_word = vec![usize::MAX; n + 1];
    for j in (0..n).rev() {
        let b = text[j];
        joins[j] = (matches!(b, b'/' | b'.') && word_at(j + 1))
            || ((is_word(b) || matches!(b, b'.' | b'-')) && joins[j + 1]);
        first_word[j] = match b {
            _ if is_word(b) => j,
            b'-' => first_word[j + 1],
            _ => usize::MAX,
        };
    }
    let starts_match = |p: usize| first_word[p] != usize::MAX && joins[first_word[p] + 1];
    let continues = |i: usize| {
        let b = text[i];
        is_word(b) || matches!(b, b'.' | b'-') || (b == b'/' && word_at(i + 1))
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < n {
        if !starts_match(at) {
            at += 1;
            continue;
        }
        let mut end = at + 1;
        while end < n && continues(end) {
            end += 1;
        }
        out.push(at..end);
        at = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{SOURCE, ranges, scan};
    use proptest::prelude::*;

    fn regex_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
        let regex = regex::bytes::RegexBuilder::new(SOURCE).unicode(false).build().unwrap();
        regex.find_iter(text.as_bytes()).map(|m| m.range()).collect()
    }

    #[test]
    fn tokens_of_a_description() {
        let text = "Fix src/a.rs and walk.rs (see ignore/walk, Node.js, https://x.io/a#b) -v/--x";
        let tokens: Vec<&str> = ranges(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(
            tokens,
            ["src/a.rs", "walk.rs", "ignore/walk", "Node.js", "x.io/a"],
            "each token as the regex would give it"
        );
        assert_eq!(scan(text.as_bytes()), regex_ranges(text));
    }

    #[test]
    fn awkward_joins_end_where_the_regex_ends() {
        let texts = "a.b/-c.d a./b a/.b -a.b --.a.b a..b a/b/ a/b//c _.- a-.b .a.b a. x/y.z. \
                     a.b.c/d-e_f.g - a a/ /a";
        for text in texts.split(' ').chain(["", "a b.c", "a.b\nc/d"]) {
            assert_eq!(scan(text.as_bytes()), regex_ranges(text), "on {text:?}");
        }
    }

    #[test]
    fn unicode_text_uses_unicode_word_characters() {
        let text = "edit données/é.rs";
        let tokens: Vec<&str> = ranges(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(tokens, ["données/é.rs"]);
    }

    proptest! {
        /// The scanner gives the regex's matches on any text of the characters that matter.
        #[test]
        fn the_scanner_finds_what_the_regex_finds(text in "[ab9_./ #:-]{0,40}") {
            prop_assert_eq!(scan(text.as_bytes()), regex_ranges(&text));
        }
    }
}
