"""docs/rules/ holds the project's copy of the referee's rulings: every ruling the code cites must be a heading
there, so that someone with only the repository can always look a citation up."""

from __future__ import annotations

import os
import pathlib
import re
from collections import Counter, defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
SCANNED_SUFFIXES = {".py", ".html", ".md", ".js"}
# docs/ is what is checked, not what cites; the rest is not the project's own text.
SKIPPED_DIRS = {"docs", "venv", "staticfiles", "node_modules", "__pycache__", "test-results"}
PARTS = {"general.md": "G", "topoum.md": "T", "toppo.md": "P", "topology.md": "L", "site.md": "S"}

RULING_ID = r"[A-Z]+[0-9]+(?:\.[0-9]+)*"  # T12, G0.3; a sentence's full stop after the id is not part of it
# "ruling T12", "Ruling S1:", "rulings T12, T16 and G0.1", "rulings P1-P6"
CITATION = re.compile(rf"\b[Rr]ulings? ({RULING_ID}(?:(?:, | and | ?[-–] ?){RULING_ID})*)")
RANGE = re.compile(r"([A-Z]+)([0-9]+) ?[-–] ?\1([0-9]+)$")
HEADING = re.compile(rf"^#{{1,6}} +({RULING_ID})\b", re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def cited_ids(text: str) -> set[str]:
    """The ruling ids a text cites; a range such as P1-P6 cites every id in it."""
    ids = set()
    for match in CITATION.finditer(text):
        for part in re.split(r", | and ", match.group(1)):
            run = RANGE.match(part)
            if run:
                prefix, first, last = run.group(1), int(run.group(2)), int(run.group(3))
                ids.update(f"{prefix}{n}" for n in range(first, last + 1))
            else:
                ids.add(part)
    return ids


def code_citations() -> dict[str, list[str]]:
    """Every cited id with the places (path:line) that cite it, over the project's code, templates and notes."""
    places = defaultdict(list)
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".")]
        for name in files:
            path = pathlib.Path(folder, name)
            if path.suffix not in SCANNED_SUFFIXES:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for ruling in cited_ids(line):
                    places[ruling].append(f"{path.relative_to(ROOT)}:{number}")
    return places


def rule_headings() -> dict[str, list[str]]:
    """Each ruling id that is a heading in docs/rules/, with the files that have it."""
    found = defaultdict(list)
    for path in sorted(RULES.glob("*.md")):
        for ruling in HEADING.findall(path.read_text(encoding="utf-8")):
            found[ruling].append(path.name)
    return found


def github_anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_citations_are_read_in_every_form_the_code_uses():
    text = (
        "# ruling T12: move moles\n"
        "Scored as in ruling T20. Then ruling S3's undo.\n"
        '"""Toppo (rulings P1-P6)."""\n'
        "# rulings T1-T3, T16 and G0.1\n"
        "Ruling G0.3: hidden information"
    )
    assert cited_ids(text) == {
        "T12",
        "T20",
        "S3",
        "P1",
        "P2",
        "P3",
        "P4",
        "P5",
        "P6",
        "T1",
        "T2",
        "T3",
        "T16",
        "G0.1",
        "G0.3",
    }
    assert cited_ids("the referee's ruling is final; ruled by T12") == set()


def test_the_scan_finds_the_citations_in_code_tests_and_templates():
    places = code_citations()
    assert {"G0.3", "T12", "P4", "L6", "S1"} <= set(places)
    where = {place.split("/")[0] for spots in places.values() for place in spots}
    assert {"engine", "games", "tests"} <= where
    # and in templates, which live in each app's own templates/ folder
    assert any(".html:" in place for spots in places.values() for place in spots)


def test_every_ruling_the_code_cites_has_a_heading_in_docs_rules():
    headings = rule_headings()
    missing = {ruling: spots[:3] for ruling, spots in code_citations().items() if ruling not in headings}
    assert not missing, f"cited but not in docs/rules/ (first places shown): {missing}"


def test_each_part_numbers_its_rulings_once_and_without_gaps():
    headings = rule_headings()
    assert not {ruling: files for ruling, files in headings.items() if len(files) > 1}
    for name, prefix in PARTS.items():
        text = (RULES / name).read_text(encoding="utf-8")
        ids = HEADING.findall(text)
        assert ids and all(ruling.startswith(prefix) for ruling in ids), name
        assert not [ruling for ruling, count in Counter(ids).items() if count > 1], name
        last = [int(ruling[len(prefix) :].split(".")[-1]) for ruling in ids if ruling != "G0"]
        assert last == list(range(1, len(last) + 1)), f"{name} numbers its rulings {last}"


def test_links_in_the_rule_docs_reach_their_files_and_headings():
    for path in RULES.glob("*.md"):
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            assert linked.is_file(), f"{path.name} links to {target}"
            if anchor:
                titles = re.findall(r"^#{1,6} +(.+)$", linked.read_text(encoding="utf-8"), re.M)
                assert anchor in {github_anchor(title) for title in titles}, f"{path.name} links to {target}"


# The referee's text the copy is made from: outside the repository (the lead's shared folder), so checked only where
# it is present. TOPOS_RULINGS names another place for it.
REFEREE_RULINGS = pathlib.Path(os.environ.get("TOPOS_RULINGS", "/work/shared/rules/RULINGS.md"))
REFEREE_ID = re.compile(rf"^- \*\*({RULING_ID}) ", re.M)  # "- **T12 Move moles.** ..."


def referee_ids(text: str) -> set[str]:
    return set(REFEREE_ID.findall(text))


def test_the_referee_ids_are_read_from_the_list_items():
    assert referee_ids("- **T1 Board.** The board.\n- **G0.3 Hidden information.** x\n  - **Bayonet** no") == {
        "T1",
        "G0.3",
    }


def test_docs_rules_has_every_ruling_of_the_referee():
    if not REFEREE_RULINGS.is_file():
        pytest.skip(f"the referee's RULINGS.md is not at {REFEREE_RULINGS}")
    ids = referee_ids(REFEREE_RULINGS.read_text(encoding="utf-8"))
    assert len(ids) >= 38  # G0.1-G0.4, T1-T21, P1-P6, L1-L7, S1-S6 when this test was written
    missing = ids - set(rule_headings())
    assert not missing, f"rulings of RULINGS.md without a heading in docs/rules/: {sorted(missing)}"
