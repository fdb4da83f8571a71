//! `patchgate repair` output: the JSON document, and the text lines that go to stderr beside
//! the repaired patch on stdout.

use super::TextOptions;
use super::diagnostic::{Level, located};
use crate::repair::{Outcome, Proof, Refusal, Repair};
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of a repair.
#[derive(Debug, Serialize)]
pub struct RepairReport<'o> {
    /// Whether the repaired patch was proven (exit 0); false when refused (exit 1).
    pub repaired: bool,
    /// The repaired patch (the input unchanged when nothing needed repair); `null` when
    /// refused. Bytes that are not UTF-8 are replaced (U+FFFD); `--output` writes them exactly.
    pub patch: Option<String>,
    /// One phrase per kind and file (`recounted 2 hunks of src/a.rs`); empty when nothing
    /// was repaired.
    pub summary: String,
    /// Every repair made.
    pub repairs: &'o [Repair],
    /// Why the patch was refused.
    pub refusals: &'o [Refusal],
    /// What the repaired patch was checked for.
    pub proof: Option<&'o Proof>,
}

impl<'o> RepairReport<'o> {
    /// Describe `outcome`.
    #[must_use]
    pub fn new(outcome: &'o Outcome) -> Self {
        Self {
            repaired: outcome.is_proven(),
            patch: outcome.patch.as_deref().map(|p| String::from_utf8_lossy(p).into_owned()),
            summary: outcome.summary(),
            repairs: &outcome.repairs,
            refusals: &outcome.refusals,
            proof: outcome.proof.as_ref(),
        }
    }
}

/// One `NAME:LINE: repair[kind]: message` line per repair, one `NAME:LINE: error[code]:
/// message` line per refusal, then the proof or the refusal verdict; with `-q`, the refusal
/// lines alone.
#[must_use]
pub fn repair_text(outcome: &Outcome, name: &str, text: &TextOptions) -> String {
    let p = &text.palette;
    let mut out = String::new();
    for r in outcome.repairs.iter().filter(|_| !text.is_quiet) {
        let place = format!("{name}:{}:", r.line);
        let _ = writeln!(out, "{}", located(p, &place, Level::Repair, r.kind.as_str(), &r.message));
    }
    for r in &outcome.refusals {
        let place = format!("{name}:{}", r.line.map(|l| format!("{l}:")).unwrap_or_default());
        let _ = writeln!(out, "{}", located(p, &place, Level::Error, r.code.as_str(), &r.message));
    }
    if text.is_quiet {
        return out;
    }
    match (&outcome.proof, outcome.is_proven()) {
        (Some(proof), true) => {
            let _ = writeln!(out, "repaired: {}", proof_text(proof, outcome.repairs.len()));
        }
        _ => {
            let _ = writeln!(
                out,
                "refused: the patch is not repaired ({} repair(s) made before the refusal)",
                outcome.repairs.len()
            );
        }
    }
    out
}

fn proof_text(proof: &Proof, repairs: usize) -> String {
    let applies = match (&proof.applies, &proof.base) {
        (Some(true), Some(base)) => format!("applies to {base} and rolls back in scratch"),
        _ => "not checked against a repository".to_owned(),
    };
    format!(
        "{repairs} repair(s); parses cleanly; {applies}; {} changed line(s) byte-identical to the agent's",
        proof.lines_compared
    )
}
