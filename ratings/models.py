"""Player ratings per game: derived data, rebuilt at will from the recorded matches.

Nothing here is a fact of the table: the matches and their hands are (scorekeeper.matches).
Every row below can be deleted and rebuilt by a full recompute with the same floats.

- ``RatingPool``: one per game key; its row is the lock that makes one writer per pool.
- ``PlayerRating``: a player's current rating in a pool (mu, sigma, counts).
- ``RatingHistory``: per player per rated match, the rating before and after, the place and
  the win probability the model gave his side before the match.
- ``RatingEvent``: "look at this match again" (finished, corrected while finished, voided,
  reopened), written in the same transaction as that write; processed by a Celery task.
  The time of a match's first event is its place in the pool's order.
- ``RecomputeJob``: a full recompute (nightly or asked for by staff), with its progress.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class RatingPool(models.Model):
    """The ratings of one game (one pool per game key)."""

    game = models.CharField(max_length=32, unique=True)
    #: How many matches the pool has rated (finished, not void).
    matches = models.PositiveIntegerField(default=0)
    #: The last match of the pool's order that was rated, and when it finished.
    last_match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    last_finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    #: The last full recompute that rebuilt this pool (a redelivered pool task skips it).
    recomputed_by = models.ForeignKey(
        "RecomputeJob", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    recomputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return self.game


class PlayerRating(models.Model):
    """A player's current rating in one pool: ``mu`` and ``sigma`` of the skill belief."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    player = models.ForeignKey("matches.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    #: The displayed rating, ``mu − z·sigma`` of the rater (stored: the leaderboard sorts by it).
    conservative = models.FloatField()
    matches = models.PositiveIntegerField()
    #: Matches he finished first in (a shared first place counts).
    wins = models.PositiveIntegerField()
    last_played_at = models.DateTimeField()

    class Meta:
        ordering = ["pool", "-conservative", "player"]
        constraints = [models.UniqueConstraint(fields=["pool", "player"], name="rating_one_per_player_pool")]
        indexes = [models.Index(fields=["pool", "-conservative", "player"], name="rating_leaderboard_idx")]

    def __str__(self) -> str:
        return f"{self.player} {self.pool}: {self.conservative:.2f}"


class RatingHistory(models.Model):
    """One player's part in one rated match of a pool. Rebuilt from the match on on every replay."""

    # No foreign-key constraints in the database: a full recompute writes hundreds of thousands of
    # rows, and PostgreSQL's deferred checks of three keys each doubled its time. The rows are
    # derived from matches and players that are never deleted, and rebuilt at will.
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        "matches.Player", on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    #: The match's place in the pool's order (with its id): when it first finished.
    finished_at = models.DateTimeField()
    #: His side (0-based, seat order; piquet-voleur: the team) and its place (1-based, ties share).
    side = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    #: The probability the model gave his side, before the match, of the first place.
    win_probability = models.FloatField()

    class Meta:
        ordering = ["pool", "player", "-finished_at", "-match"]
        verbose_name_plural = "rating history"
        # Two indexes only (each costs the bulk write of a recompute): a player's history in a
        # pool, and the pool in its order (a replay deletes and rewrites from a match on).
        indexes = [
            models.Index(fields=["pool", "player", "finished_at", "match"], name="rating_history_player_idx"),
            models.Index(fields=["pool", "finished_at", "match"], name="rating_history_order_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.match}: {self.mu_before:.2f} → {self.mu_after:.2f}"


class RatingEvent(models.Model):
    """A write that changes what a pool must rate; processed by ``ratings.event_process``."""

    class Kind(models.TextChoices):
        FINISH = "finish", "finished"
        CORRECT = "correct", "corrected while finished"
        VOID = "void", "voided"
        REOPEN = "reopen", "reopened"

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="rating_events")
    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    at = models.DateTimeField()
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["game", "at"], name="rating_event_game_at_idx"),
            models.Index(fields=["game", "id"], condition=Q(processed_at__isnull=True),
                         name="rating_event_pending_idx"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.kind} {self.game} match {self.match_id}"


class RecomputeJob(models.Model):
    """A full recompute: one Celery task per pool, fanned out as a group; ``done`` of ``total`` pools."""

    class Status(models.TextChoices):
        RUNNING = "running", "running"
        DONE = "done", "done"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    #: The pools to rebuild (ids), fixed when the job is asked for.
    pools = models.JSONField(default=list)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"recompute #{self.pk}: {self.done}/{self.total} {self.status}"
