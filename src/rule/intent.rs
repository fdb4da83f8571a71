//! What a step description says concretely enough to check without a model: the files it names
//! and the renames it asks for. Everything else is the judge's business.

use crate::path::{self, RepoPath};
use regex::Regex;
use std::sync::LazyLock;

/// "rename foo to bar", "Rename the function foo to bar" (names may be quoted with backticks
/// or quotes), "renaming 'a' into 'b'".
static RENAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\brenam(?:e|es|ing)\s+(?:\w+\s+){0,2}?[`'"]?([A-Za-z_][\w:.]*?)[`'"]?\s+(?:to|into|as)\s+[`'"]?([A-Za-z_][\w:.]*?)[`'"]?(?:[\s,;)]|[.:](?:\s|$)|$)"#)
        .expect("the rename pattern is a valid regex")
});

/// A token that looks like a repository path: has a `/`, or ends in a known source extension.
static PATH_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\w.\-/]+(?:/[\w.\-]+|\.(?:rs|py|pyi|js|mjs|cjs|jsx|ts|tsx|go|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|scala|sh|md|toml|json|yaml|yml|sql|html|css|scss|vue|lua|ex|exs|tf|proto|txt|cfg|ini|xml|gradle))\b")
        .expect("the path pattern is a valid regex")
});

/// One requested rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rename {
    /// The name to go away.
    pub from: String,
    /// The name to appear.
    pub to: String,
}

/// The renames the description asks for (`Rename foo to bar`), identifiers only.
pub(super) fn renames(description: &str) -> Vec<Rename> {
    // Most descriptions rename nothing: skip building the pattern. On ASCII text a match needs
    // `renam` in some case; other text goes to the pattern (Unicode case folding).
    let is_ascii_without = |word: &[u8]| {
        description.is_ascii()
            && !description.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word))
    };
    if is_ascii_without(b"renam") {
        return Vec::new();
    }
    RENAME
        .captures_iter(description)
        .filter_map(|c| {
            let (from, to) = (c.get(1)?.as_str(), c.get(2)?.as_str());
            let last = |s: &str| {
                let s = s.trim_end_matches([':', '.']);
                s.rsplit([':', '.']).next().unwrap_or(s).to_owned()
            };
            let (from, to) = (last(from), last(to));
            (!from.is_empty() && !to.is_empty() && from != to).then_some(Rename { from, to })
        })
        .collect()
}

/// Repository paths the description names (`src/a.rs`, `README.md`), normalised.
pub(super) fn named_files(description: &str) -> Vec<RepoPath> {
    let mut out: Vec<RepoPath> = Vec::new();
    if !description.contains(['/', '.']) {
        return out; // every path token holds one (skips building the pattern)
    }
    for m in PATH_TOKEN.find_iter(description) {
        let token = m.as_str().trim_end_matches(['.', '/']);
        let is_url = description[..m.start()].ends_with("://");
        if let (false, Ok(p)) = (is_url, path::check(token))
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}

/// Whether `text` holds `word` as a whole identifier.
pub(super) fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let is_ident = |c: char| c.is_alphanumeric() || c == '_';
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = text[at + word.len()..].chars().next().is_none_or(|c| !is_ident(c));
        before && after
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_quick_tests_keep_every_match() {
        assert_eq!(super::renames("RENAME foo TO bar").len(), 1);
        assert!(super::renames("add a flag").is_empty());
        assert_eq!(super::named_files("edit src/a.rs").len(), 1);
        assert!(super::named_files("edit the parser").is_empty());
    }
}
