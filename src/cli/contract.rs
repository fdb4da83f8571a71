//! `patchgate contract executor-output` and `contract agent`, and the root and `[contract]` policy every contract command reads.

use super::{CliError, CliResult, Format, Global, Stream, policy_limits, read_input_within};
use patchgate::config::Config;
use patchgate::contract::{
    AgentExpect, ArgPolicy, ContractConfig, ExecutorOptions, check_agent_reply,
    check_executor_output,
};
use patchgate::finding::ErrorCode;
use patchgate::report::{Exit, executor_text, findings_text};
use std::path::{Path, PathBuf};

/// The directory commands resolve relative paths and `.patchgate.toml` against: the working
/// tree around `--repo DIR` (or the current directory), else that directory itself, so the
/// contract commands also work outside a repository.
pub(crate) fn root(global: &Global) -> Result<PathBuf, CliError> {
    let start = match &global.repo {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| {
            CliError::new(
                ErrorCode::Io,
                format!("cannot read the current directory: {e}; pass --repo DIR"),
            )
        })?,
    };
    let workdir = patchgate::repo::discover(Some(&start))
        .ok()
        .and_then(|repo| repo.workdir().map(std::path::Path::to_path_buf));
    Ok(workdir.unwrap_or(start))
}

/// The `[contract]` table of the root's `.patchgate.toml` (defaults when there is none).
pub(crate) fn config(global: &Global) -> Result<ContractConfig, CliError> {
    let root = root(global)?;
    Ok(Config::load(&root)?.section::<ContractConfig>("contract")?)
}

/// The argument policy from `[contract]`.
pub(crate) fn policy(global: &Global) -> Result<ArgPolicy, CliError> {
    Ok(ArgPolicy::from_config(&config(global)?)?)
}

// Arguments of `patchgate contract`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Check an executor's whole reply against the executor's JSON-only contract: exactly one final
    /// ```json block with status, files_created, files_updated, changes, neededChanges, summary.
    ExecutorOutput(ExecutorArgs),
    /// Check an agent's reply against the agent envelope (status, agent, version, operation or
    /// `error_type`, result, warnings, metadata) and its data-type rules.
    Agent(AgentArgs),
}

// Arguments of `patchgate contract executor-output`.
#[derive(Debug, clap::Args)]
struct ExecutorArgs {
    /// The reply file, or `-` for standard input.
    reply: String,
    /// The sandbox root the reply's paths are relative to (default: the repository root, else
    /// the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Accept prose before the JSON block.
    #[arg(long)]
    allow_preamble: bool,
    /// Make every filtered path a violation (exit 1).
    #[arg(long)]
    strict_paths: bool,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    match &args.command {
        Sub::ExecutorOutput(a) => run_executor(a, global),
        Sub::Agent(a) => run_agent(a, global),
    }
}

fn run_executor(args: &ExecutorArgs, global: &Global) -> CliResult {
    let root = sandbox_root(args.root.as_deref(), global)?;
    let limits = policy_limits(global.repo.as_deref())?;
    let bytes = read_input_within(&args.reply, "reply", &limits)?;
    let options = ExecutorOptions {
        allow_preamble: args.allow_preamble,
        strict_paths: args.strict_paths,
        max_paths: Some(limits.files),
    };
    let outcome = check_executor_output(&bytes, &root, options);
    match global.format.unwrap_or(Format::Json) {
        Format::Json => global.print_json(&outcome),
        Format::Text => {
            out!("{}", executor_text(&outcome, &args.reply, &global.text(Stream::Stdout)));
        }
    }
    Ok(if outcome.ok { Exit::Accepted } else { Exit::Rejected })
}

/// `--root DIR` when given (it must be a directory), else [`root`].
pub(crate) fn sandbox_root(given: Option<&Path>, global: &Global) -> Result<PathBuf, CliError> {
    let Some(dir) = given else {
        return root(global);
    };
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    Err(CliError::new(
        ErrorCode::Usage,
        format!(
            "--root '{}' is not a directory; pass the sandbox root the paths are relative to",
            dir.display()
        ),
    ))
}

// Arguments of `patchgate contract agent`.
#[derive(Debug, clap::Args)]
struct AgentArgs {
    /// The reply file, or `-` for standard input.
    reply: String,
    /// The agent that must have answered (`agent` must equal it).
    #[arg(long, value_name = "NAME")]
    agent: String,
    /// The operation that was requested (`operation` must equal it).
    #[arg(long, value_name = "OP")]
    operation: Option<String>,
}

fn run_agent(args: &AgentArgs, global: &Global) -> CliResult {
    let policy = policy(global)?;
    let limits = policy_limits(global.repo.as_deref())?;
    let bytes = read_input_within(&args.reply, "reply", &limits)?;
    let expect = AgentExpect {
        agent: args.agent.clone(),
        operation: args.operation.clone(),
        max_list: Some(limits.files),
    };
    let outcome = check_agent_reply(&bytes, &expect, &policy);
    match global.format.unwrap_or(Format::Json) {
        Format::Json => global.print_json(&outcome),
        Format::Text => {
            let text = global.text(Stream::Stdout);
            out!("{}", findings_text(&args.reply, &outcome.violations, &outcome.warnings, &text));
        }
    }
    Ok(if outcome.ok { Exit::Accepted } else { Exit::Rejected })
}
