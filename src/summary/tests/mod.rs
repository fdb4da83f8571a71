//! The change summary per language: each shape a rule reads (trivial bodies, renames, moves,
//! directives, scripts) and its twin, on whole files turned into real diffs.

mod items;
mod lines;
mod syntax;

use super::*;
use crate::patch::{ParseOptions, parse};

/// A base tree of one file: its path and content.
#[derive(Debug)]
pub(super) struct OneFile<S = &'static str>(pub S, pub S);

impl<S: AsRef<str> + std::fmt::Debug> Base for OneFile<S> {
    fn contains(&self, path: &str) -> bool {
        path == self.0.as_ref()
    }

    fn files(&self) -> &[String] {
        &[]
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        (path == self.0.as_ref()).then(|| self.1.as_ref().as_bytes().to_vec())
    }
}

/// The diff that turns `old` into `new` in the file `name`, as git writes it.
fn diff(name: &str, old: &str, new: &str) -> String {
    let patch = diffy::create_patch(old, new).to_string();
    let hunks = patch.split_once("+++ modified\n").map_or("", |(_, h)| h);
    format!("diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n{hunks}")
}

/// The full summary of the file `name` changed from `old` to `new`, the base tree holding `old`.
fn summary_of(name: &str, old: &str, new: &str) -> FileSummary {
    summary_wanting(name, old, new, &Wants::full())
}

fn summary_wanting(name: &str, old: &str, new: &str, wants: &Wants) -> FileSummary {
    let text = diff(name, old, new);
    let parsed = parse(text.as_bytes(), &ParseOptions::default());
    assert!(parsed.defects.is_empty(), "{text}");
    let base = OneFile(name.to_owned(), old.to_owned());
    let mut summary = summarize(&parsed.patch.files, Some(&base), wants);
    summary.files.remove(0)
}

/// A file's change kind and the grammar that decided it (none: the lines), as the rules'
/// cheap summary reads it.
fn classify(file: &FilePatch<'_>, base: Option<&dyn Base>) -> (ChangeKind, Option<&'static str>) {
    let summary = summarize(std::slice::from_ref(file), base, &Wants::default());
    let file_summary = &summary.files[0];
    let grammar = file_summary.language.as_ref().and_then(|_| grammar_for(&file_summary.path));
    (file_summary.change, grammar.map(|g| g.name))
}
