#!/usr/bin/env bash
# `patchgate mcp` through its real clients: the official Python MCP SDK (PyPI `mcp`, installed
# into a virtualenv under target/) spawning the server and calling every tool
# (e2e/mcp_client.py), then Claude Code registering it with --mcp-config against the scripted
# model server (e2e/mcp_agent.py). Claude Code comes from the agents stage's cache
# (tests/agents_e2e.sh installs it; PATCHGATE_E2E_CACHE as there).
#
#   bash tests/mcp_e2e.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
cache="${PATCHGATE_E2E_CACHE:-target/e2e-agents}"
venv=target/mcp-sdk

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import mcp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check mcp
fi
echo "mcp e2e: the Python SDK $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"

cargo build --locked --quiet
"$venv/bin/python" e2e/mcp_client.py --patchgate target/debug/patchgate

claude="$cache/node_modules/.bin/claude"
if [ ! -x "$claude" ]; then
  echo "mcp e2e: no Claude Code in $cache; run tests/agents_e2e.sh first (it installs it)" >&2
  exit 1
fi
closed="http://127.0.0.1:9"
HTTP_PROXY=$closed HTTPS_PROXY=$closed ALL_PROXY=$closed \
  http_proxy=$closed https_proxy=$closed all_proxy=$closed \
  NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost \
  python3 e2e/mcp_agent.py --bin "$cache/node_modules/.bin" --patchgate target/debug/patchgate
echo "mcp e2e: $((SECONDS - started)) s in all"
