//! `patchgate hook run / install / uninstall / status`.

use super::values::code_parser;
use super::{CliError, CliResult, Format, Global};
use patchgate::finding::ErrorCode;
use patchgate::hook::install::{InstallOutcome, detect_managers, hooks_dir, status};
use patchgate::hook::receive::{check_push, parse_updates};
use patchgate::hook::server::{check_policy_ref, server_policy};
use patchgate::hook::staged::open;
use patchgate::hook::{HookError, HookName, configured_hooks, install, run_staged};
use patchgate::report::hook::{ReceiveReport, RunReport, receive_text, run_text};
use patchgate::report::hook_install::{ActionReport, StatusReport, action_text, status_text};
use patchgate::report::{Envelope, Exit};
use std::io::Read;

// Arguments of `patchgate hook`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Run as the git hook HOOK (what the installed shims call). Exit 0 allows, 1 blocks; any
    /// error blocks too.
    Run {
        /// `pre-commit`, `pre-applypatch` or `pre-receive`.
        #[arg(value_parser = hook_names())]
        hook: HookName,
        /// The arguments git passed to the hook (unused by these hooks).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Install the shims into the hooks directory git uses (core.hooksPath honoured), keeping
    /// and chaining any hook already there.
    Install {
        /// Hooks to install (default: `[hook] hooks` in .patchgate.toml, else
        /// pre-commit,pre-applypatch).
        #[arg(long, value_delimiter = ',', value_parser = hook_names())]
        hooks: Vec<HookName>,
        /// Install even when husky, lefthook or the pre-commit framework manage the hooks.
        #[arg(long)]
        force: bool,
    },
    /// Remove the shims and put back the hooks they chained, byte for byte.
    Uninstall {
        /// Hooks to remove (default: all).
        #[arg(long, value_delimiter = ',', value_parser = hook_names())]
        hooks: Vec<HookName>,
    },
    /// Say which hooks are installed where.
    Status,
}

/// git's hook names, as `hook run` and `--hooks` take them.
fn hook_names() -> impl clap::builder::TypedValueParser<Value = HookName> {
    code_parser(HookName::ALL, HookName::as_str, &[])
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    match &args.action {
        Action::Run { hook, .. } => run_hook(*hook, global).map_err(|e| CliError {
            message: format!("{}; the {} hook blocks until this is fixed", e.message, hook),
            ..e
        }),
        Action::Install { hooks, force } => run_install(hooks, *force, global),
        Action::Uninstall { hooks } => run_uninstall(hooks, global),
        Action::Status => run_status(global),
    }
}

fn run_hook(hook: HookName, global: &Global) -> CliResult {
    let repo = open(global.repo.as_deref()).map_err(CliError::from)?;
    if hook == HookName::PreReceive {
        return run_receive(&repo, global);
    }
    let run = run_staged(&repo, global.repo.is_none()).map_err(CliError::from)?;
    let report = RunReport::new(hook, run.declaration, &run.policy, run.changes, &run.violations);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        Format::Text => eprint!("{}", run_text(&report)),
    }
    Ok(if report.allowed { Exit::Accepted } else { Exit::Rejected })
}

fn run_receive(repo: &git2::Repository, global: &Global) -> CliResult {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).map_err(|e| {
        CliError::new(ErrorCode::Input, format!("cannot read pre-receive's stdin: {e}"))
    })?;
    let updates = parse_updates(&input).map_err(CliError::from)?;
    let server = server_policy(repo).map_err(CliError::from)?;
    let refused = check_policy_ref(repo, &server, &updates).map_err(CliError::from)?;
    let checks = check_push(repo, &updates, &server.policy).map_err(CliError::from)?;
    let report = ReceiveReport::new(&server.policy, &checks, &refused);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        Format::Text => eprint!("{}", receive_text(&report)),
    }
    Ok(if report.allowed { Exit::Accepted } else { Exit::Rejected })
}

fn chosen(hooks: &[HookName], repo: &git2::Repository) -> Result<Vec<HookName>, CliError> {
    if hooks.is_empty() {
        return configured_hooks(repo).map_err(CliError::from);
    }
    Ok(hooks.to_vec())
}

fn run_install(hooks: &[HookName], force: bool, global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let names = chosen(hooks, &repo)?;
    let binary = std::env::current_exe().and_then(std::fs::canonicalize).map_err(|e| {
        CliError::new(ErrorCode::Io, format!("cannot locate the patchgate binary: {e}"))
    })?;
    let outcome = install::install(&repo, &names, &binary, force).map_err(CliError::from)?;
    let (report, exit) = match outcome {
        InstallOutcome::Done(dir, actions) => (ActionReport::done(&dir, &actions), Exit::Accepted),
        InstallOutcome::Managed(dir, advice) => {
            (ActionReport::managed(&dir, &advice), Exit::InputRefused)
        }
    };
    print_actions(&report, global);
    Ok(exit)
}

fn run_uninstall(hooks: &[HookName], global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let names: Vec<HookName> =
        if hooks.is_empty() { HookName::ALL.to_vec() } else { hooks.to_vec() };
    let (dir, actions) = install::uninstall(&repo, &names).map_err(CliError::from)?;
    let report = ActionReport::done(&dir, &actions);
    print_actions(&report, global);
    // A hook that differs from its kept original could not be restored: not done.
    Ok(if report.failure().is_some() { Exit::Failure } else { Exit::Accepted })
}

/// The report of `install` or `uninstall`; with `-q`, text only when it was not done.
fn print_actions(report: &ActionReport, global: &Global) {
    let failure = report.failure();
    match global.format.unwrap_or(Format::Text) {
        Format::Json => {
            let envelope = Envelope::of(report, global.meta()).with_warnings(report.notices());
            super::print_envelope(&match &failure {
                Some((code, message)) => envelope.refused(*code, message),
                None => envelope,
            });
        }
        Format::Text if global.quiet && failure.is_none() => {}
        Format::Text => out!("{}", action_text(report)),
    }
}

fn run_status(global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let dir = hooks_dir(&repo).map_err(CliError::from)?;
    let report = StatusReport::new(&dir, &detect_managers(&repo, &dir), &status(&dir));
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        Format::Text => out!("{}", status_text(&report)),
    }
    Ok(Exit::Accepted)
}
