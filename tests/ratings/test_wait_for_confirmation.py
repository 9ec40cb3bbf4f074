"""RATINGS_WAIT_FOR_CONFIRMATION: whether a finished match waits for the other side's
confirmation of every hand before it is rated (docs/recording.md, "Confirmation by the other
side"; docs/ratings.md)."""

from __future__ import annotations

import pytest

from ratings import services as ratings
from ratings.models import RatingEvent, RatingHistory, RatingPool
from scorekeeper.matches import confirmations, player_accounts
from scorekeeper.matches.services import hand_correct
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def bea(players, django_user_model):
    """The account of Bea (players[1]), Ada's opponent: she answers the hands ann records."""
    account = django_user_model.objects.create_user("bea")
    player_accounts.player_link(player=players[1], user=account, by=None)
    return account


def rated(match) -> bool:
    ratings.rating_events_process_all()
    return RatingHistory.objects.filter(match_id=match.pk).exists()


def confirm_all(match, by):
    for number in range(1, match.hand_count + 1):
        confirmations.hand_confirm(match=match, number=number, by=by)


def test_off_by_default_a_finished_match_is_rated_unconfirmed_and_a_confirmation_is_no_event(
    play, bea, settings
):
    assert settings.RATINGS_WAIT_FOR_CONFIRMATION is False
    match = play([0, 1], [6, 1], [6, 1])

    assert rated(match)
    confirm_all(match, bea)
    assert list(RatingEvent.objects.values_list("kind", flat=True)) == ["finish"]


def test_on_a_finished_match_waits_for_its_confirmation_then_is_rated(play, bea, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = True
    match = play([0, 1], [6, 1], [6, 1])

    assert not rated(match)
    confirmations.hand_confirm(match=match, number=1, by=bea)
    assert not rated(match)  # hand 2 still waits
    confirmations.hand_confirm(match=match, number=2, by=bea)

    assert rated(match)
    assert list(RatingEvent.objects.order_by("id").values_list("kind", flat=True)) == ["finish", "confirm"]


def test_on_a_dispute_or_a_correction_takes_a_confirmed_match_out_of_the_ratings(play, bea, user, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = True
    match = play([0, 1], [6, 1], [6, 1])
    confirm_all(match, bea)
    assert rated(match)

    confirmations.hand_dispute(match=match, number=2, by=bea, reason="I had 2")
    assert not rated(match)
    confirmations.hand_confirm(match=match, number=2, by=bea)
    assert rated(match)

    hand_correct(match=match, number=1, record=hand([7, 1]), by=user)
    assert not rated(match)
    kinds = list(RatingEvent.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["finish", "confirm", "unconfirm", "confirm", "correct"]


def test_on_a_full_recompute_rates_only_the_confirmed_matches(play, bea, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = True
    confirmed = play([0, 1], [6, 1], [6, 1])
    confirm_all(confirmed, bea)
    waiting = play([0, 1], [1, 6], [1, 6])
    ratings.rating_events_process_all()

    ratings.rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))

    assert RatingHistory.objects.filter(match_id=confirmed.pk).exists()
    assert not RatingHistory.objects.filter(match_id=waiting.pk).exists()
