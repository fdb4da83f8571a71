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
/// ([`intent::is_close`]); without a repository nothing can be resolved, and a file-shaped name
/// is a weak finding.
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
    // Names in the first paragraph state the step; later ones are background (weak).
    let asked = intent::path_candidates(intent::first_paragraph(description));
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
