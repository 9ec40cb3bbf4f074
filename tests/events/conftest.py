"""An event's world: a club with its director, eight players on its roster (tally, the test game)."""

from __future__ import annotations

import pytest


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora")


@pytest.fixture
def club(director):
    from scorekeeper.clubs.services import club_create

    return club_create(by=director, name="Cercle du Piquet", slug="cercle")


@pytest.fixture
def roster(tally, club, director):
    from scorekeeper.matches.services import player_create

    names = ["Ada", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    return [player_create(name=name, club=club, by=director) for name in names]


@pytest.fixture
def make_event(club, director, roster):
    from scorekeeper.events import services

    def make(count: int = 8, **fields):
        fields.setdefault("name", "Tuesday night")
        fields.setdefault("game", "tally")
        fields.setdefault("format", "swiss")
        fields.setdefault("rounds", 3)
        event = services.event_create(club=club, by=director, **fields)
        for player in roster[:count]:
            services.entrant_add(event=event, player=player, by=director)
        return event

    return make


@pytest.fixture
def finish_round(director):
    """Play every table of the event's last round: the first seat wins 10 to ``loser``."""
    from scorekeeper.events import selectors
    from scorekeeper.matches.services import hand_record
    from tests.fakes import hand

    def finish(round_, winner_seat=0):
        for table in selectors.round_tables(round_):
            if table.match_id is None or table.match.status != "in_progress":
                continue
            seats = table.match.seat_count
            points = [10 if i == winner_seat else i for i in range(seats)]
            hand_record(match=table.match_id, record=hand(points), by=director)

    return finish
