"""The writes of a recorded hand (the match, the hand, its audit entry) as the database holds
them, and the conditional write of the match that turns a lost race into a version conflict.
"""

import pytest

from scorekeeper.matches import errors, services
from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import _hand_payload, hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db

HAND_COLUMNS = [f.attname for f in Hand._meta.concrete_fields]
MATCH_COLUMNS = ["state", "result", "status", "version", "hand_count", "updated_at"]


def test_the_stored_rows_are_the_returned_hand_and_match(tally_match, user):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)

    row = Hand.objects.get(pk=stored.pk)
    assert {c: getattr(row, c) for c in HAND_COLUMNS} == {c: getattr(stored, c) for c in HAND_COLUMNS}
    assert (row.match_id, row.number, row.version, row.recorded_by_id) == (tally_match.pk, 1, 1, user.pk)
    match = Match.objects.get(pk=tally_match.pk)
    returned = stored.match
    assert {c: getattr(match, c) for c in MATCH_COLUMNS} == {c: getattr(returned, c) for c in MATCH_COLUMNS}
    assert (match.version, match.hand_count, match.state["totals"]) == (1, 1, [3, 1])
    assert match.created_at <= match.updated_at and match.title == tally_match.title


def test_the_declared_column_holds_what_the_games_declared_key_holds(tally_match, user, make_players):
    assert hand_record(match=tally_match, record=hand([3, 1]), by=user).declared == [3, 1]
    cul = services.match_create(game="cul", players=make_players("Anna", "Boris"), by=user)
    party = {"dealer": 0, "bets": ["go", "go"], "points": [40, 50], "declared_banks": [4, 2]}
    assert hand_record(match=cul, record=party, by=user).declared == [4, 2]
    # The spec's own key besides (pasted in the form's JSON area) is the one stored, as it always was.
    party = {**party, "declared_banks": [5, 1], "declared": [9, 9]}
    assert hand_record(match=cul, record=party, by=user).declared == [9, 9]


def test_the_audit_entry_names_the_hand_its_match_and_the_recorder(tally_match, user):
    first = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
    second = hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user, version=1)

    entries = list(AuditEntry.objects.filter(action="hand_record").order_by("id"))
    assert [(e.hand_id, e.match_id, e.actor_id, e.player_id) for e in entries] == [
        (first.pk, tally_match.pk, user.pk, None),
        (second.pk, tally_match.pk, user.pk, None),
    ]
    assert entries[1].payload == _hand_payload(second)
    assert entries[0].at <= entries[1].at


def test_a_hand_recorded_by_the_system_has_no_actor(tally_match):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=None)

    entry = AuditEntry.objects.get(action="hand_record")
    assert (entry.hand_id, entry.actor_id) == (stored.pk, None)
    assert Hand.objects.get(pk=stored.pk).recorded_by_id is None


def test_a_write_whose_version_moved_on_since_the_read_writes_nothing(tally_match, user):
    read = services._read(tally_match.pk, by=user)
    hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)  # lands in between
    read.hand_count += 1

    with pytest.raises(errors.VersionConflict) as conflict:
        services._save(read)
    assert read.version == 0 and conflict.value.extra["current_version"] == 1
    assert Hand.objects.count() == 1 and AuditEntry.objects.filter(action="hand_record").count() == 1
    match = Match.objects.get(pk=tally_match.pk)
    assert (match.version, match.hand_count, match.state["totals"]) == (1, 1, [3, 1])


def test_a_recording_that_loses_the_race_after_its_read_is_a_version_conflict(tally_match, user, monkeypatch):
    real_read = services._read

    def read_then_someone_records(*args, **kwargs):
        match = real_read(*args, **kwargs)
        monkeypatch.setattr(services, "_read", real_read)
        hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
        return match

    monkeypatch.setattr(services, "_read", read_then_someone_records)
    with pytest.raises(errors.VersionConflict) as conflict:
        hand_record(match=tally_match, record=hand([0, 4], dealer=1), by=user, version=0)

    assert conflict.value.extra["current_version"] == 1
    assert conflict.value.extra["last_hand"]["declared"] == [3, 1]
    # The other device's write (on this test's one connection: tests/matches/test_services_races.py
    # races for real) stands; the refused recording wrote nothing of its own.
    assert list(Hand.objects.values_list("declared", flat=True)) == [[3, 1]]
    assert AuditEntry.objects.filter(action="hand_record").count() == 1
