//! One stored rejection and what a person later did about it.

use super::id;
use crate::patch::{ParseOptions, parse};
use crate::path::display_bytes;
use crate::rule::{Report, RuleId, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::OnceLock;
use std::time::SystemTime;

/// The version of the entry format; bumped when a field changes meaning.
pub const STORE_FORMAT: u32 = 1;

/// What `validate` hands to the store after a rejection.
#[derive(Clone, Debug, PartialEq)]
pub struct NewEntry {
    /// The step, as parsed JSON.
    pub step: Value,
    /// The executor's result exactly as received (it may not even be JSON).
    pub result: String,
    /// The full report; its verdict is the rejection.
    pub report: Report,
    /// The commit the result was validated against, when there was one.
    pub base: Option<String>,
    /// How it was judged: the `validate::Run`, as JSON.
    pub run: Option<Value>,
}

/// A stored rejection. Unknown fields are ignored on reading, so an older patchgate can still
/// list entries a newer one wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// [`STORE_FORMAT`] at the time of writing.
    pub format: u32,
    /// The full SHA-256 id (64 hex digits).
    pub id: String,
    /// When `validate` rejected the result (RFC 3339, UTC).
    #[serde(with = "super::time::rfc3339")]
    pub time: SystemTime,
    /// The patchgate version that rejected it.
    pub patchgate_version: String,
    /// The commit the result was validated against.
    pub base: Option<String>,
    /// The orchestrator's step.
    pub step: Value,
    /// The executor's result, raw.
    pub result: String,
    /// The verdict `validate` printed.
    pub verdict: Verdict,
    /// Every violation and note.
    pub report: Report,
    /// How it was judged (a `validate::Run`: strip, repair, judge, ...), so `review apply`
    /// judges it the same way; absent in entries older than the field (judged by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<Value>,
    /// Each time a person applied the result over the rules' objection.
    #[serde(default)]
    pub overrides: Vec<Override>,
    /// `result` decoded, on first use: every accessor reads this one decoding.
    #[serde(skip)]
    decoded: Decoded,
}

/// The raw result decoded once, or why it has no usable value (not JSON, or a key named twice).
/// A cache, not content: two entries are equal whether or not either was decoded yet.
#[derive(Clone, Debug, Default)]
struct Decoded(OnceLock<Result<Value, &'static str>>);

impl PartialEq for Decoded {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A person's decision to apply a rejected result anyway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Override {
    /// `Name <email>` from git's `user.name` / `user.email`, when set.
    pub who: Option<String>,
    /// When it was applied.
    #[serde(with = "super::time::rfc3339")]
    pub time: SystemTime,
    /// The rules the person named with `--override`.
    pub rules: Vec<RuleId>,
    /// The violations that remained on re-validation and were overridden.
    pub overridden: Vec<String>,
    /// The commit (HEAD) the result was re-validated against and applied on.
    pub head: Option<String>,
    /// Whether the index was updated too.
    pub index: bool,
}

impl Override {
    /// The override a person makes now in `repository` (their identity from git's
    /// `user.name` / `user.email`), naming `rules`, over the violations in `overridden`.
    #[must_use]
    pub fn now(
        repository: &git2::Repository,
        rules: Vec<RuleId>,
        overridden: Vec<String>,
        index: bool,
    ) -> Self {
        let head = repository.head().ok().and_then(|h| h.target()).map(|id| id.to_string());
        Self {
            who: git_identity(repository),
            time: SystemTime::now(),
            rules,
            overridden,
            head,
            index,
        }
    }
}

/// `Name <email>` from the repository's git config, or what part of it is set.
fn git_identity(repository: &git2::Repository) -> Option<String> {
    let config = repository.config().ok()?;
    let name = config.get_string("user.name").ok().filter(|n| !n.trim().is_empty());
    let email = config.get_string("user.email").ok().filter(|e| !e.trim().is_empty());
    match (name, email) {
        (Some(name), Some(email)) => Some(format!("{name} <{email}>")),
        (Some(name), None) => Some(name),
        (None, Some(email)) => Some(format!("<{email}>")),
        (None, None) => None,
    }
}

impl Entry {
    /// Make the entry for a new rejection at `time`; the id hashes everything else.
    #[must_use]
    pub fn new(new: NewEntry, time: SystemTime) -> Self {
        let mut entry = Self {
            format: STORE_FORMAT,
            id: String::new(),
            time,
            patchgate_version: env!("CARGO_PKG_VERSION").to_owned(),
            base: new.base,
            step: new.step,
            result: new.result,
            verdict: new.report.verdict.clone(),
            report: new.report,
            run: new.run,
            overrides: Vec::new(),
            decoded: Decoded::default(),
        };
        let content = serde_json::to_vec(&entry).expect("entries serialize: string keys only");
        entry.id = id::content_id(&content);
        entry
    }

    /// The step's `id`, when it has one.
    #[must_use]
    pub fn step_id(&self) -> Option<&str> {
        self.step.get("id").and_then(Value::as_str)
    }

    /// The step's `description`.
    #[must_use]
    pub fn step_description(&self) -> Option<&str> {
        self.step.get("description").and_then(Value::as_str)
    }

    /// Decode a stored entry. An entry that names a key twice is refused, like every JSON
    /// input (readers disagree on which of the two counts).
    pub fn from_json(bytes: &[u8]) -> Result<Self, String> {
        let decoded = crate::json::decode(bytes);
        if let Some(key) = decoded.duplicate {
            return Err(format!("not an entry: it names '{key}' twice"));
        }
        decoded.value.and_then(serde_json::from_value).map_err(|e| format!("not an entry: {e}"))
    }

    /// The result parsed as JSON, when it is JSON that names no key twice (decoded on the first
    /// call only). A result naming a key twice was rejected by `schema` before any rule read a
    /// patch, so neither of its patches is shown, exported or applied as the one judged.
    #[must_use]
    pub fn result_json(&self) -> Option<&Value> {
        self.read_result().ok()
    }

    fn read_result(&self) -> Result<&Value, &'static str> {
        let decoded = self.decoded.0.get_or_init(|| {
            let decoded = crate::json::decode(self.result.as_bytes());
            if decoded.duplicate.is_some() {
                return Err("names a key twice (no patch in it is the one judged)");
            }
            decoded.value.map_err(|_| "is not JSON")
        });
        decoded.as_ref().map_err(|why| *why)
    }

    /// The result's `patch` text, when the result is JSON with a string `patch`.
    #[must_use]
    pub fn patch(&self) -> Option<&str> {
        self.result_json()?.get("patch").and_then(Value::as_str)
    }

    /// The result's non-empty `patch` text, or why there is none (`is not JSON`, ...).
    pub fn patch_or_why(&self) -> Result<&str, &'static str> {
        let patch = self.read_result()?.get("patch").and_then(Value::as_str);
        patch.filter(|p| !p.is_empty()).ok_or("has no patch")
    }

    /// The distinct rules that rejected the result, in report order.
    #[must_use]
    pub fn rules(&self) -> Vec<RuleId> {
        let mut rules: Vec<RuleId> = Vec::new();
        for v in &self.report.violations {
            if !rules.contains(&v.rule) {
                rules.push(v.rule);
            }
        }
        rules
    }

    /// The files the result concerns: the patch's file headers as far as they parse, else the
    /// result's `filesWritten`, else the files the violations name.
    #[must_use]
    pub fn files(&self) -> Vec<String> {
        let from_patch = self.patch().map(patch_files).unwrap_or_default();
        if !from_patch.is_empty() {
            return from_patch;
        }
        let written = self.result_json().and_then(|r| r.get("filesWritten"));
        let from_result: Vec<String> =
            written.and_then(|w| Vec::<String>::deserialize(w).ok()).unwrap_or_default();
        if !from_result.is_empty() {
            return from_result;
        }
        let mut files: Vec<String> = Vec::new();
        for f in self.report.violations.iter().filter_map(|v| v.file.clone()) {
            if !files.contains(&f) {
                files.push(f);
            }
        }
        files
    }
}

/// The paths a patch's file entries name, as far as the patch parses.
fn patch_files(patch: &str) -> Vec<String> {
    let options = ParseOptions { is_strict: false, ..ParseOptions::default() };
    let parsed = parse(patch.as_bytes(), &options);
    let mut files: Vec<String> = Vec::new();
    for file in &parsed.patch.files {
        for path in file.paths() {
            let shown = display_bytes(path);
            if !files.contains(&shown) {
                files.push(shown);
            }
        }
    }
    files
}
