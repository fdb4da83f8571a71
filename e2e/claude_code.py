#!/usr/bin/env python3
"""The guard inside the real Claude Code CLI, end to end.

Claude Code (installed from npm) runs headless (`claude -p`) in a throwaway repository whose
`.claude/settings.json` registers `patchgate guard --protocol claude-code` as its PreToolUse
hook. Its model is a scripted server on 127.0.0.1 speaking the Anthropic Messages API: the first
request of each scenario is answered with one tool call, and the next request, which carries the
tool's result as Claude Code hands it to the model, is recorded and answered with "done". Each
scenario then checks what the model was told and what happened to the repository.

    npm install --prefix /tmp/e2e @anthropic-ai/claude-code@2.1.330
    python3 e2e/claude_code.py --claude /tmp/e2e/node_modules/.bin/claude \\
        --patchgate target/debug/patchgate

Not part of `cargo test`: it needs the npm package. Exit 0 when every scenario holds.
"""

import argparse
import http.server
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading


class Model(http.server.BaseHTTPRequestHandler):
    """One scripted turn: a tool call first, then "done" once a tool result arrives."""

    tool = None  # (name, input) of the scenario being run
    results = []  # tool_result contents the agent sent back

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.startswith("/v1/messages") or self.path.endswith("count_tokens"):
            return self.reply_json({"input_tokens": 1})
        names = {t.get("name") for t in body.get("tools", [])}
        results = [
            block
            for message in body.get("messages", [])
            if message.get("role") == "user" and isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]
        if results:
            Model.results.append(results[-1])
            return self.stream([("text", "done")])
        if Model.tool and Model.tool[0] in names:
            return self.stream([("tool", Model.tool)])
        return self.stream([("text", "ok")])

    def reply_json(self, value):
        data = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def stream(self, blocks):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        usage = {"input_tokens": 1, "output_tokens": 1}
        message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
                   "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}
        self.event("message_start", {"type": "message_start", "message": message})
        stop = "end_turn"
        for index, (kind, value) in enumerate(blocks):
            if kind == "text":
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": value}
            else:
                stop = "tool_use"
                start = {"type": "tool_use", "id": "toolu_1", "name": value[0], "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(value[1])}
            self.event("content_block_start",
                       {"type": "content_block_start", "index": index, "content_block": start})
            self.event("content_block_delta",
                       {"type": "content_block_delta", "index": index, "delta": delta})
            self.event("content_block_stop", {"type": "content_block_stop", "index": index})
        self.event("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 1}})
        self.event("message_stop", {"type": "message_stop"})

    def event(self, name, data):
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def project(root, patchgate):
    """A repository with a policy, a source file, and the guard registered as the hook."""
    repo = root / "project"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / ".patchgate.toml").write_text('excluded = ["secrets/**"]\n')
    git(root, "init", "-q", str(repo))
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    hook = {"type": "command", "command": f"{patchgate} guard --protocol claude-code",
            "timeout": 30}
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps(settings))
    return repo


def scenarios(repo):
    """(name, tool call, what the model must be told, what the repository must look like)."""
    policy = repo / ".patchgate.toml"
    return [
        ("rewriting the guard's own policy is refused",
         ("Write", {"file_path": str(policy), "content": '[guard]\nextra_roots = ["/"]\n'}),
         "PROTECTED_PATH", lambda: policy.read_text() == 'excluded = ["secrets/**"]\n'),
        ("a shell redirect onto the policy is refused",
         ("Bash", {"command": "printf '' > .patchgate.toml", "description": "x"}),
         "PROTECTED_PATH", lambda: policy.read_text() == 'excluded = ["secrets/**"]\n'),
        ("moving the hooks away is refused",
         ("Bash", {"command": "git config core.hooksPath /dev/null && git commit -qm x",
                   "description": "x"}),
         "HOOK_BYPASS", lambda: True),
        ("a link out of the workspace is refused",
         ("Bash", {"command": "ln -s /etc evil", "description": "x"}),
         "PATH_OUTSIDE_WORKSPACE", lambda: not (repo / "evil").exists()),
        ("a hallucinated path gets the listing and a suggestion",
         ("Read", {"file_path": str(repo / "src" / "mian.rs")}),
         "src/main.rs", lambda: True),
        ("an ordinary write goes through",
         ("Write", {"file_path": str(repo / "src" / "new.txt"), "content": "new\n"}),
         None, lambda: (repo / "src" / "new.txt").is_file()),
    ]


def run_claude(claude, repo, home, port):
    env = dict(os.environ, HOME=str(home), ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
               ANTHROPIC_API_KEY="test", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
               DISABLE_AUTOUPDATER="1")
    return subprocess.run(
        [claude, "-p", "carry out the step", "--output-format", "stream-json", "--verbose",
         "--allowedTools", "Bash,Write,Read,Edit", "--permission-mode", "acceptEdits"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180,
    )


def result_text(result):
    content = result.get("content")
    if isinstance(content, list):
        return " ".join(c.get("text", "") for c in content if isinstance(c, dict))
    return str(content)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claude", required=True)
    parser.add_argument("--patchgate", required=True, type=pathlib.Path)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="patchgate-e2e-") as tmp:
        root = pathlib.Path(tmp)
        repo = project(root, args.patchgate.resolve())
        home = root / "home"
        home.mkdir()
        for name, tool, told, holds in scenarios(repo):
            Model.tool, Model.results = tool, []
            proc = run_claude(args.claude, repo, home, port)
            said = result_text(Model.results[-1]) if Model.results else ""
            is_error = bool(Model.results and Model.results[-1].get("is_error"))
            ok = bool(Model.results) and holds() and (
                (told is None and not is_error) or (told is not None and told in said))
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name}")
            print(f"     model was told: {said[:160]!r}")
            if not ok and proc.returncode != 0:
                print(f"     claude exit {proc.returncode}: {proc.stderr[-300:]}")
    print(f"\n{failures} scenario(s) failed" if failures else "\nevery scenario held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
