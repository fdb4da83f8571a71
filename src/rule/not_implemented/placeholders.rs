//! `placeholder_added`, `body_replaced_by_noop` and `body_replaced_by_constant`: code left
//! unwritten, added as a placeholder or emptied.

use super::Finding;
use crate::finding::CheckCode;
use crate::patch::{LineKind, Patch};
use crate::rule::ask::{self, Kind};
use crate::rule::bodies;
use crate::rule::pattern::Pattern;
use crate::rule::{Input, RuleId, Violation, intent, testfile};
use crate::summary::{self, ChangeSummary, noop};
use regex::Regex;
use std::sync::LazyLock;

/// Functions and methods whose real body the patch replaces by one that does nothing (empty,
/// `pass`, a bare `return`, a constant), read on the syntax tree: a step that does not ask for a
/// stub is not carried out by emptying code. A body the patch did not write (its trivial
/// statement a context line, [`bodies::keeps_trivial_statement`]) is no finding; one of a
/// definition the patch marks deprecated is weak. A step that states a removal may rightly empty a
/// body it names (`Remove the tail handling from parse`: a hook that no longer does anything),
/// or any body when it asks for a no-op: a weak finding there. A removal of something else
/// (`Drop NBSP characters`) is not carried out by emptying a definition the step never names.
pub(super) fn gutted_bodies(
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    description: &str,
) -> Vec<Finding> {
    let is_removal = ask::kinds(description).contains(&Kind::Remove);
    bodies::gutted(summary, patch)
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
pub(super) fn bodies_without_result(patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Finding> {
    bodies::added_without_result(summary, patch)
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
pub(super) fn stubs_under_test(patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Finding> {
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

/// Functions and methods the patch adds with a body that does nothing while a definition it
/// changes hands its own lines over to them ([`bodies::added_trivial_instead_of_logic`]): the
/// logic went into a stub.
pub(super) fn stubs_instead_of_logic(patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Finding> {
    let found = bodies::added_trivial_instead_of_logic(summary, patch);
    found
        .iter()
        .map(|found| {
            placeholder_body(found, |what, body| {
                format!(
                    "{what} is added with {body}, which does nothing, though the code the patch \
                     takes out of its caller now calls it; implement it"
                )
            })
        })
        .collect()
}

/// Test functions added or emptied with a body that does nothing ([`bodies::empty_tests`]).
pub(super) fn empty_tests(patch: &Patch<'_>, summary: &ChangeSummary) -> Vec<Finding> {
    let found = bodies::empty_tests(summary, patch);
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

/// Whether the added placeholder line `text` of `name` is a contract's body, not code left
/// unwritten: an abstract method, an override nothing in the patch reaches, a method declared
/// abstract, or one that subclasses in the base tree implement ([`bodies`]).
fn is_contract(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
    name: &str,
    text: &str,
) -> bool {
    bodies::is_abstract_placeholder(summary, patch, name, text)
        || bodies::is_unreached_override(summary, patch, name, text)
        || bodies::is_declared_abstract(summary, patch, name, text)
        || bodies::is_implemented_in_base(summary, input.base_files.as_ref(), name, text)
}

/// Added placeholders, except in test files (a test double's `unimplemented!()` is no
/// missing implementation) and generated files ([`summary::is_generated`]), ones the patch only moves (the same line is removed elsewhere),
/// ones marked unreachable (`# pragma: no cover` on any line of the statement,
/// [`is_excluded_from_coverage`]), and abstract methods' bodies (a method of the
/// same name in another class of the patch implements it, [`bodies::is_abstract_placeholder`];
/// or it is declared `@abstractmethod`, [`bodies::is_declared_abstract`]; or subclasses in the
/// base tree implement it, [`bodies::is_implemented_in_base`]), and overrides the
/// patch adds that nothing it adds calls ([`bodies::is_unreached_override`]). A placeholder
/// found in a file that is no program's source (a document's example, a file no grammar reads)
/// is a weak finding: the line alone says it, and prose quotes code that is not there to run.
pub(super) fn placeholders(
    input: &Input<'_>,
    patch: &Patch<'_>,
    summary: &ChangeSummary,
) -> Vec<Finding> {
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
                        && !is_contract(input, patch, summary, &name, &text)
                })
                .map(|(at, l)| (l.line, trimmed(l.text), hunk_row(hunk) + at));
            // Output a tool writes (a bundle) is no implementation the step's author left out.
            let found = found.filter(|_| !summary::is_generated(file, input.base));
            if let Some((line, text, row)) = found {
                // A case a real function refuses is weaker evidence than a body left unwritten.
                let is_program = crate::rule::named_change::is_program(&name)
                    && !bodies::is_refused_case(summary, &name, row);
                out.push(placeholder_added(&name, i + 1, line, &text, is_program));
            }
        }
    }
    out
}

/// The finding for the placeholder `text` at patch line `line`, in hunk `hunk` of `name`: strong
/// in a program's source, weak elsewhere.
fn placeholder_added(
    name: &str,
    hunk: usize,
    line: usize,
    text: &str,
    is_program: bool,
) -> Finding {
    let violation = Violation::new(
        RuleId::NotImplemented,
        CheckCode::PlaceholderAdded,
        format!(
            "{name} hunk {hunk} (patch line {line}) adds the placeholder '{text}'; implement it"
        ),
    )
    .in_file(name.to_owned())
    .at(Some(hunk), Some(line));
    if is_program { Finding::strong(violation) } else { Finding::weak(violation) }
}

/// The row (1-based, after the patch) of a hunk's first line.
fn hunk_row(hunk: &crate::patch::Hunk<'_>) -> usize {
    usize::try_from(hunk.new_start).unwrap_or_default()
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
