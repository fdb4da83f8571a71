//! Named whole-value patterns from `[contract]` (ticket ids, branch shapes): checked when the
//! policy is built, compiled on first use, so the argument-rejection types (and a guard process
//! that checks one path and exits) never pay for compiling them.

use super::ContractError;
use regex::Regex;
use std::sync::OnceLock;

/// `(name, pattern)` pairs, each matching a whole value.
#[derive(Clone, Debug)]
pub(super) struct Patterns {
    named: Vec<(String, String)>,
    compiled: OnceLock<Vec<Option<Regex>>>,
}

impl Patterns {
    /// Check every pattern's syntax; `key` names the `[contract]` key in errors.
    pub fn new(key: &str, named: Vec<(String, String)>) -> Result<Self, ContractError> {
        for (_, pattern) in &named {
            regex_syntax::Parser::new().parse(&anchored(pattern)).map_err(|e| {
                ContractError::InvalidPattern {
                    key: key.to_string(),
                    pattern: pattern.clone(),
                    message: e.to_string(),
                }
            })?;
        }
        Ok(Self::trusted(named))
    }

    /// Patterns known to be valid (the specification's own, checked by a unit test): parsing them
    /// again costs a quarter of a guard call that only checks one path.
    pub fn trusted(named: Vec<(String, String)>) -> Self {
        Self { named, compiled: OnceLock::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.named.is_empty()
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.named.iter().map(|(name, _)| name.as_str())
    }

    /// `(name, pattern as written)`, for messages.
    pub fn sources(&self) -> impl Iterator<Item = (&str, &str)> {
        self.named.iter().map(|(name, p)| (name.as_str(), p.as_str()))
    }

    /// The names whose pattern matches all of `value`. A pattern that passed the syntax check
    /// but does not compile (over the size limit) matches nothing: the value is refused.
    pub fn matching<'a>(&'a self, value: &'a str) -> impl Iterator<Item = &'a str> {
        let compiled = self.compiled.get_or_init(|| {
            self.named.iter().map(|(_, p)| Regex::new(&anchored(p)).ok()).collect()
        });
        self.names()
            .zip(compiled)
            .filter(move |(_, re)| re.as_ref().is_some_and(|re| re.is_match(value)))
            .map(|(name, _)| name)
    }
}

/// Anchored on both ends whatever the pattern says: a pattern is a whole-value shape.
fn anchored(pattern: &str) -> String {
    format!(r"\A(?:{pattern})\z")
}
