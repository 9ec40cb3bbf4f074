"""`manage.py demo` records finished matches of several games through the services, once."""

import pytest
from django.core.management import call_command

from scorekeeper.matches.models import AuditEntry, Hand, Match, Player

pytestmark = pytest.mark.django_db


def test_the_demo_records_a_dozen_players_and_finished_matches_of_several_games():
    call_command("demo", stdout=None)

    assert Player.objects.count() == 13  # the dozen and the private club's own player
    finished = Match.objects.filter(status="finished")
    assert finished.count() == Match.objects.count() >= 8
    assert finished.values("game").distinct().count() >= 4
    assert Hand.objects.filter(status="valid").count() == Hand.objects.count()
    assert AuditEntry.objects.filter(action="hand_record").count() == Hand.objects.count()


def test_running_the_demo_again_adds_nothing():
    call_command("demo")
    counts = (Player.objects.count(), Match.objects.count(), Hand.objects.count())

    call_command("demo")

    assert (Player.objects.count(), Match.objects.count(), Hand.objects.count()) == counts


def test_the_demo_has_established_and_provisional_piquet_players_and_a_season():
    from django.utils import timezone

    from ratings.reads.boards import leaderboard
    from ratings.reads.seasons import season_board

    call_command("demo", stdout=None)

    established = list(leaderboard(game="piquet"))
    assert len(established) == 6  # the league: five matches each and more
    assert len(list(leaderboard(game="piquet", provisional=True))) >= 1
    now = timezone.now()
    season = season_board(game="piquet", start=now.replace(day=1, hour=0, minute=0), end=now)
    assert len(season) >= 6 and all(row.matches >= 1 for row in season)


def test_the_demo_has_two_clubs_sharing_a_player_one_of_them_private():
    from django.contrib.auth.models import AnonymousUser

    from scorekeeper.clubs.models import Club
    from scorekeeper.clubs.scoping import viewer_scope
    from scorekeeper.matches.selectors import players_seen_by

    call_command("demo", stdout=None)

    cercle, back_room = Club.objects.get(slug="cercle"), Club.objects.get(slug="back-room")
    assert cercle.public and not back_room.public
    shared = set(cercle.roster.values_list("player__name", flat=True)) & set(
        back_room.roster.values_list("player__name", flat=True)
    )
    assert shared == {"Alice"}
    assert Match.objects.filter(club=back_room, status="finished").count() == 2
    with viewer_scope(AnonymousUser()):
        assert not Match.objects.filter(club=back_room).exists()
        seen = set(players_seen_by(AnonymousUser()).values_list("name", flat=True))
    assert "Alice" in seen and "Mireille" not in seen
