"""Checked (never run) by `mypy --strict` against the installed package: the uses below must
type-check, and each `type: ignore[...]` must silence a real error (`--strict` warns about an
unused one), so the hints are the schemas' and not `Any`."""

from typing import Iterator, List

import patchgate
import patchgate.ray
from patchgate import BatchAnswer, ExecutorResult, GenericAnswer, Outcome, Report, Step

step: Step = {
    "description": "Add greet() to greet.py",
    "mode": "apply",
    "allowedFiles": ["greet.py"],
    "expect": [{"file": "greet.py", "present": "def greet"}],
}
result: ExecutorResult = {"mode": "apply", "success": True, "filesWritten": ["greet.py"]}


def uses() -> List[str]:
    outcome: Outcome = patchgate.validate(step, result, no_repo=True, record=False)
    report: Report = outcome["report"]
    rules = [f"{v['rule']}/{v['code']}:{v.get('file')}" for v in report["violations"]]
    patchgate.apply(step, b"{}", index=True, strip=1)
    answer: GenericAnswer = patchgate.guard({"tool_name": "read_file", "tool_input": {}})
    error = answer["error"]
    if answer["decision"] == "deny" and error is not None:
        rules += [error["code"], *error["suggestions"]]
    answers: Iterator[BatchAnswer] = patchgate.validate_many(
        [{"id": "a", "step": step, "result": result, "repo": "/src/app"}], jobs=2)
    for each in answers:
        if "error" in each:
            rules.append(f"{each['line']}: {each['error']['code']}")
        else:
            rules.append(f"{each['id']}: {each['report']['verdict']['reason']}")
    columns = patchgate.ray.validate_batch({"id": [1], "step": ["{}"], "result": ["{}"]}, jobs=1)
    rules += [str(v) for v in columns["reason"]]
    try:
        patchgate.validate("{", result)
    except patchgate.PatchgateError as e:
        rules.append(f"{e.exit_code} {e.code}")
    return rules


no_description: Step = {"mode": "apply"}  # type: ignore[typeddict-item]
bad_mode: Step = {"description": "x", "mode": "rewrite"}  # type: ignore[typeddict-item]
bad_valid: Outcome = {"valid": "yes", "reason": "", "report": {  # type: ignore[typeddict-item]
    "verdict": {"valid": True, "reason": ""}, "violations": [], "notes": []}}
bad_decision: patchgate.Decision = "maybe"  # type: ignore[assignment]
patchgate.validate(step, result, no_repository=True)  # type: ignore[call-arg]
patchgate.validate_many([], jobs="2")  # type: ignore[arg-type]
