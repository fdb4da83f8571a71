"""The judge of benches/agents: the agent's patch read loosely (without its counts), and whether
a tree holds exactly the agent's change, each hunk where its context says (independent of git
and patchgate; benches/agents says how it decides)."""

import collections
import difflib
import re

HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
# A binary entry in `read_patch`'s hunk list: its content cannot be read from the patch, so the
# judge only asks that the file changed.
BINARY = "binary"


# ---- the agent's patch, read loosely (no counts), for the judge ----------------------------

def header_path(line, side):
    """The repo path of a `--- a/x` / `+++ b/x` line; None for /dev/null."""
    name = line[4:].rstrip(b"\r\n").split(b"\t")[0].decode("utf-8", "surrogateescape")
    if name == "/dev/null":
        return None
    prefix = side + "/"
    return name[len(prefix):] if name.startswith(prefix) else name


def read_patch(patch):
    """{path: [hunk]} where a hunk is a list of (kind, line bytes with their newline)."""
    files = collections.OrderedDict()
    lines = patch.encode("utf-8", "surrogateescape").splitlines(keepends=True)
    current, hunk, old, is_pair = None, None, None, False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else b""
        if line.startswith(b"--- ") and nxt.startswith(b"+++ "):
            old, hunk, is_pair = header_path(line, "a"), None, True
            continue
        git_header = re.match(rb"^diff --git a/(\S+) b/(\S+)$", line.rstrip(b"\r\n"))
        if git_header:
            current, hunk = git_header.group(2).decode("utf-8", "surrogateescape"), None
            files.setdefault(current, [])
            continue
        if is_pair:
            current, is_pair = header_path(line, "b") or old, False
            files.setdefault(current, [])
            continue
        if HUNK.match(line) and current is not None:
            hunk = []
            files[current].append(hunk)
            continue
        if hunk is None:
            if current is not None and line.startswith((b"GIT binary patch", b"Binary files ")):
                files[current].append(BINARY)
            continue
        if line[:1] in (b" ", b"+", b"-"):
            hunk.append((line[:1].decode(), line[1:]))
        elif line.strip(b"\r\n") == b"":
            hunk.append((" ", b"\n"))
        elif line.startswith(b"\\") and hunk:
            kind, text = hunk[-1]
            hunk[-1] = (kind, text.rstrip(b"\n"))
        else:
            hunk = None
    return files


def promises_more(patch):
    """Whether a hunk's header promises more new-side lines than its body holds (read loosely,
    junk lines included). A tool that applies such a patch takes the header for a miscount
    and the body for whole; that is the shape of a hunk whose added line was lost, too, and
    nothing in the patch or the base tells the two apart: a rescue of it is a guess."""
    lines = patch.encode("utf-8", "surrogateescape").splitlines()
    for i, line in enumerate(lines):
        m = re.match(rb"^@@ -\d+(?:,\d+)? \+\d+(?:,(\d+))? @@", line)
        if not m:
            continue
        promised = int(m.group(1)) if m.group(1) is not None else 1
        held = 0
        for body in lines[i + 1:]:
            if body[:1] in (b" ", b"+") or body.strip() == b"":
                held += 1
            elif body[:1] not in (b"-", b"\\"):
                break
        if held < promised:
            return True
    return False


def patch_paths(patch):
    """Every path the patch's headers name, in order (both sides)."""
    paths = []
    for line in patch.encode("utf-8", "surrogateescape").splitlines():
        m = re.match(rb"^diff --git a/(\S+) b/(\S+)$", line)
        names = [m.group(1), m.group(2)] if m else []
        if line.startswith((b"--- ", b"+++ ")):
            side = "a" if line.startswith(b"-") else "b"
            name = header_path(line + b"\n", side)
            names = [name.encode("utf-8", "surrogateescape")] if name else []
        for name in names:
            text = name.decode("utf-8", "surrogateescape")
            if text not in paths:
                paths.append(text)
    return paths


# ---- the judge -----------------------------------------------------------------------------

def split(content):
    return [] if content is None else content.splitlines(keepends=True)


def changes(a, b):
    """Removed and added lines from a to b."""
    removed, added = collections.Counter(), collections.Counter()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed.update(a[i1:i2])
            added.update(b[j1:j2])
    return removed, added


def cancel(removed, added):
    """A line removed in one place and added in another (moved, or taken out and put back) is
    no change a diff of the whole file must show: identical pairs are cancelled."""
    common = removed & added
    return removed - common, added - common


def blankish(line):
    return b"" if line.strip() == b"" else line


def core(hunk):
    """The hunk without whitespace-only context at its edges: (lines, how many were cut before)."""
    lo, hi = 0, len(hunk)
    while lo < hi and hunk[lo][0] == " " and hunk[lo][1].strip() == b"":
        lo += 1
    while hi > lo and hunk[hi - 1][0] == " " and hunk[hi - 1][1].strip() == b"":
        hi -= 1
    return hunk[lo:hi], lo


def places(haystack, needle):
    if not needle:
        return []
    n = len(needle)
    return [i for i in range(len(haystack) - n + 1) if haystack[i:i + n] == needle]


def judge_file(base, tree, hunks):
    """None when the tree holds exactly the agent's change of this file, else why not."""
    if BINARY in hunks:
        return None if base != tree else "the binary change is lost"
    want_removed, want_added = collections.Counter(), collections.Counter()
    for hunk in hunks:
        pre = [t for k, t in hunk if k != "+"]
        post = [t for k, t in hunk if k != "-"]
        r, a = changes(pre, post)
        want_removed += r
        want_added += a
    want_removed, want_added = cancel(want_removed, want_added)
    got_removed, got_added = cancel(*changes(base, tree))
    if got_removed != want_removed or got_added != want_added:
        lost = (want_added - got_added) + (want_removed - got_removed)
        extra = (got_added - want_added) + (got_removed - want_removed)
        what = "lost" if lost else "extra"
        sample = next(iter(lost or extra)).decode(errors="replace").strip()[:50]
        return f"{what} changed line(s), e.g. `{sample}`"
    norm_base = [blankish(l) for l in base]
    norm_tree = [blankish(l) for l in tree]
    shift = 0
    for number, hunk in enumerate(hunks, 1):
        lines, _ = core(hunk)
        pre = [blankish(t) for k, t in lines if k != "+"]
        post = [blankish(t) for k, t in lines if k != "-"]
        if pre:
            at_base = places(norm_base, pre)
            if not at_base:
                return f"hunk {number}'s context is not in the base file"
            at_tree = set(places(norm_tree, post)) if post else None
            if at_tree is not None and not any(b + shift in at_tree for b in at_base):
                return f"hunk {number} is not where its context is"
        shift += sum(1 for k, _ in hunk if k == "+") - sum(1 for k, _ in hunk if k == "-")
    return None


def judge(base_files, tree_files, patch):
    """None when every file of the tree is the agent's change, else why not."""
    for path, hunks in read_patch(patch).items():
        why = judge_file(split(base_files.get(path)), split(tree_files.get(path)), hunks)
        if why:
            return f"{path}: {why}"
    return None
