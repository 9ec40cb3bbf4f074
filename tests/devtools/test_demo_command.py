"""`manage.py demo` records finished matches of several games through the services, once."""

import pytest
from django.core.management import call_command

from scorekeeper.matches.models import AuditEntry, Hand, Match, Player

pytestmark = pytest.mark.django_db


def test_the_demo_records_a_dozen_players_and_finished_matches_of_several_games():
    call_command("demo", stdout=None)

    assert Player.objects.count() == 12
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
