//! Branch names: the agent contract's `validate_branch_name` (empty, `..`, absolute, control
//! characters, the allowed shapes) plus git's own ref-name rules, as `git check-ref-format
//! --branch` applies them (refs.c `check_refname_component` and `strbuf_check_branch_ref`).

use super::RejectedPattern;
use super::patterns::Patterns;

/// The first reason `name` is not an acceptable branch name, with the part that matched.
/// `shapes` empty means git's rules only.
pub(super) fn find(name: &str, shapes: &Patterns) -> Option<(RejectedPattern, String)> {
    find_seed_rule(name)
        .or_else(|| super::hallucination::find(super::ArgType::Path, name))
        .or_else(|| find_git_rule(name))
        .or_else(|| find_shape(name, shapes))
}

/// The specification's own checks, in its order, so its cases get its reasons.
fn find_seed_rule(name: &str) -> Option<(RejectedPattern, String)> {
    if name.is_empty() {
        return Some((RejectedPattern::EmptyValue, String::new()));
    }
    if name.contains("..") {
        return Some((RejectedPattern::PathTraversal, "..".into()));
    }
    if name.starts_with('/') {
        return Some((RejectedPattern::AbsolutePath, "/".into()));
    }
    None
}

fn find_git_rule(name: &str) -> Option<(RejectedPattern, String)> {
    use RejectedPattern as P;
    if let Some(c) = name.chars().find(|c| " ~^:?*[\\".contains(*c)) {
        return Some((P::GitRefForbiddenCharacter, c.to_string()));
    }
    if name.contains("@{") {
        return Some((P::GitRefAtBrace, "@{".into()));
    }
    if name == "@" || name == "HEAD" {
        return Some((P::GitRefReservedName, name.to_string()));
    }
    if name.starts_with('-') {
        return Some((P::GitRefLeadingDash, "-".into()));
    }
    if name.ends_with('/') || name.contains("//") {
        return Some((P::GitRefSlash, "/".into()));
    }
    if name.ends_with('.') {
        return Some((P::GitRefTrailingDot, ".".into()));
    }
    find_component_rule(name)
}

#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "git's `.lock` rule is case-sensitive"
)]
fn find_component_rule(name: &str) -> Option<(RejectedPattern, String)> {
    for component in name.split('/') {
        if component.starts_with('.') {
            return Some((RejectedPattern::GitRefDotComponent, component.to_string()));
        }
        if component.ends_with(".lock") {
            return Some((RejectedPattern::GitRefLockSuffix, component.to_string()));
        }
    }
    None
}

fn find_shape(name: &str, shapes: &Patterns) -> Option<(RejectedPattern, String)> {
    let fits = shapes.is_empty() || shapes.matching(name).next().is_some();
    (!fits).then(|| (RejectedPattern::BranchShape, name.to_string()))
}
