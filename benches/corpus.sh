#!/usr/bin/env bash
# Build the large real git diff used by the parse benchmark and the corpus test, and print its
# path. Two published versions of one crate are fetched from crates.io with `cargo fetch` (a
# throwaway manifest with renamed dependencies), unpacked from cargo's cache, committed in a
# scratch repository and diffed with `git diff -M --binary`. The result is cached.
#
#   benches/corpus.sh            -> target/corpus/linux-raw-sys-0.4.15..0.12.1.diff
#   CORPUS_CRATE=syn CORPUS_OLD=2.0.0 CORPUS_NEW=2.0.119 benches/corpus.sh
#   CORPUS_REPO=DIR benches/corpus.sh   # also keep the two-commit repository (tags vOLD, vNEW) in DIR
set -euo pipefail

crate=${CORPUS_CRATE:-linux-raw-sys}
old=${CORPUS_OLD:-0.4.15}
new=${CORPUS_NEW:-0.12.1}
root=$(cd "$(dirname "$0")/.." && pwd)
out_dir=${CORPUS_DIR:-${CARGO_TARGET_DIR:-$root/target}/corpus}
out="$out_dir/$crate-$old..$new.diff"
if [[ -s "$out" && ( -z "${CORPUS_REPO:-}" || -d "${CORPUS_REPO:-}/.git" ) ]]; then
    echo "$out"
    exit 0
fi
mkdir -p "$out_dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fetch both versions through cargo (crates.io only; nothing is built), one manifest each so that
# two semver-compatible versions (web-sys 0.3.40 and 0.3.77) can both be fetched.
for version in "$old" "$new"; do
    mkdir -p "$work/fetch-$version/src"
    touch "$work/fetch-$version/src/lib.rs"
    cat >"$work/fetch-$version/Cargo.toml" <<TOML
[package]
name = "patchgate-corpus-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
fetched = { package = "$crate", version = "=$version", default-features = false }
TOML
    cargo fetch --quiet --manifest-path "$work/fetch-$version/Cargo.toml" >&2
done

find_crate() {
    local file
    file=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/cache" -name "$crate-$1.crate" | head -n 1)
    [[ -n "$file" ]] || { echo "corpus.sh: $crate-$1.crate not in cargo's cache" >&2; exit 1; }
    echo "$file"
}

# One commit per version in a scratch repository, then git's own diff between them.
repo=${CORPUS_REPO:-$work/repo}
git init -q "$repo"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=corpus GIT_AUTHOR_EMAIL=corpus@example.com
export GIT_COMMITTER_NAME=corpus GIT_COMMITTER_EMAIL=corpus@example.com
for version in "$old" "$new"; do
    find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    tar -xzf "$(find_crate "$version")" -C "$repo" --strip-components=1
    git -C "$repo" add -A
    git -C "$repo" commit -q --allow-empty -m "$crate $version"
    git -C "$repo" tag "v$version"
done
git -C "$repo" -c diff.renameLimit=10000 diff -M --binary "v$old" "v$new" >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
