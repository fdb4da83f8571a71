//! `whitespace_only`, `comment_only`, `directive_only` and `move_only`: a change that stays on
//! the surface (whitespace, comments, directives, definitions moved unchanged), held against
//! what the step states it asks for.

use super::Finding;
use super::directives::directives_left_unanswered;
use crate::finding::CheckCode;
use crate::patch::{LineKind, Patch};
use crate::rule::ask::{self, Kind};
use crate::rule::input::short_list;
use crate::rule::superficial::superficial;
use crate::rule::{Input, RuleId, Violation, intent, rewording};
use crate::summary::{self, ChangeKind, ChangeSummary};

/// Only whitespace, comments, directive comments or moved definitions change, and the step's
/// phrasing does not state that kind ([`ask::kinds`]): whitespace answers a formatting step,
/// comments a documentation step (or one whose words are in the comment the patch edits: a
/// table kept in a header's comment), directives a step that silences a check or formats, and
/// moves a step that moves, refactors or formats, or documents when only sections of prose
/// move. A comment that only repeats the step answers no step (strong, whatever read the
/// file). Otherwise a finding is strong only where the step's intent is recognized as one the
/// change cannot carry out: comments for a behaviour ([`comments_cannot_answer`]), whitespace
/// for any step but one of unstated kind or a clean-up that takes whitespace out, one that only
/// names the file edited (`Update README.md`) or documents, in documents, unless spaces are only
/// appended to line ends. Where the
/// intent is not recognized the finding is a note (issue 27: no rejection, only notes and the
/// judge), and so is any finding that rests on a file read by its lines alone or answers a step
/// of one word.
pub(super) fn superficial_change(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Option<Finding> {
    let found = superficial(summary, patch)?;
    // A one-word step (`Spotless`) states no task to hold a superficial change against.
    let is_weak = found.is_by_lines || ask::is_one_word(description);
    let (code, what, is_weak) =
        left_unanswered(input, patch, summary, description, found.kind, is_weak)?;
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

/// The finding a superficial change of `kind` makes for the step: its code, what it says of the
/// patch and whether it is weak (`is_weak` coming in: read by lines, or a one-word step). `None`
/// where a change of that kind answers the step.
fn left_unanswered(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
    kind: ChangeKind,
    is_weak: bool,
) -> Option<(CheckCode, &'static str, bool)> {
    let kinds = ask::kinds(description);
    let has = |asked| kinds.contains(&asked);
    let mut is_weak = is_weak;
    let (code, what) = match kind {
        ChangeKind::Whitespace if has(Kind::Format) => return None,
        // A checker's complaint about layout (`Fixed linter issues`) is answered by taking
        // whitespace out (a double space, trailing blanks), never by only adding it.
        ChangeKind::Whitespace if ask::names_a_linter(description) && removes_whitespace(patch) => {
            return None;
        }
        ChangeKind::Whitespace => {
            is_weak = is_weak || whitespace_may_answer(input, patch, summary, &kinds);
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
        // answered by editing the comments that are there, not by adding one, nor by only
        // inserting words of no concern to the step into one (`// Note: ...`).
        ChangeKind::Comment
            if ask::names_a_linter(description)
                && edits_existing_comments(summary)
                && !rewording::only_inserts_beside_the_step(patch, description) =>
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
        ChangeKind::Move if move_is_asked(summary, description, &kinds) => return None,
        ChangeKind::Move => (CheckCode::MoveOnly, "only moves definitions, unchanged"),
        ChangeKind::Code => return None,
    };
    Some((code, what, is_weak))
}

/// Whether comments alone leave the step unanswered for certain: its phrasing is recognized as
/// asking for a behaviour to fix, a refactoring, a move, a stub, a check silenced or a format;
/// or the patch only sets a new comment down beside code (the shape of explaining instead of
/// doing), whatever the step; or the step quotes code that no line of the hunks holds (a
/// comment edited other than the one named, [`quotes_code_elsewhere`]). Otherwise, for a step of no stated kind, an
/// addition (which may be text: a warning, a note, an entry of a list kept in a doc comment) or
/// a removal (commented-out code, a stale note), a patch that revises the comments already
/// there ([`revises_comments`]) is a note: where the intent is not recognized, no rejection;
/// unless the revision only rewords them beside the step ([`rewording::rewords_beside_the_step`]:
/// it takes nothing out, or the step adds, and no word it changes is the step's) and the step
/// quotes no code the hunks hold ([`quotes_code_here`]).
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
    is_behaviour
        || quotes_code_elsewhere(patch, description)
        || !revises_comments(patch, summary)
        || (rewording::rewords_beside_the_step(patch, description, kinds.contains(&Kind::Add))
            && !quotes_code_here(patch, description))
}

/// Whether the step's first line quotes code (between backticks) that a line of the patch's
/// hunks holds, kept, removed or added: the comment edited is the one at the code the step
/// names (`Update `verify` parameter description`), whose wording may be all it asks.
fn quotes_code_here(patch: &Patch<'_>, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let text = hunk_text(patch);
    code_spans(subject).any(|span| text.contains(span))
}

/// Every line of the patch's hunks, kept, removed or added, one after the other.
fn hunk_text(patch: &Patch<'_>) -> String {
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    lines.map(|l| String::from_utf8_lossy(l.text).into_owned() + "\n").collect()
}

/// Whether the step's first line quotes code (between backticks) and no line of the patch's
/// hunks, kept, removed or added, holds any of it: the comments edited are not those the step
/// is about.
fn quotes_code_elsewhere(patch: &Patch<'_>, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let spans: Vec<&str> = code_spans(subject).collect();
    let text = hunk_text(patch);
    !spans.is_empty() && !spans.iter().any(|span| text.contains(span))
}

/// Whether the step asks for the comments the patch edits, though its kind is not documentation:
/// its words are in the comment edited (and the patch changes what that comment says, not only
/// inserts words of its own into it: [`rewording::only_inserts_beside_the_step`]), it names
/// only the file edited, or it asks for a todo.
fn comments_asked(input: &Input<'_>, patch: &Patch<'_>, description: &str) -> bool {
    (edits_what_the_step_names(patch, description)
        && (quotes_code_here(patch, description)
            || !rewording::only_inserts_beside_the_step(patch, description)))
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

/// Whether moving definitions unchanged may be all the step asks: it states a move (`Move the
/// helpers to util.rs`, `Reorder the methods`); it is a general refactoring (`Refactor the
/// parser`, `refactor: tidy Buffer.kt`) that names no definition but the ones moved; or it
/// documents and only sections of prose move. A refactoring that names its transformation
/// (simplify, rename, extract, inline) is never carried out by a move, nor is one about a
/// definition the patch leaves where it was (`Refactor tm2jv to ...` answered by `f_stderr`
/// moved past it), nor a formatting step: a formatter lays code out, it moves no definition.
fn move_is_asked(summary: &ChangeSummary, description: &str, kinds: &[Kind]) -> bool {
    if kinds.contains(&Kind::Move) {
        return true;
    }
    if kinds.contains(&Kind::Document) && moves_only_prose(summary) {
        return true;
    }
    kinds.contains(&Kind::Refactor)
        && !ask::names_a_transformation(description)
        && names_only_moved(summary, description)
}

/// Whether every name of code the step's first line holds (a word in backquotes, or one
/// written as code: `snake_case`, `camelCase`, `tm2jv`; not a file name) is the name of a
/// definition the patch moves.
fn names_only_moved(summary: &ChangeSummary, description: &str) -> bool {
    let subject = description.trim_start().lines().next().unwrap_or_default();
    let moved: Vec<&str> = summary
        .files
        .iter()
        .flat_map(|f| &f.items)
        .filter(|i| i.change == summary::ItemStatus::Moved)
        .map(|i| i.name.rsplit(['.', ':']).next().unwrap_or(&i.name))
        .collect();
    let spans = code_spans(subject).flat_map(|s| s.split(|c: char| !is_name_char(c)));
    let written = subject.split_whitespace().filter(|w| !intent::is_file_shaped(w));
    let written =
        written.flat_map(|w| w.split(|c: char| !is_name_char(c))).filter(|w| is_code_word(w));
    spans.chain(written).filter(|w| !w.is_empty()).all(|w| moved.contains(&w))
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether a word is written as code: letters with an underscore, a digit, or a capital after
/// a small letter (`parse_args`, `tm2jv`, `createDirectory`).
fn is_code_word(word: &str) -> bool {
    let has_letter = word.chars().any(char::is_alphabetic);
    let camel =
        word.as_bytes().windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let inner = word.trim_matches('_');
    has_letter && (inner.contains('_') || word.chars().any(|c| c.is_ascii_digit()) || camel)
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

/// Whether whitespace alone may be what the step asks, though its kind is not layout: whitespace
/// taken out is a clean-up a step of unstated kind, or one that asks to clean up, may be all
/// about. In a document (Markdown, HTML), a step that only names the file edited (`Update
/// README.md`) asks for some edit of it, layout included, and a documentation step the layout
/// of its text (a double space, a list's blank lines): but neither for spaces appended to line
/// ends, which change nothing anyone reads. Code re-laid for `Update command.go` is no edit a
/// reviewer can tell from re-indenting instead of working.
fn whitespace_may_answer(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    kinds: &[Kind],
) -> bool {
    let description = input.step.description.as_str();
    let is_cleanup = kinds.is_empty() || ask::is_cleanup(description);
    let is_read = !patch.files.iter().all(summary::only_pads_line_ends);
    let is_file_edit = edits_only_the_file_named(input, patch, description);
    let is_document = is_file_edit || kinds.contains(&Kind::Document);
    (is_cleanup && removes_whitespace(patch)) || (is_read && is_document && only_prose(summary))
}

/// Whether every file the patch changes is prose with markup (Markdown, HTML): a document.
fn only_prose(summary: &ChangeSummary) -> bool {
    summary.files.iter().all(|f| summary::grammar_for(&f.path).is_some_and(|g| g.is_prose))
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
