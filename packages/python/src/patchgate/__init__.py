"""patchgate: the gate between LLM coding agents and a git repository.

    import patchgate
    outcome = patchgate.validate(step, result)   # {"valid", "reason", "report"}
    if outcome["valid"]:
        patchgate.apply(step, result)

    for answer in patchgate.validate_many(items, jobs=4):   # many, in one run
        ...

`validate`, `validate_many`, `apply` and `guard` run the `patchgate` binary this package
installs (or the one `$PATCHGATE_BINARY` names); the types are generated from patchgate's JSON
Schemas. `patchgate.ray` runs `validate_many` on a Ray cluster (`pip install ray[data]`).
"""

from ._api import (BatchAnswer, BatchOutcome, Outcome, PatchgateError, apply, guard, validate,
                   validate_many)
from ._binary import find_binary
from . import _schema
from ._schema import *  # noqa: F403 - the generated types are part of the API

__all__ = ["BatchAnswer", "BatchOutcome", "Outcome", "PatchgateError", "apply", "find_binary",
           "guard", "validate", "validate_many"]
__all__ += _schema.__all__
