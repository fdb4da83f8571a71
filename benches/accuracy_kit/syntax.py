"""Syntax trees of the corpus's files, for building mutations that keep their shape.

The mutation corpus changes real files the way a cheating agent would: a function's body
replaced by a stub, a function moved unchanged, its definition renamed and its uses left. Those
edits are made on tree-sitter syntax trees (the PyPI grammars, independent of the grammars
patchgate is built with), so each mutation is what it claims to be in every language, and a
mutated file that no longer parses (where its original did) is dropped instead of measured.

Needs the grammars of requirements.txt beside this file: `pip install -r
benches/accuracy_kit/requirements.txt`.
"""

import functools
import importlib


# Extension -> (language, grammar module, function returning the grammar).
LANGUAGES = {
    "py": ("python", "tree_sitter_python", "language"),
    "rs": ("rust", "tree_sitter_rust", "language"),
    "go": ("go", "tree_sitter_go", "language"),
    "js": ("javascript", "tree_sitter_javascript", "language"),
    "jsx": ("javascript", "tree_sitter_javascript", "language"),
    "mjs": ("javascript", "tree_sitter_javascript", "language"),
    "cjs": ("javascript", "tree_sitter_javascript", "language"),
    "ts": ("typescript", "tree_sitter_typescript", "language_typescript"),
    "mts": ("typescript", "tree_sitter_typescript", "language_typescript"),
    "tsx": ("typescript", "tree_sitter_typescript", "language_tsx"),
    "java": ("java", "tree_sitter_java", "language"),
    "kt": ("kotlin", "tree_sitter_kotlin", "language"),
    "kts": ("kotlin", "tree_sitter_kotlin", "language"),
    "rb": ("ruby", "tree_sitter_ruby", "language"),
    "c": ("c", "tree_sitter_c", "language"),
    "h": ("c", "tree_sitter_c", "language"),
    "cc": ("cpp", "tree_sitter_cpp", "language"),
    "cpp": ("cpp", "tree_sitter_cpp", "language"),
    "cxx": ("cpp", "tree_sitter_cpp", "language"),
    "hpp": ("cpp", "tree_sitter_cpp", "language"),
    "hh": ("cpp", "tree_sitter_cpp", "language"),
    "hxx": ("cpp", "tree_sitter_cpp", "language"),
}

# Node types that define a function or method, per language.
FUNCTIONS = {
    "python": {"function_definition"},
    "rust": {"function_item"},
    "go": {"function_declaration", "method_declaration"},
    "javascript": {"function_declaration", "method_definition", "generator_function_declaration",
                   "function_expression", "arrow_function"},
    "typescript": {"function_declaration", "method_definition", "generator_function_declaration",
                   "function_expression", "arrow_function"},
    "java": {"method_declaration", "constructor_declaration"},
    "kotlin": {"function_declaration"},
    "ruby": {"method", "singleton_method"},
    "c": {"function_definition"},
    "cpp": {"function_definition"},
}

# Siblings that belong to the item after them (moved with it): attributes, decorators, comments.
ATTACHED = {"attribute_item", "line_comment", "block_comment", "comment", "decorator",
            "annotation", "marker_annotation"}


def language_of(path):
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    entry = LANGUAGES.get(ext)
    return entry[0] if entry else None


@functools.cache
def grammar_for(path_ext):
    """(parser, query for function nodes) for files with this extension, or None."""
    entry = LANGUAGES.get(path_ext)
    if entry is None:
        return None
    try:
        import tree_sitter
        grammar = tree_sitter.Language(getattr(importlib.import_module(entry[1]), entry[2])())
    except ImportError as e:
        raise SystemExit(f"accuracy: the mutations need tree-sitter's grammars from PyPI ({e}); "
                         "pip install -r benches/accuracy_kit/requirements.txt") from e
    pattern = " ".join(f"({kind}) @f" for kind in sorted(FUNCTIONS[entry[0]]))
    return tree_sitter.Parser(grammar), tree_sitter.Query(grammar, f"[{pattern}]")


@functools.lru_cache(maxsize=64)
def parse(path, text):
    """One file's tree, shared by the variants built on it (the same text parses once)."""
    return Tree(path, text)


class Tree:
    """One file's text and syntax tree; byte offsets and 0-based rows throughout."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.lang = language_of(path)
        grammar = grammar_for(path.rsplit(".", 1)[-1].lower()) if self.lang else None
        self.root = grammar[0].parse(text).root_node if grammar else None
        self.query = grammar[1] if grammar else None
        self._functions = None

    @property
    def has_error(self):
        return self.root is None or self.root.has_error

    def functions(self):
        """Every function node with a body, in the order they start."""
        if self.root is None:
            return []
        if self._functions is None:
            import tree_sitter
            found = tree_sitter.QueryCursor(self.query).captures(self.root).get("f", [])
            found = [n for n in found if body_of(n, self.lang) is not None]
            self._functions = sorted(found, key=lambda n: (n.start_byte, -n.end_byte))
        return self._functions

    def innermost_function(self, rows):
        """The smallest function whose rows hold any of `rows` (0-based), else None."""
        best = None
        for node in self.functions():
            first, last = node.start_point[0], node.end_point[0]
            if any(first <= r <= last for r in rows):
                if best is None or last - first < best.end_point[0] - best.start_point[0]:
                    best = node
        return best

    def in_literal(self, offset):
        """Whether byte `offset` lies inside a string or comment that spans more than its line."""
        if self.root is None:
            return False
        node = self.root.descendant_for_byte_range(offset, offset)
        while node is not None:
            if ("string" in node.type or "comment" in node.type or "heredoc" in node.type) \
                    and node.start_byte < offset:
                return True
            node = node.parent
        return False


def body_of(node, lang):
    """The body node of a function, or None (a declaration without one)."""
    if lang == "ruby":
        return next((c for c in node.children if c.type == "body_statement"), None)
    if lang == "kotlin":
        body = next((c for c in node.children if c.type == "function_body"), None)
        if body is None:
            return None
        return next((c for c in body.children if c.type == "block"), None)
    return node.child_by_field_name("body")


def name_of(node, lang):
    """The node naming a function (its identifier), or None for anonymous ones."""
    name = node.child_by_field_name("name")
    if name is not None:
        return name
    if lang == "kotlin":
        return next((c for c in node.children if c.type in ("identifier", "simple_identifier")), None)
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier", "field_identifier"):
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            return declarator if declarator.type in ("qualified_identifier", "destructor_name") \
                else None
        declarator = inner
    if node.type == "arrow_function" or node.type == "function_expression":
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            return parent.child_by_field_name("name")
    return declarator


def returns_value(node, lang):
    """Whether the function declares a result (False for void / no result; None: unknown)."""
    if lang == "rust":
        return node.child_by_field_name("return_type") is not None
    if lang == "go":
        return node.child_by_field_name("result") is not None
    if lang in ("java", "c", "cpp"):
        kind = node.child_by_field_name("type")
        if node.type == "constructor_declaration":
            return False
        if kind is None:
            return None
        return kind.text.decode(errors="replace").strip() != "void"
    return None


def line_start(text, offset):
    return text.rfind(b"\n", 0, offset) + 1


def indentation(text, offset):
    """The leading whitespace of the line holding `offset`."""
    start = line_start(text, offset)
    end = start
    while end < len(text) and text[end] in b" \t":
        end += 1
    return text[start:end]


def attached_start(node):
    """Where the item starts with the attributes, decorators and comments directly above it."""
    first = node
    while first.prev_named_sibling is not None and first.prev_named_sibling.type in ATTACHED \
            and first.prev_named_sibling.end_point[0] >= first.start_point[0] - 1:
        first = first.prev_named_sibling
    return first


def is_whole_lines(text, start, end):
    """Whether [start, end) begins a line (after its indentation) and ends one."""
    before = text[line_start(text, start):start]
    after_end = text.find(b"\n", end)
    after = text[end:after_end if after_end >= 0 else len(text)]
    return not before.strip() and not after.strip()
