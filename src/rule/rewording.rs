//! What a patch that only edits comments does to the words that were there: a rewording that
//! takes nothing out and adds nothing the step is about answers no step but one about those
//! comments. Read by [`super::not_implemented`] where the step's kind is not documentation.

use crate::patch::{LineKind, Patch};
use std::collections::HashMap;

/// Whether the patch rewrites comment lines that were there (it removes lines) and either
/// takes no word of them out (it only adds words: `// Parse the header` -> `// Note: parse the
/// header`) or the step asks to add something (`is_addition`), while no word it changes (puts
/// in or takes out) is a word of the step's first line or shares its stem. Such an edit neither
/// removes what a comment said nor changes what the comment says of what the step names: it is
/// no answer to a step that does not ask for the comments, though the comment it edits may
/// stand beside the code the step is about (`AsyncTimeout` in the comment a note is added to,
/// for "Implement `AsyncTimeout.cancel()`"). A typo fixed (`the the` -> `the`) takes a word out;
/// `Add CSV to the formats list` puts the step's word in; `Add some warnings about hashes`
/// puts in `warning`.
pub(super) fn rewords_beside_the_step(
    patch: &Patch<'_>,
    description: &str,
    is_addition: bool,
) -> bool {
    let Some(change) = Rewording::of(patch) else { return false };
    (change.taken_out.is_empty() || is_addition) && !change.touches_the_step(description)
}

/// Whether the patch only inserts words into comment lines that were there (it takes none
/// out), none of them a word of the step's first line or of its stem: commentary set down
/// beside what the step names (`// Note: ...`), which corrects nothing a comment said of it.
/// A table or a list in a comment corrected for the step replaces words or puts the step's in.
pub(super) fn only_inserts_beside_the_step(patch: &Patch<'_>, description: &str) -> bool {
    Rewording::of(patch)
        .is_some_and(|change| change.taken_out.is_empty() && !change.touches_the_step(description))
}

/// The words a revision of comment lines puts in and takes out.
struct Rewording {
    put_in: Vec<String>,
    taken_out: Vec<String>,
}

impl Rewording {
    /// The words the patch's added lines hold more often than its removed lines, and the
    /// reverse; `None` when it removes no line (comments only added: not a rewording), adds
    /// more lines than it removes (a sentence or a paragraph of its own is new text: the
    /// warning or the note a step may ask for) or the same words come back (layout inside
    /// comments).
    fn of(patch: &Patch<'_>) -> Option<Self> {
        let lines = patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines);
        let count = |kind: LineKind| lines.clone().filter(|l| l.kind == kind).count();
        if count(LineKind::Add) > count(LineKind::Remove) {
            return None;
        }
        let text = |kind: LineKind| -> String {
            lines
                .clone()
                .filter(|l| l.kind == kind)
                .map(|l| String::from_utf8_lossy(l.text).into_owned() + "\n")
                .collect()
        };
        let (removed, added) = (words(&text(LineKind::Remove)), words(&text(LineKind::Add)));
        if removed.is_empty() {
            return None;
        }
        let change =
            Self { put_in: difference(&added, &removed), taken_out: difference(&removed, &added) };
        (!change.put_in.is_empty() || !change.taken_out.is_empty()).then_some(change)
    }

    /// Whether a word put in or taken out is a word of the step's first line (of three
    /// letters or more) or shares its stem.
    fn touches_the_step(&self, description: &str) -> bool {
        let subject = description.trim_start().lines().next().unwrap_or_default();
        let step: Vec<String> =
            words(subject).into_keys().filter(|w| w.chars().count() >= 3).collect();
        let changed = self.put_in.iter().chain(&self.taken_out);
        changed.into_iter().any(|w| step.iter().any(|s| same_stem(s, w)))
    }
}

/// Whether two words are one, or one starts with the other and that one has four letters or
/// more (`hash` and `hashes`, `warn` and `warnings`).
fn same_stem(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || (short.chars().count() >= 4 && long.starts_with(short))
}

/// The words of `text`, lower-cased, with how often each occurs: runs of letters, digits and
/// underscores of two characters or more that are not only digits.
fn words(text: &str) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    let parts = text.split(|c: char| !c.is_alphanumeric() && c != '_');
    for word in parts.filter(|w| w.chars().count() >= 2 && !w.chars().all(|c| c.is_ascii_digit())) {
        *out.entry(word.to_lowercase()).or_insert(0) += 1;
    }
    out
}

/// The words `a` holds more often than `b`.
fn difference(a: &HashMap<String, usize>, b: &HashMap<String, usize>) -> Vec<String> {
    a.iter()
        .filter(|(w, n)| b.get(*w).copied().unwrap_or(0) < **n)
        .map(|(w, _)| w.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{only_inserts_beside_the_step, rewords_beside_the_step};
    use crate::patch::{ParseOptions, parse};

    fn edit(old: &str, new: &str) -> String {
        format!(
            "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1,2 +1,2 @@\n-{old}\n+{new}\n func parse() {{}}\n"
        )
    }

    fn rewords(step: &str, old: &str, new: &str, is_addition: bool) -> bool {
        let diff = edit(old, new);
        let parsed = parse(diff.as_bytes(), &ParseOptions::default());
        rewords_beside_the_step(&parsed.patch, step, is_addition)
    }

    #[test]
    fn a_comment_only_added_to_is_no_answer_but_a_typo_fixed_or_the_step_named_may_be() {
        let (old, note) = ("// Parse the header first", "// Note: parse the header first");
        assert!(rewords("Implement AsyncTimeout.cancel()", old, note, false));
        assert!(rewords("Bump docker/setup-qemu-action from 2 to 3", old, note, false));
        // The twins: a word taken out (a repetition, a typo), the step's word put in or taken
        // out, and the same words laid out again.
        let twice = "// GenMarkdownTreeCustom is the the same as GenMarkdownTree";
        let once = "// GenMarkdownTreeCustom is the same as GenMarkdownTree";
        assert!(!rewords("chore: remove repetitive words", twice, once, false));
        let formats = ("//! Formats: JSON, YAML", "//! Formats: JSON, YAML, CSV");
        assert!(!rewords("Add CSV to the formats list", formats.0, formats.1, true));
        assert!(!rewords("Add a note on parsing", old, note, false));
        assert!(!rewords("Wrap comments to 80 columns", old, "//  Parse the header first", false));
    }

    #[test]
    fn the_step_s_words_beside_the_words_changed_do_not_make_a_rewording_an_answer() {
        // `AsyncTimeout` is in the comment reworded, but the word put in (`note`) is not the
        // step's: the rewording answers no step about AsyncTimeout.
        let (old, note) =
            ("// Cancel the AsyncTimeout first", "// Note: cancel the AsyncTimeout first");
        assert!(rewords("Implement AsyncTimeout.cancel()", old, note, true));
        let inserts = |o: &str, n: &str, step: &str| {
            let diff = edit(o, n);
            let parsed = parse(diff.as_bytes(), &ParseOptions::default());
            only_inserts_beside_the_step(&parsed.patch, step)
        };
        assert!(inserts(old, note, "Fix AsyncTimeout"));
        // The twins: a word of the step put in, and a word of the comment replaced.
        let named = "// Cancel the AsyncTimeout first; cancel() is idempotent";
        assert!(!rewords("Implement AsyncTimeout.cancel()", old, named, true));
        assert!(!inserts(old, named, "Fix cancel twice"));
        let swapped = "// Stop the AsyncTimeout first";
        assert!(!inserts(old, swapped, "Fix AsyncTimeout"));
    }

    #[test]
    fn an_addition_is_not_answered_by_swapping_words_the_step_does_not_name() {
        let (old, new) = ("// Parse the header first", "// Read the header first");
        assert!(rewords("Add support for wasmJs", old, new, true));
        // The twin: a step of no stated kind may be a rewording (a revert of a typo).
        assert!(!rewords("Revert unexpected changes in decNumber code", old, new, false));
    }
}
