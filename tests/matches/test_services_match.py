"""match_create, scorers, void and reopen, recompute."""

import pytest

from scorekeeper.matches import errors
from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import (
    hand_record,
    match_create,
    match_recompute,
    match_reopen,
    match_scorer_add,
    match_void,
    player_create,
)
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_it_creates_a_match_with_every_option_resolved_seats_in_order_and_the_creator_as_scorer(
    tally, user, make_players
):
    ada, bea, cid = make_players("Ada", "Bea", "Cid")

    match = match_create(game="tally", players=[cid.pk, ada, bea], by=user, options={"target": 20})

    assert match.options == {"target": 20, "dealer_check": True}
    assert [(s.position, s.player.name, s.team) for s in match.seats.order_by("position")] == [
        (0, "Cid", None),
        (1, "Ada", None),
        (2, "Bea", None),
    ]
    assert list(match.scorers.all()) == [user]
    assert (match.status, match.version, match.state, match.preset) == ("in_progress", 0, None, "classic")
    assert AuditEntry.objects.filter(action="match_create", match=match, actor=user).exists()


def test_it_refuses_an_unknown_game(user, make_players):
    with pytest.raises(errors.GameUnknown) as caught:
        match_create(game="whist", players=make_players("A", "B"), by=user)
    assert caught.value.field == "game"


@pytest.mark.parametrize(
    ("preset", "options", "field"),
    [
        ("house", None, "preset"),
        ("classic", {"target": 0}, "options.target"),
        ("classic", {"colour": "red"}, "options.colour"),
        ("classic", ["target"], "options"),
    ],
)
def test_it_refuses_bad_presets_and_options_with_the_field(tally, user, make_players, preset, options, field):
    with pytest.raises(errors.OptionsRejected) as caught:
        match_create(game="tally", players=make_players("A", "B"), by=user, preset=preset, options=options)
    assert caught.value.field == field
    assert caught.value.to_dict()["problems"]
    assert not Match.objects.exists()


def test_it_refuses_a_seat_count_the_game_does_not_allow(tally, user, make_players):
    with pytest.raises(errors.SeatsInvalid) as caught:
        match_create(game="tally", players=make_players("A"), by=user)
    assert caught.value.code == "seat_count"


def test_it_refuses_a_player_twice_or_an_unknown_player(tally, user, make_players):
    ada, bea = make_players("Ada", "Bea")
    with pytest.raises(errors.SeatsInvalid) as twice:
        match_create(game="tally", players=[ada, bea, ada], by=user)
    with pytest.raises(errors.SeatsInvalid) as unknown:
        match_create(game="tally", players=[ada, 999_999], by=user)
    assert (twice.value.code, twice.value.field) == ("player_twice", "players[2]")
    assert (unknown.value.code, unknown.value.field) == ("player_unknown", "players[1]")


def test_teams_are_only_for_partnership_games(tally, user, make_players):
    with pytest.raises(errors.SeatsInvalid):
        match_create(game="tally", players=make_players("A", "B"), by=user, teams=[0, 1])


def test_a_game_whose_rules_fix_partnerships_seats_its_teams_as_they_say(
    tally, user, make_players, monkeypatch
):
    monkeypatch.setattr(tally, "partnerships", (1, 0, 1, 0))

    match = match_create(game="tally", players=make_players("A", "B", "C", "D"), by=user)
    assert [s.team for s in match.seats.order_by("position")] == [1, 0, 1, 0]
    with pytest.raises(errors.SeatsInvalid) as caught:
        match_create(game="tally", players=make_players("E", "F", "G", "H"), by=user, teams=[0, 1, 0, 1])
    assert caught.value.field == "teams"


def test_piquet_voleur_seats_partners_opposite(user, make_players):
    match = match_create(game="piquet-voleur", players=make_players("A", "B", "C", "D"), by=user)
    assert [s.team for s in match.seats.order_by("position")] == [0, 1, 0, 1]
    with pytest.raises(errors.SeatsInvalid):
        match_create(
            game="piquet-voleur", players=make_players("E", "F", "G", "H"), by=user, teams=[0, 0, 1, 1]
        )


def test_a_player_needs_a_name(db):
    with pytest.raises(errors.Invalid):
        player_create(name="  ")
    assert player_create(name=" Ada ").name == "Ada"


def test_a_scorer_can_add_another_scorer_who_may_then_record(tally_match, user, other_user):
    match_scorer_add(match=tally_match, user=other_user, by=user)

    stored = hand_record(match=tally_match, record=hand([1, 0]), by=other_user)
    assert stored.recorded_by == other_user


def test_voiding_needs_a_reason_and_reopening_restores_the_status_from_the_state(tally_match, user):
    hand_record(match=tally_match, record=hand([10, 0]), by=user)
    with pytest.raises(errors.ReasonRequired):
        match_void(match=tally_match, by=user, reason="")

    voided = match_void(match=tally_match, by=user, reason="played with a short pack")
    assert voided.status == "void"
    with pytest.raises(errors.StatusConflict):
        match_void(match=tally_match, by=user, reason="again")

    reopened = match_reopen(match=tally_match, by=user, reason="pack was fine")
    assert reopened.status == "finished"
    actions = list(AuditEntry.objects.filter(match=tally_match).values_list("action", flat=True))
    assert actions[:2] == ["match_reopen", "match_void"]
    with pytest.raises(errors.StatusConflict):
        match_reopen(match=tally_match, by=user, reason="not void")


def test_only_scorers_may_void(tally_match, other_user):
    with pytest.raises(errors.NotAllowed):
        match_void(match=tally_match, by=other_user, reason="mine now")


def test_a_recompute_with_nothing_to_change_changes_nothing(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    version = Match.objects.get(pk=tally_match.pk).version

    assert match_recompute(match=tally_match.pk)["changed"] == 0
    assert Match.objects.get(pk=tally_match.pk).version == version
    assert Hand.objects.count() == 1


def test_a_recompute_supersedes_hands_the_engine_now_scores_differently(tally_match, user):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user)
    # As if stored by an older engine that got the totals wrong.
    Hand.objects.filter(pk=stored.pk).update(
        state_after={"hands": 1, "totals": [9, 9], "last_dealer": 0, "over": False}
    )

    outcome = match_recompute(match=tally_match.pk)

    assert outcome["changed"] == 1
    current = Hand.objects.get(match=tally_match, status="valid")
    assert current.version == 2 and current.state_after["totals"] == [3, 1]
    assert Match.objects.get(pk=tally_match.pk).state["totals"] == [3, 1]
