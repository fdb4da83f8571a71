//! `patchgate parse PATCH`: parse strictly, print the files and hunks or every defect.

use super::{
    CliError, CliResult, Format, Global, Stream, limit_error, policy_limits, read_input_within,
};
use patchgate::config::Limits;
use patchgate::patch::{ParseOptions, Parsed, parse};
use patchgate::report::{Exit, ParseSummary, parse_text, write_parse_envelope};
use patchgate::validate::{check_patch_entries, check_patch_text};

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
    // Bounded as `validate` bounds a patch: size and line length before parsing, entries,
    // hunks and paths after (a 1M-file patch once took 4 GB to summarise).
    let limits = policy_limits(global.repo.as_deref())?;
    let bytes = read_input_within(&args.patch, "patch", &limits)?;
    let options =
        ParseOptions { is_strict: !args.lenient, strip: args.strip, ..ParseOptions::default() };
    let parsed = parse_within(&bytes, &options, &limits)?;
    let summary = ParseSummary::new(&parsed);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => {
            global.print_envelope_by(|out, meta| write_parse_envelope(out, &summary, &[], meta));
        }
        Format::Text => out!("{}", parse_text(&summary, &args.patch, &global.text(Stream::Stdout))),
    }
    Ok(if parsed.is_ok() { Exit::Accepted } else { Exit::Rejected })
}

/// Parse `bytes` within `limits` as `validate` bounds a patch: size and line length before
/// parsing, entries, hunks and paths after; over a bound is refused input (`limit_exceeded`).
pub(crate) fn parse_within<'a>(
    bytes: &'a [u8],
    options: &ParseOptions,
    limits: &Limits,
) -> Result<Parsed<'a>, CliError> {
    check_patch_text(limits, bytes, "the patch").map_err(|e| limit_error(&e))?;
    let parsed = parse(bytes, options);
    check_patch_entries(limits, &parsed.patch).map_err(|e| limit_error(&e))?;
    Ok(parsed)
}
