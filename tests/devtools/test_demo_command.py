"""`manage.py demo` records finished matches of several games through the services, once."""

import pytest
from django.core.management import call_command

from scorekeeper.matches.models import AuditEntry, Hand, Match, Player

pytestmark = pytest.mark.django_db


def test_the_demo_records_a_dozen_players_and_finished_matches_of_several_games():
    call_command("demo", stdout=None)

    assert Player.objects.count() == 13  # the dozen and the private club's own player
    finished = Match.objects.filter(status="finished")
    # Every match finished but the league's two tables of this week still being played.
    assert finished.count() == Match.objects.count() - 2 >= 8
    under_way = Match.objects.filter(status="in_progress")
    assert set(under_way.values_list("event_table__round__event__name", flat=True)) == {"Winter league"}
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


def test_the_demo_has_a_finished_club_night_and_a_league_in_progress():
    import datetime as dt
    from fractions import Fraction

    from django.utils import timezone

    from scorekeeper.events import selectors
    from scorekeeper.events.models import Event

    call_command("demo", stdout=None)

    night = Event.objects.get(club__slug="cercle", name="Tuesday club night")
    assert night.format == "swiss" and night.game == "piquet" and night.finished_at is not None
    assert night.entrants.count() == 8 and night.round_set.count() == 3
    assert selectors.open_round(night) is None
    table = selectors.standings(night)
    assert len(table) == 8 and table[0].rank == 1
    assert sum(row.values["points"] for row in table) == Fraction(12)  # 4 tables × 3 rounds × 1 point
    assert len(selectors.played(night).tables) == 12  # every match played to its end
    assert [row.values["points"] for row in table] == sorted(
        (row.values["points"] for row in table), reverse=True
    )

    league = Event.objects.get(club__slug="cercle", name="Winter league")
    assert league.format == "league" and league.finished_at is None
    assert league.entrants.count() == 6
    rounds = list(selectors.rounds(league))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert rounds[-1].scheduled_for == timezone.localdate()  # this week's fixture
    assert rounds[0].scheduled_for == timezone.localdate() - dt.timedelta(weeks=2)
    assert selectors.open_round(league) == rounds[-1]
    statuses = [t.match.status for t in selectors.round_tables(rounds[-1])]
    hands = [t.match.hand_count for t in selectors.round_tables(rounds[-1])]
    assert statuses == ["finished", "in_progress", "in_progress"] and hands[1:] == [2, 0]
    # Two rounds of three tables and this week's finished one, a point each.
    assert sum(row.values["points"] for row in selectors.standings(league)) == 7


def test_running_the_demo_again_adds_no_event():
    from scorekeeper.events.models import Event, EventTable

    call_command("demo", stdout=None)
    counts = (Event.objects.count(), EventTable.objects.count())

    call_command("demo", stdout=None)

    assert (Event.objects.count(), EventTable.objects.count()) == counts == (2, 21)
