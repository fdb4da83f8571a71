//! Rule 8, `not-implemented` (deterministic part): in `apply` mode with success, a change that
//! is only whitespace or only comments does not implement a step unless the step asks for
//! exactly that, and a placeholder (`todo!()`, `raise NotImplementedError`) is not an
//! implementation unless the step asks for a stub. Post-conditions (`expect`) are checked on the
//! patched tree in scratch; `--judge` decides what no rule can.

use super::input::file_name;
use super::superficial::{Change, classify};
use super::{Input, RuleId, Violation, noop};
use crate::patch::{LineKind, Patch};
use crate::step::Mode;
use regex::Regex;
use std::sync::LazyLock;

/// Step descriptions that ask for whitespace or formatting changes.
static ASKS_FORMATTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(white\s*space|indent\w*|format\w*|reformat\w*|fmt|rustfmt|gofmt|prettier|black|lint\w*|style|trailing|tabs?|line\s+endings?|newlines?|spacing|align\w*)\b",
    )
    .expect("the formatting pattern is a valid regex")
});

/// Step descriptions that ask for comment or documentation changes.
static ASKS_COMMENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(comment\w*|doc|docs|document\w*|docstrings?|javadoc|rustdoc|jsdoc|typos?|spelling|misspel\w*|licen[cs]e|copyright|todos?|fixme|annotat\w*)\b",
    )
    .expect("the comment pattern is a valid regex")
});

/// Step descriptions that ask for a placeholder.
static ASKS_STUB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(stubs?|placeholders?|scaffold\w*|skeleton|todo!?|unimplemented)\b")
        .expect("the stub pattern is a valid regex")
});

pub(super) fn check(input: &Input<'_>) -> Vec<Violation> {
    if input.mode() != Some(Mode::Apply) || !input.result.success {
        return Vec::new();
    }
    let Some(patch) = input.usable_patch() else { return Vec::new() };
    let description = input.step.description.as_str();
    let mut out: Vec<Violation> = superficial(patch, description).into_iter().collect();
    if !ASKS_STUB.is_match(description) {
        out.extend(placeholders(patch));
    }
    out
}

fn superficial(patch: &Patch<'_>, description: &str) -> Option<Violation> {
    if patch.added() + patch.removed() == 0 {
        return None; // zero-impact's business
    }
    let worst = patch.files.iter().map(classify).max()?;
    let names: Vec<String> = patch.files.iter().map(file_name).collect();
    let (code, what) = match worst {
        Change::Whitespace if !ASKS_FORMATTING.is_match(description) => {
            ("whitespace_only", "changes only whitespace")
        }
        Change::Comment if !ASKS_COMMENTS.is_match(description) => {
            ("comment_only", "changes only comments")
        }
        _ => return None,
    };
    Some(
        Violation::new(
            RuleId::NotImplemented,
            code,
            format!("patch {what} in {}; the step asks for a real change", names.join(", ")),
        )
        .in_file(names[0].clone())
        .at(None, patch.files.first().map(|f| f.span.line)),
    )
}

fn placeholders(patch: &Patch<'_>) -> Vec<Violation> {
    let mut out = Vec::new();
    for file in &patch.files {
        for (i, hunk) in file.hunks.iter().enumerate() {
            let found = hunk.lines.iter().find(|l| {
                l.kind == LineKind::Add && noop::is_placeholder(&String::from_utf8_lossy(l.text))
            });
            if let Some(line) = found {
                let name = file_name(file);
                let text = String::from_utf8_lossy(line.text).trim().to_owned();
                out.push(
                    Violation::new(
                        RuleId::NotImplemented,
                        "placeholder_added",
                        format!(
                            "{name} hunk {} (patch line {}) adds the placeholder '{text}'; implement it",
                            i + 1,
                            line.line
                        ),
                    )
                    .in_file(name)
                    .at(Some(i + 1), Some(line.line)),
                );
            }
        }
    }
    out
}
