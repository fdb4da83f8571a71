"""The `comment:reword` variant (`mutate_reword`) on commits made in a scratch repository: the
comment nearest the change reworded and nothing else, and no variant from a comment-only commit.

    python3 benches/accuracy_kit/test_mutate_reword.py
"""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from accuracy_kit.mutate_reword import block_scalar_rows, reword, reworded  # noqa: E402
from accuracy_kit import test_mutate_named  # noqa: E402

BASE = b"""#!/usr/bin/env python3
# Copyright the authors of this project.


def run(x):
    # Double the input before adding one to it.
    total = x * 2
    return total + 1
"""

FIXED = BASE.replace(b"x * 2", b"x * 3")
COMMENTED = BASE.replace(b"adding one", b"adding exactly one")


class Reword(unittest.TestCase):
    commit = test_mutate_named.NamedMutations.commit  # a Commit of `app.py` in a fresh repository

    def test_the_comment_nearest_the_change_is_reworded_instead_of_the_change(self):
        found = reword(self.commit(FIXED, base=BASE))
        self.assertEqual([m.label for m in found], ["comment:reword (python)"])
        patch = found[0].patch
        self.assertIn("-    # Double the input before adding one to it.\n"
                      "+    # Note: double the input before adding one to it.\n", patch)
        self.assertNotIn("x * 3", patch, "the commit's own change is left out")

    def test_a_comment_only_commit_builds_none(self):
        self.assertEqual(reword(self.commit(COMMENTED, base=BASE)), [])

    def test_markers_and_headers_are_kept_out(self):
        self.assertEqual(reworded(b"  /// Returns the count"), b"  /// Note: returns the count")
        self.assertEqual(reworded(b"  // TODO: drop this"), b"  // Note: TODO: drop this")
        self.assertIsNone(reworded(b" * @param x the thing"))

    def test_a_yaml_block_scalar_holds_text_not_comments(self):
        lines = [b"jobs:", b"  build:", b"    # Build on every push", b"    run: |",
                 b"      # Install the tools first", b"      make", b"",
                 b"      make test", b"    # Then upload", b"    with: x"]
        self.assertEqual(block_scalar_rows(lines), {4, 5, 6, 7})
        # The twin: a `#` line beside keys, outside any block scalar, is a comment.
        self.assertNotIn(2, block_scalar_rows(lines))
        self.assertNotIn(8, block_scalar_rows(lines))


if __name__ == "__main__":
    unittest.main()
