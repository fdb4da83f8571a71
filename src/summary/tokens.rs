//! A file image read on its syntax tree: its tokens in order with trivia set apart (a string
//! literal is one token, spaces inside it included; comments and directive comments are their
//! own kinds; in an indentation-sensitive language each logical line's indentation level is a
//! token), and the definitions it holds with the tokens each spans.

use super::directive;
use super::grammar::{self, Grammar};
use super::rustdoc;
use super::trivial;
use crate::finding::Trivial;
use tree_sitter::{Node, Parser, TreeCursor};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Code (an identifier when `is_name`).
    Code,
    /// The indentation level of a logical line's first code token, in an indentation-sensitive
    /// language: how many indentation columns are open there, as Python's tokenizer counts
    /// them (a block re-indented as a whole keeps its levels).
    Indent,
    /// A comment that tools do not read (or a Python docstring).
    Comment,
    /// A comment tools read (`# noqa`, `// @ts-ignore`, a shebang): code, shown apart.
    Directive,
    /// A node of prose's structure (a list item), by its kind in `column`.
    Structure,
}

/// One token of a file.
#[derive(Clone, Copy, Debug)]
pub struct Token<'t> {
    pub kind: Kind,
    pub text: &'t [u8],
    /// Whether it is an identifier.
    pub is_name: bool,
    /// Its first line, 0-based.
    pub row: usize,
    /// The level of an [`Kind::Indent`] token; the node kind of a [`Kind::Structure`] one.
    pub column: usize,
}

/// A definition of the image.
#[derive(Clone, Debug)]
pub struct Definition {
    /// `function`, `method`, `class`, ...
    pub kind: &'static str,
    /// Its name qualified by the definitions around it.
    pub name: String,
    /// Its own name.
    pub own_name: String,
    /// Its tokens: `tokens[start..end]`.
    pub start: usize,
    pub end: usize,
    /// Its lines, 0-based, first and last.
    pub rows: (usize, usize),
    /// The line its name is on, 0-based: past the annotations and modifiers it opens with
    /// (Kotlin's or Java's `@Suppress(..)` above a `fun`), the same above many definitions.
    pub name_row: usize,
    /// Its body, when trivial.
    pub trivial: Option<Trivial>,
    /// Whether its body only raises or returns an error ([`trivial::refuses`]).
    pub refuses: bool,
    /// Index of the definition it sits in.
    pub parent: Option<usize>,
    /// Whether it only declares a function or method, without a body (an interface's or a
    /// trait's method signature).
    pub is_declaration: bool,
    /// Whether an annotation or attribute marks it a test ([`grammar::is_marked_test`]).
    pub is_test: bool,
    /// Its member initializer list, when it has one ([`trivial::initializers`]).
    pub initializers: Option<String>,
    /// Whether its body only returns a value-initialized object ([`trivial::returns_default`]).
    pub returns_default: bool,
}

/// A parsed image.
#[derive(Debug)]
pub struct Image<'t> {
    pub tokens: Vec<Token<'t>>,
    pub definitions: Vec<Definition>,
}

/// Parse `text` with `grammar`, or `None` when the parser gives up.
pub fn read(grammar: Grammar, text: &[u8]) -> Option<Image<'_>> {
    let mut parser = Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    let tree = parser.parse(text, None)?;
    let mut walk = Walk {
        text,
        grammar,
        tokens: Vec::new(),
        defs: Vec::new(),
        open: Vec::new(),
        last: None,
        covered: 0,
        row: (0, 0),
        indents: Vec::new(),
        brackets: 0,
        doc_fence: None,
    };
    walk.run(&mut tree.walk());
    walk.fill_gap(text.len());
    Some(Image { tokens: walk.tokens, definitions: walk.defs })
}

/// The column of the [`Kind::Structure`] token that marks a loose list.
const LOOSE: usize = usize::MAX;

/// What a tab counts for in a code block's indentation: apart from any run of spaces.
const TAB: usize = 1 << 16;

/// Whether a blank line separates two items of the Markdown list `node`.
fn is_loose(node: Node<'_>, text: &[u8]) -> bool {
    let mut cursor = node.walk();
    let items: Vec<Node<'_>> =
        node.named_children(&mut cursor).filter(|c| c.kind() == "list_item").collect();
    items.windows(2).any(|pair| {
        let between = &text[pair[0].start_byte()..pair[1].start_byte()];
        let end = between.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
        memchr::memchr_iter(b'\n', &between[end..]).count() >= 2
    })
}

/// An HTML comment standing as a Markdown block (`<!-- markdownlint-disable -->`).
fn is_markup_comment(kind: &str, text: &[u8]) -> bool {
    let text = text.trim_ascii();
    kind == "html_block" && text.starts_with(b"<!--") && text.ends_with(b"-->")
}

/// A depth-first walk collecting the leaves (and the atoms: comments, strings) in order.
struct Walk<'t> {
    text: &'t [u8],
    grammar: Grammar,
    tokens: Vec<Token<'t>>,
    defs: Vec<Definition>,
    /// Definitions the walk is inside, innermost last, with their end byte.
    open: Vec<(usize, usize)>,
    /// The row the last code token ended on.
    last: Option<usize>,
    /// The end of the last token: text past it that no leaf holds (a grammar that keeps a
    /// quoted string's inside in its parent node) is taken word by word.
    covered: usize,
    /// A byte offset and its row, to count rows from.
    row: (usize, usize),
    /// The indentation columns open at the last logical line, outermost first.
    indents: Vec<usize>,
    /// How many brackets are open: a line inside them continues a logical line, and its
    /// indentation is layout, not syntax.
    brackets: usize,
    /// The fenced code block open in the Rust doc comment being read.
    doc_fence: Option<rustdoc::Fence>,
}

impl<'t> Walk<'t> {
    fn run(&mut self, cursor: &mut TreeCursor<'_>) {
        loop {
            if self.visit(cursor.node()) && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    self.close_all();
                    return;
                }
            }
        }
    }

    /// Record `node` if it is a token; whether to descend into it.
    fn visit(&mut self, node: Node<'_>) -> bool {
        self.close_before(node.start_byte());
        let kind = node.kind();
        let text = &self.text[node.byte_range()];
        if kind.contains("comment") || self.is_docstring(node) || is_markup_comment(kind, text) {
            self.push_comment(node, text);
            return false;
        }
        // A doc comment's fence ends with it: rustdoc reads the doc comments before an item as
        // one text (each `///` line is a node of its own), up to the item.
        self.doc_fence = None;
        // `#[allow(dead_code)]`, `@SuppressWarnings("all")`: code that silences a checker, read
        // as the directive comment `# noqa` is.
        if directive::is_silencing_attribute(kind, text) {
            self.push(node, text, Kind::Directive);
            return false;
        }
        if let Some((label, inner)) = self.definition_at(node) {
            self.open_definition(node, inner, label);
        }
        // A code block prints its text as written: its lines and their indentation are content.
        if self.grammar.is_prose && matches!(kind, "code_fence_content" | "indented_code_block") {
            self.push_code_block(node, text);
            return false;
        }
        // Adjacent literals the compiler joins (`"a" "b"` over two lines, in Python, C, C++)
        // are read one by one: the layout between them is whitespace.
        let is_atom = (kind.contains("string") && kind != "concatenated_string")
            || kind.contains("char_literal")
            || kind == "heredoc_body";
        // Markdown's raw HTML blocks are text the block grammar does not split: read as prose,
        // so an HTML comment inside one (a contributors table) is a comment. A table's cell is
        // prose too: its words, not its characters (a space that lets a long cell wrap counts).
        if self.grammar.is_prose
            && matches!(kind, "inline" | "text" | "html_block" | "pipe_table_cell")
        {
            self.push_prose(node, text);
            return false;
        }
        if is_atom || node.child_count() == 0 {
            if !text.iter().all(u8::is_ascii_whitespace) {
                self.push(node, text, Kind::Code);
            }
            return false;
        }
        if self.grammar.is_prose && node.is_named() {
            self.push_structure(node);
        }
        true
    }

    /// A comment, a docstring or a markup comment: a directive, a docstring with doctests, a
    /// Rust doc comment (its code samples read as code) or a plain comment.
    fn push_comment(&mut self, node: Node<'_>, text: &'t [u8]) {
        if directive::is_directive(text, node.start_position().row) {
            self.push(node, text, Kind::Directive);
        } else if self.is_docstring(node) && memchr::memmem::find(text, b">>>").is_some() {
            self.push_docstring(node, text);
        } else if self.grammar.name == "Rust" && rustdoc::is_doc_comment(text) {
            self.push_rust_doc(node, text);
        } else {
            self.push(node, text, Kind::Comment);
        }
    }

    /// The structure of prose with markup, a token of its own: a list item indented under
    /// another is nested in it.
    fn push_structure(&mut self, node: Node<'_>) {
        let (row, column) = (node.start_position().row, usize::from(node.kind_id()));
        self.tokens.push(Token { kind: Kind::Structure, text: &[], is_name: false, row, column });
        // A loose list (a blank line between two items) renders its items as paragraphs.
        if node.kind() == "list" && is_loose(node, self.text) {
            self.tokens.push(Token { column: LOOSE, ..self.tokens[self.tokens.len() - 1] });
        }
    }

    /// A code block's lines, each as its indentation (relative to the block's least, a tab
    /// apart from spaces) and its text with the spaces inside it; a blank line as an empty
    /// token. Trailing whitespace, which prints nothing, is dropped.
    fn push_code_block(&mut self, node: Node<'_>, text: &'t [u8]) {
        let start = node.start_position().column;
        let lines: Vec<(usize, &'t [u8])> = text
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, line)| (if i == 0 { start } else { 0 }, line.trim_ascii_end()))
            .collect();
        let indent = |(pad, line): &(usize, &[u8])| -> usize {
            let blanks = line.iter().take_while(|b| matches!(b, b' ' | b'\t'));
            pad + blanks.map(|&b| if b == b'\t' { TAB } else { 1 }).sum::<usize>()
        };
        let least = lines.iter().filter(|(_, l)| !l.is_empty()).map(indent).min().unwrap_or(0);
        let end = lines.iter().rposition(|(_, l)| !l.is_empty()).map_or(0, |i| i + 1);
        for line in &lines[..end] {
            let code = line.1.trim_ascii_start();
            if !code.is_empty() {
                let row = node.start_position().row;
                let column = indent(line) - least;
                self.tokens.push(Token {
                    kind: Kind::Indent,
                    text: &[],
                    is_name: false,
                    row,
                    column,
                });
            }
            self.push(node, code, Kind::Code);
        }
    }

    /// Prose, word by word (a paragraph re-wrapped is whitespace), and the HTML comments inside
    /// it (`<!-- ... -->` in a paragraph, which nothing renders) as comments.
    fn push_prose(&mut self, node: Node<'_>, text: &'t [u8]) {
        let mut rest = text;
        while !rest.is_empty() {
            let open = memchr::memmem::find(rest, b"<!--");
            let close = open.and_then(|at| {
                memchr::memmem::find(&rest[at + 4..], b"-->").map(|end| at + 4 + end + 3)
            });
            let (words, comment) = match (open, close) {
                (Some(at), Some(end)) => (&rest[..at], Some(&rest[at..end])),
                _ => (rest, None),
            };
            for word in words.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()) {
                self.push(node, word, Kind::Code);
            }
            let Some(comment) = comment else { break };
            let row = node.start_position().row;
            let kind =
                if directive::is_directive(comment, row) { Kind::Directive } else { Kind::Comment };
            self.push(node, comment, kind);
            rest = &rest[words.len() + comment.len()..];
        }
    }

    /// A docstring holding doctest examples: each example (a `>>>` line, its `...`
    /// continuations and the expected output up to a blank line, what `doctest` and `pytest
    /// --doctest-modules` run and compare) word by word as code, the prose around it as comments.
    fn push_docstring(&mut self, node: Node<'_>, text: &'t [u8]) {
        let mut in_example = false;
        self.push_lines(node, text, |line| {
            let trimmed = line.trim_ascii_start();
            if trimmed.starts_with(b">>>") {
                in_example = true;
            } else if trimmed.is_empty() {
                in_example = false;
            }
            in_example
        });
    }

    /// A Rust doc comment line: its doctests ([`rustdoc`], a fence open over several `///`
    /// lines) word by word as code, the prose and other fences as comments.
    fn push_rust_doc(&mut self, node: Node<'_>, text: &'t [u8]) {
        let mut fence = self.doc_fence.take();
        self.push_lines(node, text, |line| rustdoc::is_doctest_line(line, &mut fence));
        self.doc_fence = fence;
    }

    /// The comment `text` line by line: the lines `is_code` says are code word by word as code,
    /// each run of the others as one comment.
    fn push_lines(
        &mut self,
        node: Node<'_>,
        text: &'t [u8],
        mut is_code: impl FnMut(&[u8]) -> bool,
    ) {
        let (mut prose_from, mut at) = (0, 0);
        for line in text.split_inclusive(|&b| b == b'\n') {
            if is_code(line) {
                if prose_from < at {
                    self.push(node, &text[prose_from..at], Kind::Comment);
                }
                for word in line.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()) {
                    self.push(node, word, Kind::Code);
                }
                prose_from = at + line.len();
            }
            at += line.len();
        }
        if prose_from < text.len() {
            self.push(node, &text[prose_from..], Kind::Comment);
        }
    }

    fn push(&mut self, node: Node<'_>, text: &'t [u8], kind: Kind) {
        let offset = text.as_ptr().addr() - self.text.as_ptr().addr();
        self.fill_gap(offset);
        self.covered = self.covered.max(offset + text.len());
        let start = node.start_position();
        // Indentation belongs to code lines; a directive comment has none of its own.
        let is_code = kind == Kind::Code;
        if is_code && self.grammar.is_indented && self.last != Some(start.row) && self.brackets == 0
        {
            let indent = Token {
                kind: Kind::Indent,
                text,
                is_name: false,
                row: start.row,
                column: self.level_at(start.column),
            };
            self.tokens.push(indent);
        }
        if is_code {
            self.last = Some(node.end_position().row);
            // A leaf of the tree, not a word of a doctest or of prose.
            if text.len() == node.byte_range().len() {
                self.count_brackets(text);
            }
        }
        let is_name = kind == Kind::Code && grammar::is_identifier(node.kind());
        self.tokens.push(Token { kind, text, is_name, row: start.row, column: start.column });
    }

    /// The indentation level of a logical line starting at `column`: the columns of the lines
    /// before it that are deeper are closed, and a deeper column opens a level. Levels, not
    /// columns, are compared: a function body re-indented from four spaces to eight is the
    /// same code; a statement moved into or out of a block is not.
    fn level_at(&mut self, column: usize) -> usize {
        while self.indents.last().is_some_and(|&open| open > column) {
            self.indents.pop();
        }
        if self.indents.last() != Some(&column) {
            self.indents.push(column);
        }
        self.indents.len()
    }

    /// Follow the brackets a code token opens or closes (a string is one token, so the
    /// brackets inside it do not count).
    fn count_brackets(&mut self, text: &[u8]) {
        match text {
            b"(" | b"[" | b"{" => self.brackets += 1,
            b")" | b"]" | b"}" => self.brackets = self.brackets.saturating_sub(1),
            _ => {}
        }
    }

    /// Push the words of the text between the last token and `until` that no leaf holds.
    fn fill_gap(&mut self, until: usize) {
        if until <= self.covered {
            return;
        }
        let gap = &self.text[self.covered..until];
        let base = self.covered;
        self.covered = until;
        let mut at = 0;
        for word in gap.split(u8::is_ascii_whitespace) {
            let start = base + at;
            at += word.len() + 1;
            if word.is_empty() {
                continue;
            }
            let row = self.row_of(start);
            let word: &'t [u8] = &self.text[start..start + word.len()];
            self.last = Some(row);
            self.tokens.push(Token {
                kind: Kind::Code,
                text: word,
                is_name: false,
                row,
                column: 0,
            });
        }
    }

    /// The row of byte `offset`, counted on from the last one asked (offsets only grow).
    fn row_of(&mut self, offset: usize) -> usize {
        let (from, row) = self.row;
        let row = row + memchr::memchr_iter(b'\n', &self.text[from..offset]).count();
        self.row = (offset, row);
        row
    }

    /// The definition `node` opens, and the node that defines it: a Python definition with
    /// decorators spans them (`@pytest.mark.anyio` above a test moves with it), the inner
    /// `def` or `class` opening none of its own.
    fn definition_at<'n>(&self, node: Node<'n>) -> Option<(&'static str, Node<'n>)> {
        const DECORATED: &str = "decorated_definition";
        if node.kind() == DECORATED {
            let inner = node.child_by_field_name("definition")?;
            return Some((self.grammar.definition(inner)?, inner));
        }
        if node.parent().is_some_and(|p| p.kind() == DECORATED) {
            return None;
        }
        Some((self.grammar.definition(node)?, node))
    }

    fn open_definition(&mut self, node: Node<'_>, inner: Node<'_>, label: &'static str) {
        let own = grammar::definition_name(inner, self.text).unwrap_or_default();
        let own_name =
            String::from_utf8_lossy(own).split_whitespace().collect::<Vec<_>>().join(" ");
        let parent = self.open.last().map(|&(i, _)| i);
        let name = match parent {
            Some(p) => format!("{}.{own_name}", self.defs[p].own_name),
            None => own_name.clone(),
        };
        let inside_type = parent.is_some_and(|p| self.defs[p].kind != "function");
        let kind = if label == "function" && inside_type { "method" } else { label };
        let rows = (inner.start_position().row, node.end_position().row);
        let name_row = grammar::definition_name_node(inner)
            .map_or(rows.0, |n| n.start_position().row.max(rows.0));
        let trivial = trivial::of_definition(inner, self.text, self.grammar);
        let refuses = trivial.is_none() && trivial::refuses(inner, self.text, self.grammar);
        let index = self.defs.len();
        let start = self.tokens.len();
        self.defs.push(Definition {
            kind,
            name,
            own_name,
            start,
            end: start,
            rows,
            name_row,
            trivial,
            refuses,
            parent,
            is_declaration: trivial::is_declaration(inner, self.grammar),
            is_test: grammar::is_marked_test(inner, self.text),
            initializers: trivial::initializers(inner, self.text),
            returns_default: trivial::returns_default(inner, self.text, self.grammar),
        });
        self.open.push((index, node.end_byte()));
    }

    /// Close the definitions that end before `byte`.
    fn close_before(&mut self, byte: usize) {
        while let Some(&(index, end)) = self.open.last() {
            if end > byte {
                break;
            }
            self.defs[index].end = self.tokens.len();
            self.open.pop();
        }
    }

    fn close_all(&mut self) {
        while let Some((index, _)) = self.open.pop() {
            self.defs[index].end = self.tokens.len();
        }
    }

    /// A Python string standing alone as a statement: documentation, not code.
    fn is_docstring(&self, node: Node<'_>) -> bool {
        self.grammar.name == "Python"
            && node.kind() == "expression_statement"
            && node.named_child_count() == 1
            && node.named_child(0).is_some_and(|c| c.kind() == "string")
    }
}
