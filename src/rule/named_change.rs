//! What a step names to remove or to extract, checked on the change summary: a removal removes
//! what it names (`Remove parse_legacy`), an extraction adds the helper it names with a real
//! body that something calls (`Extract parse_header from parse`). Only names written as code
//! are read (quoted, or shaped like identifiers: `parse_legacy`, `parseHeader`, `Config::load`);
//! a step in plain words (`Drop NBSP characters`) names no identifier, and nothing is checked.

use super::ask;
use crate::finding::{ChangeSummary, ItemChange, ItemStatus};
use regex::Regex;
use std::sync::LazyLock;

/// A name in a step's first line: in backticks or quotes, or a bare word with a letter first.
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"`([^`\s]{1,80})`|'([A-Za-z_][\w:.]{0,80})'|"([A-Za-z_][\w:.]{0,80})"|([A-Za-z_][\w:.#]*\w)"#)
        .expect("the name pattern is valid")
});

/// A name as the step writes it, reduced to its last component (`Config::load` -> `load`), and
/// whether it is written as code.
fn names_in(text: &str) -> Vec<(String, bool)> {
    NAME.captures_iter(text)
        .filter_map(|c| {
            let (name, is_quoted) = match (c.get(1).or(c.get(2)).or(c.get(3)), c.get(4)) {
                (Some(quoted), _) => (quoted.as_str(), true),
                (None, Some(bare)) => (bare.as_str(), false),
                (None, None) => return None,
            };
            let name = name.trim_end_matches("()").trim_end_matches(['.', ':']);
            if is_file_name(text, c.get(0).map_or(0..0, |m| m.range()), name) {
                return None;
            }
            let is_code = is_quoted || is_identifier_shaped(name);
            let last = name.rsplit(['.', ':', '#']).next().unwrap_or(name);
            let is_word = last.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && last.chars().all(|c| c.is_alphanumeric() || c == '_');
            is_word.then(|| (last.to_owned(), is_code))
        })
        .collect()
}

/// Whether a name the step writes is a file's, not an identifier's: part of a path
/// (`src/net.rs`, a `/` beside it) or a file name whose extension a grammar reads (`net.rs`,
/// `utils.py`). `Config.load` and `os.path` stay names.
fn is_file_name(text: &str, at: std::ops::Range<usize>, name: &str) -> bool {
    let beside = |i: Option<usize>| i.and_then(|i| text.as_bytes().get(i)) == Some(&b'/');
    name.contains('/')
        || beside(at.start.checked_sub(1))
        || beside(Some(at.end))
        || (name.contains('.') && crate::summary::grammar_for(name).is_some())
}

/// `parse_legacy`, `parseHeader`, `v2`, `Config::load`: not a word of prose (nor an acronym,
/// `NBSP`, `HTTP`).
fn is_identifier_shaped(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    name.contains(['_', ':'])
        || (name.contains('.') && !name.ends_with('.'))
        || name.bytes().any(|b| b.is_ascii_digit())
        || chars.windows(2).any(|w| w[0].is_lowercase() && w[1].is_uppercase())
}

// `object` and its ASCII lowercase have the same bytes' boundaries: offsets found in one
// slice the other.

/// The words that end a removal's object and start where it is removed from.
const PLACES: [&str; 5] = [" from ", " in ", " out of ", " inside ", " within "];

/// The identifiers a step whose first line starts with a removal verb names to remove, written
/// as code, before any `from X` / `in X` that says where (`Remove parse_legacy from the
/// CLI`).
pub(super) fn removal_targets(description: &str) -> Vec<String> {
    let Some((verb, object)) = ask::verb_and_object(description) else { return Vec::new() };
    if !["remov", "delet", "drop"].iter().any(|v| verb.starts_with(v)) {
        return Vec::new();
    }
    let lower = object.to_ascii_lowercase();
    let end = PLACES.iter().filter_map(|p| lower.find(p)).min().unwrap_or(object.len());
    let mut out: Vec<String> = Vec::new();
    for (name, is_code) in names_in(&object[..end]) {
        if is_code && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The one identifier a removal step's object is (`Remove parse_legacy`, `Remove the
/// parse_legacy helper from the CLI`, `Remove Multipart::Parser#dequote private method`): the
/// object before where it is removed from holds one name written as code and at most two
/// other words. A longer object (`Remove the default "completion" cmd if it is alone`, `Delete
/// unneeded field of MapDeserializer`) says what is removed in words, which names only point
/// near; it is not checked.
pub(super) fn removal_object(description: &str) -> Option<String> {
    let (verb, object) = ask::verb_and_object(description)?;
    if !["remov", "delet", "drop"].iter().any(|v| verb.starts_with(v)) {
        return None;
    }
    let lower = object.to_ascii_lowercase();
    let end = PLACES.iter().filter_map(|p| lower.find(p)).min().unwrap_or(object.len());
    let head = &object[..end];
    let is_reference = |w: &&str| w.starts_with("(#") || w.starts_with('#');
    let words = head.split_whitespace().filter(|w| !is_reference(w)).count();
    let code: Vec<String> =
        names_in(head).into_iter().filter(|(_, c)| *c).map(|(n, _)| n).collect();
    match &code[..] {
        [name] if words <= 3 => Some(name.clone()),
        _ => None,
    }
}

/// Whether a file is a program's source, where a name counts as code: not prose or data
/// (Markdown, YAML, JSON, TOML, HTML, CSS), whose words only mention a name.
pub(super) fn is_program(path: &str) -> bool {
    const DATA: [&str; 6] = ["Markdown", "YAML", "JSON", "TOML", "HTML", "CSS"];
    crate::summary::grammar_for(path).is_some_and(|g| !DATA.contains(&g.name))
}

/// One extraction a step asks for: the helper, when named, and the definition it comes from,
/// when named.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Extraction {
    pub helper: Option<String>,
    pub source: Option<String>,
}

/// `Extract parse_header from parse`, ``Extract the header parsing into a helper
/// `parse_header` ``, `Move the retry logic into a new function`: the helper and where it comes
/// from, each when written as code.
pub(super) fn extraction(description: &str) -> Option<Extraction> {
    let (verb, object) = ask::verb_and_object(description)?;
    let lower = object.to_ascii_lowercase();
    let into = [" into ", " to ", " as "]
        .iter()
        .filter_map(|w| lower.find(w).map(|at| (at, w.len())))
        .min();
    let asks_helper = |text: &str| {
        let text = text.to_ascii_lowercase();
        ["helper", "function", "method", "func"].iter().any(|w| crate::summary::has_word(&text, w))
    };
    let code = |text: &str| names_in(text).into_iter().filter(|(_, c)| *c).map(|(n, _)| n).next();
    match verb.as_str() {
        "extract" => {
            let from = [" from ", " out of "]
                .iter()
                .filter_map(|w| lower.find(w).map(|at| (at, w.len())))
                .min();
            let head_end = [from.map(|f| f.0), into.map(|i| i.0)].into_iter().flatten().min();
            let head = &object[..head_end.unwrap_or(object.len())];
            let source = from.and_then(|(at, len)| {
                let rest = &object[at + len..];
                let rest_end = lower[at + len..].find(" into ").map_or(rest.len(), |i| i);
                code(&rest[..rest_end])
            });
            let target = into.map(|(at, len)| &object[at + len..]);
            let helper = target.and_then(code).or_else(|| code(head));
            Some(Extraction { helper, source })
        }
        "move" => {
            let (at, len) = into?;
            let target = &object[at + len..];
            asks_helper(target).then(|| Extraction { helper: code(target), source: None })
        }
        _ => None,
    }
}

/// What the check found wrong.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Missing {
    pub message: String,
    /// Whether it rests on files read on their syntax trees.
    pub is_by_syntax: bool,
}

/// A removal the patch does not carry out: every name the step removes is held by a touched
/// file, and no touched file holds it less often after the patch (the patch removed something
/// else). Read from the summary's name counts ([`crate::summary::Wants::names`]).
pub(super) fn removal_missing(summary: &ChangeSummary, targets: &[String]) -> Option<Missing> {
    for target in targets {
        let counts: Vec<_> = summary
            .files
            .iter()
            .filter(|f| is_program(&f.path))
            .filter_map(|f| f.names.iter().find(|n| &n.name == target).map(|n| (f, n)))
            .filter(|(_, n)| n.before > 0)
            .collect();
        if counts.is_empty() || counts.iter().any(|(_, n)| n.after < n.before) {
            continue;
        }
        let places: Vec<String> = counts
            .iter()
            .map(|(f, n)| format!("{} ({} before, {} after)", f.path, n.before, n.after))
            .collect();
        return Some(Missing {
            message: format!(
                "the step removes '{target}', but the patch leaves every use of it in place: {}",
                super::input::short_list(&places)
            ),
            is_by_syntax: counts.iter().all(|(f, _)| f.language.is_some()),
        });
    }
    None
}

/// An extraction the patch does not carry out, read on syntax trees: the helper is not added
/// as a function or method, or is added with a trivial body, or nothing calls it and the
/// definition it comes from is left as it was. Without a helper's name, some function or
/// method must be added with a real body.
pub(super) fn extraction_missing(summary: &ChangeSummary, asked: &Extraction) -> Option<Missing> {
    let read: Vec<_> = summary.files.iter().filter(|f| f.language.is_some()).collect();
    if read.is_empty() || read.len() != summary.files.len() {
        return None; // a file read by its lines may hold the helper
    }
    let is_callable = |i: &&ItemChange| matches!(i.kind.as_str(), "function" | "method");
    let last = |name: &str| name.rsplit(['.', ':']).next().unwrap_or(name).to_owned();
    let added: Vec<&ItemChange> = read
        .iter()
        .flat_map(|f| &f.items)
        .filter(is_callable)
        .filter(|i| i.change == ItemStatus::Added)
        .filter(|i| asked.helper.as_ref().is_none_or(|h| &last(&i.name) == h))
        .collect();
    let helper = asked.helper.as_deref().map_or("a helper".to_owned(), |h| format!("'{h}'"));
    let message = |why: &str| Missing {
        message: format!("the step extracts {helper}, but {why}"),
        is_by_syntax: true,
    };
    if added.is_empty() {
        return Some(message("the patch adds no such function or method"));
    }
    if added.iter().all(|i| i.trivial.is_some()) {
        return Some(message("it is added with a trivial body"));
    }
    let Some(name) = &asked.helper else { return None };
    let calls: usize = read
        .iter()
        .flat_map(|f| &f.names)
        .filter(|n| &n.name == name)
        .map(|n| n.after.saturating_sub(n.before))
        .sum();
    // The code it comes from lost lines: the source named, else any definition but the helper.
    let source_changed = read.iter().flat_map(|f| &f.items).any(|i| {
        let is_source =
            asked.source.as_ref().map_or(&last(&i.name) != name, |s| &last(&i.name) == s);
        is_source && matches!(i.change, ItemStatus::Changed | ItemStatus::Removed)
    });
    (calls <= added.len() && !source_changed)
        .then(|| message("nothing calls it and the code it comes from is unchanged"))
}

#[cfg(test)]
mod tests {
    use super::{Extraction, extraction, removal_object, removal_targets};

    #[test]
    fn a_removal_names_what_it_removes_as_code() {
        assert_eq!(removal_targets("Remove parse_legacy from the CLI"), ["parse_legacy"]);
        assert_eq!(removal_targets("fix: drop `Config::reload`"), ["reload"]);
        assert_eq!(removal_targets("Removed the unused parseHeader helper"), ["parseHeader"]);
        // The twins: plain words, a place the removal is made, and another verb.
        assert!(removal_targets("Drop NBSP characters").is_empty());
        assert!(removal_targets("Remove dead code from parse_args").is_empty());
        assert!(removal_targets("Add parse_legacy").is_empty());
        // A file is no identifier, as a path or as a file name a grammar reads.
        assert!(removal_targets("Remove src/net.rs").is_empty());
        assert!(removal_targets("Delete `legacy/net.rs`").is_empty());
        assert!(removal_targets("Drop utils.py").is_empty());
        assert_eq!(removal_targets("Remove Multipart::Parser#dequote"), ["dequote"]);
        assert_eq!(removal_targets("Remove Config.load"), ["load"]);
    }

    #[test]
    fn a_removal_is_checked_only_when_its_object_is_one_name() {
        let object = |d: &str| removal_object(d);
        assert_eq!(object("Remove parse_legacy"), Some("parse_legacy".into()));
        assert_eq!(object("Remove parse_legacy from the CLI (#12)"), Some("parse_legacy".into()));
        assert_eq!(object("Remove the parse_legacy helper"), Some("parse_legacy".into()));
        assert_eq!(
            object("Remove Multipart::Parser#dequote private method"),
            Some("dequote".into())
        );
        // The twins: an object said in words, which names only point near.
        assert_eq!(object("Remove the default \"completion\" cmd if it is alone"), None);
        assert_eq!(object("Delete unneeded field of MapDeserializer"), None);
        assert_eq!(
            object("Remove multiple calls to free when successively calling jq_reset."),
            None
        );
        assert_eq!(object("Remove dead code - serialize_struct_as_map always called"), None);
        assert_eq!(object("Add parse_legacy"), None);
    }

    #[test]
    fn an_extraction_names_its_helper_and_source() {
        let named = |h: &str, s: Option<&str>| Extraction {
            helper: Some(h.to_owned()),
            source: s.map(str::to_owned),
        };
        assert_eq!(
            extraction("Extract parse_header from parse_request"),
            Some(named("parse_header", Some("parse_request")))
        );
        assert_eq!(
            extraction("Extract the header parsing from `parse` into `read_header`"),
            Some(named("read_header", Some("parse")))
        );
        assert_eq!(
            extraction("Move the retry logic into a new helper `retry_once`"),
            Some(named("retry_once", None))
        );
        assert_eq!(
            extraction("Move the retry logic into a helper"),
            Some(Extraction { helper: None, source: None })
        );
        // A file the step names is where the code is, not the helper.
        assert_eq!(
            extraction("Extract the retry loop of fetch in src/net.rs into a helper function"),
            Some(Extraction { helper: None, source: None })
        );
        // The twins: a move that is no extraction, and another verb.
        assert_eq!(extraction("Move the retry logic into client.py"), None);
        assert_eq!(extraction("Fix parse_header"), None);
    }
}
