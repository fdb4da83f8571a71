//! `patchgate review` output: the list of rejected results (table or JSON), one result as an
//! annotated diff (coloured text or JSON), and the outcome of `review apply` / `drop`.

mod show;
#[cfg(test)]
mod tests;

pub use super::diagnostic::{Annotation, Palette, Severity, sanitize};
pub use show::{ShowView, annotate, show_text};

use crate::review::{Entry, format_age, format_time};
use crate::rule::{Code, RuleId};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::SystemTime;

/// Longest reason shown in the table when the width of the screen is unknown; the full one is
/// in `review show` and the JSON.
const REASON_WIDTH: usize = 64;
/// The narrowest the reason gets on a narrow terminal (the line then runs over).
const REASON_MIN: usize = 16;
/// Column of the reason in a row.
const REASON: usize = 4;
/// Files shown in the table before `+N`.
const FILES_SHOWN: usize = 2;

/// One entry in `review list` (JSON: an array of these, newest first).
#[derive(Clone, Debug, Serialize)]
pub struct ListRow {
    /// The short id (8 hex digits unless two entries share them).
    pub id: String,
    /// The full id.
    pub full_id: String,
    /// When it was rejected (RFC 3339, UTC).
    pub time: String,
    /// How long ago, compact (`3h`).
    pub age: String,
    /// The step's `id`, when it has one.
    pub step_id: Option<String>,
    /// The step's description.
    pub step_description: Option<String>,
    /// The rule of the verdict (the first violation's).
    pub rule: Option<RuleId>,
    /// Every distinct rule that objected.
    pub rules: Vec<RuleId>,
    /// The verdict's reason.
    pub reason: String,
    /// The files the result concerns.
    pub files: Vec<String>,
    /// The commit it was validated against.
    pub base: Option<String>,
    /// How many violations the report holds.
    pub violations: usize,
    /// Whether a person applied it with `review apply --override`.
    pub is_applied: bool,
    /// The patchgate version that rejected it.
    pub patchgate_version: String,
}

impl ListRow {
    /// The row for `entry`, shown with `short_id`, aged at `now`.
    #[must_use]
    pub fn new(entry: &Entry, short_id: &str, now: SystemTime) -> Self {
        let rules = entry.rules();
        Self {
            id: short_id.to_owned(),
            full_id: entry.id.clone(),
            time: format_time(entry.time),
            age: format_age(entry.time, now),
            step_id: entry.step_id().map(str::to_owned),
            step_description: entry.step_description().map(str::to_owned),
            rule: rules.first().copied(),
            rules,
            reason: entry.verdict.reason.clone(),
            files: entry.files(),
            base: entry.base.clone(),
            violations: entry.report.violations.len(),
            is_applied: !entry.overrides.is_empty(),
            patchgate_version: entry.patchgate_version.clone(),
        }
    }
}

/// The rows for `entries` (newest first), with ids shortened against each other.
#[must_use]
pub fn list_rows(entries: &[Entry], now: SystemTime) -> Vec<ListRow> {
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let short: HashMap<&str, String> = crate::review::short_ids(&ids);
    entries.iter().map(|e| ListRow::new(e, &short[e.id.as_str()], now)).collect()
}

/// The `review list` table: a header, then one aligned line per row. With the screen's
/// `columns`, the reason takes the room the other columns leave; without, it is cut at 64.
#[must_use]
pub fn list_text(rows: &[ListRow], columns: Option<usize>) -> String {
    let mut cells: Vec<[String; 6]> = rows.iter().map(row_cells).collect();
    let header = ["ID", "AGE", "STEP", "RULE", "REASON", "FILES"].map(str::to_owned);
    let widths = |cells: &[[String; 6]]| {
        let mut widths = header.each_ref().map(|h| h.chars().count());
        for row in cells {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        widths
    };
    // Every column but the reason, and the two spaces between each two columns.
    let full = widths(&cells);
    let others = full.iter().sum::<usize>() - full[REASON] + 2 * (full.len() - 1);
    let room = columns.map_or(REASON_WIDTH, |c| c.saturating_sub(others).max(REASON_MIN));
    for row in &mut cells {
        row[REASON] = truncate(&row[REASON], room);
    }
    let widths = widths(&cells);
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&cells) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = if i + 1 == row.len() { 0 } else { widths[i] + 2 };
            let _ = write!(line, "{cell:<pad$}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// `review list -q`: the short ids alone, one a line, newest first.
#[must_use]
pub fn list_ids(rows: &[ListRow]) -> String {
    let mut out = String::new();
    for row in rows {
        let _ = writeln!(out, "{}", row.id);
    }
    out
}

fn row_cells(row: &ListRow) -> [String; 6] {
    let rule = match (row.rule, row.rules.len()) {
        (Some(rule), 1) => rule.to_string(),
        (Some(rule), n) => format!("{rule} +{}", n - 1),
        (None, _) => "-".to_owned(),
    };
    let applied = if row.is_applied { "[applied] " } else { "" };
    let mut files = row.files.iter().take(FILES_SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if row.files.len() > FILES_SHOWN {
        let _ = write!(files, " +{}", row.files.len() - FILES_SHOWN);
    }
    [
        row.id.clone(),
        row.age.clone(),
        sanitize(row.step_id.as_deref().unwrap_or("-")).into_owned(),
        rule,
        format!("{applied}{}", sanitize(&row.reason)),
        sanitize(&files).into_owned(),
    ]
}

/// `text` cut to `max` characters, with `…` marking the cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The JSON of `review apply`, `review drop` and `review export`: what was done.
#[derive(Clone, Debug, Serialize)]
pub struct ActionOutcome {
    /// `applied`, `refused`, `dropped`, `exported`.
    pub action: &'static str,
    /// The entries concerned (short ids).
    pub ids: Vec<String>,
    /// What remained on re-validation (for `apply`): `rule: message` lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remaining: Vec<RemainingViolation>,
    /// Where the output went (`export -o`), or the files written (`apply`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// The exported patch, when `export` prints JSON and writes no file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
}

impl ActionOutcome {
    /// An outcome of `action` on `ids`, with nothing else yet.
    #[must_use]
    pub fn new(action: &'static str, ids: Vec<String>) -> Self {
        Self { action, ids, remaining: Vec::new(), files: Vec::new(), patch: None }
    }
}

/// A violation left after re-validation, and whether the person overrode it.
#[derive(Clone, Debug, Serialize)]
pub struct RemainingViolation {
    /// The rule.
    pub rule: RuleId,
    /// The finer code.
    pub code: Code,
    /// The message, without the rule prefix.
    pub message: String,
    /// Whether `--override` named its rule.
    pub is_overridden: bool,
}

/// The text of `review apply`'s refusal or success.
#[must_use]
pub fn apply_text(outcome: &ActionOutcome) -> String {
    let mut out = String::new();
    let id = outcome.ids.join(", ");
    if outcome.action == "applied" {
        let _ = writeln!(out, "applied {id}: wrote {}", sanitize(&outcome.files.join(", ")));
    } else {
        let _ = writeln!(out, "refused to apply {id}: violations remain that no --override names");
    }
    for v in &outcome.remaining {
        let mark = if v.is_overridden { "overridden" } else { "remaining " };
        let _ = writeln!(out, "  {mark}  {}: {} [{}]", v.rule, sanitize(&v.message), v.code);
    }
    let mut missing: Vec<&str> = Vec::new();
    for v in outcome.remaining.iter().filter(|v| !v.is_overridden) {
        if !missing.contains(&v.rule.as_str()) {
            missing.push(v.rule.as_str());
        }
    }
    // A patch that does not parse or apply cannot be written whatever a person decides, so
    // overriding `malformed` is never suggested.
    let is_unappliable = missing.contains(&RuleId::Malformed.as_str());
    missing.retain(|r| *r != RuleId::Malformed.as_str());
    if is_unappliable {
        let _ = writeln!(
            out,
            "the patch does not apply to HEAD as it stands: `patchgate review export {id}` and \
             fix it by hand"
        );
    } else if !missing.is_empty() {
        let flags: Vec<String> = missing.iter().map(|r| format!("--override {r}")).collect();
        let _ =
            writeln!(out, "to apply it anyway: patchgate review apply {id} {}", flags.join(" "));
    }
    out
}
