//! Fuzz the guard's stdin: any bytes through every protocol adapter, and any text through the
//! shell analysis, must not panic; the file-system side (session files, repository) is not
//! touched. Invariants: a shell operand is never empty, and a command that parses names only
//! paths the analysis found in it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::guard::{Protocol, analyse_shell, parse_call};
use std::path::Path;

const PROTOCOLS: [Option<Protocol>; 7] = [
    None,
    Some(Protocol::Generic),
    Some(Protocol::ClaudeCode),
    Some(Protocol::GeminiCli),
    Some(Protocol::Codex),
    Some(Protocol::Cursor),
    Some(Protocol::Cline),
];

fuzz_target!(|data: &[u8]| {
    // A directory that does not exist: nothing here may probe the real file system.
    let cwd = Path::new("/nonexistent/patchgate-fuzz-root");
    for protocol in PROTOCOLS {
        let Ok(call) = parse_call(data, protocol, cwd) else { continue };
        if let Some(command) = &call.command {
            let plan = analyse_shell(command, &call.command_dir);
            assert!(plan.operands.iter().all(|a| !a.raw.is_empty()));
        }
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let plan = analyse_shell(text, cwd);
    assert!(plan.operands.iter().all(|a| !a.raw.is_empty() && a.raw != "-"));
});
