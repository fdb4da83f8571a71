"""One real commit as the mutations see it: its files' old and new text, the rows it changes,
and its diff split by file; plus the unified diffs the mutations write."""

import difflib
import re
import subprocess

from .corpus import git, subject_of

HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
TEST_PATH = re.compile(r"(^|/)(tests?|spec|__tests__|testing|testdata)(/|$)|(^|/|_)test_|_test\.|"
                       r"\.test\.|\.spec\.|Tests?\.(java|kt)$|_spec\.rb$")


class Blobs:
    """`git cat-file --batch` over one repository: file contents by `rev:path`."""

    def __init__(self, repo):
        self.proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, rev, path):
        self.proc.stdin.write(f"{rev}:{path}\n".encode("utf-8", "surrogateescape"))
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            return None
        size = int(header[2])
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)
        return data

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


class FileChange:
    """One file of the commit: old and new text (None when absent or binary), changed rows."""

    def __init__(self, path, old_path, status):
        self.path, self.old_path, self.status = path, old_path, status
        self.old = self.new = None
        self.old_rows, self.new_rows = set(), set()
        # 0-based old rows where something is inserted (before that row).
        self.insert_rows = []

    @property
    def is_test(self):
        return bool(TEST_PATH.search(self.path))

    def first_old_row(self):
        """The first old row the commit changes or inserts before."""
        rows = sorted(self.old_rows) + self.insert_rows
        return min(rows) if rows else None


class Commit:
    def __init__(self, repo, blobs, sha, parent, message):
        self.repo, self.sha, self.parent, self.message = repo, sha, parent, message
        self.subject = subject_of(message)
        self.patch = git(repo, "diff", "--binary", "-M", parent, sha).decode("utf-8", "surrogateescape")
        self.files = parse_zero_context(git(repo, "diff", "-U0", "-M", "--no-color", parent, sha))
        for f in self.files:
            if f.status != "A":
                f.old = text_or_none(blobs.read(parent, f.old_path))
            if f.status != "D":
                f.new = text_or_none(blobs.read(sha, f.path))

    def section(self, path):
        """The commit's diff section for `path` (by its new name), or None."""
        for part in sections(self.patch):
            if part.split("\n", 1)[0].endswith(f" b/{path}"):
                return part
        return None

    def patch_without(self, path):
        return "".join(p for p in sections(self.patch) if not p.split("\n", 1)[0].endswith(f" b/{path}"))

    def in_parent(self, path):
        return subprocess.run(["git", "-C", str(self.repo), "cat-file", "-e", f"{self.parent}:{path}"],
                              capture_output=True).returncode == 0

    def paths(self):
        out = []
        for f in self.files:
            for p in (f.old_path, f.path):
                if p not in out:
                    out.append(p)
        return out

    def modified(self):
        """Files the commit changes in place (text on both sides), in diff order."""
        return [f for f in self.files if f.status == "M" and f.old is not None and f.new is not None]


# Files above this size are generated (bundles, lock files, vendored code): no agent edits
# them by hand, so no mutation is built on them.
MAX_TEXT = 256 * 1024


def text_or_none(data):
    if data is None or b"\0" in data[:8000] or len(data) > MAX_TEXT:
        return None
    return data


def sections(patch):
    """The patch split before each `diff --git` line."""
    parts = re.split(r"(?m)^(?=diff --git )", patch)
    return [p for p in parts if p]


def parse_zero_context(diff):
    """FileChange per file of a `git diff -U0 -M` output (quoted paths are skipped)."""
    files, current = [], None
    for line in diff.split(b"\n"):
        if line.startswith(b"diff --git "):
            current = None
            if b'"' in line:
                continue
            a, _, b = line[len(b"diff --git a/"):].decode("utf-8", "surrogateescape").partition(" b/")
            current = FileChange(b, a, "M")
            files.append(current)
        elif current is None:
            continue
        elif line.startswith(b"new file mode"):
            current.status = "A"
        elif line.startswith(b"deleted file mode"):
            current.status = "D"
        elif line.startswith(b"rename from") or line.startswith(b"copy from"):
            current.status = "R"
        elif line.startswith(b"Binary files"):
            current.status = "B"
        elif m := HUNK.match(line):
            old_start, old_len = int(m[1]), int(m[2] if m[2] is not None else 1)
            new_start, new_len = int(m[3]), int(m[4] if m[4] is not None else 1)
            current.old_rows.update(range(old_start - 1, old_start - 1 + old_len))
            current.new_rows.update(range(new_start - 1, new_start - 1 + new_len))
            if old_len == 0:
                current.insert_rows.append(old_start)  # inserted after old line old_start
    return files


def file_diff(path, old, new, mode="100644"):
    """A git-style unified diff of one file from `old` to `new` (bytes; None: absent)."""
    decode = lambda b: b.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    a, b = decode(old) if old is not None else [], decode(new) if new is not None else []
    out = [f"diff --git a/{path} b/{path}\n"]
    if old is None:
        out += [f"new file mode {mode}\n", "--- /dev/null\n", f"+++ b/{path}\n"]
    elif new is None:
        out += [f"deleted file mode {mode}\n", f"--- a/{path}\n", "+++ /dev/null\n"]
    else:
        out += [f"--- a/{path}\n", f"+++ b/{path}\n"]
    body = list(difflib.unified_diff(a, b, n=3))[2:]
    if not body:
        return None
    for line in body:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def rows(text):
    return text.split(b"\n")


def row_offset(text, row):
    """Byte offset of the start of 0-based `row`."""
    at = 0
    for _ in range(row):
        nl = text.find(b"\n", at)
        if nl < 0:
            return len(text)
        at = nl + 1
    return at
