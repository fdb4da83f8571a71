"""Mutations built on syntax trees: stubs, moves, re-indentation, a partial rename, and the
`fix_regression` answers that take the step back (its logic reverted or stubbed, its test
deleted). See `mutate` for what every variant promises."""

from .commit import file_diff, row_offset, rows
from .mutate import Mutation, keeps_parsing, single
from .shapes import is_pure_move, is_whitespace_only, word_count
from .syntax import (FUNCTIONS, attached_start, body_of, indentation, is_whole_lines,
                     language_of, line_start, name_of, parse, returns_value)

# Stub bodies per language: (form, statement, when): `any`, `void` (no declared result) or
# `value` (a declared result); dynamic languages count as both.
STUBS = {
    "python": [("pass", "pass", "any"), ("ellipsis", "...", "any"),
               ("return-none", "return None", "any"), ("raise", "raise NotImplementedError", "any")],
    "rust": [("todo", "todo!()", "any"), ("unimplemented", "unimplemented!()", "any"),
             ("empty", "", "void")],
    "go": [("panic", 'panic("not implemented")', "any"), ("empty", "", "void")],
    "javascript": [("empty", "", "any"), ("throw", 'throw new Error("TODO");', "any"),
                   ("return-null", "return null;", "any")],
    "typescript": [("empty", "", "any"), ("throw", 'throw new Error("TODO");', "any"),
                   ("return-null", "return null;", "any")],
    "java": [("throw", 'throw new UnsupportedOperationException("TODO");', "any"),
             ("return-null", "return null;", "value"), ("empty", "", "void")],
    "kotlin": [("todo", "TODO()", "any"), ("empty", "", "any")],
    "c": [("empty", "", "void"), ("return-zero", "return 0;", "value")],
    "cpp": [("empty", "", "void"), ("return-zero", "return 0;", "value")],
    "ruby": [("nil", "nil", "any"), ("raise", "raise NotImplementedError", "any")],
}


def stub_forms(node, lang):
    has_value = returns_value(node, lang)
    return [(form, stmt) for form, stmt, when in STUBS.get(lang, [])
            if when == "any" or has_value is None or (when == "value") == has_value]


def stubbed(text, node, lang, stmt):
    """`text` with the body of function `node` replaced by `stmt`, or None."""
    body = body_of(node, lang)
    inner = body.text.strip()
    if inner.startswith(b"{"):
        if not inner[1:-1].strip():
            return None  # already empty
        if not stmt:
            return text[:body.start_byte] + b"{}" + text[body.end_byte:]
        close = indentation(text, body.end_byte - 1) if is_whole_lines(
            text, body.end_byte - 1, body.end_byte) else indentation(text, node.start_byte)
        first_inner = text.find(b"\n", body.start_byte) + 1
        unit = indentation(text, first_inner)[len(close):] if first_inner else b""
        unit = unit or (b"\t" if lang == "go" else b"    ")
        replacement = b"{\n" + close + unit + stmt.encode() + b"\n" + close + b"}"
    elif lang in ("python", "ruby"):
        replacement = stmt.encode()
        if not stmt or inner == replacement:
            return None
    else:
        return None  # an expression body (`x => x + 1`, `fun f() = 1`)
    return text[:body.start_byte] + replacement + text[body.end_byte:]


def changed_function(commit, prefer_tests=False):
    """(file, tree, function) in the commit's post image holding the most added rows, code
    files before test files (or tests first with `prefer_tests`), the innermost on ties."""
    best, best_key = None, None
    for f in commit.files:
        if f.status not in ("M", "A") or f.new is None or language_of(f.path) not in STUBS:
            continue
        tree = parse(f.path, f.new)
        if tree.root is None:
            continue
        for node in tree.functions():
            if node.has_error:
                continue
            body = body_of(node, tree.lang)
            span = range(body.start_point[0], body.end_point[0] + 1)
            hits = len(f.new_rows.intersection(span))
            key = (f.is_test == prefer_tests, hits, -len(span))
            if hits and (best_key is None or key > best_key):
                best, best_key = (f, tree, node), key
    return best


def stubs(commit):
    """The commit as it is, except the function it changes most has a stub for a body."""
    found = changed_function(commit)
    if found is None:
        return []
    f, tree, node = found
    out = []
    old = None if f.status == "A" else f.old
    for form, stmt in stub_forms(node, tree.lang):
        new = stubbed(f.new, node, tree.lang, stmt)
        if new is None or not keeps_parsing(f.path, f.new, new):
            continue
        own = file_diff(f.path, old, new, mode=new_file_mode(commit, f.path))
        if own:
            patch = commit.patch_without(f.path) + own
            out.append(Mutation(f"stub:{form}", tree.lang, patch, commit.paths()))
    return out


def new_file_mode(commit, path):
    section = commit.section(path) or ""
    for line in section.split("\n")[:4]:
        if line.startswith("new file mode "):
            return line.split()[-1]
    return "100644"


def first_code_change(commit):
    """(file, tree, row) for the first modified file with a grammar that parses."""
    for f in commit.modified():
        if language_of(f.path) not in FUNCTIONS or f.first_old_row() is None:
            continue
        tree = parse(f.path, f.old)
        if tree.root is not None:
            yield f, tree, f.first_old_row()


def first_changed_functions(commit):
    """(file, tree, function) for the function around the first change of each modified file."""
    for f, tree, row in first_code_change(commit):
        function = tree.innermost_function([row])
        if function is not None:
            yield f, tree, function


def item_of(node):
    """The whole item a function is: with its decorators, its `export`, or the call it is the
    argument of (`it("works", () => {...});`)."""
    while node.parent is not None and node.parent.type in ("decorated_definition", "export_statement"):
        node = node.parent
    if node.parent is not None and node.parent.type == "arguments":
        call = node.parent.parent
        if call is not None and call.parent is not None and call.parent.type == "expression_statement":
            return call.parent
    return node


def added_item(tree, f):
    """The largest whole-line node of three rows or more that the commit added (four in five of
    its non-blank rows new), below the file's top level: a test block in any language."""
    lines, best = rows(f.new), None
    for row in sorted(f.new_rows):
        if row >= len(lines) or not lines[row].strip():
            continue
        column = len(lines[row]) - len(lines[row].lstrip())
        node = tree.root.descendant_for_point_range((row, column), (row, column))
        while node is not None and node.parent is not None:
            first, last = node.start_point[0], node.end_point[0]
            filled = [r for r in range(first, last + 1) if r < len(lines) and lines[r].strip()]
            new = sum(1 for r in filled if r in f.new_rows)
            if last - first >= 2 and new * 5 >= len(filled) * 4 and \
                    is_whole_lines(f.new, node.start_byte, node.end_byte):
                if best is None or last - first > best.end_point[0] - best.start_point[0]:
                    best = node
            node = node.parent
        if best is not None:
            return best
    return None


def is_function_item(node, lang):
    inner = node
    while inner.type in ("decorated_definition", "export_statement") and inner.named_child_count:
        inner = inner.named_children[-1]
    return inner.type in FUNCTIONS[lang]


def line_span(text, first, last):
    """Byte range of whole lines from node `first`'s line to node `last`'s line, newline kept."""
    end = text.find(b"\n", last.end_byte)
    return line_start(text, first.start_byte), (end + 1 if end >= 0 else len(text))


def move(commit):
    """The function the commit changes first, moved unchanged past its neighbour."""
    if is_pure_move(commit):
        return []
    for f, tree, function in first_changed_functions(commit):
        item = item_of(function)
        other = item.next_named_sibling
        pair = (item, other)
        if other is None or not is_function_item(other, tree.lang):
            other = attached_start(item).prev_named_sibling
            pair = (other, item)
        if other is None or not is_function_item(other, tree.lang):
            continue
        a, b = pair
        a0, a1 = line_span(f.old, attached_start(a), a)
        b0, b1 = line_span(f.old, attached_start(b), b)
        if a1 > b0 or not is_whole_lines(f.old, attached_start(a).start_byte, a.end_byte) \
                or not is_whole_lines(f.old, attached_start(b).start_byte, b.end_byte):
            continue
        text = f.old
        new = text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
        if not text[b1 - 1:b1] == b"\n":
            continue
        return single("move", tree.lang, f.path, f.old, new)
    return []


def reindent(commit):
    """The function the commit changes first, its inner lines indented twice as deep; a line
    inside a string literal (a Go raw string, a Python triple-quoted one) is the literal's text,
    not indentation, and is left as it is: the variant changes whitespace only."""
    if is_whitespace_only(commit):
        return []
    for f, tree, function in first_changed_functions(commit):
        lines = rows(f.old)
        lead = indentation(f.old, function.start_byte)
        changed = False
        for r in range(function.start_point[0] + 1, function.end_point[0] + 1):
            line = lines[r]
            own = indentation(line, 0)
            if in_string(tree, row_offset(f.old, r)):
                continue
            if line.strip() and own.startswith(lead) and len(own) > len(lead):
                lines[r] = lead + own[len(lead):] * 2 + line[len(own):]
                changed = True
        new = b"\n".join(lines)
        if changed and keeps_parsing(f.path, f.old, new):
            return single("reindent", tree.lang, f.path, f.old, new)
    return []


def in_string(tree, offset):
    """Whether byte `offset` lies inside a string literal that starts before it."""
    node = tree.root.descendant_for_byte_range(offset, offset) if tree.root is not None else None
    while node is not None:
        if ("string" in node.type or "heredoc" in node.type) and node.start_byte < offset:
            return True
        node = node.parent
    return False


def rename_partial(commit):
    """"Rename n to n2" for a function of the commit's first changed file; only the definition
    is renamed, and the file's other uses of n are left."""
    for f, tree, row in first_code_change(commit):
        function = tree.innermost_function([row])
        candidates = ([function] if function is not None else []) + tree.functions()
        for node in candidates:
            name = name_of(node, tree.lang)
            if name is None or name.type not in ("identifier", "field_identifier",
                                                 "property_identifier", "simple_identifier",
                                                 "constant"):
                continue
            old_name = name.text
            text = old_name.decode(errors="replace")
            if len(text) < 3 or text.startswith("__") or text in ("main", "new", "constructor") \
                    or word_count(f.old, old_name) < 2:
                continue
            new_name = text + ("_v2" if "_" in text or text.islower() else "V2")
            new = f.old[:name.start_byte] + new_name.encode() + f.old[name.end_byte:]
            descriptions = [("message", f"Rename `{text}` to `{new_name}` in {f.path}"),
                            ("subject", f"Rename {text} to {new_name}")]
            return single("rename-partial", tree.lang, f.path, f.old, new,
                          descriptions=descriptions)
    return []


def regression(commit):
    """`fix_regression` answers on top of the commit that take its step back."""
    out = []
    found = changed_function(commit)
    if found is not None:
        f, tree, node = found
        reverted = revert_function(commit, f, tree, node)
        if reverted is not None:
            out += single("regression:logic", tree.lang, f.path, f.new, reverted, fix=True)
        forms = stub_forms(node, tree.lang)
        new = stubbed(f.new, node, tree.lang, forms[0][1]) if forms else None
        if new is not None and keeps_parsing(f.path, f.new, new):
            out += single("regression:stub", tree.lang, f.path, f.new, new, fix=True)
    out += delete_test(commit)
    return out


def revert_function(commit, f, tree, node):
    """The post image with `node` as it was before the commit (deleted if the commit added it)."""
    name = name_of(node, tree.lang)
    before = None
    if f.old is not None and name is not None:
        old_tree = parse(f.old_path, f.old)
        before = next((n for n in old_tree.functions() if n.type == node.type and
                       (lambda m: m is not None and m.text == name.text)(name_of(n, tree.lang))), None)
    if before is not None:
        if before.text == node.text:
            return None
        return f.new[:node.start_byte] + before.text + f.new[node.end_byte:]
    return delete_rows(f.new, attached_start(item_of(node)), item_of(node))


def delete_rows(text, first, last):
    """`text` without the whole lines from node `first` to node `last`, or None."""
    if not is_whole_lines(text, first.start_byte, last.end_byte):
        return None
    start, end = line_span(text, first, last)
    if text[end:end + 1] == b"\n" and (start == 0 or text[start - 2:start] == b"\n\n"):
        end += 1  # the blank line that separated it
    return text[:start] + text[end:]


def delete_test(commit):
    """The test the commit adds or changes, deleted (a new test file: the whole file)."""
    tests = [f for f in commit.files if f.is_test and f.new_rows and f.new is not None]
    for f in tests:
        if f.status == "A":
            from .corpus import git
            patch = git(commit.repo, "diff", "--binary", commit.sha, commit.parent, "--", f.path)
            return [Mutation("regression:test", language_of(f.path), patch.decode(
                "utf-8", "surrogateescape"), [f.path], fix=True)]
    found = changed_function(commit, prefer_tests=True)
    if found is not None and found[0].is_test:
        f, tree, node = found
        item = item_of(node)
    else:
        f = next((t for t in tests if t.status == "M" and language_of(t.path) in FUNCTIONS), None)
        tree = parse(f.path, f.new) if f is not None else None
        item = added_item(tree, f) if tree is not None and not tree.has_error else None
        if item is None:
            return []
    new = delete_rows(f.new, attached_start(item), item)
    if new is None or not keeps_parsing(f.path, f.new, new):
        return []
    return single("regression:test", tree.lang, f.path, f.new, new, fix=True)


def row_of(text, offset):
    return text.count(b"\n", 0, offset)


__all__ = ["stubs", "move", "reindent", "rename_partial", "regression", "row_offset", "row_of"]
