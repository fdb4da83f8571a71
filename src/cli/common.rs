//! What `validate` and `apply` share: the input, repository-check and repair arguments (the
//! run they describe), and the verdict they print.

use super::errors::one_line;
use super::{CliError, Format, Global, Stream, read_input};
use patchgate::finding::ErrorCode;
use patchgate::report::{verdict_json, verdict_text};
use patchgate::validate::{self, Outcome, Ran, Run};
use std::path::{Path, PathBuf};

// `--step` and `--result`, which `validate` (of one result) and `apply` read the same way.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// The orchestrator's step JSON (`patchgate schema step`), or `-` for stdin.
    #[arg(long, value_name = "STEP")]
    pub step: String,
    /// The executor's result JSON (`patchgate schema execute-step`), or `-` for stdin.
    #[arg(long, value_name = "RESULT")]
    pub result: String,
}

// `--strip`, which `validate` (one result or a batch) and `apply` read the same way.
#[derive(Debug, clap::Args)]
pub(crate) struct StripArgs {
    /// Leading path components to strip from the patch's names, as `git apply -pN`: 1 drops
    /// git's `a/`/`b/`; 0 reads bare paths (`--- src/x.rs`) as written.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub strip: usize,
}

impl InputArgs {
    /// The parsed step (an orchestrator mistake is exit 2) and the raw result bytes (an
    /// executor mistake is a verdict, judged later).
    pub fn read(&self) -> Result<(patchgate::step::Step, Vec<u8>), CliError> {
        if self.step == "-" && self.result == "-" {
            return Err(CliError::new(
                ErrorCode::Usage,
                "only one of --step and --result can be '-'",
            ));
        }
        let step = validate::read_step(&read_input(&self.step, "step")?).map_err(|e| {
            CliError::new(ErrorCode::InvalidStep, format!("{} (in '{}')", one_line(&e), self.step))
        })?;
        Ok((step, read_input(&self.result, "result")?))
    }
}

// The repository-check options `validate` and `apply` share.
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

// `--repair` and `--repaired-out`, which `validate` and `apply` read the same way.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct RepairArgs {
    /// Repair the patch first where that is provably safe (as `patchgate repair`), then judge
    /// the repaired result; an acceptance names the repairs.
    #[arg(long)]
    pub repair: bool,
    /// With --repair: write the result as judged (repaired, or as sent) to FILE.
    #[arg(long, value_name = "FILE", requires = "repair")]
    pub repaired_out: Option<PathBuf>,
}

/// The run the shared flags describe; the judge and the record are each command's own.
pub(super) fn run_of(strip: &StripArgs, scratch: &ScratchArgs, repair: &RepairArgs) -> Run {
    Run {
        strip: strip.strip,
        base: scratch.base.clone(),
        check_cmd: scratch.check_cmd.clone(),
        check_timeout: scratch.check_timeout,
        repair: repair.repair,
        ..Run::default()
    }
}

impl RepairArgs {
    /// `--repaired-out FILE`: the result as judged (repaired, or as sent).
    pub fn write(&self, ran: &Ran<'_>) -> Result<(), CliError> {
        let Some(path) = &self.repaired_out else { return Ok(()) };
        std::fs::write(path, ran.judged_result()).map_err(|e| {
            CliError::new(
                ErrorCode::Io,
                format!("cannot write the repaired result to '{}': {e}", path.display()),
            )
        })
    }
}

/// The verdict on stdout: the one-line JSON (never enveloped: it is the contract), or the text
/// diagnostics over the patch's lines (`origin` names the result).
pub(super) fn print_verdict(outcome: &Outcome<'_>, global: &Global, origin: &str) {
    match global.format.unwrap_or(Format::Json) {
        Format::Json => outln!("{}", verdict_json(&outcome.report)),
        Format::Text => {
            let text = global.text(Stream::Stdout);
            out!("{}", verdict_text(&outcome.report, outcome.patch.as_deref(), origin, &text));
        }
    }
}

/// `--report FILE`: the full report as indented JSON.
pub(super) fn write_report(path: &Path, json: &str) -> Result<(), CliError> {
    std::fs::write(path, format!("{json}\n")).map_err(|e| {
        CliError::new(
            ErrorCode::Io,
            format!("cannot write the report to '{}': {e}; check the directory", path.display()),
        )
    })
}
