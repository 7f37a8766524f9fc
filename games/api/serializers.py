"""Input shapes of the API (outputs are built by selectors from each seat's view)."""
from rest_framework import serializers

from ..models import Pace


class TableCreateIn(serializers.Serializer):
    game = serializers.CharField(help_text="topology, topoum or toppo (see /api/catalogue/).")
    players = serializers.IntegerField(min_value=1, max_value=8)
    options = serializers.DictField(required=False, default=dict, help_text="Game options (see the catalogue).")
    pace = serializers.ChoiceField(choices=Pace.choices, default=Pace.CORRESPONDENCE)
    turn_seconds = serializers.IntegerField(required=False, min_value=1,
                                            help_text="Clock per turn: 1-14 days in seconds, or live seconds.")
    private = serializers.BooleanField(default=False)
    bots = serializers.ListField(child=serializers.CharField(), required=False, default=list,
                                 help_text="Bot levels for the seats after yours, e.g. ['greedy'].")
    rated = serializers.BooleanField(default=True,
                                     help_text="Whether the result changes the players' ratings (ruling S5). "
                                               "false plays unrated; a table with a bot is never rated, whatever "
                                               "this says.")


class ActionIn(serializers.Serializer):
    action = serializers.JSONField(help_text='One of your legal actions, e.g. {"type": "end_turn"}.')
    expected_version = serializers.IntegerField(min_value=0, help_text="The game version you saw.")
    seat = serializers.IntegerField(required=False, min_value=0, help_text="Only needed if you hold several seats.")


class JoinIn(serializers.Serializer):
    invite_code = serializers.CharField(required=False, allow_blank=True, default="")


class BotIn(serializers.Serializer):
    level = serializers.CharField()


class InviteIn(serializers.Serializer):
    username = serializers.CharField()


class StartIn(serializers.Serializer):
    fill_with_bots = serializers.CharField(required=False, allow_blank=True, default="",
                                           help_text="Fill empty seats with bots of this level.")


class AbortAgreeIn(serializers.Serializer):
    agree = serializers.BooleanField(default=True, help_text="false takes your agreement back.")
