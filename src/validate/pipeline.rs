//! The phases of [`validate`], each input read once.

use super::judgement::Judgement;
use super::repository::{self, RepoCheck};
use super::{
    Checked, Context, Findings, Options, Outcome, Unchecked, ValidateError, invalid_step, limits,
    run_judge,
};
use crate::config::Limits;
use crate::finding::{CheckCode, JudgeRun, NoteKind, PatchSize};
use crate::json::{Decoded, Kept};
use crate::patch::{ParseOptions, Parsed, Patch, parse};
use crate::rule::{self, Input, Note, RulePolicy, Scope, Violation};
use crate::scratch::{self, BaseTree, ScratchError, TreeIndex};
use crate::step::ExecutorResult;
use crate::summary;
use serde_json::Value;

/// Judge one executor result against its step. The [`Outcome`] carries the report and, with a
/// repository, the files as the patch leaves them, for [`Outcome::land`](super::Outcome::land).
pub fn validate<'r>(
    ctx: &Context<'_, 'r>,
    options: &Options,
) -> Result<Outcome<'r>, ValidateError> {
    Ok(judge(ctx, options)?.into_outcome())
}

/// [`validate`] before the verdict is worded.
pub(super) fn judge<'r>(
    ctx: &Context<'_, 'r>,
    options: &Options,
) -> Result<Judgement<'r>, ValidateError> {
    let decoded = crate::json::decode(ctx.result);
    judge_decoded(ctx, decoded, options, None).map(|(judgement, _)| judgement)
}

/// [`validate`] of a result its reader hands over, the caller keeping nothing else of it
/// (`ctx.result` must be empty: the result is `result`). A result whose patch runs to
/// megabytes has the patch decoded in place ([`crate::json::decode_owned`]), so the result's
/// bytes and its patch are never held at once; the [`Kept`] gives the result back (as
/// received, or with the patch written back where it was) for the rejection record.
pub fn validate_owned<'r>(
    ctx: &Context<'_, 'r>,
    result: Vec<u8>,
    options: &Options,
) -> Result<(Outcome<'r>, Kept), ValidateError> {
    let (judgement, kept) = judge_owned(ctx, result, options, None)?;
    Ok((judgement.into_outcome(), kept))
}

/// [`validate_owned`] before the verdict is worded: the caller adds what it did (a repair, the
/// write) to the [`Judgement`]'s acceptance first. `base`, when the caller resolved it (and
/// keeps it for the next result), must be `ctx.repo`'s tree of [`scratch::base_rev`] for this
/// step and these options; `None` resolves it here.
pub(super) fn judge_owned<'r>(
    ctx: &Context<'_, 'r>,
    result: Vec<u8>,
    options: &Options,
    base: Option<BaseTree<'r>>,
) -> Result<(Judgement<'r>, Kept), ValidateError> {
    debug_assert!(ctx.result.is_empty(), "the result is passed once, as `result`");
    debug_assert!(base.is_none() || ctx.repo.is_some(), "a base tree comes with its repository");
    let (decoded, mut kept) = crate::json::decode_owned(result, "patch");
    let (judgement, sent) = judge_decoded(ctx, decoded, options, base)?;
    if let Some(patch) = sent {
        kept.hold(patch);
    }
    Ok((judgement, kept))
}

/// The pipeline over the decoded result (`ctx.result` is not read again); with the judgement,
/// the patch the result sent when the judgement does not carry it (validation stopped first).
fn judge_decoded<'r>(
    ctx: &Context<'_, 'r>,
    decoded: Decoded,
    options: &Options,
    resolved: Option<BaseTree<'r>>,
) -> Result<(Judgement<'r>, Option<String>), ValidateError> {
    let rules: RulePolicy = ctx.config.section("rules")?;
    let limits = ctx.config.limits();
    let scope = compile_scope(ctx, &limits)?;
    let apply_text = ctx.step.apply_patch.as_deref().unwrap_or_default();
    let apply_parsed = parse_apply_patch(apply_text, &options.parse, &limits)?;
    let mut findings = Findings::default();
    note_unknown_fields(&decoded, &mut findings);
    let result = match rule::schema::check_decoded(decoded) {
        Ok(result) => result,
        Err((violations, value)) => {
            let sent = value.and_then(|mut v| match v.get_mut("patch").map(Value::take) {
                Some(Value::String(patch)) => Some(patch),
                _ => None,
            });
            return Ok((stopped(ctx, findings.notes, violations), sent));
        }
    };
    let patch_text = result.patch.as_deref().unwrap_or_default();
    if let Err(e) = limits::check_text(&limits, patch_text.as_bytes(), "the patch") {
        return Ok((stopped(ctx, findings.notes, vec![limits::violation(&e)]), result.patch));
    }
    let parsed =
        (!patch_text.trim().is_empty()).then(|| parse(patch_text.as_bytes(), &options.parse));
    if let Some(e) = parsed.as_ref().and_then(|p| limits::check_parsed(&limits, &p.patch).err()) {
        drop(parsed);
        return Ok((stopped(ctx, findings.notes, vec![limits::violation(&e)]), result.patch));
    }
    let rev = scratch::base_rev(ctx.step, &options.scratch);
    debug_assert!(resolved.as_ref().is_none_or(|b| b.rev == rev), "the base of this step");
    let base = match resolved {
        Some(base) => Some(Ok(base)),
        None => ctx.repo.map(|repo| BaseTree::resolve(repo, rev)),
    };
    let phases = Phases { ctx, options, rules: &rules, scope: &scope, result: &result };
    let apply_patch = apply_parsed.as_ref().map(|p| &p.patch);
    let (mut judgement, check) =
        phases.run(parsed.as_ref(), apply_patch, base.as_ref(), findings)?;
    judgement.checked = match base {
        None => Err(Unchecked::NoRepository),
        Some(Err(e)) => Err(Unchecked::Base(e)),
        Some(Ok(base)) => match check {
            RepoCheck::Checked(changes) => Ok(Checked { base, changes }),
            RepoCheck::Refused(reason) => Err(Unchecked::Refused(reason)),
            RepoCheck::NotRun if parsed.is_some() => {
                Err(Unchecked::Refused(judgement.first_reason().unwrap_or_default()))
            }
            RepoCheck::NotRun => Ok(Checked { base, changes: Vec::new() }),
        },
    };
    drop(parsed);
    judgement.patch = result.patch;
    Ok((judgement, None))
}

/// The phases that read the parsed patch, over inputs that outlive them.
struct Phases<'p> {
    ctx: &'p Context<'p, 'p>,
    options: &'p Options,
    rules: &'p RulePolicy,
    scope: &'p Scope,
    result: &'p ExecutorResult,
}

impl Phases<'_> {
    /// The rules, the repository check and the judge: the judgement (its patch and check
    /// filled in by the caller), and what the repository check produced.
    fn run<'r>(
        &self,
        parsed: Option<&Parsed<'_>>,
        apply_patch: Option<&Patch<'_>>,
        base: Option<&Result<BaseTree<'_>, ScratchError>>,
        mut findings: Findings,
    ) -> Result<(Judgement<'r>, RepoCheck), ValidateError> {
        let index = base.and_then(|b| b.as_ref().ok()).map(TreeIndex::new);
        let mut input = Input::new(self.ctx.step, self.result, parsed, apply_patch, self.scope);
        if let Some(index) = &index {
            input = input.with_base(index);
        }
        // Read once, for every rule, the report and the judge.
        let is_full = self.options.is_full_summary || self.options.model_judge.is_some();
        let wants = rule::summary_wants(self.ctx.step, is_full);
        let summary =
            input.usable_patch().map(|p| summary::summarize(&p.files, input.base, &wants));
        let input = input.with_summary(summary.as_ref());
        note_unknown_apply_run(&input, &mut findings);
        let found = rule::evaluate(&input, self.rules);
        findings.violations = found.violations;
        findings.notes.extend(found.notes);
        note_warnings(parsed, &mut findings);
        let (ctx, options, rules) = (self.ctx, self.options, self.rules);
        let check = repository::check_repository(ctx, options, rules, base, &input, &mut findings)?;
        let judge =
            if findings.violations.is_empty() { self.judge(&input, &mut findings)? } else { None };
        let mut judgement = Judgement::new(findings.notes, findings.violations);
        judgement.judge = judge;
        judgement.acceptance.size = input.usable_patch().map(size);
        judgement.acceptance.is_unchecked = self.ctx.repo.is_none();
        judgement.summary = summary;
        Ok((judgement, check))
    }
}

/// The judgement of a pipeline stopped before the patch was parsed (the result does not fit the
/// schema or is over a limit): nothing was checked against the repository.
fn stopped<'r>(
    ctx: &Context<'_, 'r>,
    notes: Vec<Note>,
    violations: Vec<Violation>,
) -> Judgement<'r> {
    let mut judgement = Judgement::new(notes, violations);
    judgement.checked = match ctx.repo {
        Some(_) => Err(Unchecked::Refused(judgement.first_reason().unwrap_or_default())),
        None => Err(Unchecked::NoRepository),
    };
    judgement
}

/// The step's globs plus the repository's `excluded` list (compiled once, by the policy).
fn compile_scope(ctx: &Context<'_, '_>, limits: &Limits) -> Result<Scope, ValidateError> {
    limits::check_step(limits, ctx.step).map_err(|e| invalid_step(e.to_string()))?;
    let excluded = (ctx.config.excluded_globs())
        .map_err(|e| ctx.config.invalid(&format!("'excluded': {e}")))?;
    Scope::new(ctx.step, excluded)
        .map_err(|e| invalid_step(format!("{e} in allowedFiles, excludedPaths or applyFiles")))
}

/// The step's `applyPatch`, which must itself be a clean unified diff.
fn parse_apply_patch<'t>(
    text: &'t str,
    options: &ParseOptions,
    limits: &Limits,
) -> Result<Option<Parsed<'t>>, ValidateError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let refused = |e: crate::config::LimitExceeded| invalid_step(e.to_string());
    limits::check_text(limits, text.as_bytes(), "'applyPatch'").map_err(refused)?;
    let parsed = parse(text.as_bytes(), options);
    limits::check_parsed(limits, &parsed.patch).map_err(refused)?;
    if let Some(d) = parsed.defects.first() {
        return Err(invalid_step(format!(
            "'applyPatch' is not a clean unified diff: {d} ({}); pass the apply run's patch as produced",
            d.code
        )));
    }
    Ok(Some(parsed))
}

fn note_unknown_fields(decoded: &Decoded, findings: &mut Findings) {
    for name in rule::schema::unknown_fields(decoded) {
        findings.notes.push(Note {
            code: NoteKind::UnknownField.into(),
            message: format!("result field '{name}' is not part of the schema and was ignored"),
            patch_line: None,
        });
    }
}

/// A `fix_regression` result against a step without `applyPatch` cannot be compared with the
/// apply run; say so rather than imply the reversal checks ran in full.
fn note_unknown_apply_run(input: &Input<'_>, findings: &mut Findings) {
    if input.mode() == Some(crate::step::Mode::FixRegression) && input.apply_patch.is_none() {
        findings.notes.push(Note {
            code: NoteKind::ApplyRunUnknown.into(),
            message: "the step has no applyPatch: only no-op bodies were checked for reversal"
                .into(),
            patch_line: None,
        });
    }
}

fn note_warnings(parsed: Option<&Parsed<'_>>, findings: &mut Findings) {
    for w in parsed.map(|p| p.warnings.as_slice()).unwrap_or_default() {
        findings.notes.push(Note {
            code: w.code.into(),
            message: w.message.clone(),
            patch_line: Some(w.span.line),
        });
    }
}

impl Phases<'_> {
    /// Ask `--judge CMD`, or the model judge when `[judge] when` says so; its rejection joins
    /// the violations as `judge_rejected`, its reason on one line.
    fn judge(
        &self,
        input: &Input<'_>,
        findings: &mut Findings,
    ) -> Result<Option<JudgeRun>, ValidateError> {
        let (step, result) = (self.ctx.step, self.result);
        let run = if let Some(command) = &self.options.judge {
            let verdict = run_judge(command, step, result)?;
            let (valid, reason) = (verdict.valid, verdict.reason);
            JudgeRun { model: "command".into(), valid, reason, ..JudgeRun::default() }
        } else if let Some(judge) = &self.options.model_judge {
            let is_settled =
                rule::checks_transformation(&step.description) || !step.expect.is_empty();
            if !crate::judge::should_ask(judge.settings.when, result, &findings.notes, is_settled) {
                return Ok(None);
            }
            let patch = input.usable_patch();
            let question = crate::judge::Question {
                step,
                result,
                patch,
                notes: &findings.notes,
                base: input.base,
                summary: input.summary,
            };
            let answer = crate::judge::ask(judge, &question)?;
            JudgeRun {
                model: judge.model.to_string(),
                valid: answer.valid,
                reason: answer.reason,
                input_tokens: answer.usage.input_tokens,
                output_tokens: answer.usage.output_tokens,
                cached: answer.cached,
            }
        } else {
            return Ok(None);
        };
        if !run.valid {
            let says = format!("the judge says: {}", crate::judge::one_line(&run.reason, 300));
            findings.violations.push(Violation::new(
                rule::RuleId::NotImplemented,
                CheckCode::JudgeRejected,
                says,
            ));
        }
        Ok(Some(run))
    }
}

/// What an acceptance says of the patch's size.
fn size(patch: &Patch<'_>) -> PatchSize {
    PatchSize { files: patch.files.len(), added: patch.added(), removed: patch.removed() }
}
