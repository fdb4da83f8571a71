"""The installed PyPI package, through its API, on the repository's bundled fixtures.

Run with the interpreter of the virtualenv the wheel was installed into (packages/test/run.sh
does): `python -m unittest discover -s packages/test -p 'test_python.py'`. Every
`fixtures/validate` case must give the verdict and the violations its `expected.json` records.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List, Tuple

import patchgate

FIXTURES = Path(__file__).resolve().parent.parent.parent / "fixtures"
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    return done.stdout.decode()


def make_repo(parent: Path, files: Dict[str, str]) -> Path:
    """A repository whose one commit holds `files`."""
    repo = parent / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    return repo


def case_files(case: Path) -> Dict[str, str]:
    """The committed files of a case: its policy and everything under base/."""
    files: Dict[str, str] = {}
    if (case / "patchgate.toml").is_file():
        files[".patchgate.toml"] = (case / "patchgate.toml").read_text()
    base = case / "base"
    if base.is_dir():
        for path in sorted(p for p in base.rglob("*") if p.is_file()):
            files[str(path.relative_to(base))] = path.read_text()
    return files


def observed(outcome: patchgate.Outcome) -> Tuple[bool, str, List[List[str]]]:
    violations = [[str(v["rule"]), str(v["code"])] for v in outcome["report"]["violations"]]
    return outcome["valid"], outcome["reason"], violations


class Validate(unittest.TestCase):
    def test_every_validate_fixture_gives_its_recorded_verdict(self) -> None:
        cases = sorted(p.parent for p in (FIXTURES / "validate").glob("*/step.json"))
        self.assertGreater(len(cases), 50)
        for case in cases:
            with self.subTest(case=case.name), tempfile.TemporaryDirectory() as tmp:
                expected = json.loads((case / "expected.json").read_text())
                outcome = self.run_case(case, Path(tmp))
                self.assertEqual(outcome["valid"], expected["exit"] == 0)
                want = expected["verdict"]
                self.assertEqual(observed(outcome), (want["valid"], want["reason"],
                                                     expected["violations"]))
                self.assertEqual(outcome["report"]["verdict"],
                                 {"valid": outcome["valid"], "reason": outcome["reason"]})

    def run_case(self, case: Path, tmp: Path) -> patchgate.Outcome:
        args = json.loads((case / "args.json").read_text()) if (case / "args.json").is_file() else []
        judge = args[args.index("--judge") + 1] if "--judge" in args else None
        # The fixture's other flags, as the API takes them (the binary's test passes args.json).
        repair = "--repair" in args
        strip = int(args[args.index("--strip") + 1]) if "--strip" in args else None
        files = case_files(case)
        # Steps as dicts, results as the executor's raw text: both input forms.
        step = json.loads((case / "step.json").read_text())
        result = (case / "result.json").read_bytes()
        if not files:
            outside = tmp / "outside"
            outside.mkdir()
            return patchgate.validate(step, result, no_repo=True, judge=judge, repair=repair,
                                      strip=strip, cwd=outside)
        repo = make_repo(tmp, files)
        return patchgate.validate(step, result, repo=repo, judge=judge, repair=repair, strip=strip,
                                  record=False)

    def test_a_path_is_read_as_a_file(self) -> None:
        case = FIXTURES / "validate" / "undeclared"
        with tempfile.TemporaryDirectory() as tmp:
            outcome = patchgate.validate(case / "step.json", case / "result.json",
                                         no_repo=True, cwd=tmp)
        self.assertFalse(outcome["valid"])
        self.assertTrue(outcome["reason"].startswith("undeclared: "), outcome["reason"])

    def test_a_step_it_cannot_read_raises_with_exit_2(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(patchgate.PatchgateError) as caught:
                patchgate.validate("{not json", b"{}", no_repo=True, cwd=tmp)
        self.assertEqual((caught.exception.exit_code, caught.exception.code), (2, "invalid_step"))
        self.assertIn("step", caught.exception.message)

    def test_a_str_naming_a_file_is_refused_with_the_fix(self) -> None:
        case = FIXTURES / "validate" / "undeclared"
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(patchgate.PatchgateError) as caught:
                patchgate.validate(str(case / "step.json"), case / "result.json",
                                   no_repo=True, cwd=tmp)
        self.assertEqual((caught.exception.exit_code, caught.exception.code), (2, "usage"))
        self.assertIn("pass pathlib.Path(", caught.exception.message)

    def test_an_error_names_the_text_not_a_temporary_file(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(patchgate.PatchgateError) as caught:
                patchgate.validate("step.json", b"{}", no_repo=True, cwd=tmp)
        self.assertIn("the step passed as text", caught.exception.message)
        self.assertNotIn(tempfile.gettempdir(), caught.exception.message)

    def test_repair_judges_the_repaired_result(self) -> None:
        step: patchgate.Step = {"description": "In a.txt change two to 2 and add 2.5",
                                "mode": "apply"}
        # Right lines, counts too small, inside a fence.
        patch = ("```diff\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n"
                 "@@ -1,3 +1,3 @@\n one\n-two\n+2\n+2.5\n three\n```\n")
        result: patchgate.ExecutorResult = {
            "mode": "apply", "success": True, "patch": patch, "filesWritten": ["a.txt"],
            "filesTouched": ["a.txt"], "summary": "changed a.txt"}
        with tempfile.TemporaryDirectory() as tmp:
            repo = make_repo(Path(tmp), {"a.txt": "one\ntwo\nthree\nfour\nfive\n"})
            plain = patchgate.validate(step, result, repo=repo, record=False)
            repaired = patchgate.validate(step, result, repo=repo, record=False, repair=True)
            applied = patchgate.apply(step, result, repo=repo, repair=True)
            written = (repo / "a.txt").read_text()
        self.assertFalse(plain["valid"])
        self.assertTrue(repaired["reason"].startswith("accepted after repair: "),
                        repaired["reason"])
        self.assertTrue(applied["valid"], applied["reason"])
        self.assertEqual(written, "one\n2\n2.5\nthree\nfour\nfive\n")

    def test_the_model_judge_options_reach_the_binary(self) -> None:
        case = FIXTURES / "validate" / "accepted"
        saved = {k: os.environ.pop(k) for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL")
                 if k in os.environ}
        try:
            with tempfile.TemporaryDirectory() as tmp:
                plain = patchgate.validate(case / "step.json", case / "result.json",
                                           no_repo=True, cwd=tmp)
                with self.assertRaises(patchgate.PatchgateError) as caught:
                    patchgate.validate(case / "step.json", case / "result.json", no_repo=True,
                                       cwd=tmp, judge_model="openai:gpt-4o-mini",
                                       judge_when="always")
        finally:
            os.environ.update(saved)
        self.assertTrue(plain["valid"], plain["reason"])
        self.assertEqual((caught.exception.exit_code, caught.exception.code),
                         (3, "judge_failed"))
        self.assertIn("OPENAI_API_KEY", caught.exception.message)

    def test_no_repository_raises_with_exit_3(self) -> None:
        case = FIXTURES / "validate" / "accepted"
        with tempfile.TemporaryDirectory() as tmp:
            env_ceiling = os.environ.get("GIT_CEILING_DIRECTORIES")
            os.environ["GIT_CEILING_DIRECTORIES"] = str(Path(tmp).parent)
            try:
                with self.assertRaises(patchgate.PatchgateError) as caught:
                    patchgate.validate(case / "step.json", case / "result.json", cwd=tmp)
            finally:
                if env_ceiling is None:
                    del os.environ["GIT_CEILING_DIRECTORIES"]
                else:
                    os.environ["GIT_CEILING_DIRECTORIES"] = env_ceiling
        self.assertEqual((caught.exception.exit_code, caught.exception.code),
                         (3, "no_repository"))


class ValidateMany(unittest.TestCase):
    def test_every_repository_fixture_in_one_run_gives_its_recorded_verdict_in_order(self) -> None:
        cases = [p.parent for p in sorted((FIXTURES / "validate").glob("*/step.json"))
                 if case_files(p.parent) and not (p.parent / "args.json").is_file()]
        self.assertGreater(len(cases), 30)
        with tempfile.TemporaryDirectory() as tmp:
            items = []
            for n, case in enumerate(cases):
                (Path(tmp) / str(n)).mkdir()
                repo = make_repo(Path(tmp) / str(n), case_files(case))
                # Steps as paths, results as raw bytes: two of the input forms.
                items.append({"id": case.name, "step": case / "step.json", "repo": repo,
                              "result": (case / "result.json").read_bytes()})
            answers = list(patchgate.validate_many(iter(items), jobs=2, record=False))
        self.assertEqual([a["id"] for a in answers], [c.name for c in cases])
        for case, answer in zip(cases, answers):
            with self.subTest(case=case.name):
                assert "error" not in answer, answer
                expected = json.loads((case / "expected.json").read_text())
                want = expected["verdict"]
                self.assertEqual(observed(answer), (want["valid"], want["reason"],
                                                    expected["violations"]))

    def test_a_bad_item_is_answered_on_its_own_and_leaving_early_stops_the_run(self) -> None:
        case = FIXTURES / "validate" / "accepted"
        step, result = json.loads((case / "step.json").read_text()), (case / "result.json")
        with tempfile.TemporaryDirectory() as tmp:
            outside = Path(tmp) / "outside"
            outside.mkdir()
            items = [{"step": step, "result": result}, {"step": {"description": ""},
                                                         "result": result}]
            first, second = patchgate.validate_many(items, no_repo=True, cwd=outside)
            self.assertEqual((first["id"], "error" in first), (0, False))
            assert "error" in second
            self.assertEqual((second["id"], second["error"]["code"]), (1, "invalid_step"))
            endless = ({"step": step, "result": result} for _ in iter(int, 1))
            for n, _ in enumerate(patchgate.validate_many(endless, no_repo=True, cwd=outside)):
                if n == 5:
                    break
            with self.assertRaises(TypeError):
                list(patchgate.validate_many([{"step": step}], no_repo=True, cwd=outside))


class Apply(unittest.TestCase):
    def test_an_accepted_result_is_written_and_a_rejected_one_is_not(self) -> None:
        accepted = FIXTURES / "validate" / "accepted"
        rejected = FIXTURES / "validate" / "undeclared"
        with tempfile.TemporaryDirectory() as tmp:
            repo = make_repo(Path(tmp), {"README.md": "demo\n"})
            no = patchgate.apply(rejected / "step.json", rejected / "result.json", repo=repo)
            self.assertFalse(no["valid"])
            self.assertEqual(git(repo, "status", "--porcelain"), "")
            yes = patchgate.apply(accepted / "step.json", accepted / "result.json", repo=repo,
                                  index=True)
            self.assertTrue(yes["valid"], yes["reason"])
            self.assertIn("applied to the worktree and the index", yes["reason"])
            self.assertEqual((repo / "greet.py").read_text(),
                             'def greet(name):\n    return f"Hello, {name}!"\n')
            self.assertEqual(git(repo, "status", "--porcelain"), "A  greet.py\n")


class Guard(unittest.TestCase):
    def test_generic_fixtures_get_their_recorded_decision(self) -> None:
        cases = sorted((FIXTURES / "guard" / "generic").iterdir())
        self.assertGreater(len(cases), 2)
        for case in cases:
            with self.subTest(case=case.name), tempfile.TemporaryDirectory() as tmp:
                repo = make_repo(Path(tmp), {"README.md": "# demo\n"})
                payload = (case / "payload.json").read_text()
                payload = payload.replace("{{ROOT}}", str(repo.resolve()))
                expected = json.loads((case / "expected.json").read_text())["stdout"]
                answer = patchgate.guard(payload, repo=repo, state_dir=Path(tmp) / "state")
                self.assertEqual(answer["decision"], expected["decision"])
                code = answer["error"]["code"] if answer["error"] else None
                want = expected["error"]["code"] if expected["error"] else None
                self.assertEqual(code, want)

    def test_a_missing_path_is_denied_with_the_file_meant(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            repo = make_repo(Path(tmp), {"src/main.rs": "fn main() {}\n"})
            call = {"session_id": "s1", "cwd": str(repo.resolve()), "tool_name": "read_file",
                    "tool_input": {"file_path": "src/mian.rs"}}
            answer = patchgate.guard(call, state_dir=Path(tmp) / "state", cwd=repo)
            self.assertEqual(answer["decision"], "deny")
            assert answer["error"] is not None
            self.assertEqual(answer["error"]["code"], "PATH_NOT_FOUND")
            self.assertEqual(answer["error"]["suggestions"], ["src/main.rs"])
            call["tool_input"] = {"file_path": "src/main.rs"}
            allowed = patchgate.guard(call, state_dir=Path(tmp) / "state", cwd=repo)
            self.assertEqual((allowed["decision"], allowed["error"]), ("allow", None))


class Installed(unittest.TestCase):
    def test_the_binary_is_the_one_the_wheel_installed(self) -> None:
        binary = Path(patchgate.find_binary())
        self.assertEqual(binary.parent, Path(sysconfig.get_path("scripts")))
        self.assertTrue(binary.resolve().is_relative_to(Path(sys.prefix).resolve()))
        version = subprocess.run([str(binary), "--version"], capture_output=True, check=True)
        self.assertTrue(version.stdout.startswith(b"patchgate "), version.stdout)

    def test_python_dash_m_runs_the_binary(self) -> None:
        done = subprocess.run([sys.executable, "-m", "patchgate", "--version"],
                              capture_output=True, check=True)
        self.assertTrue(done.stdout.startswith(b"patchgate "), done.stdout)


if __name__ == "__main__":
    unittest.main()
