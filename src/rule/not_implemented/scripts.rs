//! `script_only`: a patch that only adds a program nothing runs (a reproduction script).

use super::Finding;
use crate::finding::CheckCode;
use crate::patch::{LineKind, Patch};
use crate::rule::ask::{self, Kind};
use crate::rule::input::short_list;
use crate::rule::{Input, RuleId, Violation, convention, named_change, testfile};
use crate::summary::ChangeSummary;
use regex::Regex;
use std::sync::LazyLock;

/// The patch only creates files nothing else in it names and no convention loads
/// ([`convention::loads`]: a reproduction script), in a language, outside tests, and changes no
/// existing file: it answers a step that asks for a program of its own (`Add a release
/// script`, `docs: add an example`) or names the file, or a stub, and no other step. A step
/// that states a behaviour to fix, or something to remove, move, refactor or silence, is not
/// carried out by a file nothing runs, whatever it defines (a strong finding).
pub(super) fn script_only(
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
