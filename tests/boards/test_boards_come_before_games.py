"""boards/ sits left of games in the apps' order (engine <- accounts <- boards <- games <- ...): no module of the
boards imports games or any app after it, also not inside a function; games finds a game's site side only through
boards.registry (and the shared board code), never by importing a game's home by its name."""

from __future__ import annotations

from tests.import_graph import ROOT, graph

LATER_APPS = ("games", "ratings", "feed", "notifications", "chat", "tournaments", "sandbox", "notes", "outbound")


def boards_graph() -> dict[str, set[str]]:
    """The boards' imports among the project's apps (an app not made yet is left out)."""
    return graph("boards", *(app for app in LATER_APPS if (ROOT / app).is_dir()))


def test_no_board_imports_a_later_app():
    edges = boards_graph()
    found = sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if module.startswith("boards")
        for target in targets
        if target.split(".")[0] in LATER_APPS
    )
    assert found == []


def test_the_graph_sees_the_boards_imports():
    # The test above can only fail if the reader finds the boards' own imports (relative ones included).
    edges = boards_graph()
    assert "boards.generic" in edges["boards.registry"]  # `from . import generic`
    assert "boards.wording" in edges["boards.topoum.words"]  # `from ..wording import ...`
    assert "games.log_words" in edges["games.ranking"]  # the later apps are read too
