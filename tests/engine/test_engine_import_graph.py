"""The engine's modules import one another without a cycle (decision 15).

Read from the source by tests/import_graph.py, imports inside functions included: hiding a cycle inside a function
does not remove it.  That the engine imports nothing of the site is tests/engine/test_engine_is_pure.py's check.
"""

from __future__ import annotations

from tests.import_graph import a_loop, cycles, graph


def test_the_engine_has_no_import_cycle():
    edges = graph("engine")
    loops = [" -> ".join(a_loop(edges, group)) for group in cycles(edges)]
    assert not loops, "engine modules that import each other:\n" + "\n".join(loops)


def test_every_game_package_is_read_with_its_inner_imports():
    edges = graph("engine")
    for game in ("topoum", "toppo", "topology"):
        assert f"engine.{game}.game" in edges
    assert "engine.topoum.rules" in edges["engine.topoum.state"]
