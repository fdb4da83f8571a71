//! Glob sets over repo-relative paths (`allowedFiles`, `excludedPaths`, declarations, policy).
//!
//! Globs use git's pathspec habits: `*` stays within one component, `**` crosses them, and a
//! pattern without a glob character also matches everything below it when it names a directory
//! (`docs` matches `docs/a.md`).

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// A compiled list of globs that remembers its source patterns.
#[derive(Clone, Debug)]
pub struct PathSet {
    patterns: Vec<String>,
    set: GlobSet,
}

/// A glob that does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid glob '{pattern}': {reason}")]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// globset's explanation.
    pub reason: String,
}

impl PathSet {
    /// Compile `patterns`. A leading `./` or `/` is dropped (both mean the repository root).
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, GlobError> {
        let mut builder = GlobSetBuilder::new();
        let mut kept = Vec::with_capacity(patterns.len());
        for raw in patterns {
            let raw = raw.as_ref();
            let pattern =
                raw.trim_start_matches("./").trim_start_matches('/').trim_end_matches('/');
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
            kept.push(raw.to_owned());
        }
        let set = builder
            .build()
            .map_err(|e| GlobError { pattern: kept.join(", "), reason: e.to_string() })?;
        Ok(Self { patterns: kept, set })
    }

    /// An empty set, which matches nothing.
    #[must_use]
    pub fn empty() -> Self {
        Self { patterns: Vec::new(), set: GlobSet::empty() }
    }

    /// Whether `path` (repo-relative, `/`-separated) matches any pattern.
    #[must_use]
    pub fn is_match(&self, path: &str) -> bool {
        self.set.is_match(path)
    }

    /// The first source pattern that matches `path`, for messages.
    #[must_use]
    pub fn matching_pattern(&self, path: &str) -> Option<&str> {
        // Each source pattern compiled to two globs, in order.
        self.set.matches(path).first().map(|&i| self.patterns[i / 2].as_str())
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
}
