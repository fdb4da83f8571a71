//! Rule 8, `not-implemented` (deterministic part): in `apply` mode with success, a change that
//! is only whitespace or only comments does not implement a step unless the step asks for
//! exactly that; a placeholder (`todo!()`, `raise NotImplementedError`) is not an
//! implementation unless the step asks for a stub; a patch that touches none of the files the
//! step names, or a rename the step asks for that the patch does not carry out, is not one. Post-conditions (`expect`) are checked on the
//! patched tree in scratch; `--judge` decides what no rule can.

use super::input::{file_name, short_list};
use super::superficial::{Change, classify};
use super::{Input, RuleId, Violation, intent, noop};
use crate::patch::{LineKind, Patch};
use crate::step::Mode;
use regex::Regex;
use std::sync::LazyLock;

/// Step descriptions that ask for whitespace or formatting changes.
static ASKS_FORMATTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(
            white\s*space | indent\w* | formatting | formatted | reformat\w*
          | format\s+(?:the|this|these|all|it|code|files?)
          | fmt | rustfmt | gofmt | clang-format | prettier | black | autopep8 | lint\w*
          | code\s+style | trailing\s+(?:spaces?|newlines?) | final\s+newline | line\s+endings?
          | tabs?\s+(?:to|with|into)\s+spaces | spaces\s+(?:to|with|into)\s+tabs? | blank\s+lines?
        )\b",
    )
    .expect("the formatting pattern is a valid regex")
});

/// Step descriptions that ask for comment or documentation changes.
static ASKS_COMMENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(
            comment\w* | docs? | documentation | documented | docstrings? | javadoc | rustdoc
          | jsdoc | document\s+(?:the|this|these|how|why|what|each|all|it)
          | typos? | spelling | misspel\w* | licen[cs]e | copyright | todos? | fixme
        )\b",
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
    if patch.added() + patch.removed() == 0 {
        return Vec::new(); // zero-impact's business
    }
    let description = input.step.description.as_str();
    let mut out: Vec<Violation> = superficial(patch, description).into_iter().collect();
    if !ASKS_STUB.is_match(description) {
        out.extend(placeholders(patch));
    }
    out.extend(untouched_files(input, description));
    out.extend(missing_renames(patch, description));
    out
}

/// The step names files, and the patch touches none of them (nor anything below them).
fn untouched_files(input: &Input<'_>, description: &str) -> Option<Violation> {
    let named = intent::named_files(description);
    if named.is_empty() {
        return None;
    }
    let touched: Vec<&str> = input
        .paths()
        .iter()
        .filter_map(|p| p.checked.as_ref().ok().map(crate::path::RepoPath::as_str))
        .collect();
    let covers = |n: &str| touched.iter().any(|t| *t == n || t.starts_with(&format!("{n}/")));
    if touched.is_empty() || named.iter().any(|n| covers(n.as_str())) {
        return None;
    }
    let listed: Vec<&str> = named.iter().map(crate::path::RepoPath::as_str).collect();
    Some(
        Violation::new(
            RuleId::NotImplemented,
            "named_file_untouched",
            format!(
                "the step names {}, but the patch changes only {}",
                short_list(&listed),
                short_list(&touched)
            ),
        )
        .in_file(listed[0]),
    )
}

/// The step asks to rename `from` to `to`, and no removed line holds `from` or no added line
/// holds `to`.
fn missing_renames(patch: &Patch<'_>, description: &str) -> Vec<Violation> {
    let renames = intent::renames(description);
    if renames.is_empty() {
        return Vec::new(); // most steps: no need to copy every line of the patch
    }
    let lines = |kind: LineKind| -> Vec<String> {
        let all = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
        all.filter(|l| l.kind == kind)
            .map(|l| String::from_utf8_lossy(l.text).into_owned())
            .collect()
    };
    let (removed, added) = (lines(LineKind::Remove), lines(LineKind::Add));
    renames
        .into_iter()
        .filter_map(|r| {
            let side = if !removed.iter().any(|l| intent::has_word(l, &r.from)) {
                format!("no removed line holds '{}'", r.from)
            } else if !added.iter().any(|l| intent::has_word(l, &r.to)) {
                format!("no added line holds '{}'", r.to)
            } else {
                return None;
            };
            let message = format!("the step renames '{}' to '{}', but {side}", r.from, r.to);
            Some(Violation::new(RuleId::NotImplemented, "rename_missing", message))
        })
        .collect()
}

fn superficial(patch: &Patch<'_>, description: &str) -> Option<Violation> {
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
            format!("patch {what} in {}; the step asks for a real change", short_list(&names)),
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
