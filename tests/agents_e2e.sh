#!/usr/bin/env bash
# The guard inside the real agent CLIs (Claude Code, Gemini CLI, Codex CLI, Cline): installs the
# pinned versions from npm into a cache directory (reused when present), builds patchgate, and
# runs e2e/agents.py, which hooks patchgate in with `patchgate guard install` and drives each
# agent headless against a scripted model server on 127.0.0.1 (three sessions each: the project's
# settings, the user's settings started in a subdirectory, and patchgate missing from PATH).
#
#   bash tests/agents_e2e.sh                 # every agent
#   bash tests/agents_e2e.sh --agent codex   # arguments go to e2e/agents.py
#
# PATCHGATE_E2E_CACHE chooses the cache (default target/e2e-agents). The only network used is
# npm's registry (for the install) and loopback (the model server); the agents run with every
# proxy variable pointing at a closed loopback port, so what they would fetch elsewhere fails
# fast instead of leaving the machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions docs/commands/guard.md names; bump both together.
PACKAGES=(
  @anthropic-ai/claude-code@2.1.330
  @google/gemini-cli@0.61.0
  @openai/codex@0.169.0
  cline@3.0.65
)
cache="${PATCHGATE_E2E_CACHE:-target/e2e-agents}"
stamp="$cache/installed-$(printf '%s ' "${PACKAGES[@]}" | sha1sum | cut -c1-12)"
started=$SECONDS

fail() {
  echo "agents e2e: $*" >&2
  exit 1
}

for tool in node npm python3 git cargo; do
  command -v "$tool" >/dev/null || fail "'$tool' is not installed; the stage needs node and npm \
(Node 20 or later), python3, git and cargo"
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "Node $(node --version) is too old; the agent CLIs need Node 20 or later"

# Install into a fresh directory beside the cache and move it into place only when complete, so
# an interrupted or failed install never leaves a cache that looks usable.
install() {
  local staging="$cache.partial"
  rm -rf "$staging"
  mkdir -p "$staging"
  echo '{"name": "patchgate-e2e-agents", "private": true}' > "$staging/package.json"
  npm install --prefix "$staging" --no-audit --no-fund --omit=dev --save-exact \
    --loglevel=error --fetch-retries=4 --fetch-retry-mintimeout=5000 \
    --fetch-retry-maxtimeout=60000 "${PACKAGES[@]}" || return 1
  for bin in claude gemini codex cline; do
    [ -x "$staging/node_modules/.bin/$bin" ] || { echo "npm installed no '$bin'" >&2; return 1; }
  done
  touch "$staging/$(basename "$stamp")"
  rm -rf "$cache"
  mv "$staging" "$cache"
}

if [ ! -e "$stamp" ]; then
  echo "installing ${PACKAGES[*]} into $cache"
  for attempt in 1 2 3; do
    install && break
    [ "$attempt" = 3 ] && fail "npm could not install the agent CLIs after 3 attempts (see its \
errors above); check that https://registry.npmjs.org is reachable, or install them into \
$cache yourself"
    echo "npm install failed (attempt $attempt of 3); retrying in $((attempt * 15)) s" >&2
    sleep $((attempt * 15))
  done
  echo "installed in $((SECONDS - started)) s"
fi

cargo build --locked --quiet
closed="http://127.0.0.1:9"
HTTP_PROXY=$closed HTTPS_PROXY=$closed ALL_PROXY=$closed \
  http_proxy=$closed https_proxy=$closed all_proxy=$closed \
  NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost \
  python3 e2e/agents.py --bin "$cache/node_modules/.bin" --patchgate target/debug/patchgate "$@"
echo "agents e2e: $((SECONDS - started)) s in all"
