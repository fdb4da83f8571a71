//! `patchgate hook run / install / uninstall / status`.

use super::{CliError, CliResult, Format, Global};
use patchgate::hook::install::{InstallOutcome, detect_managers, hooks_dir, status};
use patchgate::hook::receive::{check_push, parse_updates, server_policy};
use patchgate::hook::staged::open;
use patchgate::hook::{HookError, HookName, configured_hooks, install, run_staged};
use patchgate::report::hook::{ReceiveReport, RunReport, receive_text, run_text};
use patchgate::report::hook_install::{ActionReport, StatusReport, action_text, status_text};
use patchgate::report::{Exit, to_json_pretty};
use std::io::Read;

/// Arguments of `patchgate hook`.
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
        #[arg(value_enum)]
        hook: HookArg,
        /// The arguments git passed to the hook (unused by these hooks).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Install the shims into the hooks directory git uses (core.hooksPath honoured), keeping
    /// and chaining any hook already there.
    Install {
        /// Hooks to install (default: `[hook] hooks` in .patchgate.toml, else
        /// pre-commit,pre-applypatch).
        #[arg(long, value_enum, value_delimiter = ',')]
        hooks: Vec<HookArg>,
        /// Install even when husky, lefthook or the pre-commit framework manage the hooks.
        #[arg(long)]
        force: bool,
    },
    /// Remove the shims and put back the hooks they chained, byte for byte.
    Uninstall {
        /// Hooks to remove (default: all).
        #[arg(long, value_enum, value_delimiter = ',')]
        hooks: Vec<HookArg>,
    },
    /// Say which hooks are installed where.
    Status,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
#[allow(clippy::enum_variant_names, reason = "git's hook names")]
enum HookArg {
    PreCommit,
    PreApplypatch,
    PreReceive,
}

impl HookArg {
    fn name(self) -> HookName {
        match self {
            Self::PreCommit => HookName::PreCommit,
            Self::PreApplypatch => HookName::PreApplypatch,
            Self::PreReceive => HookName::PreReceive,
        }
    }
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    match &args.action {
        Action::Run { hook, .. } => run_hook(hook.name(), global).map_err(|e| CliError {
            message: format!("{}; the {} hook blocks until this is fixed", e.message, hook.name()),
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
        Format::Json => outln!("{}", to_json_pretty(&report)),
        Format::Text => eprint!("{}", run_text(&report)),
    }
    Ok(if report.allowed { Exit::Accepted } else { Exit::Rejected })
}

fn run_receive(repo: &git2::Repository, global: &Global) -> CliResult {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| CliError::input("input", format!("cannot read pre-receive's stdin: {e}")))?;
    let updates = parse_updates(&input).map_err(CliError::from)?;
    let policy = server_policy(repo).map_err(CliError::from)?;
    let checks = check_push(repo, &updates, &policy).map_err(CliError::from)?;
    let report = ReceiveReport::new(&policy, &checks);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => outln!("{}", to_json_pretty(&report)),
        Format::Text => eprint!("{}", receive_text(&report)),
    }
    Ok(if report.allowed { Exit::Accepted } else { Exit::Rejected })
}

fn chosen(hooks: &[HookArg], repo: &git2::Repository) -> Result<Vec<HookName>, CliError> {
    if hooks.is_empty() {
        return configured_hooks(repo).map_err(CliError::from);
    }
    Ok(hooks.iter().map(|h| h.name()).collect())
}

fn run_install(hooks: &[HookArg], force: bool, global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let names = chosen(hooks, &repo)?;
    let binary = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| CliError::failure("io", format!("cannot locate the patchgate binary: {e}")))?;
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

fn run_uninstall(hooks: &[HookArg], global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let names: Vec<HookName> = if hooks.is_empty() {
        HookName::ALL.to_vec()
    } else {
        hooks.iter().map(|h| h.name()).collect()
    };
    let (dir, actions) = install::uninstall(&repo, &names).map_err(CliError::from)?;
    print_actions(&ActionReport::done(&dir, &actions), global);
    // A hook that differs from its kept original could not be restored: not done.
    let is_undone = actions.iter().any(|a| a.action == "orphan_kept");
    Ok(if is_undone { Exit::Failure } else { Exit::Accepted })
}

fn print_actions(report: &ActionReport, global: &Global) {
    match global.format.unwrap_or(Format::Text) {
        Format::Json => outln!("{}", to_json_pretty(report)),
        Format::Text => out!("{}", action_text(report)),
    }
}

fn run_status(global: &Global) -> CliResult {
    let repo = patchgate::repo::discover(global.repo.as_deref())
        .map_err(|e| CliError::from(HookError::from(e)))?;
    let dir = hooks_dir(&repo).map_err(CliError::from)?;
    let report = StatusReport::new(&dir, &detect_managers(&repo, &dir), &status(&dir));
    match global.format.unwrap_or(Format::Text) {
        Format::Json => outln!("{}", to_json_pretty(&report)),
        Format::Text => out!("{}", status_text(&report)),
    }
    Ok(Exit::Accepted)
}
