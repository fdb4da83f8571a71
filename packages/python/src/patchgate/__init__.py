"""patchgate: the gate between LLM coding agents and a git repository.

    import patchgate
    outcome = patchgate.validate(step, result)   # {"valid", "reason", "report"}
    if outcome["valid"]:
        patchgate.apply(step, result)

`validate`, `apply` and `guard` run the `patchgate` binary this package installs (or the one
`$PATCHGATE_BINARY` names); the types are generated from patchgate's JSON Schemas.
"""

from ._api import Outcome, PatchgateError, apply, guard, validate
from ._binary import find_binary
from . import _schema
from ._schema import *  # noqa: F403 - the generated types are part of the API

__all__ = ["Outcome", "PatchgateError", "apply", "find_binary", "guard", "validate"]
__all__ += _schema.__all__
