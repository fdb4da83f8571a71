//! Reading command inputs: a file path, or `-` for standard input.

use super::CliError;
use patchgate::bigbuf;
use patchgate::finding::ErrorCode;
use std::io::Read;
use std::path::Path;

/// Read `arg` (a path, or `-` for stdin) whole. A missing or unreadable input is refused
/// (exit 2), naming `what` it was meant to be. A large file is read into a buffer of exactly
/// its size on huge pages ([`bigbuf::read_file`]): a fraction of the page faults.
pub(crate) fn read_input(arg: &str, what: &str) -> Result<Vec<u8>, CliError> {
    if arg == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| {
            CliError::new(
                ErrorCode::UnreadableInput,
                format!("cannot read the {what} from standard input: {e}"),
            )
        })?;
        return Ok(buf);
    }
    bigbuf::read_file(Path::new(arg)).map_err(|e| {
        CliError::new(
            ErrorCode::UnreadableInput,
            format!("cannot read the {what} '{arg}': {e}; pass an existing file or '-' for stdin"),
        )
    })
}
