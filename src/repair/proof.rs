//! The proof of a repaired patch: it parses without a defect; a re-render of it reads back
//! with the same `+`/`-` lines, each byte-identical to the agent's line it came from, and
//! every hunk is a run of the agent's lines with nothing inserted or dropped inside it; and,
//! with a repository, it applies to the base and rolls back in scratch.

use super::text::input_lines;
use super::{Proof, Refusal, Work};
use crate::finding::CheckCode;
use crate::patch::{Hunk, Line, LineKind, ParseOptions, Parsed, Patch, parse, render};
use crate::scratch::{self, BaseTree, ScratchError, ScratchPolicy};
use crate::step::Step;

/// The repaired bytes and their proof, or why they were refused (with the proof as far as it
/// got).
pub(super) type Checked = Result<(Vec<u8>, Proof), (Vec<Refusal>, Option<Proof>)>;

/// Prove the working copy of `work`.
pub(super) fn prove(work: &Work<'_, '_>) -> Result<Checked, ScratchError> {
    let bytes = work.doc.bytes();
    let parsed = parse(&bytes, &work.options.parse);
    if let Some(defect) = parsed.defects.first() {
        return Ok(Err((vec![work.refuse_defect(defect)], None)));
    }
    let lines_compared = match same_lines(work, &parsed) {
        Ok(n) => n,
        Err(why) => return Ok(Err((vec![unproven(&why)], None))),
    };
    let mut proof = Proof { parses: true, applies: None, base: None, lines_compared };
    if let Some(base) = work.base {
        let refusals = apply_in_scratch(work, base, &parsed.patch)?;
        proof.base = Some(base.rev.clone());
        proof.applies = Some(refusals.is_empty());
        if !refusals.is_empty() {
            return Ok(Err((refusals, Some(proof))));
        }
    }
    Ok(Ok((bytes, proof)))
}

/// A failed line proof: a bug in a repair, never the agent's fault, so it is named as such.
fn unproven(why: &str) -> Refusal {
    Refusal {
        code: CheckCode::RepairUnproven.into(),
        message: format!(
            "the repair could not prove its result ({why}); the patch is left as sent"
        ),
        line: None,
        file: None,
    }
}

/// The `+`/`-` lines of every hunk, in order.
fn changed<'p>(patch: &Patch<'p>) -> Vec<Line<'p>> {
    let hunks = patch.files.iter().flat_map(|f| &f.hunks);
    hunks.flat_map(|h| &h.lines).filter(|l| l.kind != LineKind::Context).collect()
}

/// Compare the re-render's `+`/`-` lines with the repaired patch's, and those with the agent's
/// lines; check each hunk is a contiguous run of the agent's lines. Returns how many lines
/// were compared.
fn same_lines(work: &Work<'_, '_>, parsed: &Parsed<'_>) -> Result<usize, String> {
    let rendered = render(&parsed.patch);
    // `render` writes git's `a/` and `b/` prefixes whatever the input had, so its names come
    // back with one component stripped, however the repaired patch was read.
    let again = parse(&rendered, &ParseOptions { strip: 1, ..work.options.parse.clone() });
    if !again.is_ok() {
        return Err("the re-render does not parse".to_owned());
    }
    let (ours, theirs) = (changed(&parsed.patch), changed(&again.patch));
    if ours.len() != theirs.len() {
        return Err("the re-render has another number of changed lines".to_owned());
    }
    let input = input_lines(work.input);
    let unterminated = (!work.input.ends_with(b"\n")).then(|| input.len().saturating_sub(1));
    for (a, b) in ours.iter().zip(&theirs) {
        if (a.kind, a.text, a.has_newline) != (b.kind, b.text, b.has_newline) {
            return Err(format!("line {} reads back differently", a.line));
        }
        let origin = work.doc.get(a.line).and_then(|l| l.origin);
        let Some(origin) = origin else {
            return Err(format!("changed line {} is not one of the agent's", a.line));
        };
        let prefix: &[u8] = if a.kind == LineKind::Add { b"+" } else { b"-" };
        let is_marked = input.get(origin + 1).is_some_and(|next| next.starts_with(b"\\"));
        let is_same = input[origin] == [prefix, a.text].concat().as_slice()
            && a.has_newline != is_marked
            && !(a.kind == LineKind::Add && a.has_newline && unterminated == Some(origin));
        if !is_same {
            return Err(format!(
                "changed line {} differs from the agent's line {}",
                a.line,
                origin + 1
            ));
        }
    }
    for hunk in parsed.patch.files.iter().flat_map(|f| &f.hunks) {
        contiguous(work, hunk)?;
    }
    Ok(ours.len())
}

/// The hunk's body (with `\` markers) is a run of consecutive lines of the agent's, and its
/// `@@` line is the agent's, with only whitespace-only context lines (set aside by
/// `trim_context`) between the two.
fn contiguous(work: &Work<'_, '_>, hunk: &Hunk<'_>) -> Result<(), String> {
    let Some(last) = hunk.lines.last() else { return Ok(()) };
    let end = last.line + usize::from(!last.has_newline);
    let first = hunk.span.line;
    let origin = |n: usize| work.doc.get(n).and_then(|l| l.origin);
    let not_a_run = || format!("the hunk at line {first} is not a run of the agent's lines");
    let header = origin(first).ok_or_else(|| format!("hunk at line {first} was inserted"))?;
    let start = origin(first + 1).ok_or_else(not_a_run)?;
    let input = input_lines(work.input);
    let is_blank_context = |i: usize| {
        let text = input.get(i).copied().unwrap_or_default();
        text.first().is_none_or(|&b| b == b' ') && text.iter().all(u8::is_ascii_whitespace)
    };
    if start <= header || !(header + 1..start).all(is_blank_context) {
        return Err(not_a_run());
    }
    for n in first + 1..=end {
        if origin(n) != Some(start + (n - first - 1)) {
            return Err(not_a_run());
        }
    }
    Ok(())
}

/// Apply and roll back in scratch on `base`; every finding is a refusal. Links and binary
/// entries are let through here: the repair proves application, and policy is `validate`'s.
fn apply_in_scratch(
    work: &Work<'_, '_>,
    base: &BaseTree<'_>,
    patch: &Patch<'_>,
) -> Result<Vec<Refusal>, ScratchError> {
    let step = Step { description: "repair".to_owned(), ..Step::default() };
    let policy =
        ScratchPolicy { allow_symlinks: true, allow_binary: true, ..ScratchPolicy::default() };
    let paths = crate::rule::patch_paths(patch);
    let ctx = scratch::Context { base, patch, paths: &paths, step: &step, policy: &policy };
    let options = scratch::Options { is_verdict_only: true, ..scratch::Options::default() };
    let outcome = scratch::check(&ctx, &options)?;
    Ok(outcome
        .violations
        .into_iter()
        .map(|v| Refusal {
            line: v.patch_line.map(|n| work.doc.input_line(n)),
            code: v.code.clone(),
            message: v.message,
            file: v.file,
        })
        .collect())
}
