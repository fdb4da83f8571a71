//! The change summary: what a patch does to the structure of each file, read once per result
//! on the syntax trees of the file's two images (the whole file from the base tree with the
//! hunks applied, or the hunks' two sides without one). It lists definitions added, removed,
//! changed, moved unchanged and renamed; bodies that became trivial (empty, `pass`, a constant,
//! a placeholder); identifiers the changed lines replace; comments and directive comments
//! added or removed; new files nothing else in the patch names; and, for the names a step asks
//! about, where they occur before and after. The semantic rules read it, the text report shows
//! it, and the judge is shown it.
//!
//! Files without a grammar (or that do not parse, or past the parse budget) are summarised by
//! the line comparison ([`lines`]), which only tells whitespace, comments and code apart; the
//! rules never reject on what it alone finds, but for whitespace only appended to line ends.
//!
//! ```
//! use patchgate::patch::{parse, ParseOptions};
//! use patchgate::summary::{summarize, Wants};
//! use patchgate::finding::{ChangeKind, ItemStatus};
//!
//! let diff = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return compute()\n+    pass\n";
//! let parsed = parse(diff.as_bytes(), &ParseOptions::default());
//! let summary = summarize(&parsed.patch.files, None, &Wants::full());
//! let file = &summary.files[0];
//! assert_eq!(file.change, ChangeKind::Code);
//! assert_eq!(file.items[0].name, "f");
//! assert_eq!(file.items[0].change, ItemStatus::Changed);
//! assert!(file.items[0].trivial.is_some(), "the body became `pass`");
//! ```

mod compare;
mod describe;
mod directive;
mod generated;
mod grammar;
mod image;
mod lines;
pub(crate) mod noop;
mod rename;
mod revert;
mod rustdoc;
#[cfg(test)]
mod tests;
mod tokens;
mod trivial;

pub use crate::finding::{
    ChangeKind, ChangeSummary, FileOperation, FileSummary, IdentifierRename, ItemChange,
    ItemStatus, NameCount, Trivial, TrivialForm,
};
pub use describe::describe;
pub use directive::silences_a_check;
pub use grammar::grammar_for;
pub use lines::{classify_lines, only_appends_trailing_whitespace, only_pads_line_ends};
pub use rename::{replaced_by, replaces};
pub use revert::{Reverted, reverted};

use crate::patch::{FilePatch, LineKind, Operation};
use rename::NameIndex;
use std::collections::HashSet;

/// The base tree, as the rules and the summary read it: looked up only when needed.
pub trait Base: std::fmt::Debug {
    /// Whether `path` is a file or a directory of the base tree.
    fn contains(&self, path: &str) -> bool;
    /// Every file of the base tree (listed once, on first use).
    fn files(&self) -> &[String];
    /// The content of the file at `path`, when it is a regular file of the base tree.
    fn content(&self, path: &str) -> Option<Vec<u8>>;
}

/// What the summary is asked to read.
#[derive(Clone, Debug, Default)]
pub struct Wants {
    /// Read every file with a grammar on its syntax tree (for the text report and the judge).
    /// Otherwise a file is parsed only where the lines cannot settle what the rules ask: an
    /// edit the lines call whitespace, comments or a move, a body that may have become
    /// trivial, or a name below.
    pub is_full: bool,
    /// Names the step asks about, counted in every file before and after the patch.
    pub names: Vec<String>,
}

impl Wants {
    /// Everything, for a reader.
    #[must_use]
    pub fn full() -> Self {
        Self { is_full: true, names: Vec::new() }
    }
}

/// Images parsed in one summary, in bytes (both images of every parsed file): past it, files
/// are compared by their lines.
const PARSE_BUDGET: usize = 16 << 20;

/// Summarise every file entry of a patch.
#[must_use]
pub fn summarize(files: &[FilePatch<'_>], base: Option<&dyn Base>, wants: &Wants) -> ChangeSummary {
    let mut budget = PARSE_BUDGET;
    // A patch that only creates a few files may be a script alone: what the files define
    // (nothing but an entry point?) is read on their trees.
    let is_only_created =
        files.len() <= MAX_CREATED && files.iter().all(|f| f.operation == Operation::Create);
    let full = Wants { is_full: true, names: wants.names.clone() };
    let wants = if is_only_created && !wants.is_full { &full } else { wants };
    let mut out: Vec<FileSummary> =
        files.iter().map(|f| summarize_file(f, base, wants, &mut budget)).collect();
    mark_unreferenced(files, &mut out);
    ChangeSummary { files: out }
}

fn summarize_file(
    file: &FilePatch<'_>,
    base: Option<&dyn Base>,
    wants: &Wants,
    budget: &mut usize,
) -> FileSummary {
    let path = display_path(file);
    let mut summary = lines_only(file, path.clone());
    if file.binary.is_some() || file.hunks.is_empty() {
        summary.change = ChangeKind::Code;
        return summary;
    }
    let mentions_name = wants.names.iter().any(|n| mentions(file, n));
    let grammar = grammar_for(&path)
        .filter(|_| wants.is_full || mentions_name || needs_tree(file, summary.change));
    let needs_images = grammar.is_some() || !wants.names.is_empty() || wants.is_full;
    if !needs_images {
        return summary;
    }
    let (old, new, is_whole) = image::images(file, base);
    if generated_image(file, &path, base, &old, is_whole) {
        summary.is_generated = true;
        summary.change = ChangeKind::Code;
        return summary;
    }
    let parsed = grammar.filter(|_| old.len() + new.len() <= *budget).and_then(|g| {
        *budget -= old.len() + new.len();
        Some((g, tokens::read(g, &old)?, tokens::read(g, &new)?))
    });
    let (before, after) = match &parsed {
        Some((grammar, old_image, new_image)) => {
            let (removed, added) = changed_rows(file, is_whole);
            let found = compare::compare(old_image, new_image, &removed, &added);
            summary.language = Some(grammar.name.to_owned());
            summary.change = found.change.unwrap_or(summary.change);
            summary.items = found.items;
            summary.comments_added = found.comments_added;
            summary.comments_removed = found.comments_removed;
            summary.directives_added = found.directives_added;
            summary.directives_removed = found.directives_removed;
            (NameIndex::of_image(old_image), NameIndex::of_image(new_image))
        }
        None => (NameIndex::of_text(&old), NameIndex::of_text(&new)),
    };
    summary.renames = rename::renames(file, &before, &after);
    let images = parsed.as_ref().map(|(_, old, new)| (old, new));
    rename::mark_local(&mut summary.renames, images.map(|(old, _)| old));
    summary.names = wants.names.iter().map(|n| rename::count(n, &before, &after, images)).collect();
    summary
}

/// The summary of `file` read by its lines alone: what [`classify_lines`] says of its change,
/// no language, no items, renames or names yet.
fn lines_only(file: &FilePatch<'_>, path: String) -> FileSummary {
    FileSummary {
        path,
        operation: operation(file.operation),
        language: None,
        change: classify_lines(file),
        items: Vec::new(),
        renames: Vec::new(),
        names: Vec::new(),
        comments_added: 0,
        comments_removed: 0,
        directives_added: Vec::new(),
        directives_removed: Vec::new(),
        is_unreferenced: false,
        is_generated: false,
    }
}

/// Whether the base tree says a tool writes the file of `file` ([`generated`]): its
/// `.gitattributes` mark it `linguist-generated`, or its base image has a generator's header or
/// minified lines.
#[must_use]
pub fn is_generated(file: &FilePatch<'_>, base: Option<&dyn Base>) -> bool {
    let (old, _, is_whole) = image::images(file, base);
    generated_image(file, &display_path(file), base, &old, is_whole)
}

fn generated_image(
    file: &FilePatch<'_>,
    path: &str,
    base: Option<&dyn Base>,
    old: &[u8],
    is_whole: bool,
) -> bool {
    let language = grammar_for(path).map(|g| g.name);
    // A file too large for a whole image is read from the base for this alone.
    let old_path = file.old_path.as_deref().filter(|_| file.operation != Operation::Create);
    let content =
        old_path.filter(|_| !is_whole).and_then(|p| base?.content(&String::from_utf8_lossy(p)));
    if let Some(content) = &content {
        return generated::is_generated(path, language, base, content, true);
    }
    let starts_at_top = is_whole || file.hunks.first().is_some_and(|h| h.old_start <= 1);
    generated::is_generated(path, language, base, old, starts_at_top)
}

/// Whether the lines leave something only the syntax tree can settle: an edit they call
/// superficial (or code that may be a comment inside a block comment opened above the hunk),
/// lines that may be a definition moved, or a body that may have become trivial.
fn needs_tree(file: &FilePatch<'_>, by_lines: ChangeKind) -> bool {
    let is_small = file.added() + file.removed() <= MAX_PARSED_EDIT;
    by_lines != ChangeKind::Code
        || (is_small && lines::changes_look_like_comment_text(file))
        || lines::may_be_move(file)
        || file.hunks.iter().flat_map(|h| &h.lines).any(|l| {
            (l.kind == LineKind::Add && may_be_trivial(l.text))
                || (l.kind != LineKind::Context && directive::may_be_silencing_attribute(l.text))
        })
}

/// Edits the line fallback calls code are parsed up to this many changed lines when they read
/// like comment text.
const MAX_PARSED_EDIT: usize = 40;

/// A short line that may be a whole trivial body, or a definition with one on its line.
fn may_be_trivial(line: &[u8]) -> bool {
    const STARTS: [&[u8]; 16] = [
        b"return",
        b"pass",
        b"...",
        b"raise",
        b"throw",
        b"panic",
        b"todo!",
        b"unimplemented!",
        b"TODO(",
        b"fatalError",
        b"Ok(",
        b"None",
        b"nil",
        b"null",
        b"Default::default",
        b"{}",
    ];
    let text = line.trim_ascii();
    let text = text.strip_suffix(b";").unwrap_or(text).trim_ascii_end();
    // An expression body after `=` or `=>` (`fun f() = TODO()`, `() => null`).
    let value = memchr::memmem::rfind(text, b"= ")
        .map(|at| &text[at + 2..])
        .or_else(|| memchr::memmem::rfind(text, b"=> ").map(|at| &text[at + 3..]))
        .map(<[u8]>::trim_ascii_start);
    let starts_trivial = |t: &[u8]| STARTS.iter().any(|s| t.starts_with(s));
    text.len() <= 80
        && (starts_trivial(text)
            || value.is_some_and(starts_trivial)
            || text.ends_with(b"{}")
            || text.ends_with(b"{ }")
            || text.ends_with(b": pass")
            || text.ends_with(b": ..."))
}

/// Whether a hunk line of `file` holds `name`.
fn mentions(file: &FilePatch<'_>, name: &str) -> bool {
    let name = name.as_bytes();
    file.hunks.iter().flat_map(|h| &h.lines).any(|l| memchr::memmem::find(l.text, name).is_some())
}

/// The 0-based rows of the old image the patch removes and of the new image it adds: placed by
/// the hunks' stated starts in whole images, one after the other in the hunks' sides.
fn changed_rows(file: &FilePatch<'_>, is_whole: bool) -> (HashSet<usize>, HashSet<usize>) {
    let start =
        |s: u64, count: u64| usize::try_from(if count == 0 { s } else { s - 1 }).unwrap_or(0);
    let (mut removed, mut added) = (HashSet::new(), HashSet::new());
    let (mut o, mut n) = (0usize, 0usize);
    for hunk in &file.hunks {
        if is_whole {
            (o, n) = (start(hunk.old_start, hunk.old_count), start(hunk.new_start, hunk.new_count));
        }
        for line in &hunk.lines {
            match line.kind {
                LineKind::Context => (o, n) = (o + 1, n + 1),
                LineKind::Remove => {
                    removed.insert(o);
                    o += 1;
                }
                LineKind::Add => {
                    added.insert(n);
                    n += 1;
                }
            }
        }
    }
    (removed, added)
}

/// Created files looked up in the rest of the patch, at most: a patch creating more is no
/// script on its own.
const MAX_CREATED: usize = 8;

/// New files that no other file entry of the patch names (by file name or by stem) in its lines.
fn mark_unreferenced(files: &[FilePatch<'_>], out: &mut [FileSummary]) {
    let created: Vec<usize> =
        (0..files.len()).filter(|&i| files[i].operation == Operation::Create).collect();
    if created.len() > MAX_CREATED {
        return;
    }
    for i in created {
        let path = out[i].path.clone();
        let name = path.rsplit('/').next().unwrap_or(&path);
        let stem = name.split('.').next().unwrap_or(name);
        let is_named = files.iter().enumerate().filter(|(j, _)| *j != i).any(|(_, other)| {
            let lines =
                other.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind != LineKind::Remove);
            lines.clone().any(|l| memchr::memmem::find(l.text, name.as_bytes()).is_some())
                || (stem.len() > 2
                    && lines.into_iter().any(|l| has_word(&String::from_utf8_lossy(l.text), stem)))
        });
        out[i].is_unreferenced = !is_named;
    }
}

/// Whether the file at `path` with content `text` uses `name` as code (not in a comment or a
/// string), read on its syntax tree; `None` when it has no grammar or does not parse.
#[must_use]
pub fn uses_as_code(path: &str, text: &[u8], name: &str) -> Option<bool> {
    let image = tokens::read(grammar_for(path)?, text)?;
    Some(!NameIndex::of_image(&image).rows(name).is_empty())
}

/// Whether `text` holds `word` as a whole identifier.
#[must_use]
pub fn has_word(text: &str, word: &str) -> bool {
    word_count(text, word) > 0
}

/// How often `text` holds `word` as a whole identifier.
#[must_use]
pub fn word_count(text: &str, word: &str) -> usize {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let is_whole = |at: usize| {
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        before && text[at + word.len()..].chars().next().is_none_or(|c| !is_ident(c))
    };
    text.match_indices(word).filter(|(at, _)| is_whole(*at)).count()
}

fn operation(op: Operation) -> FileOperation {
    match op {
        Operation::Create => FileOperation::Create,
        Operation::Delete => FileOperation::Delete,
        Operation::Modify => FileOperation::Modify,
        Operation::Rename => FileOperation::Rename,
        Operation::Copy => FileOperation::Copy,
    }
}

fn display_path(file: &FilePatch<'_>) -> String {
    match crate::path::check_bytes(file.path()) {
        Ok(p) => p.to_string(),
        Err(_) => crate::path::display_bytes(file.path()),
    }
}
