"""Where the `patchgate` binary of this package is."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

ENV = "PATCHGATE_BINARY"


def find_binary() -> str:
    """The `patchgate` executable: `$PATCHGATE_BINARY` when set, else the one this package
    installed into the environment's scripts directory (a virtualenv, `--user` or `--target`
    install), else an error that says what to do."""
    override = os.environ.get(ENV)
    if override:
        return override
    name = "patchgate" + (sysconfig.get_config_var("EXE") or "")
    for directory in _script_dirs():
        candidate = directory / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise FileNotFoundError(
        f"the patchgate binary is not where this package installs it ({name} in "
        f"{sysconfig.get_path('scripts')}); reinstall the patchgate wheel, or set {ENV} to a "
        f"patchgate binary (built in a patchgate checkout with 'cargo install --path . --locked')"
    )


def _script_dirs() -> list[Path]:
    dirs = [Path(sysconfig.get_path("scripts"))]
    user_scheme = {"nt": "nt_user", "posix": "posix_user"}.get(os.name)
    if user_scheme and user_scheme in sysconfig.get_scheme_names():
        dirs.append(Path(sysconfig.get_path("scripts", scheme=user_scheme)))
    # `pip install --target DIR` puts scripts in DIR/bin, beside this package's directory.
    dirs.append(Path(__file__).resolve().parent.parent / "bin")
    dirs.append(Path(sys.prefix) / "bin")
    return dirs
