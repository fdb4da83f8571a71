#!/usr/bin/env python3
"""Validate a JSONL of SWE-bench-style agent predictions into a Parquet of verdicts, on Ray.

    python validate_predictions.py PREDICTIONS.jsonl OUT_DIR --repos DIR [--address auto]

Each prediction (`instance_id`, `repo` such as `pytest-dev/pytest`, `base_commit`, the agent's
`patch` or `model_patch`, `problem_statement`, and optionally `agent`, `base_tag` and
`gold_files`) becomes one `validate --batch` item: the issue text is the step, the files the
reference fix touches (when known) its `allowedFiles`, and the agent's diff the result, with
every file its headers name declared as written. `DIR/<name>` must be a git repository holding
the base commit (`DIR/pytest` for `pytest-dev/pytest`) on every node that runs a task.

Locally, `ray.init()` starts a cluster on this machine. On a cluster started with `ray start
--head` and `ray start --address=HEAD:6379` on each node, run this script on the head with
`--address auto` (or submit it with `ray job submit -- python validate_predictions.py ...`),
after installing patchgate and the repositories on every node at the same path (or pass
`--runtime-env-pip patchgate` to have Ray install the package on each worker). The output is
one Parquet file per block under OUT_DIR: id, valid, reason, error_code, error_message, report.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any, Dict, List

import ray

import patchgate.ray

HEADER = re.compile(r"^(?:diff --git a/(\S+) b/(\S+)|\+\+\+ b/(\S+)|--- a/(\S+))$", re.M)


def declared_files(patch: str) -> List[str]:
    """Every path the diff's headers name, in order: what the agent wrote."""
    seen: Dict[str, None] = {}
    for groups in HEADER.findall(patch):
        for path in groups:
            if path:
                seen.setdefault(path)
    return list(seen)


def to_item(row: Dict[str, Any], repos: str) -> Dict[str, Any]:
    """One prediction as a `validate --batch` item (step and result as JSON text)."""
    patch = row.get("patch") or row.get("model_patch") or ""
    files = declared_files(patch)
    step: Dict[str, Any] = {"description": row["problem_statement"], "mode": "apply"}
    if row.get("gold_files"):
        step["allowedFiles"] = list(row["gold_files"])
    result = {"mode": "apply", "success": bool(patch.strip()), "patch": patch,
              "filesWritten": files, "filesTouched": files,
              "summary": f"{row.get('agent', 'agent')}'s fix for {row['instance_id']}"}
    if not patch.strip():
        result = {"mode": "apply", "success": False, "summary": "no patch"}
    name = row["repo"].split("/")[-1]
    return {"id": f"{row['instance_id']}@{row.get('agent', '')}", "step": json.dumps(step),
            "result": json.dumps(result), "repo": str(Path(repos) / name),
            "base": row.get("base_tag") or row["base_commit"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("predictions")
    parser.add_argument("out")
    parser.add_argument("--repos", required=True, help="DIR: DIR/<name> is each repository")
    parser.add_argument("--address", help="a running cluster (auto, or ray://HOST:10001)")
    parser.add_argument("--num-cpus", type=int, help="CPUs of a local cluster")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=1, help="patchgate threads per task")
    parser.add_argument("--runtime-env-pip", action="append", default=[],
                        help="packages Ray installs on each worker (e.g. patchgate)")
    args = parser.parse_args()
    runtime_env = {"pip": args.runtime_env_pip} if args.runtime_env_pip else None
    ray.init(address=args.address, num_cpus=args.num_cpus, runtime_env=runtime_env)
    repos = str(Path(args.repos).resolve())
    predictions = ray.data.read_json(str(Path(args.predictions).resolve()))
    items = predictions.map(lambda row: to_item(row, repos))
    verdicts = patchgate.ray.validate_dataset(items, batch_size=args.batch_size, jobs=args.jobs)
    out = str(Path(args.out).resolve())
    verdicts.write_parquet(out)
    # Counted from what was written (one column), so the pipeline runs once.
    valid = ray.data.read_parquet(out, columns=["valid"]).to_pandas()["valid"]
    print(json.dumps({"accepted": int((valid == True).sum()),  # noqa: E712 (nullable column)
                      "rejected": int((valid == False).sum()),  # noqa: E712
                      "without a verdict": int(valid.isna().sum())}))


if __name__ == "__main__":
    main()
