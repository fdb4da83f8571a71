//! What patchgate finds, as data: the rule a finding belongs to ([`RuleId`]), a rejection
//! ([`Violation`]), a remark that does not reject ([`Note`]), the one-line [`Verdict`] and the
//! whole [`Report`]. A leaf: it depends on nothing else in the crate, so every layer (rules,
//! repository checks, the pipelines, the renderers) speaks the same types.

use serde::{Deserialize, Serialize};

mod acceptance;
mod code;
mod codes;
mod error;
mod summary;
pub use acceptance::{Acceptance, PatchSize};
pub use code::{
    CheckCode, Code, DefectCode, NoteCode, NoteKind, PathErrorCode, RepairKind, WarningCode,
};
pub(crate) use codes::{code_union, codes};
pub use error::ErrorCode;
pub use summary::{
    ChangeKind, ChangeSummary, FileOperation, FileSummary, IdentifierRename, ItemChange,
    ItemStatus, NameCount, Trivial, TrivialForm,
};

codes! {
    /// The rule a violation belongs to. The wire names are the executor contract's rule ids,
    /// and start every `reason`; the declaration order is the order the rules run.
    RuleId {
        /// The result is not JSON or does not fit `schemas/execute-step.schema.json`.
        Schema => "schema",
        /// Rule 1: invalid or inconsistent mode.
        Mode => "mode",
        /// Rule 2: scope drift.
        Scope => "scope",
        /// Rule 3: missing patch / files for the reported success or failure.
        Declared => "declared",
        /// Rule 4: behaviour reversal or overreach in `fix_regression`.
        Reversal => "reversal",
        /// Rule 5: patch modifies files not in `filesWritten`.
        Undeclared => "undeclared",
        /// Rule 6: not a standard unified diff, or does not apply / roll back.
        Malformed => "malformed",
        /// Rule 7: success without a single added or removed line.
        ZeroImpact => "zero-impact",
        /// Rule 8: the step is not (or only superficially) implemented.
        NotImplemented => "not-implemented",
    }
}

/// One reason a result is rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Violation {
    /// The rule that said no.
    pub rule: RuleId,
    /// A finer stable code (`hunk_too_short`, `path_traversal`, `outside_allowed_files`).
    pub code: Code,
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
    pub fn new(rule: RuleId, code: impl Into<Code>, message: impl Into<String>) -> Self {
        Self {
            rule,
            code: code.into(),
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

    /// The execute-step validator's one-line reason: `rule: message`.
    #[must_use]
    pub fn reason(&self) -> String {
        format!("{}: {}", self.rule, self.message)
    }
}

/// The execute-step validator's output contract: exactly `{"valid", "reason"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Verdict {
    /// Whether the result may be applied.
    pub valid: bool,
    /// One short line; on rejection it starts with the rule id and a colon.
    pub reason: String,
}

/// Everything `validate` found: the verdict, every violation, and notes on what was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Report {
    /// The verdict printed on stdout.
    pub verdict: Verdict,
    /// Every violation, in rule order; the first one gives the verdict's reason.
    pub violations: Vec<Violation>,
    /// Legal but noteworthy findings (CRLF, hunk offsets, skipped checks).
    #[serde(default)]
    pub notes: Vec<Note>,
    /// What the judge was asked and answered, when one was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<JudgeRun>,
    /// What the patch does to each file's structure, when the patch was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<ChangeSummary>,
}

/// The judge's part in a report: who was asked, what it answered, and what that cost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct JudgeRun {
    /// `PROVIDER:MODEL` (`openai:gpt-4o-mini`) for the built-in judge, `command` for `--judge`.
    pub model: String,
    /// Its answer.
    pub valid: bool,
    /// Its reason, as given.
    pub reason: String,
    /// Tokens of the request, as the server counted them (absent when it did not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Tokens of the answer, as the server counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// The answer was read from the cache: nothing was sent this time. The token counts are
    /// those of the call that produced it.
    #[serde(default)]
    pub cached: bool,
}

/// A finding that does not reject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Note {
    /// Stable code (`crlf`, `hunk_offset`, `repository_checks_skipped`).
    pub code: NoteCode,
    /// One lowercase line.
    pub message: String,
    /// The patch line it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_line: Option<usize>,
}

impl Report {
    /// Build the report from violations; the verdict's reason comes from the first one, or, when
    /// there is none, from what the acceptance says ([`Acceptance::reason`]).
    #[must_use]
    pub fn from_violations(
        violations: Vec<Violation>,
        notes: Vec<Note>,
        accepted: &Acceptance,
    ) -> Self {
        let verdict = match violations.first() {
            Some(first) => Verdict { valid: false, reason: first.reason() },
            None => Verdict { valid: true, reason: accepted.reason() },
        };
        Self { verdict, violations, notes, judge: None, summary: None }
    }

    /// Whether any violation belongs to `rule`.
    #[must_use]
    pub fn has(&self, rule: RuleId) -> bool {
        self.violations.iter().any(|v| v.rule == rule)
    }
}
