//! `patchgate validate --step STEP --result RESULT`: judge one executor result against its step
//! and print the seed's `{"valid", "reason"}` verdict (or text diagnostics).

use super::common::{InputArgs, RepairArgs, ScratchArgs, load_config, print_verdict, write_report};
use super::errors::named_repo;
use super::{CliError, CliResult, Format, Global};
use patchgate::config::Config;
use patchgate::judge::{Cache, JudgeSettings, Model, ModelJudge, When};
use patchgate::report::{Exit, message, report_json};
use patchgate::review::{Judged, record_rejection};
use patchgate::scratch;
use patchgate::validate::{self, Context, JudgeOptions, Options};
use std::path::{Path, PathBuf};
use std::time::Duration;

// Arguments of `patchgate validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Also write the full report (every violation and note) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Ask CMD (run with `sh -c`) when no rule rejects: it reads {"step", "result"} on stdin and
    /// prints {"valid", "reason"}.
    #[arg(long, value_name = "CMD")]
    judge: Option<String>,
    /// Ask a language model when the rules cannot settle whether the step is done (PROVIDER:MODEL,
    /// e.g. openai:gpt-4o-mini, anthropic:claude-haiku-4-5); overrides `[judge] model`. The
    /// server and key come from `OPENAI_BASE_URL`, `OPENAI_API_KEY` or `ANTHROPIC_BASE_URL`,
    /// `ANTHROPIC_API_KEY`.
    #[arg(long, value_name = "PROVIDER:MODEL", conflicts_with = "judge")]
    judge_model: Option<Model>,
    /// When the model judge is asked: `uncertain` (only where the rules cannot settle the
    /// step) or `always` (whenever no rule rejects); overrides `[judge] when`.
    #[arg(long, value_name = "WHEN", value_parser = ["uncertain", "always"])]
    judge_when: Option<String>,
    /// Seconds the judge may take before it is given up (exit 3): 60 by default, or `[judge]
    /// timeout` for the model judge (per attempt).
    #[arg(long, value_name = "SECS")]
    judge_timeout: Option<u64>,
    /// Do not keep a rejected result for `patchgate review`.
    #[arg(long)]
    no_record: bool,
    /// Check the patch alone, without a repository (no apply check, no `expect`); without
    /// this flag, validate refuses to run where no repository is found.
    #[arg(long, conflicts_with = "check_cmd")]
    no_repo: bool,
    #[command(flatten)]
    scratch: ScratchArgs,
    #[command(flatten)]
    repair: RepairArgs,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let (step, result) = args.input.read()?;
    if args.no_repo {
        if global.repo.is_some() {
            return Err(CliError::input("usage", "--repo and --no-repo contradict each other"));
        }
        return judge(args, global, &step, result, None);
    }
    let Some(repo) = open_repo(global.repo.as_deref())? else {
        return Err(CliError::failure(
            "no_repository",
            "no git repository here, so the patch cannot be checked against its base: pass \
             --repo DIR, or --no-repo to check the patch alone",
        ));
    };
    judge(args, global, &step, result, Some(&repo))
}

/// Validate against `repo` (or the patch alone), record a rejection, print the verdict.
fn judge(
    args: &Args,
    global: &Global,
    step: &patchgate::step::Step,
    result: Vec<u8>,
    repo: Option<&git2::Repository>,
) -> CliResult {
    let config = load_config(repo, step, &args.scratch)?;
    let options = options(args, &config, repo)?;
    let ctx = Context { step, result: &result, config: &config, repo };
    let mut repaired = args.repair.prepare(&ctx, &options)?;
    let judged = match &mut repaired {
        Some(repaired) => std::mem::take(&mut repaired.result),
        None => result,
    };
    // Handed over whole: a patch of megabytes is decoded where it lies (one copy, not three).
    let ctx = Context { step, result: &[], config: &config, repo };
    let (mut outcome, kept) =
        validate::validate_owned(&ctx, judged, &options).map_err(CliError::from)?;
    if let Some(repaired) = &repaired {
        repaired.explain(&mut outcome.report);
    }
    if !args.no_record {
        let result = &kept.text(outcome.patch.as_deref());
        let judged = Judged { repo, config: &config, step, result, base: outcome.base_commit() };
        let recording = record_rejection(&judged, &outcome.report);
        if let Some(line) = message::recording(&recording, global.format == Some(Format::Text)) {
            global.say(&line);
        }
    }
    if let Some(path) = &args.report {
        write_report(path, &report_json(&outcome.report))?;
    }
    print_verdict(&outcome, global, &args.input.result);
    Ok(if outcome.report.verdict.valid { Exit::Accepted } else { Exit::Rejected })
}

fn options(
    args: &Args,
    config: &Config,
    repo: Option<&git2::Repository>,
) -> Result<Options, CliError> {
    let judge = args.judge.as_ref().map(|command| JudgeOptions {
        command: command.clone(),
        timeout: args.judge_timeout.map_or(JudgeOptions::DEFAULT_TIMEOUT, Duration::from_secs),
    });
    let model_judge = if judge.is_some() { None } else { model_judge(args, config, repo)? };
    let parse = args.input.parse_options();
    // Nothing lands what `validate` checked: no need to keep the patched files.
    let scratch = scratch::Options { is_verdict_only: true, ..args.scratch.options() };
    Ok(Options { judge, model_judge, parse, scratch })
}

/// The model judge `--judge-model` or `[judge] model` names, with its answers cached under the
/// repository's git directory.
fn model_judge(
    args: &Args,
    config: &Config,
    repo: Option<&git2::Repository>,
) -> Result<Option<ModelJudge>, CliError> {
    let invalid = |message: String| CliError::input("invalid_config", message);
    let mut settings: JudgeSettings = config.section("judge")?;
    let model = match (&args.judge_model, &settings.model) {
        (Some(model), _) => model.clone(),
        (None, Some(name)) => name.parse().map_err(|e| invalid(format!("[judge] model: {e}")))?,
        (None, None) => return Ok(None),
    };
    if let Some(seconds) = args.judge_timeout {
        settings.timeout = seconds;
    }
    if let Some(when) = &args.judge_when {
        settings.when = if when == "always" { When::Always } else { When::Uncertain };
    }
    let judge = ModelJudge::from_env(model, settings)?;
    Ok(Some(match repo {
        Some(repo) => judge.with_cache(Cache::in_git_dir(repo.commondir())),
        None => judge,
    }))
}

/// `--repo DIR` must be a repository; without it, no repository around the current directory
/// is fine (the repository checks are skipped and the text report says so).
fn open_repo(dir: Option<&Path>) -> Result<Option<git2::Repository>, CliError> {
    match dir {
        Some(dir) => patchgate::repo::discover(Some(dir)).map(Some).map_err(named_repo),
        None => Ok(patchgate::repo::discover(None).ok()),
    }
}
