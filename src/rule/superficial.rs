//! Telling superficial edits from real ones, as the change summary read them
//! ([`crate::summary`]): for a language patchgate has a grammar for, the file's two images are
//! compared as tokens; for any other file, by the line fallback, which cannot see a moved line
//! or a `#` inside a string, so a finding that rests on it is only a note.

use crate::patch::{FilePatch, Patch};
use crate::summary::{self, ChangeKind, ChangeSummary, FileSummary};

/// A patch whose every file changes only trivia.
#[derive(Debug)]
pub(super) struct Superficial<'s> {
    /// The largest change of any file (not code).
    pub kind: ChangeKind,
    /// Whether a file was read by its lines only (no grammar, or it did not parse).
    pub is_by_lines: bool,
    /// The files, in patch order.
    pub files: Vec<&'s FileSummary>,
}

impl Superficial<'_> {
    /// How each file was compared, once each: `compared as Rust tokens, compared line by line`.
    pub fn deciders(&self) -> String {
        let mut out: Vec<String> = self
            .files
            .iter()
            .map(|f| match &f.language {
                Some(name) => format!("compared as {name} tokens"),
                None => "compared line by line".to_owned(),
            })
            .collect();
        out.dedup();
        out.join(", ")
    }
}

/// The patch's change when no file changes code: whitespace, comments, directive comments or
/// definitions moved unchanged, the largest of them. A file read by its lines is read with
/// certainty when it only has whitespace appended to line ends
/// ([`summary::only_appends_trailing_whitespace`]).
pub(super) fn superficial<'s>(
    summary: &'s ChangeSummary,
    patch: &Patch<'_>,
) -> Option<Superficial<'s>> {
    let kind = summary.files.iter().map(|f| f.change).max()?;
    if kind == ChangeKind::Code {
        return None;
    }
    let is_certain = |(f, p): (&FileSummary, &FilePatch<'_>)| {
        f.change == ChangeKind::Whitespace && summary::only_appends_trailing_whitespace(p)
    };
    let by_lines = summary.files.iter().zip(&patch.files).filter(|(f, _)| f.language.is_none());
    Some(Superficial {
        kind,
        is_by_lines: by_lines.filter(|&pair| !is_certain(pair)).count() > 0
            || summary.files.len() != patch.files.len(),
        files: summary.files.iter().collect(),
    })
}
