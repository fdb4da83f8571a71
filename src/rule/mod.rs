//! The eight execute-step rules of seed 002 (plus `schema`), over a parsed patch, the step and
//! the executor result. A rejection is data ([`Report`]), never an `Err`.
//!
//! Each rule lives in its own file and is a pure function of an [`Input`] and the
//! [`RulePolicy`]. [`schema::check`] turns the raw result bytes into an
//! [`ExecutorResult`](crate::step::ExecutorResult) (or `schema` violations); [`evaluate`] then
//! runs the other eight rules in [`RuleId::ALL`] order.
//!
//! ```
//! use patchgate::patch::{parse, ParseOptions};
//! use patchgate::rule::{self, Input, RuleId, RulePolicy, Scope};
//! use patchgate::step::Step;
//!
//! let raw = br#"{"mode": "apply", "success": true,
//!   "patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n",
//!   "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "s"}"#;
//! let result = rule::schema::check(raw).expect("fits the schema");
//! let step = Step { description: "Change old to new in a.txt".into(), ..Step::default() };
//! let scope = Scope::new(&step, &[]).expect("valid globs");
//! let text = result.patch.clone().unwrap_or_default();
//! let parsed = parse(text.as_bytes(), &ParseOptions::default());
//! let input = Input::new(&step, &result, Some(&parsed), None, &scope);
//! let found = rule::evaluate(&input, &RulePolicy::default());
//! assert!(found.violations.is_empty(), "{:?}", found.violations);
//! ```

mod declared;
mod input;
mod intent;
mod malformed;
mod mode;
mod noop;
mod not_implemented;
mod policy;
mod reversal;
pub mod schema;
mod scope;
mod superficial;
mod syntax;
mod testfile;
#[cfg(test)]
mod tests;
mod undeclared;
mod weakened;
mod zero_impact;

pub use input::{Input, PatchPath, Scope, patch_paths};
pub use intent::Base;
pub use policy::{RulePolicy, Strictness};

use serde::{Deserialize, Serialize};
use std::fmt;

/// What the rules found: violations reject; notes are findings too weak to reject under the
/// policy (see [`Strictness`]), reported for the reviewer and the agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// In [`RuleId::ALL`] order.
    pub violations: Vec<Violation>,
    /// Findings that do not reject.
    pub notes: Vec<Note>,
}

/// Run rules `mode` to `not-implemented` over `input`, in [`RuleId::ALL`] order. The `schema`
/// rule runs before, in [`schema::check`], because the others need a decoded result.
#[must_use]
pub fn evaluate(input: &Input<'_>, policy: &RulePolicy) -> Evaluation {
    let mut violations = Vec::new();
    violations.extend(mode::check(input, policy));
    violations.extend(scope::check(input));
    violations.extend(declared::check(input));
    violations.extend(reversal::check(input, policy));
    violations.extend(undeclared::check(input));
    violations.extend(malformed::check(input, policy));
    violations.extend(zero_impact::check(input));
    let mut notes = Vec::new();
    for finding in not_implemented::check(input) {
        if finding.rejects(policy.not_implemented) {
            violations.push(finding.violation);
        } else {
            notes.push(finding.into_note(policy.not_implemented));
        }
    }
    Evaluation { violations, notes }
}

/// The rule a violation belongs to. The wire names are the seed's rule ids as design.md words
/// them, and start every `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RuleId {
    /// The result is not JSON or does not fit `schemas/execute-step.schema.json`.
    Schema,
    /// Rule 1: invalid or inconsistent mode.
    Mode,
    /// Rule 2: scope drift.
    Scope,
    /// Rule 3: missing patch / files for the reported success or failure.
    Declared,
    /// Rule 4: behaviour reversal or overreach in `fix_regression`.
    Reversal,
    /// Rule 5: patch modifies files not in `filesWritten`.
    Undeclared,
    /// Rule 6: not a standard unified diff, or does not apply / roll back.
    Malformed,
    /// Rule 7: success without a single added or removed line.
    ZeroImpact,
    /// Rule 8: the step is not (or only superficially) implemented.
    NotImplemented,
}

impl RuleId {
    /// Every rule id, in the order rules run.
    pub const ALL: [Self; 9] = [
        Self::Schema,
        Self::Mode,
        Self::Scope,
        Self::Declared,
        Self::Reversal,
        Self::Undeclared,
        Self::Malformed,
        Self::ZeroImpact,
        Self::NotImplemented,
    ];

    /// The stable wire name (`zero-impact`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Schema => "schema",
            Self::Mode => "mode",
            Self::Scope => "scope",
            Self::Declared => "declared",
            Self::Reversal => "reversal",
            Self::Undeclared => "undeclared",
            Self::Malformed => "malformed",
            Self::ZeroImpact => "zero-impact",
            Self::NotImplemented => "not-implemented",
        }
    }

    /// Parse a wire name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reason a result is rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The rule that said no.
    pub rule: RuleId,
    /// A finer stable code (`hunk_too_short`, `path_traversal`, `outside_allowed_files`).
    pub code: String,
    /// One lowercase line, without the rule prefix, naming the file (and hunk) at fault.
    pub message: String,
    /// The repo-relative file at fault, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The 1-based hunk index within the file, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hunk: Option<usize>,
    /// The 1-based line of the patch text the violation points at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_line: Option<usize>,
}

impl Violation {
    /// A violation without a location.
    #[must_use]
    pub fn new(rule: RuleId, code: &str, message: impl Into<String>) -> Self {
        Self {
            rule,
            code: code.to_owned(),
            message: message.into(),
            file: None,
            hunk: None,
            patch_line: None,
        }
    }

    /// Attach the file at fault.
    #[must_use]
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Attach the hunk (1-based) and the patch line it points at.
    #[must_use]
    pub fn at(mut self, hunk: Option<usize>, patch_line: Option<usize>) -> Self {
        self.hunk = hunk;
        self.patch_line = patch_line;
        self
    }

    /// The seed's one-line reason: `rule: message`.
    #[must_use]
    pub fn reason(&self) -> String {
        format!("{}: {}", self.rule, self.message)
    }
}

/// The seed 002 output contract: exactly `{"valid", "reason"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Whether the result may be applied.
    pub valid: bool,
    /// One short line; on rejection it starts with the rule id and a colon.
    pub reason: String,
}

/// Everything `validate` found: the verdict, every violation, and notes on what was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The verdict printed on stdout.
    pub verdict: Verdict,
    /// Every violation, in rule order; the first one gives the verdict's reason.
    pub violations: Vec<Violation>,
    /// Legal but noteworthy findings (CRLF, hunk offsets, skipped checks).
    #[serde(default)]
    pub notes: Vec<Note>,
}

/// A finding that does not reject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Stable code (`crlf`, `hunk_offset`, `repository_checks_skipped`).
    pub code: String,
    /// One lowercase line.
    pub message: String,
    /// The patch line it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_line: Option<usize>,
}

impl Report {
    /// Build the report from violations; the verdict's reason comes from the first one, or from
    /// `accepted` when there is none.
    #[must_use]
    pub fn from_violations(violations: Vec<Violation>, notes: Vec<Note>, accepted: &str) -> Self {
        let verdict = match violations.first() {
            Some(first) => Verdict { valid: false, reason: first.reason() },
            None => Verdict { valid: true, reason: accepted.to_owned() },
        };
        Self { verdict, violations, notes }
    }

    /// Whether any violation belongs to `rule`.
    #[must_use]
    pub fn has(&self, rule: RuleId) -> bool {
        self.violations.iter().any(|v| v.rule == rule)
    }
}
