#!/usr/bin/env bash
# Build the npm and PyPI packages (one release build), install them into a fresh virtualenv and
# a fresh npm project from the built files (nothing is published), and call their APIs on the
# bundled fixtures; also type-check both APIs (mypy --strict, tsc --strict). .ci/run runs this.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/patchgate-packages.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The APIs must find the packaged binary, not one the caller's environment names.
unset PATCHGATE_BINARY
started=$SECONDS
lap() { echo "packages: $1 ($((SECONDS - started)) s so far)"; }

# The build reads the binary where cargo writes it: under CARGO_TARGET_DIR when that is set.
if out=$(CARGO_TARGET_DIR="$work/elsewhere" python3 packages/build.py --skip-cargo \
        --out "$work/none" 2>&1); then
    echo "packages: build.py --skip-cargo passed with no binary in CARGO_TARGET_DIR" >&2
    exit 1
fi
grep -qF "$work/elsewhere/release/patchgate is missing; build it with" <<<"$out" || {
    echo "packages: build.py did not look in CARGO_TARGET_DIR: $out" >&2
    exit 1
}

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check maturin
"$work/build/bin/python" packages/build.py --out "$work/out"
lap "built"
# What both packages ship: the release binary, at most 26.5 MB (26.08 MB on 2026-11-28; the
# grammars' parse tables are most of it; PHP, C# and Swift are left to features for this; the
# MCP server's async stack and the progress bar are optimised for size; see docs/packaging.md).
target=$(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
size=$(stat -c %s "$target/release/patchgate")
echo "packages: the release binary is $size bytes"
if (( size > 26500000 )); then
    echo "packages: the release binary is over 26.5 MB ($size bytes): look at what grew" >&2
    exit 1
fi
dist=$work/out/dist

echo "== PyPI package in a fresh virtualenv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$dist"/patchgate-*.whl mypy
(cd "$work" && "$work/venv/bin/python" "$root/packages/test/test_python.py" -v)
(cd "$work" && "$work/venv/bin/mypy" --strict --no-incremental \
    "$root/packages/test/test_python.py" "$root/packages/test/typecheck.py")
lap "PyPI package tested"

# patchgate.ray on a local Ray cluster (ray[data] from PyPI, about 600 MB installed) over the
# shared agent corpus's predictions: the example's Parquet must hold the batch mode's verdicts.
echo "== patchgate.ray on a local Ray cluster"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "ray[data]"
lap "ray installed"
(cd "$work" && PATCHGATE_CORPUS="${PATCHGATE_CORPUS:-$root/../shared/corpus}" \
    "$work/venv/bin/python" "$root/packages/test/test_ray.py" -v)
lap "patchgate.ray tested"

echo "== npm package in a fresh npm project"
mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error \
    "$dist"/patchgate-linux-x64-*.tgz "$dist"/patchgate-[0-9]*.tgz typescript
PATCHGATE_FIXTURES="$root/fixtures" node --test "$root/packages/test/test_npm.mjs"
cp "$root/packages/test/typecheck.ts" .
npx --no-install tsc --strict --noEmit --module nodenext --moduleResolution nodenext \
    --skipLibCheck false typecheck.ts 2>&1 || {
    echo "packages: the TypeScript declarations do not type-check" >&2
    exit 1
}
lap "npm package tested"
