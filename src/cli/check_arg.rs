//! `patchgate check-arg --type TYPE VALUE`: the argument-rejection requirement's
//! hallucinated-argument rejection and the agent contract's input validation, as one command
//! printing the `INVALID_AGENT_INPUT` envelope.

use super::values::code_parser;
use super::{CliError, CliResult, Format, Global, contract};
use patchgate::contract::{ArgOptions, ArgOutcome, ArgPolicy, ArgType, check_allowed_dir};
use patchgate::finding::ErrorCode;
use patchgate::report::{Exit, arg_envelope, message, to_json_line};

// Arguments of `patchgate check-arg`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The declared type of the argument.
    #[arg(long = "type", value_name = "TYPE",
        value_parser = code_parser(ArgType::ALL, ArgType::as_str, TYPE_HELP))]
    arg_type: ArgType,
    /// The value to check (may start with '-').
    #[arg(allow_hyphen_values = true)]
    value: String,
    /// `ticket_id`: the kind the id must be (initiative, epic, story, task, bug, or a kind from
    /// `[contract.ticket_patterns]`).
    #[arg(long, value_name = "KIND")]
    expect_kind: Option<String>,
    /// `operation`: the agent whose operations apply (default: any registered agent).
    #[arg(long, value_name = "NAME")]
    agent: Option<String>,
    /// `path`: a directory the path must lie in (repeatable; adds to `[contract] allowed_dirs`).
    #[arg(long = "allow-dir", value_name = "DIR")]
    allow_dir: Vec<String>,
}

/// `--type`'s values, as `--help` describes them.
const TYPE_HELP: &[(ArgType, &str)] = &[
    (ArgType::Path, "A file-system path (absolute paths pass)"),
    (ArgType::ResourceId, "An opaque resource id"),
    (ArgType::Identifier, "A name without separators"),
    (ArgType::TicketId, "A ticket id (the agent contract's ticket patterns)"),
    (ArgType::Branch, "A git branch name"),
    (ArgType::Operation, "An agent operation"),
];

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let ty = args.arg_type;
    let policy = contract::policy(global)?;
    let options = options(args, ty, &policy)?;
    let outcome = policy.check(ty, &args.value, &options);
    match global.format.unwrap_or(Format::Json) {
        Format::Json => outln!("{}", to_json_line(&arg_envelope(&outcome, global.meta()))),
        Format::Text => {
            if let ArgOutcome::Accepted(a) = &outcome {
                outln!("{}", a.value);
            }
        }
    }
    match outcome {
        ArgOutcome::Accepted(_) => Ok(Exit::Accepted),
        ArgOutcome::Rejected(r) => {
            eprintln!("{}", message::plain(&format!("INVALID_AGENT_INPUT: {}", r.message)));
            Ok(Exit::InputRefused)
        }
    }
}

/// The per-call options, refusing options that do not belong to the type (exit 2).
fn options(args: &Args, ty: ArgType, policy: &ArgPolicy) -> Result<ArgOptions, CliError> {
    let misplaced = |flag: &str, owner: ArgType| {
        CliError::new(
            ErrorCode::Usage,
            format!("{flag} only applies to --type {owner}, not --type {ty}"),
        )
    };
    if args.expect_kind.is_some() && ty != ArgType::TicketId {
        return Err(misplaced("--expect-kind", ArgType::TicketId));
    }
    if args.agent.is_some() && ty != ArgType::Operation {
        return Err(misplaced("--agent", ArgType::Operation));
    }
    if !args.allow_dir.is_empty() && ty != ArgType::Path {
        return Err(misplaced("--allow-dir", ArgType::Path));
    }
    if let Some(kind) = &args.expect_kind
        && !policy.ticket_kinds().any(|k| k == kind)
    {
        let kinds: Vec<&str> = policy.ticket_kinds().collect();
        return Err(CliError::new(
            ErrorCode::Usage,
            format!(
                "unknown ticket kind '{kind}' for --expect-kind; use one of: {}",
                kinds.join(", ")
            ),
        ));
    }
    for dir in &args.allow_dir {
        check_allowed_dir(dir).map_err(|r| {
            CliError::new(
                ErrorCode::Usage,
                format!("--allow-dir '{dir}' is not a usable directory: {}", r.message),
            )
        })?;
    }
    Ok(ArgOptions {
        allow_dirs: args.allow_dir.clone(),
        expect_kind: args.expect_kind.clone(),
        agent: args.agent.clone(),
    })
}
