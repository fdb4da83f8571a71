#!/usr/bin/env bash
# Time `patchgate validate` on a step whose allowedFiles holds one literal glob of N bytes
# (glob compilation cost grows with the square of the length), at the default [limits]
# pattern_bytes (1024) and over it (65536, refused before compiling).
#   benches/glob_limit.sh [path/to/patchgate]   (default: target/debug/patchgate)
set -euo pipefail
bin=$(realpath "${1:-target/debug/patchgate}")
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q r && echo hi > r/a.txt && git -C r add . \
  && git -C r -c user.name=b -c user.email=b@b commit -qm init
printf '%s' '{"mode":"apply","success":true,"summary":"x","patch":"diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-hi\n+ho\n"}' > result.json
for n in 1024 2048 4096 8192 65536; do
  python3 -c "import json,sys; json.dump({'description':'edit a.txt','allowedFiles':['a'*$n]}, sys.stdout)" > step.json
  start=$(date +%s.%N)
  code=0; "$bin" validate --repo r --step step.json --result result.json >/dev/null 2>&1 || code=$?
  end=$(date +%s.%N)
  printf '%6d-byte glob: exit %d in %.2f s\n' "$n" "$code" "$(echo "$end - $start" | bc)"
done
