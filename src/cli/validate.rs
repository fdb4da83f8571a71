//! `patchgate validate --step STEP --result RESULT`: judge one executor result against its step
//! and print the seed's `{"valid", "reason"}` verdict (or text diagnostics).

use super::errors::one_line;
use super::{CliError, CliResult, Format, Global, read_input};
use patchgate::config::Config;
use patchgate::report::{Exit, report_json, verdict_json, verdict_text};
use patchgate::validate::{self, Context, JudgeOptions, Options};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `--step` and `--result`, which `validate` and `apply` read the same way.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// The orchestrator's step JSON (`schemas/step.schema.json`), or `-` for stdin.
    #[arg(long, value_name = "STEP")]
    pub step: String,
    /// The executor's result JSON (`schemas/execute-step.schema.json`), or `-` for stdin.
    #[arg(long, value_name = "RESULT")]
    pub result: String,
    /// Leading path components to strip from the patch's names, as `git apply -pN`: 1 drops
    /// git's `a/`/`b/`; 0 reads bare paths (`--- src/x.rs`) as written.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub strip: usize,
}

impl InputArgs {
    /// How to parse the patch.
    pub fn parse_options(&self) -> patchgate::patch::ParseOptions {
        patchgate::patch::ParseOptions { strip: self.strip, ..Default::default() }
    }

    /// The parsed step (an orchestrator mistake is exit 2) and the raw result bytes (an
    /// executor mistake is a verdict, judged later).
    pub fn read(&self) -> Result<(patchgate::step::Step, Vec<u8>), CliError> {
        if self.step == "-" && self.result == "-" {
            return Err(CliError::input("usage", "only one of --step and --result can be '-'"));
        }
        let step = validate::read_step(&read_input(&self.step, "step")?).map_err(|e| {
            CliError::input("invalid_step", format!("{} (in '{}')", one_line(&e), self.step))
        })?;
        Ok((step, read_input(&self.result, "result")?))
    }
}

/// Arguments of `patchgate validate`.
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
    /// Seconds the judge may take before it is killed (exit 3).
    #[arg(long, value_name = "SECS", default_value_t = 60, requires = "judge")]
    judge_timeout: u64,
    /// Do not keep a rejected result for `patchgate review`.
    #[arg(long)]
    no_record: bool,
    /// Check the patch alone, without a repository (no apply check, no `expect`); without
    /// this flag, validate refuses to run where no repository is found.
    #[arg(long, conflicts_with = "check_cmd")]
    no_repo: bool,
    #[command(flatten)]
    scratch: super::apply::ScratchArgs,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let (step, result) = args.input.read()?;
    if args.no_repo {
        if global.repo.is_some() {
            return Err(CliError::input("usage", "--repo and --no-repo contradict each other"));
        }
        return judge(args, global, &step, &result, None);
    }
    let Some(repo) = open_repo(global.repo.as_deref())? else {
        return Err(CliError::failure(
            "no_repository",
            "no git repository here, so the patch cannot be checked against its base: pass \
             --repo DIR, or --no-repo to check the patch alone",
        ));
    };
    judge(args, global, &step, &result, Some(&repo))
}

/// Validate against `repo` (or the patch alone), record a rejection, print the verdict.
fn judge(
    args: &Args,
    global: &Global,
    step: &patchgate::step::Step,
    result: &[u8],
    repo: Option<&git2::Repository>,
) -> CliResult {
    let config = load_config(repo)?;
    let ctx = Context { step, result, config: &config, repo };
    let report = validate::validate(&ctx, &options(args)).map_err(CliError::from)?;
    super::review::record_after_validate(args.no_record, &ctx, &report, global.format);
    if let Some(path) = &args.report {
        write_report(path, &report_json(&report))?;
    }
    match global.format.unwrap_or(Format::Json) {
        Format::Json => outln!("{}", verdict_json(&report)),
        Format::Text => {
            let patch = patch_text(result);
            out!("{}", verdict_text(&report, patch.as_deref(), &args.input.result));
        }
    }
    Ok(if report.verdict.valid { Exit::Accepted } else { Exit::Rejected })
}

fn options(args: &Args) -> Options {
    let judge = args.judge.as_ref().map(|command| JudgeOptions {
        command: command.clone(),
        timeout: Duration::from_secs(args.judge_timeout),
    });
    Options { judge, parse: args.input.parse_options(), scratch: args.scratch.options() }
}

/// `--repo DIR` must be a repository; without it, no repository around the current directory
/// is fine (the repository checks are skipped and the text report says so).
fn open_repo(dir: Option<&Path>) -> Result<Option<git2::Repository>, CliError> {
    match dir {
        Some(dir) => patchgate::repo::discover(Some(dir))
            .map(Some)
            .map_err(|e| CliError::input("repository", e.message)),
        None => Ok(patchgate::repo::discover(None).ok()),
    }
}

pub(super) fn load_config(repo: Option<&git2::Repository>) -> Result<Config, CliError> {
    match repo.and_then(git2::Repository::workdir) {
        Some(root) => {
            Config::load(root).map_err(|e| CliError::input("invalid_config", one_line(&e)))
        }
        None => Ok(Config::default()),
    }
}

pub(super) fn write_report(path: &Path, json: &str) -> Result<(), CliError> {
    std::fs::write(path, format!("{json}\n")).map_err(|e| {
        CliError::failure(
            "io",
            format!("cannot write the report to '{}': {e}; check the directory", path.display()),
        )
    })
}

/// The result's `patch` field, for pointing diagnostics at its lines.
pub(super) fn patch_text(result: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(result).ok()?;
    value.get("patch")?.as_str().map(str::to_owned)
}
