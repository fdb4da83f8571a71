"""The typed API: each function runs the bundled `patchgate` binary once and returns its JSON.

Inputs are a dict (serialized here), a `str`/`bytes` of JSON text (passed on as it is, so an
executor's raw answer is judged byte for byte, malformed or not), or an `os.PathLike` naming a
file (`pathlib.Path("step.json")`; a `str` that names a file and is not JSON is refused, since it
was surely meant as a path). Exit codes 0 and 1 are answers; 2 (input refused) and 3 (could not
do its job) raise `PatchgateError` with the command's stable error code and its one-line message.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, TypedDict, Union

from ._binary import find_binary
from ._schema import ExecutorResult, GenericAnswer, Report, Step

StepInput = Union[Step, str, bytes, "os.PathLike[str]"]
ResultInput = Union[ExecutorResult, str, bytes, "os.PathLike[str]"]
PathArg = Union[str, "os.PathLike[str]"]


class Outcome(TypedDict):
    """What `validate` and `apply` return: the verdict and the full report."""

    valid: bool
    """Whether the result may be applied (for `apply`: was applied)."""
    reason: str
    """One line; on rejection it starts with the rule id and a colon."""
    report: Report
    """Every violation and note (`schemas/report.schema.json`)."""


class PatchgateError(Exception):
    """patchgate refused the input (exit 2) or could not do its job (exit 3)."""

    def __init__(self, exit_code: int, code: str, message: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        """2: the input itself is refused; 3: patchgate could not do its job."""
        self.code = code
        """The stable error code (`invalid_step`, `no_repository`, `usage`, ...)."""
        self.message = message
        """One human line: what is wrong and what to do."""


def validate(
    step: StepInput,
    result: ResultInput,
    *,
    repo: Optional[PathArg] = None,
    no_repo: bool = False,
    base: Optional[str] = None,
    strip: Optional[int] = None,
    judge: Optional[str] = None,
    judge_model: Optional[str] = None,
    judge_when: Optional[Literal["uncertain", "always"]] = None,
    judge_timeout: Optional[int] = None,
    check_cmd: Optional[str] = None,
    check_timeout: Optional[int] = None,
    repair: bool = False,
    record: bool = True,
    cwd: Optional[PathArg] = None,
    binary: Optional[PathArg] = None,
) -> Outcome:
    """Judge one executor result against its step (`patchgate validate`).

    `repo` is the repository to check against (default: the one around `cwd`); `no_repo`
    checks the patch alone. `judge` is a command asked when no rule rejects; `judge_model`
    (`PROVIDER:MODEL`, e.g. `openai:gpt-4o-mini`) asks a language model, `judge_when` says when
    (`uncertain` or `always`). `repair=True` repairs the patch first where that is provably
    safe and judges the repaired result. `record=False` keeps a rejection out of
    `patchgate review` (a recorded rejection keeps these options, so `review apply` judges it
    again under them).
    """
    options: List[str] = []
    _flag(options, "--no-repo", no_repo)
    _flag(options, "--no-record", not record)
    _value(options, "--judge", judge)
    _value(options, "--judge-model", judge_model)
    _value(options, "--judge-when", judge_when)
    _value(options, "--judge-timeout", judge_timeout)
    _scratch(options, base, strip, check_cmd, check_timeout, repair)
    return _judged("validate", step, result, options, repo, cwd, binary)


def apply(
    step: StepInput,
    result: ResultInput,
    *,
    repo: Optional[PathArg] = None,
    index: bool = False,
    base: Optional[str] = None,
    strip: Optional[int] = None,
    check_cmd: Optional[str] = None,
    check_timeout: Optional[int] = None,
    repair: bool = False,
    cwd: Optional[PathArg] = None,
    binary: Optional[PathArg] = None,
) -> Outcome:
    """Validate and, only if valid, write the patch into the worktree (`patchgate apply`), all
    or nothing; `index=True` stages it too, `repair=True` repairs it first where provably safe.
    A rejection writes nothing and returns `valid: False`."""
    options: List[str] = []
    _flag(options, "--index", index)
    _scratch(options, base, strip, check_cmd, check_timeout, repair)
    return _judged("apply", step, result, options, repo, cwd, binary)


def guard(
    call: Union[Mapping[str, Any], str, bytes],
    *,
    repo: Optional[PathArg] = None,
    state_dir: Optional[PathArg] = None,
    cwd: Optional[PathArg] = None,
    binary: Optional[PathArg] = None,
) -> GenericAnswer:
    """Check one agent tool call before it runs (`patchgate guard`, patchgate's own protocol).

    `call` is `{"session_id", "cwd", "tool_name", "tool_input"}`; the answer's `decision` is
    `allow` or `deny`, with the reason, the parent listing and suggestions in `error`.
    `state_dir` keeps the per-session hallucination count (default: patchgate's own)."""
    env = dict(os.environ)
    if state_dir is not None:
        env["PATCHGATE_STATE_DIR"] = os.fspath(state_dir)
    argv = _command(binary, repo) + ["guard", "--protocol", "generic"]
    proc = subprocess.run(argv, input=_bytes(call), capture_output=True, cwd=cwd, env=env)
    if proc.returncode not in (0, 2) or not proc.stdout.strip():
        raise _failure(proc)
    answer: GenericAnswer = json.loads(proc.stdout)
    return answer


def _judged(
    command: str,
    step: StepInput,
    result: ResultInput,
    options: Sequence[str],
    repo: Optional[PathArg],
    cwd: Optional[PathArg],
    binary: Optional[PathArg],
) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="patchgate-") as tmp:
        report = Path(tmp) / "report.json"
        # A document passed as text goes through a file of this directory, gone once this
        # returns: an error names the argument instead.
        texts: Dict[str, str] = {}
        argv = _command(binary, repo) + [
            command,
            "--step", _file(step, Path(tmp) / "step.json", "step", texts),
            "--result", _file(result, Path(tmp) / "result.json", "result", texts),
            "--report", str(report),
            *options,
        ]
        proc = subprocess.run(argv, capture_output=True, cwd=cwd)
        if proc.returncode not in (0, 1):
            raise _failure(proc, texts)
        verdict = json.loads(proc.stdout)
        full: Report = json.loads(report.read_text(encoding="utf-8"))
        return {"valid": verdict["valid"], "reason": verdict["reason"], "report": full}


def _command(binary: Optional[PathArg], repo: Optional[PathArg]) -> List[str]:
    argv = [os.fspath(binary) if binary is not None else find_binary(), "--format", "json"]
    if repo is not None:
        argv += ["--repo", os.fspath(repo)]
    return argv


def _scratch(
    options: List[str],
    base: Optional[str],
    strip: Optional[int],
    check_cmd: Optional[str],
    check_timeout: Optional[int],
    repair: bool,
) -> None:
    _value(options, "--base", base)
    _value(options, "--strip", strip)
    _value(options, "--check-cmd", check_cmd)
    _value(options, "--check-timeout", check_timeout)
    _flag(options, "--repair", repair)


def _flag(options: List[str], name: str, is_set: bool) -> None:
    if is_set:
        options.append(name)


def _value(options: List[str], name: str, value: Union[str, int, None]) -> None:
    if value is not None:
        options += [name, str(value)]


def _bytes(value: Union[Mapping[str, Any], str, bytes]) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value).encode("utf-8")


def _file(
    value: Union[Mapping[str, Any], str, bytes, "os.PathLike[str]"],
    path: Path,
    name: str,
    texts: Dict[str, str],
) -> str:
    """The command-line argument for one input: its own path, or a file holding its JSON
    (recorded in `texts` with how to name it in an error)."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, str) and not value.lstrip().startswith(("{", "[")) \
            and os.path.isfile(value):
        raise PatchgateError(
            2, "usage",
            f"the {name} '{value}' is a str, which is read as JSON text, and it names a file: "
            f"pass pathlib.Path({value!r}) to read the file")
    path.write_bytes(_bytes(value))
    texts[str(path)] = f"the {name} passed as text"
    return str(path)


def _failure(
    proc: "subprocess.CompletedProcess[bytes]", texts: Optional[Dict[str, str]] = None
) -> PatchgateError:
    """The error of a run that gave no answer: the JSON envelope's code and message when there
    is one, else the last line on stderr; a temporary file's name replaced by what it held."""
    code, message = "failed", ""
    try:
        envelope = json.loads(proc.stdout)
        code, message = envelope["error"]["code"], envelope["error"]["message"]
    except (ValueError, KeyError, TypeError):
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        message = lines[-1] if lines else f"patchgate exited with {proc.returncode}"
    for path, what in (texts or {}).items():
        message = message.replace(f"'{path}'", what).replace(path, what)
    exit_code = proc.returncode if proc.returncode in (2, 3) else 3
    return PatchgateError(exit_code, code, message)
