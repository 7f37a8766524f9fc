"""{% ruling "T5" "S1" %}: the ids of the rulings a rules page relies on, each a link to it on the rulings page."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join

register = template.Library()


@register.simple_tag
def ruling(*ids: str) -> str:
    """Links to the rulings `ids` (docs/rules/, served by games.views.rules.rules_rulings), in brackets."""
    base = reverse("rules_rulings")
    links = format_html_join(", ", '<a class="ruling" href="{}#{}">{}</a>', ((base, i, i) for i in ids))
    return format_html('<span class="ruling-ref">[{}]</span>', links)
