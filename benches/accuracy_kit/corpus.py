"""The corpus's real commits as executor results: read from a clone of each bundle with a few
git processes per window (one `git log` for the messages, two `git diff-tree --stdin` for the
diffs and the paths), and the bench's policy commits made by one `git fast-import`."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
POLICY = "[rules]\nallow_symlinks = true\nallow_binary = true\n"
DEFAULT_CORPUS = pathlib.Path(os.environ.get("PATCHGATE_CORPUS", ROOT.parent / "shared" / "corpus"))
IDENT = {f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
         for what, value in (("NAME", "accuracy"), ("EMAIL", "accuracy@localhost"))}


def git(repo, *args, stdin=None, env=None):
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, input=stdin,
        env=None if env is None else {**os.environ, **env},
    ).stdout


def default_binary():
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "patchgate"
        if candidate.exists():
            return candidate
    sys.exit("accuracy: no patchgate binary under target/; run `cargo build --release` first")


def clone(bundle, into):
    subprocess.run(
        ["git", "clone", "--quiet", "--no-checkout", str(bundle), str(into)],
        check=True,
        capture_output=True,
    )


def with_policy(repo, commit):
    """A child of `commit` whose tree is `commit`'s plus the bench's `.patchgate.toml` at the root.

    patchgate reads the policy from the base tree (never the worktree, which the judged change
    could write), so a team's policy is part of the commit a step names; the corpus's commits hold
    none, and a change that does not touch the policy validates against this commit as against
    `commit` itself."""
    blob = git(repo, "hash-object", "-w", "--stdin", stdin=POLICY.encode()).decode().strip()
    entries = [e for e in git(repo, "ls-tree", "-z", commit).split(b"\0")
               if e and not e.endswith(b"\t.patchgate.toml")]
    entries.append(f"100644 blob {blob}\t.patchgate.toml".encode())
    tree = git(repo, "mktree", "-z", stdin=b"\0".join(entries) + b"\0").decode().strip()
    return git(repo, "commit-tree", tree, "-p", commit, "-m", "the bench's policy",
               env=IDENT).decode().strip()


class Policies:
    """[`with_policy`] of each base, made once per (repository, base): [`prepare`] makes many in
    one `git fast-import` (the same trees: the base's with `.patchgate.toml` put at the root)."""

    def __init__(self, scratch):
        self.scratch, self._bases = scratch, {}
        scratch.mkdir(parents=True, exist_ok=True)

    def prepare(self, repo, revs):
        revs = [r for r in dict.fromkeys(revs) if (str(repo), r) not in self._bases]
        if not revs:
            return
        policy = POLICY.encode()
        stream = [b"blob\nmark :1\ndata %d\n%s\n" % (len(policy), policy)]
        message = b"the bench's policy"
        who = b"accuracy <accuracy@localhost> 0 +0000"
        for i, rev in enumerate(revs, start=2):
            stream.append(b"commit refs/accuracy/policy\nmark :%d\nauthor %s\ncommitter %s\n"
                          b"data %d\n%s\nfrom %s\nM 100644 :1 .patchgate.toml\n\n"
                          % (i, who, who, len(message), message, rev.encode()))
        marks = self.scratch / "marks"
        git(repo, "fast-import", "--quiet", "--force", f"--export-marks={marks}",
            stdin=b"".join(stream))
        made = dict(line.split(" ", 1) for line in marks.read_text().split("\n") if line)
        for i, rev in enumerate(revs, start=2):
            self._bases[(str(repo), rev)] = made[f":{i}"].strip()

    def base(self, repo, rev):
        key = (str(repo), rev)
        if key not in self._bases:
            self._bases[key] = with_policy(repo, rev)
        return self._bases[key]


def window(repo, skip, count):
    """Non-merge commits skip+1 .. skip+count, newest first."""
    out = git(repo, "rev-list", "--no-merges", f"--skip={skip}", "-n", str(count), "HEAD")
    return out.decode().split()


def touched_paths(repo, parent, commit):
    """Every path the commit changes, both sides of renames and copies."""
    return paths_of(git(repo, "diff", "--name-status", "-z", "-M", parent, commit))


def paths_of(name_status):
    """The paths of a `--name-status -z` listing, both sides of renames and copies, in order."""
    out = name_status.split(b"\0")
    paths, i = [], 0
    while i < len(out) and out[i]:
        status = out[i].decode()
        count = 2 if status[0] in "RC" else 1
        for raw in out[i + 1 : i + 1 + count]:
            path = raw.decode("utf-8", "surrogateescape")
            if path not in paths:
                paths.append(path)
        i += 1 + count
    return paths


def result_for(patch, paths, summary):
    return {
        "mode": "apply",
        "success": True,
        "patch": patch.decode("utf-8", "surrogateescape") if isinstance(patch, bytes) else patch,
        "filesWritten": paths,
        "filesTouched": paths,
        "summary": summary,
    }


def prepared(parent, message, patch, paths):
    """(parent, message, result), or None for a diff no executor result can carry: empty, or
    not UTF-8 (a JSON text holds Unicode only)."""
    try:
        patch.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not patch:
        return None
    return parent, message, result_for(patch, paths, message.splitlines()[0] if message else "")


def case(repo, commit):
    """(parent, message, result) for one commit: its own diff, every path declared. None for a
    commit no executor result can carry: a root commit (no parent to validate against), an
    empty one (no diff), one whose diff is not UTF-8. [`cases`] reads many at once."""
    parents = git(repo, "rev-list", "--parents", "-n", "1", commit).split()
    if len(parents) != 2:
        return None
    parent = parents[1].decode()
    patch = git(repo, "diff", "--binary", "-M", parent, commit)
    message = git(repo, "log", "-1", "--format=%B", commit).decode("utf-8", "replace").strip()
    return prepared(parent, message, patch, touched_paths(repo, parent, commit))


def parents_and_messages(repo, commits):
    """{sha: (parents, message)} of `commits`, by one `git log`."""
    out = git(repo, "log", "-z", "--no-walk=unsorted", "--stdin", "--format=%H %P%x01%B",
              stdin="".join(f"{c}\n" for c in commits).encode())
    found = {}
    for record in out.split(b"\0"):
        if not record.strip():
            continue
        head, _, body = record.partition(b"\x01")
        sha, *parents = head.decode().split()
        found[sha] = (parents, body.decode("utf-8", "replace").strip())
    return found


def diff_each(repo, commits, *options, end=b"\n"):
    """{sha: bytes}: what `git diff-tree -r OPTIONS <sha>` prints for each commit after its id
    (its diff against its one parent; b"" for an empty diff), by one `git diff-tree --stdin`.
    `end` is what follows the id: a newline, or NUL with `-z`."""
    out = git(repo, "diff-tree", "--stdin", "-r", *options,
              stdin="".join(f"{c}\n" for c in commits).encode())
    # diff-tree answers in input order: each commit's id and `end`, then its diff, which ends
    # with `end`; a commit with an empty diff prints nothing.
    found = dict.fromkeys(commits, b"")
    i = next((j for j, c in enumerate(commits) if out.startswith(c.encode() + end)), len(commits))
    at = 0
    while i < len(commits):
        body = at + len(commits[i]) + len(end)
        at, following = len(out), len(commits)
        for j in range(i + 1, len(commits)):
            hit = out.find(end + commits[j].encode() + end, body)
            if hit >= 0:
                at, following = hit + len(end), j
                break
        found[commits[i]] = out[body:at]
        i = following
    if at != len(out):
        raise RuntimeError(f"git diff-tree's output in {repo} is not one diff per commit")
    return found


def cases(repo, commits):
    """[`case`] of each commit, in order, read with three git processes for all of them."""
    known = parents_and_messages(repo, commits)
    single = [c for c in commits if len(known[c][0]) == 1]
    patches = diff_each(repo, single, "-p", "--binary", "-M")
    names = diff_each(repo, single, "--name-status", "-z", "-M", end=b"\0")
    out = []
    for commit in commits:
        parents, message = known[commit]
        if len(parents) != 1:
            out.append(None)
            continue
        out.append(prepared(parents[0], message, patches[commit], paths_of(names[commit])))
    return out


def subject_of(message):
    return message.splitlines()[0] if message else ""
