"""`patchgate.ray` on a local Ray cluster, over the shared agent corpus's predictions.

Run with the interpreter of the virtualenv the wheel (and `ray[data]`) was installed into
(packages/test/run.sh does): the example `validate_predictions.py` must turn the 132
predictions into a Parquet of verdicts, each the answer `validate_many` (the batch mode without
Ray) gives the same item. PATCHGATE_CORPUS names the corpus (default: ../shared/corpus beside
the repository).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pyarrow.parquet as pq

import patchgate
import patchgate.ray

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "packages" / "python" / "examples" / "validate_predictions.py"
CORPUS = Path(os.environ.get("PATCHGATE_CORPUS", ROOT.parent / "shared" / "corpus")) / "agents"


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("validate_predictions", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_repos(parent: Path) -> Path:
    """One repository per bundle of the corpus, every base commit a tag."""
    repos = parent / "repos"
    for bundle in sorted(CORPUS.glob("*.bundle")):
        repo = repos / bundle.stem
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "fetch", "-q", str(bundle),
                        "refs/tags/*:refs/tags/*"], check=True)
    return repos


class Ray(unittest.TestCase):
    def test_the_example_writes_the_batch_mode_s_verdicts_for_every_prediction(self) -> None:
        predictions = CORPUS / "predictions.jsonl"
        self.assertTrue(predictions.is_file(), f"the agent corpus is not at {CORPUS}")
        with tempfile.TemporaryDirectory(prefix="patchgate-ray-") as tmp:
            repos = make_repos(Path(tmp))
            out = Path(tmp) / "verdicts"
            run = subprocess.run([sys.executable, str(EXAMPLE), str(predictions), str(out),
                                  "--repos", str(repos), "--num-cpus", "2"],
                                 capture_output=True, text=True, timeout=1200)
            self.assertEqual(run.returncode, 0, run.stderr[-3000:])
            table = pq.read_table(out).to_pylist()
            example = load_example()
            rows = [json.loads(line) for line in predictions.read_text().splitlines()]
            items = [example.to_item(row, str(repos)) for row in rows]
            alone = {a["id"]: a for a in patchgate.validate_many(items, record=False)}
        self.assertEqual(len(table), len(rows))
        self.assertEqual(sorted(r["id"] for r in table), sorted(alone))
        for row in table:
            answer = alone[row["id"]]
            with self.subTest(id=row["id"]):
                if "error" in answer:
                    self.assertEqual(row["error_code"], answer["error"]["code"])
                else:
                    self.assertEqual((row["valid"], row["reason"]),
                                     (answer["valid"], answer["reason"]))
                    self.assertEqual(json.loads(row["report"]), answer["report"])
        counts = json.loads(run.stdout.strip().splitlines()[-1])
        self.assertEqual(sum(counts.values()), len(rows), counts)

    def test_a_batch_of_numpy_columns_is_judged_as_plain_values(self) -> None:
        case = ROOT / "fixtures" / "validate" / "accepted"
        step = (case / "step.json").read_text()
        result = (case / "result.json").read_text()
        batch: Dict[str, Any] = {"id": np.array([7, 8]), "step": np.array([step, "{"]),
                                 "result": np.array([result, result]),
                                 "base": np.array([None, None], dtype=object)}
        out = patchgate.ray.validate_batch(batch, no_repo=True)
        columns: List[str] = list(patchgate.ray.COLUMNS)
        self.assertEqual(list(out), columns)
        self.assertEqual(out["id"], [7, 8])
        self.assertEqual(out["valid"], [True, None])
        self.assertEqual(out["error_code"], [None, "invalid_step"])


if __name__ == "__main__":
    unittest.main()
