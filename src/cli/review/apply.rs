//! `review apply ID --override RULE...`: the library re-validates the stored result against the
//! current HEAD and writes it only when a person named the rule of every remaining violation.

use super::{ApplyArgs, emit, load, unknown_rule};
use crate::cli::{CliError, CliResult};
use patchgate::report::review::{ActionOutcome, RemainingViolation, apply_text};
use patchgate::report::{Exit, message, to_json_pretty};
use patchgate::review::{OverrideDecision, Store, apply_override};
use patchgate::rule::RuleId;

pub(super) fn run(
    repository: &git2::Repository,
    store: &Store,
    args: &ApplyArgs,
    json: bool,
) -> CliResult {
    let overrides = parse_overrides(&args.overrides)?;
    let (_, entry, short) = load(store, &args.id)?;
    let applied =
        apply_override(repository, store, entry, overrides, args.index).map_err(CliError::from)?;
    let mut outcome = ActionOutcome::new("refused", vec![short]);
    outcome.remaining = remaining(&applied.decision);
    let Some(files) = applied.written else {
        print(&outcome, json);
        return Ok(Exit::Rejected);
    };
    if let Some(e) = applied.unrecorded {
        // The worktree is written; only the note of who decided it is missing.
        eprintln!("{}", message::override_unrecorded(&e));
    }
    outcome.action = "applied";
    outcome.files = files;
    print(&outcome, json);
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

fn print(outcome: &ActionOutcome, json: bool) {
    if json {
        emit(&format!("{}\n", to_json_pretty(outcome)));
    } else {
        emit(&apply_text(outcome));
    }
}
