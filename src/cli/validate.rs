//! `patchgate validate --step STEP --result RESULT`: judge one executor result against its step
//! and print the seed's `{"valid", "reason"}` verdict (or text diagnostics); with `--batch`,
//! many results in one run (`super::batch`), each judged by [`judge_one`] as here.

use super::common::{
    InputArgs, RepairArgs, ScratchArgs, StripArgs, load_config, print_verdict, write_report,
};
use super::errors::named_repo;
use super::{CliError, CliResult, Format, Global};
use patchgate::config::Config;
use patchgate::judge::{Cache, JudgeSettings, Model, ModelJudge, When};
use patchgate::report::{Exit, message, report_json};
use patchgate::review::{Judged, Recording, record_rejection};
use patchgate::scratch::{self, BaseTree};
use patchgate::step::Step;
use patchgate::validate::{self, Context, JudgeOptions, Options, Outcome};
use std::path::{Path, PathBuf};
use std::time::Duration;

// Arguments of `patchgate validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub input: Option<InputArgs>,
    /// Judge many results in one run: JSON Lines from FILE (`-`: stdin), each
    /// {"id", "step", "result", "repo"?, "base"?}; prints one answer line each, in input order
    /// ({"id", "valid", "reason"}, or {"id", "line", "error"}).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["step", "result", "report", "repaired_out"])]
    pub batch: Option<String>,
    #[command(flatten)]
    pub batching: super::batch::BatchArgs,
    #[command(flatten)]
    pub strip: StripArgs,
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
    pub no_record: bool,
    /// Check the patch alone, without a repository (no apply check, no `expect`); without
    /// this flag, validate refuses to run where no repository is found.
    #[arg(long, conflicts_with = "check_cmd")]
    pub no_repo: bool,
    #[command(flatten)]
    pub scratch: ScratchArgs,
    #[command(flatten)]
    repair: RepairArgs,
}

impl Args {
    /// The arguments of `validate --no-record` with `--strip`, `--base` and `--repair` as
    /// given and everything else as defaults: what the MCP tool `validate_result` runs.
    pub(super) fn for_tool(strip: usize, base: Option<String>, is_repair: bool) -> Self {
        Self {
            input: None,
            batch: None,
            batching: super::batch::BatchArgs::default(),
            strip: StripArgs { strip },
            report: None,
            judge: None,
            judge_model: None,
            judge_when: None,
            judge_timeout: None,
            no_record: true,
            no_repo: false,
            scratch: ScratchArgs { base, ..ScratchArgs::default() },
            repair: RepairArgs { repair: is_repair, repaired_out: None },
        }
    }
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    if args.no_repo && global.repo.is_some() {
        return Err(CliError::input("usage", "--repo and --no-repo contradict each other"));
    }
    if let Some(file) = &args.batch {
        return super::batch::run(args, file, global);
    }
    let Some(input) = &args.input else {
        return Err(CliError::input("usage", "validate needs --step and --result (or --batch)"));
    };
    let (step, result) = input.read()?;
    if args.no_repo {
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
    step: &Step,
    result: Vec<u8>,
    repo: Option<&git2::Repository>,
) -> CliResult {
    let config = load_config(repo)?;
    let options = options(args, &config, repo, None)?;
    let at = At { repo, config: &config };
    let (outcome, recording) = judge_one(args, step, result, at, &options, None)?;
    if let Some(line) =
        recording.as_ref().and_then(|r| message::recording(r, global.format == Some(Format::Text)))
    {
        global.say(&line);
    }
    if let Some(path) = &args.report {
        write_report(path, &report_json(&outcome.report))?;
    }
    let origin = args.input.as_ref().map_or("-", |i| i.result.as_str());
    print_verdict(&outcome, global, origin);
    Ok(if outcome.report.verdict.valid { Exit::Accepted } else { Exit::Rejected })
}

/// Where a result is judged: the repository (none with `--no-repo`) and its policy.
#[derive(Clone, Copy)]
pub(super) struct At<'r> {
    pub repo: Option<&'r git2::Repository>,
    pub config: &'r Config,
}

/// What `validate` does with one result short of printing: repair it (`--repair`), judge it
/// (against `base` when the caller resolved it), and keep a rejection for `patchgate review`
/// unless `--no-record`: the outcome, and how the recording went.
pub(super) fn judge_one<'r>(
    args: &Args,
    step: &'r Step,
    result: Vec<u8>,
    at: At<'r>,
    options: &Options,
    base: Option<BaseTree<'r>>,
) -> Result<(Outcome<'r>, Option<Recording>), CliError> {
    let At { repo, config } = at;
    let ctx = Context { step, result: &result, config, repo };
    let mut repaired = args.repair.prepare(&ctx, options)?;
    let judged = match &mut repaired {
        Some(repaired) => std::mem::take(&mut repaired.result),
        None => result,
    };
    // Handed over whole: a patch of megabytes is decoded where it lies (one copy, not three).
    let ctx = Context { step, result: &[], config, repo };
    let (mut outcome, kept) =
        validate::validate_owned_at(&ctx, base, judged, options).map_err(CliError::from)?;
    if let Some(repaired) = &repaired {
        repaired.explain(&mut outcome.report);
    }
    if args.no_record {
        return Ok((outcome, None));
    }
    let result = &kept.text(outcome.patch.as_deref());
    let judged = Judged { repo, config, step, result, base: outcome.base_commit() };
    let recording = record_rejection(&judged, &outcome.report);
    Ok((outcome, Some(recording)))
}

/// The library's options for one result; `base` (a batch line's) stands before `--base`.
pub(super) fn options(
    args: &Args,
    config: &Config,
    repo: Option<&git2::Repository>,
    base: Option<&str>,
) -> Result<Options, CliError> {
    let judge = args.judge.as_ref().map(|command| JudgeOptions {
        command: command.clone(),
        timeout: args.judge_timeout.map_or(JudgeOptions::DEFAULT_TIMEOUT, Duration::from_secs),
    });
    let model_judge = if judge.is_some() { None } else { model_judge(args, config, repo)? };
    let parse = args.strip.parse_options();
    // Nothing lands what `validate` checked: no need to keep the patched files.
    let mut scratch = scratch::Options { is_verdict_only: true, ..args.scratch.options() };
    if let Some(base) = base {
        scratch.base = Some(base.to_owned());
    }
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
