//! Declarations: which files the current piece of work may change.
//!
//! `patchgate declare` records patterns (paths or globs, repo-relative) in the repository's git
//! directory, per worktree (`<gitdir>/patchgate/declaration.json`); the pre-commit and
//! pre-applypatch hooks block staged changes outside them. On the server side the same patterns
//! travel in the commit message as `Patchgate-Declared:` trailer lines ([`trailer_lines`],
//! [`from_message`]).
//!
//! Every pattern passes [`check_pattern`]: the path-safety checks of [`crate::path::check`] on
//! its literal parts, and it must compile as a glob.
//!
//! ```
//! use patchgate::declare::check_pattern;
//! assert_eq!(check_pattern("./src/**/*.rs").unwrap(), "src/**/*.rs");
//! assert!(check_pattern("../outside/*").is_err());
//! ```

mod store;
#[cfg(test)]
mod tests;

pub use store::{Store, StoreError};

use crate::config::{LimitExceeded, Limits};
use crate::finding::{PathErrorCode, code_union, codes};
use crate::path::{PathSet, check};
use serde::{Deserialize, Serialize};

/// The trailer key that carries a declaration in a commit message.
pub const TRAILER_KEY: &str = "Patchgate-Declared";

/// The active declaration: patterns in the order they were first declared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declaration {
    /// Format version of the stored file.
    pub version: u32,
    /// The declared patterns.
    pub entries: Vec<Entry>,
}

/// One declared pattern and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A repo-relative path or glob (`src/a.rs`, `src/**/*.rs`).
    pub pattern: String,
    /// `argument`, `result:FILE`, `step:FILE` or `trailer`.
    pub source: String,
}

codes! {
    /// Why a declared pattern is refused, beyond the path checks of its literal parts.
    PatternRefusal {
        /// The pattern does not compile as a glob.
        InvalidGlob => "invalid_glob",
        /// `.` or empty components: write it as a plain repository-relative pattern.
        NonCanonical => "non_canonical",
        /// White space at the start or end, which a commit trailer would drop.
        SurroundingWhitespace => "surrounding_whitespace",
        /// Over a `[limits]` setting.
        LimitExceeded => "limit_exceeded",
        /// A backslash before something other than a glob character.
        InvalidEscape => "invalid_escape",
    }
}

code_union! {
    /// Why a pattern cannot be declared: a path check's code, or a [`PatternRefusal`].
    PatternCode {
        /// A path check of the pattern's literal parts (`path_traversal`, `git_dir`, ...).
        Path(PathErrorCode),
        /// The pattern itself.
        Pattern(PatternRefusal),
    }
    "Why a pattern cannot be declared: a path check's code or the pattern's own refusal."
}

/// A pattern that cannot be declared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot declare '{pattern}': {reason}")]
#[non_exhaustive]
pub struct PatternError {
    /// The pattern as given.
    pub pattern: String,
    /// Stable code: a path-safety code (`path_traversal`, ...) or the pattern's own
    /// (`invalid_glob`, ...).
    pub code: PatternCode,
    /// Why, in one lowercase line.
    pub reason: String,
}

impl Declaration {
    /// The current format version.
    pub const VERSION: u32 = 1;

    /// Decode a declaration file. One that names a key twice is refused, like every JSON input.
    pub fn from_json(bytes: &[u8]) -> Result<Self, String> {
        let decoded = crate::json::decode(bytes);
        if let Some(key) = decoded.duplicate {
            return Err(format!("it names '{key}' twice"));
        }
        decoded.value.and_then(serde_json::from_value).map_err(|e| e.to_string())
    }

    /// Add `patterns` (already checked) from `source`, skipping ones already declared.
    /// Returns how many were new.
    pub fn add(&mut self, patterns: &[String], source: &str) -> usize {
        let before = self.entries.len();
        for pattern in patterns {
            if !self.entries.iter().any(|e| &e.pattern == pattern) {
                self.entries.push(Entry { pattern: pattern.clone(), source: source.to_owned() });
            }
        }
        self.entries.len() - before
    }

    /// The declared patterns.
    #[must_use]
    pub fn patterns(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.pattern.as_str()).collect()
    }

    /// The patterns compiled for matching, once they are within `limits` (a planted declaration
    /// of huge globs would otherwise stall every later commit in glob compilation).
    pub fn path_set(&self, limits: &Limits) -> Result<PathSet, PatternError> {
        let patterns = self.patterns();
        limits
            .check_patterns(&patterns, "the declaration")
            .map_err(|e| limit_error(&e, &patterns))?;
        PathSet::new(&patterns).map_err(|e| PatternError {
            pattern: e.pattern,
            code: PatternRefusal::InvalidGlob.into(),
            reason: e.reason,
        })
    }

    /// Whether nothing is declared.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Glob metacharacters; replaced by a plain letter before the path-safety check so that only
/// the literal parts are judged (`src/**/*.rs` is checked as `src/xx/x.rs`).
const GLOB_CHARS: &[char] = &['*', '?', '[', ']', '{', '}', '!'];

/// The characters [`literal`] escapes: those with a meaning in a glob.
const GLOB_SYNTAX: &[char] = &['*', '?', '[', ']', '{', '}'];

/// A path as a pattern that matches exactly that path: every glob character escaped with a
/// backslash. A path an agent reports (`filesWritten`) is a file name, never a glob: a file
/// literally named `**` must not declare every file, and `app/[slug]/page.tsx` must declare
/// that file, not `app/s/page.tsx`.
///
/// ```
/// use patchgate::declare::{check_pattern, literal};
/// assert_eq!(literal("app/[slug]/page.tsx"), r"app/\[slug\]/page.tsx");
/// assert_eq!(check_pattern(&literal("**")).unwrap(), r"\*\*");
/// ```
#[must_use]
pub fn literal(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if GLOB_SYNTAX.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Check one pattern and return its normalised form (no leading `./`, no trailing `/`). A
/// backslash escapes the glob character after it (see [`literal`]), and only a glob character.
pub fn check_pattern(pattern: &str) -> Result<String, PatternError> {
    let refuse = |code: PatternCode, reason: String| PatternError {
        pattern: pattern.to_owned(),
        code,
        reason,
    };
    let escape = || {
        refuse(
            PatternRefusal::InvalidEscape.into(),
            "a backslash may only escape a glob character (*, ?, [, ], {, }); use '/' as the \
             separator"
                .into(),
        )
    };
    let literal = literal_parts(pattern).ok_or_else(escape)?;
    let checked = check(&literal).map_err(|e| refuse(e.code.into(), e.message))?;
    // Normalisation drops only `./`, empty components and a trailing `/`, none of which hold
    // a glob character, so the normalised pattern's literal parts read as the checked path.
    let normalised = normalise(pattern);
    if literal_parts(&normalised).as_deref() != Some(checked.as_str()) {
        return Err(refuse(
            PatternRefusal::NonCanonical.into(),
            "write it as a plain repo-relative pattern without '.' or empty components".into(),
        ));
    }
    // A commit trailer's value is trimmed when it is read (git does too), so a pattern that
    // starts or ends with white space would not come back as written.
    if normalised.trim() != normalised {
        return Err(refuse(
            PatternRefusal::SurroundingWhitespace.into(),
            "remove the white space at its start or end (a commit trailer would drop it)".into(),
        ));
    }
    PathSet::new(&[normalised.as_str()])
        .map_err(|e| refuse(PatternRefusal::InvalidGlob.into(), e.reason))?;
    Ok(normalised)
}

/// The pattern with every glob character replaced by a plain letter and every escaped one by
/// itself: the literal parts, as the path-safety check judges them. `None` for a backslash
/// that escapes anything else.
fn literal_parts(pattern: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().filter(|e| GLOB_SYNTAX.contains(e))?),
            c if GLOB_CHARS.contains(&c) => out.push('x'),
            c => out.push(c),
        }
    }
    Some(out)
}

fn normalise(pattern: &str) -> String {
    pattern.split('/').filter(|c| !c.is_empty() && *c != ".").collect::<Vec<_>>().join("/")
}

/// Check every pattern, after the list's length and size against `limits`; the first bad one
/// is the error.
pub fn check_patterns<S: AsRef<str>>(
    patterns: &[S],
    limits: &Limits,
) -> Result<Vec<String>, PatternError> {
    limits.check_patterns(patterns, "the declaration").map_err(|e| limit_error(&e, patterns))?;
    patterns.iter().map(|p| check_pattern(p.as_ref())).collect()
}

/// The refusal, naming the over-long pattern (shortened) or the number of patterns.
fn limit_error<S: AsRef<str>>(e: &LimitExceeded, patterns: &[S]) -> PatternError {
    let long = patterns.iter().map(AsRef::as_ref).find(|p| p.len() > e.limit);
    let pattern = match long {
        Some(p) if e.setting == "pattern_bytes" => {
            format!("{}...", p.chars().take(40).collect::<String>())
        }
        _ => format!("{} patterns", patterns.len()),
    };
    PatternError { pattern, code: PatternRefusal::LimitExceeded.into(), reason: e.to_string() }
}

/// The `Patchgate-Declared: <pattern>` trailer lines for `declaration`, one per pattern.
#[must_use]
pub fn trailer_lines(declaration: &Declaration) -> Vec<String> {
    declaration.entries.iter().map(|e| format!("{TRAILER_KEY}: {}", e.pattern)).collect()
}

/// The `Patchgate-Declared` trailer values of a commit message (key matched case-insensitively,
/// as git does), unchecked. `None` when the message carries no such trailer.
#[must_use]
pub fn from_message(message: &str) -> Option<Vec<String>> {
    let trailers = git2::message_trailers_strs(message).ok()?;
    let values: Vec<String> = trailers
        .iter()
        .filter(|(key, _)| key.trim().eq_ignore_ascii_case(TRAILER_KEY))
        .map(|(_, value)| value.trim().to_owned())
        .collect();
    (!values.is_empty()).then_some(values)
}
