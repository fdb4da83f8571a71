//! `review apply ID --override RULE...`: re-validate a stored result against the current HEAD
//! and apply it only when a person named the rule of every violation that remains.

use super::{ApplyArgs, emit, load, unknown_rule};
use crate::cli::apply::{Target, land};
use crate::cli::{CliError, CliResult};
use patchgate::config::Config;
use patchgate::patch::ParseOptions;
use patchgate::report::review::{ActionOutcome, RemainingViolation, apply_text};
use patchgate::report::{Exit, to_json_pretty};
use patchgate::review::{Entry, Override, OverrideDecision, Store, decide_override};
use patchgate::rule::{Report, RuleId};
use patchgate::scratch;
use patchgate::step::Step;
use patchgate::validate::{self, Context, Options};

pub(super) fn run(
    repository: &git2::Repository,
    store: &Store,
    args: &ApplyArgs,
    json: bool,
) -> CliResult {
    let overrides = parse_overrides(&args.overrides)?;
    let (_, mut entry, short) = load(store, &args.id)?;
    // What is applied must be the patch that was judged: a result that is not JSON, has no
    // string `patch`, or names a key twice (rejected by `schema` before any rule read a patch)
    // has none, and overriding `schema` must not apply a patch no other rule saw.
    let Some(patch) = entry.patch() else {
        return Err(CliError::input(
            "no_patch",
            format!(
                "entry {short} has no patch that reads unambiguously (the result is not JSON, has \
                 no string 'patch', or names a key twice); nothing can be applied, send the \
                 result again"
            ),
        ));
    };
    let root = patchgate::repo::workdir(repository)
        .map_err(|e| CliError::failure("repository", e.message))?
        .to_owned();
    let config =
        Config::load(&root).map_err(|e| CliError::input("invalid_config", e.to_string()))?;
    let (step, report) = revalidate(repository, &config, &entry)?;
    let decision = decide_override(&report, &overrides);
    let mut outcome = ActionOutcome::new("refused", vec![short]);
    outcome.remaining = remaining(&decision);
    if !decision.is_allowed() {
        print(&outcome, json);
        return Ok(Exit::Rejected);
    }
    // An override decides whether a rule may be ignored; it cannot make a patch apply that
    // does not (`land` checks it against HEAD once more).
    let target = Target { repo: repository, config: &config, step: &step, with_index: args.index };
    let changes = land(&target, &patch, &ParseOptions::default(), &scratch::Options::default())?;
    outcome.action = "applied";
    outcome.files = changes.into_iter().map(|c| c.path).collect();
    let overridden = decision.remaining.iter().map(|(v, _)| v.reason()).collect();
    entry.overrides.push(Override::now(repository, overrides, overridden, args.index));
    if let Err(e) = store.write(&entry) {
        // The worktree is written; only the note of who decided it is missing.
        eprintln!("patchgate: warning: applied, but the override was not recorded: {e}");
    }
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

/// The `validate` pipeline again, on the stored step (aimed at the current HEAD) and the raw
/// result, under the repository's current policy.
fn revalidate(
    repository: &git2::Repository,
    config: &Config,
    entry: &Entry,
) -> Result<(Step, Report), CliError> {
    let step = current_step(entry)?;
    let ctx =
        Context { step: &step, result: entry.result.as_bytes(), config, repo: Some(repository) };
    let report = validate::validate(&ctx, &Options::default())
        .map_err(|e| CliError::from(e).context("cannot re-validate"))?;
    Ok((step, report))
}

/// The stored step, re-read as `validate` reads steps, without its `base`: HEAD it is.
fn current_step(entry: &Entry) -> Result<Step, CliError> {
    let bytes = serde_json::to_vec(&entry.step).expect("JSON values serialize");
    let mut step = validate::read_step(&bytes).map_err(|e| {
        CliError::failure("corrupt_entry", format!("the stored step is no longer usable: {e}"))
    })?;
    step.base = None;
    Ok(step)
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
