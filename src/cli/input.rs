//! Reading command inputs: a file path, or `-` for standard input, and the `[limits]` that bound
//! the inputs of commands that judge no step (`parse`, `contract`).

use super::CliError;
use patchgate::bigbuf;
use patchgate::config::{Config, LimitExceeded, Limits};
use patchgate::finding::ErrorCode;
use std::io::Read;
use std::path::Path;

/// Read `arg` (a path, or `-` for stdin) whole. A missing or unreadable input is refused
/// (exit 2), naming `what` it was meant to be. A large file is read into a buffer of exactly
/// its size on huge pages ([`bigbuf::read_file`]): a fraction of the page faults.
pub(crate) fn read_input(arg: &str, what: &str) -> Result<Vec<u8>, CliError> {
    if arg == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| stdin_error(what, &e))?;
        return Ok(buf);
    }
    bigbuf::read_file(Path::new(arg)).map_err(|e| file_error(arg, what, &e))
}

/// [`read_input`] within `[limits] patch_bytes`: a file's size is checked before it is read, and
/// standard input is read no further than one byte past the limit, so an oversized input is
/// refused (exit 2, `limit_exceeded`) without holding it.
pub(crate) fn read_input_within(
    arg: &str,
    what: &str,
    limits: &Limits,
) -> Result<Vec<u8>, CliError> {
    let limit = limits.patch_bytes;
    let size = if arg == "-" {
        None
    } else {
        std::fs::metadata(arg).ok().and_then(|m| usize::try_from(m.len()).ok())
    };
    if let Some(size) = size {
        over_limit(limit, size, what)?;
        return read_input(arg, what);
    }
    let mut buf = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let read = if arg == "-" {
        std::io::stdin().take(cap).read_to_end(&mut buf).map_err(|e| stdin_error(what, &e))
    } else {
        let file = std::fs::File::open(arg).map_err(|e| file_error(arg, what, &e))?;
        file.take(cap).read_to_end(&mut buf).map_err(|e| file_error(arg, what, &e))
    };
    over_limit(limit, read?, what)?;
    Ok(buf)
}

fn over_limit(limit: usize, size: usize, what: &str) -> Result<(), CliError> {
    let checked = patchgate::config::check_limit("patch_bytes", limit, size, || {
        format!("the size in bytes of the {what}")
    });
    checked.map_err(|e| limit_error(&e))
}

/// An input over one of the `[limits]`: refused input (exit 2); the message names the setting.
pub(crate) fn limit_error(e: &LimitExceeded) -> CliError {
    CliError::new(ErrorCode::LimitExceeded, e.to_string())
}

/// The `[limits]` in force for a command that judges no step: those of `HEAD`'s
/// `.patchgate.toml` in the repository around `--repo DIR` or the current directory (the policy
/// the commit hook enforces, which the input cannot have written), the defaults outside a
/// repository or before the first commit.
pub(crate) fn policy_limits(repo: Option<&Path>) -> Result<Limits, CliError> {
    let start = match repo {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    let Ok(repo) = patchgate::repo::discover(Some(&start)) else {
        return Ok(Limits::default());
    };
    let policy: Config = patchgate::hook::head_config(&repo)?;
    Ok(policy.limits())
}

fn stdin_error(what: &str, e: &std::io::Error) -> CliError {
    CliError::new(
        ErrorCode::UnreadableInput,
        format!("cannot read the {what} from standard input: {e}"),
    )
}

fn file_error(arg: &str, what: &str, e: &std::io::Error) -> CliError {
    CliError::new(
        ErrorCode::UnreadableInput,
        format!("cannot read the {what} '{arg}': {e}; pass an existing file or '-' for stdin"),
    )
}
