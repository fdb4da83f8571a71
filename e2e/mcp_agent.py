#!/usr/bin/env python3
"""`patchgate mcp` inside a real agent: Claude Code (installed from npm) registers the server
with `--mcp-config` and runs headless against the scripted model server (`model.py`). Claude
Code lists MCP tools by name and loads a schema on request (its ToolSearch tool), so the model
first loads `validate_result`'s schema (the one under schemas/mcp/ must reach it), then calls
the tool on its own diff twice: first with a result that declares the wrong file (patchgate
must say no, and why), then with the result fixed (patchgate must say yes). The checks read
what Claude Code sent the model after each call, never what patchgate printed.

    python3 e2e/mcp_agent.py --bin DIR_WITH_CLAUDE --patchgate target/debug/patchgate

Exit 0 when every check holds. `tests/mcp_e2e.sh` runs it.
"""

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import agents  # noqa: E402
import model  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOL = "mcp__patchgate__validate_result"
STEP = {"description": "Rename main to start in src/main.rs", "allowedFiles": ["src/**"]}
PATCH = ("--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1 +1 @@\n-fn main() {}\n"
         "+fn start() {}\n")
WRONG = {"mode": "apply", "success": True, "patch": PATCH, "filesWritten": ["src/lib.rs"],
         "filesTouched": ["src/lib.rs"], "summary": "renamed main to start"}
FIXED = dict(WRONG, filesWritten=["src/main.rs"], filesTouched=["src/main.rs"])

# What the model must be told after each call, and must not be.
CALLS = [
    (("ToolSearch", {"query": f"select:{TOOL}"}), [TOOL], []),
    ((TOOL, {"step": STEP, "result": WRONG}),
     ['"valid":false', '"reason":"declared: filesWritten lists src/lib.rs'], ['"valid":true']),
    ((TOOL, {"step": STEP, "result": FIXED}),
     ['"valid":true', "accepted: 1 file, +1 -1"], ['"valid":false']),
]


def mcp_config(root, patchgate):
    """The `--mcp-config` file: patchgate's server, started in the agent's directory."""
    path = root / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"patchgate": {
        "type": "stdio", "command": str(patchgate), "args": ["mcp"]}}}))
    return path


def is_offered(conversation):
    """Whether the agent's first scripted request names the tool (among its tools, or among
    those it loads on request)."""
    _, body = conversation[0]
    return TOOL in json.dumps(body)


def loaded_schema(conversation):
    """The tool's input schema as the model receives it once loaded: in the tools of the last
    request."""
    _, body = conversation[-1]
    for tool in body.get("tools", []):
        if tool.get("name") == TOOL:
            return tool.get("input_schema")
    return None


def run(bin_dir, patchgate, script, port):
    root = pathlib.Path(tempfile.mkdtemp(prefix="patchgate-mcp-agent-"))
    try:
        repo = agents.make_repo(root)
        home = root / "home"
        home.mkdir()
        claude = agents.ClaudeCode(bin_dir, repo, home, port)
        command = [*claude.command(), "--mcp-config", str(mcp_config(root, patchgate)),
                   "--strict-mcp-config"]
        script.reset([call for call, _, _ in CALLS])
        started = time.monotonic()
        proc = subprocess.run(command, cwd=repo, env=claude.env(agents.os.environ["PATH"]),
                              capture_output=True, text=True, timeout=600,
                              stdin=subprocess.DEVNULL)
        print(f"== claude-code with patchgate mcp: {time.monotonic() - started:.0f} s, "
              f"exit {proc.returncode}")
        return judge(script.conversation(), proc, repo)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def judge(conversation, proc, repo):
    failures = 0
    if not conversation:
        print(f"FAIL the agent never asked the model\n     stderr: {proc.stderr[-1500:]}")
        return 1
    ok = is_offered(conversation)
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} the model is offered {TOOL}")
    committed = json.loads((ROOT / "schemas" / "mcp" / "validate_result.schema.json").read_text())
    schema = loaded_schema(conversation)
    # The agent may drop the keywords that only name the schema.
    ok = schema is not None and {k: v for k, v in schema.items() if k not in ("$schema", "title")} \
        == {k: v for k, v in committed.items() if k not in ("$schema", "title")}
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} once loaded, the model has schemas/mcp/validate_result's "
          "input schema" + ("" if ok else f" (got {json.dumps(schema)[:300]})"))
    last = conversation[-1][1]
    made = model.calls_made("anthropic", last)
    for index, (_, must, must_not) in enumerate(CALLS):
        told = model.after_call("anthropic", last, index) if index < made else ""
        missing = [t for t in must if t not in told]
        present = [t for t in must_not if t in told]
        ok = index < made and not missing and not present
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} call {index + 1}: the model is told what it asked"
              + ("" if ok else f" (missing {missing}, wrongly {present})"))
        print(f"     model was told: {told[:300]!r}")
    unchanged = (repo / "src" / "main.rs").read_text() == agents.MAIN_RS
    failures += not unchanged
    print(f"{'ok  ' if unchanged else 'FAIL'} validate_result left the worktree as it was")
    if failures:
        print(f"     stderr: {proc.stderr[-1500:]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="directory holding the claude CLI")
    parser.add_argument("--patchgate", required=True, type=pathlib.Path)
    args = parser.parse_args()
    script = model.Script()
    server, port = model.serve(script)
    try:
        failures = run(str(pathlib.Path(args.bin).resolve()), args.patchgate.resolve(), script,
                       port)
    finally:
        server.shutdown()
    print(f"\n{failures} check(s) failed" if failures else "\nevery check held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
