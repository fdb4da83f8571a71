"""The corpus's real commits as executor results, and one `patchgate validate` run per case."""

import json
import os
import pathlib
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
POLICY = "[rules]\nallow_symlinks = true\nallow_binary = true\n"
DEFAULT_CORPUS = pathlib.Path(os.environ.get("PATCHGATE_CORPUS", ROOT.parent / "shared" / "corpus"))


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
    ident = {f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
             for what, value in (("NAME", "accuracy"), ("EMAIL", "accuracy@localhost"))}
    return git(repo, "commit-tree", tree, "-p", commit, "-m", "the bench's policy",
               env=ident).decode().strip()


def window(repo, skip, count):
    """Non-merge commits skip+1 .. skip+count, newest first."""
    out = git(repo, "rev-list", "--no-merges", f"--skip={skip}", "-n", str(count), "HEAD")
    return out.decode().split()


def touched_paths(repo, parent, commit):
    """Every path the commit changes, both sides of renames and copies."""
    out = git(repo, "diff", "--name-status", "-z", "-M", parent, commit).split(b"\0")
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


def case(repo, commit):
    """(parent, message, result) for one commit: its own diff, every path declared. None for a
    commit no executor result can carry: a root commit (no parent to validate against), an
    empty one (no diff), one whose diff is not UTF-8 (a JSON text holds Unicode only)."""
    parents = git(repo, "rev-list", "--parents", "-n", "1", commit).split()
    if len(parents) != 2:
        return None
    parent = parents[1].decode()
    patch = git(repo, "diff", "--binary", "-M", parent, commit)
    try:
        patch.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not patch:
        return None
    message = git(repo, "log", "-1", "--format=%B", commit).decode("utf-8", "replace").strip()
    paths = touched_paths(repo, parent, commit)
    return parent, message, result_for(patch, paths, message.splitlines()[0] if message else "")


def subject_of(message):
    return message.splitlines()[0] if message else ""


class Runner:
    """Runs `patchgate validate` on one step and result; the outcome, None when accepted."""

    def __init__(self, binary, scratch):
        self.binary, self.scratch = binary, scratch
        self._bases, self._lock = {}, threading.Lock()
        scratch.mkdir(parents=True, exist_ok=True)

    def policy_base(self, repo, base):
        """[`with_policy`] of `base`, made once per (repository, base)."""
        with self._lock:
            key = (str(repo), base)
            if key not in self._bases:
                self._bases[key] = with_policy(repo, base)
            return self._bases[key]

    def validate(self, repo, tag, step, result):
        step = {**step, "base": self.policy_base(repo, step["base"])}
        stem = self.scratch / tag.replace("/", "_")
        step_file, result_file, report_file = (stem.with_suffix(s) for s in (".step", ".res", ".rep"))
        step_file.write_text(json.dumps(step))
        result_file.write_bytes(
            json.dumps(result, ensure_ascii=False).encode("utf-8", "surrogateescape"))
        proc = subprocess.run(
            [str(self.binary), "validate", "--repo", str(repo), "--no-record", "--step",
             str(step_file), "--result", str(result_file), "--report", str(report_file)],
            capture_output=True,
        )
        for f in (step_file, result_file):
            f.unlink()
        if proc.returncode == 0:
            report_file.unlink(missing_ok=True)
            return None
        if proc.returncode != 1:
            reason = proc.stderr.decode(errors="replace").strip()
            return {"exit": proc.returncode, "codes": [f"exit {proc.returncode}"], "reason": reason}
        report = json.loads(report_file.read_text())
        report_file.unlink()
        codes = sorted({f"{v['rule']}/{v['code']}" for v in report["violations"]})
        return {"exit": 1, "codes": codes, "reason": report["verdict"]["reason"]}
