//! What a step asks, read from the phrasing that states its kind: the first line of the
//! description, past a commit-style scope (`area:`, `area/sub:`, `fix(scope):`, `[tag]`), its
//! leading verb and that verb's object. "Fix typos in X", "Format with black", "docs: update
//! the comments" state a kind; a word somewhere in a long message does not.

use regex::Regex;
use std::sync::LazyLock;

/// The kind of change a step asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Formatting, whitespace or indentation (`Format with black`, `style:`).
    Format,
    /// Comments, documentation or wording (`Fix typos`, `docs:`, `Update the docstring`).
    Document,
    /// A behaviour to fix or change (`Fix`, `Handle`, `Prevent`, `fix:`).
    Fix,
    /// Something new (`Add`, `Implement`, `feat:`).
    Add,
    /// A placeholder on purpose (`Stub out`, `Add a skeleton`).
    Stub,
    /// Code moved or re-ordered (`Move`, `Reorder`, `Sort`).
    Move,
    /// Code removed (`Remove`, `Delete`, `Drop`).
    Remove,
    /// A refactoring that keeps behaviour (`Refactor`, `Rename`, `Extract`, `refactor:`).
    Refactor,
    /// A check to silence (`Silence mypy on load`, `Ignore the linter error`, `Fix clippy
    /// lints`): what a directive comment does.
    Suppress,
}

/// `type(scope)!: `, `type: `, `area/sub: `, `[tag] ` before the subject's own words.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\[[^\]]{1,40}\]\s*)*(?:([A-Za-z][\w./-]{0,40})(?:\(([^)]{0,40})\))?!?:\s+)?")
        .expect("the prefix pattern is valid")
});

/// The object of a verb that makes the step about text, not code. A kind word is read in its
/// inflected forms too (`commented`, like `indenting` and `whitespacing` below): the form a
/// subject happens to use does not change what it asks; and a word ending in `doc` names a
/// documentation format (`javadoc`, `rustdoc`, `GoDoc`, `KDoc`).
static TEXT_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,8}?(?:
            typos? | spelling | misspell\w* | grammar | grammatical(?:ly)? | wording | phrasing | punctuation
          | comment(?:s|ed|ing)? | \w*docs? | documentation | docstrings? | readme
          | changelog | license | copyright | headers?\s+comments? | examples?\s+in\s+(?:the\s+)?docs
          | code\s+(?:samples?|examples?|snippets?) | explanations? | (?:intra-)?doc\s+links?
          | notes?\s+(?:about|regarding) | a\s+note\s+(?:on|to|for|that) | reminders? | remarks?
          | caveats?
        )\b",
    )
    .expect("the text-object pattern is valid")
});

/// The object of a verb that makes the step about layout. `formats`, a plural noun, names file
/// or data formats (`Add CSV to the formats list`), not layout.
static LAYOUT_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,5}?(?:
            format(?:ted|ting)? | whitespac(?:e|es|ed|ing) | white\s+spaces? | indent(?:s|ed|ing|ation)?
          | line\s+endings?
          | spacing
          | cod(?:e|ing)\s+style
          | spaces?\s+(?:after|before|around|between)
          | trailing\s+(?:spaces?|whitespace|newlines?) | final\s+newline | blank\s+lines?
          | (?:missing|extra|eof)\s+new\s*lines? | empty\s+lines? | new\s*lines?\s+at\s+(?:the\s+)?end
          | (?:extra|double|redundant|unnecessary|unneeded|superfluous)\s+(?:spaces?|tabs?)
          | tabs\s+(?:to|with|into)\s+spaces | spaces\s+(?:to|with|into)\s+tabs | (?:cargo\s+)?fmt | rustfmt | gofmt | clang-format | prettier | black | autopep8
          | yapf | isort | ruff\s+format | stylua | ktlint | standardrb
        )\b",
    )
    .expect("the layout-object pattern is valid")
});

/// A subject, or a verb's object, that is style and nothing else: `style`, `code style`,
/// `cosmetics`, alone or with the noun of a fix (`style fixes`, `minor style issues`,
/// `cosmetic change`).
static STYLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:(?:the|some|minor|small|more|a\s+few)\s+)?(?:cod(?:e|ing)\s+)?
          (?:style|stylistic|cosmetics?)
          (?:\s+(?:fix(?:es)?|issues?|nits?|errors?|problems?|violations?|changes?|tweaks?|cleanups?))?
          [.!]?\s*(?:\(\#\d+\))?$",
    )
    .expect("the style pattern is valid")
});

/// Whether the verb's object is layout ([`LAYOUT_OBJECT`]) before any word that opens a clause
/// or a place of its own (`when`, `on`, `in`, ...; not `at`, which `newline at the end` keeps): "Fix heap buffer overflow when formatting
/// an empty string" and "Fix calloc error on `@base64d` format" fix a behaviour; "Fix the
/// indentation of the workflow" and "consistent spacing after comment start" are layout.
fn names_layout(object: &str) -> bool {
    const CLAUSE: [&str; 8] = ["when", "while", "if", "on", "in", "for", "because", "where"];
    let mut end = object.len();
    let mut at = 0;
    for word in object.split_inclusive(char::is_whitespace) {
        let bare = word.trim().trim_end_matches([',', ':', ';']).to_ascii_lowercase();
        if at > 0 && CLAUSE.contains(&bare.as_str()) {
            end = at;
            break;
        }
        at += word.len();
    }
    LAYOUT_OBJECT.is_match(&object[..end])
}

/// The object of a verb that makes the step about a linter's verdict.
static LINT_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,6}?(?:
            lints? | linter | linting | clippy | mypy | pyright | eslint | tslint | rubocop | pylint
          | flake8 | ruff | golangci-lint | staticcheck | cppcheck | clang-tidy | ktlint | detekt
          | sonar\w* | codeql
        )\b",
    )
    .expect("the lint-object pattern is valid")
});

/// What a bug report's title says of the code when no verb states the step: it fails, crashes,
/// raises, does not work, is wrong, or names an error (`TypeError`, `INTERNALERROR`).
static FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(?:
            fail(?:s|ed|ing|ures?)? | crash(?:es|ed|ing)? | breaks | broke | broken | hangs | hung
          | freezes | froze | throws? | threw | raises | panics | panicked | segfaults?
          | ignores | ignored
          | \w*(?:error|exception)s? | traceback | bugs? | regression | problem
          | wrong(?:ly)? | incorrect(?:ly)? | unexpected(?:ly)?
          | (?:does|do|can|will|is|are|was|were|has|have)(?:n[’']?t|\s+not) | can[’']?t | cannot
          | won[’']?t | no\s+longer
        )\b",
    )
    .expect("the failure pattern is valid")
});

/// A failure stated right after the first word (`Linting fails`, `Parser crashes`, `Rewrite
/// doesn't`): that word is what fails.
static FAILURE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:fails|failed|crashes|crashed|breaks|broke|hangs|freezes|throws|raises|panics|ignores|(?:does|do|is|are|was|were|can|will)(?:n[’']?t|\s+not)|cannot|won[’']?t|no\s+longer)\b",
    )
    .expect("the failure-first pattern is valid")
});

/// With a lint or a warning for object, verbs that turn a check off rather than satisfy it.
static SILENCED_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:\S+\s+){0,6}?(?:lints?|linter|warnings?|errors?|checks?|rules?)\b")
        .expect("the silenced-object pattern is valid")
});

/// The object of "add" that is a program of its own: a new script answers it.
static PROGRAM_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,5}?(?:
            scripts? | examples? | demos? | samples? | tools? | utilit(?:y|ies) | benchmarks?
          | bench | programs? | playground
        )\b",
    )
    .expect("the program-object pattern is valid")
});

/// Examples a documentation step may add as programs of their own.
static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:examples?|demos?|samples?|tutorials?)\b")
        .expect("the example pattern is valid")
});

/// A checker, or what a checker reports, named anywhere in a step's first line.
static CHECKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(?:
            lints? | linter | linting | clippy | mypy | pyright | pyre | eslint | tslint | rubocop
          | pylint | flake8 | ruff | golangci-lint | staticcheck | go\s+vet | vet | cppcheck
          | clang-tidy | ktlint | detekt | sonar\w* | codeql | shellcheck | bandit | gosec | nosec
          | warnings? | typ(?:e|es|ed|ing|echeck\w*) | coverage | spell\w* | cspell | prettier
          | checker | deprecat\w* | complexity
        )\b",
    )
    .expect("the checker pattern is valid")
});

/// Whether the step's first line names a checker or what one reports (`Make mypy accept the
/// import`, `Build without warnings`): a step a directive that turns that checker off may
/// answer, though its kind is not stated.
pub(super) fn names_a_check(description: &str) -> bool {
    CHECKER.is_match(subject_line(description))
}

/// Whether the step's first line, past a commit-style prefix, names a linter or its verdict
/// within its first words (`Fixed linter issues`, `Work around the doc_link_with_quotes
/// pedantic clippy lint`): a linter reads layout and comments, so an edit of them may be the
/// whole answer.
pub(super) fn names_a_linter(description: &str) -> bool {
    let line = subject_line(description);
    let rest = PREFIX.find(line).map_or(line, |m| &line[m.end()..]);
    LINT_OBJECT.is_match(rest)
}

/// Whether the step's first line asks to add a program of its own (`Add a release script`,
/// `docs: an example for the client`, an example that `file` is in an examples directory for),
/// or names `file` (a created file's name or stem): what a new file that nothing else uses
/// answers.
pub(super) fn asks_new_file(description: &str, file: &str) -> bool {
    let line = subject_line(description);
    // A step naming an example asks for one: as documentation, or as a program put where the
    // project keeps its examples (`examples/help_usage.cpp` for "help modification example").
    let is_example_dir = || {
        let dirs = file.rsplit_once('/').map_or("", |(dir, _)| dir);
        dirs.split('/').any(|d| EXAMPLE.find(d).is_some_and(|m| m.len() == d.len()))
    };
    if EXAMPLE.is_match(line) && (kinds(description).contains(&Kind::Document) || is_example_dir())
    {
        return true;
    }
    let name = file.rsplit('/').next().unwrap_or(file);
    let stem = name.split('.').next().unwrap_or(name);
    if line.contains(name) || (stem.len() > 2 && crate::summary::has_word(line, stem)) {
        return true;
    }
    let rest = PREFIX.find(line).map_or(line, |m| &line[m.end()..]);
    let mut words = rest.splitn(2, char::is_whitespace);
    let verb = base_form(&words.next().unwrap_or_default().to_ascii_lowercase());
    let object = words.next().unwrap_or_default();
    let is_new = matches!(verb.as_str(), "add" | "create" | "introduce" | "write" | "provide");
    is_new && PROGRAM_OBJECT.is_match(object)
}

/// The description's first line, trimmed.
fn subject_line(description: &str) -> &str {
    description.trim_start().lines().next().unwrap_or_default().trim()
}

/// The kinds the step's first line states (none when its phrasing states none).
pub(super) fn kinds(description: &str) -> Vec<Kind> {
    let line = subject_line(description);
    let prefix = PREFIX.captures(line);
    let rest = prefix.as_ref().and_then(|c| c.get(0)).map_or(line, |m| &line[m.end()..]);
    let mut out = Vec::new();
    // The type states the kind (`docs:`, `typo:`); a neutral type's scope may (`chore(docs):`).
    let group = |i: usize| prefix.as_ref().and_then(|c| c.get(i)).map(|m| m.as_str());
    let by_type = group(1).and_then(by_type).or_else(|| {
        group(2).and_then(by_type).filter(|k| matches!(k, Kind::Document | Kind::Format))
    });
    out.extend(by_type);
    out.extend(scope_alone(line));
    let mut words = rest.splitn(2, char::is_whitespace);
    let verb = words.next().unwrap_or_default().to_ascii_lowercase();
    let object = words.next().unwrap_or_default();
    // "Linting fails if ...": a word followed by a failure is the subject of a bug report,
    // not a verb; `"--notes" option ...` starts with no word at all.
    let is_subject = FAILURE_FIRST.is_match(object) || !verb.starts_with(char::is_alphabetic);
    // "Revert unexpected changes in X": a revert restores what was there, of whatever kind;
    // its object's words (`unexpected`) describe what it undoes, not a failure to fix.
    let is_revert = matches!(
        verb.trim_end_matches([':', ',']),
        "revert" | "reverts" | "reverted" | "reverting" | "undo" | "undoes" | "undid"
    );
    if let Some(kind) = by_verb(&verb, object).filter(|_| !is_subject) {
        out.push(kind);
    } else if out.is_empty() && !is_revert && FAILURE.is_match(rest) {
        // A bug report's title states a behaviour to fix (`Rewrite fails when ...`, `INTERNALERROR
        // when exception in __repr__`); one about a linter's verdict may want it silenced.
        out.push(if LINT_OBJECT.is_match(rest) { Kind::Suppress } else { Kind::Fix });
    }
    // "Consistent spacing after comment start" is about comments and layout both.
    let verb = base_form(verb.trim_end_matches([':', ',']));
    // The layout named as the subject's head states it too (`Whitespace in readme.`), unless
    // a failure follows it (`Spacing breaks the table`).
    let is_layout_head =
        matches!(verb.as_str(), "whitespace" | "whitespaces" | "indentation" | "spacing")
            && !is_subject;
    // Style named as all the step is about (`Fix style`, `Style fixes`, `Cosmetic change`),
    // not the style of a thing (`Fix the button style`, `Style the form`).
    let is_style = STYLE.is_match(rest) || STYLE.is_match(object);
    if is_style && !out.contains(&Kind::Format) {
        out.push(Kind::Format);
    }
    if (is_layout_head || names_layout(object) && !treats_text_as_data(&verb))
        && !out.contains(&Kind::Format)
    {
        out.push(Kind::Format);
    }
    // The text named as the subject's head states documentation the same way (`Grammar fix.`,
    // `Doc on the new resolve methods`, `Copyright to files in build-support`), unless the
    // subject reports a failure (`Docstring parsing crashes on tabs`). A word alone
    // (`changelog`) heads nothing: it states no task.
    let is_phrase = !object.trim().is_empty();
    if out.is_empty() && is_phrase && is_text_head(&verb) && !FAILURE.is_match(rest) {
        out.push(Kind::Document);
    }
    out
}

/// Whether `word`, the first of a subject, is itself a text object (`grammar`, `doc`,
/// `copyright`): the subject is a noun phrase about that text.
fn is_text_head(word: &str) -> bool {
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    !word.is_empty() && TEXT_OBJECT.find(word).is_some_and(|m| m.end() == word.len())
}

/// A conventional commit's type and scope standing alone as the subject (`docs(core/AxiosError)`,
/// no colon and no words after it): the type states the kind as it does before a colon.
fn scope_alone(line: &str) -> Option<Kind> {
    static ALONE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^([A-Za-z]+)\([^()\s]{1,60}\)!?:?$").expect("the scope pattern is valid")
    });
    let found = ALONE.captures(line.trim_end_matches('.'))?;
    conventional_type(found.get(1)?.as_str())
}

/// The leading verb of the step's first line past a commit-style prefix, in its base form
/// (`remove` for `Removes`), and the rest of the line: what it acts on.
pub(super) fn verb_and_object(description: &str) -> Option<(String, &str)> {
    let line = subject_line(description);
    let prefix = PREFIX.captures(line);
    let rest = prefix.as_ref().and_then(|c| c.get(0)).map_or(line, |m| &line[m.end()..]);
    let mut words = rest.splitn(2, char::is_whitespace);
    let verb = words.next()?.to_ascii_lowercase();
    let verb = base_form(verb.trim_end_matches([':', ',']));
    Some((verb, words.next().unwrap_or_default().trim()))
}

/// Whether the step's leading verb asks for a clean-up (`Clean up the parser`, `Tidy
/// Buffer.kt`, `cleanup`): a step that whitespace taken out may be all about.
pub(super) fn is_cleanup(description: &str) -> bool {
    verb_and_object(description)
        .is_some_and(|(verb, _)| matches!(verb.as_str(), "clean" | "cleanup" | "clean-up" | "tidy"))
}

/// Whether the step's leading verb names a refactoring's transformation (`Simplify the check`,
/// `Rename foo`, `Extract the parser`, `Inline the helper`): one a definition moved unchanged
/// does not carry out, unlike a general `Refactor` or `Clean up`.
pub(super) fn names_a_transformation(description: &str) -> bool {
    verb_and_object(description).is_some_and(|(verb, _)| {
        ["simplif", "renam", "extract", "inlin"].iter().any(|stem| verb.starts_with(stem))
    })
}

/// Whether the step is one word and nothing else, its kind unstated (`Spotless`, `changelog`,
/// `2022`): a tool's name, a file's, a year. Such a step states no task a change can be
/// checked against.
pub(super) fn is_one_word(description: &str) -> bool {
    let text = description.trim();
    let word = text.trim_end_matches('.');
    !word.is_empty() && !word.contains(char::is_whitespace) && kinds(description).is_empty()
}

/// The file a step's first line is only about: an editing verb and one path, and at most a
/// pull-request reference (`Update okio/src/Buffer.kt`, `Update PULL_REQUEST_TEMPLATE.md (#2672)`,
/// what a web editor writes). Such a step asks for some edit of that file and states no kind.
pub(super) fn edited_file(description: &str) -> Option<&str> {
    let line = description.trim_start().lines().next()?.trim();
    let mut words = line.split_whitespace();
    let (verb, path) = (words.next()?, words.next()?);
    let is_reference = |w: &str| {
        w.strip_prefix("(#")
            .and_then(|w| w.strip_suffix(')'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let is_rest_empty = words.next().is_none_or(is_reference) && words.next().is_none();
    let is_path = path.contains('.') && !path.ends_with('.');
    (is_rest_empty && is_path && is_editing_verb(&base_form(&verb.to_ascii_lowercase())))
        .then_some(path)
}

/// A conventional commit's type (or scope), or a word that states a kind used as one (`typo:`,
/// `format:`).
fn by_type(kind: &str) -> Option<Kind> {
    conventional_type(kind).or_else(|| by_verb(&kind.to_ascii_lowercase(), ""))
}

/// The kind a conventional commit's type states (`docs`, `style`, `fix`, `feat`, `refactor`).
fn conventional_type(kind: &str) -> Option<Kind> {
    Some(match kind.to_ascii_lowercase().as_str() {
        "docs" | "doc" => Kind::Document,
        "style" | "fmt" | "format" => Kind::Format,
        "fix" | "bugfix" | "hotfix" => Kind::Fix,
        "feat" | "feature" => Kind::Add,
        "refactor" => Kind::Refactor,
        _ => return None,
    })
}

/// The leading verb, read with its object: "fix the typo" is documentation, "fix the crash" a
/// behaviour.
fn by_verb(verb: &str, object: &str) -> Option<Kind> {
    let verb = verb.trim_end_matches([':', ',']);
    let verb = base_form(verb);
    let verb = verb.as_str();
    let silences = matches!(verb, "silence" | "suppress" | "mute" | "appease" | "placate")
        || (matches!(verb, "ignore" | "disable") && SILENCED_OBJECT.is_match(object))
        || ((is_editing_verb(verb) || verb == "fix") && LINT_OBJECT.is_match(object));
    if silences {
        return Some(Kind::Suppress);
    }
    if TEXT_OBJECT.is_match(object) && !treats_text_as_data(verb) {
        return Some(Kind::Document);
    }
    if names_layout(object) && !treats_text_as_data(verb) {
        return Some(Kind::Format);
    }
    Some(match verb {
        "format" | "formatted" | "formatting" | "reformat" | "reformatted" | "reformatting"
        | "reflow" | "rewrap" | "reindent" | "re-indent" | "indent" | "unindent" | "dedent"
        | "outdent" | "lint" | "prettify" | "rustfmt" | "gofmt" | "black" | "prettier" => {
            Kind::Format
        }
        "document" | "documented" | "documenting" | "comment" | "commented" | "reword"
        | "reworded" | "rephrase" | "rephrased" | "clarify" | "clarified" | "typo" | "typos"
        | "spelling" => Kind::Document,
        // Verbs that state a defect to repair. "Make", "allow", "let" state an outcome that a
        // directive can be (`Make mypy accept the import`), so they state no kind here.
        "fix" | "fixed" | "fixes" | "fixing" | "correct" | "corrected" | "handle" | "handled"
        | "handles" | "prevent" | "prevents" | "resolve" | "resolves" | "repair" => Kind::Fix,
        "add" | "added" | "adds" | "adding" | "implement" | "implemented" | "implements"
        | "introduce" | "introduced" | "create" | "created" | "new" | "write" | "provide" => {
            Kind::Add
        }
        "stub" | "scaffold" => Kind::Stub,
        "move" | "moved" | "moves" | "reorder" | "reordered" | "sort" | "sorted" | "relocate"
        | "reorganize" | "reorganise" | "restructure" | "regroup" | "group" | "rearrange"
        | "organize" | "organise" => Kind::Move,
        "remove" | "removed" | "removes" | "delete" | "deleted" | "deletes" | "drop"
        | "dropped" | "drops" => Kind::Remove,
        "refactor" | "refactored" | "rename" | "renamed" | "extract" | "extracted" | "inline"
        | "inlined" | "simplify" | "simplified" | "cleanup" | "clean" | "tidy" => Kind::Refactor,
        _ => return None,
    })
}

/// The verb's base form, for the forms a subject is written in (`updating`, `updated`,
/// `updates`, `fixes`): the first of the word and its shortenings that is a verb known here.
fn base_form(verb: &str) -> String {
    let candidates = [
        verb.to_owned(),
        verb.strip_suffix("ing").map(|v| format!("{v}e")).unwrap_or_default(),
        verb.strip_suffix("ing").unwrap_or_default().to_owned(),
        verb.strip_suffix("ed").unwrap_or_default().to_owned(),
        verb.strip_suffix('d').unwrap_or_default().to_owned(),
        verb.strip_suffix("es").unwrap_or_default().to_owned(),
        verb.strip_suffix('s').unwrap_or_default().to_owned(),
    ];
    let is_known = |v: &&String| {
        !v.is_empty() && (is_editing_verb(v) || by_verb_exact(v) || treats_text_as_data(v))
    };
    candidates.iter().find(is_known).unwrap_or(&candidates[0]).clone()
}

/// The verbs, as written, that [`by_verb`] reads.
const VERBS: [&str; 58] = [
    "format",
    "reformat",
    "reflow",
    "rewrap",
    "reindent",
    "indent",
    "lint",
    "document",
    "comment",
    "reword",
    "rephrase",
    "clarify",
    "typo",
    "spelling",
    "fix",
    "correct",
    "handle",
    "prevent",
    "resolve",
    "repair",
    "add",
    "implement",
    "introduce",
    "create",
    "write",
    "provide",
    "stub",
    "scaffold",
    "move",
    "reorder",
    "sort",
    "relocate",
    "reorganize",
    "reorganise",
    "restructure",
    "regroup",
    "group",
    "rearrange",
    "organize",
    "organise",
    "silence",
    "suppress",
    "mute",
    "appease",
    "placate",
    "ignore",
    "disable",
    "remove",
    "delete",
    "drop",
    "refactor",
    "rename",
    "extract",
    "inline",
    "simplify",
    "cleanup",
    "clean",
    "tidy",
];

/// Whether `verb`, as written, is one [`by_verb`] reads.
fn by_verb_exact(verb: &str) -> bool {
    VERBS.contains(&verb)
}

/// Verbs whose object is what code does to text (`Handle comments in the lexer`, `Preserve
/// whitespace in literals`): with a text or layout object they still state a behaviour. Any other
/// verb with such an object states an edit of that text (`Enhance the documentation`, `Trim
/// trailing white space`).
fn treats_text_as_data(verb: &str) -> bool {
    matches!(
        verb,
        "handle"
            | "prevent"
            | "resolve"
            | "repair"
            | "implement"
            | "support"
            | "parse"
            | "allow"
            | "preserve"
            | "keep"
            | "strip"
            | "skip"
            | "ignore"
            | "detect"
            | "render"
    )
}

/// Verbs that, with a text or layout object, state a change of that text or layout.
fn is_editing_verb(verb: &str) -> bool {
    matches!(
        verb,
        "fix"
            | "fixed"
            | "fixes"
            | "fixing"
            | "correct"
            | "corrected"
            | "update"
            | "updated"
            | "updates"
            | "improve"
            | "improved"
            | "add"
            | "added"
            | "adds"
            | "remove"
            | "removed"
            | "clean"
            | "cleanup"
            | "tweak"
            | "tweaked"
            | "edit"
            | "edited"
            | "rewrite"
            | "rewrote"
            | "reword"
            | "polish"
            | "adjust"
            | "adjusted"
            | "clarify"
            | "clarified"
            | "expand"
            | "extend"
            | "refresh"
            | "sync"
            | "apply"
            | "run"
            | "use"
            | "normalize"
            | "normalise"
            | "unify"
            | "standardize"
            | "tidy"
            | "revise"
            | "revised"
            | "document"
            | "bump"
            | "change"
            | "changed"
            | "amend"
            | "convert"
            | "converted"
            | "replace"
            | "replaced"
    )
}

#[cfg(test)]
mod tests {
    use super::{Kind, edited_file, kinds};

    #[test]
    fn a_first_line_that_is_only_a_verb_and_a_path_names_the_file_edited() {
        assert_eq!(edited_file("Update okio/src/Buffer.kt"), Some("okio/src/Buffer.kt"));
        assert_eq!(
            edited_file("Update PULL_REQUEST_TEMPLATE.md (#2672)\n\nbody"),
            Some("PULL_REQUEST_TEMPLATE.md")
        );
        assert_eq!(edited_file("Fix the crash in parser.rs"), None);
        assert_eq!(edited_file("Update parser.rs to handle tabs"), None);
        assert_eq!(edited_file("Update dependencies"), None);
        assert_eq!(edited_file("Frobnicate parser.rs"), None);
    }

    #[test]
    fn phrasings_that_state_the_kind() {
        for (line, kind) in [
            ("Fix typos in the parser", Kind::Document),
            ("docs: explain the retry loop", Kind::Document),
            ("Update comments in walk.rs", Kind::Document),
            ("Format with black", Kind::Format),
            ("style: run prettier", Kind::Format),
            ("Fix indentation of the workflow", Kind::Format),
            ("storage/index: fix the off-by-one in parse", Kind::Fix),
            ("Fix the crash when the file is empty", Kind::Fix),
            ("feat(cli): add --json", Kind::Add),
            ("Move helpers to util.rs", Kind::Move),
            ("Stub out the exporter", Kind::Stub),
            ("chore(docs): consistent spacing after comment start", Kind::Document),
            ("Updating deprecated docstring Client() class", Kind::Document),
            ("typo: tokenenizable tokenizable", Kind::Document),
            ("Fixes the crash on empty input", Kind::Fix),
            ("Removing the unused helper", Kind::Remove),
            ("Enhance the documentation of the builder", Kind::Document),
            ("Trim trailing white space throughout the project", Kind::Format),
            ("Unindent the body of the macro", Kind::Format),
            ("fix: removing multiple/trailing/leading whitespaces", Kind::Format),
            ("Add a thread-safety note to the `Client` class docstring", Kind::Document),
            ("Silence mypy on load", Kind::Suppress),
            ("Ignore the linter error (#2390)", Kind::Suppress),
            ("chore: fix clippy lints", Kind::Suppress),
            ("Reorganize the helpers of the parser", Kind::Move),
            ("Reflow the paragraphs of the guide", Kind::Format),
            ("chore(docs): consistent spacing after comment start (#5908)", Kind::Format),
            ("Rewrite fails when first expression of file is a number", Kind::Fix),
            ("INTERNALERROR when exception in __repr__", Kind::Fix),
            ("Using custom braces in message template does not work", Kind::Fix),
            ("skipping: --runxfail breaks pytest.mark.skip location reporting", Kind::Fix),
            ("`--recursive=y` ignores `ignore-paths`", Kind::Fix),
            ("Wrong path to test file when directory changed in fixture", Kind::Fix),
            ("mypy fails on the generated stubs", Kind::Suppress),
            ("\"--notes\" option ignores note tags that are entirely punctuation", Kind::Fix),
            ("Linting fails if module contains module of the same name", Kind::Suppress),
            ("Formatting breaks on tabs", Kind::Fix),
            ("Whitespace in readme.", Kind::Format),
            ("Spacing breaks the table", Kind::Fix),
            ("Indentation of the workflow", Kind::Format),
            ("Tag the language in code samples", Kind::Document),
            ("Tweak explanation of \"result\" feature", Kind::Document),
            ("Convert html links to intra-doc links", Kind::Document),
            ("docs(cancel/CanceledError)", Kind::Document),
            ("style(parser)", Kind::Format),
            ("Grammar fix. (#510)", Kind::Document),
            ("Doc on new resolve(path, normalize) methods (#1051)", Kind::Document),
            ("Copyright to files in build-support (#1285)", Kind::Document),
            ("Fix indenting", Kind::Format),
            ("Fix up license whitespacing (#1563)", Kind::Format),
            ("remove commented code", Kind::Document),
            ("Explain OnInitialize better in the GoDoc (#594)", Kind::Document),
            ("Fix the KDoc of Buffer", Kind::Document),
            ("docs: Fix coding style of Python scripts using YAPF (#2606)", Kind::Format),
            ("Apply the code style to the parser", Kind::Format),
            ("fix grammatical error in command.go (#626)", Kind::Document),
        ] {
            assert!(kinds(line).contains(&kind), "{line}: {:?}", kinds(line));
        }
    }

    #[test]
    fn a_clean_up_is_asked_by_its_verb() {
        for line in ["Clean up the parser", "Cleanup", "chore: tidy Buffer.kt", "Cleaned up tests"]
        {
            assert!(super::is_cleanup(line), "{line}");
        }
        // The twins: a clean-up named later, a verb of another kind.
        for line in ["Fix the crash in cleanup", "Simplify the parser"] {
            assert!(!super::is_cleanup(line), "{line}");
        }
    }

    #[test]
    fn text_and_layout_phrasings_state_the_kind() {
        for (line, kind) in [
            ("Add a reminder about trim-paths", Kind::Document),
            ("Add a note about thread safety to the client", Kind::Document),
            ("Add missing newline at end of file", Kind::Format),
            ("Remove extra empty line", Kind::Format),
            ("Add newline at the end of the workflow", Kind::Format),
            ("Remove unnecessary spaces in the table", Kind::Format),
            ("Fix style", Kind::Format),
            ("Style fixes", Kind::Format),
            ("Cosmetic change", Kind::Format),
            ("Add space after comma in params to reflect style used everywhere else", Kind::Format),
        ] {
            assert!(kinds(line).contains(&kind), "{line}: {:?}", kinds(line));
        }
    }

    #[test]
    fn text_and_layout_words_that_name_code_state_no_kind() {
        // The twins of the phrasings above: a field named `notes`, a newline in a string,
        // spaces a program handles.
        for line in [
            "Add notes field to the release model",
            "Add newline to the error message",
            "Handle spaces in paths",
            "Fix the button style",
            "Style the login form",
            "Allow spaces around the equals sign",
        ] {
            let found = kinds(line);
            assert!(
                !found.contains(&Kind::Document) && !found.contains(&Kind::Format),
                "{line}: {found:?}"
            );
        }
    }

    #[test]
    fn a_word_later_in_the_message_states_nothing() {
        for line in [
            "Bump serde to 1.0.200\n\nThis also fixes typos and lint and docs.",
            "Release 2.3.0",
            "handle the lint of words and links later",
            "chore(cli): bump serde to 1.0.200",
            "fix(docs): crash when the page is empty",
            "Handle comments in the lexer",
            "Preserve whitespace inside string literals",
            "Fix the type error in load",
            "Ignore hidden files in the walker",
            "Convert html links to absolute URLs",
            "Docstring parsing crashes on tabs",
            "Fix the style of the error messages",
            "Add CSV to the formats list",
            "docs(cancel/CanceledError) and the retry",
        ] {
            let found = kinds(line);
            let is_text = [Kind::Document, Kind::Format, Kind::Suppress];
            assert!(!is_text.iter().any(|k| found.contains(k)), "{line}: {found:?}");
        }
    }

    #[test]
    fn layout_named_in_a_clause_of_its_own_is_no_layout_step() {
        for line in [
            "Fix heap buffer overflow when formatting an empty string",
            "Fix calloc error on `@base64d` format (ref #3280)",
            "Fix warning: sign-compare in `@base64d` format",
        ] {
            let found = kinds(line);
            assert!(
                found.contains(&Kind::Fix) && !found.contains(&Kind::Format),
                "{line}: {found:?}"
            );
        }
        // The twins: the layout is the verb's own object, before any clause.
        for line in ["Fix the indentation in the workflow", "Fix formatting when tabs are used"] {
            assert!(kinds(line).contains(&Kind::Format), "{line}: {:?}", kinds(line));
        }
    }

    #[test]
    fn a_checker_named_in_the_first_line() {
        for line in ["Make mypy accept the import", "Build without warnings", "Keep go vet quiet"] {
            assert!(super::names_a_check(line), "{line}");
        }
        let later = "Cast char before isspace\n\nclang-tidy warned about it.";
        for line in ["Cast char to unsigned char before isspace", "Expose FunctionAuth", later] {
            assert!(!super::names_a_check(line), "{line}");
        }
    }

    #[test]
    fn a_title_that_reports_no_failure_states_no_kind() {
        // Feature requests and questions in a bug tracker's words, and a verb that states its
        // own kind before any failure word.
        for line in [
            "Hostname and timestamp properties in generated JUnit XML reports",
            "Display fixture scope with `pytest --fixtures`",
            "Module imported twice under import-mode=importlib",
            "Release 2.3.0",
        ] {
            assert!(kinds(line).is_empty(), "{line}: {:?}", kinds(line));
        }
        assert_eq!(kinds("Add error handling to the loader"), [Kind::Add]);
        assert_eq!(kinds("docs: the error codes"), [Kind::Document]);
    }

    #[test]
    fn a_revert_states_no_failure_to_fix() {
        let revert = "Revert unexpected changes in decNumber code (ref #2031)";
        assert!(kinds(revert).is_empty(), "{:?}", kinds(revert));
        // The twin: the same words as a bug report's title state one.
        assert_eq!(kinds("Unexpected changes in decNumber code"), [Kind::Fix]);
    }

    #[test]
    fn a_word_later_in_the_message_states_nothing_either() {
        let line = "Bump serde to 1.0.200\n\nThis fixes a crash and a wrong error.";
        assert!(kinds(line).is_empty(), "{:?}", kinds(line));
    }
}
