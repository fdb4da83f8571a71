//! Terminal output for `review`: the width of the screen, the pager git would use, writes that
//! survive a closed pipe, and atomic files.

use crate::cli::CliError;
use patchgate::finding::ErrorCode;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The width of the terminal the table is for: `COLUMNS` when set, else the terminal's own
/// when standard output is one; `None` for a pipe or a file (tools get whole lines).
pub(super) fn terminal_columns() -> Option<usize> {
    let from_env = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok());
    from_env.filter(|&c| c > 0).or_else(|| {
        let stdout = std::io::stdout();
        if !stdout.is_terminal() {
            return None;
        }
        let size = rustix::termios::tcgetwinsize(&stdout).ok()?;
        (size.ws_col > 0).then_some(usize::from(size.ws_col))
    })
}

/// Print `text` on standard output; a reader that went away (`| head`) is not an error.
pub(super) fn emit(text: &str) {
    crate::cli::write_stdout(format_args!("{text}"));
}

/// Print `text` through the pager git would use when standard output is a terminal.
pub(super) fn show_paged(repository: &git2::Repository, text: &str) {
    let pager = if std::io::stdout().is_terminal() { pager_command(repository) } else { None };
    let Some(pager) = pager else {
        emit(text);
        return;
    };
    if run_pager(&pager, text).is_err() {
        emit(text);
    }
}

fn pager_command(repository: &git2::Repository) -> Option<String> {
    let from_config = || repository.config().ok()?.get_string("core.pager").ok();
    choose_pager(std::env::var("GIT_PAGER").ok(), from_config, std::env::var("PAGER").ok())
}

/// git's order: `GIT_PAGER`, `core.pager`, `PAGER`, then `less`. An empty value or `cat`
/// means no pager.
fn choose_pager(
    git_pager: Option<String>,
    core_pager: impl FnOnce() -> Option<String>,
    pager: Option<String>,
) -> Option<String> {
    let chosen = git_pager.or_else(core_pager).or(pager).unwrap_or_else(|| "less".to_owned());
    let chosen = chosen.trim();
    (!chosen.is_empty() && chosen != "cat").then(|| chosen.to_owned())
}

/// Run `pager` through the shell, as git does, with git's `LESS=FRX` and `LV=-c` defaults.
fn run_pager(pager: &str, text: &str) -> std::io::Result<()> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(pager).stdin(Stdio::piped());
    if std::env::var_os("LESS").is_none() {
        cmd.env("LESS", "FRX");
    }
    if std::env::var_os("LV").is_none() {
        cmd.env("LV", "-c");
    }
    let mut child = cmd.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // The reader quitting early (`q` in less) closes the pipe: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    child.wait()?;
    Ok(())
}

/// Write `bytes` to `path` all or nothing: a temporary file beside it, flushed, renamed.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let fail = |e: std::io::Error| {
        CliError::new(
            ErrorCode::Io,
            format!("cannot write '{}': {e}; check the directory", path.display()),
        )
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new().prefix(".patchgate-").tempfile_in(dir).map_err(fail)?;
    temp.write_all(bytes).map_err(fail)?;
    temp.as_file().sync_all().map_err(fail)?;
    temp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::choose_pager;

    #[test]
    fn pager_follows_gits_order() {
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(choose_pager(some("most"), || some("more"), some("pg")), some("most"));
        assert_eq!(choose_pager(None, || some("more"), some("pg")), some("more"));
        assert_eq!(choose_pager(None, || None, some("pg")), some("pg"));
        assert_eq!(choose_pager(None, || None, None), some("less"));
        assert_eq!(choose_pager(some(""), || some("more"), None), None, "empty: no pager");
        assert_eq!(choose_pager(None, || some("cat"), None), None);
    }
}
