"""Small builders of JSON Schema dicts for the games' view schemas (engine/<game>/view_schema.py).

An object lists every key it may carry; `required` are those always present, and no other key is allowed
(`additionalProperties: false`), so a key added to a view without being documented fails the conformance tests.
"""

from __future__ import annotations


def obj(description: str, properties: dict, *, optional: tuple[str, ...] = (), title: str | None = None) -> dict:
    """An object of exactly these keys; those in `optional` may be absent."""
    schema = {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": [k for k in properties if k not in optional],
        "additionalProperties": False,
    }
    if title:
        schema = {"title": title, **schema}
    return schema


def arr(description: str, items: dict, **limits) -> dict:
    return {"type": "array", "description": description, "items": items, **limits}


def nullable(schema: dict) -> dict:
    """The same schema, or null."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    return {"description": schema.get("description", ""), "anyOf": [schema, {"type": "null"}]}


def integer(description: str, **limits) -> dict:
    return {"type": "integer", "description": description, **limits}


def number(description: str) -> dict:
    return {"type": "number", "description": description}


def boolean(description: str) -> dict:
    return {"type": "boolean", "description": description}


def string(description: str, *, enum: list | tuple | None = None) -> dict:
    schema = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = list(enum)
    return schema


def const(value, description: str) -> dict:
    return {"const": value, "description": description}


def seat(description: str) -> dict:
    return integer(description, minimum=0)


def seat_or_null(description: str) -> dict:
    return nullable(seat(description))


def results(detail: dict, tie_breaks: tuple[str, ...] = ()) -> dict:
    """`results`: one entry per seat once the game is over (engine.core.Result.to_json), else null.

    `tie_breaks`: the game's tie-break codes (Game.tie_breaks)."""
    return nullable(
        arr(
            "Once the game is over, one entry per seat (rank 1 is best, equal ranks share a place); "
            "null while it runs.",
            obj(
                "A seat's result.",
                {
                    "seat": seat("The seat."),
                    "rank": integer(
                        "Its place, 1 the best (the site's rank, ruling S1, in a table's view; "
                        "the game's own is then `game_rank`).",
                        minimum=1,
                    ),
                    "game_rank": integer("In a finished table's view: the rank by the game's own counting.", minimum=1),
                    "score": number("Its score by the game's own counting."),
                    "detail": detail,
                    "tie_break": {
                        "type": ["string", "null"],
                        "enum": [*tie_breaks, "shared", None],
                        "description": "Tied on score with another seat: the code of the game's tie-break rule "
                        "that placed it among them (the last one it took), or `shared` when no rule told them "
                        "apart; null when its score alone placed it.",
                    },
                },
                optional=("game_rank",),
            ),
        )
    )
