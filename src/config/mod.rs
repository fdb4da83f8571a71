//! `.patchgate.toml`: the repository's standing policy.
//!
//! The file is read once; each area deserialises its own table with [`Config::section`], so a
//! module owns its settings and their defaults. Unknown top-level tables and unknown keys are
//! errors: a typo in a policy file must not silently weaken the policy.
//!
//! ```toml
//! excluded = [".github/**", "Cargo.lock", "**/*.pem"]
//!
//! [rules]
//! fix_regression_max_files = 5
//! ```

mod limits;

pub use limits::{LimitExceeded, Limits, check as check_limit};

use crate::path::{GlobError, PathSet};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The file name, at the repository root.
pub const FILE_NAME: &str = ".patchgate.toml";

/// Top-level tables and keys patchgate knows. Each area adds its table here.
const KNOWN_KEYS: &[&str] =
    &["excluded", "rules", "scratch", "hook", "guard", "contract", "review", "limits", "judge"];

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
    /// Read `<root>/.patchgate.toml`; a missing file gives the default (empty) policy.
    pub fn load(root: &Path) -> Result<Self, ConfigError> {
        let path = root.join(FILE_NAME);
        match read_policy_file(&path) {
            Ok(text) => Self::from_toml(&text, &path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Read { path, source }),
        }
    }

    /// Parse policy text; `path` is only used in messages.
    pub fn from_toml(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let invalid = |message: String| invalid_error(path.to_owned(), message);
        let table: toml::Table =
            text.parse().map_err(|e: toml::de::Error| invalid(e.to_string()))?;
        if let Some(unknown) = table.keys().find(|k| !KNOWN_KEYS.contains(&k.as_str())) {
            return Err(invalid(format!(
                "unknown key '{unknown}' (known: {})",
                KNOWN_KEYS.join(", ")
            )));
        }
        let excluded = match table.get("excluded") {
            Some(value) => value
                .clone()
                .try_into()
                .map_err(|e: toml::de::Error| invalid(format!("'excluded': {e}")))?,
            None => Vec::new(),
        };
        let mut config = Self { source: Some(path.to_owned()), excluded, table, ..Self::default() };
        // A bad `[limits]` table or an over-long `excluded` list is refused on load, so every
        // entry point (validate, hook, guard, declare) gets the same answer.
        config.limits = config.section("limits")?;
        config
            .limits
            .check_patterns(&config.excluded, "'excluded'")
            .map_err(|e| invalid(e.to_string()))?;
        Ok(config)
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

    /// A [`ConfigError::Invalid`] about this policy file.
    #[must_use]
    pub fn invalid(&self, message: String) -> ConfigError {
        invalid_error(self.source.clone().unwrap_or_else(|| PathBuf::from(FILE_NAME)), message)
    }

    /// Deserialise the table `name` into `T`, or `T::default()` when it is absent.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T, ConfigError> {
        let Some(value) = self.table.get(name) else {
            return Ok(T::default());
        };
        value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| self.invalid(format!("[{name}]: {e}")))
    }
}

/// The TOML reader quotes the offending line and value: each quoted line is cut to this many
/// characters, so a policy with a megabyte-long line gives a readable error, not a megabyte.
const MAX_MESSAGE_LINE: usize = 200;

fn invalid_error(path: PathBuf, message: String) -> ConfigError {
    if !message.lines().any(|l| l.chars().nth(MAX_MESSAGE_LINE).is_some()) {
        return ConfigError::Invalid { path, message };
    }
    let cut = |line: &str| match line.char_indices().nth(MAX_MESSAGE_LINE) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_owned(),
    };
    let message = message.lines().map(cut).collect::<Vec<_>>().join("\n");
    ConfigError::Invalid { path, message }
}

/// The largest policy file read.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// Read a policy file that must be a regular file: opened without blocking, so a FIFO or a
/// device planted under the name is refused instead of hanging every later run.
fn read_policy_file(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits().cast_signed();
    let file = std::fs::OpenOptions::new().read(true).custom_flags(nonblocking).open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, device or directory); it must be a TOML file",
        ));
    }
    if meta.len() > MAX_POLICY_BYTES {
        return Err(std::io::Error::other("larger than 1 MiB; a policy is a short TOML file"));
    }
    let mut text = String::new();
    file.take(MAX_POLICY_BYTES).read_to_string(&mut text)?;
    Ok(text)
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
        assert!(err.to_string().contains("unknown key 'exclude'"), "{err}");
        let cfg = Config::from_toml("[rules]\nlimt = 3\n", Path::new("x.toml")).unwrap();
        assert!(cfg.section::<Demo>("rules").is_err());
    }

    #[test]
    fn missing_file_is_default_policy() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = Config::load(dir.path()).unwrap();
        assert!(cfg.source.is_none() && cfg.excluded.is_empty());
    }
}
