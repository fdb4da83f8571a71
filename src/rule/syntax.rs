//! Superficial-change detection on real syntax: the pre-image and post-image of a file are
//! parsed with tree-sitter and compared as token sequences, ignoring only trivia. A change is
//! whitespace-only when every token is the same, in the same order; comment-only when only
//! comment tokens differ and none of them is a directive (`// eslint-disable-next-line`,
//! `# noqa`, `//go:build`, a shebang), which is code. A moved or swapped statement changes the
//! order, so it is code; a space inside a string literal changes a token, so it is code; in an
//! indentation-sensitive language (Python) the indentation of each line is a token.

use regex::Regex;
use std::sync::LazyLock;
use tree_sitter::{Language, Node, Parser, TreeCursor};

/// What one file's edit amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Change {
    /// Only whitespace differs.
    Whitespace,
    /// Only comments (and whitespace) differ.
    Comment,
    /// Code changes, or metadata that is not text (create of an empty file, rename, mode).
    Code,
}

/// A language patchgate parses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grammar {
    /// Its name, for reports (`Rust`).
    pub name: &'static str,
    language: fn() -> Language,
    /// Whether a line's indentation is syntax (Python).
    is_indented: bool,
}

const fn grammar(name: &'static str, language: fn() -> Language, is_indented: bool) -> Grammar {
    Grammar { name, language, is_indented }
}

const RUST: Grammar = grammar("Rust", || tree_sitter_rust::LANGUAGE.into(), false);
const PYTHON: Grammar = grammar("Python", || tree_sitter_python::LANGUAGE.into(), true);
const JAVASCRIPT: Grammar =
    grammar("JavaScript", || tree_sitter_javascript::LANGUAGE.into(), false);
const TYPESCRIPT: Grammar =
    grammar("TypeScript", || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), false);
const TSX: Grammar = grammar("TSX", || tree_sitter_typescript::LANGUAGE_TSX.into(), false);
const GO: Grammar = grammar("Go", || tree_sitter_go::LANGUAGE.into(), false);
const C: Grammar = grammar("C", || tree_sitter_c::LANGUAGE.into(), false);
#[cfg(feature = "cpp")]
const CPP: Grammar = grammar("C++", || tree_sitter_cpp::LANGUAGE.into(), false);
const JAVA: Grammar = grammar("Java", || tree_sitter_java::LANGUAGE.into(), false);
const SHELL: Grammar = grammar("shell", || tree_sitter_bash::LANGUAGE.into(), false);

/// The grammar for a repository path, by extension (or `None`: the line fallback decides).
pub(super) fn grammar_for(path: &str) -> Option<Grammar> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => RUST,
        "py" | "pyi" => PYTHON,
        "js" | "mjs" | "cjs" | "jsx" => JAVASCRIPT,
        "ts" | "mts" | "cts" => TYPESCRIPT,
        "tsx" => TSX,
        "go" => GO,
        "c" | "h" => C,
        #[cfg(feature = "cpp")]
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "ipp" => CPP,
        "java" => JAVA,
        "sh" | "bash" => SHELL,
        _ => return None,
    })
}

/// Comments that tools read: they change what the code does or how it is checked.
static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        ^\#!                                             # shebang
      | eslint(?:-disable|-enable|\s) | @ts-(?:expect-error|ignore|nocheck|check)
      | \bnoqa\b | \btype:\s*ignore | \bpragma\b | \bpylint:\s | \bmypy:\s | \bfmt:\s*(?:off|on|skip)
      | \bisort:\s | \bnolint\b | \#nosec\b | ^//\s*go:[a-z] | ^//\s*\+build\b | ^//export\s
      | (?:istanbul|c8|v8)\s+ignore | prettier-ignore | \bNOLINT | clang-format\s+(?:off|on)
      | \bshellcheck\s | @flow\b | @jsx\b | webpackChunkName | @vite-ignore | \#__PURE__
      | \bglobal\s+\w | \bjshint\b | \bcoding[:=] | \bcov(?:erage)?:\s*ignore
      | ^//\s*\+(?:k8s|kubebuilder|genclient) | \brustfmt::skip | \bclippy::
      | \@(?:SuppressWarnings|suppress)\b",
    )
    .expect("the directive pattern is a valid regex")
});

/// One token of a file, trivia set apart.
#[derive(Debug, PartialEq, Eq)]
enum Token<'t> {
    /// Any code token (a string literal is one token, spaces inside it included).
    Code(&'t [u8]),
    /// The column of a line's first code token, in an indentation-sensitive language.
    Indent(usize),
    /// A comment that is not a directive (or a Python docstring).
    Comment(&'t [u8]),
}

/// Compare two images of a file, or `None` when one cannot be parsed at all.
pub(super) fn compare(grammar: Grammar, old: &[u8], new: &[u8]) -> Option<Change> {
    let (old, new) = (tokens(grammar, old)?, tokens(grammar, new)?);
    let is_code = |t: &&Token<'_>| !matches!(t, Token::Comment(_));
    if !old.iter().filter(is_code).eq(new.iter().filter(is_code)) {
        return Some(Change::Code);
    }
    let comments = |tokens: &[Token<'_>]| -> Vec<u8> {
        let text = tokens.iter().filter_map(|t| match t {
            Token::Comment(text) => Some(*text),
            _ => None,
        });
        text.flatten().copied().filter(|b| !b.is_ascii_whitespace()).collect()
    };
    Some(if comments(&old) == comments(&new) { Change::Whitespace } else { Change::Comment })
}

fn tokens(grammar: Grammar, text: &[u8]) -> Option<Vec<Token<'_>>> {
    let mut parser = Parser::new();
    parser.set_language(&(grammar.language)()).ok()?;
    let tree = parser.parse(text, None)?;
    let mut walk = Walk { text, grammar, out: Vec::new(), last_row: None };
    walk.run(&mut tree.walk());
    Some(walk.out)
}

/// A depth-first walk collecting the leaves (and the atoms: comments, strings) in order.
struct Walk<'t> {
    text: &'t [u8],
    grammar: Grammar,
    out: Vec<Token<'t>>,
    /// The row the last code token ended on.
    last_row: Option<usize>,
}

impl<'t> Walk<'t> {
    fn run(&mut self, cursor: &mut TreeCursor<'_>) {
        loop {
            if self.visit(cursor.node()) && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// Record `node` if it is a token; whether to descend into it.
    fn visit(&mut self, node: Node<'_>) -> bool {
        let kind = node.kind();
        let text = &self.text[node.byte_range()];
        if kind.contains("comment") || self.is_docstring(node) {
            let trimmed = String::from_utf8_lossy(text);
            if DIRECTIVE.is_match(trimmed.trim_start()) {
                self.code(node, text);
            } else {
                self.out.push(Token::Comment(text));
            }
            return false;
        }
        let is_atom =
            kind.contains("string") || kind.contains("char_literal") || kind == "heredoc_body";
        if is_atom || node.child_count() == 0 {
            if !text.iter().all(u8::is_ascii_whitespace) {
                self.code(node, text);
            }
            return false;
        }
        true
    }

    fn code(&mut self, node: Node<'_>, text: &'t [u8]) {
        let start = node.start_position();
        if self.grammar.is_indented && self.last_row != Some(start.row) {
            self.out.push(Token::Indent(start.column));
        }
        self.last_row = Some(node.end_position().row);
        self.out.push(Token::Code(text));
    }

    /// A Python string standing alone as a statement: documentation, not code.
    fn is_docstring(&self, node: Node<'_>) -> bool {
        self.grammar.is_indented
            && node.kind() == "expression_statement"
            && node.named_child_count() == 1
            && node.named_child(0).is_some_and(|c| c.kind() == "string")
    }
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
