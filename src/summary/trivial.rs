//! Bodies that do nothing: a function or method whose body, read on the syntax tree, is empty,
//! one do-nothing statement (`pass`, `...`, a bare `return`), one constant or default value, or
//! one placeholder that says the code is missing.

use super::grammar::Grammar;
use super::noop;
use crate::finding::{Trivial, TrivialForm};
use regex::Regex;
use std::sync::LazyLock;
use tree_sitter::Node;

/// The trivial body of the definition `node`, when it has a body and the body is trivial.
/// Types and modules have no trivial body to speak of (an empty exception class is complete).
pub fn of_definition(node: Node<'_>, text: &[u8], grammar: Grammar) -> Option<Trivial> {
    let label = grammar.definition(node)?;
    if !matches!(label, "function" | "method") {
        return None;
    }
    let Some(body) = body_of(node) else {
        // `def f; end`: a Ruby method without statements has no body node.
        let is_empty = grammar.name == "Ruby";
        return is_empty.then(|| Trivial { form: TrivialForm::Empty, text: String::new() });
    };
    let statements = statements(body, grammar);
    match statements.as_slice() {
        [] => Some(Trivial { form: TrivialForm::Empty, text: String::new() }),
        [one] => classify(&one_line(&text[one.byte_range()])),
        _ => None,
    }
}

/// Whether the definition `node` is a function or method whose body is one statement that
/// refuses the call: it raises or throws, or returns an error (`Err(..)`, Go's `return nil,
/// fmt.Errorf(..)`). Replacing such a body by one that succeeds (`Ok(())`) accepts what was
/// refused: a change of behaviour, not a body emptied.
pub fn refuses(node: Node<'_>, text: &[u8], grammar: Grammar) -> bool {
    if !matches!(grammar.definition(node), Some("function" | "method")) {
        return false;
    }
    let Some(body) = body_of(node) else { return false };
    match statements(body, grammar).as_slice() {
        [one] => is_refusal(&one_line(&text[one.byte_range()])),
        _ => false,
    }
}

/// A statement that raises, throws, or returns an error value: `raise ValueError(..)`, `throw
/// new TypeError(..)`, `Err(..)`, `return Err(..)`, `return nil, errors.New(..)`, `return
/// fmt.Errorf(..)`.
fn is_refusal(statement: &str) -> bool {
    static REFUSAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)^(?:
                (?:raise|throw)\b.+
              | (?:return\s+)?Err\(.*\)
              | return\s+(?:[\w.]+\s*,\s*)*(?:errors\.New|fmt\.Errorf|[\w.]*(?:Err|Error)\w*)\(.*\)
            )\s*;?$",
        )
        .expect("the refusal pattern is a valid regex")
    });
    REFUSAL.is_match(statement.trim())
}

/// The body of a function-like node: its `body` field, or the value of `const f = () => x`.
fn body_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(body) = node.child_by_field_name("body") {
        return Some(body);
    }
    let value = node.child_by_field_name("value")?;
    value.child_by_field_name("body")
}

/// The statements of a body: a block's named children less comments (and a Python
/// docstring), a block standing alone in a body read as that block (`fun f() { ... }`), or the
/// body itself when it is an expression (`() => 0`).
fn statements<'n>(body: Node<'n>, grammar: Grammar) -> Vec<Node<'n>> {
    let mut body = body;
    loop {
        if !is_block(body.kind()) {
            return vec![body];
        }
        let mut cursor = body.walk();
        let mut out: Vec<Node<'n>> =
            body.named_children(&mut cursor).filter(|c| !c.kind().contains("comment")).collect();
        if grammar.name == "Python" && out.first().is_some_and(is_docstring) {
            out.remove(0);
        }
        match out.as_slice() {
            [one] if is_block(one.kind()) => body = *one,
            _ => return out,
        }
    }
}

/// A node that holds statements rather than being one.
fn is_block(kind: &str) -> bool {
    kind.contains("block")
        || kind.contains("body")
        || matches!(kind, "statements" | "compound_statement" | "suite" | "arrow_expression_clause")
}

fn is_docstring(node: &Node<'_>) -> bool {
    node.kind() == "expression_statement"
        && node.named_child_count() == 1
        && node.named_child(0).is_some_and(|c| c.kind() == "string")
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
