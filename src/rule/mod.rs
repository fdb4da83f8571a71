//! The eight execute-step rules of the execute-step validator (plus `schema`), over a parsed patch,
//! the step and the executor result. A rejection is data ([`Report`]), never an `Err`.
//!
//! Each rule lives in its own file and is a pure function of an [`Input`] and the
//! [`RulePolicy`]. [`schema::check`] turns the raw result bytes into an
//! [`ExecutorResult`](crate::step::ExecutorResult) (or `schema` violations); [`evaluate`] then
//! runs the other eight rules in [`RuleId::ALL`] order.
//!
//! ```
//! use patchgate::patch::{parse, ParseOptions};
//! use patchgate::path::PathSet;
//! use patchgate::rule::{self, Input, RuleId, RulePolicy, Scope};
//! use patchgate::step::Step;
//!
//! let raw = br#"{"mode": "apply", "success": true,
//!   "patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n",
//!   "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "s"}"#;
//! let result = rule::schema::check(raw).expect("fits the schema");
//! let step = Step { description: "Change old to new in a.txt".into(), ..Step::default() };
//! let scope = Scope::new(&step, &PathSet::empty()).expect("valid globs");
//! let text = result.patch.clone().unwrap_or_default();
//! let parsed = parse(text.as_bytes(), &ParseOptions::default());
//! let input = Input::new(&step, &result, Some(&parsed), None, &scope);
//! let found = rule::evaluate(&input, &RulePolicy::default());
//! assert!(found.violations.is_empty(), "{:?}", found.violations);
//! ```

mod ask;
mod base_files;
mod bodies;
mod convention;
mod declared;
mod input;
mod intent;
mod malformed;
mod mode;
mod named_change;
mod not_implemented;
mod path_token;
mod pattern;
mod policy;
mod reversal;
mod rewording;
pub mod schema;
mod scope;
mod subclass;
mod superficial;
mod testfile;
#[cfg(test)]
mod tests;
mod undeclared;
mod weakened;
mod zero_impact;

pub use crate::summary::Base;
pub use input::{Input, PatchPath, Scope, patch_paths};
pub use malformed::GITLINK_REFUSED;
pub use not_implemented::checks_transformation;
pub use not_implemented::summary_wants;
pub use policy::{RulePolicy, Strictness, mode_refusal};

pub use crate::finding::{CheckCode, Code, Note, Report, RuleId, Verdict, Violation};

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
