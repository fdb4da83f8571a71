"""What a real commit's own change is, read from its diff (never from its message): a commit
whose real change is whitespace only is no negative for the whitespace mutation, and so on.
These are the only cases a mutation variant leaves out, and they are decided by the data."""

import collections
import re

from .commit import rows
from .syntax import parse

# Comment delimiters by extension or file name: (opening, closing).
HASH = ("#", "")
SLASH = ("//", "")
COMMENTS = {
    **dict.fromkeys("rs go js jsx mjs cjs ts tsx mts java kt kts c h cc cpp cxx hpp hh hxx swift "
                    "cs scala dart php groovy gradle proto".split(), SLASH),
    **dict.fromkeys("py rb sh bash zsh yml yaml toml pl r cmake cfg mk jq ru rake gemspec nix "
                    "tf dockerfile".split(), HASH),
    **dict.fromkeys("sql lua hs".split(), ("--", "")),
    **dict.fromkeys("md markdown html htm xml vue svg".split(), ("<!--", " -->")),
    **dict.fromkeys("css scss less".split(), ("/*", " */")),
}
NAMED = {"Makefile": HASH, "Dockerfile": HASH, "Gemfile": HASH, "Rakefile": HASH,
         "CMakeLists.txt": HASH, ".gitignore": HASH, ".gitattributes": HASH}


def comment_syntax(path):
    name = path.rsplit("/", 1)[-1]
    if name in NAMED:
        return NAMED[name]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return COMMENTS.get(ext)


def is_whitespace_only(commit):
    """Every change is in whitespace: the diff ignoring it has no line."""
    from .corpus import git

    if not hasattr(commit, "is_whitespace_only"):
        diff = git(commit.repo, "diff", "-w", "--ignore-blank-lines", commit.parent, commit.sha)
        commit.is_whitespace_only = not any(l.startswith(b"@@") for l in diff.split(b"\n"))
    return commit.is_whitespace_only


def changed_texts(commit):
    """(removed, added) non-blank lines of the whole commit, stripped."""
    removed, added = [], []
    for f in commit.files:
        if f.old is not None:
            lines = rows(f.old)
            removed += [lines[r].strip() for r in f.old_rows if r < len(lines)]
        if f.new is not None:
            lines = rows(f.new)
            added += [lines[r].strip() for r in f.new_rows if r < len(lines)]
    return [l for l in removed if l], [l for l in added if l]


def is_pure_move(commit):
    """The same lines removed and added, in another order or place."""
    removed, added = changed_texts(commit)
    return bool(removed) and collections.Counter(removed) == collections.Counter(added)


def adds_text(commit, needle):
    needle = needle.encode()
    return any(needle in line for line in changed_texts(commit)[1])


def only_adds_files(commit):
    return all(f.status == "A" for f in commit.files)


def is_comment_only(commit):
    """Every changed line of every file is blank or inside a comment (by syntax tree where
    there is a grammar, by the comment delimiter at the line's start otherwise)."""
    for f in commit.files:
        for text, changed in ((f.old, f.old_rows), (f.new, f.new_rows)):
            if changed and text is None:
                return False
            if changed and not all_comment_rows(f.path, text, changed):
                return False
    return True


def all_comment_rows(path, text, changed):
    lines = rows(text)
    tree = parse(path, text)
    if tree.root is not None and not tree.root.has_error:
        covered = comment_rows(tree.root)
        return all(r >= len(lines) or not lines[r].strip() or r in covered for r in changed)
    syntax = comment_syntax(path)
    if syntax is None:
        return False
    opening = syntax[0].encode()
    continued = (b"*", b"*/") if syntax[0] == "/*" or syntax[0] == "//" else ()
    return all(r >= len(lines) or not lines[r].strip()
               or lines[r].strip().startswith((opening, *continued)) for r in changed)


def comment_rows(root):
    """Rows that hold only comment text (a row with code beside a comment is not one)."""
    code, comment, stack = set(), set(), [root]
    while stack:
        node = stack.pop()
        if "comment" in node.type:
            comment.update(range(node.start_point[0], node.end_point[0] + 1))
        elif node.child_count == 0:
            code.update(range(node.start_point[0], node.end_point[0] + 1))
        else:
            stack.extend(node.children)
    return comment - code


WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def word_count(text, word):
    return sum(1 for m in WORD.finditer(text) if m.group() == word)
