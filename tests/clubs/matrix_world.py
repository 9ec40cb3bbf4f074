"""The world of the permission matrix (tests/clubs/test_permission_matrix.py): a public and a
private club, each with a member, a scorer, a director and an admin (the same people in both),
an outsider who runs a club of his own, and staff; in each club two players, a match in
progress with one hand, a finished match, an invitation and a join request; an event (a Swiss
of the two players, its first round paired) and a third player, not entered.

Every URL of the URLconf is requested by every role against each club's objects: the URL's
arguments (``pk``, ``slug``, ``player`` …) name the public club's objects in one column and
the private club's in the other, and writes carry a valid body, so that what answers is the
permission, not the validation. Each request runs in a savepoint rolled back after it: every
cell starts from the same world.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROLES = ("anonymous", "outsider", "member", "scorer", "director", "admin", "staff")
CLUBS = ("public", "private")


@dataclass
class ClubWorld:
    club: Any
    players: list
    match: Any  # in progress, one hand, scored by the club's admin
    finished: Any
    invitation: Any
    join_request: Any
    event: Any = None  # a Swiss of ``players``, round 1 paired and being played
    spare: Any = None  # a player of the club not entered in the event
    claim_code_player: Any = None


@dataclass
class World:
    users: dict[str, Any]
    clubs: dict[str, ClubWorld] = field(default_factory=dict)
    other_club: Any = None
    recompute_job: Any = None  # a staff user's, of every pool


def build_world(django_user_model) -> World:
    from ratings.models import RecomputeJob
    from scorekeeper.clubs import services as clubs
    from scorekeeper.clubs.models import Role
    from scorekeeper.events import services as events
    from scorekeeper.matches import services
    from tests.fakes import hand

    users = {role: django_user_model.objects.create_user(role) for role in ROLES if role != "anonymous"}
    users["staff"].is_staff = True
    users["staff"].save()
    world = World(users={"anonymous": None, **users})
    admin = users["admin"]
    world.other_club = clubs.club_create(by=users["outsider"], name="Elsewhere", slug="elsewhere")
    for kind in CLUBS:
        club = clubs.club_create(by=admin, name=f"The {kind} club", slug=kind, public=kind == "public")
        for role in ("member", "scorer", "director"):
            clubs.member_set(club=club, user=users[role], role=role, by=admin)
        players = [
            services.player_create(name=f"{kind.title()} {n}", club=club, by=admin) for n in ("Ada", "Bea")
        ]
        match = services.match_create(game="tally", players=players, by=admin, club=club)
        services.hand_record(match=match, record=hand([3, 4]), by=admin)
        finished = services.match_create(game="tally", players=players, by=admin, club=club)
        services.hand_record(match=finished, record=hand([10, 2]), by=admin)
        match.refresh_from_db()  # its version after the hand
        invitation, _code = clubs.invitation_create(club=club, by=admin, role=Role.MEMBER)
        asker = django_user_model.objects.create_user(f"asker-{kind}")
        join_request = clubs.club_join(club=club, by=asker)
        event = events.event_create(
            club=club, by=admin, name="Tuesday", game="tally", format="swiss", rounds=3
        )
        for player in players:
            events.entrant_add(event=event, player=player, by=admin)
        events.round_pair(event=event, by=admin)
        spare = services.player_create(name=f"{kind.title()} Cid", club=club, by=admin)
        world.clubs[kind] = ClubWorld(club, players, match, finished, invitation, join_request, event, spare)
    world.recompute_job = RecomputeJob.objects.create(requested_by=users["staff"])
    return world
