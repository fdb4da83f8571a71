//! Bodies that do nothing: a function or method whose body, read on the syntax tree, is empty,
//! one do-nothing statement (`pass`, `...`, a bare `return`), one constant or default value, or
//! one placeholder that says the code is missing.

use super::grammar::Grammar;
use super::noop;
use crate::finding::{Trivial, TrivialForm};
use tree_sitter::Node;

/// The trivial body of the definition `node`, when it has a body and the body is trivial.
/// Types and modules have no trivial body to speak of (an empty exception class is complete).
pub fn of_definition(node: Node<'_>, text: &[u8], grammar: Grammar) -> Option<Trivial> {
    let label = grammar.definition(node)?;
    if !matches!(label, "function" | "method") {
        return None;
    }
    let body = body_of(node)?;
    let statements = statements(body, grammar);
    match statements.as_slice() {
        [] => Some(Trivial { form: TrivialForm::Empty, text: String::new() }),
        [one] => classify(&one_line(&text[one.byte_range()])),
        _ => None,
    }
}

/// The body of a function-like node: its `body` field, or the value of `const f = () => x`.
fn body_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(body) = node.child_by_field_name("body") {
        return Some(body);
    }
    let value = node.child_by_field_name("value")?;
    value.child_by_field_name("body")
}

/// The statements of a body: a block's named children less comments (and a Python docstring),
/// or the body itself when it is an expression (`() => 0`).
fn statements<'n>(body: Node<'n>, grammar: Grammar) -> Vec<Node<'n>> {
    let is_block = body.kind().contains("block")
        || body.kind().contains("body")
        || matches!(body.kind(), "statement_block" | "compound_statement" | "suite");
    if !is_block {
        return vec![body];
    }
    let mut cursor = body.walk();
    let mut out: Vec<Node<'n>> =
        body.named_children(&mut cursor).filter(|c| !c.kind().contains("comment")).collect();
    let is_docstring = |n: &Node<'_>| {
        n.kind() == "expression_statement"
            && n.named_child_count() == 1
            && n.named_child(0).is_some_and(|c| c.kind() == "string")
    };
    if grammar.name == "Python" && out.first().is_some_and(is_docstring) {
        out.remove(0);
    }
    out
}

/// Collapse a statement's whitespace to single spaces.
fn one_line(text: &[u8]) -> String {
    String::from_utf8_lossy(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What one statement amounts to, when it is trivial.
fn classify(statement: &str) -> Option<Trivial> {
    let text = statement.to_owned();
    let bare = statement.trim_end_matches(';').trim();
    let form = if noop::is_placeholder(statement.as_bytes()) {
        TrivialForm::Placeholder
    } else if matches!(bare, "pass" | "..." | "return" | "") {
        TrivialForm::Nothing
    } else if noop::is_constant(bare) || noop::is_noop(bare) {
        TrivialForm::Constant
    } else {
        return None;
    };
    Some(Trivial { form, text })
}
