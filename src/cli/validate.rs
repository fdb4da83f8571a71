//! `patchgate validate --step STEP --result RESULT`: judge one executor result against its step
//! and print the execute-step validator's `{"valid", "reason"}` verdict (or text diagnostics);
//! with `--batch`, many results in one run (`super::batch`), each under the [`Run`] the same
//! flags describe.

use super::common::{
    self, InputArgs, RepairArgs, ScratchArgs, StripArgs, print_verdict, write_report,
};
use super::{CliError, CliResult, Format, Global};
use patchgate::finding::ErrorCode;
use patchgate::judge::{Model, When};
use patchgate::report::{Exit, message, report_json};
use patchgate::validate::{JudgeChoice, Run};
use std::path::{Path, PathBuf};

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
    pub batching: BatchArgs,
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
    no_record: bool,
    /// Check the patch alone, without a repository (no apply check, no `expect`); without
    /// this flag, validate refuses to run where no repository is found.
    #[arg(long, conflicts_with = "check_cmd")]
    pub no_repo: bool,
    #[command(flatten)]
    scratch: ScratchArgs,
    #[command(flatten)]
    repair: RepairArgs,
}

/// `--no-repo` with `--repo` is a usage error, for one result or a batch.
pub(super) fn check_repo_flags(args: &Args, global: &Global) -> Result<(), CliError> {
    if args.no_repo && global.repo.is_some() {
        return Err(CliError::new(ErrorCode::Usage, "--repo and --no-repo contradict each other"));
    }
    Ok(())
}

// The arguments only `--batch` takes.
#[derive(Debug, clap::Args)]
pub(crate) struct BatchArgs {
    /// With --batch: results judged at once (default: the machine's cores).
    #[arg(long, value_name = "N", requires = "batch")]
    pub jobs: Option<usize>,
    /// With --batch: each answer line also carries the full report, as --report writes it.
    #[arg(long, requires = "batch")]
    pub with_report: bool,
    /// With --batch: the longest input line kept, in bytes; a longer one is answered with
    /// `line_too_long` without being read into memory.
    #[arg(long, value_name = "BYTES", requires = "batch", default_value_t = 128 << 20)]
    pub max_line_bytes: usize,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    check_repo_flags(args, global)?;
    let Some(input) = &args.input else {
        return Err(CliError::new(
            ErrorCode::Usage,
            "validate needs --step and --result (or --batch)",
        ));
    };
    let (step, result) = input.read()?;
    let repo = if args.no_repo {
        None
    } else {
        let Some(repo) = open_repo(global.repo.as_deref())? else {
            return Err(CliError::new(
                ErrorCode::NoRepository,
                "no git repository here, so the patch cannot be checked against its base: pass \
                 --repo DIR, or --no-repo to check the patch alone",
            ));
        };
        Some(repo)
    };
    let mut run = run_of(args);
    run.is_full_summary = args.report.is_some() || global.format == Some(Format::Text);
    let ran = run.execute(&step, result, repo.as_ref()).map_err(CliError::from)?;
    args.repair.write(&ran)?;
    if let Some(line) = message::recording(&ran.recording, global.format == Some(Format::Text)) {
        global.say(&line);
    }
    if let Some(path) = &args.report {
        write_report(path, &report_json(&ran.outcome.report))?;
    }
    print_verdict(&ran.outcome, global, &input.result);
    Ok(if ran.outcome.report.verdict.valid { Exit::Accepted } else { Exit::Rejected })
}

/// The run the flags describe (for one result, or for every line of a batch).
pub(super) fn run_of(args: &Args) -> Run {
    let judge = match &args.judge {
        Some(command) => {
            JudgeChoice::Command { command: command.clone(), timeout: args.judge_timeout }
        }
        None => JudgeChoice::Model {
            model: args.judge_model.as_ref().map(ToString::to_string),
            when: args
                .judge_when
                .as_deref()
                .map(|w| if w == "always" { When::Always } else { When::Uncertain }),
            timeout: args.judge_timeout,
        },
    };
    Run {
        judge,
        record: !args.no_record,
        ..common::run_of(&args.strip, &args.scratch, &args.repair)
    }
}

/// `--repo DIR` must be a repository; without it, no repository around the current directory
/// is fine (the repository checks are skipped and the text report says so).
fn open_repo(dir: Option<&Path>) -> Result<Option<git2::Repository>, CliError> {
    match dir {
        Some(dir) => patchgate::repo::discover(Some(dir)).map(Some).map_err(CliError::from),
        None => Ok(patchgate::repo::discover(None).ok()),
    }
}
