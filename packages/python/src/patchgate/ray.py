"""Judge agent results on a Ray cluster: each batch of a `ray.data` Dataset goes through one
`patchgate validate --batch` run on the worker that holds it (the binary this package installed
there), so a cluster judges as many results at once as it has cores.

    import ray, patchgate.ray
    ray.init()                                            # or ray.init(address="auto")
    items = ray.data.read_json("items.jsonl")             # id, step, result, repo?, base?
    verdicts = patchgate.ray.validate_dataset(items)      # id, valid, reason, error_code, ...
    verdicts.write_parquet("verdicts/")

Rows are `validate --batch` items (`schemas/batch-item.schema.json`): `id`, `step` and `result`
(keep both as JSON text: a column of objects gets, in every row, the keys any row has, set to
null where a row had none, and a result with `"filesTouched": null` is not the result the agent
sent), and optionally `repo` (a path that must exist on every worker) and `base`. Each output row
holds `id`, `valid` and `reason` (null when the row could not be judged), `error_code` and
`error_message` (why not), and `report` (the full report as JSON text).

Nothing here imports Ray: `validate_batch` is a plain function over a batch (a pandas DataFrame
or a dict of columns), usable with `Dataset.map_batches` or alone.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Iterator, List, Mapping, Optional, Union

from ._api import PathArg, validate_many

Batch = Union[Mapping[str, Any], Any]
"""A `map_batches` batch: a dict of columns (numpy arrays or lists) or a pandas DataFrame."""

COLUMNS = ("id", "valid", "reason", "error_code", "error_message", "report")
"""The columns `validate_batch` answers with."""


def validate_batch(
    batch: Batch,
    *,
    jobs: Optional[int] = 1,
    repo: Optional[PathArg] = None,
    no_repo: bool = False,
    base: Optional[str] = None,
    strip: Optional[int] = None,
    judge: Optional[str] = None,
    record: bool = False,
    binary: Optional[PathArg] = None,
) -> Dict[str, List[Any]]:
    """Judge one batch in one `validate --batch` run (`jobs` threads; give the task as many
    CPUs). Rejections are not kept for `patchgate review` unless `record=True`: on a cluster
    they would land in each worker's copy of the repository."""
    out: Dict[str, List[Any]] = {name: [] for name in COLUMNS}
    answers = validate_many(_rows(batch), jobs=jobs, repo=repo, no_repo=no_repo, base=base,
                            strip=strip, judge=judge, record=record, binary=binary)
    for answer in answers:
        out["id"].append(answer["id"])
        if "error" in answer:
            verdict: Dict[str, Any] = {"error_code": answer["error"]["code"],
                                       "error_message": answer["error"]["message"]}
        else:
            verdict = {"valid": answer["valid"], "reason": answer["reason"],
                       "report": json.dumps(answer["report"])}
        for name in COLUMNS[1:]:
            out[name].append(verdict.get(name))
    return out


def validate_dataset(dataset: Any, *, batch_size: int = 256, jobs: int = 1,
                     **options: Any) -> Any:
    """`dataset.map_batches(validate_batch)`: each task runs one `validate --batch` of up to
    `batch_size` rows with `jobs` threads and asks Ray for as many CPUs. `options` are
    `validate_batch`'s."""
    return dataset.map_batches(validate_batch, batch_size=batch_size, batch_format="pandas",
                               num_cpus=jobs, fn_kwargs=dict(options, jobs=jobs))


def _rows(batch: Batch) -> Iterator[Dict[str, Any]]:
    """The batch's rows as `validate_many` items, numpy and pandas values made plain."""
    if hasattr(batch, "to_dict") and hasattr(batch, "columns"):
        records = batch.to_dict("records")
    else:
        columns = {name: list(values) for name, values in batch.items()}
        count = len(next(iter(columns.values()), []))
        records = [{name: values[i] for name, values in columns.items()} for i in range(count)]
    for record in records:
        yield {name: value for name, value in ((n, _plain(v)) for n, v in record.items())
               if value is not None}


def _plain(value: Any) -> Any:
    """A numpy scalar as its Python value; a missing value (None, NaN) as None."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
