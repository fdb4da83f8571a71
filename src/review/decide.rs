//! `review apply`'s decision: after re-validation, may a person's overrides carry the result?

use crate::rule::{Report, RuleId, Violation};

/// What re-validation left and whether the overrides cover it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverrideDecision {
    /// Every violation re-validation found, with whether an override names its rule.
    pub remaining: Vec<(Violation, bool)>,
    /// Named rules that no remaining violation needed (reported, never an error: a person may
    /// name a rule the current HEAD no longer breaks).
    pub unused: Vec<RuleId>,
}

impl OverrideDecision {
    /// Whether every remaining violation's rule was named explicitly.
    #[must_use]
    pub fn is_allowed(&self) -> bool {
        self.remaining.iter().all(|(_, is_overridden)| *is_overridden)
    }

    /// The violations no override covers.
    pub fn uncovered(&self) -> impl Iterator<Item = &Violation> {
        self.remaining.iter().filter(|(_, o)| !o).map(|(v, _)| v)
    }
}

/// Weigh the re-validation `report` against the rules the person named with `--override`.
#[must_use]
pub fn decide_override(report: &Report, overrides: &[RuleId]) -> OverrideDecision {
    let remaining: Vec<(Violation, bool)> =
        report.violations.iter().map(|v| (v.clone(), overrides.contains(&v.rule))).collect();
    let mut unused: Vec<RuleId> = overrides.iter().copied().filter(|r| !report.has(*r)).collect();
    unused.dedup();
    OverrideDecision { remaining, unused }
}
