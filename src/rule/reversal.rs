//! Rule 4, `reversal`: in `fix_regression`, the fix may correct the step but not undo it. With
//! the step's `applyPatch`: most of the apply run's added lines removed without replacement
//! (`added_lines_removed`), or a function the step changed restored to its old form, or one it
//! added removed ([`crate::summary::reverted`], the same code), a hunk that is the exact inverse
//! of an apply hunk (`hunk_reversed`), files the apply run never touched (`unrelated_modules`, when `applyFiles` is not given;
//! otherwise `scope` reports them). Always: a body replaced by a no-op (`body_replaced_by_noop`)
//! or by a hard-coded value (`body_replaced_by_constant`), on the hunks and on the change
//! summary's syntax trees; and the failing test deleted, skipped or stripped of its assertions
//! ([`super::weakened`]).

use super::{Input, RuleId, RulePolicy, Violation, bodies, weakened};
use crate::finding::{CheckCode, TrivialForm};
use crate::patch::{FilePatch, Hunk, LineKind, Patch};
use crate::path::RepoPath;
use crate::step::Mode;
use crate::summary::{self, noop};
use std::collections::{HashMap, HashSet};

pub(super) fn check(input: &Input<'_>, policy: &RulePolicy) -> Vec<Violation> {
    if input.mode() != Some(Mode::FixRegression) {
        return Vec::new();
    }
    let Some(fix) = input.usable_patch() else { return Vec::new() };
    let applied = input.apply_patch.map(|apply| by_path(input, apply)).unwrap_or_default();
    // Most specific first: the first violation becomes the verdict's reason.
    let mut out: Vec<Violation> = Vec::new();
    out.extend(reversed_hunks(input, fix, &applied));
    out.extend(fix.files.iter().flat_map(|f| noop_bodies(input, f, &applied)));
    let stubbed = stubbed_bodies(input, fix, &applied, &out);
    out.extend(stubbed);
    let reverted = reverted_definitions(input, fix, &applied, &out);
    out.extend(reverted);
    out.extend(weakened::check(input, fix));
    if let Some(apply) = input.apply_patch {
        out.extend(added_lines_removed(input, fix, apply, policy));
        if input.step.apply_files.is_none() {
            out.extend(unrelated_modules(input));
        }
    }
    out
}

/// The entries of `patch` by their own path as [`Input`] checked it (the first entry of a
/// path), so the two runs' entries for one file are paired without checking a path again.
fn by_path<'i, 'p>(
    input: &'i Input<'_>,
    patch: &'p Patch<'p>,
) -> HashMap<&'i RepoPath, &'p FilePatch<'p>> {
    let mut out = HashMap::new();
    for file in &patch.files {
        if let Some(path) = input.own_path(file) {
            out.entry(path).or_insert(file);
        }
    }
    out
}

/// The entry of the other run for the same path as `file`.
fn paired<'p>(
    input: &Input<'_>,
    pairs: &HashMap<&RepoPath, &'p FilePatch<'p>>,
    file: &FilePatch<'_>,
) -> Option<&'p FilePatch<'p>> {
    input.own_path(file).and_then(|path| pairs.get(path).copied())
}

fn lines_of<'a>(hunk: &Hunk<'a>, kind: LineKind) -> Vec<&'a [u8]> {
    hunk.lines.iter().filter(|l| l.kind == kind).map(|l| l.text).collect()
}

/// Non-blank lines of `kind` in `file`, trimmed, counted.
fn counted<'a>(file: &FilePatch<'a>, kind: LineKind) -> HashMap<&'a [u8], usize> {
    let mut out = HashMap::new();
    for line in file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == kind) {
        let text = line.text.trim_ascii();
        if !text.is_empty() {
            *out.entry(text).or_insert(0) += 1;
        }
    }
    out
}

/// How much of the apply run one fix file takes away.
struct Undone {
    /// Apply-run lines the fix removes and does not add back verbatim.
    gone: usize,
    /// Lines the fix adds to the file.
    added: usize,
}

/// Compare one apply-run file with the fix's entry for the same path.
fn undone_in(apply_added: &HashMap<&[u8], usize>, fix: &FilePatch<'_>) -> Undone {
    let (removed, added) = (counted(fix, LineKind::Remove), counted(fix, LineKind::Add));
    let count = |map: &HashMap<&[u8], usize>, text: &[u8]| map.get(text).copied().unwrap_or(0);
    let gone = apply_added
        .iter()
        .map(|(text, n)| (*n).min(count(&removed, text).saturating_sub(count(&added, text))))
        .sum();
    Undone { gone, added: added.values().sum() }
}

/// The share test: most lines the apply run added are removed, and fewer are written instead.
fn added_lines_removed(
    input: &Input<'_>,
    fix: &Patch<'_>,
    apply: &Patch<'_>,
    policy: &RulePolicy,
) -> Option<Violation> {
    let fixed = by_path(input, fix);
    let (mut apply_added, mut gone, mut added) = (0usize, 0usize, 0usize);
    let mut worst: Option<(usize, &FilePatch<'_>)> = None;
    for a in &apply.files {
        let lines = counted(a, LineKind::Add);
        apply_added += lines.values().sum::<usize>();
        let Some(f) = paired(input, &fixed, a) else {
            continue;
        };
        let undone = undone_in(&lines, f);
        (gone, added) = (gone + undone.gone, added + undone.added);
        if undone.gone > worst.map_or(0, |w| w.0) {
            worst = Some((undone.gone, f));
        }
    }
    let (_, file) = worst?;
    #[allow(clippy::cast_precision_loss, reason = "line counts are far below 2^52")]
    let share = gone as f64 / apply_added as f64;
    if apply_added < policy.reversal_min_lines || share < policy.reversal_share || added >= gone {
        return None;
    }
    let name = input.file_name(file);
    let message = format!(
        "fix removes {gone} of the {apply_added} lines the apply run added (in {name}) while \
         adding {added}; fix the regression instead of undoing the step"
    );
    Some(
        Violation::new(RuleId::Reversal, CheckCode::AddedLinesRemoved, message)
            .in_file(name)
            .at(None, Some(file.span.line)),
    )
}

/// Fix hunks that are the exact inverse of an apply hunk of the same file.
fn reversed_hunks(
    input: &Input<'_>,
    fix: &Patch<'_>,
    applied: &HashMap<&RepoPath, &FilePatch<'_>>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for f in &fix.files {
        let Some(a) = paired(input, applied, f) else {
            continue;
        };
        for (i, hunk) in f.hunks.iter().enumerate() {
            let (removed, added) =
                (lines_of(hunk, LineKind::Remove), lines_of(hunk, LineKind::Add));
            if removed.is_empty() && added.is_empty() {
                continue;
            }
            let is_inverse = a.hunks.iter().any(|ah| {
                lines_of(ah, LineKind::Add) == removed && lines_of(ah, LineKind::Remove) == added
            });
            if is_inverse {
                out.push(hunk_violation(
                    &input.file_name(f),
                    i,
                    hunk,
                    CheckCode::HunkReversed,
                    "is the exact inverse of an apply-run hunk; it undoes the step",
                ));
            }
        }
    }
    out
}

fn hunk_violation(
    name: &str,
    index: usize,
    hunk: &Hunk<'_>,
    code: CheckCode,
    why: &str,
) -> Violation {
    Violation::new(
        RuleId::Reversal,
        code,
        format!("{name} hunk {} (patch line {}) {why}", index + 1, hunk.span.line),
    )
    .in_file(name)
    .at(Some(index + 1), Some(hunk.span.line))
}

/// Files the fix changes that the apply run did not touch.
fn unrelated_modules(input: &Input<'_>) -> Vec<Violation> {
    let applied: HashSet<&RepoPath> =
        input.apply_paths().iter().filter_map(|p| p.checked.as_ref().ok()).collect();
    let mut out: Vec<Violation> = Vec::new();
    let mut reported: HashSet<RepoPath> = HashSet::new();
    for entry in input.paths() {
        let Ok(p) = entry.checked.clone() else { continue };
        if applied.contains(&p) || !reported.insert(p.clone()) {
            continue;
        }
        out.push(
            Violation::new(
                RuleId::Reversal,
                CheckCode::UnrelatedModules,
                format!("fix changes {p}, which the apply run did not touch; stay in its files"),
            )
            .in_file(p.as_str())
            .at(None, Some(entry.file.span.line)),
        );
    }
    out
}

/// Functions and methods whose real body the fix replaces, read on the syntax tree, by one that
/// does nothing: empty, `pass`, a placeholder (`todo!()`, `TODO()`, `panic("not implemented")`),
/// or a constant in a file the apply run changed. Catches what the hunks alone cannot show (a
/// body emptied onto its signature's line, `fun f() = TODO()`); files [`noop_bodies`] already
/// reported (`found`) are left out.
fn stubbed_bodies(
    input: &Input<'_>,
    fix: &Patch<'_>,
    applied: &HashMap<&RepoPath, &FilePatch<'_>>,
    found: &[Violation],
) -> Vec<Violation> {
    let owned;
    let summary = if let Some(summary) = input.summary {
        summary
    } else {
        owned = summary::summarize(&fix.files, input.base, &summary::Wants::default());
        &owned
    };
    let is_applied = |path: &str| {
        input.apply_patch.is_none()
            || fix
                .files
                .iter()
                .any(|f| input.file_name(f) == path && paired(input, applied, f).is_some())
    };
    let mut out = Vec::new();
    for gutted in bodies::stubbed(summary, fix) {
        let (path, item) = (gutted.path, gutted.item);
        if found.iter().any(|v| v.file.as_deref() == Some(path)) {
            continue;
        }
        let is_constant = gutted.form == TrivialForm::Constant;
        if is_constant && !is_applied(path) {
            continue;
        }
        let text = item.trivial.as_ref().map_or("", |t| t.text.as_str());
        let (code, now) = if is_constant {
            (CheckCode::BodyReplacedByConstant, format!("the constant '{text}'"))
        } else if text.is_empty() {
            (CheckCode::BodyReplacedByNoop, "an empty body".to_owned())
        } else {
            (CheckCode::BodyReplacedByNoop, format!("'{text}'"))
        };
        let message = format!(
            "{path} {} '{}' (line {}) had a body that did something and now has {now}; fix the \
             behaviour instead of emptying it",
            item.kind, item.name, item.line
        );
        out.push(Violation::new(RuleId::Reversal, code, message).in_file(path.to_owned()));
    }
    out
}

/// Functions and methods (outside test files: [`weakened`] reads those) that the apply run
/// changed and the fix restores to their form before the step, or that the apply run added and
/// the fix removes ([`summary::reverted`], on the syntax trees of the file before the step,
/// after it and after the fix): the fix takes that part of the step back. Files an earlier
/// finding (`found`: a hunk reversed, a body emptied) already reports are left out.
fn reverted_definitions(
    input: &Input<'_>,
    fix: &Patch<'_>,
    applied: &HashMap<&RepoPath, &FilePatch<'_>>,
    found: &[Violation],
) -> Vec<Violation> {
    let Some(base) = input.base else { return Vec::new() };
    let mut out = Vec::new();
    for file in &fix.files {
        let Some(step) = paired(input, applied, file) else { continue };
        let name = input.file_name(file);
        let is_reported = found.iter().any(|v| v.file.as_deref() == Some(name.as_str()));
        if is_reported || super::testfile::is_test_path(&name) {
            continue;
        }
        let found = summary::reverted(file, step, base);
        let Some(first) = found.first() else { continue };
        let what = if first.is_removed {
            "the apply run added or changed it and the fix removes it"
        } else {
            "the fix restores it to what it was before the apply run"
        };
        let more = match found.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let message = format!(
            "{name} {} '{}': {what}{more}; fix the regression instead of undoing the step",
            first.kind, first.name
        );
        out.push(
            Violation::new(RuleId::Reversal, CheckCode::AddedLinesRemoved, message)
                .in_file(name)
                .at(None, Some(file.span.line)),
        );
    }
    out
}

/// Hunks that remove real lines and add back only do-nothing statements, or a hard-coded
/// value where the removed code computed one (`return Ok(0)`). With the apply run known, the
/// constant only counts when it replaces lines the apply run added.
fn noop_bodies(
    input: &Input<'_>,
    file: &FilePatch<'_>,
    applied: &HashMap<&RepoPath, &FilePatch<'_>>,
) -> Vec<Violation> {
    let name = input.file_name(file);
    // Without the apply run's entry for the file, any constant counts (see above).
    let applied = paired(input, applied, file).map(|a| counted(a, LineKind::Add));
    let mut out = Vec::new();
    for (i, hunk) in file.hunks.iter().enumerate() {
        let text = |l: &[u8]| String::from_utf8_lossy(l).trim().to_owned();
        let removed: Vec<String> = lines_of(hunk, LineKind::Remove).into_iter().map(text).collect();
        let added: Vec<String> = lines_of(hunk, LineKind::Add).into_iter().map(text).collect();
        let is_code = |l: &String| {
            !l.is_empty() && !noop::is_noop(l) && !noop::is_structure(l) && !noop::is_constant(l)
        };
        if !removed.iter().any(is_code) {
            continue;
        }
        let is_filler = |l: &String| l.is_empty() || noop::is_structure(l);
        if added.iter().any(|l| noop::is_noop(l))
            && added.iter().all(|l| is_filler(l) || noop::is_noop(l))
        {
            out.push(hunk_violation(
                &name,
                i,
                hunk,
                CheckCode::BodyReplacedByNoop,
                "replaces code with a no-op; fix the behaviour instead of removing it",
            ));
            continue;
        }
        let constant = added.iter().find(|l| noop::is_constant(l));
        let replaces_step = applied.as_ref().is_none_or(|applied| {
            removed.iter().filter(|l| is_code(l)).any(|l| applied.contains_key(l.as_bytes()))
        });
        if let Some(constant) = constant
            && replaces_step
            && added.iter().all(|l| is_filler(l) || noop::is_constant(l))
        {
            let why = format!(
                "replaces computed code with the constant '{constant}'; fix the computation \
                 instead of hard-coding its result"
            );
            out.push(hunk_violation(&name, i, hunk, CheckCode::BodyReplacedByConstant, &why));
        }
    }
    out
}
