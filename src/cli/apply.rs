//! `patchgate apply --step STEP --result RESULT [--index]`: validate, and only if valid write the
//! patched files into the worktree (and index), all or nothing.

use super::{CliError, CliResult, Format, Global, read_input};
use patchgate::config::Config;
use patchgate::patch::{ParseOptions, parse};
use patchgate::report::{Exit, report_text, to_json_line};
use patchgate::rule::{Report, RuleId, Violation};
use patchgate::scratch::{self, BaseTree, FileChange, ScratchError, ScratchPolicy};
use patchgate::step::{ExecutorResult, Step};
use std::path::Path;
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
    /// The step JSON, or `-` for standard input.
    #[arg(long, value_name = "STEP")]
    step: String,
    /// The executor result JSON, or `-` for standard input.
    #[arg(long, value_name = "RESULT")]
    result: String,
    /// Also stage the changes in the index.
    #[arg(long)]
    index: bool,
    #[command(flatten)]
    scratch: ScratchArgs,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let step: Step = read_json(&args.step, "step")?;
    let result: ExecutorResult = read_json(&args.result, "result")?;
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::failure("repository", e.message))?;
    let root = patchgate::repo::workdir(&repo)
        .map_err(|e| CliError::failure("repository", e.message))?
        .to_owned();
    let policy = load_policy(&root)?;
    let (report, changes) = validate(&repo, &step, &result, &policy, &args.scratch)?;
    if !report.verdict.valid {
        print_report(&report, global, &args.result);
        return Ok(Exit::Rejected);
    }
    write(&repo, &root, &step, args, &changes)?;
    let names: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    let staged = if args.index { " and the index" } else { "" };
    let reason = format!("applied to the worktree{staged}: {}", names.join(", "));
    let applied = Report::from_violations(Vec::new(), report.notes, &reason);
    print_report(&applied, global, &args.result);
    Ok(Exit::Accepted)
}

fn read_json<T: serde::de::DeserializeOwned>(arg: &str, what: &str) -> Result<T, CliError> {
    let bytes = read_input(arg, what)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        CliError::input(
            "invalid_input",
            format!("the {what} '{arg}' is not valid {what} JSON: {e}"),
        )
    })
}

/// The `[scratch]` table of the repository's `.patchgate.toml`.
pub(crate) fn load_policy(root: &Path) -> Result<ScratchPolicy, CliError> {
    Config::load(root)
        .and_then(|c| c.section("scratch"))
        .map_err(|e| CliError::input("invalid_config", e.to_string()))
}

/// A library error as the CLI reports it: a bad base or `expect` regex is refused input.
pub(crate) fn scratch_error(e: &ScratchError) -> CliError {
    match e {
        ScratchError::BadBase { .. } | ScratchError::BadExpect { .. } => {
            CliError::input("invalid_input", e.to_string())
        }
        ScratchError::Interrupted => CliError::failure("interrupted", e.to_string()),
        _ => CliError::failure("repository", e.to_string()),
    }
}

/// Parse the patch strictly and run the repository check.
fn validate(
    repo: &git2::Repository,
    step: &Step,
    result: &ExecutorResult,
    policy: &ScratchPolicy,
    args: &ScratchArgs,
) -> Result<(Report, Vec<FileChange>), CliError> {
    let text = result.patch.as_deref().unwrap_or_default().as_bytes();
    let parsed = parse(text, &ParseOptions::default());
    if !parsed.is_ok() || parsed.patch.files.is_empty() || !result.success {
        let violations = parsed
            .defects
            .iter()
            .map(|d| {
                Violation::new(RuleId::Malformed, d.code.as_str(), d.message.clone())
                    .at(None, Some(d.span.line))
            })
            .chain((!result.success).then(|| {
                Violation::new(
                    RuleId::Declared,
                    "not_successful",
                    "the result reports failure; there is nothing to apply",
                )
            }))
            .collect::<Vec<_>>();
        let violations = if violations.is_empty() {
            vec![Violation::new(RuleId::Declared, "empty_patch", "the result carries no patch")]
        } else {
            violations
        };
        return Ok((Report::from_violations(violations, Vec::new(), ""), Vec::new()));
    }
    let ctx = scratch::Context { repo, patch: &parsed.patch, step, policy };
    let outcome = scratch::check(&ctx, &args.options()).map_err(|e| scratch_error(&e))?;
    let report = Report::from_violations(outcome.violations, outcome.notes, "valid");
    Ok((report, outcome.changes))
}

/// Refuse over uncommitted edits, then write all or nothing.
fn write(
    repo: &git2::Repository,
    root: &Path,
    step: &Step,
    args: &Args,
    changes: &[FileChange],
) -> Result<(), CliError> {
    let rev = args.scratch.base.as_deref().or(step.base.as_deref()).unwrap_or("HEAD");
    let base = BaseTree::resolve(repo, rev).map_err(|e| scratch_error(&e))?;
    let dirty =
        scratch::dirty_files(&base, root, changes, args.index).map_err(|e| scratch_error(&e))?;
    if !dirty.is_empty() {
        return Err(CliError::failure(
            "worktree_dirty",
            format!(
                "uncommitted changes in {} would be overwritten; commit or stash them, then run apply again",
                dirty.join(", ")
            ),
        ));
    }
    scratch::apply_to_worktree(&base, root, changes, args.index)
        .map_err(|e| CliError::failure("write_failed", e.to_string()))
}

fn print_report(report: &Report, global: &Global, patch_name: &str) {
    match global.format.unwrap_or(Format::Json) {
        Format::Json => println!("{}", to_json_line(&report.verdict)),
        Format::Text => print!("{}", report_text(report, patch_name)),
    }
}
