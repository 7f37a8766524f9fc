"""Ratings change when a rated game finishes (ruling S5): per game and Toppo pace, from the final ranking (S1)."""

from __future__ import annotations

import pytest
from django.db import transaction
from openskill.models import PlackettLuce

from games import services
from games.models import Game
from games.ranking import site_ranks
from ratings.keys import rating_key
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services import game_rate
from ratings.system import shown_value
from tests.games.tables import everyone_played
from tests.ratings.helpers import expected_after, people, played, table_of

pytestmark = pytest.mark.django_db
PRIOR = (PlackettLuce().mu, PlackettLuce().sigma)


def seats_by_index(game):
    return list(game.seats.order_by("index"))


def assert_rated_from_prior(game):
    """Every seat's change is OpenSkill's answer for the seats' final ranks, starting from the prior."""
    seats = seats_by_index(game)
    ranks = [s.rank for s in seats]
    after = expected_after([PRIOR] * len(seats), ranks)
    key = rating_key(game.kind, game.pace)
    for seat, (mu, sigma) in zip(seats, after):
        change = RatingChange.objects.get(game=game, user=seat.user)
        assert change.key == key and change.rank == seat.rank
        assert (change.mu_before, change.sigma_before, change.games_before) == (*PRIOR, 0)
        assert change.mu_after == pytest.approx(mu, abs=1e-12) and change.sigma_after == pytest.approx(sigma, abs=1e-12)
        rating = Rating.objects.get(user=seat.user, key=key)
        assert (rating.mu, rating.sigma, rating.games) == (change.mu_after, change.sigma_after, 1)
        assert rating.value == shown_value(mu, sigma) == change.value_after
    return seats


def test_a_finished_two_player_game_moves_the_winner_up_and_the_loser_down(owner, member):
    game = played([owner, member])
    seats = assert_rated_from_prior(game)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    if seats[0].rank != seats[1].rank:
        winner, loser = sorted(seats, key=lambda s: s.rank)
        assert changes[winner.user_id].mu_after > changes[winner.user_id].mu_before
        assert changes[loser.user_id].mu_after < changes[loser.user_id].mu_before
        assert changes[winner.user_id].delta > 0 > changes[loser.user_id].delta
    assert Rating.objects.filter(key="topology").count() == 2
    assert RatedGame.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("players", [3, 4])
def test_a_finished_game_of_three_or_four_rates_every_seat_by_its_rank(players):
    users = people(*[f"p{i}" for i in range(players)])
    game = played(users)
    seats = assert_rated_from_prior(game)
    best = min(s.rank for s in seats)
    worst = max(s.rank for s in seats)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    if best != worst:
        assert all(changes[s.user_id].mu_after > 25 for s in seats if s.rank == best)
        assert all(changes[s.user_id].mu_after < 25 for s in seats if s.rank == worst)


def test_toppo_keeps_a_rating_per_pace_and_other_games_one_per_game(owner, member):
    assert rating_key("toppo", "live") == "toppo-live" != rating_key("toppo", "correspondence")
    assert rating_key("topology", "correspondence") == "topology"
    game = played([owner, member], "toppo", hands=1)
    assert set(Rating.objects.values_list("key", flat=True)) == {"toppo-correspondence"}
    assert_rated_from_prior(game)
    live = everyone_played(table_of([owner, member], "toppo", pace="live", turn_seconds=60, hands=1))
    services.game_resign(game_id=live.pk, user=member)
    assert set(Rating.objects.values_list("key", flat=True)) == {"toppo-correspondence", "toppo-live"}
    assert Rating.objects.get(user=owner, key="toppo-live").games == 1
    assert_rated_from_prior(Game.objects.get(pk=live.pk))


def test_a_second_game_starts_from_the_first_ones_numbers(owner, member):
    first = played([owner, member])
    before = {c.user_id: (c.mu_after, c.sigma_after) for c in RatingChange.objects.filter(game=first)}
    second = played([member, owner])
    seats = seats_by_index(second)
    after = expected_after([before[s.user_id] for s in seats], [s.rank for s in seats])
    for seat, (mu, sigma) in zip(seats, after):
        change = RatingChange.objects.get(game=second, user=seat.user)
        assert (change.mu_before, change.sigma_before, change.games_before) == (*before[seat.user_id], 1)
        assert (change.mu_after, change.sigma_after) == pytest.approx((mu, sigma), abs=1e-12)
    assert set(Rating.objects.values_list("games", flat=True)) == {2}


def test_tied_seats_share_a_rank_and_move_alike():
    # Ruling S1: ties keep their shared place.  The tie is written as the site's ranking would write it.
    users = people("ana", "bruno", "chen")
    game = table_of(users)
    ranks = site_ranks({0: 1, 1: 1, 2: 3}, [])
    with transaction.atomic():
        for seat in game.seats.all():
            seat.rank = ranks[seat.index]
            seat.save(update_fields=["rank"])
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        game.refresh_from_db()
        assert game_rate(game) is not None
    tied = RatingChange.objects.filter(game=game, rank=1)
    assert tied.count() == 2
    (a_mu, a_sigma), (b_mu, b_sigma) = tied.values_list("mu_after", "sigma_after")
    assert (a_mu, a_sigma) == (b_mu, b_sigma) and a_mu > 25
    last = RatingChange.objects.get(game=game, rank=3)
    assert last.mu_after < 25
    assert_rated_from_prior(game)
    assert game_rate(game) is None, "a game is rated once"
    assert RatingChange.objects.filter(game=game).count() == 3


def test_a_game_ended_by_resignation_is_rated(owner, member):
    game = everyone_played(table_of([owner, member]))  # each has played a turn: the resignation loses it
    game = services.game_resign(game_id=game.pk, user=member)
    assert game.status == Game.Status.FINISHED
    assert RatingChange.objects.get(game=game, user=member).delta < 0
    assert RatingChange.objects.get(game=game, user=owner).delta > 0
    assert_rated_from_prior(game)


def test_a_table_with_a_bot_is_never_rated(owner):
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 1}, bots=["random"], rated=True)
    assert game.rated is False
    game = everyone_played(services.game_start(user=owner, game_id=game.pk))
    game = services.game_resign(game_id=game.pk, user=owner)
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_resignation_before_every_seat_has_played_aborts_and_changes_no_rating(owner, member):
    """Ruling S1, turn 3: the measured case, a player resigning before anyone moved, gave her opponent 248 points."""
    first = played([owner, member])
    before = sorted(Rating.objects.values_list("user_id", "key", "mu", "sigma", "games"))
    game = table_of([owner, member])
    game = services.game_resign(game_id=game.pk, user=member)
    assert (game.status, game.abort_reason, game.abort_seat) == (Game.Status.ABORTED, "resigned", 1)
    assert not RatingChange.objects.filter(game=game).exists() and not RatedGame.objects.filter(game=game).exists()
    assert sorted(Rating.objects.values_list("user_id", "key", "mu", "sigma", "games")) == before
    assert list(game.seats.values_list("rank", "score", "result")) == [(None, None, None)] * 2
    assert RatingChange.objects.filter(game=first).count() == 2


def test_seating_a_bot_later_makes_a_rated_table_unrated(owner, member):
    game = services.game_create(user=owner, kind="toppo", players=3, options={"hands": 1})
    assert game.rated is True
    services.game_join(user=member, game_id=game.pk)
    services.game_add_bot(user=owner, game_id=game.pk, level="random")
    assert Game.objects.get(pk=game.pk).rated is False


def test_filling_seats_with_bots_at_the_start_makes_the_table_unrated(owner):
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 1})
    assert game.rated is True
    game = services.game_start(user=owner, game_id=game.pk, fill_with_bots="random")
    assert Game.objects.get(pk=game.pk).rated is False


def test_people_may_choose_to_play_unrated(owner, member):
    game = played([owner, member], rated=False)
    assert game.rated is False
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_an_aborted_game_is_not_rated(owner, member):
    game = table_of([owner, member])
    services.game_abort_agree(user=owner, game_id=game.pk, agree=True)
    services.game_abort_agree(user=member, game_id=game.pk, agree=True)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert not RatingChange.objects.exists()


def test_a_rematch_keeps_the_choice_to_play_unrated(owner, member):
    game = played([owner, member], rated=False)
    assert services.game_rematch(user=owner, game_id=game.pk).rated is False
