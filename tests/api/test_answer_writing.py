"""The hand and match answers written out (``api.hands.hand_answer``, ``api.matches.
match_state_answer``) are what their serializers' declared fields give, key for key and byte
for byte: the fields stay the schema, the written-out dict the answer."""

from __future__ import annotations

import copy

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from api.hands import HandSerializer, hand_answer
from api.matches import MatchStateSerializer, match_state_answer
from scorekeeper.matches import confirmations, selectors
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_correct, hand_record, match_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def by_fields(serializer_class, instance):
    """DRF's own answer, field by field (``Serializer.to_representation``, not overridden)."""
    return serializers.Serializer.to_representation(serializer_class(), instance)


def assert_same(written, fields):
    assert list(written.items()) == list(fields.items())
    assert JSONRenderer().render(written) == JSONRenderer().render(fields)


@pytest.fixture
def versions(tally_match, user, django_user_model):
    """Every version of every hand of a finished match: recorded by a scorer and by the system,
    disputed with the declared values standing, corrected, confirmed and disputed at the table."""
    match = tally_match
    seats = {seat.position: seat.player for seat in match.seats.all()}
    hand_record(match=match, record=hand([3, 1]), by=user, version=0)
    hand_record(match=match, record=hand([2, 2], declared=[2, 3], dealer=1), by=user,
                accept_declared=True, reason="agreed at the table")  # fmt: skip
    hand_record(match=match, record=hand([1, 0]), by=None)
    hand_correct(match=match, number=1, record=hand([4, 1]), by=user, reason="miscounted")
    confirmations.hand_confirm(match=match, number=1, by=user, player=seats[1])
    confirmations.hand_dispute(match=match, number=2, by=user, player=seats[1], reason="not so")
    hand_record(match=match, record=hand([9, 0], dealer=1), by=user)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    hands = [h for n in range(1, 5) for h in selectors.hand_history(match=match, number=n)]
    return match, selectors.hands_answered(match=match, hands=hands)


def test_every_hand_version_is_written_as_its_fields_give_it(versions):
    _, hands = versions
    assert {h.confirmation for h in hands} >= {"waiting", "confirmed", "disputed"}
    assert any(h.supersedes_id for h in hands) and any(h.recorded_by is None for h in hands)
    for h in hands:
        assert_same(hand_answer(h), by_fields(HandSerializer, h))
        assert_same(HandSerializer(h).data, by_fields(HandSerializer, h))
    assert HandSerializer(hands, many=True).data == [by_fields(HandSerializer, h) for h in hands]


def test_a_hand_without_dealer_or_evaluation_and_in_another_zone(versions):
    _, hands = versions
    bare = copy.copy(hands[0])
    bare.dealer = bare.evaluation = bare.declared = None
    with timezone.override("Europe/Paris"):
        written = hand_answer(bare)
        assert_same(written, by_fields(HandSerializer, bare))
    assert written["recorded_at"].endswith("+01:00") or written["recorded_at"].endswith("+02:00")


def test_the_match_state_is_written_as_its_fields_give_it(versions, user, make_players):
    finished, _ = versions
    fresh = match_create(game="tally", players=make_players("Cid", "Dan"), by=user)
    for match in (finished, fresh, Match.objects.get(pk=fresh.pk)):
        assert_same(match_state_answer(match), by_fields(MatchStateSerializer, match))
        assert_same(MatchStateSerializer(match).data, by_fields(MatchStateSerializer, match))
