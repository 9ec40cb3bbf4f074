"""The other side's answers against concurrent writes: the match row lock takes them in turn
(PostgreSQL: real concurrent transactions)."""

import contextvars
import threading

import pytest
from django.db import connection

from scorekeeper.matches import confirmations, errors, player_accounts
from scorekeeper.matches.models import HandConfirmation, Match
from scorekeeper.matches.services import hand_correct, hand_record
from tests.conftest import require_services
from tests.fakes import hand

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def answered(tally_match, user, django_user_model):
    require_services(redis=False, why="concurrent transactions")
    bea = django_user_model.objects.create_user("bea")
    player_accounts.player_link(player=tally_match.seats.get(position=1).player, user=bea, by=None)
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    return bea


def race(*calls):
    barrier = threading.Barrier(len(calls))
    outcomes = []

    def run(call):
        try:
            barrier.wait()
            call()
            outcomes.append("done")
        except errors.DomainError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    # Each thread in a copy of the test's context: site-wide, as the test (a new thread's
    # context is empty, and the clubs' guard refuses a query in no scope).
    threads = [threading.Thread(target=contextvars.copy_context().run, args=(run, call)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return sorted(outcomes)


def test_two_phones_confirming_the_same_hand_at_once_store_one_answer(tally_match, answered):
    def confirm():
        confirmations.hand_confirm(match=tally_match.pk, number=1, by=answered, hand_version=1)

    assert race(confirm, confirm) == ["already_confirmed", "done"]
    assert HandConfirmation.objects.count() == 1
    assert Match.objects.get(pk=tally_match.pk).confirmed_at is not None


def test_a_confirmation_racing_a_correction_never_confirms_the_new_version(tally_match, user, answered):
    def confirm():
        confirmations.hand_confirm(match=tally_match.pk, number=1, by=answered, hand_version=1)

    def correct():
        hand_correct(match=tally_match.pk, number=1, record=hand([4, 1]), by=user)

    outcomes = race(confirm, correct)

    assert outcomes in (["done", "done"], ["done", "hand_version_conflict"])
    match = Match.objects.get(pk=tally_match.pk)
    assert match.confirmed_at is None  # the current version (2) has no answer either way
    assert not HandConfirmation.objects.filter(hand__version=2).exists()
