//! `patchgate guard install / uninstall`: each agent's hook settings for the guard.

use super::values::code_parser;
use super::{CliError, CliResult, Format, Global};
use patchgate::finding::ErrorCode;
use patchgate::guard::install::{self, Agent, Context, InstallError, Locations, Scope};
use patchgate::report::Exit;
use patchgate::report::guard_install::{InstallReport, install_text};
use std::path::{Path, PathBuf};

// Arguments of `patchgate guard install` and `uninstall`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The agents, comma-separated or repeated (`all`: every one).
    #[arg(long, value_delimiter = ',', default_value = "all", value_parser = agents())]
    agent: Vec<Option<Agent>>,
    /// `project`: the project's own settings (a session started in a subdirectory of the
    /// project runs none in Claude Code and Gemini CLI); `user`: the user's settings, for
    /// every session wherever it starts.
    #[arg(long, default_value = "project", value_parser = code_parser(Scope::ALL, Scope::as_str, &[]))]
    scope: Scope,
}

/// `--agent`: each agent's name, or `all`.
fn agents() -> impl clap::builder::TypedValueParser<Value = Option<Agent>> {
    const HELPS: &[(Agent, &str)] = &[
        (Agent::ClaudeCode, "`.claude/settings.json`"),
        (Agent::GeminiCli, "`.gemini/settings.json`"),
        (Agent::Codex, "`.codex/hooks.json`, and `config.toml` for the feature and the trust"),
        (Agent::Cursor, "`.cursor/hooks.json`"),
        (Agent::Cline, "`.clinerules/hooks/PreToolUse` and `PostToolUse`"),
    ];
    super::values::optional_code_parser(
        Agent::ALL,
        Agent::as_str,
        HELPS,
        Some(("all", "Every agent above")),
    )
}

impl From<InstallError> for CliError {
    fn from(e: InstallError) -> Self {
        let code = match e {
            InstallError::Settings { .. } => ErrorCode::Settings,
            _ => ErrorCode::Io,
        };
        Self::new(code, format!("{e}; nothing was changed"))
    }
}

/// Install (or, with `remove`, uninstall) the hooks the arguments name.
pub(crate) fn run(args: &Args, remove: bool, global: &Global) -> CliResult {
    let agents: Vec<Agent> = if args.agent.iter().any(Option::is_none) {
        Agent::ALL.to_vec()
    } else {
        args.agent.iter().flatten().copied().collect()
    };
    let home =
        std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).ok_or_else(|| {
            CliError::new(
                ErrorCode::Io,
                "HOME is not set; set it to the home whose agents to set up",
            )
        })?;
    let ctx = Context { locations: Locations::from_env(project(global)?, home), binary: binary()? };
    let outcome = if remove {
        install::uninstall(&agents, args.scope, &ctx)
    } else {
        install::install(&agents, args.scope, &ctx)
    }?;
    let report = InstallReport::new(args.scope, &outcome);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        Format::Text if global.quiet => {}
        Format::Text => out!("{}", install_text(&report)),
    }
    Ok(Exit::Accepted)
}

/// The project: `--repo`, else the repository around the current directory, else that
/// directory.
fn project(global: &Global) -> Result<PathBuf, CliError> {
    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(ErrorCode::Io, format!("cannot read the current directory: {e}"))
    })?;
    let start = global.repo.clone().unwrap_or(cwd);
    let root = patchgate::repo::discover(Some(&start))
        .ok()
        .and_then(|repo| repo.workdir().map(Path::to_path_buf))
        .unwrap_or(start);
    std::fs::canonicalize(&root).map_err(|e| {
        CliError::new(
            ErrorCode::Io,
            format!("cannot resolve the project '{}': {e}", root.display()),
        )
    })
}

/// What the hooks run: `patchgate` when the first one on `PATH` is this binary (the settings
/// then survive a reinstall elsewhere), else this binary's absolute path.
fn binary() -> Result<String, CliError> {
    let this = std::env::current_exe().and_then(std::fs::canonicalize).map_err(|e| {
        CliError::new(ErrorCode::Io, format!("cannot locate the patchgate binary: {e}"))
    })?;
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("patchgate"))
            .find(|candidate| is_executable(candidate))
    });
    if on_path.and_then(|p| std::fs::canonicalize(p).ok()).is_some_and(|p| p == this) {
        return Ok("patchgate".to_owned());
    }
    this.to_str().map(str::to_owned).ok_or_else(|| {
        CliError::new(ErrorCode::Io, "the patchgate binary's path is not UTF-8; put it on PATH")
    })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
