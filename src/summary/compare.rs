//! Two parsed images of one file compared: the kind of change (whitespace, comments,
//! directives, definitions moved unchanged, code), the definitions added, removed, changed,
//! moved or renamed, and the comments and directives added or removed.

use super::tokens::{Definition, Image, Kind, Token};
use crate::finding::{ChangeKind, ItemChange, ItemStatus};
use std::collections::{HashMap, HashSet};

/// What the comparison of two images found.
#[derive(Debug, Default)]
pub struct Compared {
    pub change: Option<ChangeKind>,
    pub items: Vec<ItemChange>,
    pub comments_added: usize,
    pub comments_removed: usize,
    pub directives_added: Vec<String>,
    pub directives_removed: Vec<String>,
}

/// Compare `old` and `new`; `removed` and `added` are the 0-based lines of each image the patch
/// removes and adds (a definition whose lines are on both is one the patch moved).
pub fn compare(
    old: &Image<'_>,
    new: &Image<'_>,
    removed: &HashSet<usize>,
    added: &HashSet<usize>,
) -> Compared {
    let mut out = Compared::default();
    let (old_comments, new_comments) = (texts(old, Kind::Comment), texts(new, Kind::Comment));
    (out.comments_added, out.comments_removed) = counted_difference(&old_comments, &new_comments);
    let (old_dirs, new_dirs) = (texts(old, Kind::Directive), texts(new, Kind::Directive));
    out.directives_added = difference(&new_dirs, &old_dirs);
    out.directives_removed = difference(&old_dirs, &new_dirs);
    let lines = Lines { removed, added };
    out.items = items(old, new, &lines);
    let code = |t: &&Token<'_>| matches!(t.kind, Kind::Code | Kind::Indent | Kind::Structure);
    let is_code_same =
        old.tokens.iter().filter(code).map(key).eq(new.tokens.iter().filter(code).map(key));
    let is_trivia_changed =
        old_dirs != new_dirs || squeeze(&old_comments) != squeeze(&new_comments);
    let is_code_same = is_code_same || (is_trivia_changed && only_split_by_trivia(old, new));
    out.change = Some(if !is_code_same {
        if only_moves(old, new, &out.items) { ChangeKind::Move } else { ChangeKind::Code }
    } else if old_dirs != new_dirs {
        ChangeKind::Directive
    } else if squeeze(&old_comments) != squeeze(&new_comments) {
        ChangeKind::Comment
    } else {
        ChangeKind::Whitespace
    });
    out
}

/// Whether the images are prose with markup whose words are the same and whose structure
/// differs: with comments or directives added or removed, that is the blocks an HTML comment
/// opens or closes around it (`<!-- ... -->` between two lines of a paragraph or a list splits
/// it in two, one above the first heading makes a section), which nothing renders as text.
fn only_split_by_trivia(old: &Image<'_>, new: &Image<'_>) -> bool {
    let is_prose = |image: &Image<'_>| image.tokens.iter().any(|t| t.kind == Kind::Structure);
    let words = |t: &&Token<'_>| matches!(t.kind, Kind::Code | Kind::Indent);
    (is_prose(old) || is_prose(new))
        && old.tokens.iter().filter(words).map(key).eq(new.tokens.iter().filter(words).map(key))
}

/// The lines the patch removes and adds.
struct Lines<'l> {
    removed: &'l HashSet<usize>,
    added: &'l HashSet<usize>,
}

/// A token as compared: its kind and text, an indentation or a structure node by its column.
type Key<'t> = (Kind, &'t [u8], usize);

fn key<'t>(token: &Token<'t>) -> Key<'t> {
    match token.kind {
        Kind::Indent | Kind::Structure => (token.kind, &[], token.column),
        kind => (kind, token.text, 0),
    }
}

/// The texts of the tokens of `kind`, whitespace dropped.
fn texts(image: &Image<'_>, kind: Kind) -> Vec<String> {
    image
        .tokens
        .iter()
        .filter(|t| t.kind == kind)
        .map(|t| String::from_utf8_lossy(t.text).split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// All the texts run together without whitespace: a comment re-wrapped over two lines is the
/// same comment.
fn squeeze(texts: &[String]) -> String {
    texts.iter().flat_map(|t| t.chars().filter(|c| !c.is_whitespace())).collect()
}

/// How many of `new` are not in `old` and how many of `old` are not in `new`, as multisets.
fn counted_difference(old: &[String], new: &[String]) -> (usize, usize) {
    let mut count: HashMap<&str, isize> = HashMap::new();
    for text in old {
        *count.entry(text).or_default() -= 1;
    }
    for text in new {
        *count.entry(text).or_default() += 1;
    }
    let added = count.values().filter(|&&n| n > 0).map(|&n| n.unsigned_abs()).sum();
    let removed = count.values().filter(|&&n| n < 0).map(|&n| n.unsigned_abs()).sum();
    (added, removed)
}

/// The texts of `a` not in `b` (as multisets), at most five.
fn difference(a: &[String], b: &[String]) -> Vec<String> {
    let mut left: Vec<&String> = b.iter().collect();
    let mut out = Vec::new();
    for text in a {
        match left.iter().position(|l| *l == text) {
            Some(at) => {
                left.swap_remove(at);
            }
            None if out.len() < 5 => out.push(text.chars().take(120).collect()),
            None => {}
        }
    }
    out
}

/// A definition's code, for equality: its code tokens without indentation (a method moved
/// into a class is re-indented), and, for a rename, without its own name.
fn code_of<'t>(image: &Image<'t>, def: &Definition, without_name: bool) -> Vec<Key<'t>> {
    let mut skipped_name = !without_name;
    image.tokens[def.start..def.end]
        .iter()
        .filter(|t| t.kind != Kind::Indent && t.kind != Kind::Comment)
        .filter(|t| {
            if !skipped_name && t.is_name && t.text == def.own_name.as_bytes() {
                skipped_name = true;
                return false;
            }
            true
        })
        .map(key)
        .collect()
}

/// A definition's own code: its tokens less those of the definitions inside it.
pub(super) fn own_code<'t>(image: &Image<'t>, index: usize) -> Vec<Key<'t>> {
    let def = &image.definitions[index];
    let inner: Vec<(usize, usize)> = image
        .definitions
        .iter()
        .filter(|d| d.parent == Some(index))
        .map(|d| (d.start, d.end))
        .collect();
    (def.start..def.end)
        .filter(|i| !inner.iter().any(|&(s, e)| (s..e).contains(i)))
        .map(|i| &image.tokens[i])
        .filter(|t| t.kind != Kind::Indent && t.kind != Kind::Comment)
        .map(key)
        .collect()
}

/// The names a definition's body refers to, in order, each once.
fn names_in<'t>(image: &Image<'t>, def: &Definition) -> Vec<&'t [u8]> {
    let mut seen = HashSet::new();
    image.tokens[def.start..def.end]
        .iter()
        .filter(|t| t.is_name && t.text != def.own_name.as_bytes())
        .map(|t| t.text)
        .filter(|t| seen.insert(*t))
        .collect()
}

/// Match the definitions of both images by name (in order, for overloads), then pair what is
/// left by code (a rename), and list what changed.
fn items(old: &Image<'_>, new: &Image<'_>, lines: &Lines<'_>) -> Vec<ItemChange> {
    let mut by_name: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (i, d) in old.definitions.iter().enumerate() {
        by_name.entry((d.kind, &d.name)).or_default().push(i);
    }
    let mut matched_old = vec![false; old.definitions.len()];
    let mut out = Vec::new();
    let mut unmatched_new = Vec::new();
    for (j, n) in new.definitions.iter().enumerate() {
        let Some(i) = by_name
            .get_mut(&(n.kind, n.name.as_str()))
            .and_then(|v| (!v.is_empty()).then(|| v.remove(0)))
        else {
            unmatched_new.push(j);
            continue;
        };
        matched_old[i] = true;
        out.extend(matched(old, i, new, j, lines));
    }
    let mut unmatched_old: Vec<usize> =
        (0..old.definitions.len()).filter(|&i| !matched_old[i]).collect();
    for j in unmatched_new {
        let n = &new.definitions[j];
        let code = code_of(new, n, true);
        let twin = unmatched_old.iter().position(|&i| {
            let o = &old.definitions[i];
            o.kind == n.kind && code_of(old, o, true) == code
        });
        let mut item = item(new, j, ItemStatus::Added);
        if let Some(at) = twin {
            let i = unmatched_old.swap_remove(at);
            item.change = ItemStatus::Renamed;
            item.renamed_from = Some(old.definitions[i].name.clone());
            item.refers_to.clear();
        }
        out.push(item);
    }
    for i in unmatched_old {
        let mut item = item(old, i, ItemStatus::Removed);
        item.refers_to.clear();
        item.trivial = None;
        out.push(item);
    }
    out
}

/// A definition present before and after: changed (its own code differs), moved (its lines
/// were removed and added, its code the same), or nothing to list.
fn matched(
    old: &Image<'_>,
    i: usize,
    new: &Image<'_>,
    j: usize,
    lines: &Lines<'_>,
) -> Option<ItemChange> {
    let (o, n) = (&old.definitions[i], &new.definitions[j]);
    if own_code(old, i) != own_code(new, j) {
        let mut item = item(new, j, ItemStatus::Changed);
        // A body that returned a default value (`return std::string{};`) computed nothing.
        item.was_trivial = o.trivial.is_some() || o.returns_default;
        // A constructor whose initializer list the patch rewrites does its work there: a body
        // left empty beside it moved, it was not emptied.
        if n.initializers.is_some() && n.initializers != o.initializers {
            item.trivial = None;
        }
        item.was_refusal = o.refuses;
        let before: HashSet<&[u8]> = names_in(old, o).into_iter().collect();
        item.refers_to.retain(|name| !before.contains(name.as_bytes()));
        return Some(item);
    }
    // A method moved inside the same class is a move; one inside a class that moved whole is
    // part of that move.
    let old_parent = o.parent.map(|p| old.definitions[p].name.as_str());
    let is_own_move = old_parent == n.parent.map(|p| new.definitions[p].name.as_str())
        && o.parent.is_none_or(|p| !lines.removed.contains(&old.definitions[p].rows.0));
    // Its first line removed and added again: a body edited in place (a statement indented
    // into a loop) leaves the definition where it was. The line of its name counts as its
    // first: an annotation above it (`@Suppress(..)`, the same above its neighbours) is one a
    // diff keeps in place while the definition moves.
    let is_moved = is_own_move
        && lines.removed.contains(&o.name_row)
        && lines.added.contains(&n.name_row)
        && code_of(old, o, false) == code_of(new, n, false);
    is_moved.then(|| item(new, j, ItemStatus::Moved))
}

fn item(image: &Image<'_>, index: usize, change: ItemStatus) -> ItemChange {
    let def = &image.definitions[index];
    let refers_to = names_in(image, def)
        .into_iter()
        .take(20)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    ItemChange {
        kind: def.kind.to_owned(),
        name: def.name.clone(),
        change,
        renamed_from: None,
        line: def.rows.0 + 1,
        trivial: def.trivial.clone(),
        was_trivial: false,
        was_refusal: false,
        refers_to,
        lines: def.rows.1 - def.rows.0 + 1,
        is_declaration: def.is_declaration,
        is_test: def.is_test,
    }
}

/// Whether the code changes are exactly the moved definitions: with their tokens taken out of
/// both images, the rest is the same.
fn only_moves(old: &Image<'_>, new: &Image<'_>, items: &[ItemChange]) -> bool {
    let moved: Vec<&ItemChange> = items.iter().filter(|i| i.change == ItemStatus::Moved).collect();
    if moved.is_empty() || moved.len() != items.len() {
        return false;
    }
    let rest = |image: &Image<'_>| -> Vec<(Kind, Vec<u8>, usize)> {
        let spans: Vec<(usize, usize)> = image
            .definitions
            .iter()
            .filter(|d| moved.iter().any(|m| m.name == d.name && m.kind == d.kind))
            .map(|d| (d.start, d.end))
            .collect();
        image
            .tokens
            .iter()
            .enumerate()
            .filter(|(i, t)| {
                matches!(t.kind, Kind::Code | Kind::Structure)
                    && !spans.iter().any(|&(s, e)| (s..e).contains(i))
            })
            .map(|(_, t)| {
                let (kind, text, column) = key(t);
                (kind, text.to_vec(), column)
            })
            .collect()
    };
    rest(old) == rest(new)
}
