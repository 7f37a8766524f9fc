"""OpenAPI `links` in the schema: which operations take the `id` that another one just answered.

A table opened (or a rematch) is the `{id}` of its page, its join, its moves and the rest; a tournament created,
of its registration; a token created, of its rename and revocation; a chat message posted, of its deletion and its
report.  A client can follow them instead of building paths, and Schemathesis' stateful phase chains its calls by
them (tests/api/test_schemathesis.py).  drf-spectacular has no way to declare them on a view, so a
postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) writes them into the finished schema.
"""

from __future__ import annotations

TABLE = {"id": "$response.body#/id"}
_TABLE_OPERATIONS = [
    "table_detail",
    "table_join",
    "table_legal_actions",
    "table_act",
    "table_log",
    "table_start",
    "table_add_bot",
    "table_invite",
    "table_leave",
    "table_abort",
    "table_chat_list",
    "table_chat_post",
    "table_export",
]
# (operation, status) -> {linked operation: its parameters, as OpenAPI runtime expressions}
LINKS: dict[tuple[str, str], dict[str, dict[str, str]]] = {
    ("tables_create", "201"): {name: TABLE for name in _TABLE_OPERATIONS},
    ("table_rematch", "201"): {name: TABLE for name in _TABLE_OPERATIONS},
    ("tournaments_create", "201"): {
        name: TABLE
        for name in ("tournament_detail", "tournament_register", "tournament_withdraw", "tournament_start_now")
    },
    ("me_token_create", "201"): {"me_token_rename": TABLE, "me_token_revoke": TABLE},
    ("table_chat_post", "201"): {
        name: {"id": "$request.path.id", "message_id": "$response.body#/id"}
        for name in ("table_chat_delete", "table_chat_report")
    },
}


def declare_links(result, generator, request, public):
    """Add LINKS to the responses they start from (those of operations the schema holds)."""
    operations = [op for methods in result.get("paths", {}).values() for op in methods.values() if "operationId" in op]
    known = {op["operationId"] for op in operations}
    for op in operations:
        for status, response in op.get("responses", {}).items():
            targets = LINKS.get((op["operationId"], status), {})
            links = {
                name: {"operationId": name, "parameters": parameters}
                for name, parameters in targets.items()
                if name in known
            }
            if links:
                response["links"] = links
    return result
