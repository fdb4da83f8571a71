//! Command-line front end: parse arguments, read inputs, call the library, print through
//! `patchgate::report`, map to an exit code. One file per command.

/// `print!` to stdout that never panics: see [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!($($arg)*)) };
}

/// `println!` to stdout that never panics: see [`write_stdout`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

mod apply;
mod batch;
mod check_arg;
mod ci;
mod common;
mod contract;
mod declare;
mod errors;
mod escape_md;
mod guard;
mod guard_install;
mod hook;
mod input;
mod mcp;
mod meta;
mod parse;
mod paths;
mod repair;
mod review;
mod terminal;
mod validate;
mod values;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use patchgate::finding::ErrorCode;
use patchgate::report::{Envelope, Exit, Meta, Notice, message, to_json_line, to_json_pretty};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) use input::{limit_error, policy_limits, read_input, read_input_within};
pub(crate) use terminal::{ColorChoice, Stream};

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
    /// When to colour text: `auto` (a terminal, `NO_COLOR` unset or empty, `TERM` not `dumb`),
    /// `always`, `never`. JSON is never coloured.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Quiet: no notes or warnings on stderr, and text output cut to what a script needs;
    /// errors, JSON and exit codes are unchanged.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// The command being run (`review show`), for the envelope's `meta`.
    #[arg(skip)]
    pub command: String,
}

impl Global {
    /// The envelope's `meta` for this command.
    pub fn meta(&self) -> Meta {
        Meta::new(&self.command)
    }

    /// `data` in the envelope, indented, on stdout.
    pub fn print_json<T: Serialize>(&self, data: &T) {
        self.print_json_with(data, &[]);
    }

    /// `data` and `warnings` in the envelope, indented, on stdout: written as it is
    /// serialized, so a large answer never exists whole in memory.
    pub fn print_json_with<T: Serialize>(&self, data: &T, warnings: &[Notice]) {
        self.print_envelope_by(|out, meta| {
            patchgate::report::write_envelope(out, data, warnings, meta)
        });
    }

    /// The envelope `write` writes (given this command's `meta`), then a line break, on stdout
    /// through one buffer.
    pub fn print_envelope_by<F>(&self, write: F)
    where
        F: FnOnce(
            &mut std::io::BufWriter<std::io::StdoutLock<'static>>,
            &Meta,
        ) -> std::io::Result<()>,
    {
        use std::io::Write;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let written = write(&mut out, &self.meta())
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        if written.is_err() {
            // As `write_stdout`: the reader has gone; never exit 0.
            std::process::exit(i32::from(Exit::Failure.code()));
        }
    }
}

/// The success envelope of `data` as `COMMAND --format json` prints it (indented, no final
/// newline): what an MCP tool answers.
pub(crate) fn envelope_json<T: Serialize>(command: &str, data: &T) -> String {
    let mut text = Vec::new();
    patchgate::report::write_envelope(&mut text, data, &[], &Meta::new(command))
        .expect("writing to memory cannot fail");
    String::from_utf8(text).expect("serde_json writes UTF-8")
}

/// `envelope`, indented, on stdout.
pub(crate) fn print_envelope(envelope: &Envelope) {
    outln!("{}", to_json_pretty(envelope));
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// One JSON document on stdout.
    Json,
    /// Human-readable text.
    Text,
}

// Each command's arguments are built only when it runs (`defer`): building all of them was a
// tenth of a small patch's validation. [`full_command`] builds them all.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// Judge one executor result against its step: prints {"valid", "reason"}; exit 0 valid, 1
    /// rejected, 2 bad step, 3 could not evaluate.
    Validate(validate::Args),
    /// Validate a result and, only if valid, write its patch into the worktree (and index with
    /// --index), all or nothing; refuses over uncommitted edits to the touched files.
    Apply(apply::Args),
    /// The git hook: run as pre-commit / pre-applypatch / pre-receive, install, uninstall, status.
    Hook(hook::Args),
    /// The pre-receive check for a range of commits (BASE..HEAD), under BASE's policy, for
    /// hosted git that runs no server hooks (GitHub Actions, GitLab CI): exit 0 allowed, 1
    /// rejected.
    Ci(ci::Args),
    /// Check one agent tool call (stdin) before it runs: missing paths with the parent listing
    /// and likely intended files, traversal, paths outside the workspace, hook bypasses.
    Guard(guard::Args),
    /// Browse and act on rejected results kept in the repository: list (default), show, apply,
    /// export, drop.
    Review(review::Args),
    /// Record which files the current piece of work may change (the git hook enforces it).
    Declare(declare::Args),
    /// Parse a unified diff strictly: files, hunks and +/- counts, or every defect with its line.
    Parse(parse::Args),
    /// Repair what is provably safe in an agent's diff (counts, start lines, blank context,
    /// fences and chat, a missing diff --git line) and prove the result applies: exit 0 and the
    /// repaired patch, or exit 1 and why not.
    Repair(repair::Args),
    /// Reject hallucinated argument patterns (traversal, encodings, `.git`) before any side
    /// effect: exit 0 and the value unchanged, or exit 2 and an `INVALID_AGENT_INPUT` envelope.
    CheckArg(check_arg::Args),
    /// Filter hallucinated paths (absolute, `~`, traversal, missing) with a reason each: exit 0
    /// if every path is kept, 1 if any is filtered.
    Paths(paths::Args),
    /// Check an agent's reply against its output contract (the executor and agent replies).
    Contract(contract::Args),
    /// Escape agent text for markdown reports (--sanitize first removes NUL and control
    /// characters and normalises line ends).
    EscapeMd(escape_md::Args),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    Completions(meta::CompletionsArgs),
    /// Write the man pages (patchgate.1 and one per command) into DIR.
    Man(meta::ManArgs),
    /// Print the JSON Schema NAME (step, execute-step, report, verdict, ...); no NAME: the names.
    Schema(meta::SchemaArgs),
    /// Serve patchgate's checks to an agent over stdio as Model Context Protocol tools (judge a
    /// result, repair or parse a patch, check paths), in the repository of --repo or the
    /// current directory.
    Mcp(mcp::Args),
}

/// A command that could not run: exit 2 (input refused) or 3 (could not do its job), as its
/// code says ([`ErrorCode::is_input_refused`]), so a kind of failure exits alike everywhere.
#[derive(Debug)]
pub(crate) struct CliError {
    /// Stable code for the JSON envelope (`usage`, `io`, `repository`, ...).
    pub code: ErrorCode,
    /// One human line: what is wrong and what to do.
    pub message: String,
    /// Fields the code documents (`rejected_pattern` of `invalid_pattern`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl CliError {
    /// An error with its code and one line saying what to do.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), extra: serde_json::Map::new() }
    }

    /// The exit code: 2 when the input is refused, else 3.
    pub fn exit(&self) -> Exit {
        if self.code.is_input_refused() { Exit::InputRefused } else { Exit::Failure }
    }

    /// The same error with a field its code documents.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    /// The same error, its message prefixed with what was being done.
    #[must_use]
    pub fn context(self, what: &str) -> Self {
        Self { message: format!("{what}: {}", self.message), ..self }
    }
}

pub(crate) type CliResult = Result<Exit, CliError>;

/// Write to stdout. When the reader has gone (`patchgate parse big.diff | head`), end quietly
/// with exit 3 (an I/O failure) instead of panicking as `println!` does; never exit 0, because
/// in hook and guard mode an answer nobody received must not read as "allow".
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if stdout.write_fmt(args).and_then(|()| stdout.flush()).is_err() {
        std::process::exit(i32::from(Exit::Failure.code()));
    }
}

/// Write raw bytes to stdout, with [`write_stdout`]'s handling of a reader that has gone.
pub(crate) fn write_stdout_bytes(bytes: &[u8]) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(bytes).and_then(|()| stdout.flush()).is_err() {
        std::process::exit(i32::from(Exit::Failure.code()));
    }
}

/// The arguments, with the command's name (`review show`) recorded in [`Global`].
fn parse_args() -> Result<Cli, clap::Error> {
    let mut command = Cli::command();
    let matches = command.try_get_matches_from_mut(std::env::args_os());
    // The command tree is built for this one parse and lives until exit: freeing its thousands
    // of small allocations cost as much as parsing with it.
    std::mem::forget(command);
    let mut matches = matches?;
    let mut names = Vec::new();
    let mut at = &matches;
    while let Some((name, sub)) = at.subcommand() {
        names.push(name.to_owned());
        at = sub;
    }
    let mut cli = Cli::from_arg_matches_mut(&mut matches)?;
    cli.global.command = names.join(" ");
    Ok(cli)
}

/// The whole command tree, for completions and man pages. The commands' arguments are deferred
/// until a command is built, and `help`'s copy of the tree (`patchgate help hook install`) is
/// taken when the top command is built, before its commands are: so each command gets its
/// arguments here instead, its deferral dropped. A command missing here would still get its
/// arguments when built, but its own commands (`hook install`) would be missing under `help`.
fn full_command() -> clap::Command {
    use clap::Args;
    fn add<A: Args>(command: clap::Command) -> clap::Command {
        A::augment_args(command.defer(|c| c))
    }
    type Expand = fn(clap::Command) -> clap::Command;
    let adds: [(&str, Expand); 16] = [
        ("validate", add::<validate::Args>),
        ("apply", add::<apply::Args>),
        ("hook", add::<hook::Args>),
        ("guard", add::<guard::Args>),
        ("review", add::<review::Args>),
        ("declare", add::<declare::Args>),
        ("parse", add::<parse::Args>),
        ("repair", add::<repair::Args>),
        ("check-arg", add::<check_arg::Args>),
        ("paths", add::<paths::Args>),
        ("contract", add::<contract::Args>),
        ("escape-md", add::<escape_md::Args>),
        ("completions", add::<meta::CompletionsArgs>),
        ("man", add::<meta::ManArgs>),
        ("schema", add::<meta::SchemaArgs>),
        ("mcp", add::<mcp::Args>),
    ];
    adds.into_iter().fold(Cli::command(), |top, (name, add)| top.mut_subcommand(name, add))
}

pub(crate) fn main() -> ExitCode {
    let cli = match parse_args() {
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
        Command::Repair(args) => repair::run(&args, &global),
        Command::Review(args) => review::run(&args, &global),
        Command::Declare(args) => declare::run(&args, &global),
        Command::Hook(args) => hook::run(&args, &global),
        Command::Ci(args) => ci::run(&args, &global),
        Command::Validate(args) => match &args.batch {
            Some(file) => batch::run(&args, file, &global),
            None => validate::run(&args, &global),
        },
        Command::CheckArg(args) => check_arg::run(&args, &global),
        Command::Paths(args) => paths::run(&args, &global),
        Command::Contract(args) => contract::run(&args, &global),
        Command::EscapeMd(args) => escape_md::run(&args, &global),
        Command::Apply(args) => apply::run(&args, &global),
        Command::Guard(args) => guard::run(&args, &global),
        Command::Completions(args) => Ok(meta::completions(&args, &mut full_command())),
        Command::Man(args) => meta::man(&args, &full_command()),
        Command::Schema(args) => meta::schema(&args),
        Command::Mcp(args) => mcp::run(&args, &global),
    };
    match outcome {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(err) => {
            eprintln!("{}", message::line(message::Level::Error, &err.message));
            if global.format == Some(Format::Json) {
                let extra = err.extra.clone();
                let env = Envelope::failure(err.code, &err.message, extra, global.meta());
                outln!("{}", to_json_line(&env));
            }
            ExitCode::from(err.exit().code())
        }
    }
}
