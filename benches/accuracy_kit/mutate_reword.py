"""`comment:reword`: the commit's change replaced by a rewording of one comment that was already
there, in a file the commit touches. An agent asked to fix something that rewords a comment and
calls it done has answered nothing, whatever the step's words; the gate may let a revision of
comments through only where the step asks for one (see docs/benchmarks.md)."""

import re

from .commit import row_offset, rows
from .mutate import keeps_parsing, single
from .shapes import comment_rows, comment_syntax, is_comment_only
from .syntax import language_of, parse

# Comment text that is not prose: directives, licence headers, generated-file markers. A
# rewording of one of those is another variant's business (or none).
NOT_PROSE = (b"#!", b"-*-", b"noqa", b"type:", b"eslint", b"nolint", b"NOLINT", b"rubocop",
             b"pragma", b"SPDX", b"Copyright", b"copyright", b"License", b"license", b"@ts-",
             b"go:", b"+build", b"clippy", b"prettier", b"istanbul", b"generated", b"Generated")


def reword(commit):
    """The existing comment line nearest the commit's first change, in its first modified file
    holding one, reworded (`// Parse the header` -> `// Note: parse the header`); nothing else."""
    if is_comment_only(commit):
        return []
    for f in commit.modified():
        syntax = comment_syntax(f.path)
        first = f.first_old_row()
        if syntax is None or first is None:
            continue
        lines = rows(f.old)
        candidates = [r for r in comment_lines(f.path, f.old, lines, syntax[0].encode())
                      if is_prose(lines[r])]
        if not candidates:
            continue
        row = min(candidates, key=lambda r: (abs(r - first), r))
        new_line = reworded(lines[row])
        if new_line is None:
            continue
        at = row_offset(f.old, row)
        new = f.old[:at] + new_line + f.old[at + len(lines[row]):]
        if keeps_parsing(f.path, f.old, new):
            return single("comment:reword", language_of(f.path), f.path, f.old, new)
    return []


def comment_lines(path, text, lines, opening):
    """Rows that hold only comment text: read on the syntax tree where there is a grammar
    (and the file parses), by the comment marker at the line's start otherwise."""
    tree = parse(path, text)
    if tree.root is not None:
        if tree.root.has_error:
            return []
        return sorted(r for r in comment_rows(tree.root) if r < len(lines))
    if opening == b"<!--":
        return []  # a Markdown or HTML comment is rarely a line of its own; prose is the text
    literal = block_scalar_rows(lines) if path.endswith((".yml", ".yaml")) else set()
    return [r for r, line in enumerate(lines) if line.lstrip().startswith(opening)
            and r not in literal and not tree.in_literal(row_offset(text, r))]


# A YAML key or list item whose value is a block scalar: `run: |`, `body: >-`, `- |2`.
BLOCK_SCALAR = re.compile(rb"(?:^-|:)\s+[|>][-+0-9]*$")


def block_scalar_rows(lines):
    """Rows inside a YAML block scalar (`run: |`, `body: >-`): text of a string (a script, a
    manual's example), not comments of the file, though a line there opens with `#`."""
    inside, indent = set(), None
    for r, line in enumerate(lines):
        body = line.strip()
        depth = len(line) - len(line.lstrip())
        if indent is not None and (not body or depth > indent):
            inside.add(r)
            continue
        indent = None
        if BLOCK_SCALAR.search(body.split(b" #", 1)[0].rstrip()):
            indent = depth
    return inside


def is_prose(line):
    """A comment line of three words or more that is no directive, header or marker."""
    words = [w for w in line.split() if any(c.isalpha() for c in w.decode(errors="replace"))]
    return len(words) >= 4 and not any(key in line for key in NOT_PROSE)


def reworded(line):
    """The comment line with its text reworded after its marker (`#`, `//`, `*`, `///`), or None."""
    body = line.lstrip()
    lead = line[:len(line) - len(body)]
    cut = 0
    while cut < len(body) and not body[cut:cut + 1].isalnum():
        cut += 1
    marker, text = body[:cut], body[cut:]
    if not marker.strip() or marker.strip().strip(b"#/*!-;%") or not text[:1].isalpha():
        return None  # no marker, or one that is more than punctuation (` * @param`)
    head = text[:1] if text[1:2].isupper() else text[:1].lower()  # `TODO` stays `TODO`
    return lead + marker + b"Note: " + head + text[1:]
