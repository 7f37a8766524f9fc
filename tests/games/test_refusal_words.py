"""games.refusal_words: the engine's refusal codes worded in each reader's language (decision 13)."""

from __future__ import annotations

from django.utils import translation

from games.refusal_words import refusal_words


def test_a_move_from_an_outpost_is_explained_in_each_language():  # rulings T12, T21
    words = {}
    for language in ("en", "es", "zh-hant"):
        with translation.override(language):
            words[language] = refusal_words("topoum", "topoum.move_from_outpost", {"hex": [3, 0]})
    assert "outpost" in words["en"] and "T12" in words["en"]
    assert "puesto avanzado" in words["es"] and "前哨" in words["zh-hant"]
    assert all("3" in text for text in words.values())
    assert len(set(words.values())) == 3
