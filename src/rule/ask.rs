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
}

/// `type(scope)!: `, `type: `, `area/sub: `, `[tag] ` before the subject's own words.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\[[^\]]{1,40}\]\s*)*(?:([A-Za-z][\w./-]{0,40})(?:\(([^)]{0,40})\))?!?:\s+)?")
        .expect("the prefix pattern is valid")
});

/// The object of a verb that makes the step about text, not code.
static TEXT_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,8}?(?:
            typos? | spelling | misspell\w* | grammar | wording | phrasing | punctuation
          | comments? | docs? | documentation | docstrings? | javadoc | rustdoc | jsdoc | readme
          | changelog | license | copyright | headers?\s+comments? | examples?\s+in\s+(?:the\s+)?docs
        )\b",
    )
    .expect("the text-object pattern is valid")
});

/// The object of a verb that makes the step about layout.
static LAYOUT_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:\S+\s+){0,5}?(?:
            formatting | format | whitespace | white\s+space | indentation | indent | line\s+endings?
          | trailing\s+(?:spaces?|whitespace|newlines?) | final\s+newline | blank\s+lines?
          | tabs\s+(?:to|with|into)\s+spaces | spaces\s+(?:to|with|into)\s+tabs | (?:cargo\s+)?fmt | rustfmt | gofmt | clang-format | prettier | black | autopep8
          | yapf | isort | ruff\s+format | stylua | ktlint | standardrb
        )\b",
    )
    .expect("the layout-object pattern is valid")
});

/// The kinds the step's first line states (none when its phrasing states none).
pub(super) fn kinds(description: &str) -> Vec<Kind> {
    let line = description.trim_start().lines().next().unwrap_or_default().trim();
    let prefix = PREFIX.captures(line);
    let rest = prefix.as_ref().and_then(|c| c.get(0)).map_or(line, |m| &line[m.end()..]);
    let mut out = Vec::new();
    // The type states the kind (`docs:`, `typo:`); a neutral type's scope may (`chore(docs):`).
    let group = |i: usize| prefix.as_ref().and_then(|c| c.get(i)).map(|m| m.as_str());
    let by_type = group(1).and_then(by_type).or_else(|| {
        group(2).and_then(by_type).filter(|k| matches!(k, Kind::Document | Kind::Format))
    });
    out.extend(by_type);
    let mut words = rest.splitn(2, char::is_whitespace);
    let verb = words.next().unwrap_or_default().to_ascii_lowercase();
    let object = words.next().unwrap_or_default();
    if let Some(kind) = by_verb(&verb, object) {
        out.push(kind);
    }
    out
}

/// A conventional commit's type (or scope), or a word that states a kind used as one (`typo:`,
/// `format:`).
fn by_type(kind: &str) -> Option<Kind> {
    let kind = kind.to_ascii_lowercase();
    Some(match kind.as_str() {
        "docs" | "doc" => Kind::Document,
        "style" | "fmt" | "format" => Kind::Format,
        "fix" | "bugfix" | "hotfix" => Kind::Fix,
        "feat" | "feature" => Kind::Add,
        "refactor" => Kind::Refactor,
        _ => return by_verb(&kind, ""),
    })
}

/// The leading verb, read with its object: "fix the typo" is documentation, "fix the crash" a
/// behaviour.
fn by_verb(verb: &str, object: &str) -> Option<Kind> {
    let verb = verb.trim_end_matches([':', ',']);
    let verb = base_form(verb);
    let verb = verb.as_str();
    if TEXT_OBJECT.is_match(object) && !treats_text_as_data(verb) {
        return Some(Kind::Document);
    }
    if LAYOUT_OBJECT.is_match(object) && !treats_text_as_data(verb) {
        return Some(Kind::Format);
    }
    Some(match verb {
        "format" | "formatted" | "formatting" | "reformat" | "reformatted" | "reformatting"
        | "reindent" | "re-indent" | "indent" | "unindent" | "dedent" | "outdent" | "lint"
        | "prettify" | "rustfmt" | "gofmt" | "black" | "prettier" => Kind::Format,
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
        "move" | "moved" | "moves" | "reorder" | "reordered" | "sort" | "sorted" | "relocate" => {
            Kind::Move
        }
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

/// Whether `verb`, as written, is one [`by_verb`] reads.
fn by_verb_exact(verb: &str) -> bool {
    matches!(
        verb,
        "format"
            | "reformat"
            | "reindent"
            | "indent"
            | "lint"
            | "document"
            | "comment"
            | "reword"
            | "rephrase"
            | "clarify"
            | "typo"
            | "spelling"
            | "fix"
            | "correct"
            | "handle"
            | "prevent"
            | "resolve"
            | "repair"
            | "add"
            | "implement"
            | "introduce"
            | "create"
            | "write"
            | "provide"
            | "stub"
            | "scaffold"
            | "move"
            | "reorder"
            | "sort"
            | "relocate"
            | "remove"
            | "delete"
            | "drop"
            | "refactor"
            | "rename"
            | "extract"
            | "inline"
            | "simplify"
            | "cleanup"
            | "clean"
            | "tidy"
    )
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
    use super::{Kind, kinds};

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
            ("Add a thread-safety note to the `Client` class docstring", Kind::Document),
        ] {
            assert!(kinds(line).contains(&kind), "{line}: {:?}", kinds(line));
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
        ] {
            let found = kinds(line);
            assert!(
                !found.contains(&Kind::Document) && !found.contains(&Kind::Format),
                "{line}: {found:?}"
            );
        }
    }
}
