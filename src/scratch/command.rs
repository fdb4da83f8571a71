//! `--check-cmd`: run `sh -c CMD` in a temporary copy of the patched tree, with a timeout.
//!
//! The command runs the agent's code, so it gets nothing that leads back to the repository: the
//! tree is outside the git directory (see [`super::tree`]), every `GIT_*` variable of the
//! caller's environment is cleared (a `GIT_DIR` there made `git config` in the check write the
//! real `.git/config`), and `GIT_CEILING_DIRECTORIES` stops a `git` it runs from finding a
//! repository above the tree. It runs in its own process group (killed whole on timeout or
//! interrupt), with stdin closed and stdout and stderr captured to a file beside the tree.
//! SIGINT and SIGTERM are caught while it runs: the group is killed, the tree removed, and
//! [`ScratchError::Interrupted`] returned.
//!
//! This keeps patchgate from handing the command a way in; it is not a sandbox. The command
//! runs with the caller's rights, as the agent's code does anywhere else it is run.

use super::base::BaseTree;
use super::tree::{ScratchDir, materialize};
use super::{FileChange, Outcome, ScratchError, note};
use crate::finding::CheckCode;
use crate::finding::NoteKind;
use crate::rule::{RuleId, Violation};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How the command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandOutcome {
    /// The exit code; `None` when killed (timeout) or ended by a signal.
    pub status: Option<i32>,
    /// Whether the timeout ended it.
    pub is_timed_out: bool,
    /// The last lines of its combined output.
    pub tail: String,
    /// How long it ran.
    pub elapsed: Duration,
}

/// Catches SIGINT and SIGTERM while alive; restores the default handling on drop.
pub(super) struct SignalGuard {
    flag: Arc<AtomicBool>,
    ids: Vec<signal_hook::SigId>,
}

impl SignalGuard {
    pub(super) fn install() -> Result<Self, ScratchError> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut ids = Vec::new();
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let id = signal_hook::flag::register(signal, Arc::clone(&flag)).map_err(|e| {
                ScratchError::io("install a signal handler for", std::path::Path::new("sh"), e)
            })?;
            ids.push(id);
        }
        Ok(Self { flag, ids })
    }

    /// The flag the handlers raise, for a caller that checks it between steps.
    pub(super) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    fn is_raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl Drop for SignalGuard {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// Build the patched tree in a scratch directory and run `cmd` there.
pub(super) fn run_in_scratch(
    base: &BaseTree<'_>,
    changes: &[FileChange],
    cmd: &str,
    timeout: Duration,
) -> Result<CommandOutcome, ScratchError> {
    let signals = SignalGuard::install()?;
    let scratch = ScratchDir::create()?;
    let tree = scratch.path().join("tree");
    materialize(base, changes, &tree)?;
    if signals.is_raised() {
        return Err(ScratchError::Interrupted);
    }
    let log_path = scratch.path().join("output.log");
    let log =
        std::fs::File::create(&log_path).map_err(|e| ScratchError::io("create", &log_path, e))?;
    let log_err = log.try_clone().map_err(|e| ScratchError::io("open", &log_path, e))?;
    let started = Instant::now();
    let mut command = Command::new("sh");
    for (name, _) in std::env::vars_os() {
        if name.as_encoded_bytes().starts_with(b"GIT_") {
            command.env_remove(name);
        }
    }
    let mut child = command
        .arg("-c")
        .arg(cmd)
        .current_dir(&tree)
        .env("GIT_CEILING_DIRECTORIES", scratch.path())
        .env("PATCHGATE_SCRATCH", "1")
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_err)
        .process_group(0)
        .spawn()
        .map_err(|e| ScratchError::io("run 'sh -c' in", &tree, e))?;
    let (status, is_timed_out) = wait(&mut child, timeout, &signals)?;
    let elapsed = started.elapsed();
    let output = std::fs::read(&log_path).unwrap_or_default();
    Ok(CommandOutcome { status, is_timed_out, tail: tail(&output), elapsed })
}

/// Wait for the child; kill its process group on timeout or signal.
fn wait(
    child: &mut Child,
    timeout: Duration,
    signals: &SignalGuard,
) -> Result<(Option<i32>, bool), ScratchError> {
    let deadline = Instant::now() + timeout;
    loop {
        let slice =
            Duration::from_millis(50).min(deadline.saturating_duration_since(Instant::now()));
        let waited = child
            .wait_timeout(slice)
            .map_err(|e| ScratchError::io("wait for", std::path::Path::new("sh"), e))?;
        if let Some(status) = waited {
            return Ok((status.code(), false));
        }
        let interrupted = signals.is_raised();
        if interrupted || Instant::now() >= deadline {
            kill_group(child);
            if interrupted {
                return Err(ScratchError::Interrupted);
            }
            return Ok((None, true));
        }
    }
}

/// Kill the whole process group (the shell and everything it started). std has no killpg and
/// this crate forbids `unsafe`, so `kill(1)` does it; the child itself is killed as a fallback.
fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let _ = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// The last few non-empty lines of `output`, joined with ` | `, at most ~600 bytes.
fn tail(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
    let start = lines.len().saturating_sub(5);
    let mut joined = lines[start..].join(" | ");
    if joined.len() > 600 {
        let cut = joined.len() - 600;
        let boundary = (cut..joined.len()).find(|&i| joined.is_char_boundary(i)).unwrap_or(cut);
        joined = format!("...{}", &joined[boundary..]);
    }
    joined
}

/// Turn the command's outcome into a note or a `not-implemented` violation.
pub(super) fn judge(run: &CommandOutcome, cmd: &str, outcome: &mut Outcome) {
    if run.status == Some(0) {
        let ms = run.elapsed.as_millis();
        outcome.notes.push(note(
            NoteKind::CheckCmdPassed,
            format!("check command '{cmd}' passed in {ms} ms"),
            None,
        ));
        return;
    }
    let how = match (run.is_timed_out, run.status) {
        (true, _) => format!("timed out after {} s", run.elapsed.as_secs()),
        (false, Some(code)) => format!("exited with {code}"),
        (false, None) => "was killed by a signal".to_owned(),
    };
    let output = if run.tail.is_empty() { "no output".to_owned() } else { run.tail.clone() };
    outcome.violations.push(Violation::new(
        RuleId::NotImplemented,
        CheckCode::CheckCmdFailed,
        format!("check command '{cmd}' {how} on the patched tree: {output}"),
    ));
}
