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
import threading
from pathlib import Path
from typing import (IO, Any, Dict, Iterable, Iterator, List, Literal, Mapping, NamedTuple,
                    Optional, Sequence, TypedDict, Union, final)

from ._binary import find_binary
from ._schema import ErrorLine, ExecutorResult, GenericAnswer, ItemId, Report, Step

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


@final  # so that `"error" in answer` tells an ErrorLine from it
class BatchOutcome(Outcome):
    """What `validate_many` yields for an item it judged: `validate`'s outcome and the item's
    id."""

    id: ItemId
    """The item's `id` (its position in `items` when it had none)."""


BatchAnswer = Union[BatchOutcome, ErrorLine]
"""One answer of `validate_many`: an outcome, or (with `"error"`) why the item has none."""


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
    options = _validate_flags(no_repo, record, Judge(judge, judge_model, judge_when,
                                                     judge_timeout))
    _scratch(options, base, strip, check_cmd, check_timeout, repair)
    return _judged("validate", step, result, options, repo, cwd, binary)


def validate_many(
    items: Iterable[Mapping[str, Any]],
    *,
    jobs: Optional[int] = None,
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
    record: bool = True,
    cwd: Optional[PathArg] = None,
    binary: Optional[PathArg] = None,
) -> Iterator[BatchAnswer]:
    """Judge many results in one `patchgate validate --batch` run, `jobs` at a time (default:
    the machine's cores), yielding each answer in the order of `items` as soon as it is ready.

    Each item is `{"step", "result", "id"?, "repo"?, "base"?}` (`schemas/batch-item.schema.json`):
    step and result as `validate` takes them (a dict, JSON text, bytes, or a path), the id
    echoed (default: the item's position), `repo` and `base` overriding the run's. An item
    that cannot be judged (a bad step, a repository that does not open) yields an `ErrorLine`
    (`{"id", "line", "error": {"code", "message", "exit"}}`) and the run goes on; only a run
    that cannot start or cannot go on raises `PatchgateError`. Items are read as the run needs
    them and answers are not kept, so memory stays bounded whatever their number. Leaving the
    loop early stops the run.
    """
    options = ["--batch", "-", "--with-report"]
    _value(options, "--jobs", jobs)
    options += _validate_flags(no_repo, record, Judge(judge, judge_model, judge_when,
                                                      judge_timeout))
    _scratch(options, base, strip, check_cmd, check_timeout, False)
    argv = _command(binary, repo) + ["validate", *options]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    err = proc.stderr
    stderr: List[bytes] = []
    refused: List[BaseException] = []
    feeder = threading.Thread(target=_feed, args=(items, proc.stdin, refused), daemon=True)
    drainer = threading.Thread(target=lambda: stderr.append(err.read()), daemon=True)
    feeder.start()
    drainer.start()
    try:
        for line in proc.stdout:
            answer: Dict[str, Any] = json.loads(line)
            if "meta" in answer and answer.get("ok") is False:
                break  # the run's own error envelope: raised below, with the exit code
            yield _batch_answer(answer)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        feeder.join()
        drainer.join()
        proc.stdout.close()
        proc.stderr.close()
    if refused:
        raise refused[0]
    if proc.returncode not in (0, 1):
        done = subprocess.CompletedProcess(argv, proc.returncode, b"", b"".join(stderr))
        raise _failure(done)


def _feed(items: Iterable[Mapping[str, Any]], stdin: "IO[bytes]",
          refused: List[BaseException]) -> None:
    """Write each item as one line, then close the run's input. An item that cannot be
    written ends the input there and is raised by the caller; a run that has gone ends it
    quietly."""
    try:
        for position, item in enumerate(items):
            stdin.write(_batch_line(item, position))
    except (BrokenPipeError, ValueError, OSError):
        return
    except Exception as e:  # noqa: BLE001 - handed to the caller's thread
        refused.append(e)
    try:
        stdin.close()
    except OSError:
        pass


def _batch_line(item: Mapping[str, Any], position: int) -> bytes:
    line: Dict[str, Any] = {"id": item.get("id", position)}
    for key in ("step", "result"):
        if key not in item:
            raise TypeError(f"item {position} has no '{key}'; give every item a step and a result")
        line[key] = _document(item[key])
    for key in ("repo", "base"):
        if item.get(key) is not None:
            line[key] = os.fspath(item[key])
    return json.dumps(line).encode("utf-8") + b"\n"


def _document(value: Any) -> Any:
    """A step or result as a line carries it: an object as it is, text (or a file's text) as a
    string, judged as received."""
    if isinstance(value, os.PathLike):
        return Path(value).read_text(encoding="utf-8")
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value


def _batch_answer(answer: Dict[str, Any]) -> BatchAnswer:
    if "error" in answer:
        failed: ErrorLine = {"id": answer["id"], "line": answer["line"],
                             "error": answer["error"]}
        return failed
    judged: BatchOutcome = {"id": answer["id"], "valid": answer["valid"],
                            "reason": answer["reason"], "report": answer["report"]}
    return judged


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


class Judge(NamedTuple):
    """Who is asked what no rule can decide: a command, or a model and when."""

    command: Optional[str]
    model: Optional[str]
    when: Optional[str]
    timeout: Optional[int]


def _validate_flags(no_repo: bool, record: bool, judge: Judge) -> List[str]:
    """The flags `validate` and `validate --batch` share beyond the repository checks'."""
    options: List[str] = []
    _flag(options, "--no-repo", no_repo)
    _flag(options, "--no-record", not record)
    _value(options, "--judge", judge.command)
    _value(options, "--judge-model", judge.model)
    _value(options, "--judge-when", judge.when)
    _value(options, "--judge-timeout", judge.timeout)
    return options


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
