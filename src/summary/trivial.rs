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
        // `fun f(): Int {}`, `fn f() -> u8 {}`: a body that cannot give the declared result
        // is code not written yet.
        [] if declares_result(node, text, grammar) => {
            Some(Trivial { form: TrivialForm::Placeholder, text: String::new() })
        }
        [] => Some(Trivial { form: TrivialForm::Empty, text: String::new() }),
        // A `match` or an `if` whose one arm is a placeholder refuses a case; its other arms
        // are the function's code.
        [one] if branches(*one) => None,
        [one] => classify(&one_line(&text[one.byte_range()])),
        _ => None,
    }
}

/// Whether a statement branches (`match`, `if`, `switch`, `when`, `case`, `unless`, `try`, a
/// conditional expression), itself or as the one expression of an expression statement.
fn branches(node: Node<'_>) -> bool {
    const BRANCHING: [&str; 9] =
        ["match", "if", "switch", "when", "case", "unless", "try", "conditional", "ternary"];
    let is_branching = |kind: &str| kind.split('_').any(|part| BRANCHING.contains(&part));
    let inner = (node.kind() == "expression_statement" && node.named_child_count() == 1)
        .then(|| node.named_child(0))
        .flatten();
    is_branching(node.kind()) || inner.is_some_and(|n| is_branching(n.kind()))
}

/// The member initializer list of a constructor (C++'s `: Validator(name, check)`, C#'s `:
/// base(name)`), its whitespace collapsed: code that runs before the body, so a body left empty
/// beside it may have moved there.
pub fn initializers(node: Node<'_>, text: &[u8]) -> Option<String> {
    let mut cursor = node.walk();
    let list = node
        .named_children(&mut cursor)
        .find(|c| matches!(c.kind(), "field_initializer_list" | "constructor_initializer"))?;
    (list.named_child_count() > 0).then(|| one_line(&text[list.byte_range()]))
}

/// Whether the function `node`'s body is one statement returning a value-initialized object
/// (`return std::string{};`, `return Config{};`): a default value, which computes nothing.
pub fn returns_default(node: Node<'_>, text: &[u8], grammar: Grammar) -> bool {
    static DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:return\s+)?[A-Za-z_][\w:]*(?:<[^;{}]*>)?\s*\{\s*\}\s*;?$")
            .expect("the default-value pattern is valid")
    });
    if !matches!(grammar.definition(node), Some("function" | "method")) {
        return false;
    }
    let Some(body) = body_of(node) else { return false };
    match statements(body, grammar).as_slice() {
        [one] => DEFAULT.is_match(&one_line(&text[one.byte_range()])),
        _ => false,
    }
}

/// Whether the definition `node` is a function or method declared without a body: a
/// signature in an interface or a trait, an abstract method, Kotlin's `expect fun`. A Ruby
/// method without statements has no body node and is an empty definition, not a declaration.
pub fn is_declaration(node: Node<'_>, grammar: Grammar) -> bool {
    matches!(grammar.definition(node), Some("function" | "method"))
        && grammar.name != "Ruby"
        && body_of(node).is_none()
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

/// Whether the function `node` declares a result other than nothing (`-> u8`, `: Int`, Go's
/// `error`, Java's `int`; not `()`, `void`, `Unit`, `any`): a language with such declarations
/// refuses an empty body for it. C and C++ accept one, and are left out.
fn declares_result(node: Node<'_>, text: &[u8], grammar: Grammar) -> bool {
    let declared = match grammar.name {
        "Rust" | "TypeScript" | "TSX" => node.child_by_field_name("return_type"),
        "Go" => node.child_by_field_name("result"),
        "Java" => node.child_by_field_name("type"),
        "C#" => node.child_by_field_name("returns").or_else(|| node.child_by_field_name("type")),
        "Kotlin" => {
            // The result's type follows the parameters (a receiver's type comes before them).
            let mut cursor = node.walk();
            let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
            let parameters = children.iter().position(|c| c.kind() == "function_value_parameters");
            let result = |c: &&Node<'_>| !matches!(c.kind(), "function_body" | "type_constraints");
            parameters.and_then(|at| children[at + 1..].iter().find(result)).copied()
        }
        _ => None,
    };
    let Some(declared) = declared else { return false };
    let written = String::from_utf8_lossy(&text[declared.byte_range()]);
    let written = written.trim_start_matches([':', '-', '>', ' ']).trim();
    let nothing = ["()", "void", "Unit", "any", "unknown", "undefined", ""];
    !nothing.contains(&written) && !written.contains("void")
}

/// The body of a function-like node: its `body` field, the value of `const f = () => x` or
/// `export default () => x`, or a child that is a body by its kind (Kotlin's `function_body`,
/// which its grammar gives no field name).
fn body_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(body) = node.child_by_field_name("body") {
        return Some(body);
    }
    if let Some(value) = node.child_by_field_name("value") {
        return value.child_by_field_name("body");
    }
    (0..node.named_child_count())
        .filter_map(|i| node.named_child(u32::try_from(i).ok()?))
        .find(|c| c.kind().ends_with("_body"))
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

/// A node that holds statements rather than being one (Go's block holds a `statement_list`).
fn is_block(kind: &str) -> bool {
    kind.contains("block")
        || kind.contains("body")
        || matches!(
            kind,
            "statements"
                | "statement_list"
                | "compound_statement"
                | "suite"
                | "arrow_expression_clause"
        )
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
