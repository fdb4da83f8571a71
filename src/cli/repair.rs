//! `patchgate repair PATCH`: repair what is provably safe to repair, print the repaired patch
//! (stdout or `--output`) and what was repaired (stderr, or the JSON document).

use super::{CliError, CliResult, Format, Global, Stream, read_input};
use patchgate::finding::ErrorCode;
use patchgate::patch::ParseOptions;
use patchgate::repair::{self, Context, Options, Outcome};
use patchgate::report::{Exit, RepairReport, repair_text};
use std::path::PathBuf;

// Arguments of `patchgate repair`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The patch file, or `-` for standard input (the default).
    #[arg(default_value = "-")]
    patch: String,
    /// The revision the patch applies to.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    base: String,
    /// Write the repaired patch to FILE (only when it was proven) instead of stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Repair without a repository: nothing is relocated, no recount that only the base could
    /// confirm, and the result is not checked against a base.
    #[arg(long)]
    no_repo: bool,
    /// Leading path components to strip from names, as `git apply -pN`.
    #[arg(long, value_name = "N", default_value_t = 1)]
    strip: usize,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let bytes = read_input(&args.patch, "patch")?;
    let repo = open_repo(args, global)?;
    let ctx = Context { repo: repo.as_ref(), base: &args.base };
    let options = Options { parse: ParseOptions { strip: args.strip, ..ParseOptions::default() } };
    let outcome = repair::repair(&bytes, &ctx, &options)?;
    if let (Some(path), Some(patch)) = (&args.output, &outcome.patch) {
        std::fs::write(path, patch).map_err(|e| {
            CliError::new(
                ErrorCode::Io,
                format!("cannot write the repaired patch to '{}': {e}", path.display()),
            )
        })?;
    }
    print(args, global, &outcome);
    Ok(if outcome.is_proven() { Exit::Accepted } else { Exit::Rejected })
}

/// `--no-repo`, else `--repo DIR` (which must be a repository), else the repository around
/// the current directory, which must exist: a repair that was not checked against its base
/// must be asked for.
fn open_repo(args: &Args, global: &Global) -> Result<Option<git2::Repository>, CliError> {
    if args.no_repo {
        if global.repo.is_some() {
            return Err(CliError::new(
                ErrorCode::Usage,
                "--repo and --no-repo contradict each other",
            ));
        }
        return Ok(None);
    }
    match &global.repo {
        Some(dir) => patchgate::repo::discover(Some(dir)).map(Some).map_err(CliError::from),
        None => patchgate::repo::discover(None).map(Some).map_err(|_| {
            CliError::new(
                ErrorCode::NoRepository,
                "no git repository here, so the repair cannot be checked against its base: pass \
                 --repo DIR, or --no-repo to repair without a base",
            )
        }),
    }
}

fn print(args: &Args, global: &Global, outcome: &Outcome) {
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&RepairReport::new(outcome)),
        Format::Text => {
            if let (None, Some(patch)) = (&args.output, &outcome.patch) {
                super::write_stdout_bytes(patch);
            }
            eprint!("{}", repair_text(outcome, &args.patch, &global.text(Stream::Stderr)));
        }
    }
}
