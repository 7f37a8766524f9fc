"""The API's JSON, as DRF's JSONRenderer writes it, without the encoder's check for circular references.

Decision 28, point 1: a Topology seat's legal actions at the start of her turn are over a thousand small objects
(87 kB); the encoder's bookkeeping of every list and object it enters, to refuse a structure that holds itself,
was a third of encoding them.  An answer is built from data (the engine's views and lists, the site's rows), a
tree that never holds itself; were one ever to, encoding it fails all the same (RecursionError instead of
ValueError), so the request still ends in the server error it would have.  The bytes are the same.
"""

from __future__ import annotations

from rest_framework import renderers
from rest_framework.utils import json


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent is None:
            separators = renderers.SHORT_SEPARATORS if self.compact else renderers.LONG_SEPARATORS
        else:
            separators = renderers.INDENT_SEPARATORS
        text = json.dumps(
            data,
            cls=self.encoder_class,
            indent=indent,
            ensure_ascii=self.ensure_ascii,
            allow_nan=not self.strict,
            separators=separators,
            check_circular=False,
        )
        # As DRF: fully escaped, so the answer is also a strict JavaScript subset.
        return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()
