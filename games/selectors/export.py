"""The export of a finished game: everything `python -m engine.verify` needs to re-run it (ruling G0.2).

Built from the Action rows and the seats' published ranks and scores, never from anyone's view: it is
only given once the game is over, when every fact is public.
"""

from __future__ import annotations

from engine.commitment import SCHEME

from ..models import Action, Game
from ..ranking import is_leave, tie_breaks, winners

FORMAT = "topos-export/1"


def game_export(game: Game) -> dict:
    """The finished game as the site published it; the caller makes sure it is finished."""
    seats = list(game.seats.select_related("user").order_by("index"))
    log = [
        {"seq": a.seq, "seat": a.seat, "source": a.source, "replay": not is_leave(a.action), "action": a.action}
        for a in Action.objects.filter(game=game).order_by("seq")
    ]
    ranks = {s.index: s.rank for s in seats}
    decided = tie_breaks(game)
    return {
        "format": FORMAT,
        "table": game.pk,
        "game": game.kind,
        "players": game.players,
        "options": game.options,
        "seats": [
            {
                "index": s.index,
                "name": s.name,
                "player": s.user.username if s.user_id else None,
                "bot_level": s.bot_level or None,
            }
            for s in seats
        ],
        "seed": game.seed,
        "seed_salt": game.seed_salt,
        "seed_commitment": game.seed_commitment,
        "commitment_scheme": SCHEME,
        "log": log,
        "result": {
            "ranks": [
                {"seat": s.index, "rank": s.rank, "score": s.score, "tie_break": decided[s.index]} for s in seats
            ],
            "winners": winners(ranks, [s.index for s in seats if s.abandoned]),
        },
    }
