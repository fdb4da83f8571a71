//! `patchgate validate` output: the execute-step validator's one-line verdict, the full report as
//! JSON, and compiler-style text diagnostics pointing at the patch lines (drawn by
//! [`super::diagnostic`], as `review show` draws them).

use super::TextOptions;
use super::diagnostic::{Extent, PatchText, annotate, write_list, write_patch};
use crate::finding::JudgeRun;
use crate::rule::Report;
use std::fmt::Write as _;

/// The execute-step validator's contract: exactly `{"valid": ..., "reason": "..."}` on one line.
#[must_use]
pub fn verdict_json(report: &Report) -> String {
    super::to_json_line(&report.verdict)
}

/// The full report (verdict, every violation, notes) as indented JSON, for `--report FILE`.
#[must_use]
pub fn report_json(report: &Report) -> String {
    super::to_json_pretty(report)
}

/// Every violation, then every note, as a diagnostic (`error[rule/code]: message` and where it
/// sits), the patch lines they point at with their marks, then the verdict; with `-q`, the
/// verdict line alone. `patch` is the result's patch text, `origin` names the result in
/// locations (`result.json`).
#[must_use]
pub fn verdict_text(
    report: &Report,
    patch: Option<&str>,
    origin: &str,
    text: &TextOptions,
) -> String {
    let verdict = if report.verdict.valid { "valid" } else { "rejected" };
    let verdict = format!("{verdict}: {}\n", report.verdict.reason);
    if text.is_quiet {
        return verdict;
    }
    let patch = PatchText::new(patch.unwrap_or_default());
    let annotations = annotate(report, &patch);
    let palette = &text.palette;
    let mut out = String::new();
    write_list(&mut out, &annotations, &format!("{origin} (patch)"), palette);
    write_patch(&mut out, &patch, &annotations, Extent::Marked, palette);
    if let Some(summary) = report.summary.as_ref().filter(|s| !s.files.is_empty()) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("the change, file by file:\n");
        for line in crate::summary::describe(summary) {
            let _ = writeln!(out, "  {}", super::diagnostic::sanitize(&line));
        }
    }
    if let Some(judge) = &report.judge {
        let _ = writeln!(out, "\n{}", judge_line(judge));
    }
    let _ = write!(out, "\n{verdict}");
    out
}

/// `judge: openai:gpt-4o-mini rejected (812 tokens in, 31 out)`, or `(cached, no call; it cost
/// ...)` when the answer was kept from an earlier call.
fn judge_line(judge: &JudgeRun) -> String {
    let said = if judge.valid { "accepted" } else { "rejected" };
    let count = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), |n| n.to_string());
    let cost = match (judge.input_tokens, judge.output_tokens) {
        (None, None) => String::new(),
        (input, output) => {
            let cached = if judge.cached { "cached, no call; it cost " } else { "" };
            format!(" ({cached}{} tokens in, {} out)", count(input), count(output))
        }
    };
    format!("judge: {} {said}{cost}", judge.model)
}
