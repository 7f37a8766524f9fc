"""The JSON Schema of each game's view (what `State.view` returns), keyed by the game's registry name.

Each game documents its own view beside its code (engine/<game>/view_schema.py) in plain JSON Schema
(draft 2020-12), so the API's schema can show it (games.api.responses) and the conformance tests can check
every view built in their random games against it (tests/engine/test_conformance.py): a field added to a view
without being documented fails there.  Plain dicts only: the engine imports no framework.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core import all_games


def _view_schema(game) -> dict:
    """The VIEW of the view_schema module beside the game's own package (engine/<game>/view_schema.py)."""
    package = type(game).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.view_schema").VIEW


VIEW_SCHEMAS: dict[str, dict] = {name: _view_schema(game) for name, game in sorted(all_games().items())}


def openapi_schema(schema: Any) -> Any:
    """The same schema in OpenAPI 3.0's dialect: `type: [t, "null"]` becomes `nullable`, `const` a one-value enum.

    The view schemas keep to the vocabulary both understand apart from these two (no tuples, no `$defs`).
    """
    if isinstance(schema, list):
        return [openapi_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    patterned = "patternProperties" in schema
    for key, value in schema.items():
        if key == "properties":
            out[key] = {name: openapi_schema(s) for name, s in value.items()}
        elif patterned and key in ("patternProperties", "additionalProperties"):
            continue
        elif key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            kinds = [k for k in value if k != "null"]
            if len(kinds) == 1:
                out["type"] = kinds[0]
            else:  # several kinds: OpenAPI 3.0 has no type list
                out["anyOf"] = [{"type": k} for k in kinds]
            if "null" in value:
                out["nullable"] = True
        elif key in ("$schema", "$id"):
            continue
        else:
            out[key] = openapi_schema(value)
    if patterned:
        # OpenAPI 3.0 has no patternProperties: the values' schema is all it can say (the keys' pattern is in the
        # description).
        (only,) = schema["patternProperties"].values()
        out["additionalProperties"] = openapi_schema(only)
    return out
