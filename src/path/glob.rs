//! Glob sets over repo-relative paths (`allowedFiles`, `excludedPaths`, declarations, policy).
//!
//! Globs use git's pathspec habits: `*` stays within one component, `**` crosses them, and a
//! pattern without a glob character also matches everything below it when it names a directory
//! (`docs` matches `docs/a.md`).
//!
//! A pattern without glob syntax is kept in a hash map and matched by looking up the path and
//! each of its parent directories: memory linear in the patterns' bytes. Only real globs are
//! compiled (globset builds a regex set, several hundred bytes of memory per pattern byte, which
//! is why `[limits] glob_bytes` bounds their total).

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::collections::HashMap;

/// A compiled list of globs that remembers its source patterns.
#[derive(Clone, Debug)]
pub struct PathSet {
    patterns: Vec<String>,
    /// Each pattern without glob syntax (normalised) -> its first index in `patterns`.
    literals: HashMap<String, usize>,
    /// The other patterns, two globs each (the pattern, and everything below it).
    globs: GlobSet,
    /// The index in `patterns` of each pattern in `globs`.
    glob_sources: Vec<usize>,
}

/// A glob that does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid glob '{pattern}': {reason}")]
#[non_exhaustive]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// globset's explanation.
    pub reason: String,
}

/// Characters with a meaning in globset's syntax (a lone `}` is an error there, so it counts).
const GLOB_SYNTAX: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

/// Whether `pattern` uses glob syntax (and so is compiled rather than looked up).
#[must_use]
pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(GLOB_SYNTAX)
}

impl PathSet {
    /// Compile `patterns`. A leading `./` or `/` is dropped (both mean the repository root).
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, GlobError> {
        let mut builder = GlobSetBuilder::new();
        let mut set = Self {
            patterns: Vec::with_capacity(patterns.len()),
            literals: HashMap::new(),
            globs: GlobSet::empty(),
            glob_sources: Vec::new(),
        };
        for (index, raw) in patterns.iter().enumerate() {
            let raw = raw.as_ref();
            let pattern =
                raw.trim_start_matches("./").trim_start_matches('/').trim_end_matches('/');
            set.patterns.push(raw.to_owned());
            if !is_glob(pattern) {
                set.literals.entry(pattern.to_owned()).or_insert(index);
                continue;
            }
            for variant in [pattern.to_owned(), format!("{pattern}/**")] {
                let glob = GlobBuilder::new(&variant)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .map_err(|e| GlobError {
                        pattern: raw.to_owned(),
                        reason: e.kind().to_string(),
                    })?;
                builder.add(glob);
            }
            set.glob_sources.push(index);
        }
        set.globs = builder.build().map_err(|e| GlobError {
            pattern: set
                .glob_sources
                .iter()
                .map(|&i| set.patterns[i].as_str())
                .collect::<Vec<_>>()
                .join(", "),
            reason: e.to_string(),
        })?;
        Ok(set)
    }

    /// An empty set, which matches nothing.
    #[must_use]
    pub fn empty() -> Self {
        Self {
            patterns: Vec::new(),
            literals: HashMap::new(),
            globs: GlobSet::empty(),
            glob_sources: Vec::new(),
        }
    }

    /// Whether `path` (repo-relative, `/`-separated) matches any pattern.
    #[must_use]
    pub fn is_match(&self, path: &str) -> bool {
        self.literal_match(path).is_some() || self.globs.is_match(path)
    }

    /// The first source pattern that matches `path`, for messages.
    #[must_use]
    pub fn matching_pattern(&self, path: &str) -> Option<&str> {
        // Each glob pattern compiled to two globs, in order.
        let glob = self.globs.matches(path).first().map(|&i| self.glob_sources[i / 2]);
        let first = match (self.literal_match(path), glob) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(self.patterns[first].as_str())
    }

    /// The index of the first literal pattern naming `path` or a directory above it.
    fn literal_match(&self, path: &str) -> Option<usize> {
        if self.literals.is_empty() {
            return None;
        }
        let above = path.match_indices('/').map(|(at, _)| &path[..at]);
        std::iter::once(path).chain(above).filter_map(|p| self.literals.get(p).copied()).min()
    }

    /// The source patterns.
    #[must_use]
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether the set has no pattern.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_stays_in_one_component_and_double_star_crosses() {
        let set = PathSet::new(&["src/*.rs", "tests/**/*_test.rs"]).unwrap();
        assert!(set.is_match("src/a.rs"));
        assert!(!set.is_match("src/sub/a.rs"));
        assert!(set.is_match("tests/x_test.rs"));
        assert!(set.is_match("tests/a/b/x_test.rs"));
        assert!(!set.is_match("tests/a/b/x.rs"));
    }

    #[test]
    fn plain_names_match_themselves_and_below() {
        let set = PathSet::new(&["./docs/", "Cargo.lock"]).unwrap();
        assert!(set.is_match("docs/a.md"));
        assert!(set.is_match("docs"));
        assert!(set.is_match("Cargo.lock"));
        assert!(!set.is_match("sub/Cargo.lock"));
        assert_eq!(set.matching_pattern("docs/x/y.md"), Some("./docs/"));
    }

    #[test]
    fn bad_glob_is_an_error_naming_it() {
        let err = PathSet::new(&["src/[a"]).unwrap_err();
        assert_eq!(err.pattern, "src/[a");
    }

    /// The set as it was built before literals were split off: every pattern as two globs in
    /// one globset. The split must not change a single answer.
    fn reference(patterns: &[&str], path: &str) -> (bool, Option<String>) {
        let mut builder = GlobSetBuilder::new();
        for raw in patterns {
            let pattern =
                raw.trim_start_matches("./").trim_start_matches('/').trim_end_matches('/');
            for variant in [pattern.to_owned(), format!("{pattern}/**")] {
                let glob = GlobBuilder::new(&variant)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .unwrap();
                builder.add(glob);
            }
        }
        let set = builder.build().unwrap();
        let first = set.matches(path).first().map(|&i| patterns[i / 2].to_owned());
        (set.is_match(path), first)
    }

    #[test]
    fn literals_and_globs_answer_as_one_globset_did() {
        let patterns = [
            "docs",
            "src/a.rs",
            "./lib/",
            "/top.md",
            "src/**/*.rs",
            "a,b",
            "x y/z",
            "docs/x.md",
            "*.md",
            "dir/{a,b}.txt",
            "",
            "src/a.rs/deeper",
            "é/ü",
        ];
        let paths = [
            "docs",
            "docs/a.md",
            "docsx",
            "src/a.rs",
            "src/a.rs/deeper",
            "src/a.rsx",
            "lib/x",
            "lib",
            "top.md",
            "src/b/c.rs",
            "a,b",
            "a,b/c",
            "x y/z",
            "README.md",
            "dir/a.txt",
            "dir/c.txt",
            "src",
            "é/ü/x",
            "/abs",
            "",
        ];
        for n in 0..=patterns.len() {
            // Every prefix of the list, and the list reversed, so the first match moves.
            for list in [patterns[..n].to_vec(), patterns[..n].iter().rev().copied().collect()] {
                let set = PathSet::new(&list).unwrap();
                for path in paths {
                    let (is_match, first) = reference(&list, path);
                    assert_eq!(set.is_match(path), is_match, "{list:?} {path:?}");
                    assert_eq!(
                        set.matching_pattern(path).map(str::to_owned),
                        first,
                        "{list:?} {path:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_lone_closing_brace_is_still_an_invalid_glob() {
        assert!(PathSet::new(&["a}b"]).is_err());
        assert!(!is_glob("src/a,b.rs"));
        assert!(is_glob("src/*.rs"));
    }
}
