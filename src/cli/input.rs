//! Reading command inputs: a file path, or `-` for standard input.

use super::CliError;
use std::io::Read;

/// Read `arg` (a path, or `-` for stdin) whole. A missing or unreadable input is refused
/// (exit 2), naming `what` it was meant to be.
pub(crate) fn read_input(arg: &str, what: &str) -> Result<Vec<u8>, CliError> {
    if arg == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| {
            CliError::input(
                "unreadable_input",
                format!("cannot read the {what} from standard input: {e}"),
            )
        })?;
        return Ok(buf);
    }
    std::fs::read(arg).map_err(|e| {
        CliError::input(
            "unreadable_input",
            format!("cannot read the {what} '{arg}': {e}; pass an existing file or '-' for stdin"),
        )
    })
}
