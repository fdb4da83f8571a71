"""The removal and extraction variants (`mutate_named`) on commits made in a scratch repository:
what each builds, and that a commit without the shape builds none.

    python3 benches/accuracy_kit/test_mutate_named.py
"""

import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from accuracy_kit.commit import Blobs, Commit  # noqa: E402
from accuracy_kit.mutate_named import extraction, removal  # noqa: E402

BASE = b"""def keep_one():
    return 1


def old_helper(x):
    return x + 1


def run(x):
    total = x * 2
    return total + old_helper(x)
"""

REMOVED = b"""def keep_one():
    return 1


def run(x):
    total = x * 2
    return total + x + 1
"""

EXTRACTED = b"""def keep_one():
    return 1


def old_helper(x):
    return x + 1


def run(x):
    total = double(x)
    return total + old_helper(x)


def double(x):
    return x * 2
"""

EDITED = BASE.replace(b"x * 2", b"x * 3")


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


class NamedMutations(unittest.TestCase):
    def commit(self, new, base=BASE):
        """A Commit of `app.py` from `base` to `new` in a fresh repository."""
        repo = pathlib.Path(self.enterContext(tempfile.TemporaryDirectory()))
        git(repo, "init", "-q")
        for key, value in (("user.name", "t"), ("user.email", "t@t")):
            git(repo, "config", key, value)
        shas = []
        for text in (base, new):
            (repo / "app.py").write_bytes(text)
            git(repo, "add", "app.py")
            git(repo, "commit", "-q", "-m", "change")
            shas.append(git(repo, "rev-parse", "HEAD").decode().strip())
        blobs = Blobs(repo)
        self.addCleanup(blobs.close)
        return Commit(repo, blobs, shas[1], shas[0], "change\n")

    def by_variant(self, mutations):
        return {m.variant: m for m in mutations}

    def test_a_removal_is_answered_by_removing_another_definition_or_emptying_it(self):
        found = self.by_variant(removal(self.commit(REMOVED)))
        self.assertEqual(set(found), {"removal:other", "removal:empty"})
        other = found["removal:other"]
        self.assertEqual(other.descriptions, [("message", "Remove `old_helper` from app.py"),
                                              ("subject", "Remove old_helper")])
        removed = [l for l in other.patch.splitlines() if l.startswith("-") and not l.startswith("---")]
        self.assertTrue(any(l.startswith("-def ") for l in removed), other.patch)
        self.assertFalse(any("old_helper" in l for l in removed), "NAME itself is kept")
        empty = found["removal:empty"].patch
        self.assertIn("-    return x + 1\n+    pass\n", empty)
        self.assertNotIn("-def old_helper", empty)

    def test_an_extraction_is_answered_with_the_caller_unchanged_or_a_stub_helper(self):
        found = self.by_variant(extraction(self.commit(EXTRACTED)))
        self.assertEqual(set(found), {"extraction:inline", "extraction:stub"})
        inline = found["extraction:inline"]
        self.assertEqual(inline.descriptions[1], ("subject", "Extract double from run"))
        self.assertIn("+def double(x):\n+    return x * 2\n", inline.patch)
        self.assertNotIn("-", [l[:1] for l in inline.patch.splitlines()[4:]], "run is unchanged")
        stub = found["extraction:stub"].patch
        self.assertIn("+    total = double(x)", stub)
        self.assertIn("+def double(x):\n+    pass\n", stub)

    def test_a_type_removed_is_answered_by_removing_another_definition_only(self):
        base = BASE + b"\n\nclass LegacyClient:\n    def get(self):\n        return 1\n"
        found = self.by_variant(removal(self.commit(BASE, base=base)))
        self.assertEqual(set(found), {"removal:other"}, "a type's body is not emptied")
        other = found["removal:other"]
        self.assertEqual(other.descriptions[1], ("subject", "Remove LegacyClient"))
        self.assertNotIn("-class LegacyClient", other.patch)
        self.assertIn("-def run(x):", other.patch, "the nearest other definition")

    def test_a_commit_that_removes_or_extracts_nothing_builds_neither(self):
        commit = self.commit(EDITED)
        self.assertEqual(removal(commit), [])
        self.assertEqual(extraction(commit), [])


if __name__ == "__main__":
    unittest.main()
