//! Rule 1, `mode`: the mode is `apply` or `fix_regression`, matches the step's intended mode,
//! and a `fix_regression` patch is not large and speculative.

use super::{Input, RuleId, RulePolicy, Violation};
use crate::finding::CheckCode;
use crate::step::Mode;

pub(super) fn check(input: &Input<'_>, policy: &RulePolicy) -> Vec<Violation> {
    let Some(mode) = input.mode() else {
        let found = crate::path::display_bytes(input.result.mode.as_bytes());
        return vec![Violation::new(
            RuleId::Mode,
            CheckCode::InvalidMode,
            format!("mode '{found}' is neither 'apply' nor 'fix_regression'"),
        )];
    };
    let mut out = Vec::new();
    if let Some(intended) = input.step.mode.filter(|m| *m != mode) {
        out.push(Violation::new(
            RuleId::Mode,
            CheckCode::ModeMismatch,
            format!(
                "result mode is '{}' but the step asks for '{}'",
                mode.as_str(),
                intended.as_str()
            ),
        ));
    }
    if mode == Mode::FixRegression {
        out.extend(speculative(input, policy));
    }
    out
}

/// A fix for a regression should be small; a large one is a rewrite hoping to silence a test.
fn speculative(input: &Input<'_>, policy: &RulePolicy) -> Option<Violation> {
    let patch = input.usable_patch()?;
    let files = patch.files.len();
    let changed = patch.added() + patch.removed();
    let why = if files > policy.fix_regression_max_files {
        format!("touches {files} files (limit {})", policy.fix_regression_max_files)
    } else if changed > policy.fix_regression_max_changed_lines {
        format!(
            "changes {changed} lines (+{} -{}, limit {})",
            patch.added(),
            patch.removed(),
            policy.fix_regression_max_changed_lines
        )
    } else {
        return None;
    };
    Some(Violation::new(
        RuleId::Mode,
        CheckCode::SpeculativeFix,
        format!("fix_regression patch {why}; keep the fix to the regression"),
    ))
}
