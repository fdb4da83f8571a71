//! The optional judge of rule 8: an external command (an LLM call, a test script) that gets
//! `{"step": ..., "result": ...}` as JSON on stdin and answers `{"valid": bool, "reason": str}`
//! on stdout. A judge that cannot be run, fails, times out or answers anything else is an error
//! (exit 3), never a silent accept.

use crate::step::{ExecutorResult, Step};
use serde::Deserialize;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;
use wait_timeout::ChildExt as _;

/// Most bytes read from the judge's stdout or stderr.
const OUTPUT_LIMIT: u64 = 1 << 20;

/// How to run the judge.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// A shell command line, run with `sh -c`.
    pub command: String,
    /// How long the judge may take before it is killed.
    pub timeout: Duration,
}

impl JudgeOptions {
    /// The default timeout: 60 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_mins(1);

    /// `command` with the default timeout.
    #[must_use]
    pub fn new(command: impl Into<String>) -> Self {
        Self { command: command.into(), timeout: Self::DEFAULT_TIMEOUT }
    }
}

/// The judge's answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct JudgeVerdict {
    /// Whether the judge accepts the result.
    pub valid: bool,
    /// Why; may be empty on acceptance.
    #[serde(default)]
    pub reason: String,
}

/// Why the judge gave no usable answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JudgeError {
    /// `sh` could not be started or its pipes failed.
    #[error("cannot run the judge '{command}': {source}; check that sh exists")]
    Spawn {
        /// The judge command.
        command: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The judge ran past its timeout and was killed.
    #[error(
        "the judge '{command}' did not answer within {seconds} s and was killed; raise --judge-timeout or fix the judge"
    )]
    TimedOut {
        /// The judge command.
        command: String,
        /// The timeout.
        seconds: u64,
    },
    /// The judge exited with a failure status.
    #[error("the judge '{command}' failed ({status}){}; fix the judge", stderr_suffix(.stderr))]
    Failed {
        /// The judge command.
        command: String,
        /// Its exit status.
        status: String,
        /// The last line it wrote to stderr.
        stderr: String,
    },
    /// The judge's stdout is not `{"valid": bool, "reason": str}`.
    #[error(
        "the judge '{command}' answered {output:?}, not {{\"valid\": bool, \"reason\": str}}; make it print only that JSON"
    )]
    Garbage {
        /// The judge command.
        command: String,
        /// The start of what it printed.
        output: String,
    },
}

fn stderr_suffix(stderr: &str) -> String {
    if stderr.is_empty() { String::new() } else { format!(": {stderr}") }
}

/// Run the judge on `step` and `result` and read its verdict.
pub fn run_judge(
    options: &JudgeOptions,
    step: &Step,
    result: &ExecutorResult,
) -> Result<JudgeVerdict, JudgeError> {
    let payload = serde_json::json!({ "step": step, "result": result }).to_string();
    let command = options.command.clone();
    let spawn_error = |source| JudgeError::Spawn { command: command.clone(), source };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&options.command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(spawn_error)?;
    let writer = feed(&mut child, payload.into_bytes());
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let Some(status) = child.wait_timeout(options.timeout).map_err(spawn_error)? else {
        kill_group(&mut child);
        return Err(JudgeError::TimedOut { command, seconds: options.timeout.as_secs() });
    };
    // Whatever the judge left running in the background would hold its pipes open.
    kill_group(&mut child);
    let _ = writer.join();
    let (stdout, stderr) = (collect(stdout), collect(stderr));
    if !status.success() {
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
        return Err(JudgeError::Failed {
            command,
            status: status.to_string(),
            stderr: last.into(),
        });
    }
    read_verdict(&stdout)
        .ok_or_else(|| JudgeError::Garbage { command, output: crate::judge::excerpt(&stdout, 80) })
}

/// Write the payload on a thread so a judge that prints before reading cannot deadlock us. A
/// judge that does not read its stdin is fine (broken pipe is ignored).
fn feed(child: &mut Child, payload: Vec<u8>) -> JoinHandle<()> {
    let stdin = child.stdin.take();
    std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&payload);
        }
    })
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(pipe) = pipe {
            let _ = pipe.take(OUTPUT_LIMIT).read_to_end(&mut out);
        }
        out
    })
}

fn collect(handle: JoinHandle<Vec<u8>>) -> String {
    String::from_utf8_lossy(&handle.join().unwrap_or_default()).into_owned()
}

/// Kill the judge and everything it started (it leads its own process group). The shell's
/// `kill` builtin reaches the group; std can only signal one process.
fn kill_group(child: &mut Child) {
    let group = format!("kill -KILL -{} 2>/dev/null", child.id());
    let _ = Command::new("sh").args(["-c", &group]).stderr(Stdio::null()).status();
    let _ = child.kill();
    let _ = child.wait();
}

fn read_verdict(stdout: &str) -> Option<JudgeVerdict> {
    let mut verdict: JudgeVerdict = serde_json::from_str(stdout.trim()).ok()?;
    verdict.reason = verdict.reason.trim().to_owned();
    if !verdict.valid && verdict.reason.is_empty() {
        "rejected without a reason".clone_into(&mut verdict.reason);
    }
    Some(verdict)
}
