"""Body fields that take a JSON string and nothing else: DRF's CharField turns a number into text, while the schema
promises a string, so a number (or anything not a string) is refused with 400 like any other wrong type."""

from __future__ import annotations

from rest_framework import serializers


class _StringOnly:
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(_StringOnly, serializers.CharField):
    pass


class StrictRegexField(_StringOnly, serializers.RegexField):
    pass


def player_name_field(*, refusal, help_text: str) -> serializers.RegexField:
    """The username of another player named in a body (to mute, to block): more than blanks, at most a username's
    length; `refusal` is what she is told when it is blank."""
    return serializers.RegexField(r"\S", max_length=150, error_messages={"invalid": refusal}, help_text=help_text)
