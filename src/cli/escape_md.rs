//! `patchgate escape-md [TEXT|-] [--sanitize] [--max-length N]`: the agent contract's
//! `escape_markdown` (and `sanitize_user_input` first with `--sanitize`) for orchestrators that
//! render agent text into markdown reports.

use super::{CliError, CliResult, Format, Global, contract, read_input};
use patchgate::contract::{DEFAULT_MAX_LENGTH, escape_markdown, sanitize};
use patchgate::finding::ErrorCode;
use patchgate::report::{Envelope, Exit, to_json_line};

// Arguments of `patchgate escape-md`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The text itself, or `-` (the default) to read it from standard input.
    #[arg(default_value = "-", allow_hyphen_values = true)]
    text: String,
    /// Sanitize first: refuse text over --max-length characters (exit 2), remove NUL bytes,
    /// turn CRLF and CR into LF.
    #[arg(long)]
    sanitize: bool,
    /// The limit for --sanitize (default: `[contract] max_length`, else 10000).
    #[arg(long, value_name = "N", requires = "sanitize")]
    max_length: Option<usize>,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let text = if args.text == "-" {
        String::from_utf8(read_input("-", "text")?).map_err(|_| {
            CliError::new(ErrorCode::NotUtf8, "the text on standard input is not UTF-8")
        })?
    } else {
        args.text.clone()
    };
    let text = if args.sanitize {
        let limit = match args.max_length {
            Some(n) => n,
            None => contract::config(global)?.max_length.unwrap_or(DEFAULT_MAX_LENGTH),
        };
        sanitize(&text, limit)?
    } else {
        text
    };
    let escaped = escape_markdown(&text);
    match global.format.unwrap_or(Format::Text) {
        Format::Text => out!("{escaped}"),
        Format::Json => {
            let env = Envelope::success(serde_json::json!({ "value": escaped }), global.meta());
            outln!("{}", to_json_line(&env));
        }
    }
    Ok(Exit::Accepted)
}
