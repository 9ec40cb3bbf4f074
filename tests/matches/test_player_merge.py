"""Merging a duplicate player into the real one (issue 21): seats, account link and earlier
merges move, the duplicate stays marked ``merged_into``, the audit log records it, the ratings
follow by the signal; every refusal writes nothing."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RatingPool, RecomputeJob
from ratings.services import rating_events_process_all, rating_pool_recompute
from scorekeeper.matches import errors
from scorekeeper.matches.models import AuditEntry, Player, Seat
from scorekeeper.matches.services import match_create, player_merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", is_staff=True)


@pytest.fixture
def duplicate(play, players, make_players):
    """ "Ada S." (a duplicate of Ada) played Bea twice; Ada played Cid once."""
    (ada_s,) = make_players("Ada S.")
    players.append(ada_s)
    play([4, 1], [10, 3])
    play([1, 4], [10, 3])
    play([0, 2], [10, 3])
    rating_events_process_all()
    return ada_s


def run(job: RecomputeJob) -> None:
    """The recompute job's pool tasks, here (they would run after the commit)."""
    for pool in job.pools:
        rating_pool_recompute(pool=pool, job=job)


def test_a_merge_moves_the_seats_keeps_the_duplicate_and_replays_the_ratings(duplicate, players, staff):
    ada, bea = players[0], players[1]
    done = player_merge(player=duplicate, into=ada, by=staff)

    assert Seat.objects.filter(player=duplicate).count() == 0
    assert Seat.objects.filter(player=ada).count() == 3
    duplicate.refresh_from_db()
    assert duplicate.merged_into == ada
    assert done["games"] == ["tally"] and len(done["matches"]) == 2
    assert not PlayerRating.objects.filter(player=duplicate).exists()  # listed nowhere at once
    (job,) = done["followed"]
    assert isinstance(job, RecomputeJob) and job.pools == [RatingPool.objects.get(game="tally").pk]
    run(job)
    assert PlayerRating.objects.get(player=ada, pool__game="tally").matches == 3
    assert PlayerRating.objects.get(player=bea, pool__game="tally").matches == 2


def test_the_audit_log_records_the_merge_and_each_match_moved(duplicate, players, staff):
    done = player_merge(player=duplicate, into=players[0], by=staff)
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_MERGE)
    merge = entries.get(match__isnull=True)
    assert merge.actor == staff and merge.player == duplicate
    assert merge.payload["into"] == players[0].pk and merge.payload["matches"] == done["matches"]
    assert sorted(entries.filter(match__isnull=False).values_list("match_id", flat=True)) == done["matches"]


def test_the_account_link_moves_to_the_real_player(duplicate, players, staff, user):
    Player.objects.filter(pk=duplicate.pk).update(user=user)
    player_merge(player=duplicate, into=players[0], by=staff)
    assert Player.objects.get(pk=players[0].pk).user == user
    assert Player.objects.get(pk=duplicate.pk).user is None


def test_players_merged_into_the_duplicate_earlier_now_point_at_the_real_player(
    duplicate, players, staff, make_players
):
    (older,) = make_players("A. S.")
    player_merge(player=older, into=duplicate, by=staff)
    player_merge(player=duplicate, into=players[0], by=staff)
    assert Player.objects.get(pk=older.pk).merged_into_id == players[0].pk  # no chain


def refused(code, **kwargs):
    before = (list(Seat.objects.values_list("pk", "player_id")), AuditEntry.objects.count())
    with pytest.raises(errors.DomainError) as caught:
        player_merge(**kwargs)
    assert caught.value.code == code
    assert (list(Seat.objects.values_list("pk", "player_id")), AuditEntry.objects.count()) == before
    return caught.value


def test_a_merge_into_himself_is_refused(duplicate, staff):
    assert isinstance(refused("merge_into_self", player=duplicate, into=duplicate, by=staff), errors.Invalid)


def test_two_players_who_sat_at_the_same_match_are_two_people(duplicate, players, staff):
    error = refused("players_met", player=duplicate, into=players[1], by=staff)
    assert isinstance(error, errors.Conflict) and len(error.extra["matches"]) == 2


def test_merged_players_and_chains_are_refused(duplicate, players, staff):
    player_merge(player=duplicate, into=players[0], by=staff)
    assert isinstance(refused("player_merged", player=duplicate, into=players[3], by=staff), errors.Conflict)
    assert isinstance(refused("merge_chain", player=players[3], into=duplicate, by=staff), errors.Conflict)


def test_two_accounts_are_a_conflict(duplicate, players, staff, user, other_user):
    Player.objects.filter(pk=duplicate.pk).update(user=user)
    Player.objects.filter(pk=players[0].pk).update(user=other_user)
    refused("user_link_conflict", player=duplicate, into=players[0], by=staff)


def test_unknown_players_and_non_staff_are_refused(duplicate, players, staff, user):
    assert isinstance(refused("player_unknown", player=999999, into=players[0], by=staff), errors.NotFound)
    assert isinstance(refused("player_unknown", player=duplicate, into=999999, by=staff), errors.Invalid)
    assert isinstance(
        refused("club_role_required", player=duplicate, into=players[0], by=user), errors.NotAllowed
    )


def test_the_admin_of_every_club_the_two_play_in_may_merge_them(duplicate, players, django_user_model):
    from scorekeeper.clubs.models import Role
    from scorekeeper.clubs.services import home_club, member_set

    admin = django_user_model.objects.create_user("club-admin")
    member_set(club=home_club(), user=admin, role=Role.ADMIN, by=None)
    done = player_merge(player=duplicate, into=players[0], by=admin)
    assert done["into"] == players[0] and Player.objects.get(pk=duplicate.pk).merged_into_id == players[0].pk


def test_a_club_admin_may_not_merge_a_player_of_a_club_he_does_not_run(duplicate, players, django_user_model):
    from scorekeeper.clubs.models import Role
    from scorekeeper.clubs.services import club_create, home_club, member_set
    from scorekeeper.matches.services import club_player_add

    admin = django_user_model.objects.create_user("club-admin")
    member_set(club=home_club(), user=admin, role=Role.ADMIN, by=None)
    elsewhere = club_create(
        by=django_user_model.objects.create_user("other-admin"), name="Elsewhere", public=False
    )
    club_player_add(club=elsewhere, player=players[0], by=None)
    assert isinstance(
        refused("club_role_required", player=duplicate, into=players[0], by=admin), errors.NotAllowed
    )


def test_a_merged_player_cannot_be_seated_again(duplicate, players, staff, user):
    player_merge(player=duplicate, into=players[0], by=staff)
    with pytest.raises(errors.SeatsInvalid) as caught:
        match_create(game="tally", players=[duplicate, players[1]], by=user)
    assert caught.value.code == "player_merged" and caught.value.field == "players[0]"
