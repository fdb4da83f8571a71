"""`python -m patchgate ARGS`: run the bundled binary with ARGS."""

import os
import subprocess
import sys

from ._binary import find_binary


def main() -> int:
    binary = find_binary()
    if os.name == "posix":
        os.execv(binary, [binary, *sys.argv[1:]])
    return subprocess.run([binary, *sys.argv[1:]], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
