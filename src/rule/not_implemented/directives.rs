//! Whether directive comments alone (`# noqa`, `//nolint`, `#[allow]`) answer a step: the
//! `directive_only` finding's decision.

use crate::rule::ask::{self, Kind};
use crate::rule::intent;
use crate::summary::{self, ChangeSummary};

/// Whether directives alone leave the step unanswered: `None` when they answer it (a step
/// that silences a check or formats, or names the directive), else the finding's wording and
/// whether it is weak. "Build the watcher only on Linux", "Make mypy accept the import": a step
/// whose kind is not stated may be one a directive carries out (weak), unless every directive
/// only turns a checker off and the step names no checker. Silencers only removed turn checks
/// back on: what a cheating answer never does, and what a removal or clean-up (`Remove
/// unneeded allows`) may be all about (weak).
pub(super) fn directives_left_unanswered(
    summary: &ChangeSummary,
    description: &str,
    kinds: &[Kind],
) -> Option<(&'static str, bool)> {
    const ONLY: &str = "only adds or removes directive comments";
    let has = |kind| kinds.contains(&kind);
    if has(Kind::Suppress) || has(Kind::Format) || names_a_directive(summary, description) {
        return None;
    }
    if only_turns_checks_on(summary) {
        return Some(("only removes directives that turned a check off", true));
    }
    if kinds.is_empty() {
        let is_weak = !only_silences(summary)
            || ask::names_a_check(description)
            || silences_what_the_step_names(summary, description);
        return Some((ONLY, is_weak));
    }
    Some((ONLY, false))
}

/// Whether the step's first line names a directive the patch adds or removes, by its keyword
/// (`Add nocov markings` for `# :nocov:`) or by the rule it silences (`disable G602` for `//
/// #nosec G602`): the step asks for that directive. A name counts when it is a word of five
/// characters or more, holds a digit (a rule's code), or is a keyword in capitals (an acronym:
/// `IWYU` of `// IWYU pragma: export`): `type` of `# type: ignore` is a word steps use for
/// other things. A shebang is named as such (`fix shebang in build.sh`); a lint's code with a
/// digit or an underscore (`internal_features`) counts anywhere in the description, which may
/// quote the compiler's error the directive answers.
fn names_a_directive(summary: &ChangeSummary, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let directives =
        summary.files.iter().flat_map(|f| f.directives_added.iter().chain(&f.directives_removed));
    // A lint's code (`internal_features`, `E501`) is named anywhere in the description: the
    // compiler's error the step quotes.
    let is_code =
        |name: &str| name.contains(['_', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    directives.flat_map(|d| directive_names(d)).any(|name| {
        intent::has_word(subject, &name) || (is_code(&name) && intent::has_word(description, &name))
    })
}

/// The names in a directive comment that a step may use for it: its keyword (the first word
/// after the comment marker) and its arguments that hold a digit (`G602`, `E501`, `SC2086`).
fn directive_names(directive: &str) -> Vec<String> {
    let is_name_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let words: Vec<&str> = directive
        .split(|c: char| !is_name_char(c))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
        .collect();
    let long_enough = |w: &str| w.chars().count() >= 5 || w.chars().any(|c| c.is_ascii_digit());
    // An attribute (`#[allow(dead_code)]`, `@SuppressWarnings("unchecked")`) is named by the
    // lints it lists, not by `allow`, a verb steps use for other things; a lint's name holds a
    // digit or an underscore.
    let is_attribute = directive.trim_start().starts_with(['[', '@'])
        || directive.trim_start().starts_with("#[")
        || directive.trim_start().starts_with("#![");
    let is_acronym = |w: &str| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_uppercase());
    let is_code =
        |w: &&&str| w.chars().any(|c| c.is_ascii_digit()) || (is_attribute && w.contains('_'));
    let keyword =
        words.first().copied().filter(|w| !is_attribute && (long_enough(w) || is_acronym(w)));
    let codes = words.iter().skip(1).filter(is_code);
    // `#!/usr/bin/env bash` is named by what it is: the shebang.
    let is_shebang = directive.trim_start().starts_with("#!") && !directive.contains("#![");
    let kind = is_shebang.then_some(["shebang", "hashbang"]).into_iter().flatten();
    let names = keyword.into_iter().chain(kind).map(str::to_owned);
    names.chain(codes.map(|w| (*w).to_owned())).collect()
}

/// Whether the patch adds directives and every directive it adds or removes turns a checker
/// off ([`summary::silences_a_check`]): `# noqa`, `// @ts-ignore`, `//nolint`, not `//go:build`.
fn only_silences(summary: &ChangeSummary) -> bool {
    let all =
        summary.files.iter().flat_map(|f| f.directives_added.iter().chain(&f.directives_removed));
    summary.files.iter().any(|f| !f.directives_added.is_empty())
        && all.into_iter().all(|d| summary::silences_a_check(d))
}

/// Whether the patch adds no directive and every directive it removes turned a checker off.
fn only_turns_checks_on(summary: &ChangeSummary) -> bool {
    let removed = summary.files.iter().flat_map(|f| &f.directives_removed);
    summary.files.iter().all(|f| f.directives_added.is_empty())
        && removed.clone().next().is_some()
        && removed.into_iter().all(|d| summary::silences_a_check(d))
}

/// Whether a directive the patch adds names, past its tool's own words, a word of the step's
/// first line: `// eslint-disable-next-line no-console` for "Allow the CLI to print its banner
/// to the console" turns off the very check the step is about.
fn silences_what_the_step_names(summary: &ChangeSummary, description: &str) -> bool {
    const TOOL_WORDS: [&str; 8] =
        ["disable", "enable", "ignore", "next", "line", "file", "all", "type"];
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 4)
            .map(str::to_lowercase)
            .filter(|w| !TOOL_WORDS.contains(&w.as_str()))
            .collect()
    };
    let subject = words(description.trim_start().lines().next().unwrap_or_default());
    let directives = summary.files.iter().flat_map(|f| &f.directives_added);
    directives.flat_map(|d| words(d)).any(|w| subject.contains(&w))
}
