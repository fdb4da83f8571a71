//! Rule 8, `not-implemented` (deterministic part): in `apply` mode with success, a change that
//! is only whitespace or only comments (on the syntax tree, [`super::syntax`]) does not
//! implement a step unless the step asks for exactly that; a placeholder (`todo!()`,
//! `raise NotImplementedError`) outside test files is not an implementation unless the step
//! asks for a stub; a patch that touches none of the files the step names (resolved in the base
//! tree, [`super::intent`]), or a rename the step asks for that the patch does not carry out, is
//! not one. Each finding is strong or weak; `[rules] not_implemented` decides which reject and
//! which become notes. Post-conditions (`expect`) are checked on the patched tree in scratch;
//! `--judge` decides what no rule can.
//!
//! [`check`] runs each check and owns the order; each submodule holds one family of findings:
//! [`surface`] (whitespace, comments, directives, moves, deciding with [`directives`]),
//! [`placeholders`] (placeholders and bodies emptied), [`scripts`] (a program nothing runs),
//! [`untouched`] (files the step names) and [`renames`].

use super::pattern::Pattern;
use super::{Input, Note, RuleId, Strictness, Violation, intent, named_change};
use crate::finding::CheckCode;
use crate::step::Mode;
use crate::summary::{self, ChangeSummary, Wants};

mod directives;
mod placeholders;
mod renames;
mod scripts;
mod surface;
mod untouched;

/// Step descriptions that ask for a placeholder.
static ASKS_STUB: Pattern =
    Pattern::new(r"(?i)\b(stubs?|placeholders?|scaffold\w*|skeleton|todo!?|unimplemented)\b")
        .with_words(&["stub", "placeholder", "scaffold", "skeleton", "todo", "unimplemented"]);

/// One finding of the rule, and whether it is strong enough to reject under `balanced`.
#[derive(Debug)]
pub(super) struct Finding {
    pub violation: Violation,
    is_strong: bool,
}

impl Finding {
    fn strong(violation: Violation) -> Self {
        Self { violation, is_strong: true }
    }

    fn weak(violation: Violation) -> Self {
        Self { violation, is_strong: false }
    }

    /// The same finding, as a weak one.
    fn weakened(self) -> Self {
        Self { is_strong: false, ..self }
    }

    /// Whether the finding rejects at `level`.
    pub fn rejects(&self, level: Strictness) -> bool {
        match level {
            Strictness::Strict => true,
            Strictness::Balanced => self.is_strong,
            Strictness::Off => false,
        }
    }

    /// The finding as a note, for a level at which it does not reject.
    pub fn into_note(self, level: Strictness) -> Note {
        let why = match level {
            Strictness::Off => "not_implemented = \"off\"",
            _ => "a weak signal, not rejected at not_implemented = \"balanced\"",
        };
        Note {
            code: match &self.violation.code {
                crate::finding::Code::Check(code) => (*code).into(),
                other => crate::finding::NoteCode::Other(other.to_string()),
            },
            message: format!("{} ({why})", self.violation.reason()),
            patch_line: self.violation.patch_line,
        }
    }
}

pub(super) fn check(input: &Input<'_>) -> Vec<Finding> {
    if input.mode() != Some(Mode::Apply) || !input.result.success {
        return Vec::new();
    }
    let Some(patch) = input.usable_patch() else { return Vec::new() };
    if patch.added() + patch.removed() == 0 {
        return Vec::new(); // zero-impact's business
    }
    let description = input.step.description.as_str();
    let owned;
    let summary = if let Some(summary) = input.summary {
        summary
    } else {
        owned = summary::summarize(&patch.files, input.base, &summary_wants(input.step, false));
        &owned
    };
    let mut out: Vec<Finding> =
        surface::superficial_change(input, patch, summary, description).into_iter().collect();
    out.extend(scripts::script_only(input, patch, summary, description));
    if !ASKS_STUB.is_match(description) {
        out.extend(placeholders::placeholders(input, patch, summary));
        out.extend(placeholders::gutted_bodies(patch, summary, description));
        out.extend(placeholders::bodies_without_result(patch, summary));
        out.extend(placeholders::stubs_under_test(patch, summary));
        out.extend(placeholders::stubs_instead_of_logic(patch, summary));
        out.extend(placeholders::empty_tests(patch, summary));
    }
    out.extend(untouched::untouched_files(input, description));
    out.extend(renames::missing_renames(input, patch, summary, description));
    // A helper added as a placeholder is reported as one already.
    let has_placeholder = out.iter().any(|f| f.violation.code == "placeholder_added");
    let named = named_changes(summary, description).into_iter();
    out.extend(named.filter(|f| !(has_placeholder && f.violation.code == "extraction_missing")));
    out
}

/// A removal that leaves what the step names in place, or an extraction whose helper is not
/// added with a real body and used ([`named_change`]): strong when read on syntax trees.
fn named_changes(summary: &ChangeSummary, description: &str) -> Vec<Finding> {
    let removal = named_change::removal_object(description)
        .and_then(|asked| named_change::removal_missing(summary, &asked))
        .map(|m| (m, CheckCode::RemovalMissing));
    let extraction = named_change::extraction(description)
        .filter(|_| !ASKS_STUB.is_match(description))
        .and_then(|asked| named_change::extraction_missing(summary, &asked))
        .map(|m| (m, CheckCode::ExtractionMissing));
    removal
        .into_iter()
        .chain(extraction)
        .map(|(missing, code)| {
            let violation = Violation::new(RuleId::NotImplemented, code, missing.message);
            if missing.is_by_syntax { Finding::strong(violation) } else { Finding::weak(violation) }
        })
        .collect()
}

/// Whether the step's transformation has a deterministic check here: a rename, which the
/// patch's lines (and the base tree) can confirm. Steps without one are what the judge is for.
#[must_use]
pub fn checks_transformation(description: &str) -> bool {
    !intent::renames(description).is_empty()
}

/// What the change summary should read for the rules: the names a requested rename mentions.
#[must_use]
pub fn summary_wants(step: &crate::step::Step, is_full: bool) -> Wants {
    let description = step.description.as_str();
    let mut names: Vec<String> =
        intent::renames(description).into_iter().flat_map(|r| [r.from, r.to]).collect();
    // The words before the old name may be the name itself ([`intent::Rename::read_on`]).
    names.extend(intent::renames(description).into_iter().flat_map(|r| r.before));
    // A removal or an extraction is checked on syntax trees: every touched file is read.
    let mut removed = named_change::removal_targets(description);
    let object = named_change::removal_object(description).map(|r| r.name);
    removed.extend(object.filter(|o| !removed.contains(o)));
    let extraction = named_change::extraction(description);
    let is_full = is_full || !removed.is_empty() || extraction.is_some();
    names.extend(removed);
    names.extend(
        extraction
            .into_iter()
            .flat_map(|e| [e.helper, e.source, e.words.0, e.words.1].into_iter().flatten()),
    );
    Wants { is_full, names }
}

#[cfg(test)]
mod intent_tests;
