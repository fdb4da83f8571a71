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

use super::alias::{fold_component, is_short_name_of, may_be_alias};
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
    /// For a set of paths to keep out ([`PathSet::excluding`]): the patterns as a
    /// case-insensitive file system reads them.
    aliases: Option<Box<Aliases>>,
}

/// A set's patterns matched against every spelling a file system takes for a path
/// ([`super::alias`]).
#[derive(Clone, Debug)]
struct Aliases {
    /// Each literal pattern, folded -> its first index in `patterns`.
    literals: HashMap<String, usize>,
    /// The glob patterns, case-insensitive, two globs each as in the set itself.
    globs: GlobSet,
    /// Every literal component of the patterns, folded: the long names a short name
    /// (`GITHUB~1`) may stand for.
    names: Vec<String>,
}

/// Spellings of one path tried at most, past which the path is taken as matching: only a path
/// built to multiply short names gets there.
const MAX_SPELLINGS: usize = 256;

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
    /// Compile `patterns` as paths to keep out: a path matches when any spelling a file system
    /// takes for it does (`.GITHUB/x`, `.github./x`, `GITHUB~1/x` match `.github/**`), since on
    /// the machine that checks it out it is the same file.
    pub fn excluding<S: AsRef<str>>(patterns: &[S]) -> Result<Self, GlobError> {
        let mut set = Self::new(patterns)?;
        let mut aliases =
            Aliases { literals: HashMap::new(), globs: GlobSet::empty(), names: Vec::new() };
        let mut builder = GlobSetBuilder::new();
        for (index, raw) in patterns.iter().enumerate() {
            let pattern = normalise(raw.as_ref());
            for component in pattern.split('/').filter(|c| !is_glob(c) && !c.is_empty()) {
                let folded = fold_component(component).into_owned();
                if !aliases.names.contains(&folded) {
                    aliases.names.push(folded);
                }
            }
            if is_glob(pattern) {
                for variant in variants(pattern) {
                    builder.add(compile(&variant, true).map_err(|e| glob_error(raw.as_ref(), &e))?);
                }
            } else {
                aliases.literals.entry(fold_path(pattern)).or_insert(index);
            }
        }
        aliases.globs = builder.build().map_err(|e| set.build_error(&e))?;
        set.aliases = Some(Box::new(aliases));
        Ok(set)
    }

    /// Compile `patterns`. A leading `./` or `/` is dropped (both mean the repository root).
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, GlobError> {
        let mut builder = GlobSetBuilder::new();
        let mut set = Self {
            patterns: Vec::with_capacity(patterns.len()),
            literals: HashMap::new(),
            globs: GlobSet::empty(),
            glob_sources: Vec::new(),
            aliases: None,
        };
        for (index, raw) in patterns.iter().enumerate() {
            let raw = raw.as_ref();
            let pattern = normalise(raw);
            set.patterns.push(raw.to_owned());
            if !is_glob(pattern) {
                set.literals.entry(pattern.to_owned()).or_insert(index);
                continue;
            }
            for variant in variants(pattern) {
                builder.add(compile(&variant, false).map_err(|e| glob_error(raw, &e))?);
            }
            set.glob_sources.push(index);
        }
        set.globs = builder.build().map_err(|e| set.build_error(&e))?;
        Ok(set)
    }

    /// The glob set as a whole did not build: every glob pattern is named.
    fn build_error(&self, e: &globset::Error) -> GlobError {
        let patterns: Vec<&str> =
            self.glob_sources.iter().map(|&i| self.patterns[i].as_str()).collect();
        GlobError { pattern: patterns.join(", "), reason: e.to_string() }
    }

    /// An empty set, which matches nothing.
    #[must_use]
    pub fn empty() -> Self {
        Self {
            patterns: Vec::new(),
            literals: HashMap::new(),
            globs: GlobSet::empty(),
            glob_sources: Vec::new(),
            aliases: None,
        }
    }

    /// Whether `path` (repo-relative, `/`-separated) matches any pattern (for a set made by
    /// [`PathSet::excluding`], under any spelling).
    #[must_use]
    pub fn is_match(&self, path: &str) -> bool {
        if self.aliases.is_some() {
            return self.matching_pattern(path).is_some();
        }
        literal_match(&self.literals, path).is_some() || self.globs.is_match(path)
    }

    /// The first source pattern that matches `path` (for a set made by [`PathSet::excluding`],
    /// under any spelling), for messages.
    #[must_use]
    pub fn matching_pattern(&self, path: &str) -> Option<&str> {
        let exact = first_match(&self.literals, &self.globs, &self.glob_sources, path);
        let first = match (exact, &self.aliases) {
            (Some(index), _) => index,
            (None, Some(aliases)) if path.split('/').any(may_be_alias) => {
                aliases.first_match(path, &self.glob_sources)?
            }
            (None, _) => return None,
        };
        Some(self.patterns[first].as_str())
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

impl Aliases {
    /// The index of the first pattern some spelling of `path` matches.
    fn first_match(&self, path: &str, glob_sources: &[usize]) -> Option<usize> {
        let spellings = self.spellings(path);
        let Some(spellings) = spellings else {
            // Too many ways to read it: keep it out, under the first pattern.
            return Some(0);
        };
        spellings
            .iter()
            .filter_map(|p| first_match(&self.literals, &self.globs, glob_sources, p))
            .min()
    }

    /// `path` folded, with each short-name component (`GITHUB~1`) also read as every pattern
    /// component it can stand for; `None` past [`MAX_SPELLINGS`].
    fn spellings(&self, path: &str) -> Option<Vec<String>> {
        let mut out = vec![String::new()];
        for component in path.split('/') {
            let folded = fold_component(component);
            let mut choices = vec![folded.as_ref()];
            if folded.contains('~') {
                let long = self.names.iter().filter(|n| is_short_name_of(&folded, n));
                choices.extend(long.map(String::as_str));
            }
            if out.len() * choices.len() > MAX_SPELLINGS {
                return None;
            }
            out = out.iter().flat_map(|head| choices.iter().map(move |c| join(head, c))).collect();
        }
        Some(out)
    }
}

fn join(head: &str, component: &str) -> String {
    if head.is_empty() { component.to_owned() } else { format!("{head}/{component}") }
}

/// `path` with every component folded ([`fold_component`]).
fn fold_path(path: &str) -> String {
    path.split('/').map(fold_component).collect::<Vec<_>>().join("/")
}

/// A pattern without the leading `./` or `/` and trailing `/` that mean nothing to it.
fn normalise(raw: &str) -> &str {
    raw.trim_start_matches("./").trim_start_matches('/').trim_end_matches('/')
}

/// The two globs a pattern stands for: itself, and everything below it.
fn variants(pattern: &str) -> [String; 2] {
    [pattern.to_owned(), format!("{pattern}/**")]
}

fn compile(glob: &str, is_case_insensitive: bool) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(is_case_insensitive)
        .build()
}

fn glob_error(raw: &str, e: &globset::Error) -> GlobError {
    GlobError { pattern: raw.to_owned(), reason: e.kind().to_string() }
}

/// The index of the first pattern (literal or glob) that matches `path`.
fn first_match(
    literals: &HashMap<String, usize>,
    globs: &GlobSet,
    glob_sources: &[usize],
    path: &str,
) -> Option<usize> {
    // Each glob pattern compiled to two globs, in order.
    let glob = globs.matches(path).first().map(|&i| glob_sources[i / 2]);
    match (literal_match(literals, path), glob) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The index of the first literal pattern naming `path` or a directory above it.
fn literal_match(literals: &HashMap<String, usize>, path: &str) -> Option<usize> {
    if literals.is_empty() {
        return None;
    }
    let above = path.match_indices('/').map(|(at, _)| &path[..at]);
    std::iter::once(path).chain(above).filter_map(|p| literals.get(p).copied()).min()
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
    fn an_excluding_set_matches_every_spelling_of_a_path() {
        let set = PathSet::excluding(&[".github/**", "Cargo.lock", "**/*.pem", "secrets"]).unwrap();
        for path in [
            ".github/workflows/ci.yml",
            ".GITHUB/workflows/ci.yml",
            ".GitHub/Workflows/CI.yml",
            ".github./workflows/ci.yml",
            ".github /workflows/ci.yml",
            ".github::$INDEX_ALLOCATION/workflows/ci.yml",
            ".git\u{200c}hub/workflows/ci.yml",
            "GITHUB~1/workflows/ci.yml",
            "github~2/x",
            "CARGO.LOCK",
            "Cargo.lock.",
            "CARGO~1.LOC",
            "keys/ID.PEM",
            "keys/SERVER~1.PEM",
            "Secrets/token",
            "SECRET~1/token",
        ] {
            assert!(set.is_match(path), "{path}");
        }
        assert_eq!(set.matching_pattern("GITHUB~1/ci.yml"), Some(".github/**"));
        assert_eq!(set.matching_pattern("x/Y.PEM"), Some("**/*.pem"));
        for path in
            ["github/x", ".githubx/y", "src/Cargo.lock", "GITHUB~1X/y", "src/a.rs", "README.md"]
        {
            assert!(!set.is_match(path), "{path}");
        }
        let plain = PathSet::new(&[".github/**"]).unwrap();
        assert!(!plain.is_match(".GITHUB/x"), "an allow list keeps its exact spelling");
    }

    #[test]
    fn an_excluding_set_answers_as_the_plain_set_for_plain_paths() {
        let patterns = ["docs", "src/**/*.rs", "*.md", "dir/{a,b}.txt", "Mixed/Case.txt"];
        let plain = PathSet::new(&patterns).unwrap();
        let excluding = PathSet::excluding(&patterns).unwrap();
        for path in ["docs/a.md", "src/x/y.rs", "README.md", "dir/a.txt", "Mixed/Case.txt", "z"] {
            assert_eq!(plain.matching_pattern(path), excluding.matching_pattern(path), "{path}");
        }
        assert_eq!(excluding.matching_pattern("MIXED/case.TXT"), Some("Mixed/Case.txt"));
    }

    #[test]
    fn a_path_of_many_short_names_is_kept_out_rather_than_expanded() {
        let patterns: Vec<String> = (0..20).map(|i| format!("aaaaaa{i}/x")).collect();
        let set = PathSet::excluding(&patterns).unwrap();
        assert!(set.is_match("AAAAAA~1/x"));
        let many = ["AAAAAA~1"; 8].join("/");
        assert!(set.is_match(&many), "20^8 readings are not tried one by one");
    }

    #[test]
    fn a_lone_closing_brace_is_still_an_invalid_glob() {
        assert!(PathSet::new(&["a}b"]).is_err());
        assert!(!is_glob("src/a,b.rs"));
        assert!(is_glob("src/*.rs"));
    }
}
