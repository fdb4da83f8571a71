//! `patchgate parse PATCH`: parse strictly, print the files and hunks or every defect.

use super::{CliResult, Format, Global, Stream, read_input};
use patchgate::patch::{ParseOptions, parse};
use patchgate::report::{Exit, ParseSummary, parse_text};

// Arguments of `patchgate parse`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The patch file, or `-` for standard input (the default).
    #[arg(default_value = "-")]
    patch: String,
    /// Tolerate text outside file entries (markdown fences, chat); still reported as warnings.
    #[arg(long)]
    lenient: bool,
    /// Leading path components to strip from names, as `git apply -pN`.
    #[arg(long, value_name = "N", default_value_t = 1)]
    strip: usize,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let bytes = read_input(&args.patch, "patch")?;
    let options =
        ParseOptions { is_strict: !args.lenient, strip: args.strip, ..ParseOptions::default() };
    let parsed = parse(&bytes, &options);
    let summary = ParseSummary::new(&parsed);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&summary),
        Format::Text => out!("{}", parse_text(&summary, &args.patch, &global.text(Stream::Stdout))),
    }
    Ok(if parsed.is_ok() { Exit::Accepted } else { Exit::Rejected })
}
