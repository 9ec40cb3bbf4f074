"""Player ratings per game: derived data, rebuilt at will from the recorded matches.

Nothing here is a fact of the table: the matches and their hands are (scorekeeper.matches).
Every row below can be deleted and rebuilt by a full recompute with the same floats.

- ``RatingPool``: one per game key; its row is the lock that makes one writer per pool.
- ``PlayerRating``: a player's current rating in a pool (mu, sigma, counts).
- ``RatingHistory``: per player per rated match, the rating before and after, the place and
  the win probability the model gave his side before the match.
- ``RatingEvent``: "look at this match again" (finished, corrected while finished, voided,
  reopened), written in the same transaction as that write; processed by a Celery task.
  A match's place in the pool's order is when it was played: the time its scorer gave, else
  the time of its first event (when it first finished).
- ``RecomputeJob``: a full recompute (nightly or asked for by staff), with its progress.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.matches import terms


class RatingPool(models.Model):
    """The ratings of one game (one pool per game key)."""

    game = models.CharField(_("game"), max_length=32, unique=True)
    #: How many matches the pool has rated (finished, not void).
    matches = models.PositiveIntegerField(
        _("rated matches"), default=0, help_text=_("The matches the pool has rated: finished, not void.")
    )
    #: The last match of the pool's order that was rated, and when it was played.
    last_match = models.ForeignKey(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("last rated match"),
    )
    last_finished_at = models.DateTimeField(
        _("last match played at"),
        null=True,
        blank=True,
        help_text=_("When the last match of the pool's order was played."),
    )
    updated_at = models.DateTimeField(_("updated at"), null=True, blank=True)
    #: The last full recompute that rebuilt this pool (a redelivered pool task skips it).
    recomputed_by = models.ForeignKey(
        "RecomputeJob",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        verbose_name=_("recomputed by"),
        help_text=_("The last full recompute that rebuilt this pool."),
    )
    recomputed_at = models.DateTimeField(_("recomputed at"), null=True, blank=True)
    #: The model's parameters fitted to this pool's matches (``manage.py ratings_fit``), over the
    #: default's: NULL until fitted, ``{}`` when the pool is too small and keeps the defaults.
    parameters = models.JSONField(
        _("model parameters"),
        null=True,
        blank=True,
        help_text=_("The rating model's parameters fitted to this pool's matches; empty: the defaults."),
    )
    #: What the last fit found: when, on how many matches, each candidate's Brier score.
    fit_report = models.JSONField(_("last fit"), null=True, blank=True)

    class Meta:
        ordering = ["game"]
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")

    def __str__(self) -> str:
        """The game's title in the active language (its key for a game the engine does not know)."""
        return terms.game_title(self.game)


class PlayerRating(models.Model):
    """A player's current rating in one pool: ``mu`` and ``sigma`` of the skill belief."""

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="ratings", db_index=False, verbose_name=_("pool")
    )
    player = models.ForeignKey(
        "matches.Player", on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    mu = models.FloatField("μ", help_text=_("The estimated skill."))
    sigma = models.FloatField("σ", help_text=_("The uncertainty of the estimated skill."))
    #: The displayed rating, ``mu − z·sigma`` of the rater (stored: the leaderboard sorts by it).
    conservative = models.FloatField(
        _("rating"), help_text=_("The displayed rating: the skill less a margin for its uncertainty.")
    )
    #: The rating shown (ratings.display: ``1500 + k·(mu − mu₀)`` in whole points), stored so
    #: that the boards order and rank by it through an index instead of computing it for every
    #: row of the pool. Written with mu, by the replay and the recompute (a change of the
    #: model's scale is followed by a recompute, which writes it anew).
    rating = models.IntegerField(
        _("displayed rating"), help_text=_("The rating shown, in whole points: the boards' order.")
    )
    matches = models.PositiveIntegerField(_("rated matches"))
    #: Matches he finished first in (a shared first place counts).
    wins = models.PositiveIntegerField(
        _("wins"), help_text=_("The matches the player finished first in (a shared first place counts).")
    )
    last_played_at = models.DateTimeField(_("last played at"))

    class Meta:
        ordering = ["pool", "-rating", "sigma", "player"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [models.UniqueConstraint(fields=["pool", "player"], name="rating_one_per_player_pool")]
        # The boards' order (ratings.reads.boards.leaderboard). Their filters' columns and the id
        # are carried in it (PostgreSQL), so that a page's ids, its count and a rank's count
        # of the rows above are read from the index alone.
        indexes = [
            models.Index(
                fields=["pool", "-rating", "sigma", "player"],
                include=["matches", "last_played_at", "id"],
                name="rating_board_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.pool}: {self.conservative:.2f}"


class RatingHistory(models.Model):
    """One player's part in one rated match of a pool. Rebuilt from the match on on every replay."""

    # No foreign-key constraints in the database: a full recompute writes hundreds of thousands of
    # rows, and PostgreSQL's deferred checks of three keys each doubled its time. The rows are
    # derived from matches and players that are never deleted, and rebuilt at will.
    pool = models.ForeignKey(
        RatingPool,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
        verbose_name=_("pool"),
    )
    player = models.ForeignKey(
        "matches.Player",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
        verbose_name=_("player"),
    )
    match = models.ForeignKey(
        "matches.Match",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
        verbose_name=_("match"),
    )
    #: The match's place in the pool's order (with its id): when it was played, the time its
    #: scorer gave (``Match.played_at``), else when it first finished (its last hand recorded).
    played_at = models.DateTimeField(
        _("played at"), help_text=_("When the match was played: its place in the pool's order.")
    )
    #: His side (0-based, seat order; piquet-voleur: the team) and its place (1-based, ties share).
    side = models.PositiveSmallIntegerField(
        _("side"), help_text=_("The player's side, from 0 in seat order (piquet-voleur: the team).")
    )
    place = models.PositiveSmallIntegerField(
        _("place"), help_text=_("The side's place in the match, from 1 (a tie shares it).")
    )
    mu_before = models.FloatField(_("μ before"))
    sigma_before = models.FloatField(_("σ before"))
    mu_after = models.FloatField(_("μ after"))
    sigma_after = models.FloatField(_("σ after"))
    #: The probability the model gave his side, before the match, of the first place.
    win_probability = models.FloatField(
        _("win probability"),
        help_text=_(
            "The probability the model gave the player's side, before the match, of the first place."
        ),
    )

    class Meta:
        ordering = ["pool", "player", "-played_at", "-match"]
        verbose_name = _("rating history entry")
        verbose_name_plural = _("rating history")
        # Two indexes only (each costs the bulk write of a recompute): a player's history in a
        # pool, and the pool in its order (a replay deletes and rewrites from a match on).
        indexes = [
            models.Index(fields=["pool", "player", "played_at", "match"], name="rating_history_player_idx"),
            models.Index(fields=["pool", "played_at", "match"], name="rating_history_order_idx"),
        ]

    def __str__(self) -> str:
        return _("%(player)s in %(match)s: %(before)s → %(after)s") % {
            "player": self.player,
            "match": self.match,
            "before": f"{self.mu_before:.2f}",
            "after": f"{self.mu_after:.2f}",
        }


class RatingEvent(models.Model):
    """A write that changes what a pool must rate; processed by ``ratings.event_process``."""

    class Kind(models.TextChoices):
        FINISH = "finish", pgettext_lazy("a match, rating event", "finished")
        CORRECT = "correct", pgettext_lazy("a match, rating event", "corrected while finished")
        VOID = "void", pgettext_lazy("a match, rating event", "voided")
        REOPEN = "reopen", pgettext_lazy("a match, rating event", "reopened")
        CONFIRM = "confirm", pgettext_lazy("a match, rating event", "confirmed by the other side")
        UNCONFIRM = "unconfirm", pgettext_lazy("a match, rating event", "disputed after its confirmation")

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="rating_events", verbose_name=_("match")
    )
    game = models.CharField(_("game"), max_length=32)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    at = models.DateTimeField(_("at"))
    processed_at = models.DateTimeField(_("processed at"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("rating event")
        verbose_name_plural = _("rating events")
        indexes = [
            models.Index(fields=["game", "at"], name="rating_event_game_at_idx"),
            models.Index(fields=["game", "id"], condition=Q(processed_at__isnull=True),
                         name="rating_event_pending_idx"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return _("%(kind)s: %(game)s match %(match)s") % {
            "kind": self.get_kind_display(),
            "game": self.game,
            "match": self.match_id,
        }


class RecomputeJob(models.Model):
    """A full recompute: one Celery task per pool, fanned out as a group; ``done`` of ``total`` pools."""

    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("a recompute job", "running")
        DONE = "done", pgettext_lazy("a recompute job", "done")

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("requested by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(_("pools to rebuild"), default=0)
    done = models.PositiveIntegerField(_("pools rebuilt"), default=0)
    #: The pools to rebuild (ids), fixed when the job is asked for.
    pools = models.JSONField(
        _("pools"),
        default=list,
        help_text=_("The pools to rebuild (ids), fixed when the recompute is asked for."),
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("recompute job")
        verbose_name_plural = _("recompute jobs")

    def __str__(self) -> str:
        return _("recompute #%(job)s: %(done)s/%(total)s pools, %(status)s") % {
            "job": self.pk,
            "done": self.done,
            "total": self.total,
            "status": self.get_status_display(),
        }
