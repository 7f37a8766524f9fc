"""The fallback board: the seat's view shown readably and a button for every legal action.

Crude on purpose; it keeps any game playable in the browser until it gets its own drawing.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

MAX_BUTTONS_PER_TYPE = 400  # a page with more buttons than this is no use to anyone


def _value_text(value) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(", ", ": "))
    return str(value)


def action_label(action: dict) -> str:
    """A button label: the action type, then its fields as `name value`."""
    kind = str(action.get("type", "?")).replace("_", " ")
    fields = [f"{key.replace('_', ' ')} {_value_text(val)}" for key, val in action.items() if key != "type"]
    return kind + (": " + ", ".join(fields) if fields else "")


def group_actions(actions: list[dict]) -> list[dict]:
    """Legal actions grouped by type, in the order the engine listed them."""
    groups: dict[str, dict] = {}
    for action in actions:
        kind = str(action.get("type", "?"))
        group = groups.setdefault(kind, {"type": kind, "label": kind.replace("_", " "), "actions": [], "more": 0})
        if len(group["actions"]) < MAX_BUTTONS_PER_TYPE:
            group["actions"].append({"label": action_label(action), "json": json.dumps(action)})
        else:
            group["more"] += 1
    return list(groups.values())


def readable(value, depth: int = 0):
    """The view as nested rows for a definition list: (key, scalar text or nested rows)."""
    if isinstance(value, dict):
        return {"kind": "dict", "items": [(str(k).replace("_", " "), readable(v, depth + 1)) for k, v in value.items()]}
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return {"kind": "scalar", "text": ", ".join(_value_text(v) for v in value) or "—"}
        return {"kind": "list", "items": [readable(v, depth + 1) for v in value]}
    if value is None:
        return {"kind": "scalar", "text": "—"}
    if isinstance(value, bool):
        return {"kind": "scalar", "text": _("yes") if value else _("no")}
    return {"kind": "scalar", "text": str(value)}


def present(detail: dict, names: list[str]) -> dict:
    view = detail["view"]
    return {
        "view_rows": readable(view),
        "view_json": json.dumps(view, indent=2, sort_keys=True),
        "action_groups": group_actions(detail["legal_actions"]),
    }
