#!/usr/bin/env python3
"""Build the npm and PyPI packages from this repository, around one release build.

    python3 packages/build.py [--out DIR] [--skip-cargo]

1. checks that the generated types (packages/schema_types.py) match schemas/;
2. `cargo build --release --locked` (the only compilation; both packages reuse its binary);
3. npm: `patchgate` (the typed API and a launcher) and `@patchgate/linux-x64` (the binary),
   the esbuild/biome layout: the main package finds the platform package among its optional
   dependencies, and says what to do on a platform without one;
4. PyPI: a wheel by maturin (`bindings = "bin"`: the binary as a script, plus the Python API).

The packages land in DIR (default target/packages): two .tgz files and one .whl, never
published. Everything prints what it runs; a failing step stops the build with its message.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "packages" / "npm"
PYTHON = ROOT / "packages" / "python"
# The npm platform package this machine can build, keyed like the main package's PLATFORMS.
NPM_PLATFORMS = {("Linux", "x86_64"): ("linux-x64", "linux", "x64")}


def run(argv: list[str], cwd: Path = ROOT) -> str:
    print("+", " ".join(str(a) for a in argv), flush=True)
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"build: '{argv[0]}' failed with exit {done.returncode}")
    return done.stdout


def version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["package"]["version"]


def target_dir() -> Path:
    """Where cargo builds: `CARGO_TARGET_DIR`, a `build.target-dir` in cargo's configuration, else
    target/ (asked of cargo itself, so this script and maturin read the same binary)."""
    listing = run(["cargo", "metadata", "--no-deps", "--format-version", "1"])
    return Path(json.loads(listing)["target_directory"])


def release_binary(skip: bool) -> Path:
    binary = target_dir() / "release" / "patchgate"
    if not skip:
        started = time.monotonic()
        run(["cargo", "build", "--release", "--locked", "--bin", "patchgate"])
        print(f"build: release build took {time.monotonic() - started:.0f} s", flush=True)
    if not binary.is_file():
        fix = ("build it with 'cargo build --release --locked', or run without --skip-cargo"
               if skip else "cargo reported success but wrote no binary there")
        sys.exit(f"build: {binary} is missing; {fix}")
    print(f"build: {binary} is {binary.stat().st_size:,} bytes", flush=True)
    return binary


def stage(src: Path, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest)
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


def write_manifest(directory: Path, manifest: dict) -> None:
    (directory / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")


def npm_packages(binary: Path, out: Path, staging: Path) -> list[Path]:
    key = (platform.system(), platform.machine())
    if key not in NPM_PLATFORMS:
        sys.exit(f"build: no npm platform package for {key}; this script builds linux-x64")
    name, os_name, cpu = NPM_PLATFORMS[key]
    ver = version()
    main = stage(NPM / "patchgate", staging / "patchgate")
    manifest = json.loads((main / "package.json").read_text())
    manifest["version"] = ver
    manifest["optionalDependencies"] = {f"@patchgate/{name}": ver}
    manifest["files"] += ["LICENSE-MIT", "LICENSE-APACHE"]
    write_manifest(main, manifest)
    plat = stage(NPM / "platform", staging / name)
    (plat / "bin").mkdir(exist_ok=True)
    shutil.copy2(binary, plat / "bin" / "patchgate")
    write_manifest(plat, {
        "name": f"@patchgate/{name}",
        "version": ver,
        "description": f"The patchgate binary for {name} (installed by the 'patchgate' package).",
        "license": manifest["license"],
        "repository": manifest["repository"],
        "os": [os_name],
        "cpu": [cpu],
        "files": ["bin/patchgate", "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
        "preferUnplugged": True,
    })
    tarballs = []
    for directory in (main, plat):
        listing = run(["npm", "pack", "--json", "--pack-destination", str(out)], cwd=directory)
        tarballs.append(out / json.loads(listing)[0]["filename"])
    return tarballs


def wheel(out: Path) -> Path:
    before = set(out.glob("*.whl"))
    # Same profile and flags as the build above, so cargo finds the binary fresh and only the
    # wheel is written.
    run([sys.executable, "-m", "maturin", "build", "--release", "--locked", "--out", str(out)],
        cwd=PYTHON)
    made = sorted(set(out.glob("*.whl")) - before)
    if len(made) != 1:
        sys.exit(f"build: maturin wrote {len(made)} wheels, expected one")
    return made[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "packages")
    parser.add_argument("--skip-cargo", action="store_true",
                        help="reuse the release binary cargo last built (under CARGO_TARGET_DIR "
                             "when set) as it is")
    args = parser.parse_args()
    run([sys.executable, str(ROOT / "packages" / "schema_types.py"), "--check"])
    binary = release_binary(args.skip_cargo)
    out = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    (out / "dist").mkdir(parents=True)
    artifacts = npm_packages(binary, out / "dist", out / "staging")
    artifacts.append(wheel(out / "dist"))
    for path in artifacts:
        print(f"build: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
              f"({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
