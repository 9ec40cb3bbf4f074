"""A club's events: the event, its entrants, its rounds, each round's tables, the audit log.

Nothing here is overwritten or deleted: a withdrawal stamps the entrant; a swap before a round
starts stamps the two tables it replaces and adds two; a forfeit stamps a table with the
places the director gave. Each table that is played is a match of the club (``match``); the
results are read from the matches, never copied.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club
from scorekeeper.clubs.scoping import ClubScopedManager
from scorekeeper.matches.models import Match, Player


class Event(models.Model):
    class Format(models.TextChoices):
        OPEN = "open", _("club night (open tables)")
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        TABLE_SWISS = "table_swiss", _("Swiss at tables")
        LEAGUE = "league", _("league")

    class Seating(models.TextChoices):
        DRAW = "draw", _("drawn")
        ROTATE = "rotate", _("rotated")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    #: A game key of the rules engine, checked by ``event_create``.
    game = models.CharField(_("game"), max_length=32)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    #: The rounds the director set (a league: its fixtures' weeks); none for an open club night.
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    #: The seats at each table (the game's only count when it has one).
    table_size = models.PositiveSmallIntegerField(_("players at a table"))
    #: Event points by finishing place, first place first, as decimal strings ("1", "0.5").
    points = models.JSONField(_("points by place"), default=list)
    bye_points = models.CharField(_("points for a bye"), max_length=16, default="1")
    #: The tie-breaks in the director's order (keys of ``standings.TIEBREAKS``).
    tiebreaks = models.JSONField(_("tie-breaks"), default=list)
    seating = models.CharField(_("seats at a table"), max_length=8, choices=Seating.choices, default="draw")
    #: The seed of every drawing (seats, lots): the same seed, the same event.
    seed = models.PositiveIntegerField(_("seed"))
    #: A league's first fixture day; each next round a week later.
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    #: In a request, only the events of the clubs its viewer may see (clubs/scoping.py).
    objects = ClubScopedManager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="event_name_not_empty"),
            models.CheckConstraint(
                condition=Q(format__in=["open", "round_robin", "swiss", "table_swiss", "league"]),
                name="event_format_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event-detail", args=[self.club.slug, self.pk])


class Entrant(models.Model):
    """A player entered in an event; a withdrawal stamps ``withdrawn_at`` (he is paired no
    more; what he played stands)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    #: The rating at the start, as the ratings gave it when he entered (a tie-break).
    rating = models.IntegerField(_("rating at the start"), null=True, blank=True)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "id"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], condition=Q(withdrawn_at__isnull=True), name="one_open_entry"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.event}"


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    paired_at = models.DateTimeField(_("paired at"), auto_now_add=True)
    paired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The repeat meetings the pairing could not avoid, and the least any pairing could have.
    repeats = models.PositiveIntegerField(_("repeat meetings"), default=0)
    repeats_bound = models.PositiveIntegerField(_("fewest possible"), default=0)
    #: A league's fixture day.
    scheduled_for = models.DateField(_("fixture day"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_number")]

    def __str__(self) -> str:
        return f"{self.event} · {self.number}"


class EventTable(models.Model):
    """A table of a round: its match (players in seat order), or the bye of one player.

    ``replaced_at``: a swap before the round started put other players here (the table's new
    row has the same number). ``forfeit``: the places the director gave (seat order) when the
    match was not played out; its match is then void and rated as nothing."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="event_table"
    )
    bye = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    replaced_at = models.DateTimeField(_("replaced at"), null=True, blank=True)
    forfeit = models.JSONField(_("places given"), null=True, blank=True)
    forfeit_reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["round", "number", "id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], condition=Q(replaced_at__isnull=True), name="one_table_number"
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=True, bye__isnull=False) | Q(match__isnull=False, bye__isnull=True),
                name="table_match_or_bye",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"


class EventAuditEntry(models.Model):
    class Action(models.TextChoices):
        CREATE = "event_create", _("event created")
        ENTER = "entrant_add", _("entrant added")
        WITHDRAW = "entrant_withdraw", _("entrant withdrawn")
        PAIR = "round_pair", _("round paired")
        SWAP = "round_swap", _("players swapped")
        FORFEIT = "table_forfeit", _("forfeit given")
        FINISH = "event_finish", _("event finished")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    payload = models.JSONField(_("details"), default=dict)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("event audit entry")
        verbose_name_plural = _("event audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.event} {self.action}"
