"""`manage.py demo` shows ratings: every finished demo match is rated."""

import pytest
from django.core.management import call_command

from ratings.models import PlayerRating, RatingEvent, RatingHistory
from scorekeeper.matches.models import Seat

pytestmark = pytest.mark.django_db


def test_the_demo_rates_every_finished_match_and_prints_the_leaders(capsys):
    call_command("demo")

    out = capsys.readouterr().out
    assert "demo: ratings piquet:" in out and "demo: ratings cul:" in out
    assert not RatingEvent.objects.filter(processed_at__isnull=True).exists()
    assert RatingHistory.objects.count() == Seat.objects.filter(match__status="finished").count()
    assert PlayerRating.objects.values("pool").distinct().count() >= 8


def test_the_demo_has_players_who_met_often_for_the_head_to_head():
    from ratings.reads import head_to_head
    from scorekeeper.matches.models import Player

    call_command("demo")
    alice = Player.objects.get(name="Alice")
    (rival, *_) = head_to_head.rivals(player=alice)
    assert rival.player.name == "Boris" and rival.record.played >= 12
    assert rival.record.wins and rival.record.losses  # both won some
