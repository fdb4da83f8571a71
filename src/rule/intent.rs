//! What a step description says concretely enough to check without a model: the files it names
//! and the renames it asks for. Everything else is the judge's business.

use super::path_token;
use super::pattern::Pattern;
use super::testfile;
use crate::path;
use crate::summary::Base;
use regex::Regex;
use std::sync::LazyLock;

/// "rename foo to bar", "Rename the function foo to bar" (names may be quoted with backticks
/// or quotes), "renaming 'a' into 'b'".
static RENAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\brenam(?:e|es|ing)\s+((?:[`'"]?\w+[`'"]?\s+){0,2}?)[`'"]?([A-Za-z_][\w:.]*?)[`'"]?\s+(?:to|into|as)\s+[`'"]?([A-Za-z_][\w:.]*?)[`'"]?(?:[\s,;)]|[.:](?:\s|$)|$)"#)
        .expect("the rename pattern is a valid regex")
});

/// A quoted span (backticks or double quotes) that may hold a path with spaces.
static QUOTED: Pattern =
    Pattern::new(r#"`([^`\n]{1,200})`|"([^"\n]{1,200})""#).with_words(&["`", "\""]);

/// One requested rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rename {
    /// The name to go away.
    pub from: String,
    /// The name to appear.
    pub to: String,
    /// Whether the description writes the names as code: quoted, or shaped like identifiers
    /// (`load_cfg`, `parseURL`, `Config::new`) rather than plain words.
    pub is_code: bool,
    /// The words between `rename` and `from`, nearest first: in "Rename the `FORK_OPT` opcode
    /// to `TRY_BEGIN`" the name is `FORK_OPT` and `opcode` says what it is, which only the patch
    /// can tell ([`Rename::read_on`]).
    pub before: Vec<String>,
    /// Whether the rename is asked in the description's first paragraph, which states the
    /// step; one in a later paragraph (a squashed pull request's list of its commits: "rename
    /// `log_file` param to `wsgi_errors`") is background, and may have happened in that history.
    pub is_asked: bool,
    /// Whether the step describes the old name rather than naming it ("rename example jq
    /// utility to total" for `sum`): the patch, not the step, shows which word goes away
    /// ([`Rename::read_on`]).
    pub is_described: bool,
}

impl Rename {
    /// The old name as the patch shows it: of `from` and the words before it, the one a
    /// changed line replaces by `to` (`replaces`); else, when the step writes plain words (not
    /// code) and the changed lines replace one other word by `to` (`replaced_by`), that word,
    /// the step only describing it; else the
    /// first of them a removed line holds (`is_removed`), else `from`. "Rename main func to
    /// initConfig" renames `main`; "rename example jq utility to total" renames what the patch
    /// replaces by `total`.
    pub fn read_on(
        &self,
        replaces: impl Fn(&str, &str) -> bool,
        replaced_by: impl Fn(&str) -> Option<String>,
        is_removed: impl Fn(&str) -> bool,
    ) -> Self {
        let mut names = std::iter::once(&self.from).chain(&self.before);
        let read = |from: &str, is_described| Self {
            from: from.to_owned(),
            before: Vec::new(),
            is_described,
            ..self.clone()
        };
        if let Some(found) = names.clone().find(|n| replaces(n, &self.to)) {
            return read(found, false);
        }
        // Names written as code are the names; plain words may only describe it.
        let described = replaced_by(&self.to).filter(|w| !names.clone().any(|n| n == w));
        if let Some(other) = described.filter(|_| !self.is_code) {
            return read(&other, true);
        }
        read(names.find(|n| is_removed(n)).unwrap_or(&self.from), false)
    }
}

/// Words the rename pattern can catch that are never the names renamed ("rename unit struct
/// to a generic name").
const NOT_NAMES: [&str; 8] = ["a", "an", "the", "it", "them", "this", "that", "its"];

/// The renames the description asks for (`Rename foo to bar`), identifiers only.
pub(super) fn renames(description: &str) -> Vec<Rename> {
    // Most descriptions rename nothing: skip building the pattern. On ASCII text a match needs
    // `renam` in some case; other text goes to the pattern (Unicode case folding).
    let is_ascii_without = |word: &[u8]| {
        description.is_ascii()
            && !description.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word))
    };
    if is_ascii_without(b"renam") {
        return Vec::new();
    }
    // Where the first paragraph ends, in `description`'s bytes.
    let asked_end =
        description.len() - description.trim_start().len() + first_paragraph(description).len();
    RENAME
        .captures_iter(description)
        .filter_map(|c| {
            let (from, to) = (c.get(2)?, c.get(3)?);
            let is_quoted = description[..from.start()].ends_with(['`', '\'', '"']);
            let before: Vec<String> = c
                .get(1)
                .map_or("", |m| m.as_str())
                .split_whitespace()
                .rev()
                .map(|w| w.trim_matches(['`', '\'', '"']).to_owned())
                .filter(|w| !NOT_NAMES.contains(&w.to_lowercase().as_str()))
                .collect();
            let (from, to) = (from.as_str(), to.as_str());
            let is_code = is_quoted || is_identifier_shaped(from) || is_identifier_shaped(to);
            let last = |s: &str| {
                let s = s.trim_end_matches([':', '.']);
                s.rsplit([':', '.']).next().unwrap_or(s).to_owned()
            };
            let (from, to) = (last(from), last(to));
            let is_name = |s: &str| !s.is_empty() && !NOT_NAMES.contains(&s);
            let is_asked = c.get(0).is_some_and(|m| m.start() < asked_end);
            (is_name(&from) && is_name(&to) && from != to).then_some(Rename {
                from,
                to,
                is_code,
                before,
                is_asked,
                is_described: false,
            })
        })
        .collect()
}

/// `load_cfg`, `parseURL`, `v2`, `Config::new`: not a word of prose.
fn is_identifier_shaped(name: &str) -> bool {
    name.contains(['_', ':', '.'])
        || name.bytes().any(|b| b.is_ascii_digit())
        || name.chars().skip(1).any(char::is_uppercase)
}

/// Tokens of the description that may name a repository path (`src/a.rs`, `walk.rs`,
/// `ignore/walk`, a quoted `dir with space/file.txt`), normalised, in order of appearance.
/// Most are prose; [`resolve`] and [`is_covered`] decide.
pub(super) fn path_candidates(description: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if !description.contains(['/', '.']) {
        return out; // every candidate holds one (skips building the patterns)
    }
    let mut push = |token: &str| {
        let token = token.trim_end_matches(['.', '/', ',', ':', ';']);
        let token = token.strip_prefix("./").unwrap_or(token);
        if let Ok(p) = path::check(token)
            && p.as_str().contains(['/', '.'])
            && !out.iter().any(|o| o == p.as_str())
        {
            out.push(p.as_str().to_owned());
        }
    };
    // A commit-style scope (`storage/index: add a bloom filter`) names the area of the change,
    // not a file it must touch.
    let scope = scope_end(description).unwrap_or(0);
    let mut spans = Vec::new(); // the scope, and quoted paths with spaces: their words are not paths
    spans.push(0..scope);
    for range in QUOTED.ranges(description, &[1, 2]) {
        if range.start < scope {
            continue;
        }
        let quoted = &description[range.clone()];
        if quoted.contains(' ') && quoted.contains(['/', '.']) {
            push(quoted);
            spans.push(range);
        }
    }
    for range in path_token::ranges(description) {
        if spans.iter().any(|s| s.contains(&range.start)) {
            continue;
        }
        // A dotfile's name keeps its dot (`.lefthook.yml`, `.github/workflows`): the token
        // pattern starts at a word character.
        let is_dotted = before_dot(&description[..range.start]);
        let range = if is_dotted { range.start - 1..range.end } else { range };
        let (before, token) = (&description[..range.start], &description[range]);
        // `https://x`, `/advanced/clients/#anchor` (a URL path), `#12`, `@types/node`.
        let is_url = before.ends_with("://")
            || token.starts_with("www.")
            || (before.ends_with('/') && !before.ends_with("./"))
            || before.ends_with(['#', '@']);
        let is_flag = before.ends_with('-'); // `--no-verify`, `-j/--jobs`
        if !is_url && !is_flag {
            push(token);
        }
    }
    out
}

/// Whether `before` ends with a `.` that starts a name: after a space, a quote, a bracket or a
/// `/`, or at the start (not `a.b`, `...`).
fn before_dot(before: &str) -> bool {
    before.strip_suffix('.').is_some_and(|rest| {
        rest.chars().next_back().is_none_or(|c| c.is_whitespace() || "`'\"([/".contains(c))
    })
}

/// Where a commit-style scope opening the description ends (the byte of its `:`): `area:`,
/// `area/sub:`, `fix(scope):`, `feat(a, b)!:`, `cli, docs:`, each followed by a space. The
/// prefix must be one word or a list of them (`Fix the bug: ...` is prose).
fn scope_end(description: &str) -> Option<usize> {
    let start = description.len() - description.trim_start().len();
    let line = description[start..].lines().next()?;
    let colon = line.find(':')?;
    if !line[colon + 1..].chars().next().is_none_or(char::is_whitespace) {
        return None; // `http://x`, `a:b`
    }
    let head = &line[..colon];
    let head = head.strip_suffix('!').unwrap_or(head);
    let (kind, scope) = match head.strip_suffix(')').and_then(|h| h.split_once('(')) {
        Some((kind, scope)) => (kind, Some(scope)),
        None => (head, None),
    };
    let is_word = |part: &str| {
        let part = part.trim();
        !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || "._-/*".contains(c))
    };
    let is_area = |s: &str| s.split(',').all(is_word);
    (is_area(kind) && scope.is_none_or(is_area)).then_some(start + colon)
}

/// Whether `name` looks like a file even without a repository to look it up in: its last
/// component has an extension (`src/a.rs`, `README.md`). `I/O`,
/// `HTTP/2` and `actions/checkout` do not; `Node.js` still does, which is why a name that
/// cannot be resolved is only a weak finding.
pub(super) fn is_file_shaped(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    file.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=8).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && ext.bytes().any(|b| b.is_ascii_lowercase())
    })
}

/// Whether the patch's `touched` paths cover `named`: the path itself, a file below it, or a
/// file it names by basename (`walk.rs`) or by a `dir/stem` suffix (`ignore/walk`).
/// A test file of the named one counts too (`cobra_test.go`, `tests/test_auth.py` for
/// `httpx/_auth.py`): "add tests for cobra.go" is carried out in the test file.
pub(super) fn is_covered(named: &str, touched: &[&str]) -> bool {
    touched.iter().any(|t| names(named, t) || tests_of(t, named))
}

/// Whether `test` is a test file of `named` by its name.
fn tests_of(test: &str, named: &str) -> bool {
    let file = |p: &'_ str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let (test, named) = (file(test), file(named));
    let stem = named.split('.').next().unwrap_or(&named).trim_start_matches('_');
    testfile::stem_under_test(&test).is_some_and(|s| s.trim_start_matches('_') == stem)
}

/// The first paragraph of `description` (up to its first blank line): what the step asks for.
/// Later paragraphs give background, and the files they name are context.
pub(super) fn first_paragraph(description: &str) -> &str {
    let text = description.trim_start();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() {
            break;
        }
        at += line.len();
    }
    &text[..at]
}

/// The one base-tree path `named` stands for: itself (file or directory), else the only file
/// it names by basename or `dir/stem` suffix. Ambiguous or unknown names are prose: `None`.
pub(super) fn resolve(named: &str, index: &dyn Base) -> Option<String> {
    if index.contains(named) {
        return Some(named.to_owned());
    }
    let mut found = index.files().iter().filter(|f| names(named, f));
    let first = found.next()?;
    found.next().is_none().then(|| first.clone())
}

/// Whether `named` resolved to `found` by its last components as written (`walk.rs`,
/// `src/walk`), leaving out at most the one folder that holds the file (`ignore/walk` for
/// `crates/ignore/src/walk.rs`), rather than several directories between them (`rack/handler`
/// for `lib/rack/auth/abstract/handler.rb`): a guess at best, often a module, a require path or
/// a directory named in prose.
pub(super) fn is_close(named: &str, found: &str) -> bool {
    if found.starts_with(&format!("{named}/")) {
        return true;
    }
    let (dirs, file) = found.rsplit_once('/').unwrap_or(("", found));
    let stem = file.rfind('.').filter(|&dot| dot > 0).map_or(file, |dot| &file[..dot]);
    let holder_left_out = dirs.rsplit_once('/').map_or("", |(above, _)| above);
    [dirs, holder_left_out].iter().any(|dirs| {
        [file, stem].iter().any(|file| {
            let path = if dirs.is_empty() { (*file).to_owned() } else { format!("{dirs}/{file}") };
            path == named || path.ends_with(&format!("/{named}"))
        })
    })
}

/// Whether a changed line of `patch` names `named` as a word of its own (`"package-lock.json"`,
/// `add_filter "/lib/rack/handler"`): the change is about that file (the script that writes it,
/// the manifest that lists it, a reference to it removed) even when it does not edit it.
pub(super) fn is_referenced(named: &str, patch: &crate::patch::Patch<'_>) -> bool {
    let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
    lines.filter(|l| l.kind != crate::patch::LineKind::Context).any(|l| names_in(named, l.text))
}

/// Whether a file the patch changes reads or documents `named` by name in the base tree
/// (`builder.rb`, which parses `config.ru` files, for a step about `config.ru`): a change to
/// the code that handles a file is about that file. Each file is read up to
/// [`MAX_READ`] bytes.
pub(super) fn is_named_by(named: &str, touched: &[&str], base: &dyn Base) -> bool {
    touched.iter().any(|path| {
        base.content(path).is_some_and(|text| names_in(named, &text[..text.len().min(MAX_READ)]))
    })
}

/// Bytes of a touched file [`is_named_by`] reads, at most.
const MAX_READ: usize = 1 << 20;

/// Whether `text` names `named` as a word of its own.
fn names_in(named: &str, text: &[u8]) -> bool {
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-');
    let named = named.as_bytes();
    memchr::memmem::find_iter(text, named).any(|at| {
        let before = at.checked_sub(1).map(|i| text[i]);
        let after = text.get(at + named.len()..).unwrap_or_default();
        // `a.rs` goes on in `a.rs.bak`, not in `a.rs.` ending a sentence.
        let next = if after.first() == Some(&b'.') { after.get(1) } else { after.first() };
        let continues = next.is_some_and(|b| is_name_byte(*b));
        !before.is_some_and(|b| is_name_byte(b) || b == b'.') && !continues
    })
}

/// Whether `named` names `path`: equal, a directory above it (from the root, or two
/// components or more found in a row among its directories: `rack/multipart` for
/// `lib/rack/multipart/parser.rb`), or its last components with the file's extension optional
/// (`walk.rs`, `src/walk`), where the directories named may skip some of the path's
/// (`ignore/walk` for `crates/ignore/src/walk.rs`).
fn names(named: &str, path: &str) -> bool {
    if path == named || path.strip_prefix(named).is_some_and(|rest| rest.starts_with('/')) {
        return true;
    }
    let want: Vec<&str> = named.split('/').collect();
    let dirs: Vec<&str> = path.split('/').collect();
    let dirs = &dirs[..dirs.len() - 1];
    if want.len() >= 2 && dirs.windows(want.len()).any(|run| run == want.as_slice()) {
        return true;
    }
    let mut wanted = named.split('/').rev();
    let mut have = path.split('/').rev();
    let (Some(want_file), Some(file)) = (wanted.next(), have.next()) else { return false };
    let stem = match file.rfind('.') {
        Some(dot) if dot > 0 && !want_file.contains('.') => &file[..dot],
        _ => file,
    };
    // Each remaining directory of `named`, innermost first, must be found further out.
    want_file == stem && wanted.all(|dir| have.any(|d| d == dir))
}

/// Whether `text` holds `word` as a whole identifier.
pub(super) fn has_word(text: &str, word: &str) -> bool {
    crate::summary::has_word(text, word)
}

/// How often `text` holds `word` as a whole identifier.
pub(super) fn word_count(text: &str, word: &str) -> usize {
    crate::summary::word_count(text, word)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_quick_tests_keep_every_match() {
        assert_eq!(super::renames("RENAME foo TO bar").len(), 1);
        assert!(super::renames("add a flag").is_empty());
        assert_eq!(super::path_candidates("edit src/a.rs"), ["src/a.rs"]);
        assert!(super::path_candidates("edit the parser").is_empty());
    }

    #[test]
    fn a_rename_is_asked_in_the_first_paragraph() {
        let asked = |d: &str| super::renames(d).iter().map(|r| r.is_asked).collect::<Vec<_>>();
        assert_eq!(asked("Rename log_file to wsgi_errors"), [true]);
        assert_eq!(asked("Tidy the transport\nand rename log_file to wsgi_errors"), [true]);
        // The twin: a squashed pull request's list, below the subject.
        assert_eq!(asked("Fix wsgi.errors\n\n* rename log_file param to wsgi_errors"), [false]);
    }

    #[test]
    fn a_described_old_name_is_the_word_the_patch_replaces() {
        let asked = &super::renames("docs: rename example jq utility to total")[0];
        let replaces = |from: &str, to: &str| from == "sum" && to == "total";
        let replaced_by = |to: &str| (to == "total").then(|| "sum".to_owned());
        let read = asked.read_on(replaces, replaced_by, |n| n == "jq");
        assert_eq!((read.from.as_str(), read.is_described), ("sum", true));
        // The twin: a word of the step the patch replaces is the name, as written.
        let asked = &super::renames("Rename main func to initConfig")[0];
        let read = asked.read_on(
            |from, to| from == "main" && to == "initConfig",
            |_| Some("main".to_owned()),
            |_| false,
        );
        assert_eq!((read.from.as_str(), read.is_described), ("main", false));
    }

    #[test]
    fn a_directory_named_by_its_last_components_holds_the_files_below_it() {
        let touched = ["lib/rack/multipart/parser.rb"];
        assert!(super::is_covered("rack/multipart", &touched));
        assert!(super::is_covered("lib/rack", &touched));
        // The twins: components not in a row, one component alone, another directory.
        assert!(!super::is_covered("lib/multipart", &["lib/rack/multipart/x/parser.rb"]));
        assert!(!super::is_covered("rack/request", &touched));
        assert!(!super::is_covered("rack/multipart/parser.rb/x", &touched));
    }

    #[test]
    fn a_changed_line_naming_the_file_references_it() {
        use crate::patch::{ParseOptions, parse};
        let text = "diff --git a/package.json b/package.json\n--- a/package.json\n\
                    +++ b/package.json\n@@ -1,2 +1,2 @@\n {\n-  \"bump\": \"x\"\n\
                    +  \"bump\": \"git add ./package-lock.json\"\n";
        let parsed = parse(text.as_bytes(), &ParseOptions::default());
        assert!(parsed.defects.is_empty(), "{:?}", parsed.defects);
        let patch = &parsed.patch;
        assert!(super::is_referenced("package-lock.json", patch));
        for other in ["lock.json", "package-lock", "package.json", "bump"] {
            // A part of a longer name, or a name only the context or headers show.
            assert_eq!(super::is_referenced(other, patch), other == "bump", "{other}");
        }
    }

    #[test]
    fn a_commit_style_scope_names_an_area_not_a_file() {
        let scopes = [
            "storage/index: add a bloom filter",
            "fix(storage/index): add a bloom filter",
            "feat(cli, storage/index)!: add a bloom filter",
            "  storage/index, docs: add a bloom filter",
        ];
        for text in scopes {
            assert!(super::path_candidates(text).is_empty(), "{text}");
        }
        // The rest of the line still names files; a colon inside prose is no scope.
        assert_eq!(super::path_candidates("index: fix src/bloom.rs"), ["src/bloom.rs"]);
        let prose = ["Fix storage/index: it drops keys", "see storage/index:12", "a/b:c d/e"];
        for text in prose {
            assert!(!super::path_candidates(text).is_empty(), "{text}");
        }
        let second_line = "Add a bloom filter\n\nstorage/index: the new filter";
        assert!(super::is_close("walk.rs", "crates/ignore/src/walk.rs"));
        assert!(super::is_close("src/walk", "crates/ignore/src/walk.rs"));
        assert!(super::is_close("crates/ignore", "crates/ignore/src/walk.rs"));
        assert!(super::is_close("ignore/walk", "crates/ignore/src/walk.rs"));
        assert!(super::is_close("walk", "walk.rs"));
        assert!(!super::is_close("crates/walk", "crates/ignore/src/walk.rs"));
        assert!(!super::is_close("rack/handler", "lib/rack/auth/abstract/handler.rb"));
        assert_eq!(super::path_candidates("edit .lefthook.yml"), [".lefthook.yml"]);
        assert_eq!(super::path_candidates("see (.github/ci.yml)"), [".github/ci.yml"]);
        assert_eq!(super::path_candidates("wait... a.rs and ./b.rs"), ["a.rs", "b.rs"]);
        assert_eq!(super::path_candidates(second_line), ["storage/index"]);
    }
}
