#!/usr/bin/env python3
"""`patchgate mcp` through the official Python MCP SDK (PyPI `mcp`): the SDK spawns the server
over stdio, lists its tools and calls each; every answer must be the JSON the matching command
prints, and a refused input a tool error carrying the command's error envelope.

    python3 e2e/mcp_client.py --patchgate target/debug/patchgate

Needs the `mcp` package (tests/mcp_e2e.sh installs it into a virtualenv). Exit 0 when every
check holds.
"""

import argparse
import asyncio
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parent.parent
PATCHGATE = None  # set from the command line
ENV = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
           GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
           GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")

STEP = {"description": "Change old to new in a.txt", "allowedFiles": ["a.txt"]}
PATCH = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n"
RESULT = {"mode": "apply", "success": True, "patch": PATCH, "filesWritten": ["a.txt"],
          "filesTouched": ["a.txt"], "summary": "changed old to new"}


def make_repo(root):
    repo = root / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("old\n")
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(repo), *argv], check=True, env=ENV)
    return repo


def command(repo, *args, stdin=None):
    """What the CLI prints: (exit, stdout)."""
    done = subprocess.run([PATCHGATE, *args], cwd=repo, env=ENV, input=stdin,
                          capture_output=True, text=True)
    return done.returncode, done.stdout


async def with_session(repo, calls):
    """Start `patchgate mcp` in `repo` through the SDK and run `calls(session)`."""
    params = StdioServerParameters(command=PATCHGATE, args=["mcp"], cwd=str(repo), env=ENV)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await calls(session)


def texts(result):
    return [block.text for block in result.content]


class McpServer(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="patchgate-mcp-")
        self.root = pathlib.Path(self.tmp.name)
        self.repo = make_repo(self.root)

    def tearDown(self):
        self.tmp.cleanup()

    def run_calls(self, calls):
        return asyncio.run(with_session(self.repo, calls))

    def files(self, **docs):
        paths = {}
        for name, doc in docs.items():
            paths[name] = self.root / f"{name}.json"
            paths[name].write_text(json.dumps(doc))
        return paths

    def test_the_tools_are_listed_with_the_committed_input_schemas(self):
        async def calls(session):
            return session.initialize_result, await session.list_tools()
        info, listed = self.run_calls(calls)
        self.assertEqual(info.server_info.name, "patchgate")
        names = [tool.name for tool in listed.tools]
        self.assertEqual(names, ["validate_result", "repair_patch", "parse_patch", "check_paths"])
        for tool in listed.tools:
            committed = json.loads((ROOT / "schemas" / "mcp" / f"{tool.name}.schema.json")
                                   .read_text())
            self.assertEqual(tool.input_schema, committed, tool.name)
            self.assertTrue(tool.description)

    def test_validate_result_answers_as_validate_does(self):
        rejected = dict(RESULT, filesWritten=["a.txt", "b.txt"])

        async def calls(session):
            return [await session.call_tool("validate_result", {"step": STEP, "result": r})
                    for r in (RESULT, rejected, "Sure! Here is my diff")]
        answers = self.run_calls(calls)
        for answer, result in zip(answers, (RESULT, rejected, "Sure! Here is my diff")):
            self.assertFalse(answer.is_error, texts(answer))
            verdict, report = texts(answer)
            paths = self.files(step=STEP, result=result)
            if isinstance(result, str):
                paths["result"].write_text(result)
            report_file = self.root / "report.json"
            code, stdout = command(self.repo, "validate", "--no-record", "--step",
                                   str(paths["step"]), "--result", str(paths["result"]),
                                   "--report", str(report_file))
            self.assertEqual(verdict, stdout.rstrip("\n"), "the verdict line validate prints")
            self.assertEqual(report, report_file.read_text().rstrip("\n"), "the --report file")
            self.assertEqual(json.loads(verdict)["valid"], code == 0)
        reasons = [json.loads(texts(a)[0])["reason"] for a in answers]
        self.assertTrue(reasons[0].startswith("accepted: "), reasons[0])
        self.assertTrue(reasons[1].startswith("scope: "), reasons[1])
        self.assertTrue(reasons[2].startswith("schema: "), reasons[2])

    def test_validate_result_repairs_when_asked_and_a_bad_step_is_a_tool_error(self):
        # Fenced, and counts too small for the body (`git diff` never writes either).
        fenced = dict(RESULT, patch="```diff\n" + PATCH.replace("-1 +1", "-1,0 +1,0") + "```\n")

        async def calls(session):
            return (await session.call_tool("validate_result",
                                            {"step": STEP, "result": fenced, "repair": True}),
                    await session.call_tool("validate_result",
                                            {"step": {"description": ""}, "result": RESULT}),
                    await session.call_tool("validate_result", {"step": STEP}))
        repaired, bad_step, missing = self.run_calls(calls)
        verdict = json.loads(texts(repaired)[0])
        self.assertTrue(verdict["reason"].startswith("accepted after repair: "), verdict)
        paths = self.files(step=STEP, result=fenced)
        _, stdout = command(self.repo, "validate", "--repair", "--no-record", "--step",
                            str(paths["step"]), "--result", str(paths["result"]))
        self.assertEqual(texts(repaired)[0], stdout.rstrip("\n"))
        for answer, code in ((bad_step, "invalid_step"), (missing, "usage")):
            self.assertTrue(answer.is_error)
            envelope = json.loads(texts(answer)[0])
            self.assertEqual((envelope["ok"], envelope["error"]["code"]), (False, code))

    def test_repair_parse_and_paths_answer_as_their_commands_print(self):
        fenced = "Here it is:\n```diff\n" + PATCH + "```\n"

        async def calls(session):
            return (await session.call_tool("repair_patch", {"patch": fenced}),
                    await session.call_tool("parse_patch", {"patch": fenced}),
                    await session.call_tool("parse_patch", {"patch": fenced, "lenient": True}),
                    await session.call_tool("check_paths",
                                            {"paths": ["a.txt", "../etc/passwd", "b.txt"]}))
        repair, parse, lenient, paths = self.run_calls(calls)
        patch = self.root / "agent.diff"
        patch.write_text(fenced)
        expected = [
            (repair, command(self.repo, "--format", "json", "repair", str(patch))),
            (parse, command(self.repo, "--format", "json", "parse", str(patch))),
            (lenient, command(self.repo, "--format", "json", "parse", "--lenient", str(patch))),
            (paths, command(self.repo, "--format", "json", "paths", "a.txt", "../etc/passwd",
                            "b.txt")),
        ]
        for answer, (_, stdout) in expected:
            self.assertFalse(answer.is_error, texts(answer))
            self.assertEqual(texts(answer), [stdout.rstrip("\n")])
        self.assertTrue(json.loads(texts(repair)[0])["data"]["repaired"])
        self.assertFalse(json.loads(texts(parse)[0])["data"]["ok"])
        self.assertEqual(json.loads(texts(paths)[0])["data"]["kept"], ["a.txt"])


def main():
    global PATCHGATE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--patchgate", required=True)
    args, rest = parser.parse_known_args()
    PATCHGATE = str(pathlib.Path(args.patchgate).resolve())
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
