//! `review apply ID --override RULE...`: the library re-validates the stored result against the
//! current HEAD and writes it only when a person named the rule of every remaining violation.

use super::{ApplyArgs, emit, load, unknown_rule};
use crate::cli::{CliError, CliResult, Global};
use patchgate::report::review::{ActionOutcome, RemainingViolation, apply_text};
use patchgate::report::{Exit, Notice, message};
use patchgate::review::{OverrideDecision, Store};
use patchgate::rule::RuleId;
use patchgate::validate::apply_override;

pub(super) fn run(
    repository: &git2::Repository,
    store: &Store,
    args: &ApplyArgs,
    global: &Global,
) -> CliResult {
    let overrides = parse_overrides(&args.overrides)?;
    let (_, entry, short) = load(store, &args.id)?;
    let applied =
        apply_override(repository, store, entry, overrides, args.index).map_err(CliError::from)?;
    let mut outcome = ActionOutcome::new("refused", vec![short]);
    outcome.remaining = remaining(&applied.decision);
    let Some(files) = applied.written else {
        print(&outcome, &[], global);
        return Ok(Exit::Rejected);
    };
    // The worktree is written; only the note of who decided it may be missing.
    let warnings: Vec<_> = applied.unrecorded.iter().map(message::override_unrecorded).collect();
    global.warn(&warnings);
    outcome.action = "applied";
    outcome.files = files;
    print(&outcome, &warnings, global);
    Ok(Exit::Accepted)
}

fn parse_overrides(names: &[String]) -> Result<Vec<RuleId>, CliError> {
    let mut rules = Vec::with_capacity(names.len());
    for name in names {
        let rule = RuleId::from_name(name).ok_or_else(|| unknown_rule(name))?;
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    Ok(rules)
}

fn remaining(decision: &OverrideDecision) -> Vec<RemainingViolation> {
    decision
        .remaining
        .iter()
        .map(|(v, is_overridden)| RemainingViolation {
            rule: v.rule,
            code: v.code.clone(),
            message: v.message.clone(),
            is_overridden: *is_overridden,
        })
        .collect()
}

/// The outcome; with `-q`, text only for a refusal.
fn print(outcome: &ActionOutcome, warnings: &[Notice], global: &Global) {
    if super::is_json(global) {
        global.print_json_with(outcome, warnings);
    } else if !global.quiet || outcome.action != "applied" {
        emit(&apply_text(outcome));
    }
}
