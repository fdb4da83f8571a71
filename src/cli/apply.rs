//! `patchgate apply --step STEP --result RESULT [--index]`: validate, and only if valid write the
//! patched files into the worktree (and index), all or nothing.

use super::common::{
    self, InputArgs, RepairArgs, ScratchArgs, StripArgs, print_verdict, write_report,
};
use super::{CliError, CliResult, Format, Global};
use patchgate::finding::ErrorCode;
use patchgate::report::{Envelope, Exit, report_json, to_json_line};
use patchgate::scratch::{self, Recovery};

// Arguments of `patchgate apply`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    input: Option<InputArgs>,
    #[command(flatten)]
    strip: StripArgs,
    /// Also write the full report (every violation and note) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<std::path::PathBuf>,
    /// Also stage the changes in the index.
    #[arg(long)]
    index: bool,
    #[command(flatten)]
    scratch: ScratchArgs,
    #[command(flatten)]
    repair: RepairArgs,
    /// Undo an apply that was killed mid-write (its journal is in the git directory): every
    /// file back as before, the index too, leftover temporary and backup files removed.
    #[arg(long, conflicts_with_all = [
        "step", "result", "strip", "report", "index", "base", "check_cmd", "check_timeout",
        "repair", "repaired_out",
    ])]
    recover: bool,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())?;
    // A bare repository has nowhere to apply to: say so before validating.
    let root = patchgate::repo::workdir(&repo)?;
    if args.recover {
        return recover(&repo, root, global);
    }
    if let Some(path) = scratch::pending_apply(repo.path()) {
        let e = scratch::JournalError::Pending { path };
        return Err(CliError::new(ErrorCode::InterruptedApply, e.to_string()));
    }
    let Some(input) = &args.input else {
        return Err(CliError::new(
            ErrorCode::Usage,
            "apply needs --step and --result (or --recover)",
        ));
    };
    let (step, result) = input.read()?;
    let run = common::run_of(&args.strip, &args.scratch, &args.repair);
    let ran = run.apply(&step, result, &repo, args.index).map_err(CliError::from)?;
    args.repair.write(&ran)?;
    if let Some(path) = &args.report {
        write_report(path, &report_json(&ran.outcome.report))?;
    }
    print_verdict(&ran.outcome, global, &input.result);
    Ok(if ran.is_written { Exit::Accepted } else { Exit::Rejected })
}

/// `apply --recover`: one JSON object (or line) saying what was done; exit 3 when something
/// was left as found (named in the message).
fn recover(repo: &git2::Repository, root: &std::path::Path, global: &Global) -> CliResult {
    let outcome = scratch::recover(repo, root).map_err(|e| {
        let code = match e {
            scratch::WorktreeError::Journal(scratch::JournalError::Refused { .. }) => {
                ErrorCode::JournalRefused
            }
            _ => ErrorCode::RecoverFailed,
        };
        CliError::new(code, e.to_string())
    })?;
    let (name, message) = match outcome.recovery {
        Recovery::RolledBack => (
            "rolled_back",
            "an interrupted apply was rolled back; every file it wrote is as before it",
        ),
        Recovery::Completed => {
            ("completed", "an interrupted apply had written everything; its backups were removed")
        }
        _ => ("nothing_to_do", "no interrupted apply to recover"),
    };
    if !outcome.kept.is_empty() {
        let kept: Vec<String> =
            outcome.kept.iter().map(|k| format!("'{}' ({})", k.path, k.reason)).collect();
        let message = format!(
            "{}, except {} entr(ies) it cannot show the apply made, left as found: {}; check them",
            message.split(';').next().unwrap_or(message),
            kept.len(),
            kept.join(", ")
        );
        return Err(CliError::new(ErrorCode::RecoverIncomplete, message));
    }
    let replaced = outcome.replaced_index.as_ref().map(|p| p.display().to_string());
    match global.format.unwrap_or(Format::Json) {
        Format::Json => {
            let data = serde_json::json!({"recovered": name, "message": message,
                "replaced_index": replaced});
            outln!("{}", to_json_line(&Envelope::success(data, global.meta())));
        }
        Format::Text => outln!("{message}"),
    }
    Ok(Exit::Accepted)
}
