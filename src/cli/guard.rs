//! `patchgate guard`: one agent tool call on stdin, allow or deny on stdout.

use super::values::optional_code_parser;
use super::{CliError, CliResult, Format, Global};
use clap::builder::TypedValueParser;
use patchgate::finding::ErrorCode;
use patchgate::guard::{self, Options, Protocol};
use patchgate::report::guard::render;
use patchgate::report::{Exit, message};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

// Arguments of `patchgate guard`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The agent's hook protocol, for both the payload and the answer.
    // Spelled out so clap takes the value as given (`None` is `auto`), not as an optional flag.
    #[arg(long, value_parser = protocols(), default_value = "auto")]
    protocol: std::option::Option<Protocol>,
    /// Seconds to answer in: a call still unanswered then is blocked (exit 2, the reason on
    /// stderr), before the agent's own hook timeout would let it run unchecked.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = seconds)]
    timeout: f64,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Write each agent's hook settings for the guard, merged into the settings there, with a
    /// wrapper that blocks every call when patchgate cannot run.
    Install(super::guard_install::Args),
    /// Remove them: the bytes install found come back where the file is as install left it;
    /// otherwise only patchgate's hooks are taken out.
    Uninstall(super::guard_install::Args),
}

/// `--timeout`: a positive number of seconds.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// `--protocol`: the library's protocol names, with the CLI's help for each, or `auto`.
fn protocols() -> impl TypedValueParser<Value = Option<Protocol>> {
    const HELPS: &[(Protocol, &str)] = &[
        (
            Protocol::Generic,
            "`{\"decision\", \"error\", \"strategy_shift\", \"instruction\"}`, exit 0 (allow) or 2 (deny)",
        ),
        (Protocol::ClaudeCode, "Claude Code `PreToolUse` (also Devin CLI)"),
        (Protocol::GeminiCli, "Gemini CLI `BeforeTool`"),
        (Protocol::Codex, "Codex CLI `PreToolUse`"),
        (Protocol::Cursor, "Cursor hooks"),
        (Protocol::Cline, "Cline `PreToolUse`"),
    ];
    let auto = "Detect the protocol from the payload (a payload of no agent's protocol is \
                denied, with the reason on stderr)";
    optional_code_parser(Protocol::ALL, Protocol::as_str, HELPS, Some(("auto", auto)))
}

/// Always answers (the guard fails closed inside the library); the one error is `--format
/// text`, refused (exit 2, which every agent reads as "blocked").
pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    match &args.action {
        Some(Action::Install(install)) => return super::guard_install::run(install, false, global),
        Some(Action::Uninstall(install)) => {
            return super::guard_install::run(install, true, global);
        }
        None => {}
    }
    if global.format == Some(Format::Text) {
        // A text line where an agent expects its protocol's JSON could read as "allow".
        return Err(CliError::new(
            ErrorCode::Usage,
            "guard answers in the agent's protocol (JSON on stdout; see --protocol), never as \
             text: drop --format text, and pipe the answer through `jq` to read it",
        ));
    }
    Ok(answer(args, global))
}

fn answer(args: &Args, global: &Global) -> Exit {
    let answered = watchdog(Duration::from_secs_f64(args.timeout));
    let options = Options {
        protocol: args.protocol,
        repo: global.repo.clone(),
        state_dir: std::env::var_os("PATCHGATE_STATE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
    };
    let outcome = guard::run_reader(&mut std::io::stdin().lock(), &options);
    for note in &outcome.notes {
        global.note(note);
    }
    let answer = render(&outcome);
    // Holding the flag while printing: the watchdog can no longer end the process mid-answer.
    let mut is_answered = answered.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    *is_answered = true;
    if !outcome.is_allowed() && is_stdout_closed() {
        // Rust's stdout swallows EBADF: the deny would be lost and the agent would go on. Every
        // agent reads exit 2 with a reason on stderr as "blocked".
        let reason = outcome.denial.as_ref().map_or("", |d| d.message.as_str());
        let text = format!("guard: stdout is closed, so the answer is on stderr: {reason}");
        eprintln!("{}", message::plain(&text));
        return Exit::InputRefused;
    }
    if let Some(reason) = &answer.stderr {
        eprintln!("{reason}");
    }
    if !answer.stdout.is_empty() {
        outln!("{}", answer.stdout);
    }
    answer.exit
}

/// After `deadline`, unless the answer is under way (the flag returned is set), block the call:
/// exit 2 with the reason on stderr, which the agents read as "blocked" (the hook wrapper
/// `guard install` writes turns it into Cline's `cancel`). An agent whose hook times out runs
/// the call unchecked, so the guard answers first.
fn watchdog(deadline: Duration) -> Arc<Mutex<bool>> {
    let answered = Arc::new(Mutex::new(false));
    let flag = Arc::clone(&answered);
    std::thread::spawn(move || {
        std::thread::sleep(deadline);
        let is_answered = flag.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !*is_answered {
            let text = format!(
                "guard: GUARD_ERROR: no answer within {} s (--timeout), so the call is \
                 blocked; see what slows patchgate down (a file system that hangs, a huge \
                 repository), or raise --timeout below the agent's hook timeout",
                deadline.as_secs_f64()
            );
            eprintln!("{}", message::plain(&text));
            std::process::exit(2);
        }
    });
    answered
}

/// Whether the answer on stdout can reach no one: file descriptor 1 closed, or `/dev/null`
/// (Rust's runtime reopens a closed descriptor 1 on `/dev/null` before `main`).
fn is_stdout_closed() -> bool {
    use std::os::fd::AsFd;
    let stdout = std::io::stdout();
    let Ok(stat) = rustix::fs::fstat(stdout.as_fd()) else { return true };
    let is_char =
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::CharacterDevice;
    is_char && rustix::fs::stat("/dev/null").is_ok_and(|null| null.st_rdev == stat.st_rdev)
}
