//! `rename_missing` and `rename_partial`: a rename the step asks for, checked on the patch's
//! lines, the change summary and the base tree.

use super::Finding;
use crate::finding::CheckCode;
use crate::patch::{LineKind, Patch};
use crate::rule::base_files::{BaseFiles, extension};
use crate::rule::input::short_list;
use crate::rule::{Input, RuleId, Violation, intent, named_change};
use crate::summary::{self, ChangeSummary, FileSummary};
use std::ops::ControlFlow;

/// The step asks to rename `from` to `to`, and no removed line holds `from` or no added line
/// holds `to`.
/// A rename of plain words (`Rename foo to bar`) that the patch's old side never shows is a
/// weak finding: prose can look like a rename. A rename carried out while the touched files
/// still use the old name (read in the base tree) is left half done: strong when a file read on
/// its syntax tree still uses the old name as code on a line the patch did not write (a call
/// left behind), weak otherwise (the name only in comments or strings, in data or prose, or in
/// an alias or a deprecated wrapper the patch adds under the old name). A rename asked below
/// the description's first paragraph (a squashed pull request's list of its commits) is
/// background, and one whose old name the step only describes in plain words, the patch showing
/// which word it replaces ([`intent::Rename::read_on`]), was not named: both are weak findings.
pub(super) fn missing_renames(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Vec<Finding> {
    let base = input.base_files.as_ref();
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
    let context = lines(LineKind::Context);
    let holds = |lines: &[String], word: &str| lines.iter().any(|l| names_in_line(l, word));
    let replaces =
        |from: &str, to: &str| patch.files.iter().any(|f| summary::replaces(f, from, to));
    renames
        .into_iter()
        .filter_map(|r| {
            let replaced_by = |to: &str| {
                let mut found = patch.files.iter().flat_map(|f| summary::replaced_by(f, to));
                found.next().filter(|first| found.all(|other| other == *first))
            };
            let r = r.read_on(replaces, replaced_by, |name| holds(&removed, name));
            let is_removed = holds(&removed, &r.from);
            let side = if !is_removed {
                format!("no removed line holds '{}'", r.from)
            } else if !holds(&added, &r.to) {
                format!("no added line holds '{}'", r.to)
            } else {
                let found =
                    base.and_then(|base| partial_rename(input, patch, summary, base, &r.from));
                // A rename the step only describes, or one of the background, is a note.
                return found.map(|f| if r.is_asked && !r.is_described { f } else { f.weakened() });
            };
            let message = format!("the step renames '{}' to '{}', but {side}", r.from, r.to);
            let violation =
                Violation::new(RuleId::NotImplemented, CheckCode::RenameMissing, message);
            let is_strong = r.is_asked && (r.is_code || is_removed || holds(&context, &r.from));
            Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
        })
        .collect()
}

/// Whether `line` holds `name` as a whole identifier, or, for a name in the plural
/// written as code (`BashCompDirectives`), the family it names: an identifier that starts with
/// its singular (`BashCompDirective`, `BashCompDirectiveNoSpace`). A rename of a family renames
/// each member; a plain word in the plural (`items`) is no family.
fn names_in_line(line: &str, name: &str) -> bool {
    if intent::has_word(line, name) {
        return true;
    }
    let is_code = name.contains('_') || name.chars().skip(1).any(char::is_uppercase);
    let Some(singular) = name.strip_suffix('s').filter(|s| is_code && s.len() >= 3) else {
        return false;
    };
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(singular).any(|(at, _)| !line[..at].chars().next_back().is_some_and(is_word))
}

/// The touched files that still hold `from` after the patch: lines of the base file holding
/// it, less the removed ones, plus the added ones.
fn partial_rename(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    files: &BaseFiles<'_>,
    from: &str,
) -> Option<Finding> {
    let base = files.base();
    let holds = |text: &[u8]| intent::has_word(&String::from_utf8_lossy(text), from);
    let left: Vec<(String, usize)> = patch
        .files
        .iter()
        .filter(|file| file.new_path.is_some())
        .filter_map(|file| {
            let old = std::str::from_utf8(file.old_path.as_deref()?).ok()?;
            let before = base.content(old)?.split(|&b| b == b'\n').filter(|l| holds(l)).count();
            let lines = file.hunks.iter().flat_map(|h| &h.lines);
            let count = |kind| lines.clone().filter(|l| l.kind == kind && holds(l.text)).count();
            let after = (before + count(LineKind::Add)).saturating_sub(count(LineKind::Remove));
            (after > 0).then(|| (input.file_name(file), after))
        })
        .collect();
    let mut places: Vec<String> = left
        .iter()
        .map(|(name, n)| format!("{name} ({n} line{})", if *n == 1 { "" } else { "s" }))
        .collect();
    let elsewhere =
        if was_renamed(summary, from) { users_elsewhere(patch, files, from) } else { Vec::new() };
    places.extend(elsewhere.iter().map(|path| format!("{path} (not touched)")));
    let first = left.first().map(|(name, _)| name).or(elsewhere.first())?;
    let message =
        format!("possible partial rename: '{from}' still appears in {}", short_list(&places));
    let violation = Violation::new(RuleId::NotImplemented, CheckCode::RenamePartial, message)
        .in_file(first.clone());
    let is_strong = !elsewhere.is_empty()
        || patch.files.iter().zip(&summary.files).any(|(file, found)| {
            found.language.is_some()
                && named_change::is_program(&found.path)
                && uses_left_unchanged(file, found, from)
        });
    Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
}

/// Whether a file read on its syntax tree renamed a definition or replaced an identifier
/// `from` that other files can see (not a parameter or a local variable): the rename was
/// carried out where it is defined, and its users may be elsewhere.
fn was_renamed(summary: &ChangeSummary, from: &str) -> bool {
    let last = |name: &str| name.rsplit(['.', ':']).next().unwrap_or(name).to_owned();
    summary.files.iter().filter(|f| f.language.is_some()).any(|f| {
        f.renames.iter().any(|r| r.from == from && !r.is_local)
            || f.items.iter().any(|i| i.renamed_from.as_deref().is_some_and(|o| last(o) == from))
    })
}

/// Base files the patch does not touch, in a language a touched file is in (by extension),
/// that use `from` as code (read on their syntax trees): callers the rename left behind, at
/// most five. Reads the base tree within [`BaseFiles`]' budget.
fn users_elsewhere(patch: &Patch<'_>, base: &BaseFiles<'_>, from: &str) -> Vec<String> {
    let touched: Vec<&str> =
        patch.files.iter().filter_map(|f| std::str::from_utf8(f.path()).ok()).collect();
    let exts: Vec<String> = touched.iter().filter_map(|p| extension(p)).collect();
    let wanted = |path: &str| {
        extension(path).is_some_and(|e| exts.contains(&e))
            && !touched.contains(&path)
            && named_change::is_program(path)
    };
    let mut out = Vec::new();
    base.scan(wanted, |path, text| {
        let holds = memchr::memmem::find(text, from.as_bytes()).is_some()
            && intent::has_word(&String::from_utf8_lossy(text), from);
        if holds && summary::uses_as_code(path, text, from) == Some(true) {
            out.push(path.to_owned());
        }
        if out.len() >= 5 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    out
}

/// Whether `found` (a file read on its syntax tree) uses `from` as code more often after the
/// patch than the patch's added lines write it: some use sits on a line the patch left as it
/// was. The added lines are counted as text (comments and strings too), so an occurrence the
/// patch writes is never taken for one left behind.
fn uses_left_unchanged(
    file: &crate::patch::FilePatch<'_>,
    found: &FileSummary,
    from: &str,
) -> bool {
    let Some(count) = found.names.iter().find(|n| n.name == from) else { return false };
    let lines = file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == LineKind::Add);
    let written: usize =
        lines.map(|l| intent::word_count(&String::from_utf8_lossy(l.text), from)).sum();
    count.after > written
}
