//! `patchgate paths --root DIR PATH...`: the executor output contract's `validateFilePaths` as a
//! command.

use super::{CliResult, Format, Global, Stream, contract::sandbox_root};
use patchgate::contract::filter_paths;
use patchgate::report::{Exit, PathsReport, paths_text};
use std::path::PathBuf;

// Arguments of `patchgate paths`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The root the paths are relative to (default: the repository root, else the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The paths an agent reported.
    #[arg(required = true, allow_hyphen_values = true)]
    paths: Vec<String>,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let root = sandbox_root(args.root.as_deref(), global)?;
    let filter = filter_paths(&args.paths, &root);
    let report = PathsReport::new(filter);
    match global.format.unwrap_or(Format::Json) {
        Format::Json => global.print_json(&report),
        Format::Text => out!("{}", paths_text(&report, &global.text(Stream::Stdout))),
    }
    Ok(if report.ok { Exit::Accepted } else { Exit::Rejected })
}
