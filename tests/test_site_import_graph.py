"""The site's packages import each other without cycles (issue 15: games/, accounts/, ratings/, config/)."""

from __future__ import annotations

from tests.import_graph import a_loop, cycles, graph

SITE = ("games", "accounts", "ratings", "config")


def test_no_module_of_the_site_imports_itself_round_a_loop():
    edges = graph(*SITE)
    loops = [" -> ".join(a_loop(edges, group)) for group in cycles(edges)]
    assert not loops, "modules that import each other (also inside functions):\n" + "\n".join(loops)


def test_the_graph_sees_an_import_inside_a_function_and_a_relative_one():
    # The test above can only fail if the reader finds these; both kinds are in the tree today.
    edges = graph(*SITE)
    assert "games.notifications.services" in edges["games.notifications.tasks"]  # `from . import services`
    assert "games.feed.announce" in edges["games.services.effects"]  # inside _announce_on_commit


def test_a_loop_is_found_and_shown():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert a_loop(edges, ["a", "b", "c"]) == ["a", "b", "c", "a"]
