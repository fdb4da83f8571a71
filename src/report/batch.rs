//! `validate --batch` output: one JSON line per input line, in input order
//! (`schemas/batch-answer.schema.json`).

use crate::batch::{ItemId, LineError};
use crate::rule::Report;
use serde::Serialize;

/// One answer line: a verdict, or why the line has none.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
#[schemars(title = "BatchAnswer")]
pub enum BatchAnswer<'a> {
    /// The line's result was judged.
    Verdict(VerdictLine<'a>),
    /// The line could not be judged; the run went on.
    Error(ErrorLine<'a>),
}

/// The verdict on one line's result: `validate`'s `{"valid", "reason"}` with the line's id.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct VerdictLine<'a> {
    /// The input line's id.
    pub id: &'a ItemId,
    /// Whether the result may be applied.
    pub valid: bool,
    /// One line; on rejection it starts with the rule id and a colon.
    pub reason: &'a str,
    /// The full report (`schemas/report.schema.json`), with `--with-report`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<&'a Report>,
}

/// A line that has no verdict.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ErrorLine<'a> {
    /// The input line's id, `null` when none could be read.
    pub id: Option<&'a ItemId>,
    /// The 1-based input line.
    pub line: usize,
    /// What is wrong.
    pub error: LineFailure<'a>,
}

/// Why a line has no verdict.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LineFailure<'a> {
    /// Stable code: `not_json`, `bad_item`, `line_too_long`, `invalid_step`, `invalid_config`,
    /// `repository`, `judge_failed`, ... (as `validate` of that one result would exit with).
    pub code: &'a str,
    /// One line: what is wrong and what to do.
    pub message: &'a str,
    /// The exit code `validate` of that one result would give: 2 (the input is refused) or 3
    /// (patchgate could not judge it).
    pub exit: u8,
}

/// The answer line (without its newline) for a judged result.
#[must_use]
pub fn batch_verdict(id: &ItemId, report: &Report, is_full: bool) -> String {
    let line = VerdictLine {
        id,
        valid: report.verdict.valid,
        reason: &report.verdict.reason,
        report: is_full.then_some(report),
    };
    super::to_json_line(&BatchAnswer::Verdict(line))
}

/// The answer line (without its newline) for input line `line` that could not be judged.
#[must_use]
pub fn batch_error(error: &LineError, line: usize) -> String {
    let exit =
        if error.is_input_refused { super::Exit::InputRefused } else { super::Exit::Failure };
    let failure =
        LineFailure { code: error.code.as_str(), message: &error.message, exit: exit.code() };
    let id = error.id.as_ref();
    super::to_json_line(&BatchAnswer::Error(ErrorLine { id, line, error: failure }))
}
