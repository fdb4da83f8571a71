//! Command-line front end: parse arguments, read inputs, call the library, print through
//! `patchgate::report`, map to an exit code. One file per command.

mod guard;
mod input;
mod parse;

use clap::{Parser, Subcommand, ValueEnum};
use patchgate::report::{Envelope, Exit, to_json_line};
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) use input::read_input;

/// The gate between LLM coding agents and a git repository.
#[derive(Debug, Parser)]
#[command(name = "patchgate", version, about, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

/// Options every command takes.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Global {
    /// The repository (default: the one around the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Output format (each command has its own default).
    #[arg(long, global = true, value_enum)]
    pub format: Option<Format>,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// One JSON document on stdout.
    Json,
    /// Human-readable text.
    Text,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse a unified diff strictly: files, hunks and +/- counts, or every defect with its line.
    Parse(parse::Args),
    /// Check one agent tool call (stdin) before it runs: missing paths with the parent listing
    /// and likely intended files, traversal, paths outside the workspace, hook bypasses.
    Guard(guard::Args),
}

/// A command that could not run: exit 2 (input refused) or 3 (could not do its job).
#[derive(Debug)]
pub(crate) struct CliError {
    pub exit: Exit,
    /// Stable code for the JSON envelope (`usage`, `io`, `repository`, ...).
    pub code: &'static str,
    /// One human line: what is wrong and what to do.
    pub message: String,
}

impl CliError {
    /// The input itself is refused (exit 2).
    pub fn input(code: &'static str, message: impl Into<String>) -> Self {
        Self { exit: Exit::InputRefused, code, message: message.into() }
    }

    /// patchgate could not do its job (exit 3).
    #[allow(dead_code, reason = "the repository commands use it")]
    pub fn failure(code: &'static str, message: impl Into<String>) -> Self {
        Self { exit: Exit::Failure, code, message: message.into() }
    }
}

pub(crate) type CliResult = Result<Exit, CliError>;

pub(crate) fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { Exit::InputRefused.code() } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let global = cli.global.clone();
    let outcome = match cli.command {
        Command::Parse(args) => parse::run(&args, &global),
        Command::Guard(args) => Ok(guard::run(&args, &global)),
    };
    match outcome {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(err) => {
            eprintln!("patchgate: error: {}", err.message);
            if global.format == Some(Format::Json) {
                let env = Envelope::failure(err.code, &err.message, serde_json::Map::new());
                println!("{}", to_json_line(&env));
            }
            ExitCode::from(err.exit.code())
        }
    }
}
