//! What a word the shell would expand stands for, where the script itself says so: variables it
//! set to literal values (`P=.patchgate.toml; rm $P`), brace lists (`.{patchgate,x}.toml`), and
//! the git directory (`$(git rev-parse --git-dir)`). A word with a glob left in it
//! (`.gi?/hooks`) is kept as a pattern, and asked which names it can match ([`Glob::matches`]),
//! the way the shell matches file names: `*` and `?` never match a leading dot.
//!
//! Anything else (a variable the script did not set, another command's output, `${X:-y}`) is
//! [`Expansion::Unknown`]: the guard does not guess.

use super::lex;
use std::collections::HashMap;
use std::path::Path;

/// Values a word can have, past which it is unknown (`{a,b}{c,d}...` multiplies).
const MAX_WORDS: usize = 64;
/// Directory entries a glob reads at most, past which it is unknown.
const MAX_ENTRIES: usize = 4096;

/// What a word expands to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Expansion {
    /// Its values, without globs (brace lists give several).
    Words(Vec<String>),
    /// Its values, at least one with a glob.
    Globs(Vec<Glob>),
    /// Only running the script would tell.
    Unknown,
}

/// A glob: one pattern per `/`-separated component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Glob {
    components: Vec<Vec<Item>>,
}

/// One element of a glob component.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Char(char),
    /// `*`
    Any,
    /// `?`
    One,
    /// `[...]`: negated, and the ranges (`a-z`, or `c-c` for one character).
    Class(bool, Vec<(char, char)>),
}

/// What the script has said so far that words may use.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    /// Variables set to literal values (`P=x`, `export P=x`), or to each of a list
    /// (`for f in a b; do`).
    pub vars: HashMap<String, Vec<String>>,
    /// The directory the command runs in (`$PWD`).
    pub pwd: Option<String>,
}

impl Scope {
    fn var(&self, name: &str) -> Option<Vec<String>> {
        if let Some(values) = self.vars.get(name) {
            return Some(values.clone());
        }
        match name {
            "HOME" => std::env::var("HOME").ok().map(|h| vec![h]),
            "PWD" => self.pwd.clone().map(|p| vec![p]),
            _ => None,
        }
    }
}

/// Expand `raw` (a word as written, quotes and all).
pub(super) fn expand(raw: &str, scope: &Scope) -> Expansion {
    let Some(alternatives) = braces(raw) else { return Expansion::Unknown };
    let mut words = Vec::new();
    let mut globs = Vec::new();
    for alternative in alternatives {
        let Some(values) = items(&alternative, scope) else { return Expansion::Unknown };
        for items in values {
            if items.iter().all(|i| matches!(i, Item::Char(_))) {
                words.push(
                    items.iter().map(|i| if let Item::Char(c) = i { *c } else { '?' }).collect(),
                );
            } else {
                globs.push(Glob::new(items));
            }
        }
        if words.len() + globs.len() > MAX_WORDS {
            return Expansion::Unknown;
        }
    }
    if globs.is_empty() {
        return Expansion::Words(words);
    }
    globs.extend(words.iter().map(|w: &String| Glob::new(w.chars().map(Item::Char).collect())));
    Expansion::Globs(globs)
}

impl Glob {
    fn new(items: Vec<Item>) -> Self {
        let mut components = vec![Vec::new()];
        for item in items {
            match item {
                Item::Char('/') => components.push(Vec::new()),
                item => components.last_mut().expect("never empty").push(item),
            }
        }
        Self { components }
    }

    /// The paths the glob matches in `cwd`, as the shell expands it (relative when the glob
    /// is, sorted within each directory); none past [`MAX_WORDS`] matches or [`MAX_ENTRIES`]
    /// directory entries read.
    pub fn paths(&self, cwd: &Path) -> Vec<String> {
        let is_absolute = self.components.first().is_some_and(Vec::is_empty);
        let prefix = if is_absolute { "/" } else { "" };
        let mut found = vec![String::new()];
        let mut read = 0usize;
        for component in self.components.iter().skip(usize::from(is_absolute)) {
            if component.is_empty() {
                continue;
            }
            let mut next = Vec::new();
            for head in &found {
                let Some(pattern) = literal(component) else {
                    let Ok(entries) = std::fs::read_dir(cwd.join(format!("{prefix}{head}"))) else {
                        continue;
                    };
                    let mut names = Vec::new();
                    for entry in entries.flatten() {
                        read += 1;
                        let name = entry.file_name().to_string_lossy().into_owned();
                        if matches(component, &name) {
                            names.push(name);
                        }
                    }
                    names.sort();
                    next.extend(names.iter().map(|n| join(head, n)));
                    continue;
                };
                next.push(join(head, &pattern));
            }
            if next.len() > MAX_WORDS || read > MAX_ENTRIES {
                return Vec::new();
            }
            found = next;
        }
        // Literal components were joined unread: the shell keeps what exists.
        found
            .into_iter()
            .map(|p| format!("{prefix}{p}"))
            .filter(|p| cwd.join(p).symlink_metadata().is_ok())
            .collect()
    }

    /// Whether one of the glob's components can match `name` (`.gi?` matches `.git`).
    pub fn has_component_matching(&self, name: &str) -> bool {
        self.components.iter().any(|c| matches(c, name))
    }
}

/// A component without glob items, as text.
fn literal(component: &[Item]) -> Option<String> {
    component.iter().map(|i| if let Item::Char(c) = i { Some(*c) } else { None }).collect()
}

fn join(head: &str, name: &str) -> String {
    if head.is_empty() { name.to_owned() } else { format!("{head}/{name}") }
}

/// Whether the glob component `pattern` matches the file name `name` as the shell matches it:
/// a leading dot only by a literal dot.
fn matches(pattern: &[Item], name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    if name.first() == Some(&'.') && pattern.first() != Some(&Item::Char('.')) {
        return false;
    }
    match_from(pattern, &name)
}

fn match_from(pattern: &[Item], name: &[char]) -> bool {
    let Some((first, rest)) = pattern.split_first() else { return name.is_empty() };
    match first {
        Item::Any => (0..=name.len()).any(|skip| match_from(rest, &name[skip..])),
        _ => name.split_first().is_some_and(|(c, tail)| one(first, *c) && match_from(rest, tail)),
    }
}

fn one(item: &Item, c: char) -> bool {
    match item {
        Item::Char(want) => *want == c,
        Item::One | Item::Any => true,
        Item::Class(negated, ranges) => {
            ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated
        }
    }
}

/// The brace expansion of `raw` (unquoted `{a,b}`, nested or not); `None` for a sequence
/// (`{1..9}`) or past [`MAX_WORDS`].
fn braces(raw: &str) -> Option<Vec<String>> {
    let Some((open, close, commas)) = first_brace(raw) else { return Some(vec![raw.to_owned()]) };
    if commas.is_empty() {
        if raw[open..close].contains("..") {
            return None;
        }
        // `{x}` stays as it is; expand what follows it.
        let rest = braces(&raw[close + 1..])?;
        return Some(rest.into_iter().map(|r| format!("{}{r}", &raw[..=close])).collect());
    }
    let mut cuts = vec![open];
    cuts.extend(&commas);
    cuts.push(close);
    let mut out = Vec::new();
    for pair in cuts.windows(2) {
        let candidate =
            format!("{}{}{}", &raw[..open], &raw[pair[0] + 1..pair[1]], &raw[close + 1..]);
        out.extend(braces(&candidate)?);
        if out.len() > MAX_WORDS {
            return None;
        }
    }
    Some(out)
}

/// The first unquoted `{` with its matching `}` and the commas between them at its own depth.
fn first_brace(raw: &str) -> Option<(usize, usize, Vec<usize>)> {
    let mut quote = None;
    let mut escaped = false;
    let mut open = None;
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (at, c) in raw.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (_, '\\') if quote != Some('\'') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '{') => {
                depth += 1;
                open.get_or_insert(at);
            }
            (None, '}') if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some((open?, at, commas));
                }
            }
            (None, ',') if depth == 1 => commas.push(at),
            // Inside quotes, and anything else: text.
            _ => {}
        }
    }
    None
}

/// The word's characters (literal ones as `Char`, unquoted glob syntax as glob items), with
/// quotes removed and variables and git-directory substitutions replaced, once for each value
/// of a variable with several; `None` when a part is unknown.
fn items(raw: &str, scope: &Scope) -> Option<Vec<Vec<Item>>> {
    let chars: Vec<char> = raw.chars().collect();
    let mut outs: Vec<Vec<Item>> = vec![Vec::new()];
    let mut out = Vec::new();
    let mut at = 0;
    let mut quote: Option<char> = None;
    while at < chars.len() {
        let c = chars[at];
        at += 1;
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), _) => out.push(Item::Char(c)),
            (None, '\'' | '"') => quote = Some(c),
            (_, '\\') => {
                let next = *chars.get(at)?;
                at += 1;
                if quote == Some('"') && !matches!(next, '$' | '`' | '"' | '\\') {
                    out.push(Item::Char('\\'));
                }
                out.push(Item::Char(next));
            }
            (_, '$' | '`') => {
                let (values, used) = dollar(&chars[at - 1..], scope)?;
                at += used - 1;
                if let [value] = values.as_slice() {
                    out.extend(value.chars().map(Item::Char));
                } else {
                    outs = fork(&outs, &std::mem::take(&mut out), &values)?;
                }
            }
            (None, '*') => out.push(Item::Any),
            (None, '?') => out.push(Item::One),
            (None, '[') => match class(&chars[at..]) {
                Some((item, used)) => {
                    out.push(item);
                    at += used;
                }
                None => out.push(Item::Char('[')),
            },
            _ => out.push(Item::Char(c)),
        }
    }
    quote.is_none().then_some(())?;
    Some(
        outs.into_iter()
            .map(|mut head| {
                head.extend(out.iter().cloned());
                head
            })
            .collect(),
    )
}

/// Every reading so far (`heads`, each continued by `pending`), continued by each of `values`;
/// `None` past [`MAX_WORDS`].
fn fork(heads: &[Vec<Item>], pending: &[Item], values: &[String]) -> Option<Vec<Vec<Item>>> {
    let mut out = Vec::new();
    for head in heads {
        for value in values {
            let chars = value.chars().map(Item::Char);
            out.push(head.iter().chain(pending).cloned().chain(chars).collect());
        }
    }
    (out.len() <= MAX_WORDS).then_some(out)
}

/// A `$...` or backtick expansion at the start of `chars`: its values and how many characters
/// it takes.
fn dollar(chars: &[char], scope: &Scope) -> Option<(Vec<String>, usize)> {
    let text: String = chars.iter().collect();
    if let Some(rest) = text.strip_prefix("$(").or_else(|| text.strip_prefix('`')) {
        let close = if text.starts_with('`') { '`' } else { ')' };
        let end = matching(rest, close)?;
        let used = text.len() - rest.len() + end + 1;
        return Some((vec![git_dir_of(&rest[..end])?], text[..used].chars().count()));
    }
    if let Some(rest) = text.strip_prefix("${") {
        let end = rest.find('}')?;
        let name = &rest[..end];
        is_name(name).then_some(())?;
        return Some((scope.var(name)?, name.chars().count() + 3));
    }
    let name: String =
        chars[1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').collect();
    is_name(&name).then_some(())?;
    Some((scope.var(&name)?, name.chars().count() + 1))
}

/// Where the substitution that `rest` continues ends (nested parentheses counted).
fn matching(rest: &str, close: char) -> Option<usize> {
    if close == '`' {
        return rest.find('`');
    }
    let mut depth = 1usize;
    for (at, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// What `git rev-parse --git-dir` and its kin print, when `script` is one of them: the git
/// directory (or a path inside it), which is what the word then names.
fn git_dir_of(script: &str) -> Option<String> {
    let commands = lex::lex(script);
    let [(command, _)] = commands.as_slice() else { return None };
    let words: Vec<&str> = command.words.iter().map(|w| w.text.as_str()).collect();
    let (program, args) = words.split_first()?;
    if program.rsplit('/').next() != Some("git") || !args.contains(&"rev-parse") {
        return None;
    }
    let at = args.iter().position(|a| {
        matches!(*a, "--git-dir" | "--absolute-git-dir" | "--git-common-dir" | "--git-path")
    })?;
    match (args[at], args.get(at + 1)) {
        ("--git-path", Some(rest)) => Some(format!(".git/{rest}")),
        _ => Some(".git".to_owned()),
    }
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A bracket expression after its `[`: the item and how many characters it takes, or `None`
/// when it does not close (a literal `[`).
fn class(chars: &[char]) -> Option<(Item, usize)> {
    let negated = matches!(chars.first(), Some('!' | '^'));
    let mut at = usize::from(negated);
    let mut ranges = Vec::new();
    loop {
        let c = *chars.get(at)?;
        // A `]` right after the opening (or its negation) is a member.
        if c == ']' && at > usize::from(negated) {
            return Some((Item::Class(negated, ranges), at + 1));
        }
        if chars.get(at + 1) == Some(&'-') && chars.get(at + 2).is_some_and(|e| *e != ']') {
            ranges.push((c, chars[at + 2]));
            at += 3;
        } else {
            ranges.push((c, c));
            at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(raw: &str, vars: &[(&str, &str)]) -> Expansion {
        let vars = vars.iter().map(|(k, v)| ((*k).to_owned(), vec![(*v).to_owned()])).collect();
        expand(raw, &Scope { vars, pwd: Some("/w".to_owned()) })
    }

    fn glob(raw: &str) -> Glob {
        match words(raw, &[]) {
            Expansion::Globs(mut globs) => globs.remove(0),
            other => panic!("{raw}: {other:?}"),
        }
    }

    #[test]
    fn variables_braces_and_quotes_are_read() {
        let w = |v: &[&str]| Expansion::Words(v.iter().map(|s| (*s).to_owned()).collect());
        assert_eq!(words("$P", &[("P", ".patchgate.toml")]), w(&[".patchgate.toml"]));
        assert_eq!(words("\"${D}\"/x", &[("D", "a b")]), w(&["a b/x"]));
        assert_eq!(words(".{patchgate,x}.toml", &[]), w(&[".patchgate.toml", ".x.toml"]));
        assert_eq!(words("a{b,c{d,e}}", &[]), w(&["ab", "acd", "ace"]));
        assert_eq!(words("'*'\\?", &[]), w(&["*?"]));
        assert_eq!(words("$PWD/a", &[]), w(&["/w/a"]));
        assert_eq!(words("$(git rev-parse --git-dir)/hooks", &[]), w(&[".git/hooks"]));
        assert_eq!(words("\"`git rev-parse --git-common-dir`\"/config", &[]), w(&[".git/config"]));
        assert_eq!(words("$(git rev-parse --git-path hooks)/x", &[]), w(&[".git/hooks/x"]));
        for unknown in ["$OTHER", "${P:-x}", "$(date)", "{1..3}", "'open"] {
            assert_eq!(words(unknown, &[]), Expansion::Unknown, "{unknown}");
        }
    }

    #[test]
    fn globs_match_as_the_shell_matches_names() {
        assert!(glob(".gi?/hooks/pre-commit").has_component_matching(".git"));
        assert!(glob(".[g]it/config").has_component_matching(".git"));
        assert!(glob(".g*").has_component_matching(".git"));
        assert!(glob(".*").has_component_matching(".git"));
        assert!(!glob("*").has_component_matching(".git"), "a leading dot is matched literally");
        assert!(!glob("?git").has_component_matching(".git"));
        assert!(!glob(".[!g]it").has_component_matching(".git"));
        let dir = tempfile::tempdir().unwrap();
        for name in [".patchgate.toml", "a.toml", "lefthook.yml"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join(".husky")).unwrap();
        std::fs::write(dir.path().join(".husky/pre-commit"), "").unwrap();
        assert_eq!(glob("./.patch*").paths(dir.path()), ["./.patchgate.toml"]);
        assert_eq!(glob("*.toml").paths(dir.path()), ["a.toml"]);
        assert_eq!(glob(".hus?y/*").paths(dir.path()), [".husky/pre-commit"]);
        assert_eq!(glob("*.yml").paths(dir.path()), ["lefthook.yml"]);
        assert!(glob("*.none").paths(dir.path()).is_empty());
    }
}
