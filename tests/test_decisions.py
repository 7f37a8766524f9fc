"""Comments cite the reasons behind the code as `decision N` (docs/decisions/NNNN-title.md): every citation must
resolve, with its point where it names one, and no comment cites an issue tracker a newcomer cannot open."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
DECISIONS = ROOT / "docs" / "decisions"
SCANNED_SUFFIXES = {".py", ".html", ".md", ".js", ".css", ".sh", ".toml"}
SKIPPED_DIRS = {".venv", "venv", ".git", "node_modules", "__pycache__", "staticfiles", "test-results", ".broker"}
CITATION = re.compile(r"\b[Dd]ecisions? (\d+)(?:(?:, |'s )points? (\d+))?")
ISSUE = re.compile(r"\b[Ii]ssues? \d+\b")


def project_texts():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if path.is_file() and path.suffix in SCANNED_SUFFIXES and not SKIPPED_DIRS & set(rel.parts):
            yield rel, path.read_text(errors="replace")


def records() -> dict[int, str]:
    found = {}
    for path in DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md"):
        found[int(path.name[:4])] = path.read_text()
    return found


def points(record: str) -> set[str]:
    section = record.split("## The points it was asked as", 1)
    return set(re.findall(r"^(\d+)\. ", section[1], re.M)) if len(section) == 2 else set()


def test_every_decision_record_has_its_sections_and_is_in_the_index():
    index = (DECISIONS / "README.md").read_text()
    assert records()
    for number, text in records().items():
        assert text.startswith(f"# {number:04d}: "), number
        for heading in ("## Context", "## Decision", "## Consequences"):
            assert heading in text, (number, heading)
        assert f"]({number:04d}-" in index, f"docs/decisions/README.md does not list {number:04d}"


def test_every_decision_citation_resolves():
    known = records()
    unresolved = []
    for rel, text in project_texts():
        if rel.parts[:2] == ("docs", "decisions"):
            continue
        for match in CITATION.finditer(text):
            number, point = int(match.group(1)), match.group(2)
            if number not in known or (point and point not in points(known[number])):
                unresolved.append(f"{rel}: {match.group(0)}")
    assert unresolved == [], unresolved


def test_no_comment_cites_an_issue_number():
    """The tracker is not in the repository: what an issue decided is a record in docs/decisions/."""
    cited = [
        f"{rel}: {match.group(0)}"
        for rel, text in project_texts()
        if rel != pathlib.Path("tests/test_decisions.py")
        for match in ISSUE.finditer(text)
    ]
    assert cited == [], cited[:20]
