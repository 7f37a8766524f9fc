"""Private notes API (decision 29, point 4): my notes on a table I may see, and on its moves.  Nobody else's notes
are ever answered; a table I may not see is 404."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error_response
from games.api.fields import StrictCharField
from games.api.responses import errors
from games.errors import ServiceError
from games.selectors import visible_games
from games.services.table_access import table_not_found

from . import selectors, services
from .models import NOTE_MAX_CHARS


class NoteIn(serializers.Serializer):
    text = StrictCharField(
        max_length=NOTE_MAX_CHARS, trim_whitespace=False, help_text="The note (replaces the one there)."
    )


class NoteOut(serializers.Serializer):
    ply = serializers.IntegerField(allow_null=True, help_text="The move it is on (0: the start); null: the table.")
    text = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def _table(request, pk: int):
    game = visible_games(request.user).filter(pk=pk).first()
    if game is None:
        raise table_not_found(pk)
    return game


class NotesView(APIView):
    @extend_schema(
        operation_id="table_notes",
        summary="My private notes at this table: the table's, then each move's",
        responses={200: NoteOut(many=True), **errors(404)},
    )
    def get(self, request, pk: int):
        try:
            return Response(selectors.notes_of(request.user, _table(request, pk)))
        except ServiceError as exc:
            return error_response(exc)


class _OneNote(APIView):
    def _ply(self, kwargs):
        return kwargs.get("ply")

    def get(self, request, pk: int, **kwargs):
        try:
            return Response(selectors.note_of(request.user, _table(request, pk), self._ply(kwargs)))
        except ServiceError as exc:
            return error_response(exc)

    def put(self, request, pk: int, **kwargs):
        data = NoteIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            game = _table(request, pk)
            services.note_put(user=request.user, game=game, ply=self._ply(kwargs), text=data.validated_data["text"])
            return Response(selectors.note_of(request.user, game, self._ply(kwargs)))
        except ServiceError as exc:
            return error_response(exc)

    def delete(self, request, pk: int, **kwargs):
        try:
            services.note_delete(user=request.user, game=_table(request, pk), ply=self._ply(kwargs))
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)


def _documented(view_class, what: str, name: str):
    """The three operations of one note, documented for `what`; each a method of its own (extend_schema marks the
    function it is given, so the two views must not share one)."""

    def get(self, request, pk: int, **kwargs):
        return _OneNote.get(self, request, pk, **kwargs)

    def put(self, request, pk: int, **kwargs):
        return _OneNote.put(self, request, pk, **kwargs)

    def delete(self, request, pk: int, **kwargs):
        return _OneNote.delete(self, request, pk, **kwargs)

    view_class.get = extend_schema(
        operation_id=name,
        summary=f"My private note on {what}",
        responses={200: NoteOut, **errors(404, s404="No such table you may see, or no note of yours there.")},
    )(get)
    view_class.put = extend_schema(
        operation_id=f"{name}_put",
        summary=f"Write (create or replace) my private note on {what}",
        request=NoteIn,
        responses={
            200: NoteOut,
            **errors(400, 403, 404, s400="Empty or too long.", s404="No such table you may see, or no such move."),
        },
    )(put)
    view_class.delete = extend_schema(
        operation_id=f"{name}_delete",
        summary=f"Delete my private note on {what}",
        responses={204: None, **errors(400, 403, 404, s404="No such table you may see, or no note of yours there.")},
    )(delete)
    return view_class


class TableNoteView(_OneNote):
    pass


class MoveNoteView(_OneNote):
    pass


_documented(TableNoteView, "the table", "table_note")
_documented(MoveNoteView, "one move of the table", "move_note")
