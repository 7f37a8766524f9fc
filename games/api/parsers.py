"""The API's JSON parser: DRF's, within the request limits (config.request_limits), so a body nested too
deeply is a 400 that says so, never a RecursionError, even where no middleware ran."""

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

from config import request_limits


class LimitedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(request_limits.max_body_bytes() + 1) if stream is not None else b""
        try:
            options = {"parse_constant": drf_json.strict_constant} if self.strict else {}  # no NaN, as DRF's
            return request_limits.loads(raw.decode(encoding), **options)
        except request_limits.JsonRefused as refused:
            raise ParseError(refused.message, code=refused.code) from None
        except ValueError as exc:  # UnicodeDecodeError is one too
            raise ParseError(f"JSON parse error - {exc}") from None
