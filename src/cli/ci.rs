//! `patchgate ci BASE..HEAD`: the pre-receive check for a range of commits, where hosted git
//! runs no server hooks (a GitHub Actions workflow, a GitLab CI job).

use super::{CliError, CliResult, Format, Global};
use patchgate::hook::range::check_range;
use patchgate::hook::staged::open;
use patchgate::report::Exit;
use patchgate::report::hook::{ReceiveReport, receive_text};

// Arguments of `patchgate ci`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The commits to check, as git names a range: `BASE..HEAD` (reachable from HEAD, not from
    /// BASE) or `BASE...HEAD` (since their merge base). The policy is BASE's.
    #[arg(value_name = "BASE..HEAD")]
    range: String,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let repo = open(global.repo.as_deref()).map_err(CliError::from)?;
    let checked = check_range(&repo, &args.range).map_err(CliError::from)?;
    let report = ReceiveReport::range(&checked.policy, &checked.commits, &checked.refused);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        Format::Text if report.allowed => {
            let n = report.commits.len();
            global.say(&patchgate::report::message::plain(&format!(
                "patchgate ci: {n} commit(s) of {} allowed",
                args.range
            )));
        }
        Format::Text => eprint!("{}", receive_text(&report)),
    }
    Ok(if report.allowed { Exit::Accepted } else { Exit::Rejected })
}
