//! Bodies the change summary reads as doing nothing: a function or method whose real body the
//! patch replaces by an empty one, `pass`, `...`, a bare `return` or a constant (gutted); and
//! the exemption for a placeholder that is an abstract method's body, implemented by a
//! method of the same name in another class the patch adds or changes.

use crate::finding::{ChangeSummary, FileSummary, ItemChange, ItemStatus, TrivialForm};
use crate::patch::{LineKind, Patch};

/// A function or method of a file outside tests whose body was real before the patch and is
/// trivial after it (not a placeholder: [`super::not_implemented`] reports those by line). A
/// body that only refused the call (raised, or returned an error) and now succeeds (`Err(..)`
/// -> `Ok(())`) accepts what was refused: a change of behaviour, not one emptied.
pub(super) struct Gutted<'s> {
    pub path: &'s str,
    pub item: &'s ItemChange,
    pub form: TrivialForm,
}

/// Every gutted definition of the summary, in patch order.
pub(super) fn gutted<'s>(summary: &'s ChangeSummary, patch: &Patch<'_>) -> Vec<Gutted<'s>> {
    emptied(summary, patch, false)
}

/// Every definition of the summary whose real body became trivial, a placeholder included
/// (`todo!()`, `TODO()`, `panic("not implemented")`): in `fix_regression` a placeholder where
/// the step's code was takes the step back as an empty body does.
pub(super) fn stubbed<'s>(summary: &'s ChangeSummary, patch: &Patch<'_>) -> Vec<Gutted<'s>> {
    emptied(summary, patch, true)
}

fn emptied<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
    with_placeholders: bool,
) -> Vec<Gutted<'s>> {
    let mut out = Vec::new();
    for file in summary.files.iter().filter(|f| !super::testfile::is_test_path(&f.path)) {
        for item in &file.items {
            let is_callable = matches!(item.kind.as_str(), "function" | "method");
            let Some(trivial) = item.trivial.as_ref().filter(|_| is_callable) else { continue };
            if item.change == ItemStatus::Changed
                && !item.was_trivial
                && !item.was_refusal
                && (with_placeholders
                    || trivial.form != TrivialForm::Placeholder
                    || trivial.text.is_empty())
                && !is_pushed_down(summary, patch, item)
            {
                out.push(Gutted { path: &file.path, item, form: trivial.form });
            }
        }
    }
    out
}

/// Whether the real body `item` lost went to a method of the same name that the patch adds to
/// another class: the implementation pushed down into a subclass, the base's body left as a
/// contract. A method of that name the patch only changes in another class (`Request.__init__`
/// beside `Response.__init__`) takes nothing over.
fn is_pushed_down(summary: &ChangeSummary, patch: &Patch<'_>, item: &ItemChange) -> bool {
    let Some((owner, name)) = split_owner(&item.name) else { return false };
    summary.files.iter().flat_map(|f| f.items.iter().map(move |i| (f.path.as_str(), i))).any(
        |(path, other)| {
            other.change == ItemStatus::Added
                && other.trivial.is_none()
                && !forwards(patch, path, other, name)
                && split_owner(&other.name).is_some_and(|(o, n)| n == name && o != owner)
        },
    )
}

/// Functions and methods of files outside tests that the patch adds with a body that cannot
/// give the result they declare (`fun f(): Int {}`): code not written yet, which no line shows
/// as a placeholder.
pub(super) fn added_without_result<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
) -> Vec<Gutted<'s>> {
    let mut out = Vec::new();
    for file in summary.files.iter().filter(|f| !super::testfile::is_test_path(&f.path)) {
        for item in &file.items {
            let Some(trivial) = &item.trivial else { continue };
            let is_empty_result =
                trivial.form == TrivialForm::Placeholder && trivial.text.is_empty();
            if item.change == ItemStatus::Added
                && is_empty_result
                && !is_abstract(summary, patch, item)
            {
                out.push(Gutted { path: &file.path, item, form: trivial.form });
            }
        }
    }
    out
}

/// Functions and methods of files outside tests that the patch adds with a body that does
/// nothing (empty, `pass`, `nil`, `return 0`; not a placeholder, reported by its line), while an
/// added line of the patch's test files calls them (`.name` or `name(`): the tests exercise
/// code not written yet. A no-op the tests do not call (a hook) is no finding, nor one variant
/// of a definition the patch adds with other bodies elsewhere ([`is_one_variant`]), nor one it
/// moves from another file ([`is_moved_in`]).
pub(super) fn added_trivial_under_test<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
    test_lines: &[String],
) -> Vec<Gutted<'s>> {
    added_trivial(summary, patch, |own| test_lines.iter().any(|l| calls(l, own)))
}

/// Functions and methods of files outside tests that the patch adds with a body that does
/// nothing (empty, `pass`, `return 0;`; not a placeholder, reported by its line), while a
/// definition the patch changes now calls them where it loses more lines of its own than it
/// gains: the caller's logic was handed to a function that does not do it (`jv_contains`'s body
/// replaced by `return jvp_contains(a, b, 0);`, and `jvp_contains` returns 0). A no-op the
/// caller only gains a call to (a hook) is no finding, nor one variant of a definition
/// ([`is_one_variant`]), one moved from another file ([`is_moved_in`]), or an abstract one.
pub(super) fn added_trivial_instead_of_logic<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
) -> Vec<Gutted<'s>> {
    added_trivial(summary, patch, |own| hands_logic_over(summary, patch, own))
}

/// Functions and methods of files outside tests that the patch adds with a body that does
/// nothing but is no placeholder, named by three characters or more, that `is_used` holds for
/// (by their own name, past any `Class.`), and that are neither abstract, one variant of a
/// definition, nor moved in from another file.
fn added_trivial<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
    is_used: impl Fn(&str) -> bool,
) -> Vec<Gutted<'s>> {
    let mut out = Vec::new();
    for file in summary.files.iter().filter(|f| !super::testfile::is_test_path(&f.path)) {
        for item in &file.items {
            let is_callable = matches!(item.kind.as_str(), "function" | "method");
            let Some(trivial) = item.trivial.as_ref().filter(|_| is_callable) else { continue };
            let own = item.name.rsplit(['.', ':']).next().unwrap_or(&item.name);
            if item.change == ItemStatus::Added
                && trivial.form != TrivialForm::Placeholder
                && own.chars().count() >= 3
                && !is_constructor(item)
                && is_used(own)
                && !is_abstract(summary, patch, item)
                && !is_one_variant(summary, &file.path, item)
                && !is_moved_in(summary, patch, &file.path, item)
            {
                out.push(Gutted { path: &file.path, item, form: trivial.form });
            }
        }
    }
    out
}

/// Whether a definition the patch changes, with a real body after it, gains a call to `name`
/// while it loses at least three lines of code and more than it gains.
fn hands_logic_over(summary: &ChangeSummary, patch: &Patch<'_>, name: &str) -> bool {
    summary.files.iter().any(|file| {
        let placed = placed_lines(patch, &file.path);
        file.items.iter().filter(|i| i.change == ItemStatus::Changed && i.trivial.is_none()).any(
            |caller| {
                let last = caller.line + caller.lines.saturating_sub(1);
                let own = placed.iter().filter(|(at, ..)| (caller.line..=last).contains(at));
                let code = |kind| {
                    own.clone()
                        .filter(move |(_, k, t)| *k == kind && is_code_line(t))
                        .map(|(.., t)| String::from_utf8_lossy(t).into_owned())
                };
                let (removed, added): (Vec<String>, Vec<String>) =
                    (code(LineKind::Remove).collect(), code(LineKind::Add).collect());
                removed.len() >= 3
                    && removed.len() > added.len()
                    && added.iter().any(|l| calls(l, name))
            },
        )
    })
}

/// A line that holds code: not blank, not only a comment or a closing bracket.
fn is_code_line(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    let text = text.trim();
    let is_comment = ["//", "#", "/*", "*", "--"].iter().any(|m| text.starts_with(m));
    !text.is_empty() && !is_comment && text.chars().any(char::is_alphanumeric)
}

/// Test functions and methods (in a test file, named as tests ([`is_test_name`]) or marked
/// `@Test`, `#[test]`, `[Fact]`) that the patch adds with a body
/// that does nothing, or whose real body it empties: a test that runs nothing checks nothing,
/// whatever the step (`Add test for request params` answered by `def test_request_params():
/// pass`). Helpers of test files (a fake returning `None`) are not named so; a C++ test macro
/// (`TEST_F(TApp, DISABLED_Case) {}`, its name in capitals) is no function; a base class's test
/// that another class of the patch implements is a contract ([`is_abstract`]).
pub(super) fn empty_tests<'s>(summary: &'s ChangeSummary, patch: &Patch<'_>) -> Vec<Gutted<'s>> {
    let mut out = Vec::new();
    for file in summary.files.iter().filter(|f| super::testfile::is_test_path(&f.path)) {
        for item in &file.items {
            let is_callable = matches!(item.kind.as_str(), "function" | "method");
            let Some(trivial) = item.trivial.as_ref().filter(|_| is_callable) else { continue };
            let own = item.name.rsplit(['.', ':']).next().unwrap_or(&item.name);
            // `TEST_F(TApp, DISABLED_Case) {}` is a C++ macro, not a function: a name in
            // capitals is read as none.
            let is_macro = !own.bytes().any(|b| b.is_ascii_lowercase());
            let is_test = item.is_test || (is_test_name(own) && !is_macro && !is_constructor(item));
            let is_new = item.change == ItemStatus::Added
                || (item.change == ItemStatus::Changed && !item.was_trivial);
            if is_test && is_new && !is_abstract(summary, patch, item) {
                out.push(Gutted { path: &file.path, item, form: trivial.form });
            }
        }
    }
    out
}

/// Whether a function's own name calls it a test: it opens with `test` (`test_parse`,
/// `testParse`, `TestParse`) or ends with `_test` or `_tests` (`run_jq_recompile_tests`).
fn is_test_name(own: &str) -> bool {
    own.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("test"))
        || own.ends_with("_test")
        || own.ends_with("_tests")
}

/// Whether the patch adds a definition of the same name in another file with another body: one
/// variant per platform or configuration (Kotlin's `actual fun isWasm() = false` beside `=
/// true`, a Go function per build-tagged file), where a constant is that platform's answer. The
/// same constant in every file is no choice at all.
fn is_one_variant(summary: &ChangeSummary, path: &str, item: &ItemChange) -> bool {
    let text = |i: &ItemChange| i.trivial.as_ref().map(|t| t.text.clone());
    summary.files.iter().filter(|f| f.path != path).flat_map(|f| &f.items).any(|other| {
        matches!(other.change, ItemStatus::Added | ItemStatus::Changed)
            && other.name == item.name
            && other.kind == item.kind
            && text(other) != text(item)
    })
}

/// Whether the definition came from another file of the patch as it was (a trivial body it
/// already had is not written now): that file loses a definition of the same name, kind and
/// length (read on its tree), or a removed line of it is the definition's first line, the
/// name in it (a file the summary read by its lines only).
fn is_moved_in(
    summary: &ChangeSummary,
    patch: &Patch<'_>,
    in_file: &str,
    item: &ItemChange,
) -> bool {
    let removed_there = summary.files.iter().filter(|f| f.path != in_file).flat_map(|f| &f.items);
    let same = |other: &ItemChange| {
        other.change == ItemStatus::Removed
            && other.name == item.name
            && other.kind == item.kind
            && other.lines == item.lines
    };
    if removed_there.into_iter().any(same) {
        return true;
    }
    let own = item.name.rsplit(['.', ':']).next().unwrap_or(&item.name);
    let Some(header) = added_line(patch, in_file, item.line) else { return false };
    let header = header.trim_ascii();
    let is_header = crate::summary::has_word(&String::from_utf8_lossy(header), own);
    let others = patch.files.iter().filter(|f| String::from_utf8_lossy(f.path()) != in_file);
    let mut removed = others.flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    is_header && removed.any(|l| l.kind == LineKind::Remove && l.text.trim_ascii() == header)
}

/// The text of line `number` (1-based) of the file `in_file` after the patch, when the patch
/// adds it.
fn added_line<'p>(patch: &Patch<'p>, in_file: &str, number: usize) -> Option<&'p [u8]> {
    let file = patch.files.iter().find(|f| String::from_utf8_lossy(f.path()) == in_file)?;
    for hunk in &file.hunks {
        let mut at = usize::try_from(hunk.new_start).ok()?;
        for line in &hunk.lines {
            match line.kind {
                LineKind::Remove => continue,
                LineKind::Add if at == number => return Some(line.text),
                _ => {}
            }
            at += 1;
        }
    }
    None
}

/// The lines of `path`'s hunks, each with the line of the post image (1-based) it stands at: an
/// added or a context line at its own, a removed line at the line that follows it.
fn placed_lines<'p>(patch: &Patch<'p>, in_file: &str) -> Vec<(usize, LineKind, &'p [u8])> {
    let mut out = Vec::new();
    let file = patch.files.iter().find(|f| String::from_utf8_lossy(f.path()) == in_file);
    for hunk in file.iter().flat_map(|f| &f.hunks) {
        let Ok(mut at) = usize::try_from(hunk.new_start) else { continue };
        for line in &hunk.lines {
            out.push((at, line.kind, line.text));
            if line.kind != LineKind::Remove {
                at += 1;
            }
        }
    }
    out
}

/// Whether the trivial statement `item` has after the patch is one the patch left as it was: a
/// context line of its definition, with nothing removed just before it or changed after it
/// (`return true;` of a C++ overload whose template header alone the patch rewrites). Such a
/// body was trivial before the patch, whichever definition the summary paired it with; a body
/// whose lines are removed above a `return 0;` that happens to stay is emptied all the same.
pub(super) fn keeps_trivial_statement(patch: &Patch<'_>, in_file: &str, item: &ItemChange) -> bool {
    let Some(text) = item.trivial.as_ref().map(|t| t.text.as_str()).filter(|t| !t.is_empty())
    else {
        return false;
    };
    let last = item.line + item.lines.saturating_sub(1);
    let placed = placed_lines(patch, in_file);
    let in_item = |at: usize| (item.line..=last).contains(&at);
    let one_line =
        |t: &[u8]| String::from_utf8_lossy(t).split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(&(row, ..)) = placed
        .iter()
        .find(|(at, kind, t)| in_item(*at) && *kind == LineKind::Context && one_line(t) == text)
    else {
        return false;
    };
    let changed = |(at, kind, _): &&(usize, LineKind, &[u8])| {
        (*kind == LineKind::Remove && (row..=last).contains(at))
            || (*kind == LineKind::Add && (row + 1..=last).contains(at))
    };
    !placed.iter().any(|p| changed(&p))
}

/// Whether the patch marks `item` deprecated: a line it adds to the comments and attributes
/// right above the definition, or to its first line, says so (Go's `// Deprecated:`, `@Deprecated`,
/// `#[deprecated]`, `@deprecated` in a doc comment). A deprecated function kept only so that
/// callers still compile may rightly do nothing now.
pub(super) fn is_marked_deprecated(patch: &Patch<'_>, in_file: &str, item: &ItemChange) -> bool {
    let placed = placed_lines(patch, in_file);
    let line_at = |row: usize| {
        placed.iter().find(|(at, kind, _)| *at == row && *kind != LineKind::Remove).copied()
    };
    let is_note = |text: &str| {
        let text = text.trim_start();
        ["//", "#", "/*", "*", "@", "--"].iter().any(|m| text.starts_with(m))
    };
    let mut row = item.line;
    while let Some((_, kind, text)) = line_at(row) {
        let text = String::from_utf8_lossy(text).to_lowercase();
        if row != item.line && !is_note(&text) {
            break;
        }
        if kind == LineKind::Add && crate::summary::has_word(&text, "deprecated") {
            return true;
        }
        let Some(above) = row.checked_sub(1).filter(|r| *r > 0) else { break };
        row = above;
    }
    false
}

/// Whether `line` calls `name`: `.name` or `name(` with `name` a whole word.
fn calls(line: &str, name: &str) -> bool {
    let bytes = line.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    line.match_indices(name).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + name.len()).copied();
        let is_whole = !before.is_some_and(is_word) && !after.is_some_and(is_word);
        is_whole && (before == Some(b'.') || after == Some(b'('))
    })
}

/// Whether `item`, a method of one class, is implemented by a method of the same name in
/// another class (or type, or impl) that the patch adds or changes with a real body: the
/// base class's body is then a contract (`raise NotImplementedError`), not missing code. A
/// method whose real body the patch takes away is a contract only where a method the patch
/// adds takes that body over ([`is_pushed_down`]): `Response.__init__` emptied beside an edit
/// of `Request.__init__` is code lost, not an interface.
fn is_abstract(summary: &ChangeSummary, patch: &Patch<'_>, item: &ItemChange) -> bool {
    let Some((owner, name)) = split_owner(&item.name) else { return false };
    let loses_a_body = item.change == ItemStatus::Changed && !item.was_trivial;
    summary.files.iter().flat_map(|f| f.items.iter().map(move |i| (f.path.as_str(), i))).any(
        |(path, other)| {
            let is_live = match other.change {
                ItemStatus::Added => true,
                ItemStatus::Changed => !loses_a_body,
                _ => false,
            };
            is_live
                && other.trivial.is_none()
                && !forwards(patch, path, other, name)
                && split_owner(&other.name).is_some_and(|(o, n)| n == name && o != owner)
        },
    )
}

/// Whether the method `other` of the file `in_file` only hands the call on to a method of the same
/// `name` (`override fun cancel() = delegate.cancel()`, `return super().close()`): a
/// definition of three lines at most whose lines name it twice, in its header and in a call. A
/// forwarder implements nothing, so it takes no body over.
fn forwards(patch: &Patch<'_>, in_file: &str, other: &ItemChange, name: &str) -> bool {
    if other.lines > 3 {
        return false;
    }
    let last = other.line + other.lines.saturating_sub(1);
    let text: String = placed_lines(patch, in_file)
        .into_iter()
        .filter(|(at, kind, _)| *kind != LineKind::Remove && (other.line..=last).contains(at))
        .map(|(.., t)| String::from_utf8_lossy(t).into_owned() + "\n")
        .collect();
    crate::summary::word_count(&text, name) >= 2 && calls(&text, name)
}

/// Whether `item` is a constructor: a method named as its class (`Util.Util` in Java, C++ or C#,
/// `Buffer::Buffer`) or `constructor` (Kotlin's secondary constructors, JavaScript, TypeScript).
/// Its empty body is how the language declares one (`private Util() {}` keeps a utility class
/// from being made), never a body left unwritten, and a constructor is no test whatever its
/// class is called (`TestUtil`).
fn is_constructor(item: &ItemChange) -> bool {
    item.kind == "method"
        && split_owner(&item.name).is_some_and(|(owner, own)| {
            own == "constructor" || owner.rsplit(['.', ':']).next() == Some(own)
        })
}

/// `Parser.parse` as (`Parser`, `parse`), `Config::load` as (`Config`, `load`); a name with no
/// owner is no method.
fn split_owner(name: &str) -> Option<(&str, &str)> {
    let at = name.rfind(['.', ':'])?;
    let owner = name[..at].trim_end_matches(':');
    (!owner.is_empty()).then(|| (owner, &name[at + 1..]))
}

/// Whether the added placeholder line `text` (trimmed) of `file` is the body of abstract
/// methods only: every placeholder item of the file whose statement it is has an
/// implementation elsewhere in the patch. A line no item explains is no exemption.
pub(super) fn is_abstract_placeholder(
    summary: &ChangeSummary,
    patch: &Patch<'_>,
    file: &str,
    text: &str,
) -> bool {
    each_holder(summary, file, text, |item| is_abstract(summary, patch, item))
}

/// Whether the added placeholder line at `row` (1-based, after the patch) of `file` sits inside
/// a function or method whose body after the patch is real (read on the syntax tree, not
/// trivial): one branch of working code, a case it refuses (`raise
/// NotImplementedError("auth-int")` under an `if`, a `match` arm `=> unimplemented!()`), not
/// a body left unwritten.
pub(super) fn is_refused_case(summary: &ChangeSummary, file: &str, row: usize) -> bool {
    let Some(found) = summary.files.iter().find(|f| f.path == file) else { return false };
    found.items.iter().any(|item| {
        matches!(item.kind.as_str(), "function" | "method")
            && item.change != ItemStatus::Removed
            && item.trivial.is_none()
            && item.line < row
            && row < item.line + item.lines
    })
}

/// Whether the added placeholder line `text` of `file` is the statement of one item of the
/// file at least, and every such item is `is_excused`: a line no item explains is no exemption.
fn each_holder(
    summary: &ChangeSummary,
    file: &str,
    text: &str,
    is_excused: impl FnMut(&ItemChange) -> bool,
) -> bool {
    let Some(found) = summary.files.iter().find(|f| f.path == file) else { return false };
    let mut holders = placeholder_items(found, text).peekable();
    holders.peek().is_some() && holders.all(is_excused)
}

/// Whether the added placeholder line `text` (trimmed) of `file` is the body of overrides
/// only that nothing in the patch reaches: every placeholder item of the file whose statement
/// it is is a method the patch adds marked `override` (`@Override`), and no line the patch adds
/// calls it (`.name`, `name(`) but its own header. An interface's members must all be written
/// for a class to compile; the ones a step does not need yet (`Get WASI set up enough to do a
/// directory list`, `openReadOnly` of a read-only file system) are left as `TODO()`, and no
/// code of the step runs them. A placeholder the patch's own code or tests call is one the step
/// relies on, and one in a method of the class's own is no member the interface imposed.
pub(super) fn is_unreached_override(
    summary: &ChangeSummary,
    patch: &Patch<'_>,
    file: &str,
    text: &str,
) -> bool {
    each_holder(summary, file, text, |item| {
        item.change == ItemStatus::Added
            && is_override(patch, file, item)
            && !is_called(summary, patch, item)
    })
}

/// Whether the added placeholder line `text` (trimmed) of `file`, a Python or Ruby file, is the
/// body of methods only that the patch adds (or writes where there was nothing) to a class
/// whose subclasses in the base tree define a method of that name ([`super::subclass`]): the
/// language's abstract method (`raise NotImplementedError`), declared on the base class for
/// the implementations it already has.
pub(super) fn is_implemented_in_base(
    summary: &ChangeSummary,
    base: Option<&super::base_files::BaseFiles<'_>>,
    file: &str,
    text: &str,
) -> bool {
    let Some(base) = base else { return false };
    each_holder(summary, file, text, |item| {
        let is_new = match item.change {
            ItemStatus::Added => true,
            ItemStatus::Changed => item.was_trivial,
            _ => false,
        };
        let owner = split_owner(&item.name);
        is_new
            && owner
                .is_some_and(|(owner, name)| super::subclass::implements(base, file, owner, name))
    })
}

/// Whether the added placeholder line `text` (trimmed) of `file` is the body of abstract
/// methods only, declared so: every placeholder item of the file whose statement it is carries
/// `@abstractmethod` (`@abc.abstractmethod`) among the decorators the patch writes above it. An
/// abstract method has no implementation by definition; its subclasses give it.
pub(super) fn is_declared_abstract(
    summary: &ChangeSummary,
    patch: &Patch<'_>,
    file: &str,
    text: &str,
) -> bool {
    each_holder(summary, file, text, |item| {
        let placed = placed_lines(patch, file);
        let line_at = |row: usize| {
            placed.iter().find(|(at, kind, _)| *at == row && *kind != LineKind::Remove)
        };
        let decorator = |row: usize| {
            let (_, _, line) = line_at(row)?;
            let line = String::from_utf8_lossy(line);
            let line = line.trim();
            line.starts_with('@').then(|| line.ends_with("abstractmethod"))
        };
        // The decorators right above the `def`, or its first lines when it spans them.
        let above = (1..item.line).rev().map_while(decorator);
        let within = (item.line..item.line + 5).map_while(decorator);
        above.chain(within).any(|is_abstract| is_abstract)
    })
}

/// Whether the header of `item`, a method the patch adds, marks it an override: `override fun`,
/// `override func`, `public override`, or Java's `@Override` on a line of its own above it (the
/// definition's first lines, up to the one that holds its name); or Kotlin's `actual fun`, a
/// platform's implementation of what common code declares `expect`, which every platform must
/// give as a class must give its interface's members.
fn is_override(patch: &Patch<'_>, file: &str, item: &ItemChange) -> bool {
    let own = own_name(item);
    for row in item.line..item.line + 3 {
        let Some(line) = added_line(patch, file, row) else { return false };
        let line = String::from_utf8_lossy(line);
        let lower = line.to_ascii_lowercase();
        if ["override", "actual"].iter().any(|w| crate::summary::has_word(&lower, w)) {
            return true;
        }
        if crate::summary::has_word(&line, own) {
            return false;
        }
    }
    false
}

/// Whether a line the patch adds, other than the header of a definition of that name, calls
/// `item` ([`calls`]).
fn is_called(summary: &ChangeSummary, patch: &Patch<'_>, item: &ItemChange) -> bool {
    let own = own_name(item);
    patch.files.iter().any(|file| {
        let name = String::from_utf8_lossy(file.path());
        let headers: Vec<usize> = summary
            .files
            .iter()
            .filter(|f| f.path == name)
            .flat_map(|f| &f.items)
            .filter(|i| own_name(i) == own)
            .map(|i| i.line)
            .collect();
        let lines = placed_lines(patch, &name);
        lines.iter().any(|(at, kind, text)| {
            *kind == LineKind::Add
                && !headers.iter().any(|h| (*h..*h + 3).contains(at))
                && calls(&String::from_utf8_lossy(text), own)
        })
    })
}

/// A definition's own name, past its owners (`parse` of `Parser.parse`).
fn own_name(item: &ItemChange) -> &str {
    item.name.rsplit(['.', ':']).next().unwrap_or(&item.name)
}

fn placeholder_items<'f>(
    file: &'f FileSummary,
    text: &'f str,
) -> impl Iterator<Item = &'f ItemChange> {
    file.items.iter().filter(move |item| {
        item.trivial.as_ref().is_some_and(|t| t.form == TrivialForm::Placeholder && t.text == text)
    })
}

#[cfg(test)]
mod tests {
    use super::split_owner;

    #[test]
    fn owners_are_read_from_qualified_names() {
        assert_eq!(split_owner("Parser.parse"), Some(("Parser", "parse")));
        assert_eq!(split_owner("Config::load"), Some(("Config", "load")));
        assert_eq!(split_owner("a.B.run"), Some(("a.B", "run")));
        assert_eq!(split_owner("parse"), None);
        assert_eq!(split_owner(".parse"), None);
    }
}
