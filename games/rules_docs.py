"""docs/rules/*.md, the project's copy of the rulings, as HTML for the rulings page (decision 13).

A small reader for the Markdown those files use (headings, paragraphs, lists, tables, emphasis, code,
links) rather than a new dependency. Each ruling's heading gets its id as anchor (#T5, #G0.3), so the
How to play pages can link to the ruling they rely on. The files are the project's own text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils.html import escape

from engine.core import all_games

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
# The general rulings, each game's (docs/rules/<game>.md), then the site's.
PARTS = ("general.md", *(f"{kind}.md" for kind in sorted(all_games())), "site.md")
RULING_HEADING = re.compile(r"^([A-Z]+[0-9]+(?:\.[0-9]+)*)\b")


def _inline(text: str) -> str:
    out = escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*([^*]+)\*(?!\w)", r"<em>\1</em>", out)

    def link(match):
        label, target = match.group(1), match.group(2)
        file_part, _, anchor = target.partition("#")
        if "://" in target:
            return label
        if file_part.endswith(".md") and "/" not in file_part or not file_part:
            # Another part of the rulings: on this page. A ruling heading's anchor is its id.
            ruling = RULING_HEADING.match(anchor.upper().replace("-", " ")) if anchor else None
            if ruling:
                return f'<a href="#{ruling.group(1)}">{label}</a>'
            part = file_part.removesuffix(".md")
            return f'<a href="#{"rulings" if part == "README" else "part-" + part}">{label}</a>'
        return label  # a file of the code: named, not linked

    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, out)


def _anchor(title: str, part_id: str) -> str:
    """A ruling's heading is found by its id (#T5); other headings by part and title, unique on the page."""
    found = RULING_HEADING.match(title)
    return found.group(1) if found else f"{part_id}-" + re.sub(r"[^\w-]+", "-", title.lower()).strip("-")


def to_html(markdown: str, *, part_id: str) -> str:
    html, para, items, rows = [], [], [], []

    def flush():
        if para:
            html.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            html.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
        if rows:
            cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows if not set(r) <= set("|- :")]
            head, body = cells[0], cells[1:]
            html.append(
                "<table><thead><tr>"
                + "".join(f"<th>{_inline(c)}</th>" for c in head)
                + "</tr></thead><tbody>"
                + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
                + "</tbody></table>"
            )
            rows.clear()

    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            flush()
            html.append("</code></pre>" if in_code else "<pre><code>")
            in_code = not in_code
            continue
        if in_code:
            html.append(escape(line) + "\n")
            continue
        heading = re.match(r"^(#{1,6}) +(.+)$", line)
        if heading:
            flush()
            level = min(len(heading.group(1)) + 1, 6)  # the page has its own h1
            title = heading.group(2).strip()
            anchor = f"{part_id}-title" if level == 2 else _anchor(title, part_id)
            html.append(f'<h{level} id="{escape(anchor)}">{_inline(title)}</h{level}>')
        elif line.startswith("|"):
            if para or items:
                flush()
            rows.append(line)
        elif re.match(r"^\s*- ", line):
            if para or rows:
                flush()
            items.append(line.strip()[2:])
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
        elif not line.strip():
            flush()
        else:
            if items or rows:
                flush()
            para.append(line.strip())
    flush()
    return "".join(html)


@lru_cache(maxsize=1)
def rulings_html() -> list[dict]:
    """Each part of the rulings as HTML, in the order of docs/rules/README.md's table."""
    return [
        {
            "id": name.removesuffix(".md"),
            "html": to_html((RULES_DIR / name).read_text(encoding="utf-8"), part_id=name.removesuffix(".md")),
        }
        for name in PARTS
    ]
