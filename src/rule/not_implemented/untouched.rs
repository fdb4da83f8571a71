//! `named_file_untouched`: the step names files and the patch touches none of them.

use super::Finding;
use crate::finding::CheckCode;
use crate::rule::input::short_list;
use crate::rule::{Input, RuleId, Violation, intent};

/// The step names files, and the patch touches none of them (nor anything below them), nor
/// names one in a changed line (the script that writes it, the manifest that lists it), nor
/// changes a file that names one in the base tree (the code that parses it). A name
/// counts only when it resolves to a path of the base tree (exact, or unique by basename or
/// `dir/stem`): `Node.js`, `I/O` and `actions/checkout` are prose. The finding is strong when
/// a name in the description's first paragraph resolves by its last components as written
/// ([`intent::is_close`]), other than as what the change is for or adds to a place
/// ([`is_named_as_purpose`]); without a repository nothing can be resolved, and a file-shaped
/// name is a weak finding.
pub(super) fn untouched_files(input: &Input<'_>, description: &str) -> Option<Finding> {
    let candidates = intent::path_candidates(description);
    if candidates.is_empty() {
        return None;
    }
    let touched: Vec<&str> = input
        .paths()
        .iter()
        .filter_map(|p| p.checked.as_ref().ok().map(crate::path::RepoPath::as_str))
        .collect();
    let is_addressed = |n: &String| {
        intent::is_covered(n, &touched)
            || input.usable_patch().is_some_and(|p| intent::is_referenced(n, p))
    };
    if touched.is_empty() || candidates.iter().any(is_addressed) {
        return None;
    }
    // The code that reads or writes the file named (a parser of `config.ru` files) is changed.
    if input.base.is_some_and(|b| candidates.iter().any(|n| intent::is_named_by(n, &touched, b))) {
        return None;
    }
    // Names in the first paragraph state the step; later ones are background (weak), and so
    // is a name given as what the change serves or includes rather than where it is made.
    let paragraph = intent::first_paragraph(description);
    let mut asked = intent::path_candidates(paragraph);
    asked.retain(|name| !is_named_as_purpose(paragraph, name));
    let (named, is_strong): (Vec<String>, bool) = match input.base {
        Some(base) => {
            let mut named: Vec<String> = Vec::new();
            for found in candidates.iter().filter_map(|c| intent::resolve(c, base)) {
                if !named.contains(&found) {
                    named.push(found);
                }
            }
            let is_asked = asked
                .iter()
                .any(|c| intent::resolve(c, base).is_some_and(|found| intent::is_close(c, &found)));
            (named, is_asked)
        }
        None => (candidates.into_iter().filter(|c| intent::is_file_shaped(c)).collect(), false),
    };
    let first = named.first()?.clone();
    let violation = Violation::new(
        RuleId::NotImplemented,
        CheckCode::NamedFileUntouched,
        format!(
            "the step names {}, but the patch changes only {}",
            short_list(&named),
            short_list(&touched)
        ),
    )
    .in_file(first);
    Some(if is_strong { Finding::strong(violation) } else { Finding::weak(violation) })
}

/// Whether the step's first paragraph writes `name` only as what the change serves (after
/// `for`: "fixed contributors avatar rendering for CHANGELOG.md", the script that writes it is
/// what changes) or as what an addition puts into a place ("Add tests and requirements.txt to
/// sdist": the packaging that lists it changes). Neither says the change is made in that file.
fn is_named_as_purpose(paragraph: &str, name: &str) -> bool {
    let lower = paragraph.to_ascii_lowercase();
    let subject_end = lower.find('\n').unwrap_or(lower.len());
    let is_addition = crate::rule::ask::verb_and_object(paragraph)
        .is_some_and(|(verb, _)| matches!(verb.as_str(), "add" | "include"));
    let mut found = paragraph.match_indices(name).map(|(at, _)| at).peekable();
    found.peek().is_some()
        && found.all(|at| {
            let before = lower[..at].trim_end();
            let before = before.strip_suffix(" the").unwrap_or(before);
            let is_for = before == "for" || before.ends_with(" for");
            // `Add X to Y`: a ` to ` after the name, in the subject line.
            let rest = lower.get(at + name.len()..subject_end).unwrap_or_default();
            is_for
                || (is_addition
                    && at < subject_end
                    && (rest.contains(" to ") || rest.contains(" into ")))
        })
}
