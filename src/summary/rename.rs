//! Names across a change: which identifiers the changed lines replace by another (`load_cfg`
//! -> `load_config`), and where a name occurs in a file before and after the patch.

use super::tokens::{Image, Kind};
use crate::finding::{IdentifierRename, NameCount};
use crate::patch::{FilePatch, LineKind};
use regex::bytes::Regex;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

/// A word of code: an identifier, or one other character.
static WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z_$][A-Za-z0-9_$]*|[^\sA-Za-z_$]").expect("the word pattern is valid")
});

/// Where each name of a file image occurs (rows, 0-based): its code only when the image was
/// parsed, every line otherwise.
#[derive(Debug, Default)]
pub struct NameIndex {
    rows: HashMap<Vec<u8>, Vec<usize>>,
}

impl NameIndex {
    /// Index a parsed image's code and string tokens.
    pub fn of_image(image: &Image<'_>) -> Self {
        let mut rows: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        for token in image.tokens.iter().filter(|t| t.kind == Kind::Code) {
            for (at, line) in token.text.split(|&b| b == b'\n').enumerate() {
                for word in WORD.find_iter(line).filter(|w| is_name(w.as_bytes())) {
                    rows.entry(word.as_bytes().to_vec()).or_default().push(token.row + at);
                }
            }
        }
        Self { rows }
    }

    /// Index every line of a text that was not parsed.
    pub fn of_text(text: &[u8]) -> Self {
        let mut rows: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        for (row, line) in text.split(|&b| b == b'\n').enumerate() {
            for word in WORD.find_iter(line).filter(|w| is_name(w.as_bytes())) {
                rows.entry(word.as_bytes().to_vec()).or_default().push(row);
            }
        }
        Self { rows }
    }

    /// The rows `name` occurs on (once per occurrence).
    pub fn rows(&self, name: &str) -> &[usize] {
        self.rows.get(name.as_bytes()).map_or(&[], Vec::as_slice)
    }
}

fn is_name(word: &[u8]) -> bool {
    word.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'$')
}

/// `name` counted in both images, with the rows after (1-based, at most 20); with the parsed
/// images, the definitions of that name in each and its uses outside them.
pub fn count(
    name: &str,
    before: &NameIndex,
    after: &NameIndex,
    images: Option<(&Image<'_>, &Image<'_>)>,
) -> NameCount {
    let rows = after.rows(name);
    let mut lines_after: Vec<usize> = rows.iter().map(|r| r + 1).collect();
    lines_after.dedup();
    lines_after.truncate(20);
    let (before_count, after_count) = (before.rows(name).len(), rows.len());
    let ((defined_before, outside_before), (defined_after, outside_after)) = match images {
        Some((old, new)) => (definitions(old, name), definitions(new, name)),
        None => ((0, before_count), (0, after_count)),
    };
    NameCount {
        name: name.to_owned(),
        before: before_count,
        after: after_count,
        lines_after,
        defined_before,
        defined_after,
        outside_before,
        outside_after,
    }
}

/// Kinds of definition a step can name to remove or extract: not the modules, `impl` blocks
/// and sections that hold them.
pub const NAMED_KINDS: [&str; 6] = ["function", "method", "class", "type", "trait", "macro"];

/// How many definitions of `image` are named `name`, and how often `name` occurs as code
/// outside them (a definition's own name and its recursive calls are inside).
fn definitions(image: &Image<'_>, name: &str) -> (usize, usize) {
    let spans: Vec<(usize, usize)> = image
        .definitions
        .iter()
        .filter(|d| d.own_name == name && NAMED_KINDS.contains(&d.kind))
        .map(|d| (d.start, d.end))
        .collect();
    let outside = image
        .tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| t.kind == Kind::Code && !spans.iter().any(|&(s, e)| (s..e).contains(i)))
        .map(|(_, t)| WORD.find_iter(t.text).filter(|w| w.as_bytes() == name.as_bytes()).count())
        .sum();
    (spans.len(), outside)
}

/// Mark the renames whose old name was local to one function in the base image, when it was
/// parsed ([`is_local`]).
pub fn mark_local(renames: &mut [IdentifierRename], old: Option<&Image<'_>>) {
    let Some(old) = old else { return };
    for found in renames {
        found.is_local = is_local(old, &found.from);
    }
}

/// Whether every use of `name` as code in `image` lies inside one function or method (the
/// innermost around it) and none is a member's (after `.`, `->` or `::`), no definition being
/// named so: a parameter or a local variable, which no other file can see.
pub fn is_local(image: &Image<'_>, name: &str) -> bool {
    if image.definitions.iter().any(|d| d.own_name == name) {
        return false;
    }
    let innermost = |at: usize| {
        let around = image.definitions.iter().enumerate().filter(|(_, d)| {
            matches!(d.kind, "function" | "method") && (d.start..d.end).contains(&at)
        });
        around.min_by_key(|(_, d)| d.end - d.start).map(|(i, _)| i)
    };
    let mut holder = None;
    let mut previous: &[u8] = b"";
    for (at, token) in image.tokens.iter().enumerate().filter(|(_, t)| t.kind == Kind::Code) {
        let is_use = token.is_name && token.text == name.as_bytes();
        let is_member = matches!(previous, b"." | b"->" | b"::" | b"?.");
        previous = token.text;
        if !is_use {
            continue;
        }
        let Some(function) = innermost(at).filter(|_| !is_member) else { return false };
        if holder.is_some_and(|h| h != function) {
            return false;
        }
        holder = Some(function);
    }
    holder.is_some()
}

/// Identifiers the changed lines replace by another: each run of removed lines followed by as
/// many added lines is read pairwise, and a pair whose words differ only in identifiers
/// replaces each of them. Listed when replaced twice or more, or when the old name is gone
/// from the file after the patch.
pub fn renames(
    file: &FilePatch<'_>,
    before: &NameIndex,
    after: &NameIndex,
) -> Vec<IdentifierRename> {
    let mut found: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (old, new) in line_pairs(file) {
        for pair in substitutions(old, new) {
            *found.entry(pair).or_default() += 1;
        }
    }
    // One old name replaced by several new ones is an edit, not a rename.
    let mut targets: HashMap<&str, usize> = HashMap::new();
    for (from, _) in found.keys() {
        *targets.entry(from.as_str()).or_default() += 1;
    }
    found
        .iter()
        .filter(|((from, _), _)| targets.get(from.as_str()) == Some(&1))
        .filter(|((from, _), n)| {
            **n >= 2 || (!before.rows(from).is_empty() && after.rows(from).is_empty())
        })
        .map(|((from, to), n)| {
            let mut left_on: Vec<usize> = after.rows(from).iter().map(|r| r + 1).collect();
            left_on.dedup();
            left_on.truncate(20);
            IdentifierRename {
                from: from.clone(),
                to: to.clone(),
                count: *n,
                left_on,
                is_local: false,
            }
        })
        .collect()
}

/// Removed and added lines read pairwise, for every run of removed lines followed by the same
/// number of added lines.
fn line_pairs<'a>(file: &'a FilePatch<'a>) -> Vec<(&'a [u8], &'a [u8])> {
    let mut out = Vec::new();
    for hunk in &file.hunks {
        let (mut removed, mut added): (Vec<&[u8]>, Vec<&[u8]>) = (Vec::new(), Vec::new());
        let mut flush = |removed: &mut Vec<&'a [u8]>, added: &mut Vec<&'a [u8]>| {
            if removed.len() == added.len() {
                out.extend(removed.iter().copied().zip(added.iter().copied()));
            }
            removed.clear();
            added.clear();
        };
        for line in &hunk.lines {
            match line.kind {
                LineKind::Remove if added.is_empty() => removed.push(line.text),
                LineKind::Remove => {
                    flush(&mut removed, &mut added);
                    removed.push(line.text);
                }
                LineKind::Add => added.push(line.text),
                LineKind::Context => flush(&mut removed, &mut added),
            }
        }
        flush(&mut removed, &mut added);
    }
    out
}

/// The identifiers `new` writes in place of `old`'s, when the two lines differ in nothing else.
fn substitutions(old: &[u8], new: &[u8]) -> Vec<(String, String)> {
    let words = |line: &[u8]| -> Vec<Vec<u8>> {
        WORD.find_iter(line).map(|m| m.as_bytes().to_vec()).collect()
    };
    let (a, b) = (words(old), words(new));
    if a.len() != b.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (x, y) in a.iter().zip(&b).filter(|(x, y)| x != y) {
        if !is_name(x) || !is_name(y) {
            return Vec::new();
        }
        let pair =
            (String::from_utf8_lossy(x).into_owned(), String::from_utf8_lossy(y).into_owned());
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    out
}

/// Whether a pair of the file's changed lines (read as in [`renames`]) writes `to` where the
/// removed line had `from`: the patch carries out that rename at least once.
#[must_use]
pub fn replaces(file: &FilePatch<'_>, from: &str, to: &str) -> bool {
    line_pairs(file)
        .into_iter()
        .any(|(old, new)| substitutions(old, new).iter().any(|(f, t)| f == from && t == to))
}

/// The identifiers a pair of the file's changed lines (read as in [`renames`]) replaces by
/// `to`, each once: what the patch renames to `to`.
#[must_use]
pub fn replaced_by(file: &FilePatch<'_>, to: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (old, new) in line_pairs(file) {
        for (from, _) in substitutions(old, new).into_iter().filter(|(_, t)| t == to) {
            if !out.contains(&from) {
                out.push(from);
            }
        }
    }
    out
}
