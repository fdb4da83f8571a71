#!/usr/bin/env bash
# The guard inside the real agent CLIs (Claude Code, Gemini CLI, Codex CLI, Cline): installs the
# pinned versions from npm into a cache directory (reused when present), builds patchgate, and
# runs e2e/agents.py, which hooks patchgate in through the README's own snippets and drives each
# agent headless against a scripted model server on 127.0.0.1.
#
#   bash tests/agents_e2e.sh                 # every agent
#   bash tests/agents_e2e.sh --agent codex   # arguments go to e2e/agents.py
#
# PATCHGATE_E2E_CACHE chooses the cache (default target/e2e-agents).
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions the README's guard section names; bump both together.
PACKAGES=(
  @anthropic-ai/claude-code@2.1.330
  @google/gemini-cli@0.61.0
  @openai/codex@0.169.0
  cline@3.0.65
)
cache="${PATCHGATE_E2E_CACHE:-target/e2e-agents}"
stamp="$cache/installed-$(printf '%s ' "${PACKAGES[@]}" | sha1sum | cut -c1-12)"
if [ ! -e "$stamp" ]; then
  echo "installing ${PACKAGES[*]} into $cache"
  start=$SECONDS
  rm -rf "$cache"
  mkdir -p "$cache"
  echo '{"name": "patchgate-e2e-agents", "private": true}' > "$cache/package.json"
  npm install --prefix "$cache" --no-audit --no-fund --omit=dev --loglevel=error "${PACKAGES[@]}"
  touch "$stamp"
  echo "installed in $((SECONDS - start)) s"
fi
cargo build --locked --quiet
python3 e2e/agents.py --bin "$cache/node_modules/.bin" --patchgate target/debug/patchgate "$@"
