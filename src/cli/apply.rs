//! `patchgate apply --step STEP --result RESULT [--index]`: validate, and only if valid write the
//! patched files into the worktree (and index), all or nothing.

use super::validate::{InputArgs, load_config, patch_text, write_report};
use super::{CliError, CliResult, Format, Global};
use patchgate::config::Config;
use patchgate::patch::{ParseOptions, parse};
use patchgate::report::{Exit, report_json, verdict_json, verdict_text};
use patchgate::rule::Report;
use patchgate::scratch::{self, FileChange, Recovery};
use patchgate::step::Step;
use patchgate::validate::{self, Context, Options};
use std::path::PathBuf;
use std::time::Duration;

/// The repository-check options `validate` and `apply` share.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ScratchArgs {
    /// The revision the patch applies to (default: the step's `base`, else HEAD).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Run `sh -c CMD` in a temporary copy of the patched tree; non-zero exit rejects.
    #[arg(long, value_name = "CMD")]
    pub check_cmd: Option<String>,
    /// Seconds before --check-cmd is killed (default: the `[scratch]` `check_timeout_secs`, 300).
    #[arg(long, value_name = "SECONDS")]
    pub check_timeout: Option<u64>,
}

impl ScratchArgs {
    /// The library's options.
    pub fn options(&self) -> scratch::Options {
        scratch::Options {
            base: self.base.clone(),
            check_cmd: self.check_cmd.clone(),
            check_timeout: self.check_timeout.map(Duration::from_secs),
        }
    }
}

/// Arguments of `patchgate apply`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    input: Option<InputArgs>,
    /// Also write the full report (every violation and note) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Also stage the changes in the index.
    #[arg(long)]
    index: bool,
    #[command(flatten)]
    scratch: ScratchArgs,
    /// Undo an apply that was killed mid-write (its journal is in the git directory): every
    /// file back as before, the index too, leftover temporary and backup files removed.
    #[arg(long, exclusive = true)]
    recover: bool,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::failure("repository", e.message))?;
    // A bare repository has nowhere to apply to: say so before validating.
    let root =
        patchgate::repo::workdir(&repo).map_err(|e| CliError::failure("repository", e.message))?;
    if args.recover {
        return recover(&repo, root, global);
    }
    if let Some(path) = scratch::pending_apply(repo.path()) {
        let e = scratch::JournalError::Pending { path };
        return Err(CliError::failure("interrupted_apply", e.to_string()));
    }
    let Some(input) = &args.input else {
        return Err(CliError::input("usage", "apply needs --step and --result (or --recover)"));
    };
    let (step, result) = input.read()?;
    let config = load_config(Some(&repo))?;
    let ctx = Context { step: &step, result: &result, config: &config, repo: Some(&repo) };
    let parse_options = input.parse_options();
    let options = Options {
        parse: parse_options.clone(),
        scratch: args.scratch.options(),
        ..Options::default()
    };
    let report = validate::validate(&ctx, &options).map_err(CliError::from)?;
    if !report.verdict.valid {
        if let Some(path) = &args.report {
            write_report(path, &report_json(&report))?;
        }
        print_report(&report, global, input, &result);
        return Ok(Exit::Rejected);
    }
    let patch = patch_text(&result).unwrap_or_default();
    let target = Target { repo: &repo, config: &config, step: &step, with_index: args.index };
    land(&target, &patch, &parse_options, &args.scratch.options())?;
    let staged = if args.index { " and the index" } else { "" };
    let reason = format!("{}; applied to the worktree{staged}", report.verdict.reason);
    let applied = Report::from_violations(Vec::new(), report.notes, &reason);
    if let Some(path) = &args.report {
        write_report(path, &report_json(&applied))?;
    }
    print_report(&applied, global, input, &result);
    Ok(Exit::Accepted)
}

/// `apply --recover`: one JSON object (or line) saying what was done.
fn recover(repo: &git2::Repository, root: &std::path::Path, global: &Global) -> CliResult {
    let outcome = scratch::recover(repo, root)
        .map_err(|e| CliError::failure("recover_failed", e.to_string()))?;
    let (name, message) = match outcome {
        Recovery::RolledBack => {
            ("rolled_back", "an interrupted apply was rolled back; every file is as before it")
        }
        Recovery::Completed => {
            ("completed", "an interrupted apply had written everything; its backups were removed")
        }
        _ => ("nothing_to_do", "no interrupted apply to recover"),
    };
    match global.format.unwrap_or(Format::Json) {
        Format::Json => {
            outln!("{}", serde_json::json!({"recovered": name, "message": message}));
        }
        Format::Text => outln!("{message}"),
    }
    Ok(Exit::Accepted)
}

/// Where an accepted patch lands.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub repo: &'a git2::Repository,
    pub config: &'a Config,
    pub step: &'a Step,
    /// Stage the written files too (`--index`).
    pub with_index: bool,
}

/// Land an accepted patch through the scratch library (second check, refusal over
/// uncommitted edits, all-or-nothing write): shared by `apply` and `review apply`.
pub(crate) fn land(
    target: &Target<'_>,
    patch: &str,
    parse_options: &ParseOptions,
    options: &scratch::Options,
) -> Result<Vec<FileChange>, CliError> {
    let Target { repo, config, step, with_index } = *target;
    let root =
        patchgate::repo::workdir(repo).map_err(|e| CliError::failure("repository", e.message))?;
    let parsed = parse(patch.as_bytes(), parse_options);
    let policy = validate::scratch_policy(config).map_err(CliError::from)?;
    let ctx = scratch::Context { repo, patch: &parsed.patch, step, policy: &policy };
    scratch::land(&ctx, options, root, with_index).map_err(CliError::from)
}

fn print_report(report: &Report, global: &Global, input: &InputArgs, result: &[u8]) {
    match global.format.unwrap_or(Format::Json) {
        Format::Json => outln!("{}", verdict_json(report)),
        Format::Text => {
            let patch = patch_text(result);
            out!("{}", verdict_text(report, patch.as_deref(), &input.result));
        }
    }
}
