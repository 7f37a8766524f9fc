"""The Content-Security-Policy: scripts and styles from the site's own files only; nothing inline in the templates.

The browser test (tests/browser/test_browser_csp.py) checks that the pages really run under it.
"""

import re
from pathlib import Path

import pytest

from tests.web.helpers import started_topology

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# The site's templates folder and each app's own (notifications/templates/, ...), found by the app-directories loader.
TEMPLATE_FILES = sorted(
    path
    for folder in (TEMPLATES, *ROOT.glob("*/templates"), *ROOT.glob("boards/*/templates"))
    if ".venv" not in folder.parts
    for path in folder.rglob("*.html")
)


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def test_every_page_allows_only_the_sites_own_scripts_and_styles(owner, member, owner_client):
    game = started_topology(owner, member)
    for path in ("/", f"/tables/{game.pk}/", "/accounts/profile/", "/notifications/"):
        directives = policy(owner_client.get(path))
        assert directives["script-src"] == ["'self'"], path
        assert directives["style-src"] == ["'self'"], path
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
        assert directives["base-uri"] == ["'none'"]


def test_the_api_documentation_relaxes_styles_only_and_loads_its_setup_as_a_file(client):
    page = client.get("/api/docs/")
    directives = policy(page)
    assert directives["script-src"] == ["'self'"]
    assert "'unsafe-inline'" in directives["style-src"]
    html = page.content.decode()
    assert re.search(r"<script>\s", html) is None  # drf-spectacular's inline setup script is a file here
    setup = client.get("/api/docs/?script=")
    assert setup.status_code == 200 and setup["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in setup.content.decode()
    redoc = client.get("/api/redoc/").content.decode()
    assert "<script>" not in redoc and "fonts.googleapis.com" not in redoc


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on...= handler"),
    (re.compile(r"\shx-on", re.I), "an hx-on attribute (htmx would eval it)"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"<style", re.I), "a <style> block"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r'hx-trigger="[^"]*\[', re.I), "an hx-trigger filter (htmx would eval it)"),
]


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_holds_anything_the_policy_would_block(path):
    text = path.read_text()
    for pattern, what in INLINE:
        assert not pattern.search(text), f"{path.relative_to(ROOT)} holds {what}"


def test_htmx_evaluates_nothing_and_adds_no_style_element_of_its_own(client):
    html = client.get("/").content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', html).group(1)
    assert '"allowEval":false' in config and '"includeIndicatorStyles":false' in config
