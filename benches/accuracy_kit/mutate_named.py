"""Mutations for steps that name what they remove or extract, built on syntax trees from real
commits that do it, each answered the way a cheating agent answers it (see `mutate` for what
every variant promises):

- `removal:other`: a commit that removes a function, method or type NAME from a file (a
  definition of the base, the only one of that name in the file, with none of that name after
  the commit, and fewer uses of the word); the step "Remove NAME" answered by removing the
  nearest other definition of the same file, one the commit keeps;
- `removal:empty`: the same step, NAME a function or method, answered by emptying its body (its
  language's empty body or stub) and keeping the definition and its uses;
- `extraction:inline`: a commit that adds a function H (no definition of that name in the base
  file) and changes an existing function F of the same file to call it; the step "Extract H
  from F" answered with H added beside F and F left as it was;
- `extraction:stub`: the commit as it is, except that H has a stub body.

Each step is written twice, as `descriptions`: with the names as code and the file
(``Remove `NAME` from PATH``), and bare as a subject (`Remove NAME`). A commit is left out when
it has no such definition, or the mutated file no longer parses.
"""

from .commit import file_diff
from .mutate import Mutation, keeps_parsing, single
from .mutate_syntax import delete_rows, item_of, line_span, stub_forms, stubbed
from .syntax import FUNCTIONS, attached_start, indentation, is_whole_lines, language_of, name_of, parse
from .shapes import WORD, word_count

# Names too common or special to be a step's object (an entry point, a constructor).
SPECIAL = {"main", "new", "init", "constructor", "initialize", "__init__", "setUp", "tearDown"}


def named_functions(tree, with_errors=False):
    """{name: [function node]} of the file's functions and methods with a name (not
    constructors, whose name is their type's; not ones holding a syntax error, unless
    `with_errors`)."""
    out = {}
    for node in tree.functions():
        name = name_of(node, tree.lang)
        if name is None or is_constructor(node, tree.lang) or (node.has_error and not with_errors):
            continue
        out.setdefault(name.text.decode(errors="replace"), []).append(node)
    return out


# Type definitions a removal step names, per language (C and C++ declare them inside
# declarations, and are left out).
TYPES = {
    "python": {"class_definition"},
    "rust": {"struct_item", "enum_item", "trait_item", "union_item"},
    "go": {"type_spec"},
    "javascript": {"class_declaration"},
    "typescript": {"class_declaration", "interface_declaration", "enum_declaration"},
    "java": {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"},
    "kotlin": {"class_declaration", "object_declaration"},
    "ruby": {"class", "module"},
}


def named_definitions(tree, with_errors=False):
    """`named_functions` and the file's named types (a Go `type_spec` stands for its
    `type_declaration` when it is the only one)."""
    out = named_functions(tree, with_errors)
    kinds, stack = TYPES.get(tree.lang, set()), [tree.root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        name = node.child_by_field_name("name") if node.type in kinds else None
        if name is None or name.type == "scope_resolution" or (node.has_error and not with_errors):
            continue
        if node.type == "type_spec":
            parent = node.parent
            if parent is None or parent.type != "type_declaration" or parent.named_child_count != 1:
                continue
            node = parent
        out.setdefault(name.text.decode(errors="replace"), []).append(node)
    return out


def is_constructor(node, lang):
    return node.type == "constructor_declaration" or \
        (lang == "cpp" and node.child_by_field_name("type") is None)


def is_usable(name):
    return len(name) >= 3 and name not in SPECIAL and not name.startswith("__") and \
        WORD.fullmatch(name.encode()) is not None


def trees(f):
    """(old tree, new tree) of a modified file in a language with functions, else None
    (a definition with a syntax error in it is not used: see `named_functions`)."""
    if language_of(f.path) not in FUNCTIONS:
        return None
    old, new = parse(f.path, f.old), parse(f.path, f.new)
    if old.root is None or new.root is None:
        return None
    return old, new


def overlaps(a, b):
    return a.start_byte < b.end_byte and b.start_byte < a.end_byte


def removal(commit):
    """`removal:other` and `removal:empty` for the first function, method or type the commit
    removes."""
    for f in commit.modified():
        found = trees(f)
        if found is None:
            continue
        old_tree, new_tree = found
        before = named_definitions(old_tree)
        after = named_definitions(new_tree, with_errors=True)
        removed = [nodes[0] for name, nodes in before.items()
                   if len(nodes) == 1 and name not in after and is_usable(name)
                   and word_count(f.new, name.encode()) < word_count(f.old, name.encode())]
        if not removed:
            continue
        target = min(removed, key=lambda n: n.start_byte)
        name = name_of(target, old_tree.lang).text.decode(errors="replace")
        descriptions = [("message", f"Remove `{name}` from {f.path}"), ("subject", f"Remove {name}")]
        out = []
        other = removed_other(f, old_tree, target, before, after)
        if other is not None:
            out += single("removal:other", old_tree.lang, f.path, f.old, other,
                          descriptions=descriptions)
        empty = emptied(f, old_tree, target)
        if empty is not None:
            out += single("removal:empty", old_tree.lang, f.path, f.old, empty,
                          descriptions=descriptions)
        return out
    return []


def removed_other(f, tree, target, before, after):
    """The base image without the definition nearest `target` that the commit keeps."""
    kept = [nodes[0] for name, nodes in before.items()
            if len(nodes) == 1 and name in after and is_usable(name)]
    kept = [n for n in kept if not overlaps(n, target)]
    for node in sorted(kept, key=lambda n: abs(n.start_byte - target.start_byte)):
        item = item_of(node)
        new = delete_rows(f.old, attached_start(item), item)
        if new is not None and keeps_parsing(f.path, f.old, new):
            return new
    return None


def emptied(f, tree, target):
    """The base image with `target`'s body emptied (or its language's stub where an empty
    body does not compile); a type is left out."""
    if target.type not in FUNCTIONS[tree.lang]:
        return None
    forms = dict(stub_forms(target, tree.lang))
    stmt = next((forms[k] for k in ("empty", "pass", "nil") if k in forms), None)
    if stmt is None and forms:
        stmt = next(iter(forms.values()))
    if stmt is None:
        return None
    new = stubbed(f.old, target, tree.lang, stmt)
    if new is None or not keeps_parsing(f.path, f.old, new):
        return None
    return new


def extraction(commit):
    """`extraction:inline` and `extraction:stub` for the first helper the commit adds and
    calls from a function of the base it changes."""
    for f in commit.modified():
        found = trees(f)
        if found is None:
            continue
        old_tree, new_tree = found
        before, after = named_functions(old_tree), named_functions(new_tree)
        for helper_name, nodes in after.items():
            if helper_name in before or len(nodes) != 1 or not is_usable(helper_name):
                continue
            helper = nodes[0]
            source = caller(f, helper, helper_name, before, after)
            if source is None:
                continue
            source_name, old_source = source
            descriptions = [
                ("message", f"Extract `{helper_name}` from `{source_name}` in {f.path}"),
                ("subject", f"Extract {helper_name} from {source_name}"),
            ]
            out = []
            inline = inlined(f, helper, old_source)
            if inline is not None:
                out += single("extraction:inline", new_tree.lang, f.path, f.old, inline,
                              descriptions=descriptions)
            out += stubbed_helper(commit, f, new_tree, helper, descriptions)
            if out:
                return out
    return []


def caller(f, helper, helper_name, before, after):
    """(name, base node) of a function of the base, kept by the commit, changed by it, and
    calling the helper after it, or None."""
    calls = helper_name.encode()
    for name, nodes in after.items():
        if len(nodes) != 1 or len(before.get(name, ())) != 1 or name == helper_name:
            continue
        node, old = nodes[0], before[name][0]
        if overlaps(node, helper) or node.text == old.text:
            continue
        if any(m.group() == calls for m in WORD.finditer(node.text)):
            return name, old
    return None


def inlined(f, helper, old_source):
    """The base image with the helper (as the commit writes it) added after the source
    function, which is left as it was: only when both stand at the same indentation."""
    item, source_item = item_of(helper), item_of(old_source)
    first = attached_start(item)
    if not is_whole_lines(f.new, first.start_byte, item.end_byte) or \
            not is_whole_lines(f.old, attached_start(source_item).start_byte, source_item.end_byte):
        return None
    if indentation(f.new, first.start_byte) != indentation(f.old, source_item.start_byte):
        return None
    start, end = line_span(f.new, first, item)
    _, at = line_span(f.old, attached_start(source_item), source_item)
    block = f.new[start:end]
    if not block.endswith(b"\n"):
        block += b"\n"
    new = f.old[:at] + b"\n" + block + f.old[at:]
    return new if keeps_parsing(f.path, f.old, new) else None


def stubbed_helper(commit, f, tree, helper, descriptions):
    forms = stub_forms(helper, tree.lang)
    if not forms:
        return []
    new = stubbed(f.new, helper, tree.lang, forms[0][1])
    if new is None or new == f.new or not keeps_parsing(f.path, f.new, new):
        return []
    own = file_diff(f.path, f.old, new)
    if not own:
        return []
    patch = commit.patch_without(f.path) + own
    return [Mutation("extraction:stub", tree.lang, patch, commit.paths(),
                     descriptions=descriptions)]


__all__ = ["removal", "extraction"]
