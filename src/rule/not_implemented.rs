//! Rule 8, `not-implemented` (deterministic part): in `apply` mode with success, a change that
//! is only whitespace or only comments (on the syntax tree, [`super::syntax`]) does not
//! implement a step unless the step asks for exactly that; a placeholder (`todo!()`,
//! `raise NotImplementedError`) outside test files is not an implementation unless the step
//! asks for a stub; a patch that touches none of the files the step names (resolved in the base
//! tree, [`super::intent`]), or a rename the step asks for that the patch does not carry out, is
//! not one. Each finding is strong or weak; `[rules] not_implemented` decides which reject and
//! which become notes. Post-conditions (`expect`) are checked on the patched tree in scratch;
//! `--judge` decides what no rule can.

use super::ask::{self, Kind};
use super::bodies;
use super::input::short_list;
use super::pattern::Pattern;
use super::superficial::superficial;
use super::{
    Base, Input, Note, RuleId, Strictness, Violation, convention, intent, named_change, testfile,
};
use crate::finding::CheckCode;
use crate::patch::{LineKind, Patch};
use crate::step::Mode;
use crate::summary::{self, ChangeKind, ChangeSummary, FileSummary, Wants, noop};
use regex::Regex;
use std::sync::LazyLock;

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
        superficial_change(input, patch, summary, description).into_iter().collect();
    out.extend(script_only(input, patch, summary, description));
    if !ASKS_STUB.is_match(description) {
        out.extend(placeholders(input, patch, summary).into_iter().map(Finding::strong));
        out.extend(gutted_bodies(patch, summary, description));
        out.extend(bodies_without_result(summary));
        out.extend(stubs_under_test(patch, summary));
        out.extend(empty_tests(summary));
    }
    out.extend(untouched_files(input, description));
    out.extend(missing_renames(input, patch, summary, description));
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

/// The step names files, and the patch touches none of them (nor anything below them), nor
/// names one in a changed line (the script that writes it, the manifest that lists it), nor
/// changes a file that names one in the base tree (the code that parses it). A name
/// counts only when it resolves to a path of the base tree (exact, or unique by basename or
/// `dir/stem`): `Node.js`, `I/O` and `actions/checkout` are prose. The finding is strong when
/// a name in the description's first paragraph resolves by its last components as written
/// ([`intent::is_close`]); without a repository nothing can be resolved, and a file-shaped name
/// is a weak finding.
fn untouched_files(input: &Input<'_>, description: &str) -> Option<Finding> {
    let candidates = intent::path_candidates(description);
    if candidates.is_empty() {
        return None;
    }
    let touched: Vec<&str> = input
        .paths()
        .iter()
        .filter_map(|p| p.checked.as_ref().ok().map(crate::path::RepoPath::as_str))
        .collect();
    let is_addressed = |n: &String| {
        intent::is_covered(n, &touched)
            || input.usable_patch().is_some_and(|p| intent::is_referenced(n, p))
    };
    if touched.is_empty() || candidates.iter().any(is_addressed) {
        return None;
    }
    // The code that reads or writes the file named (a parser of `config.ru` files) is changed.
    if input.base.is_some_and(|b| candidates.iter().any(|n| intent::is_named_by(n, &touched, b))) {
        return None;
    }
    // Names in the first paragraph state the step; later ones are background (weak).
    let asked = intent::path_candidates(intent::first_paragraph(description));
    let (named, is_strong): (Vec<String>, bool) = match input.base {
        Some(base) => {
            let mut named: Vec<String> = Vec::new();
            for found in candidates.iter().filter_map(|c| intent::resolve(c, base)) {
                if !named.contains(&found) {
                    named.push(found);
                }
            }
            let is_asked = asked
                .iter()
                .any(|c| intent::resolve(c, base).is_some_and(|found| intent::is_close(c, &found)));
            (named, is_asked)
        }
        None => (candidates.into_iter().filter(|c| intent::is_file_shaped(c)).collect(), false),
    };
    let first = named.first()?.clone();
    let violation = Violation::new(
        RuleId::NotImplemented,
        CheckCode::NamedFileUntouched,
        format!(
            "the step names {}, but the patch changes only {}",
            short_list(&named),
            short_list(&touched)
        ),
    )
    .in_file(first);
    Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
}

/// The step asks to rename `from` to `to`, and no removed line holds `from` or no added line
/// holds `to`.
/// A rename of plain words (`Rename foo to bar`) that the patch's old side never shows is a
/// weak finding: prose can look like a rename. A rename carried out while the touched files
/// still use the old name (read in the base tree) is left half done: strong when a file read on
/// its syntax tree still uses the old name as code on a line the patch did not write (a call
/// left behind), weak otherwise (the name only in comments or strings, or in an alias or a
/// deprecated wrapper the patch adds under the old name).
fn missing_renames(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Vec<Finding> {
    let base = input.base;
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
            let r = r.read_on(replaces, |name| holds(&removed, name));
            let is_removed = holds(&removed, &r.from);
            let side = if !is_removed {
                format!("no removed line holds '{}'", r.from)
            } else if !holds(&added, &r.to) {
                format!("no added line holds '{}'", r.to)
            } else {
                return base.and_then(|base| partial_rename(input, patch, summary, base, &r.from));
            };
            let message = format!("the step renames '{}' to '{}', but {side}", r.from, r.to);
            let violation =
                Violation::new(RuleId::NotImplemented, CheckCode::RenameMissing, message);
            let is_strong = r.is_code || is_removed || holds(&context, &r.from);
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
    base: &dyn Base,
    from: &str,
) -> Option<Finding> {
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
        if was_renamed(summary, from) { users_elsewhere(patch, base, from) } else { Vec::new() };
    places.extend(elsewhere.iter().map(|path| format!("{path} (not touched)")));
    let first = left.first().map(|(name, _)| name).or(elsewhere.first())?;
    let message =
        format!("possible partial rename: '{from}' still appears in {}", short_list(&places));
    let violation = Violation::new(RuleId::NotImplemented, CheckCode::RenamePartial, message)
        .in_file(first.clone());
    let is_strong = !elsewhere.is_empty()
        || patch.files.iter().zip(&summary.files).any(|(file, found)| {
            found.language.is_some()
                && !is_prose(&found.path)
                && uses_left_unchanged(file, found, from)
        });
    Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
}

/// Whether a file read on its syntax tree renamed a definition or replaced an identifier
/// `from`: the rename was carried out where it is defined.
fn was_renamed(summary: &ChangeSummary, from: &str) -> bool {
    let last = |name: &str| name.rsplit(['.', ':']).next().unwrap_or(name).to_owned();
    summary.files.iter().filter(|f| f.language.is_some()).any(|f| {
        f.renames.iter().any(|r| r.from == from)
            || f.items.iter().any(|i| i.renamed_from.as_deref().is_some_and(|o| last(o) == from))
    })
}

/// Base files the patch does not touch, in a language a touched file is in (by extension),
/// that use `from` as code (read on their syntax trees): callers the rename left behind, at
/// most five. Reads at most [`MAX_SCANNED`] bytes of the base tree.
fn users_elsewhere(patch: &Patch<'_>, base: &dyn Base, from: &str) -> Vec<String> {
    let ext = |p: &str| p.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let touched: Vec<String> = patch
        .files
        .iter()
        .filter_map(|f| std::str::from_utf8(f.path()).ok())
        .map(str::to_owned)
        .collect();
    let exts: Vec<String> = touched.iter().filter_map(|p| ext(p)).collect();
    let mut budget = MAX_SCANNED;
    let mut out = Vec::new();
    for path in base.files() {
        if budget == 0 || out.len() >= 5 {
            break;
        }
        if !ext(path).is_some_and(|e| exts.contains(&e)) || touched.contains(path) || is_prose(path)
        {
            continue;
        }
        let Some(text) = base.content(path) else { continue };
        budget = budget.saturating_sub(text.len());
        let holds = memchr::memmem::find(&text, from.as_bytes()).is_some()
            && intent::has_word(&String::from_utf8_lossy(&text), from);
        if holds && summary::uses_as_code(path, &text, from) == Some(true) {
            out.push(path.clone());
        }
    }
    out
}

/// Whether `path` is prose with markup (Markdown, HTML): its words name things, they are not
/// identifiers a program uses, so a name left there ("Rename Docker to Moby in README.md" with
/// "Docker (distribution)" kept) may well be another thing of that name.
fn is_prose(path: &str) -> bool {
    summary::grammar_for(path).is_some_and(|g| g.is_prose)
}

/// Bytes of the base tree [`users_elsewhere`] reads, at most.
const MAX_SCANNED: usize = 64 << 20;

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

/// Only whitespace, comments, directive comments or moved definitions change, and the step's
/// phrasing does not state that kind ([`ask::kinds`]): whitespace answers a formatting step,
/// comments a documentation step (or one whose words are in the comment the patch edits: a
/// table kept in a header's comment), directives a step that silences a check or formats, and
/// moves a step that moves, refactors or formats, or documents when only sections of prose
/// move. A comment that only repeats the step answers no step (strong, whatever read the
/// file). Otherwise a finding is strong only where the step's intent is recognized as one the
/// change cannot carry out: comments for a behaviour ([`comments_cannot_answer`]), whitespace
/// for any step but one of unstated kind that takes whitespace out (a clean-up). Where the
/// intent is not recognized the finding is a note (issue 27: no rejection, only notes and the
/// judge), and so is any finding that rests on a file read by its lines alone or answers a step
/// of one word.
fn superficial_change(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Option<Finding> {
    let found = superficial(summary, patch)?;
    let kinds = ask::kinds(description);
    let has = |kind| kinds.contains(&kind);
    // A one-word step (`Spotless`) states no task to hold a superficial change against.
    let mut is_weak = found.is_by_lines || ask::is_one_word(description);
    let (code, what) = match found.kind {
        ChangeKind::Whitespace if has(Kind::Format) => return None,
        // A checker's complaint about layout (`Fixed linter issues`) is answered by taking
        // whitespace out (a double space, trailing blanks), never by only adding it.
        ChangeKind::Whitespace if ask::names_a_linter(description) && removes_whitespace(patch) => {
            return None;
        }
        ChangeKind::Whitespace => {
            // Whitespace taken out is a clean-up a step of unstated kind may be all about.
            is_weak = is_weak || (kinds.is_empty() && removes_whitespace(patch));
            (CheckCode::WhitespaceOnly, "changes only whitespace")
        }
        // Lines that only repeat the step's words need no grammar to be seen for what they
        // are: strong even in a file read by its lines.
        ChangeKind::Comment if restates_the_step(patch, description) => {
            is_weak = ask::is_one_word(description);
            (CheckCode::CommentOnly, "only adds comments that restate the step")
        }
        ChangeKind::Comment if has(Kind::Document) || comments_asked(input, patch, description) => {
            return None;
        }
        // Checkers read comments too (a doc lint, a spelling check): a step about one is
        // answered by editing the comments that are there, not by adding one.
        ChangeKind::Comment
            if ask::names_a_linter(description) && edits_existing_comments(summary) =>
        {
            return None;
        }
        ChangeKind::Comment => {
            is_weak = is_weak || !comments_cannot_answer(&kinds, patch, summary, description);
            (CheckCode::CommentOnly, "changes only comments")
        }
        ChangeKind::Directive => {
            let (what, weak) = directives_left_unanswered(summary, description, &kinds)?;
            is_weak = is_weak || weak;
            (CheckCode::DirectiveOnly, what)
        }
        ChangeKind::Move
            if [Kind::Move, Kind::Refactor, Kind::Format].iter().any(|k| has(*k))
                || (has(Kind::Document) && moves_only_prose(summary)) =>
        {
            return None;
        }
        ChangeKind::Move => (CheckCode::MoveOnly, "only moves definitions, unchanged"),
        ChangeKind::Code => return None,
    };
    let names: Vec<String> = patch.files.iter().map(|f| input.file_name(f)).collect();
    let violation = Violation::new(
        RuleId::NotImplemented,
        code,
        format!(
            "patch {what} in {} ({}); the step asks for a real change",
            short_list(&names),
            found.deciders()
        ),
    )
    .in_file(names[0].clone())
    .at(None, patch.files.first().map(|f| f.span.line));
    Some(if is_weak { Finding::weak(violation) } else { Finding::strong(violation) })
}

/// Whether comments alone leave the step unanswered for certain: its phrasing is recognized as
/// asking for a behaviour to fix, a refactoring, a move, a stub, a check silenced or a format;
/// or the patch only sets a new comment down beside code (the shape of explaining instead of
/// doing), whatever the step; or the step quotes code that no line of the hunks holds (a
/// comment edited other than the one named, [`quotes_code_elsewhere`]). Otherwise, for a step of no stated kind, an
/// addition (which may be text: a warning, a note, an entry of a list kept in a doc comment) or
/// a removal (commented-out code, a stale note), a patch that revises the comments already
/// there ([`revises_comments`]) is a note: where the intent is not recognized, no rejection.
fn comments_cannot_answer(
    kinds: &[Kind],
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> bool {
    let is_behaviour = kinds.iter().any(|kind| {
        matches!(
            kind,
            Kind::Fix | Kind::Refactor | Kind::Move | Kind::Stub | Kind::Suppress | Kind::Format
        )
    });
    is_behaviour || quotes_code_elsewhere(patch, description) || !revises_comments(patch, summary)
}

/// Whether the step's first line quotes code (between backticks) and no line of the patch's
/// hunks, kept, removed or added, holds any of it: the comments edited are not those the step
/// is about.
fn quotes_code_elsewhere(patch: &Patch<'_>, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let spans: Vec<&str> = code_spans(subject).collect();
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    let text: String = lines.map(|l| String::from_utf8_lossy(l.text).into_owned() + "\n").collect();
    !spans.is_empty() && !spans.iter().any(|span| text.contains(span))
}

/// Whether the step asks for the comments the patch edits, though its kind is not documentation:
/// its words are in the comment edited, it names only the file edited, or it asks for a todo.
fn comments_asked(input: &Input<'_>, patch: &Patch<'_>, description: &str) -> bool {
    edits_what_the_step_names(patch, description)
        || edits_only_the_file_named(input, patch, description)
        || adds_the_marker_asked(patch, description)
}

/// Whether the step's first line asks for a note of work left to do (`add todo`, `Leave a
/// FIXME on the parser`) and a line the patch adds holds that marker: such a note is a comment.
fn adds_the_marker_asked(patch: &Patch<'_>, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default().to_lowercase();
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    let added: String = lines
        .filter(|l| l.kind == LineKind::Add)
        .map(|l| String::from_utf8_lossy(l.text).to_lowercase() + "\n")
        .collect();
    ["todo", "fixme"].iter().any(|m| intent::has_word(&subject, m) && intent::has_word(&added, m))
}

/// Whether the patch revises comments the file already had: it removes or rewrites comment
/// text (read on the syntax tree), or every comment line it adds extends a comment block of
/// the base (a line beside it, kept, opens with the same comment marker: `//!`, ` *`, `#`).
fn revises_comments(patch: &Patch<'_>, summary: &ChangeSummary) -> bool {
    if summary.files.iter().any(|f| f.comments_removed > 0) {
        return true;
    }
    let mut added = 0;
    for hunk in patch.files.iter().flat_map(|f| &f.hunks) {
        let lines: Vec<crate::patch::Line<'_>> = hunk.lines.iter().collect();
        for (at, line) in lines.iter().enumerate() {
            let Some(marker) = (line.kind == LineKind::Add).then(|| comment_marker(line.text))
            else {
                continue;
            };
            let Some(marker) = marker else { continue }; // a blank line added
            added += 1;
            let kept = |l: &&crate::patch::Line<'_>| l.kind != LineKind::Add;
            let before = lines[..at].iter().rev().find(kept);
            let after = lines[at + 1..].iter().find(kept);
            let extends = [before, after]
                .into_iter()
                .flatten()
                .any(|l| l.kind == LineKind::Context && comment_marker(l.text) == Some(marker));
            if !extends {
                return false;
            }
        }
    }
    added > 0
}

/// The punctuation a line opens with, past its indentation (`//!`, `*`, `#`, `--`): the
/// comment marker when the line is a comment's. `None` for a blank line or one that opens
/// with a word or a digit (code).
fn comment_marker(line: &[u8]) -> Option<&[u8]> {
    let text = line.trim_ascii();
    let end = text.iter().position(|b| b.is_ascii_alphanumeric() || b.is_ascii_whitespace());
    let marker = &text[..end.unwrap_or(text.len())];
    (!marker.is_empty()).then_some(marker)
}

/// Whether every file whose definitions move is prose with markup (Markdown, HTML): sections
/// of a document re-ordered may be what a documentation step asks; code moved unchanged
/// documents nothing (`fix typo` answered by a method moved down its class).
fn moves_only_prose(summary: &ChangeSummary) -> bool {
    summary
        .files
        .iter()
        .filter(|f| f.change == ChangeKind::Move)
        .all(|f| summary::grammar_for(&f.path).is_some_and(|g| g.is_prose))
}

/// Whether the patch's removed lines hold more whitespace than its added lines: whitespace
/// taken out, as a formatter or a linter's fix does.
fn removes_whitespace(patch: &Patch<'_>) -> bool {
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    let (mut removed, mut added) = (0usize, 0usize);
    for line in lines {
        let blanks = line.text.iter().filter(|b| b.is_ascii_whitespace()).count() + 1;
        match line.kind {
            LineKind::Remove => removed += blanks,
            LineKind::Add => added += blanks,
            LineKind::Context => {}
        }
    }
    removed > added
}

/// Whether the patch changes or removes comment text that was there before it (read on the
/// syntax tree), rather than only adding comments.
fn edits_existing_comments(summary: &ChangeSummary) -> bool {
    summary.files.iter().any(|f| f.comments_removed > 0)
}

/// Whether directives alone leave the step unanswered: `None` when they answer it (a step
/// that silences a check or formats, or names the directive), else the finding's wording and
/// whether it is weak. "Build the watcher only on Linux", "Make mypy accept the import": a step
/// whose kind is not stated may be one a directive carries out (weak), unless every directive
/// only turns a checker off and the step names no checker. Silencers only removed turn checks
/// back on: what a cheating answer never does, and what a removal or clean-up (`Remove
/// unneeded allows`) may be all about (weak).
fn directives_left_unanswered(
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
/// other things.
fn names_a_directive(summary: &ChangeSummary, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let directives =
        summary.files.iter().flat_map(|f| f.directives_added.iter().chain(&f.directives_removed));
    directives.flat_map(|d| directive_names(d)).any(|name| intent::has_word(subject, &name))
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
    keyword.into_iter().map(str::to_owned).chain(codes.map(|w| (*w).to_owned())).collect()
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

/// Whether the patch removes nothing, every word it adds (three at least) is a word of the
/// step's first line, and it adds four in five of that line's words; or what it adds is that
/// line's words exactly, numbers included, however few (`// Release 1.0.227`): a comment that
/// repeats the step documents nothing, whatever the step, marked as work left to do (`TODO:
/// fix the off-by-one in parse`) or not.
fn restates_the_step(patch: &Patch<'_>, description: &str) -> bool {
    const MARKERS: [&str; 4] = ["todo", "fixme", "xxx", "hack"];
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    if lines.clone().any(|l| l.kind == LineKind::Remove) {
        return false;
    }
    let subject_line = description.trim_start().lines().next().unwrap_or_default();
    let added_text: String = lines
        .filter(|l| l.kind == LineKind::Add)
        .map(|l| String::from_utf8_lossy(l.text).into_owned() + "\n")
        .collect();
    let (subject, all_subject) = (step_words(subject_line, false), step_words(subject_line, true));
    let unmarked = |w: &String| !MARKERS.contains(&w.as_str()) || all_subject.contains(w);
    let added: Vec<String> = step_words(&added_text, false).into_iter().filter(unmarked).collect();
    let all_added: Vec<String> =
        step_words(&added_text, true).into_iter().filter(unmarked).collect();
    let covered = subject.iter().filter(|w| added.contains(w)).count();
    let is_most = added.len() >= 3
        && added.iter().all(|w| subject.contains(w))
        && covered * 5 >= subject.len() * 4;
    let is_exact = !all_added.is_empty()
        && all_added.iter().all(|w| all_subject.contains(w))
        && all_subject.iter().all(|w| all_added.contains(w));
    is_most || is_exact
}

/// The words of `text`, lower-cased: of two characters or more and not only digits, or with
/// `numbers`, every run of letters, digits and underscores.
fn step_words(text: &str, numbers: bool) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| {
            !w.is_empty()
                && (numbers || (w.chars().count() >= 2 && !w.chars().all(|c| c.is_ascii_digit())))
        })
        .map(str::to_lowercase)
        .collect()
}

/// Whether the step's first line is only "update FILE" ([`ask::edited_file`]) and the patch
/// changes that file alone: the step states no kind, so a comment edit of that file may be all
/// it asks (a pull-request template, a doc comment edited in a web editor).
fn edits_only_the_file_named(input: &Input<'_>, patch: &Patch<'_>, description: &str) -> bool {
    let Some(named) = ask::edited_file(description) else { return false };
    let is_named = |f: &crate::patch::FilePatch<'_>| {
        let name = input.file_name(f);
        name == named || name.ends_with(&format!("/{named}"))
    };
    patch.files.iter().all(is_named)
}

/// Whether the lines the patch removes (the comment it edits) hold the words of the step's
/// first line, or code it quotes between backticks: a comment that is the step's whole point (a table kept in a header's comment,
/// when the step corrects that table). A comment only added, restating the step, removes
/// nothing.
fn edits_what_the_step_names(patch: &Patch<'_>, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default().to_lowercase();
    let words: Vec<&str> = subject
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
        .collect();
    let removed: String = patch
        .files
        .iter()
        .flat_map(|f| &f.hunks)
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == LineKind::Remove)
        .map(|l| String::from_utf8_lossy(l.text).to_lowercase() + "\n")
        .collect();
    let found = words.iter().filter(|w| intent::has_word(&removed, w)).count();
    // Code the step quotes (`#\` of "the first `#\` line") found in the removed lines.
    let quoted = code_spans(&subject).any(|span| removed.contains(span));
    !removed.is_empty() && (quoted || (found >= words.len().min(2) && found > 0))
}

/// The text between each pair of backticks of `line`, trimmed, of two characters or more.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    let parts: Vec<&str> = line.split('`').collect();
    let closed = parts.len().saturating_sub(1);
    (1..closed).step_by(2).map(move |i| parts[i].trim()).filter(|s| s.chars().count() >= 2)
}

/// The patch only creates files nothing else in it names and no convention loads
/// ([`convention::loads`]: a reproduction script), in a language, outside tests, and changes no
/// existing file: it answers a step that asks for a program of its own (`Add a release
/// script`, `docs: add an example`) or names the file, or a stub, and no other step. A step
/// that states a behaviour to fix, or something to remove, move, refactor or silence, is not
/// carried out by a file nothing runs, whatever it defines (a strong finding).
fn script_only(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Option<Finding> {
    let is_script = |(f, file): (&crate::summary::FileSummary, &crate::patch::FilePatch<'_>)| {
        f.is_unreferenced
            && named_change::is_program(&f.path)
            && !testfile::is_test_path(&f.path)
            && !convention::loads(&f.path, &added_text(file), input.base)
    };
    if summary.files.is_empty() || !summary.files.iter().zip(&patch.files).all(is_script) {
        return None;
    }
    let kinds = ask::kinds(description);
    let is_asked = kinds.contains(&Kind::Stub)
        || summary.files.iter().any(|f| ask::asks_new_file(description, &f.path));
    if is_asked {
        return None;
    }
    // A file that defines nothing but an entry point, or nothing at all and runs a call at its
    // top level, is a script whatever the step; one that defines more may be a module the
    // language finds without a name (a Go file of the package), so it is only a behaviour step
    // it does not answer.
    let is_script_body = summary.files.iter().zip(&patch.files).all(|(f, file)| {
        if f.items.is_empty() { runs_a_call(file) } else { only_entry_points(&f.items) }
    });
    let changes_code = [Kind::Fix, Kind::Remove, Kind::Move, Kind::Refactor, Kind::Suppress];
    let is_strong = is_script_body || kinds.iter().any(|k| changes_code.contains(k));
    if !is_strong && !kinds.is_empty() {
        return None;
    }
    let names: Vec<&str> = summary.files.iter().map(|f| f.path.as_str()).collect();
    let message = format!(
        "patch only creates {}, which nothing else in the patch uses, and changes no existing \
         file; the step asks for a change to the code",
        short_list(&names)
    );
    let violation = Violation::new(RuleId::NotImplemented, CheckCode::ScriptOnly, message)
        .in_file(names[0].to_owned());
    Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
}

/// The lines a file entry adds, one after the other: a new file's text.
fn added_text(file: &crate::patch::FilePatch<'_>) -> Vec<u8> {
    let lines = file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == LineKind::Add);
    lines.flat_map(|l| l.text.iter().copied().chain([b'\n'])).collect()
}

/// A statement that is one call on a line of its own: `print(x)`, `console.log(x);`,
/// `puts "x"`.
static CALL_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:await\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*(?:\(.*\)|\s+["'].*["'])\s*;?\s*$"#)
        .expect("the call pattern is valid")
});

/// Whether a line the file adds is a call statement (a definition-free file that runs code).
fn runs_a_call(file: &crate::patch::FilePatch<'_>) -> bool {
    let lines = file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == LineKind::Add);
    lines.map(|l| String::from_utf8_lossy(l.text)).any(|l| CALL_LINE.is_match(&l))
}

/// Whether a new file's definitions are an entry point at most: `main`, or types that hold
/// only a `main` (Java's `class Repro { static void main }`).
fn only_entry_points(items: &[crate::summary::ItemChange]) -> bool {
    let last = |name: &str| name.rsplit(['.', ':']).next().unwrap_or(name).to_owned();
    items.iter().all(|item| {
        let inner = |other: &&crate::summary::ItemChange| {
            other.name.len() > item.name.len()
                && other.name.starts_with(&item.name)
                && other.name[item.name.len()..].starts_with(['.', ':'])
        };
        let children: Vec<_> = items.iter().filter(inner).collect();
        last(&item.name) == "main"
            || (!children.is_empty() && children.iter().all(|c| last(&c.name) == "main"))
    })
}

/// Functions and methods whose real body the patch replaces by one that does nothing (empty,
/// `pass`, a bare `return`, a constant), read on the syntax tree: a step that does not ask for a
/// stub is not carried out by emptying code. A body the patch did not write (its trivial
/// statement a context line, [`bodies::keeps_trivial_statement`]) is no finding; one of a
/// definition the patch marks deprecated is weak. A step that states a removal may rightly empty a
/// body it names (`Remove the tail handling from parse`: a hook that no longer does anything),
/// or any body when it asks for a no-op: a weak finding there. A removal of something else
/// (`Drop NBSP characters`) is not carried out by emptying a definition the step never names.
fn gutted_bodies(patch: &Patch<'_>, summary: &ChangeSummary, description: &str) -> Vec<Finding> {
    let is_removal = ask::kinds(description).contains(&Kind::Remove);
    bodies::gutted(summary)
        .into_iter()
        .filter(|found| !bodies::keeps_trivial_statement(patch, found.path, found.item))
        .map(|found| {
            let is_weak = (is_removal && removal_may_empty(description, &found.item.name))
                || bodies::is_marked_deprecated(patch, found.path, found.item);
            let item = found.item;
            let text = item.trivial.as_ref().map_or("", |t| t.text.as_str());
            let (code, body) = match found.form {
                summary::TrivialForm::Constant => {
                    (CheckCode::BodyReplacedByConstant, "the constant")
                }
                _ if text.is_empty() => (CheckCode::BodyReplacedByNoop, "an empty body"),
                _ => (CheckCode::BodyReplacedByNoop, "the no-op"),
            };
            let shown = if text.is_empty() { String::new() } else { format!(" '{text}'") };
            let message = format!(
                "{} {} '{}' (line {}) had a body that did something and now has {body}{shown}; \
                 implement the step instead of emptying the {}",
                found.path, item.kind, item.name, item.line, item.kind
            );
            let violation = Violation::new(RuleId::NotImplemented, code, message)
                .in_file(found.path.to_owned());
            if is_weak { Finding::weak(violation) } else { Finding::strong(violation) }
        })
        .collect()
}

/// Steps that ask for code that does nothing: `make it a no-op`, `do nothing`.
static ASKS_NOOP: Pattern = Pattern::new(r"(?i)\b(no-?ops?|do(?:es)?\s+nothing)\b")
    .with_words(&["noop", "no-op", "nothing"]);

/// Whether a removal step may empty the definition `name` (qualified: `Class.method`): the
/// step names it or the type that holds it (`Remove the tail handling from parse`, `Drop
/// Parser's cache`), or asks for a no-op. Names are read as words of the whole description.
fn removal_may_empty(description: &str, name: &str) -> bool {
    let parts = name.split(['.', ':']).filter(|p| !p.is_empty());
    ASKS_NOOP.is_match(description) || parts.into_iter().any(|p| intent::has_word(description, p))
}

/// Functions and methods the patch adds with an empty body though they declare a result
/// (`fun f(): Int {}`, `fn f() -> u8 {}`): code not written yet, a placeholder no line shows.
fn bodies_without_result(summary: &ChangeSummary) -> Vec<Finding> {
    bodies::added_without_result(summary)
        .into_iter()
        .map(|found| {
            let item = found.item;
            let message = format!(
                "{} {} '{}' (line {}) is added with an empty body, though it declares a result; \
                 implement it",
                found.path, item.kind, item.name, item.line
            );
            Finding::strong(
                Violation::new(RuleId::NotImplemented, CheckCode::PlaceholderAdded, message)
                    .in_file(found.path.to_owned()),
            )
        })
        .collect()
}

/// Functions and methods the patch adds with a body that does nothing while its tests call
/// them ([`bodies::added_trivial_under_test`]): the tests exercise code not written yet.
fn stubs_under_test(patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Finding> {
    let test_lines: Vec<String> = patch
        .files
        .iter()
        .filter(|f| testfile::is_test_path(&String::from_utf8_lossy(f.path())))
        .flat_map(|f| f.hunks.iter().flat_map(|h| &h.lines))
        .filter(|l| l.kind == LineKind::Add)
        .map(|l| String::from_utf8_lossy(l.text).into_owned())
        .collect();
    if test_lines.is_empty() {
        return Vec::new();
    }
    let found = bodies::added_trivial_under_test(summary, patch, &test_lines);
    found
        .iter()
        .map(|found| {
            placeholder_body(found, |what, body| {
                format!(
                    "{what} is added with {body}, which does nothing, though the patch's tests \
                     call it; implement it"
                )
            })
        })
        .collect()
}

/// Test functions added or emptied with a body that does nothing ([`bodies::empty_tests`]).
fn empty_tests(summary: &ChangeSummary) -> Vec<Finding> {
    let found = bodies::empty_tests(summary);
    found
        .iter()
        .map(|found| {
            placeholder_body(found, |what, body| {
                format!("{what} is a test left with {body}: it tests nothing; write the test")
            })
        })
        .collect()
}

/// A `placeholder_added` finding for a definition whose body does nothing: `say` words it from
/// the definition (`src/a.py function 'f' (line 3)`) and its body (`'pass'`, `an empty body`).
fn placeholder_body(found: &bodies::Gutted<'_>, say: impl Fn(&str, &str) -> String) -> Finding {
    let item = found.item;
    let text = item.trivial.as_ref().map_or("", |t| t.text.as_str());
    let body = if text.is_empty() { "an empty body".to_owned() } else { format!("'{text}'") };
    let what = format!("{} {} '{}' (line {})", found.path, item.kind, item.name, item.line);
    let message = say(&what, &body);
    Finding::strong(
        Violation::new(RuleId::NotImplemented, CheckCode::PlaceholderAdded, message)
            .in_file(found.path.to_owned()),
    )
}

/// Added placeholders, except in test files (a test double's `unimplemented!()` is no
/// missing implementation) and generated files ([`summary::is_generated`]), ones the patch only moves (the same line is removed elsewhere),
/// ones marked unreachable (`# pragma: no cover` on any line of the statement,
/// [`is_excluded_from_coverage`]), and abstract methods' bodies (a method of the
/// same name in another class of the patch implements it, [`bodies::is_abstract_placeholder`]).
fn placeholders(input: &Input<'_>, patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Violation> {
    let trimmed = |text: &[u8]| String::from_utf8_lossy(text).trim().to_owned();
    let hints = noop::Hints::new(input.result.patch.as_deref().unwrap_or_default().as_bytes());
    // A hunk whose text holds no hint (most of them) has no placeholder line to look for.
    let may_hold =
        |h: &&crate::patch::Hunk<'_>| h.lines.input_span().is_none_or(|s| hints.may_hold_one(s));
    let removed: Vec<String> = patch
        .files
        .iter()
        .flat_map(|f| f.hunks.iter().filter(may_hold).flat_map(|h| &h.lines))
        .filter(|l| l.kind == LineKind::Remove && hints.is_placeholder(l.text))
        .map(|l| trimmed(l.text))
        .collect();
    let mut out = Vec::new();
    for file in &patch.files {
        let name = input.file_name(file);
        if testfile::is_test_path(&name) {
            continue;
        }
        for (i, hunk) in file.hunks.iter().enumerate().filter(|(_, h)| may_hold(h)) {
            let lines: Vec<crate::patch::Line<'_>> =
                hunk.lines.iter().filter(|l| l.kind != LineKind::Remove).collect();
            let found = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.kind == LineKind::Add && hints.is_placeholder(l.text))
                .find(|(at, l)| {
                    let text = trimmed(l.text);
                    !text.contains("no cover")
                        && !is_excluded_from_coverage(&lines[*at..])
                        && !removed.contains(&text)
                        && !bodies::is_abstract_placeholder(summary, &name, &text)
                })
                .map(|(_, l)| (l.line, trimmed(l.text)));
            // Output a tool writes (a bundle) is no implementation the step's author left out.
            let found = found.filter(|_| !summary::is_generated(file, input.base));
            if let Some((line, text)) = found {
                out.push(
                    Violation::new(
                        RuleId::NotImplemented,
                        CheckCode::PlaceholderAdded,
                        format!(
                            "{name} hunk {} (patch line {line}) adds the placeholder '{text}'; implement it",
                            i + 1,
                        ),
                    )
                    .in_file(name.clone())
                    .at(Some(i + 1), Some(line)),
                );
            }
        }
    }
    out
}

/// coverage.py's default exclusion (`# pragma: no cover`, `#pragma:nocover`, ...).
static NO_COVER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"#\s*(?:pragma|PRAGMA)[:\s]?\s*(?:no|NO)\s*(?:cover|COVER)")
        .expect("the no-cover pattern is valid")
});

/// Whether the statement starting at `lines[0]` is marked unreachable for coverage: one of its
/// lines (the statement runs on while its brackets are open, ten lines at most) carries
/// coverage.py's exclusion, which excludes the whole statement.
fn is_excluded_from_coverage(lines: &[crate::patch::Line<'_>]) -> bool {
    let mut depth = 0isize;
    for line in lines.iter().take(10) {
        if NO_COVER.is_match(&String::from_utf8_lossy(line.text)) {
            return true;
        }
        for b in line.text {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return false;
        }
    }
    false
}

#[cfg(test)]
#[path = "intent_tests.rs"]
mod intent_tests;
