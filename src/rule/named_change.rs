//! What a step names to remove or to extract, checked on the change summary: a removal removes
//! what it names (`Remove parse_legacy`), an extraction adds the helper it names with a real
//! body that something calls (`Extract parse_header from parse`). Only names written as code
//! are read (quoted, or shaped like identifiers: `parse_legacy`, `parseHeader`, `Config::load`);
//! a step in plain words (`Drop NBSP characters`) names no identifier, and nothing is checked.

use super::ask;
use crate::finding::{ChangeSummary, FileSummary, ItemChange, ItemStatus, NameCount};
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
    if !is_removal_verb(&verb) {
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

/// Whether the step's leading word is a verb of removal (`Remove`, `deleted`, `Drops`): a word
/// of letters. A word joined to a name (`delete#mustExist`, `remove_entry`, `drop.rs`) is code
/// the step names, not what it asks.
fn is_removal_verb(verb: &str) -> bool {
    verb.chars().all(char::is_alphabetic)
        && ["remov", "delet", "drop"].iter().any(|v| verb.starts_with(v))
}

/// What a removal step names to remove.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Removal {
    /// The name, its last component (`Config::load` -> `load`).
    pub name: String,
    /// Whether the step writes it as code (quoted, or shaped like an identifier); a bare word
    /// (`Remove Clock`) is a name only where a touched file defines it.
    pub is_code: bool,
    /// Whether the object is the name alone, with at most an article and the kind of
    /// definition it is (`Remove the parse_legacy helper`): the step removes the definition.
    /// Otherwise (`Remove parse_legacy calls`) it removes something about the name.
    pub is_whole: bool,
}

/// Words an object may hold besides the name it removes and still name that definition alone:
/// articles and the kinds of definition.
const DEFINITION_WORDS: [&str; 17] = [
    "the",
    "a",
    "an",
    "function",
    "functions",
    "method",
    "methods",
    "class",
    "type",
    "struct",
    "enum",
    "trait",
    "interface",
    "macro",
    "helper",
    "constant",
    "fn",
];

/// The one identifier a removal step's object is (`Remove parse_legacy`, `Remove the
/// parse_legacy helper from the CLI`, `Remove Multipart::Parser#dequote private method`): the
/// object before where it is removed from holds one name written as code and at most two
/// other words, or is one bare word with at most an article and a kind of definition (`Remove
/// Clock`, `Remove the SSLContext class`). A longer object (`Remove the default "completion" cmd
/// if it is alone`, `Delete unneeded field of MapDeserializer`) says what is removed in words,
/// which names only point near; it is not checked.
pub(super) fn removal_object(description: &str) -> Option<Removal> {
    let (verb, object) = ask::verb_and_object(description)?;
    if !is_removal_verb(&verb) {
        return None;
    }
    let lower = object.to_ascii_lowercase();
    let end = PLACES.iter().filter_map(|p| lower.find(p)).min().unwrap_or(object.len());
    let head = object[..end].trim_end_matches(['.', ':', ';', ',']);
    let is_reference = |w: &&str| w.starts_with("(#") || w.starts_with('#');
    let words: Vec<&str> = head.split_whitespace().filter(|w| !is_reference(w)).collect();
    let is_definition_word = |w: &&str| DEFINITION_WORDS.contains(&w.to_ascii_lowercase().as_str());
    let others = words.iter().filter(|w| !is_definition_word(w)).count();
    let names = names_in(head);
    let code: Vec<&String> = names.iter().filter(|(_, c)| *c).map(|(n, _)| n).collect();
    match &code[..] {
        [name] if words.len() <= 3 => {
            Some(Removal { name: (*name).clone(), is_code: true, is_whole: others == 1 })
        }
        // Removed from a definition the step names as code (`Remove options from
        // `Builder#parse_file``), a bare word is a part of it (a parameter, an option).
        [] if names_in(&object[end..]).iter().any(|(_, is_code)| *is_code) => None,
        [] => one_word(head).map(|name| Removal { name, is_code: false, is_whole: true }),
        _ => None,
    }
}

/// The one word `text` is, with at most an article and a kind of definition (`PERCENT`, `the
/// Clock class`); a file's name or a longer phrase is none.
fn one_word(text: &str) -> Option<String> {
    let text = text.trim().trim_end_matches(['.', ':', ';', ',']);
    let is_reference = |w: &&str| w.starts_with("(#") || w.starts_with('#');
    let is_definition_word = |w: &&str| DEFINITION_WORDS.contains(&w.to_ascii_lowercase().as_str());
    let mut words = text.split_whitespace().filter(|w| !is_reference(w) && !is_definition_word(w));
    let (word, None) = (words.next()?, words.next()) else { return None };
    let word = word.trim_matches(['`', '\'', '"']).trim_end_matches("()");
    let is_word = word.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_alphanumeric() || c == '_');
    is_word.then(|| word.to_owned())
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
    /// The helper and the source written as one bare word (`Extract PERCENT from encode`): a
    /// name where a touched file defines it (the helper after the patch, the source before).
    pub words: (Option<String>, Option<String>),
    /// Whether the step calls what it extracts a function (`helper`, `function`, `method`):
    /// one that neither names it nor says so (`Extract constants into a module`, `Extract the
    /// Sink interface`) may extract a class, a constant or a file.
    pub is_callable: bool,
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
            let source_text = from.map(|(at, len)| {
                let rest_end =
                    lower[at + len..].find(" into ").map_or(object.len(), |i| at + len + i);
                &object[at + len..rest_end]
            });
            let words = (
                helper.is_none().then(|| one_word(target.unwrap_or(head))).flatten(),
                source.is_none().then(|| source_text.and_then(one_word)).flatten(),
            );
            Some(Extraction { helper, source, words, is_callable: asks_helper(object) })
        }
        "move" => {
            let (at, len) = into?;
            let target = &object[at + len..];
            asks_helper(target).then(|| Extraction {
                helper: code(target),
                source: None,
                words: (None, None),
                is_callable: true,
            })
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

/// A removal the patch does not carry out. When a touched file read on its syntax tree defines
/// the name (a function, method, class, type), the step is met when one of its definitions is
/// gone, and not otherwise: emptying its body, or removing another definition that uses it, is
/// no removal. A name no touched file defines (a field, a flag), or an object that says more
/// than the name (`Remove parse_legacy calls`), is met when a touched file holds it less often
/// after the patch; a bare word no touched file defines is prose, and nothing is checked.
pub(super) fn removal_missing(summary: &ChangeSummary, asked: &Removal) -> Option<Missing> {
    let target = &asked.name;
    let counts: Vec<(&FileSummary, &NameCount)> = summary
        .files
        .iter()
        .filter(|f| is_program(&f.path))
        .filter_map(|f| f.names.iter().find(|n| &n.name == target).map(|n| (f, n)))
        .collect();
    let defining: Vec<_> = counts.iter().filter(|(_, n)| n.defined_before > 0).collect();
    if !defining.is_empty() {
        if counts.iter().any(|(_, n)| n.defined_after < n.defined_before) {
            return None;
        }
        if asked.is_whole {
            let places: Vec<String> = defining
                .iter()
                .map(|(f, n)| {
                    format!("{} ({} before, {} after)", f.path, n.defined_before, n.defined_after)
                })
                .collect();
            return Some(Missing {
                message: format!(
                    "the step removes '{target}', but the patch keeps its definition: {}",
                    super::input::short_list(&places)
                ),
                is_by_syntax: true,
            });
        }
    }
    if !asked.is_code {
        return None;
    }
    let used: Vec<_> = counts.iter().filter(|(_, n)| n.before > 0).collect();
    if used.is_empty() || used.iter().any(|(_, n)| n.after < n.before) {
        return None;
    }
    let places: Vec<String> = used
        .iter()
        .map(|(f, n)| format!("{} ({} before, {} after)", f.path, n.before, n.after))
        .collect();
    Some(Missing {
        message: format!(
            "the step removes '{target}', but the patch leaves every use of it in place: {}",
            super::input::short_list(&places)
        ),
        is_by_syntax: used.iter().all(|(f, _)| f.language.is_some()),
    })
}

/// An extraction the patch does not carry out, read on syntax trees: the helper is not added
/// as a function or method, or is added with a trivial body; or, named, nothing outside it
/// uses it (a recursive call is no caller) and the definition it comes from is left as it was;
/// or the step names that definition, a touched file defines it, and it is left as it was or
/// nothing calls the helper. Without a helper's name, some function or method must be added
/// with a real body, when the step says it extracts one (a helper, a function, a method):
/// otherwise what it extracts may be no function at all, and a patch that adds none is no
/// evidence. A helper not found is looked for in files read by their lines too: when the
/// patch changes one, it may be there, and nothing is said.
pub(super) fn extraction_missing(summary: &ChangeSummary, asked: &Extraction) -> Option<Missing> {
    let read: Vec<&FileSummary> = summary.files.iter().filter(|f| f.language.is_some()).collect();
    if read.is_empty() {
        return None;
    }
    let count_of = |f: &FileSummary, n: &str| f.names.iter().find(|c| c.name == n).cloned();
    // A bare word names the helper when the patch leaves a definition of it.
    let word = asked
        .words
        .0
        .as_ref()
        .filter(|w| read.iter().filter_map(|f| count_of(f, w)).any(|n| n.defined_after > 0));
    let asked_helper = asked.helper.as_ref().or(word);
    let is_callable =
        |i: &&ItemChange| matches!(i.kind.as_str(), "function" | "method") && !i.is_declaration;
    let last = |name: &str| name.rsplit(['.', ':', '#']).next().unwrap_or(name).to_owned();
    let added: Vec<&ItemChange> = read
        .iter()
        .flat_map(|f| &f.items)
        .filter(is_callable)
        .filter(|i| i.change == ItemStatus::Added)
        .filter(|i| asked_helper.is_none_or(|h| &last(&i.name) == h))
        .collect();
    let helper = asked_helper.map_or("a helper".to_owned(), |h| format!("'{h}'"));
    let message = |why: &str| Missing {
        message: format!("the step extracts {helper}, but {why}"),
        is_by_syntax: true,
    };
    if added.is_empty() {
        // A file read by its lines may hold the helper; an extraction that names no helper
        // and calls it no function may be of a class, a constant, a file.
        let is_function = asked_helper.is_some() || asked.is_callable;
        return (read.len() == summary.files.len() && is_function)
            .then(|| message("the patch adds no such function or method"));
    }
    if added.iter().all(|i| i.trivial.is_some()) {
        return Some(message("it is added with a trivial body"));
    }
    let name = asked_helper?;
    let source = asked.source.as_deref().or(asked.words.1.as_deref());
    unused(summary, &read, name, source).map(|why| message(&why))
}

/// Why the helper `name`, added with a real body, is no extraction, if it is none: nothing
/// outside it uses it (its recursive calls are inside), or the definition it comes from, named
/// and defined in a file read on its syntax tree, is left as it was. Without such a source, a
/// helper nothing uses is an extraction still when some other definition changed (the code it
/// comes from, unnamed).
fn unused(
    summary: &ChangeSummary,
    read: &[&FileSummary],
    name: &str,
    source: Option<&str>,
) -> Option<String> {
    let count_of = |f: &FileSummary, n: &str| f.names.iter().find(|c| c.name == n).cloned();
    let is_called = summary
        .files
        .iter()
        .filter_map(|f| count_of(f, name))
        .any(|n| n.outside_after > n.outside_before);
    let last = |name: &str| name.rsplit(['.', ':', '#']).next().unwrap_or(name).to_owned();
    let is_changed = |i: &&ItemChange, source: Option<&str>| {
        source.is_none_or(|s| i.name.split(['.', ':', '#']).any(|part| part == s))
            && last(&i.name) != name
            && matches!(i.change, ItemStatus::Changed | ItemStatus::Removed)
    };
    let items = || read.iter().flat_map(|f| &f.items);
    let defined =
        source.filter(|s| read.iter().filter_map(|f| count_of(f, s)).any(|n| n.defined_before > 0));
    if let Some(source) = defined {
        return match (items().any(|i| is_changed(&i, Some(source))), is_called) {
            (true, true) => None,
            (false, _) => Some(format!("'{source}', the code it comes from, is unchanged")),
            (true, false) => Some("nothing outside it calls it".to_owned()),
        };
    }
    (!is_called && !items().any(|i| is_changed(&i, None)))
        .then(|| "nothing calls it and the code it comes from is unchanged".to_owned())
}

#[cfg(test)]
mod tests {
    use super::{Extraction, Removal, extraction, removal_object, removal_targets};

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
        let object = |d: &str| removal_object(d).map(|r| r.name);
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
    fn a_removal_of_the_name_alone_removes_its_definition() {
        let removal = |name: &str, is_code, is_whole| {
            Some(Removal { name: name.to_owned(), is_code, is_whole })
        };
        assert_eq!(removal_object("Remove parse_legacy"), removal("parse_legacy", true, true));
        assert_eq!(
            removal_object("Remove the parse_legacy helper from the CLI"),
            removal("parse_legacy", true, true)
        );
        // A bare word is a name where a touched file defines it.
        assert_eq!(removal_object("Remove Clock"), removal("Clock", false, true));
        assert_eq!(
            removal_object("Remove the SSLContext class."),
            removal("SSLContext", false, true)
        );
        // The twins: more than the name (its calls, an adjective), and bare words of prose.
        assert_eq!(
            removal_object("Remove parse_legacy calls"),
            removal("parse_legacy", true, false)
        );
        assert_eq!(
            removal_object("Remove unused parse_legacy"),
            removal("parse_legacy", true, false)
        );
        assert_eq!(removal_object("Remove dead code"), None);
        assert_eq!(removal_object("Remove Clock from src/time.rs"), removal("Clock", false, true));
        assert_eq!(removal_object("Remove options from `Builder#parse_file`."), None);
        assert_eq!(removal_object("Drop NBSP characters"), None);
    }

    #[test]
    fn a_member_reference_first_is_no_verb_of_removal() {
        // `delete#mustExist` names the parameter `mustExist` of `delete`: nothing is removed.
        assert_eq!(removal_object("delete#mustExist createDirectory#mustCreate"), None);
        assert!(removal_targets("delete#mustExist createDirectory#mustCreate").is_empty());
        assert_eq!(removal_object("remove_entry: keep the lock"), None);
        // The twin: the verb standing alone still removes what follows it.
        assert_eq!(
            removal_object("delete mustExist from createDirectory").map(|r| r.name),
            Some("mustExist".into())
        );
    }

    #[test]
    fn an_extraction_names_its_helper_and_source() {
        let named = |h: &str, s: Option<&str>, is_callable| Extraction {
            helper: Some(h.to_owned()),
            source: s.map(str::to_owned),
            words: (None, None),
            is_callable,
        };
        let unnamed =
            Some(Extraction { helper: None, source: None, words: (None, None), is_callable: true });
        assert_eq!(
            extraction("Extract parse_header from parse_request"),
            Some(named("parse_header", Some("parse_request"), false))
        );
        assert_eq!(
            extraction("Extract the header parsing from `parse` into `read_header`"),
            Some(named("read_header", Some("parse"), false))
        );
        assert_eq!(
            extraction("Move the retry logic into a new helper `retry_once`"),
            Some(named("retry_once", None, true))
        );
        assert_eq!(extraction("Move the retry logic into a helper"), unnamed);
        // A file the step names is where the code is, not the helper.
        assert_eq!(
            extraction("Extract the retry loop of fetch in src/net.rs into a helper function"),
            unnamed
        );
        // A bare word is kept apart: a name only where a touched file defines it.
        assert_eq!(
            extraction("Extract PERCENT from parse"),
            Some(Extraction {
                helper: None,
                source: None,
                words: (Some("PERCENT".into()), Some("parse".into())),
                is_callable: false,
            })
        );
        // The twins: a move that is no extraction, and another verb.
        assert_eq!(extraction("Move the retry logic into client.py"), None);
        assert_eq!(extraction("Fix parse_header"), None);
    }
}
