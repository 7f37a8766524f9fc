"""Toppo at the table: cards, lines, claims built by clicking, hidden information, refusals and penalties."""

import html as htmlmod
import json
import re

import pytest

from boards.toppo import presenter as tp
from engine.core import get_game
from engine.toppo import rules as toppo_rules
from engine.toppo import table as toppo_table
from engine.toppo.cards import COLOURS, SYMBOLS
from games import services
from games.models import Action, Game
from games.selectors.positions import load_state
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action

pytestmark = pytest.mark.django_db


def started(owner, member, pace="correspondence") -> Game:
    game = services.game_create(user=owner, kind="toppo", players=2, pace=pace)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def seat_client(game, clients, seat):
    return clients[game.seats.get(index=seat).user_id]


def c(colour: str, symbol: str) -> int:
    return COLOURS.index(colour) * 5 + SYMBOLS.index(symbol)


RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE = c("red", "waves"), c("yellow", "circle"), c("white", "square")


def set_table(game, *, display, lines) -> None:
    """Lay chosen display tops and lines (the rest of the deal is left as it was)."""
    state = load_state(game)
    state.display = [[card] for card in display]
    for seat, line in lines.items():
        state.lines[seat] = list(line)
    if state.pace == "live":
        state.restarter = None
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), to_act=state.to_act())
    game.refresh_from_db()


def page(client, game) -> str:
    return client.get(f"/tables/{game.pk}/").content.decode()


def labels(html: str, css: str) -> list[str]:
    """Names of the cards drawn inside buttons of class `css`, in page order."""
    return re.findall(
        rf'<button type="button" class="{css}"[^>]*>\s*<svg class="tp-card[^"]*" viewBox="[^"]*" role="img" '
        r'aria-label="([^"]+)"',
        html,
    )


def order_for_top(display: list[str], line: list[str]) -> list[int]:
    """What a player clicking her line onto the display builds: for each display card, a line card sharing
    its colour or symbol (the test knows the position has exactly one way)."""

    def shares(a, b):
        ca, sa = a.split()
        cb, sb = b.split()
        return ca == cb or sa == sb

    order, used = [], set()
    for d in display:
        j = next(j for j, card in enumerate(line) if j not in used and shares(card, d))
        used.add(j)
        order.append(j)
    return order


def test_the_table_shows_display_lines_and_calls(owner, member, clients, client, outsider_client):
    game = started(owner, member)
    me = seat_client(game, clients, 0)
    html = page(me, game)
    assert html.count('class="tp-display-card"') == 3 and len(labels(html, "tp-line-card")) == 3  # ruling P2
    for words in ("Make your claim for this round.", "Top!", "Match!", "Renew", "Toppo!", "Hand 1 of 3", "Round 1"):
        assert words in html
    # Every line is face up on the table: both lines are drawn in the players' list.
    assert html.count('<div class="tp-seat-line">') == 2 and html.count('class="tp-card c-') >= 3 + 3 + 6
    for visitor in (client, outsider_client):
        reply = visitor.get(f"/tables/{game.pk}/")
        text = reply.content.decode()
        assert reply.status_code == 200 and 'class="tp-display-card"' in text
        assert "Your line" not in text and 'class="act-form"' not in text


@pytest.mark.parametrize("pace", ["live", "correspondence"])
def test_the_page_offers_each_claim_her_line_makes_as_one_tap(owner, member, clients, client, pace):
    # Decision 26: laying a top by hand took a person four clicks, so a bot always shouted first; the page now
    # finds the claims her line makes (her legal actions: only right calls at live pace, ruling P3) and
    # offers each as one button.  Laying a line out by hand still works (the tests below).
    game = started(owner, member, pace=pace)
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={0: [WHITE_SQUARE, RED_WAVES, YELLOW_CIRCLE], 1: [WHITE_SQUARE, RED_WAVES, YELLOW_CIRCLE]},
    )
    right = [a for a in legal(game, 0) if a["type"] in ("top", "match")]
    html = page(seat_client(game, clients, 0), game)
    offered = [
        json.loads(htmlmod.unescape(v))
        for v in re.findall(
            r'name="action" value="([^"]*)">\s*<input[^>]*>\s*<button type="submit" class="primary '
            r'tp-claim"',
            html,
        )
    ]
    kinds = re.findall(r'class="primary tp-claim" data-claim="(\w+)"', html)
    assert kinds[0] == "top" and offered[0] in right and offered[0]["type"] == "top"
    # The matches offered lay the most cards (here all three), one button per set of line cards.
    assert [a["type"] for a in offered[1:]] == ["match"] and len(offered[1]["pairs"]) == 3 and offered[1] in right
    assert "One tap claims. Keys: T top, M match, N renew, R reveal." in html
    # Nobody else is offered her claims: a spectator's page has no claim at all.
    assert "tp-claim" not in client.get(f"/tables/{game.pk}/").content.decode()
    # One tap is the whole claim.
    reply = post_action(seat_client(game, clients, 0), game, offered[0], game.version, **HX)
    assert reply.status_code == 200
    game.refresh_from_db()
    state = load_state(game)
    assert state.lines[0] == [] if pace == "live" else state.claims[0][1] == offered[0]


def test_nothing_is_offered_when_her_line_makes_no_claim(owner, member, clients):
    game = started(owner, member, pace="live")
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={0: [c("blue", "bar"), c("blue", "plus"), c("green", "bar")], 1: []},
    )
    html = page(seat_client(game, clients, 0), game)
    assert "tp-claim" not in html and "Renew" in html


def test_a_top_laid_by_clicking_is_claimed_and_resolves(owner, member, clients):
    # ruling P4: sealed claims, resolved in the round's priority order (round 1: seat 0 first).
    game = started(owner, member)
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={0: [WHITE_SQUARE, c("red", "plus"), c("green", "circle")]},
    )
    me, other = seat_client(game, clients, 0), seat_client(game, clients, 1)
    html = page(me, game)
    display, line = labels(html, "tp-display-card"), labels(html, "tp-line-card")
    assert display == ["red waves", "yellow circle", "white square"]
    order = order_for_top(display, line)
    assert order == [1, 2, 0]
    reply = post_action(me, game, {"type": "top", "order": order}, game.version, **HX)
    text = reply.content.decode()
    assert reply.status_code == 200 and "Your sealed claim: top: line cards 2, 3, 1" in text
    assert 'class="act-form"' not in text  # one claim per round
    theirs = page(other, game)
    assert "Your sealed claim" not in theirs and "line cards 2, 3, 1" not in theirs and ">claimed</span>" in theirs
    game.refresh_from_db()
    assert post_action(other, game, {"type": "renew"}, game.version, **HX).status_code == 200
    html = page(me, game)
    assert "Round 1 was resolved in priority order:" in html
    # A top interrupts: the claims after it are void (ruling P4).
    assert "ana: a top, carried out." in html and "bruno: a renew, void" in html
    assert labels(html, "tp-display-card") == ["red plus", "green circle", "white square"]
    assert "Round 2" in html


def test_a_match_laid_by_clicking_is_claimed(owner, member, clients):
    game = started(owner, member)
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={0: [YELLOW_CIRCLE, c("blue", "bar"), c("green", "plus")]},
    )
    me = seat_client(game, clients, 0)
    html = page(me, game)
    line, display = labels(html, "tp-line-card"), labels(html, "tp-display-card")
    pairs = [[j, display.index(card)] for j, card in enumerate(line) if card in display]
    assert pairs == [[0, 1]]
    reply = post_action(me, game, {"type": "match", "pairs": pairs}, game.version, **HX)
    assert reply.status_code == 200
    assert "Your sealed claim: match: line card 1 onto display card 2." in reply.content.decode()


def test_a_wrong_claim_at_correspondence_is_refused_with_the_reason(owner, member, clients):
    game = started(owner, member)
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={0: [WHITE_SQUARE, c("red", "plus"), c("green", "circle")]},
    )
    me = seat_client(game, clients, 0)
    reply = post_action(me, game, {"type": "top", "order": [0, 1, 2]}, game.version, **HX)
    html = reply.content.decode()
    assert reply.status_code == 400
    assert "That order does not top the display" in html and "refused, not penalised" in html
    assert 'class="act-form"' in html  # she may still claim
    reply = post_action(me, game, {"type": "toppo"}, game.version, **HX)
    assert reply.status_code == 400 and "toppo needs fewer than 10" in reply.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_a_wrong_call_at_live_pace_is_accepted_and_penalised(owner, member, clients):
    # ruling P3: a wrong top costs the line plus five stack cards and interrupts everybody.
    game = started(owner, member, pace="live")
    set_table(
        game,
        display=[RED_WAVES, YELLOW_CIRCLE, WHITE_SQUARE],
        lines={
            0: [WHITE_SQUARE, c("red", "plus"), c("green", "circle")],
            1: [c("blue", "bar"), c("blue", "plus"), c("green", "bar")],
        },
    )
    held = load_state(game).held(0)
    me, other = seat_client(game, clients, 0), seat_client(game, clients, 1)
    reply = post_action(me, game, {"type": "top", "order": [0, 1, 2]}, game.version, **HX)
    assert reply.status_code == 200 and "called top wrongly" in reply.content.decode()
    game.refresh_from_db()
    state = load_state(game)
    assert state.held(0) == held + 5 and state.restarter == 0 and state.lines == [[], []]
    theirs = page(other, game)
    assert "Play was interrupted: wait until ana reveals a card." in theirs
    # Her line was taken by ana's call, and the page says so until she acts again (decision 26).
    notice = "ana called top wrongly and interrupted play; your 3 line cards went back under your deck."
    assert notice in theirs and notice not in page(me, game)
    assert re.search(r'<button type="button" class="primary" disabled>Reveal a card</button>', theirs)
    mine = page(me, game)
    assert "You restart play: reveal your first card." in mine and "&quot;reveal&quot;" in mine


def test_live_reveal_fills_the_line_one_card_at_a_time(owner, member, clients):
    game = started(owner, member, pace="live")
    start = load_state(game).start
    me = seat_client(game, clients, start)
    for count in (1, 2, 3):
        html = page(me, game)
        action = json.loads(htmlmod.unescape(re.search(r'name="action" value="([^"]*reveal[^"]*)"', html).group(1)))
        assert action == {"type": "reveal"}
        reply = post_action(me, game, action, game.version, **HX)
        assert reply.status_code == 200
        assert len(labels(reply.content.decode(), "tp-line-card")) == count
        game.refresh_from_db()
    assert "Reveal a card" not in page(me, game)  # the line is full (ruling P2: as long as the display)


def test_hidden_information_never_reaches_a_page(owner, member, clients, client, outsider_client):
    # ruling G0.3: no deck order, no stack order, no covered display card, no other's sealed claim, no seed.
    game = started(owner, member)
    state = load_state(game)
    planted = get_game("toppo").plant_secrets(state)
    Game.objects.filter(pk=game.pk).update(state=state.to_json())
    game.refresh_from_db()
    visitors = {
        0: seat_client(game, clients, 0),
        1: seat_client(game, clients, 1),
        None: client,
        "outsider": outsider_client,
    }
    for who, visitor in visitors.items():
        for html in (page(visitor, game), visitor.get(f"/tables/{game.pk}/poll/?stamp=x", **HX).content.decode()):
            assert 'class="tp-display-card"' in html
            for owner_of, markers in planted.items():
                for marker in markers:
                    if owner_of is not None and owner_of == who:
                        continue
                    assert marker not in html, (who, marker)
            assert game.seed not in html
    assert "SECRET-claim-of-0" in page(visitors[0], game)  # her own sealed claim is shown to her


def test_the_player_with_the_highest_total_chooses_the_display(owner, member, clients):
    # rules "3, 4 or 5 Cards": never 5 with two players (ruling P2).
    game = started(owner, member)
    state = load_state(game)
    toppo_table.end_hand(state, 0)  # seat 0 calls toppo: seat 1 now has the highest total and chooses
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), to_act=state.to_act())
    game.refresh_from_db()
    chooser, other = seat_client(game, clients, 1), seat_client(game, clients, 0)
    html = page(chooser, game)
    assert "choose the size of the display" in html
    sizes = sorted(
        json.loads(htmlmod.unescape(v))["size"]
        for v in re.findall(r'name="action" value="([^"]*choose_display[^"]*)"', html)
    )
    assert sizes == [3, 4]
    assert "bruno chooses the size of the display." in page(other, game)
    reply = post_action(chooser, game, {"type": "choose_display", "size": 4}, game.version, **HX)
    text = reply.content.decode()
    assert reply.status_code == 200 and text.count('class="tp-display-card"') == 4 and "Hand 2 of 3" in text
    assert len(labels(text, "tp-line-card")) == 4


def test_a_display_replacement_is_proposed_and_agreed(owner, member, clients):
    # ruling P6: any player proposes, everyone agrees, the display is replaced.
    game = started(owner, member, pace="live")
    me, other = seat_client(game, clients, 0), seat_client(game, clients, 1)
    before = labels(page(me, game), "tp-display-card")
    assert post_action(me, game, {"type": "propose_replace"}, game.version, **HX).status_code == 200
    html = page(other, game)
    assert "ana proposes replacing the display; agreed so far: ana." in html and "Agree to replace the display" in html
    reply = post_action(other, game, {"type": "agree_replace"}, game.version + 1, **HX)
    assert reply.status_code == 200
    game.refresh_from_db()
    state = load_state(game)
    assert state.proposal is None and all(len(p) == 2 for p in state.display)
    assert len(labels(reply.content.decode(), "tp-display-card")) == len(before)


def test_a_claim_from_an_earlier_round_is_stale_and_shows_the_fresh_table(owner, member, clients):
    game = started(owner, member)
    me, other = seat_client(game, clients, 0), seat_client(game, clients, 1)
    assert post_action(other, game, {"type": "renew"}, 0, **HX).status_code == 200
    # Her page still shows version 0: bruno's sealed claim does not make hers stale (ruling P4) ...
    assert post_action(me, game, {"type": "renew"}, 0, **HX).status_code == 200
    # ... but the round has resolved since: a claim sent from a page of the last round is.
    reply = post_action(me, game, {"type": "renew"}, 1, **HX)
    html = reply.content.decode()
    assert reply.status_code == 409 and "The game moved on" in html and 'name="version" value="2"' in html
    assert list(Action.objects.filter(game=game).values_list("seat", flat=True)) == [1, 0]


def priority_names(html: str) -> list[str]:
    """The names in the page's priority list, in order, the first one's pill kept."""
    block = re.search(r'<div class="tp-priority">(.*?)</div>', html, re.S)
    if block is None:
        return []
    items = re.findall(r"<li[^>]*>(.*?)</li>", block.group(1), re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for item in items]


def test_the_page_shows_the_rounds_priority_order(owner, member, clients, client):
    # ruling P4 amended: round r of a hand starts with seat r mod n, then clockwise; it is public.
    game = started(owner, member)
    me, other = seat_client(game, clients, 0), seat_client(game, clients, 1)
    assert priority_names(page(me, game)) == ["ana (you) first", "bruno"]
    assert priority_names(page(other, game)) == ["ana first", "bruno (you)"]
    assert priority_names(page(client, game)) == ["ana first", "bruno"]  # spectators see it too
    assert "Claims are resolved in this order, not in the order they come in." in page(client, game)
    assert post_action(other, game, {"type": "renew"}, game.version, **HX).status_code == 200
    game.refresh_from_db()
    assert post_action(me, game, {"type": "renew"}, game.version, **HX).status_code == 200
    game.refresh_from_db()
    html = page(me, game)
    assert "Round 2" in html and priority_names(html) == ["bruno first", "ana (you)"]
    assert "Round 1 was resolved in priority order:" in html
    assert htmlmod.unescape(html).index("ana renewed.") < htmlmod.unescape(html).index("bruno renewed.")
    spanish = me.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Prioridad en esta ronda:" in spanish and "primer lugar" in spanish
    chinese = me.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-Hant-TW,zh;q=0.8").content.decode()
    assert "本輪優先順序：" in chinese and "最先" in chinese
    live = started(owner, member, pace="live")
    assert 'class="tp-priority"' not in page(me, live)  # live pace: arrival order (ruling P3)


def test_last_round_words_cover_every_outcome():
    last = {
        "round": 4,
        "claims": [
            {"seat": 1, "claim": {"type": "match", "pairs": [[0, 2], [2, 2]]}, "outcome": "applied"},
            {"seat": 0, "claim": {"type": "top", "order": [0, 1, 2]}, "outcome": "void"},
            {"seat": 2, "claim": {"type": "renew"}, "outcome": "renew"},
            {"seat": 3, "claim": {"type": "toppo"}, "outcome": "toppo"},
        ],
    }
    words = tp.last_round_words(last, ["ana", "bruno", "chen", "dana"])
    assert words[0] == "bruno: a match of 2 cards, carried out."
    assert words[1].startswith("ana: a top, void") and words[2] == "chen renewed."
    assert words[3] == "dana called toppo and ended the hand."


def test_a_finished_match_shows_the_penalty_points_of_every_hand(owner, member, clients, client):
    # ruling P2: the lowest penalty total after the last hand wins.
    game = started(owner, member)
    state = load_state(game)
    for caller in (0, 1, 0):
        if state.phase == "choose_display":
            toppo_rules.lay_display(state, 3)
        toppo_table.end_hand(state, caller)
    assert state.phase == "over"
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), to_act=[], status=Game.Status.FINISHED)
    game.refresh_from_db()
    html = page(client, game)
    assert "The match is over." in html and "Penalty points by hand" in html and "rank 1" in html
    table = re.search(r'<table class="tp-points">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r'<tr><th scope="row">(\w+)</th>(.*?)</tr>', table, re.S)
    for name, cells in rows:
        seat = 0 if name == "ana" else 1
        values = [int(v) for v in re.findall(r"<td>(?:<strong>)?(\d+)", cells)]
        assert values == [p[seat] for p in state.hand_points] + [state.totals[seat]]
    assert "Top!" not in html and "/poll/" not in html


def test_every_seat_sees_the_lines_that_went_under_the_decks(owner, member, clients, outsider_client):
    game = started(owner, member)
    state = load_state(game)
    first_lines = [[tp.card(c)["label"] for c in state.view(None)["lines"][s]] for s in (0, 1)]
    assert "seen going under it" not in page(seat_client(game, clients, 0), game)  # nothing seen yet
    for seat in (0, 1):
        post_action(seat_client(game, clients, seat), game, {"type": "renew"}, game.version, **HX)
        game.refresh_from_db()
    assert game.version == 2
    for viewer in (seat_client(game, clients, 0), seat_client(game, clients, 1), outsider_client):
        html = page(viewer, game)
        memories = re.findall(r'<details class="tp-memory">(.*?)</details>', html, re.S)
        assert len(memories) == 2
        for seat, memory in enumerate(memories):
            assert "3 cards in this deck were seen going under it" in memory
            assert "27 unseen" in memory
            assert re.findall(r'aria-label="([^"]+)"', memory) == first_lines[seat]
