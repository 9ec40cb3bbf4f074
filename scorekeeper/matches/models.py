"""Recorded facts about matches played at a real table.

History is append-only: a correction inserts a new Hand version and flips the old row's
status to ``superseded`` (the only change ever made to a hand row); nothing is deleted.
The Match row caches what is derived from its current hands (state, status, result,
hand_count) and its seat count, and carries ``version`` for optimistic concurrency. Writes
go through ``services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.clubs.models import Club, home_club_id
from scorekeeper.clubs.scoping import ClubScopedManager
from scorekeeper.rules.options import PRESETS

from . import terms


class Player(models.Model):
    name = models.CharField(_("name"), max_length=100)
    #: The site account of this player, if they have one (scorers need not be players).
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("account"),
        help_text=_("The player's own account on the site, if they have one."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Set when this player was a duplicate merged into another (``services.player_merge``):
    #: his seats are that player's now; the row stays so that his old pages redirect.
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged",
        verbose_name=_("merged into"),
        help_text=_("The player this duplicate was merged into; his matches are that player's now."),
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player-detail", args=[self.pk])


class ClubPlayer(models.Model):
    """A player of a club: on its roster (its scorers seat him as one of theirs), or ``guest``
    (he played one of its matches, named a guest, without joining). A player may be in several
    clubs; rows are only added. Whom a viewer may see is read from here: a player seen in no
    club the viewer may see is not shown to him (``selectors.players_seen_by``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="roster", verbose_name=_("club"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="clubs", verbose_name=_("player")
    )
    guest = models.BooleanField(_("guest"), default=False)
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = ClubScopedManager()

    class Meta:
        verbose_name = _("club player")
        verbose_name_plural = _("club players")
        constraints = [models.UniqueConstraint(fields=["club", "player", "guest"], name="club_player_once")]

    def __str__(self) -> str:
        return f"{self.player} · {self.club}"


class Match(models.Model):
    #: Not a column: whether the user a write is for scores this match, set where the write
    #: reads it (``services._read``).
    is_scorer: bool

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        VOID = "void", pgettext_lazy("a match", "void")

    #: The club the match was played in: who may score it, who may see it (a private club's
    #: matches are its members' only), which club board it counts on.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        default=home_club_id,
        related_name="matches",
        verbose_name=_("club"),
    )
    #: A game key of the rules engine (``find_ruleset``), checked by ``match_create``.
    game = models.CharField(_("game"), max_length=32, db_index=True)
    preset = models.CharField(
        _("preset"),
        max_length=16,
        default="classic",
        help_text=_("The set of house rules the match started from."),
    )
    #: Every option's resolved value, as the engine used it (spec 1.2).
    options = models.JSONField(
        _("options"), default=dict, help_text=_("Every option's value, as the rules engine used it.")
    )
    title = models.CharField(_("title"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="matches_created",
        verbose_name=_("created by"),
    )
    #: Who may record, correct or void (the creator is always one).
    scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="matches_scored",
        verbose_name=_("scorers"),
        help_text=_("Who may record, correct or void the match (its creator always may)."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    #: When the match was played, as its scorer gave it (a score sheet entered afterwards);
    #: empty for a match recorded as it is played, which was played when its last hand was
    #: recorded. The ratings rate a pool's matches in the order they were played.
    played_at = models.DateTimeField(
        _("played at"),
        null=True,
        blank=True,
        help_text=_(
            "When the match was played, if it was entered afterwards; empty for a match recorded "
            "as it was played (its last hand is when it was played)."
        ),
    )
    #: Bumped by every write to the match or its hands; clients send it back to detect races.
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("Goes up by one with every change to the match or its hands.")
    )
    #: The engine state after the last current hand; null = before the first hand (spec 1.1).
    state = models.JSONField(
        _("state"),
        null=True,
        blank=True,
        help_text=_("The game's state after the last hand; empty before the first."),
    )
    #: The game's match result once the match is over (spec 1.5 ``result``).
    result = models.JSONField(
        _("result"), null=True, blank=True, help_text=_("The match's result, once it is over.")
    )
    #: How many current hands the match has: the number of the next hand is one more. Kept
    #: by the services on the row they lock, so that a write reads it with the lock.
    hand_count = models.PositiveIntegerField(_("hands"), default=0, editable=False)
    #: How many seats the match has, set with them by ``match_create`` (seats never change):
    #: a write reads it with the match row instead of counting the seats.
    seat_count = models.PositiveSmallIntegerField(_("seats"), editable=False)
    #: When the other side had confirmed every current hand; empty while a hand waits or is
    #: disputed (and before the first hand). Derived from the HandConfirmation rows, kept by the
    #: services like ``status``; a new hand version empties it (docs/recording.md).
    confirmed_at = models.DateTimeField(
        _("confirmed at"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("When the other side had confirmed every hand; empty while one waits or is disputed."),
    )

    #: In a request, only the matches of the clubs its viewer may see (clubs/scoping.py).
    objects = ClubScopedManager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(condition=~Q(game=""), name="match_game_not_empty"),
            models.CheckConstraint(condition=Q(preset__in=list(PRESETS)), name="match_preset_known"),
            models.CheckConstraint(
                condition=Q(status__in=["in_progress", "finished", "void"]), name="match_status_known"
            ),
        ]

    def __str__(self) -> str:
        """The title, or the game's title in the active language and the id ("Piquet #3")."""
        if self.title:
            return self.title
        return _("%(game)s #%(number)s") % {"game": terms.game_title(self.game), "number": self.pk}

    def get_absolute_url(self) -> str:
        return reverse("match-detail", args=[self.pk])

    @property
    def display_title(self) -> str:
        """The title, or for an untitled match its players and its day ("Ada, Bea · 1 Dec 2026"),
        a name a person recognises on a list. A display only: the stored title stays empty.

        Reads ``seats`` (prefetch them with their players on a list: ``selectors.match_list``)."""
        if self.title:
            return self.title
        players = ", ".join(seat.player.name for seat in sorted(self.seats.all(), key=lambda s: s.position))
        if not self.created_at:
            return players or str(self)
        day = date_format(timezone.localtime(self.created_at), "DATE_FORMAT")
        return _("%(players)s · %(date)s") % {"players": players or terms.game_title(self.game), "date": day}


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    #: Seat number 0 … n−1, clockwise (spec 1.1).
    position = models.PositiveSmallIntegerField(
        _("position"), help_text=_("The seat's number, from 0, clockwise.")
    )
    #: Partnership games only (piquet-voleur: 0 for seats 0+2, 1 for seats 1+3); null otherwise.
    team = models.PositiveSmallIntegerField(
        _("team"),
        null=True,
        blank=True,
        help_text=_("Partnership games only: 0 for seats 0 and 2, 1 for seats 1 and 3."),
    )

    class Meta:
        ordering = ["match", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique_per_match"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_once_per_match"),
        ]

    def __str__(self) -> str:
        return _("seat %(position)s: %(player)s") % {"position": self.position, "player": self.player}


class Hand(models.Model):
    #: Not a column: after a correction, the later hands that got a new version
    #: (``services.hand_correct``), their numbers, for the caller to show.
    reevaluated: list[int]

    class Status(models.TextChoices):
        VALID = "valid", _("valid")
        #: Stored with the declared values standing (spec 1.6), or unplayable after a correction.
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded")

    #: No index of its own: the unique (match, number, version) index leads with it.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="hands", db_index=False, verbose_name=_("match")
    )
    #: Position in the match, 1-based; several versions share a number, one is current.
    number = models.PositiveIntegerField(_("number"), help_text=_("The hand's place in the match, from 1."))
    #: 1 for the first recording, +1 for each correction of the same number.
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("1 when first recorded, one more with each correction.")
    )
    dealer = models.PositiveSmallIntegerField(
        _("dealer"), null=True, blank=True, help_text=_("The dealer's seat number.")
    )
    #: The hand record exactly as submitted.
    record = models.JSONField(_("record"), help_text=_("The hand exactly as it was entered."))
    #: What the players claimed (the record's ``declared`` / cul ``declared_banks``).
    declared = models.JSONField(
        _("declared"), null=True, blank=True, help_text=_("What the players announced at the table.")
    )
    #: The engine's scores for the hand; null when the hand has errors.
    computed = models.JSONField(
        _("computed"),
        null=True,
        blank=True,
        help_text=_("The scores the rules engine worked out; empty when the hand has errors."),
    )
    state_after = models.JSONField(_("state after"), null=True, blank=True)
    #: The engine result (spec 1.5 shape) this row was stored with.
    evaluation = models.JSONField(
        _("evaluation"),
        default=dict,
        help_text=_("The rules engine's verdict on the hand when it was stored."),
    )
    #: Whether the declared values were accepted over mismatches (spec 1.6).
    accepted_declared = models.BooleanField(
        _("declared values accepted"),
        default=False,
        help_text=_("Whether the announced values were kept although they did not match the cards."),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.VALID)
    supersedes = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="superseded_by",
        verbose_name=_("supersedes"),
        help_text=_("The version this correction replaced."),
    )
    #: Unindexed: no query looks hands up by who recorded them (each write would pay for it).
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True, help_text=_("Why the hand was corrected."))

    class Meta:
        ordering = ["match", "number", "version"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=~Q(status="superseded"),
                name="hand_one_current_version_per_number",
            ),
            models.UniqueConstraint(fields=["match", "number", "version"], name="hand_version_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_one"),
            models.CheckConstraint(condition=Q(version__gte=1), name="hand_version_from_one"),
            models.CheckConstraint(
                condition=Q(status__in=["valid", "disputed", "superseded"]), name="hand_status_known"
            ),
            # A first version supersedes nothing; every later version supersedes one.
            models.CheckConstraint(
                condition=Q(version=1, supersedes__isnull=True) | Q(version__gt=1, supersedes__isnull=False),
                name="hand_versions_chain",
            ),
        ]
        # No index of (match, status, number): the current hands of a match are read through
        # hand_one_current_version_per_number's partial unique index, (match, number) where not
        # superseded.

    def __str__(self) -> str:
        return _("%(match)s, hand %(number)s v%(version)s (%(status)s)") % {
            "match": self.match,
            "number": self.number,
            "version": self.version,
            "status": self.get_status_display(),
        }

    @property
    def is_current(self) -> bool:
        return self.status != self.Status.SUPERSEDED


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        PLAYER_CREATE = "player_create", _("player added")
        PLAYER_MERGE = "player_merge", _("player merged")
        MATCH_CREATE = "match_create", _("match started")
        SCORER_ADD = "scorer_add", _("scorer added")
        HAND_RECORD = "hand_record", _("hand recorded")
        HAND_CORRECT = "hand_correct", _("hand corrected")
        #: A later hand re-evaluated (new version) after a correction or a recompute.
        HAND_REEVALUATE = "hand_reevaluate", _("hand re-evaluated")
        MATCH_VOID = "match_void", _("match voided")
        MATCH_REOPEN = "match_reopen", _("match reopened")
        MATCH_RECOMPUTE = "match_recompute", _("match recomputed")
        HAND_CONFIRM = "hand_confirm", _("hand confirmed")
        HAND_DISPUTE = "hand_dispute", _("hand disputed")
        CLAIM_CODE_CREATE = "claim_code_create", _("account code given")
        PLAYER_LINK = "player_link", _("player linked to an account")
        MATCH_PLAYED_AT = "match_played_at", _("date played changed")
        PLAYER_ANONYMISE = "player_anonymise", _("player anonymised")

    # Only ``match`` and ``at`` are indexed: the log is read per match (newest first) and, in
    # the admin, as a whole by date; every index costs each write an insert.
    #: Null for the system (a task with no user behind it).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("by"),
        help_text=_("Empty for the system (a background task)."),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="audit", verbose_name=_("match")
    )
    hand = models.ForeignKey(
        Hand,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="audit",
        db_index=False,
        verbose_name=_("hand"),
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        verbose_name=_("player"),
    )
    payload = models.JSONField(_("details"), default=dict)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"


class HandConfirmation(models.Model):
    """The answer of the side that did not record a hand to one version of it: confirmed, or
    disputed with a reason. Rows are only added: the latest row of a version is its answer, and
    a new version (a correction, a re-evaluation) starts with none (docs/recording.md)."""

    class Answer(models.TextChoices):
        CONFIRMED = "confirmed", pgettext_lazy("a hand", "confirmed")
        DISPUTED = "disputed", pgettext_lazy("a hand", "disputed")

    #: Indexed: the score sheet reads the answers of a match at once.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="confirmations", verbose_name=_("match")
    )
    #: The version answered (a Hand row); unindexed, as every read goes through the match.
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        related_name="confirmations",
        db_index=False,
        verbose_name=_("hand"),
    )
    answer = models.CharField(_("answer"), max_length=16, choices=Answer.choices)
    #: The player of the other side who gave the answer.
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", db_index=False, verbose_name=_("player")
    )
    #: Given on the scorer's device, passed across the table (else on the player's own account).
    at_table = models.BooleanField(
        _("at the table"),
        default=False,
        help_text=_("Given on the scorer's device at the table, not on the player's own account."),
    )
    #: The signed-in user whose device sent it: the scorer at the table, or the player himself.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("sent by"),
    )
    reason = models.TextField(_("reason"), blank=True, help_text=_("Why the hand is disputed."))
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["match", "hand", "at", "id"]
        verbose_name = _("hand confirmation")
        verbose_name_plural = _("hand confirmations")
        constraints = [
            models.CheckConstraint(
                condition=Q(answer__in=["confirmed", "disputed"]), name="confirmation_answer_known"
            ),
            models.CheckConstraint(
                condition=Q(answer="confirmed") | ~Q(reason=""), name="confirmation_dispute_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return _("%(hand)s: %(answer)s by %(player)s") % {
            "hand": self.hand,
            "answer": self.get_answer_display(),
            "player": self.player,
        }


class PlayerClaimCode(models.Model):
    """A one-time code with which a user links his account to ``player`` (``player_claim``).

    A scorer of one of the player's matches makes it and reads it out; only its keyed digest
    is kept (the code is shown once), it expires after ``PLAYER_CLAIM_CODE_TTL_MINUTES`` and
    serves once."""

    #: Not a column: the code as shown once, set on the row its creation returns.
    code: str

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="claim_codes", verbose_name=_("player")
    )
    #: The match whose scorer gave it (he may give codes to the players of his matches).
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=False,
        verbose_name=_("match"),
    )  # fmt: skip
    #: HMAC-SHA256 of the code under the site's secret key: the code itself is never stored.
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("given by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("used by"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("account code")
        verbose_name_plural = _("account codes")

    def __str__(self) -> str:
        return _("code for %(player)s") % {"player": self.player}
