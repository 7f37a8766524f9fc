"""The JSON of a game's stored state, written and read by orjson (decision 28, point 1).

A move reads the state (the locked read), writes it back, and the next question about her legal actions reads it
again: Topoum's state with the position its turn began at is some 7 KB, which the standard library took about 100
microseconds to write and 90 to read, orjson 8 and 25.  The values are the same either way; where orjson would
differ, the standard library's `json` does the work: an integer beyond 64 bits (orjson refuses to write one and
would read one as a float) and anything that is not plain JSON data (orjson writes dates and dataclasses that
`json` refuses)."""

from __future__ import annotations

import json

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
# Nineteen digits in a row or more may be a number beyond a 64-bit integer, which orjson reads as a float.  Found
# with every digit made a "1" and every other byte a space (bytes.translate): a fifth of the cost of a regular
# expression's search on the same text.
_DIGITS_AS_ONES = bytes(0x31 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_NUMBER = b"1" * 19


class StateEncoder(json.JSONEncoder):
    def encode(self, o) -> str:
        try:
            return orjson.dumps(o, option=_OPTIONS).decode()
        except TypeError:  # orjson.JSONEncodeError: beyond its plain data; json says what it says of it
            return super().encode(o)


class StateDecoder(json.JSONDecoder):
    def decode(self, s, _w=None):
        text = s.encode()
        if _LONG_NUMBER in text.translate(_DIGITS_AS_ONES):
            return super().decode(s)
        return orjson.loads(text)
