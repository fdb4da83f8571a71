//! `.patchgate.toml`: the repository's standing policy.
//!
//! The file is read once; each area deserialises its own table with [`Config::section`], so a
//! module owns its settings and their defaults. Unknown top-level tables and unknown keys are
//! errors: a typo in a policy file must not silently weaken the policy.
//!
//! Where it is read from is part of the contract (the policy in force is never one the judged
//! change can write): `validate` and `apply` read it from the base tree ([`Config::at_rev`]),
//! the commit hook from `HEAD`'s tree, the server from its own file or the range's base; only
//! the guard and `hook install` read the worktree's ([`Config::load`]). Every reader refuses a
//! link, a non-file and a file over 1 MiB, and no message quotes the file (see `read.rs`).
//!
//! ```toml
//! excluded = [".github/**", "Cargo.lock", "**/*.pem"]
//!
//! [rules]
//! fix_regression_max_files = 5
//! ```

mod limits;
mod read;

pub use limits::{LimitExceeded, Limits, check as check_limit};

use crate::path::{GlobError, PathSet};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The file name, at the repository root.
pub const FILE_NAME: &str = ".patchgate.toml";

/// Top-level tables and keys patchgate knows. Each area adds its table here.
const KNOWN_KEYS: &[&str] = &[
    "excluded", "rules", "scratch", "hook", "guard", "contract", "review", "limits", "judge",
    "server",
];

/// The loaded policy.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Where it was read from; `None` when the repository has no policy file.
    pub source: Option<PathBuf>,
    /// Globs no step, commit or agent may touch, on top of a step's own `excludedPaths`.
    pub excluded: Vec<String>,
    table: toml::Table,
    /// The `[limits]` table, read (and refused when bad) on load.
    limits: Limits,
    /// `excluded`, compiled on first use and then reused by every caller.
    excluded_globs: OnceLock<Result<PathSet, GlobError>>,
}

/// A policy file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or a table has the wrong shape.
    #[error("invalid {}: {message}; fix the file or remove it", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, from the TOML reader.
        message: String,
    },
}

impl Config {
    /// Read `<root>/.patchgate.toml` from the worktree; a missing file gives the default
    /// (empty) policy, and a link, a FIFO, a directory or a file over 1 MiB is an error.
    pub fn load(root: &Path) -> Result<Self, ConfigError> {
        let path = root.join(FILE_NAME);
        match read::read_policy_file(&path) {
            Ok(text) => Self::from_toml(&text, &path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Read { path, source }),
        }
    }

    /// Parse policy text; `path` is only used in messages, which never quote the text.
    pub fn from_toml(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let invalid = |message: String| ConfigError::Invalid { path: path.to_owned(), message };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map(|span| format!("{}: ", read::position(text, span.start)));
            invalid(format!("{}{}", at.unwrap_or_default(), read::redact(e.message())))
        })?;
        if let Some(unknown) = table.keys().find(|k| !KNOWN_KEYS.contains(&k.as_str())) {
            let at = key_line(text, unknown).map(|line| format!(" at line {line}"));
            return Err(invalid(format!(
                "unknown top-level key{} (known: {})",
                at.unwrap_or_default(),
                KNOWN_KEYS.join(", ")
            )));
        }
        let excluded = match table.get("excluded") {
            Some(value) => value.clone().try_into().map_err(|e: toml::de::Error| {
                invalid(format!("'excluded': {}", read::redact(e.message())))
            })?,
            None => Vec::new(),
        };
        let mut config = Self { source: Some(path.to_owned()), excluded, table, ..Self::default() };
        // A bad `[limits]` table or an over-long `excluded` list is refused on load, so every
        // entry point (validate, hook, guard, declare) gets the same answer.
        config.limits = config.section("limits")?;
        config
            .limits
            .check_patterns(&config.excluded, "'excluded'")
            .map_err(|e| config.invalid(&e.to_string()))?;
        Ok(config)
    }

    /// The top-level keys and tables the file sets.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.table.keys().map(String::as_str)
    }

    /// The `[limits]` table, with defaults for what it leaves out.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// `excluded`, compiled once: the first call compiles, later calls (the validate pipeline,
    /// the hook, the guard) share the set or the glob that does not compile.
    pub fn excluded_globs(&self) -> Result<&PathSet, &GlobError> {
        self.excluded_globs.get_or_init(|| PathSet::excluding(&self.excluded)).as_ref()
    }

    /// A [`ConfigError::Invalid`] about this policy file; quoted parts of `message` that are
    /// not patchgate's own names are left out (they come from the file).
    #[must_use]
    pub fn invalid(&self, message: &str) -> ConfigError {
        let path = self.source.clone().unwrap_or_else(|| PathBuf::from(FILE_NAME));
        ConfigError::Invalid { path, message: read::redact(message) }
    }

    /// Deserialise the table `name` into `T`, or `T::default()` when it is absent.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T, ConfigError> {
        let Some(value) = self.table.get(name) else {
            return Ok(T::default());
        };
        value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| self.invalid(&format!("[{name}]: {}", e.message())))
    }
}

/// The line on which `key` is defined at the top level (`key =` or `[key]`), if it is found.
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let line = line.trim_start();
            let rest = line.strip_prefix('[').unwrap_or(line).trim_start_matches('[');
            rest.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with(['=', ']', '.']))
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    struct Demo {
        limit: u32,
    }

    #[test]
    fn reads_excluded_and_sections() {
        let cfg = Config::from_toml(
            "excluded = [\".github/**\"]\n[rules]\nlimit = 3\n",
            Path::new("x.toml"),
        )
        .unwrap();
        assert_eq!(cfg.excluded, [".github/**"]);
        assert_eq!(cfg.section::<Demo>("rules").unwrap(), Demo { limit: 3 });
        assert_eq!(cfg.section::<Demo>("hook").unwrap(), Demo::default());
    }

    #[test]
    fn unknown_keys_are_errors() {
        let err = Config::from_toml("exclude = []\n", Path::new("x.toml")).unwrap_err();
        assert!(err.to_string().contains("unknown top-level key at line 1"), "{err}");
        let cfg = Config::from_toml("[rules]\nlimt = 3\n", Path::new("x.toml")).unwrap();
        assert!(cfg.section::<Demo>("rules").is_err());
    }

    /// A credentials file, a shadow line and values of every kind: whatever the reader says
    /// about them names a position and patchgate's own names, never the text.
    #[test]
    fn no_message_quotes_the_policy() {
        let secrets = [
            "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG\n",
            "root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n",
            "excluded = \"AKIAIOSFODNN7EXAMPLE\"\n",
            "excluded = [\"src/[AKIAIOSFODNN7EXAMPLE\"]\n",
            "[rules]\nAKIAIOSFODNN7EXAMPLE = 1\n",
            "[hook]\nlimit = \"AKIAIOSFODNN7EXAMPLE\"\n",
            "[hook]\nlimit = [\"AKIAIOSFODNN7EXAMPLE\"]\n",
            "[hook]\nlimit = 'AKIAIOSFODNN7EXAMPLE\n",
            "AKIAIOSFODNN7EXAMPLE = 1\n",
            "excluded = [\"AKIAIOSFODNN7EXAMPLE\", \"AKIAIOSFODNN7EXAMPLE\"]\n[limits]\npatterns = 1\n",
        ];
        for text in secrets {
            let err = match Config::from_toml(text, Path::new("p.toml")) {
                Err(e) => e.to_string(),
                Ok(config) => {
                    let globs = config.excluded_globs().map(|_| ()).map_err(ToString::to_string);
                    let tables = ["rules", "hook"].map(|t| config.section::<Demo>(t).map(|_| ()));
                    match (globs, tables) {
                        (Err(e), _) => config.invalid(&format!("'excluded': {e}")).to_string(),
                        (_, [Err(e), _] | [_, Err(e)]) => e.to_string(),
                        _ => panic!("{text:?} was accepted"),
                    }
                }
            };
            for word in ["AKIA", "wJalr", "saltsalt", "hashhash", "root:"] {
                assert!(!err.contains(word), "{text:?} gave {err}");
            }
            assert!(err.contains("p.toml"), "{err}");
        }
        let err = Config::from_toml("[rules]\nlimt = 3\n", Path::new("p.toml"))
            .unwrap()
            .section::<Demo>("rules")
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected `limit`"), "the expected names stay: {err}");
        let err = Config::from_toml("x = [\n", Path::new("p.toml")).unwrap_err().to_string();
        assert!(err.contains("line 1, column"), "a position: {err}");
    }

    #[test]
    fn a_link_a_fifo_or_a_huge_file_is_an_error_never_no_policy() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("credentials");
        std::fs::write(&secret, "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n").unwrap();
        std::os::unix::fs::symlink(&secret, dir.path().join(FILE_NAME)).unwrap();
        let err = Config::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("symbolic link") && !err.contains("AKIA"), "{err}");
        std::fs::remove_file(dir.path().join(FILE_NAME)).unwrap();
        std::os::unix::fs::symlink("nowhere", dir.path().join(FILE_NAME)).unwrap();
        assert!(matches!(Config::load(dir.path()), Err(ConfigError::Read { .. })), "dangling");
        std::fs::remove_file(dir.path().join(FILE_NAME)).unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "#".repeat(2 << 20)).unwrap();
        assert!(matches!(Config::load(dir.path()), Err(ConfigError::Read { .. })), "huge");
    }

    #[test]
    fn missing_file_is_default_policy() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = Config::load(dir.path()).unwrap();
        assert!(cfg.source.is_none() && cfg.excluded.is_empty());
    }
}
